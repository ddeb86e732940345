#!/usr/bin/env bash
# The game's map at every zoom (issue 29): territory_in_viewport under load, and what keeping
# the coarse cells costs the night.
#
#   bash bench/territory_viewport.sh        SECONDS_PER_BOX=10 (pgbench -T), LARGE_LOOPS=375
#
# 1. A territory of about 1,000,000 resolution-9 cells claimed by the pipeline's own night
#    (geo-nightly) from generated large loops (scripts/data/make_runs.py --large: loops 14–32 km
#    across around 28 places on every continent and across ±180°, by 300 runners) into a
#    throwaway PostgreSQL 15 + PostGIS (unix socket, fsync off); then, per box, pgbench with 8
#    clients as `authenticated` calling territory_in_viewport(box) (max_cells 5000): p50, p95 and
#    p99 latency, the rows returned and their resolution; and, load aside, the server's CPU time
#    per call (one client, 40 calls: the backend's user + system time from /proc; each row's
#    cell_geojson read by octet_length, as length() would count a megabyte's characters).
# 2. The night's extra cost per 10,000 runs (build/bench/territory_runs.geojson, as
#    nightly_territory.sh): the night into an empty database, its steps for the coarse cells
#    (their boundaries, the check) from its log, and its cells written again into territory_hex
#    (the merge's insert) with the trigger and without it, alternately, twice.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PY=${PYTHON:-python3}
SECS=${SECONDS_PER_BOX:-10}
LARGE=build/bench/territory_large.geojson
[ -x "$BIN/geo-nightly" ] || swift build -c release --product geo-nightly >/dev/null
source bench/lib.sh
source scripts/checks/lib/pg.sh
[ -f "$LARGE" ] || { mkdir -p build/bench; "$PY" scripts/data/make_runs.py --large "${LARGE_LOOPS:-375}" -o "$LARGE"; }
runs_file build/bench/territory_runs.geojson
pg_start bench_viewport C timezone=UTC shared_buffers=256MB max_wal_size=4GB
pg_sql postgres "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls" >/dev/null
newdb() { pg_sql postgres "create database $1" >/dev/null; "${PSQL[@]}" -d "$1" -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql >/dev/null; }
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (timings under load are inflated alike)"

newdb big
read -r w c _ < <(measure "$TMP/big.log" env DATABASE_URL="host=$SOCK user=postgres dbname=big" "$BIN/geo-nightly" --apps territory --runs "$LARGE" --pipeline-commit bench)
echo "the big night: $(grep -o '[0-9,]* cells owned' "$TMP/big.log" | head -1) from $LARGE in ${w} s wall (geo-nightly CPU ${c} s)"
grep -E '^\[nightly .*(merge|coarse|map at every zoom).*s\)$' "$TMP/big.log" | sed 's/^/  step: /'
"${PSQL[@]}" -d big -c "vacuum analyze" >/dev/null
# cpu_ms BOX: the backend's CPU ms per call over 40 calls as authenticated (one session).
cpu_ms() {
  { echo "set role authenticated;"; echo "select pg_backend_pid() as pid \\gset"; echo "\\setenv PID :pid"
    echo "select count(*) from territory_in_viewport($1) \\g /dev/null"; echo "\\! awk '{print \$14 + \$15}' /proc/\$PID/stat"
    for i in $(seq 40); do echo "select count(*), sum(octet_length(cell_geojson)) from territory_in_viewport($1) \\g /dev/null"; done
    echo "\\! awk '{print \$14 + \$15}' /proc/\$PID/stat"; } > "$TMP/cpu.sql"
  "${PSQL[@]}" -d big -At -f "$TMP/cpu.sql" | tail -2 | tr '\n' ' ' | awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($2 - $1) * 1000 / hz / 40 }'
}
echo "per box, pgbench -c 8 -j 2 -T $SECS as authenticated, latency in ms; cpu: server CPU ms per call, one client:"
printf '  %-10s %-34s %6s %4s %7s %8s %8s %8s %6s\n' box "min_lon, min_lat, max_lon, max_lat" rows res tps p50 p95 p99 cpu
for spec in "street:-0.125, 51.505, -0.115, 51.51" "city:-0.25, 51.45, 0.0, 51.56" "region:-1.5, 51.0, 1.0, 52.2" \
            "country:-5.0, 42.0, 8.0, 51.0" "continent:-25.0, 34.0, 45.0, 72.0" "world:-180, -90, 180, 90" "across180:170, -30, -170, -5"; do
  name=${spec%%:*}; b=${spec#*:}
  echo "select count(*) from territory_in_viewport($b);" > "$TMP/q.sql"
  shape=$(pg_sql big "set role authenticated; select count(*) || ' ' || coalesce(min(resolution), 0) from territory_in_viewport($b)")
  rm -f "$TMP"/pgbench_log.*
  out=$(cd "$TMP" && PGOPTIONS="-c client_min_messages=warning -c role=authenticated" "$PGBIN/pgbench" -n -h "$SOCK" -U postgres -c 8 -j 2 -T "$SECS" -l -f q.sql big 2>&1) \
    || { echo "$out"; exit 1; }
  tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -1)
  read -r p50 p95 p99 < <(cat "$TMP"/pgbench_log.* | awk '{ print $3 / 1000 }' | sort -n | awk '{ a[NR] = $1 } END {
    printf "%.1f %.1f %.1f\n", a[int(NR * 0.50) + 1], a[int(NR * 0.95) + 1], a[int(NR * 0.99) + 1] }')
  printf '  %-10s %-34s %6s %4s %7.0f %8s %8s %8s %6s\n' "$name" "$b" ${shape% *} ${shape#* } "$tps" "$p50" "$p95" "$p99" "$(cpu_ms "$b")"
done

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
