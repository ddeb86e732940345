#!/usr/bin/env bash
# The game's map (issues 29, 41): territory_in_viewport (GeoJSON) and territory_cells_in_viewport
# (H3 ids and counts, and changes since) under load, against the function before the zoom levels
# in the same run, and what keeping the coarse cells costs the night.
#
#   bash bench/territory_viewport.sh        SECONDS_PER_BOX=5 (pgbench -T), VIEWPORT_ROUNDS=3, LARGE_LOOPS=375
#   VIEWPORT_KEEP=build/bench/viewport_pg bash bench/territory_viewport.sh
#                                           the 1M-cell database built once there and reused
#                                           (the game's migrations applied again from dist/);
#                                           VIEWPORT_NIGHT=0 leaves out part 2
#   VIEWPORT_BOXES=street,city VIEWPORT_FUNCTIONS=before,geojson bash bench/territory_viewport.sh
#                                           only those boxes and functions (the ratios of the
#                                           ones measured)
#
# 1. A territory of about 1,000,000 resolution-9 cells claimed by the pipeline's own night
#    (geo-nightly) from generated large loops (scripts/data/make_runs.py --large: loops 14–32 km
#    across around 28 places on every continent and across ±180°, by 300 runners) into a
#    PostgreSQL 15 + PostGIS (unix socket, fsync off); then, per box and per function, pgbench with
#    8 clients as `authenticated` (max_cells 5000), the box's functions in turn VIEWPORT_ROUNDS
#    times (each figure the median of the rounds; a ratio, the median of the rounds' ratios, so
#    that a drift of the machine falls on both sides alike): p50, p95 and p99 latency, the rows
#    (cells) and their resolution; and, load aside, the server's CPU time per call (one client,
#    40 calls, 1,000 for the street box and `since`: the backend's user + system time from /proc)
#    and the bytes of the answer as PostgREST sends it (json_agg of the rows). The functions:
#    `before`, territory_in_viewport as it was before the zoom levels (the game's first
#    migration: every cell meeting the box, sorted, capped), made here as the same-run reference;
#    `geojson`, territory_in_viewport; `cells`,
#    territory_cells_in_viewport; `since`, the same with the number it gave, nothing changed (the
#    call a client polls with). Then the ratios issue 41 asks for, same run; for the every-box
#    bound, before's city box is loaded again in each round of every other box, and each box's
#    ratio is the median of its rounds' ratios to it.
# 2. The night's extra cost per 10,000 runs (build/bench/territory_runs.geojson, as
#    nightly_territory.sh): the night into an empty database, its steps for the coarse cells
#    (their boundaries, the check) from its log, and its cells written again into territory_hex
#    (the merge's insert) with the trigger and without it, alternately, twice.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PY=${PYTHON:-python3}
SECS=${SECONDS_PER_BOX:-5}
ROUNDS=${VIEWPORT_ROUNDS:-3}
KEEP=${VIEWPORT_KEEP:-}
LARGE=build/bench/territory_large.geojson
MIGRATIONS=dist/supabase/game/migrations
[ -x "$BIN/geo-nightly" ] || scripts/swift-release.sh build --product geo-nightly >/dev/null
source bench/lib.sh
source scripts/checks/lib/pg.sh
[ -f "$LARGE" ] || { mkdir -p build/bench; "$PY" scripts/data/make_runs.py --large "${LARGE_LOOPS:-375}" -o "$LARGE"; }
[ "${VIEWPORT_NIGHT:-1}" = 0 ] || runs_file build/bench/territory_runs.geojson
opts=(C timezone=UTC shared_buffers=256MB max_wal_size=4GB)
if [ -n "$KEEP" ]; then
  # The kept cluster: made on the first run, started on the next ones (pg_cleanup stops it at
  # exit, DATA pointing there, and removes TMP only).
  mkdir -p "$KEEP"; KEEP=$(cd "$KEEP" && pwd)
  pg_start bench_viewport "${opts[@]}"
  if [ -f "$KEEP/data/PG_VERSION" ]; then
    as_db "$PGBIN/pg_ctl" -D "$DATA" -m immediate -w stop >/dev/null
    DATA=$KEEP/data
    [ "$(id -u)" -eq 0 ] && chown -R nobody "$KEEP"
    rm -f "$DATA/postmaster.pid"
    as_db "$PGBIN/pg_ctl" -D "$DATA" -l "$TMP/server.log" -w -t 60 -o "-c listen_addresses='' -c unix_socket_directories='$SOCK' -c fsync=off -c timezone=UTC -c shared_buffers=256MB -c max_wal_size=4GB" start >/dev/null
  fi
else
  pg_start bench_viewport "${opts[@]}"
fi
# Supabase's roles (the game's migrations grant to them), once per cluster.
pg_sql postgres "do \$\$ begin if not exists (select from pg_roles where rolname = 'authenticated') then
  create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls; end if; end \$\$" >/dev/null
newdb() { pg_sql postgres "create database $1" >/dev/null; "${PSQL[@]}" -d "$1" -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql >/dev/null; }
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (timings under load are inflated alike)"

if [ "$(pg_sql postgres "select count(*) from pg_database where datname = 'big'")" = 1 ]; then
  for m in "$MIGRATIONS"/*.sql; do "${PSQL[@]}" -d big -f "$m" >/dev/null; done
  echo "the big territory: kept in $KEEP ($(pg_sql big 'select count(*) from territory_hex') cells), the game's migrations applied again from $MIGRATIONS"
else
  newdb big
  read -r w c _ < <(measure "$TMP/big.log" env DATABASE_URL="host=$SOCK user=postgres dbname=big" "$BIN/geo-nightly" --apps territory --runs "$LARGE" --pipeline-commit bench)
  echo "the big night: $(grep -o '[0-9,]* cells owned' "$TMP/big.log" | head -1) from $LARGE in ${w} s wall (geo-nightly CPU ${c} s)"
  grep -E '^\[nightly .*(merge|coarse|map at every zoom).*s\)$' "$TMP/big.log" | sed 's/^/  step: /'
  if [ -n "$KEEP" ]; then
    # Moved into KEEP: the cluster made in TMP, stopped, kept for the next run.
    as_db "$PGBIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null
    rm -rf "$KEEP/data"; mv "$DATA" "$KEEP/data"; DATA=$KEEP/data
    as_db "$PGBIN/pg_ctl" -D "$DATA" -l "$TMP/server.log" -w -t 60 -o "-c listen_addresses='' -c unix_socket_directories='$SOCK' -c fsync=off -c timezone=UTC -c shared_buffers=256MB -c max_wal_size=4GB" start >/dev/null
  fi
fi
"${PSQL[@]}" -d big -c "vacuum analyze" >/dev/null
# The reference: territory_in_viewport as the game's first migration makes it, before the zoom
# levels (its text, taken from the migration), as bench_viewport_before.
{ sed -n '/^create function territory_in_viewport(/,/^\$\$;/p' Sources/TerritoryGame/Migrations/*_territory_viewport.sql \
    | sed 's/^create function territory_in_viewport(/create or replace function bench_viewport_before(/'
  echo "grant execute on function bench_viewport_before(double precision, double precision, double precision, double precision, integer) to authenticated;"
  # It read claimed_at as its caller, as it did before the privacy migration (here only).
  echo "grant select (claimed_at) on territory_hex to authenticated;"
} | "${PSQL[@]}" -d big >/dev/null

# call FN BOX: the SQL of one call, every column of every row made and printed as text (a count
# alone would let the planner skip the before function's GeoJSON); since: with the number a
# whole answer gave just before.
call() {
  case $1 in
    before)  echo "select sum(octet_length(v::text)) from bench_viewport_before($2) v";;
    geojson) echo "select sum(octet_length(v::text)) from territory_in_viewport($2) v";;
    cells)   echo "select sum(octet_length(v::text)) from territory_cells_in_viewport($2) v";;
    since)   echo "select sum(octet_length(v::text)) from territory_cells_in_viewport($2, 5000, $(pg_sql big "set role authenticated; select next from territory_cells_in_viewport($2) where kind = 'all'")) v";;
  esac
}
# shape FN BOX: "cells resolution" of the answer; bytes FN BOX: its bytes as PostgREST sends it.
shape() {
  local from=${1#*from }
  case $1 in
    *bench_viewport_before*) pg_sql big "set role authenticated; select count(*) || ' 9' from $from";;
    *territory_in_viewport*) pg_sql big "set role authenticated; select count(*) || ' ' || coalesce(min(resolution), 0) from $from";;
    *) pg_sql big "set role authenticated; select coalesce(sum(cardinality(hex_ids)) filter (where kind = 'cells'), 0) || ' ' || min(resolution) from $from";;
  esac
}
bytes() { pg_sql big "set role authenticated; select octet_length(coalesce(json_agg(v), '[]')::text) from ${1#*from }"; }
# cpu_ms SQL [N]: the backend's CPU ms per call over N calls (40) as authenticated (one session);
# the kernel counts CPU in ticks (10 ms), so a call of under a millisecond needs hundreds.
cpu_ms() {
  local n=${2:-40}
  { echo "set role authenticated;"; echo "select pg_backend_pid() as pid \\gset"; echo "\\setenv PID :pid"
    echo "$1 \\g /dev/null"; echo "\\! awk '{print \$14 + \$15}' /proc/\$PID/stat"
    for i in $(seq "$n"); do echo "$1 \\g /dev/null"; done
    echo "\\! awk '{print \$14 + \$15}' /proc/\$PID/stat"; } > "$TMP/cpu.sql"
  "${PSQL[@]}" -d big -At -f "$TMP/cpu.sql" | tail -2 | tr '\n' ' ' | awk -v hz="$(getconf CLK_TCK)" -v n="$n" '{ printf "%.2f", ($2 - $1) * 1000 / hz / n }'
}
# load SQL: pgbench -c 8 -j 2 -T SECS as authenticated: "tps p50 p95 p99" (ms)
load() {
  echo "$1;" > "$TMP/q.sql"
  rm -f "$TMP"/pgbench_log.*
  out=$(cd "$TMP" && PGOPTIONS="-c client_min_messages=warning -c role=authenticated" "$PGBIN/pgbench" -n -h "$SOCK" -U postgres -c 8 -j 2 -T "$SECS" -l -f q.sql big 2>&1) \
    || { echo "$out" >&2; exit 1; }
  tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -1)
  cat "$TMP"/pgbench_log.* | awk '{ print $3 / 1000 }' | sort -n | awk -v tps="$tps" '{ a[NR] = $1 } END {
    printf "%.0f %.1f %.1f %.1f\n", tps, a[int(NR * 0.50) + 1], a[int(NR * 0.95) + 1], a[int(NR * 0.99) + 1] }'
}
BOXES=("street:-0.125, 51.505, -0.115, 51.51" "city:-0.25, 51.45, 0.0, 51.56" "region:-1.5, 51.0, 1.0, 52.2"
       "country:-5.0, 42.0, 8.0, 51.0" "continent:-25.0, 34.0, 45.0, 72.0" "world:-180, -90, 180, 90" "across180:170, -30, -170, -5")
echo "per box and function, pgbench -c 8 -j 2 -T $SECS as authenticated, the functions in turn $ROUNDS times (medians), latency in ms;"
echo "cpu: server CPU ms per call, one client;"
echo "bytes: the answer as PostgREST sends it (json_agg of its rows):"
printf '  %-10s %-8s %6s %4s %6s %7s %7s %7s %6s %9s\n' box function cells res tps p50 p95 p99 cpu bytes
declare -A P95 CPU BYTES
if [ -n "${VIEWPORT_BOXES:-}" ]; then
  kept=(); for spec in "${BOXES[@]}"; do [[ ",$VIEWPORT_BOXES," == *",${spec%%:*},"* ]] && kept+=("$spec"); done; BOXES=("${kept[@]}")
fi
FNS=${VIEWPORT_FUNCTIONS:-before,geojson,cells,since}

median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { printf "%s", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
last() { awk '{ print $NF }' <<< "$1"; }   # the last round's figure of a list
declare -A ROUND_RATIOS EVERY_RATIOS
# The reference of the every-box bound: before's city box, loaded again in each round of every
# other box, so that each box's ratio is taken in its own round (a drift of the machine between
# boxes falls on both sides of it).
EVERY=
if [ -z "${VIEWPORT_BOXES:-}${VIEWPORT_FUNCTIONS:-}" ]; then
  for spec in "${BOXES[@]}"; do [ "${spec%%:*}" = city ] && EVERY=$(call before "${spec#*:}"); done
fi
for spec in "${BOXES[@]}"; do
  name=${spec%%:*}; b=${spec#*:}
  declare -A Q=() TPS=() P50=() P95S=() P99=()
  for fn in ${FNS//,/ }; do Q[$fn]=$(call "$fn" "$b"); done
  # The functions in turn, ROUNDS times (a drift of the machine falls on all of them alike); each
  # figure is the median of the rounds, each ratio the median of the rounds' ratios.
  for r in $(seq "$ROUNDS"); do
    for fn in ${FNS//,/ }; do
      read -r tps p50 p95 p99 < <(load "${Q[$fn]}")
      TPS[$fn]+=" $tps"; P50[$fn]+=" $p50"; P95S[$fn]+=" $p95"; P99[$fn]+=" $p99"
    done
    if [ -n "$EVERY" ]; then
      if [ "$name" = city ]; then ref=$(last "${P95S[before]}"); else read -r _ _ ref _ < <(load "$EVERY"); fi
      for fn in geojson cells; do EVERY_RATIOS[$name.$fn]+=" $(ratio "$(last "${P95S[$fn]}")" "$ref")"; done
    fi
    [ -n "${P95S[before]:-}" ] || continue
    for fn in ${FNS//,/ }; do
      [ "$fn" = before ] && continue
      ROUND_RATIOS[$name.$fn]+=" $(ratio "$(last "${P95S[$fn]}")" "$(last "${P95S[before]}")")"
    done
  done
  for fn in ${FNS//,/ }; do
    q=${Q[$fn]}; shape=$(shape "$q"); bytes=$(bytes "$q"); cpu=$(cpu_ms "$q" "$([ "$fn" = since ] || [ "$name" = street ] && echo 1000 || echo 40)")
    p95=$(echo "${P95S[$fn]}" | median)
    P95[$name.$fn]=$p95; CPU[$name.$fn]=$cpu; BYTES[$name.$fn]=$bytes
    printf '  %-10s %-8s %6s %4s %6s %7s %7s %7s %6s %9s\n' "$name" "$fn" ${shape% *} ${shape#* } "$(echo "${TPS[$fn]}" | median)" \
      "$(echo "${P50[$fn]}" | median)" "$p95" "$(echo "${P99[$fn]}" | median)" "$cpu" "$bytes"
  done
done
echo "issue 41's ratios, same run (up close: the median of the $ROUNDS rounds' ratios; each round's after it):"
for name in street city; do
  for fn in geojson cells; do
    [ -n "${ROUND_RATIOS[$name.$fn]:-}" ] || continue
    echo "  $name p95: $fn / before $(echo "${ROUND_RATIOS[$name.$fn]}" | median | xargs printf %.2f) (bound: ≤ 1; rounds:${ROUND_RATIOS[$name.$fn]})"
  done
done
if [ -z "${VIEWPORT_BOXES:-}${VIEWPORT_FUNCTIONS:-}" ]; then
  for fn in geojson cells; do
    worst=0; worstname=
    for spec in "${BOXES[@]}"; do
      name=${spec%%:*}; r=$(echo "${EVERY_RATIOS[$name.$fn]}" | median | xargs printf %.2f)
      if awk -v r="$r" -v w="$worst" 'BEGIN { exit !(r > w) }'; then worst=$r; worstname=$name; fi
    done
    echo "  every box's $fn p95 / before's city p95 in the same round: at most $worst ($worstname; rounds:${EVERY_RATIOS[$worstname.$fn]}) (bound: ≤ 1.5)"
  done
  echo "  city, geojson / cells: bytes $(ratio "${BYTES[city.geojson]}" "${BYTES[city.cells]}")× (bound: ≥ 5), server CPU $(ratio "${CPU[city.geojson]}" "${CPU[city.cells]}")× (bound: ≥ 2)"
  slow=0; for spec in "${BOXES[@]}"; do name=${spec%%:*}; awk -v c="${CPU[$name.since]}" -v s="$slow" 'BEGIN { exit !(c > s) }' && slow=${CPU[$name.since]}; done
  echo "  an unchanged box (since): at most $slow ms of server CPU a call (bound: ≤ 0.5)"
fi

[ "${VIEWPORT_NIGHT:-1}" = 0 ] && exit 0
pg_sql postgres "drop database if exists n10k" >/dev/null
newdb n10k
read -r w c _ < <(measure "$TMP/n10k.log" env DATABASE_URL="host=$SOCK user=postgres dbname=n10k" "$BIN/geo-nightly" --apps territory --runs build/bench/territory_runs.geojson --pipeline-commit bench)
echo "the 10,000-run night into an empty database: ${w} s wall; $(grep -o '[0-9,]* cells written' "$TMP/n10k.log" | head -1)"
grep -E '^\[nightly .*(merge|coarse|map at every zoom).*s\)$' "$TMP/n10k.log" | sed 's/^/  step: /'
pg_sql n10k "create table replay as select * from territory_hex" >/dev/null
timed_insert() {  # timed_insert with|without: ms to insert the night's cells again, in a rolled-back transaction
  "${PSQL[@]}" -d n10k -At -c "begin" -c "alter table territory_hex disable trigger user" -c "delete from territory_hex" \
    -c "delete from territory_zoom_owner" -c "delete from territory_zoom" \
    -c "$([ "$1" = with ] && echo "alter table territory_hex enable trigger user" || echo "select 1")" -c "\\timing on" \
    -c "insert into territory_hex select * from replay order by hex_id" -c "\\timing off" -c "rollback" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}
for i in 1 2; do
  a=$(timed_insert without); b=$(timed_insert with)
  printf '  the night'"'"'s %s cells inserted again: without the trigger %8.0f ms, with it %8.0f ms: +%.0f ms (%.2f×)\n' \
    "$(pg_sql n10k 'select count(*) from replay')" "$a" "$b" "$(echo "$b - $a" | bc -l)" "$(echo "$b / $a" | bc -l)"
done
