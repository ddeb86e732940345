#!/usr/bin/env bash
# Consumer check for dist/supabase/{schema,seed}.sql: loads them into a REAL, throwaway
# PostgreSQL server and asserts the rules of the daily quiz with SQL.
#
#   - the server runs from a fresh cluster in a temporary directory, on a unix socket in that
#     directory only (listen_addresses = ''), as an unprivileged user when run as root;
#   - schema.sql is applied twice, seed.sql is loaded twice: the rows must be identical after
#     the second load (ids, answers, timestamps);
#   - CHALLENGE_DAYS rows (365 by default), unique dates, exactly one type per row, every
#     answer a feature id of dist/world.geojson, capital questions only on countries with a
#     capital, no silhouette question on a point country, the repeat window holds;
#   - a country name with a quote, a backslash, a semicolon and a line break, fed through
#     geo-challenges, cannot break the SQL;
#   - the server is stopped and the directory removed on any exit (trap).
set -euo pipefail
cd "$(dirname "$0")/../.."

WORLD=${WORLD_OUT:-dist/world.geojson}
SCHEMA=${CHALLENGES_DIR:-dist/supabase}/schema.sql
SEED=${CHALLENGES_DIR:-dist/supabase}/seed.sql
DAYS=${CHALLENGE_DAYS:-365}
BIN=${BIN:-.build/release}
PY=${PYTHON:-python3}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}

for f in "$WORLD" "$SCHEMA" "$SEED"; do
  [ -f "$f" ] || { echo "check_challenges: $f is missing (run make challenges)"; exit 1; }
done
if [ ! -x "$PGBIN/postgres" ]; then
  bash scripts/setup.sh --test
  [ -x "$PGBIN/postgres" ] || PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
fi
[ -x "$PGBIN/postgres" ] || { echo "check_challenges: no PostgreSQL server binaries found"; exit 1; }

TMP=$(mktemp -d /tmp/check_challenges.XXXXXX)
DATA="$TMP/data"; SOCK="$TMP/sock"
mkdir -p "$DATA" "$SOCK"
as_db() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
  # PostgreSQL refuses to run as root: run the server as `nobody`, owner of the temp dir.
  chown -R nobody "$TMP"; chmod 700 "$TMP"
  as_db() { runuser -u nobody -- "$@"; }
fi
cleanup() {
  local rc=$?
  if [ -f "$DATA/postmaster.pid" ]; then as_db "$PGBIN/pg_ctl" -D "$DATA" -m immediate -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$TMP"
  exit $rc
}
trap cleanup EXIT INT TERM

as_db "$PGBIN/initdb" -D "$DATA" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >"$TMP/initdb.log" 2>&1 \
  || { cat "$TMP/initdb.log"; exit 1; }
as_db "$PGBIN/pg_ctl" -D "$DATA" -l "$TMP/server.log" -w -t 30 \
  -o "-c listen_addresses='' -c unix_socket_directories='$SOCK' -c fsync=off" start >/dev/null \
  || { cat "$TMP/server.log"; exit 1; }

export PGOPTIONS="-c client_min_messages=warning"
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$SOCK" -U postgres -d postgres)
command -v psql >/dev/null || PSQL[0]="$PGBIN/psql"
sql() { "${PSQL[@]}" -At -c "$1"; }
fail=0
expect() {  # expect NAME EXPECTED QUERY
  local got; got=$(sql "$3" 2>&1) || true
  if [ "$got" = "$2" ]; then echo "  ok   $1"; else echo "  FAIL $1: expected $2, got $got"; fail=1; fi
}

echo "PostgreSQL $(sql 'show server_version') on $SOCK"
"${PSQL[@]}" -f "$SCHEMA"
"${PSQL[@]}" -f "$SCHEMA"           # applying the schema twice is harmless
"${PSQL[@]}" -f "$SEED"
snapshot="select md5(string_agg(concat_ws('|', id, date, is_guess_country, is_guess_capital, is_guess_flag, answer, created_at, updated_at), E'\n' order by date)) from public.daily_challenges"
first=$(sql "$snapshot")
sleep 1                              # a second load that rewrote rows would change updated_at
"${PSQL[@]}" -f "$SEED"
expect "seed.sql loaded twice leaves identical rows" "$first" "$snapshot"

# The country set, read from world.geojson by Python's json (an independent reader).
"$PY" - "$WORLD" >"$TMP/world.tsv" <<'EOF'
import json, sys
for f in json.load(open(sys.argv[1], encoding="utf-8"))["features"]:
    p = f["properties"]
    point = f["geometry"]["type"] == "Point" or p.get("renderAs") == "point"
    print(f"{f['id']}\t{'t' if p.get('capital') else 'f'}\t{'t' if point else 'f'}")
EOF
sql "create table world (id text primary key, has_capital boolean not null, is_point boolean not null)"
"${PSQL[@]}" -c "\\copy world from '$TMP/world.tsv'"
WINDOW=$(sed -n 's/.*repeat window \([0-9][0-9]*\) days.*/\1/p' "$SEED" | head -1)
[ -n "$WINDOW" ] || { echo "  FAIL seed.sql names no repeat window"; exit 1; }

expect "$DAYS rows" "$DAYS" "select count(*) from public.daily_challenges"
expect "unique dates" "$DAYS" "select count(distinct date) from public.daily_challenges"
expect "consecutive dates" "$((DAYS - 1))" "select max(date) - min(date) from public.daily_challenges"
expect "exactly one type per row" "0" "select count(*) from public.daily_challenges where (is_guess_country::int + is_guess_capital::int + is_guess_flag::int) <> 1"
expect "every answer is a feature of $WORLD" "0" "select count(*) from public.daily_challenges c left join world w on w.id = c.answer where w.id is null"
expect "capital questions have capitals" "0" "select count(*) from public.daily_challenges c join world w on w.id = c.answer where c.is_guess_capital and not w.has_capital"
expect "no silhouette question on a point country" "0" "select count(*) from public.daily_challenges c join world w on w.id = c.answer where c.is_guess_country and w.is_point"
expect "no answer twice within $WINDOW days" "0" "select count(*) from public.daily_challenges a join public.daily_challenges b on a.answer = b.answer and a.date < b.date and b.date - a.date < $WINDOW"
expect "repeat window is the requested ${CHALLENGE_WINDOW:-60} days" "${CHALLENGE_WINDOW:-60}" "select ${WINDOW}"
expect "all three types asked" "3" "select (bool_or(is_guess_country)::int + bool_or(is_guess_capital)::int + bool_or(is_guess_flag)::int) from public.daily_challenges"
expect "a second row for a date is refused" "23505" "do \$\$ begin insert into public.daily_challenges (date, is_guess_flag, answer) select min(date), true, 'FR' from public.daily_challenges; raise exception 'accepted'; exception when unique_violation then null; end \$\$; select '23505'"
expect "a row with two types is refused" "23514" "do \$\$ begin insert into public.daily_challenges (date, is_guess_flag, is_guess_capital, answer) values (date '1999-01-01', true, true, 'FR'); raise exception 'accepted'; exception when check_violation then null; end \$\$; select '23514'"

# A hostile country name through the real stage: it only reaches comments and must not escape them.
if [ -x "$BIN/geo-challenges" ]; then
  "$PY" - "$WORLD" "$TMP/evil.geojson" <<'EOF'
import json, sys
w = json.load(open(sys.argv[1], encoding="utf-8"))
for f in w["features"]:
    f["properties"]["name"] = f["properties"]["name"] + "'); drop table public.daily_challenges; -- \\\n drop table world; select ('"
json.dump(w, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
EOF
  "$BIN/geo-challenges" "$TMP/evil.geojson" --out-dir "$TMP/evil" --days "$DAYS" -q
  sql "create schema evil"
  sed 's/public\.daily_challenges/evil.daily_challenges/g' "$TMP/evil/schema.sql" >"$TMP/evil/schema2.sql"
  sed 's/public\.daily_challenges/evil.daily_challenges/g' "$TMP/evil/seed.sql" >"$TMP/evil/seed2.sql"
  "${PSQL[@]}" -f "$TMP/evil/schema2.sql"
  "${PSQL[@]}" -f "$TMP/evil/seed2.sql"
  expect "hostile names: seed loads, both tables intact" "$DAYS|$DAYS|$(wc -l <"$TMP/world.tsv")" \
    "select (select count(*) from evil.daily_challenges), (select count(*) from public.daily_challenges), (select count(*) from world)"
else
  echo "  FAIL $BIN/geo-challenges is missing; cannot run the hostile-name check"; fail=1
fi

[ $fail -eq 0 ] && echo "check_challenges: all checks passed" || echo "check_challenges: FAILED"
exit $fail
