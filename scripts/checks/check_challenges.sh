#!/usr/bin/env bash
# Consumer check for dist/supabase/{migrations/*.sql,seed.sql} (the Supabase CLI layout): loads
# them into a REAL, throwaway PostgreSQL server and asserts the rules of the daily quiz with SQL.
#
#   - the server runs from a fresh cluster in a temporary directory, on a unix socket in that
#     directory only (listen_addresses = ''), as an unprivileged user when run as root;
#   - the migration is applied twice, seed.sql is loaded twice: the rows must be identical after
#     the second load (ids, answers, timestamps);
#   - CHALLENGE_DAYS rows (365 by default), unique dates, exactly one type per row, every
#     answer a feature id of dist/world.geojson, capital questions only on countries with a
#     capital, no silhouette question on a point country, the repeat window holds;
#   - a country name with a quote, a backslash, a semicolon and a line break, fed through
#     geo-challenges, cannot break the SQL;
#   - the live table (issue #12): a table shaped like it (scripts/checks/daily_challenges_app.sql) with 365
#     hand-written rows from 2026-02-17 (generated deterministically, with repeats within 30
#     days) is exported with \copy, geo-challenges runs with --existing and a --from in the middle
#     (a dry run first), the migration and the seed are loaded twice: no row that existed
#     differs (full dumps), every day up to the horizon has exactly one question, the repeat
#     window holds across the boundary; then again with --replan-future and a later --from;
#   - a table with two rows on one date makes the migration stop with a message listing the
#     dates, and leaves the table as it was;
#   - the server is stopped and the directory removed on any exit (trap).
set -euo pipefail
cd "$(dirname "$0")/../.."

WORLD=${WORLD_OUT:-dist/world.geojson}
# The migration the stage writes now, named as its file in Sources/DailyChallenges/Migrations/ (a
# stale one left in the folder must not be tested instead).
SCHEMA=${CHALLENGES_DIR:-dist/supabase}/migrations/$(basename Sources/DailyChallenges/Migrations/*.sql)
SEED=${CHALLENGES_DIR:-dist/supabase}/seed.sql
DAYS=${CHALLENGE_DAYS:-365}
BIN=${BIN:-.build/release}
PY=${PYTHON:-python3}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}

source scripts/checks/lib/pg.sh
needs check_challenges "run make challenges" "$WORLD" "$SCHEMA" "$SEED"
if [ ! -x "$PGBIN/postgres" ]; then
  bash scripts/setup.sh --test
  [ -x "$PGBIN/postgres" ] || PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
fi
[ -x "$PGBIN/postgres" ] || { echo "check_challenges: no PostgreSQL server binaries found"; exit 1; }

pg_start check_challenges
PG=("${PSQL[@]}" -d postgres)
fail=0

echo "PostgreSQL $(sql 'show server_version') on $SOCK"
"${PG[@]}" -f "$SCHEMA"
"${PG[@]}" -f "$SCHEMA"           # applying the schema twice is harmless
"${PG[@]}" -f "$SEED"
snapshot="select md5(string_agg(concat_ws('|', id, date, is_guess_country, is_guess_capital, is_guess_flag, answer, created_at, updated_at), E'\n' order by date)) from public.daily_challenges"
first=$(sql "$snapshot")
sleep 1                              # a second load that rewrote rows would change updated_at
"${PG[@]}" -f "$SEED"
expect "seed.sql loaded twice leaves identical rows" "$first" "$snapshot"

# The country set, read from world.geojson by Python's json (an independent reader).
"$PY" scripts/checks/lib/world_table.py "$WORLD" id has_capital is_point >"$TMP/world.tsv"
sql "create table world (id text primary key, has_capital boolean not null, is_point boolean not null)"
"${PG[@]}" -c "\\copy world from '$TMP/world.tsv'"
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
  "$PY" scripts/checks/lib/challenges_hostile_world.py "$WORLD" "$TMP/evil.geojson"
  "$BIN/geo-challenges" "$TMP/evil.geojson" --out-dir "$TMP/evil" --days "$DAYS" --from 2026-01-01 -q
  sql "create schema evil"
  sed 's/public\.daily_challenges/evil.daily_challenges/g' "$TMP"/evil/migrations/*.sql >"$TMP/evil/schema2.sql"
  sed 's/public\.daily_challenges/evil.daily_challenges/g' "$TMP/evil/seed.sql" >"$TMP/evil/seed2.sql"
  "${PG[@]}" -f "$TMP/evil/schema2.sql"
  "${PG[@]}" -f "$TMP/evil/seed2.sql"
  expect "hostile names: seed loads, both tables intact" "$DAYS|$DAYS|$(wc -l <"$TMP/world.tsv")" \
    "select (select count(*) from evil.daily_challenges), (select count(*) from public.daily_challenges), (select count(*) from world)"
else
  echo "  FAIL $BIN/geo-challenges is missing; cannot run the hostile-name check"; fail=1
fi

# ---- the live table: continue a hand-written schedule, never rewrite it (issue #12) ----------
if [ -x "$BIN/geo-challenges" ]; then
  FROM=2026-08-18                       # in the middle of the hand-written range
  LAST=2027-02-16                       # its last day
  LDB=("${PSQL[@]}" -d live)
  lsql() { pg_sql live "$1"; }
  lexpect() { pg_expect live "$@"; }  # lexpect NAME EXPECTED QUERY (on the live copy)
  dump() { "${LDB[@]}" -c "\\copy (select * from public.daily_challenges $1 order by date, id) to '$2' csv"; }
  sql "create database live"
  # 365 hand-written rows from 2026-02-17: one type each, answers from world.geojson, with
  # repeats within 30 days (as the real one has), deterministic (a fixed LCG).
  "$PY" scripts/checks/lib/challenges_handwritten.py "$TMP/world.tsv" >"$TMP/handwritten.csv"
  "${LDB[@]}" -f scripts/checks/daily_challenges_app.sql
  "${LDB[@]}" -c "\\copy public.daily_challenges (date, is_guess_country, is_guess_capital, is_guess_flag, answer) from '$TMP/handwritten.csv' csv header"
  lexpect "hand-written table: 365 rows 2026-02-17 … $LAST" "365|2026-02-17|$LAST" "select count(*), min(date), max(date) from public.daily_challenges"
  repeats=$(lsql "select count(*) from public.daily_challenges a join public.daily_challenges b on a.answer = b.answer and a.date < b.date and b.date - a.date < 30")
  if [ "${repeats:-0}" -gt 0 ]; then echo "  ok   hand-written table repeats an answer within 30 days ($repeats times)"
  else echo "  FAIL the hand-written table has no repeats within 30 days"; fail=1; fi
  "${LDB[@]}" -c "\\copy (select date, is_guess_country, is_guess_capital, is_guess_flag, answer from public.daily_challenges order by date) to '$TMP/existing.csv' csv header"
  dump "" "$TMP/before-all.csv"
  dump "where date < date '$FROM'" "$TMP/before-past.csv"
  sleep 1                                # rows this run adds or rewrites get a later timestamp
  T0=$(lsql "select now()")

  # A dry run says what would change and writes nothing.
  added=$(( DAYS - ($(date -u -d "$LAST" +%s) - $(date -u -d "$FROM" +%s)) / 86400 - 1 ))
  dry=$("$BIN/geo-challenges" "$WORLD" --existing "$TMP/existing.csv" --from "$FROM" --days "$DAYS" --out-dir "$TMP/live-dry" --dry-run 2>&1 | tail -1)
  if [[ "$dry" == *"$added days added, 0 days replanned"*"0 past rows touched"* ]] && [ ! -e "$TMP/live-dry" ]; then
    echo "  ok   dry run: $added days added, 0 replanned, 0 past rows touched, nothing written"
  else echo "  FAIL dry run said: $dry (expected $added days added, 0 days replanned, 0 past rows touched; nothing written)"; fail=1; fi

  "$BIN/geo-challenges" "$WORLD" --existing "$TMP/existing.csv" --from "$FROM" --days "$DAYS" --out-dir "$TMP/live" -q
  for f in "$TMP"/live/migrations/*.sql "$TMP"/live/migrations/*.sql "$TMP/live/seed.sql"; do "${LDB[@]}" -f "$f"; done
  dump "" "$TMP/after1.csv"
  "${LDB[@]}" -f "$TMP/live/seed.sql"
  dump "" "$TMP/after2.csv"
  if cmp -s "$TMP/after1.csv" "$TMP/after2.csv"; then echo "  ok   live: seed loaded twice leaves identical rows"
  else echo "  FAIL live: the second seed load changed rows"; fail=1; fi
  dump "where date < date '$FROM'" "$TMP/after-past.csv"
  if cmp -s "$TMP/before-past.csv" "$TMP/after-past.csv"; then echo "  ok   live: not one row dated before $FROM differs (full dump, $(wc -l <"$TMP/before-past.csv") rows)"
  else echo "  FAIL live: rows before $FROM changed"; diff "$TMP/before-past.csv" "$TMP/after-past.csv" | head -5; fail=1; fi
  dump "where created_at < timestamptz '$T0'" "$TMP/after-old.csv"
  if cmp -s "$TMP/before-all.csv" "$TMP/after-old.csv"; then echo "  ok   live: no existing row changed (all 365, full dump)"
  else echo "  FAIL live: existing rows changed"; diff "$TMP/before-all.csv" "$TMP/after-old.csv" | head -5; fail=1; fi
  horizon=$(date -u -d "$FROM + $((DAYS - 1)) days" +%F)
  lexpect "live: every day 2026-02-17 … $horizon has exactly one question" "0|0" \
    "select (select count(*) from generate_series(date '2026-02-17', date '$horizon', interval '1 day') g(d) where (select count(*) from public.daily_challenges c where c.date = g.d::date) <> 1), (select count(*) from public.daily_challenges where date > date '$horizon')"
  lexpect "live: the new rows are $added days from the day after $LAST" "$added|2027-02-17" "select count(*), min(date) from public.daily_challenges where created_at >= timestamptz '$T0'"
  lexpect "live: exactly one type per row" "0" "select count(*) from public.daily_challenges where (is_guess_country::int + is_guess_capital::int + is_guess_flag::int) <> 1"
  lexpect "live: no new row repeats an answer of any row within $WINDOW days (across the boundary)" "0" \
    "select count(*) from public.daily_challenges a join public.daily_challenges b on a.answer = b.answer and a.date < b.date and b.date - a.date < $WINDOW where a.created_at >= timestamptz '$T0' or b.created_at >= timestamptz '$T0'"
  lexpect "live: consecutive days never ask the same type (new rows)" "0" \
    "select count(*) from public.daily_challenges a join public.daily_challenges b on b.date = a.date + 1 where (a.is_guess_country, a.is_guess_capital, a.is_guess_flag) = (b.is_guess_country, b.is_guess_capital, b.is_guess_flag) and (a.created_at >= timestamptz '$T0' or b.created_at >= timestamptz '$T0')"

  # --replan-future from a later day: nothing before it changes, the window holds across it.
  FROM2=2026-12-01
  "${LDB[@]}" -c "\\copy (select date, is_guess_country, is_guess_capital, is_guess_flag, answer from public.daily_challenges order by date) to '$TMP/existing2.csv' csv header"
  dump "where date < date '$FROM2'" "$TMP/before2-past.csv"
  sleep 1
  T1=$(lsql "select now()")
  # Replayed as of 2026-11-22 (--today), so the check means the same on any date it runs.
  if msg=$("$BIN/geo-challenges" "$WORLD" --existing "$TMP/existing2.csv" --from 2026-11-22 --today 2026-11-22 --days "$DAYS" --replan-future --out-dir "$TMP/replan-today" -q 2>&1) \
     || [ -e "$TMP/replan-today" ] || [[ "$msg" != *"is not after today (2026-11-22, UTC)"* ]]; then
    echo "  FAIL replan from today was not refused cleanly: $msg"; fail=1
  else echo "  ok   replan from today (its question is live) refused, nothing written"; fi
  "$BIN/geo-challenges" "$WORLD" --existing "$TMP/existing2.csv" --from "$FROM2" --today 2026-11-22 --days "$DAYS" --replan-future --out-dir "$TMP/replan" -q
  for f in "$TMP"/replan/migrations/*.sql "$TMP/replan/seed.sql" "$TMP/replan/seed.sql"; do "${LDB[@]}" -f "$f"; done
  dump "where date < date '$FROM2'" "$TMP/after2-past.csv"
  if cmp -s "$TMP/before2-past.csv" "$TMP/after2-past.csv"; then echo "  ok   replan: not one row dated before $FROM2 differs (full dump)"
  else echo "  FAIL replan: rows before $FROM2 changed"; fail=1; fi
  changed=$(lsql "select count(*) from public.daily_challenges where updated_at >= timestamptz '$T1' or created_at >= timestamptz '$T1'")
  early=$(lsql "select count(*) from public.daily_challenges where (updated_at >= timestamptz '$T1' or created_at >= timestamptz '$T1') and date < date '$FROM2'")
  if [ "${changed:-0}" -gt 0 ] && [ "$early" = "0" ]; then echo "  ok   replan: $changed rows from $FROM2 on rewritten or added, 0 before"
  else echo "  FAIL replan: $changed rows rewritten or added, $early of them before $FROM2"; fail=1; fi
  horizon2=$(date -u -d "$FROM2 + $((DAYS - 1)) days" +%F)
  lexpect "replan: every day 2026-02-17 … $horizon2 has exactly one question" "0" \
    "select count(*) from generate_series(date '2026-02-17', date '$horizon2', interval '1 day') g(d) where (select count(*) from public.daily_challenges c where c.date = g.d::date) <> 1"
  lexpect "replan: no answer from $FROM2 on repeats one of any row within $WINDOW days" "0" \
    "select count(*) from public.daily_challenges a join public.daily_challenges b on a.answer = b.answer and a.date < b.date and b.date - a.date < $WINDOW where b.date >= date '$FROM2'"

  # A table with two rows on one date: the migration stops, names the dates, changes nothing.
  sql "create database dup"
  DDB=("${PSQL[@]}" -d dup)
  "${DDB[@]}" -f scripts/checks/daily_challenges_app.sql
  "${DDB[@]}" <<'SQLEOF'
insert into public.daily_challenges (date, is_guess_flag, answer) values
  ('2026-02-17', true, 'FR'), ('2026-02-18', true, 'DE'), ('2026-02-18', true, 'IT'),
  ('2026-03-01', true, 'ES'), ('2026-03-01', true, 'PT'), ('2026-03-01', true, 'GR');
SQLEOF
  "${DDB[@]}" -c "\\copy (select * from public.daily_challenges order by date, id) to '$TMP/dup-before.csv' csv"
  if msg=$("${DDB[@]}" -f "$SCHEMA" 2>&1); then echo "  FAIL the migration accepted a table with duplicated dates"; fail=1; fi
  if [[ "$msg" == *"more than one row on these dates: 2026-02-18 (2 rows), 2026-03-01 (3 rows)"* ]]; then
    echo "  ok   duplicated dates: the migration stops and lists them"
  else echo "  FAIL duplicated dates: the migration said: $msg"; fail=1; fi
  "${DDB[@]}" -c "\\copy (select * from public.daily_challenges order by date, id) to '$TMP/dup-after.csv' csv"
  if cmp -s "$TMP/dup-before.csv" "$TMP/dup-after.csv"; then echo "  ok   duplicated dates: the table is as it was (full dump)"
  else echo "  FAIL duplicated dates: rows changed"; fail=1; fi
  got=$("${DDB[@]}" -At -c "select count(*) from pg_constraint where conrelid = 'public.daily_challenges'::regclass and conname in ('daily_challenges_date_key', 'daily_challenges_one_type', 'daily_challenges_answer_iso')")
  if [ "$got" = "0" ]; then echo "  ok   duplicated dates: no constraint added"
  else echo "  FAIL duplicated dates: $got constraints added"; fail=1; fi
else
  echo "  FAIL $BIN/geo-challenges is missing; cannot run the live-table checks"; fail=1
fi

[ $fail -eq 0 ] && echo "check_challenges: all checks passed" || echo "check_challenges: FAILED"
exit $fail
