#!/usr/bin/env bash
# The runner stats (territory_runner_stats) before and after the totals kept by the writers
# (issue 37: O(1) per call), and what keeping them costs the night's writes, in one run on one
# throwaway PostgreSQL 15 + PostGIS:
#
#   bash bench/runner_stats.sh [CELLS] [RUNNERS] [RUNS]     default 63000 cells, 2000 runners, 10000 runs
#
# A territory of CELLS H3 resolution-9 cells (h3-py: disks around 20 cities, each cell's owner one of
# RUNNERS) and RUNS runs, loaded with the game's migrations before the totals (BEFORE_MIGRATIONS,
# default those of commit 076962d, main when the SQL moved to files) and, in another database, with this checkout's
# (AFTER_MIGRATIONS); one runner's stats read 20 times in each; every runner's stats compared; then
# the writes of the night (RUNS new runs of 1,000 fixes each, as the night's in one statement, CELLS new cells in one insert, half of them stolen
# in one update) and of a follower's batch (100 runs judged, 500 cells changing hands), each timed
# in a rolled-back transaction with the totals' triggers off and on, alternately: their cost (the
# night's cell writes with the zoom levels' trigger off only: it takes a minute per pass at 63k cells).
set -euo pipefail
cd "$(dirname "$0")/.."
CELLS=${1:-63000}; RUNNERS=${2:-2000}; RUNS=${3:-10000}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PY=${PYTHON:-python3}
source scripts/checks/lib/pg.sh
pg_start bench_stats C timezone=UTC shared_buffers=256MB max_wal_size=4GB
AFTER=${AFTER_MIGRATIONS:-Sources/TerritoryGame/Migrations}
BEFORE=${BEFORE_MIGRATIONS:-}
if [ -z "$BEFORE" ]; then
  BEFORE=$TMP/before; mkdir -p "$BEFORE"
  for f in $(git ls-tree --name-only 076962d "$AFTER/" | grep '\.sql$'); do git show "076962d:$f" >"$BEFORE/$(basename "$f")"; done
fi
ls "$BEFORE"/*.sql "$AFTER"/*.sql >/dev/null

"$PY" - "$CELLS" "$RUNNERS" "$RUNS" "$TMP" <<'PY'
import sys, random, uuid, h3
cells, runners, runs, tmp = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rnd = random.Random(37)
users = [str(uuid.UUID(int=rnd.getrandbits(128), version=4)) for _ in range(runners)]
run_ids = [str(uuid.UUID(int=rnd.getrandbits(128), version=4)) for _ in range(runs)]
owner_of_run = [rnd.choice(users) for _ in range(runs)]
with open(f"{tmp}/users.csv", "w") as f:
    for i, u in enumerate(users): f.write(f"{u},runner-{i}\n")
with open(f"{tmp}/runs.csv", "w") as f:
    for i, r in enumerate(run_ids):
        f.write(f"{r},{owner_of_run[i]},2026-11-21 05:00:00+00,2026-11-21 05:30:00+00,{rnd.uniform(1000, 15000):.1f},1800,{'t' if rnd.random() < 0.9 else 'f'}\n")
cities = [(52.52, 13.40), (48.86, 2.35), (51.51, -0.13), (40.71, -74.0), (35.68, 139.69), (-33.87, 151.21), (55.75, 37.62), (19.43, -99.13),
          (-23.55, -46.63), (28.61, 77.21), (30.04, 31.24), (1.35, 103.82), (37.77, -122.42), (41.90, 12.50), (59.33, 18.07), (-1.29, 36.82),
          (6.52, 3.38), (-34.60, -58.38), (43.65, -79.38), (64.15, -21.94)]
per = -(-cells // len(cities)); k = 0
while 3 * k * (k + 1) + 1 < per: k += 1
out = []
for lat, lon in cities:
    out += sorted(h3.grid_disk(h3.latlng_to_cell(lat, lon, 9), k))[:per]
out = out[:cells]
with open(f"{tmp}/cells.csv", "w") as f:
    for c in out:
        i = rnd.randrange(runs)
        r = [(x, y) for y, x in h3.cell_to_boundary(c)]; r.append(r[0])
        f.write(f"{c},{owner_of_run[i]},{run_ids[i]},2026-11-21 05:30:00+00,\"SRID=4326;POLYGON((" + ",".join(f"{x} {y}" for x, y in r) + "))\"\n")
PY
pg_sql postgres "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls" >/dev/null

ms() { "${PSQL[@]}" -d "$1" -At -c '\timing on' -c "$2" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1; }
# paired DB LABEL SETUP SQL: SETUP then SQL (timed: wall, and the server process's CPU from
# /proc/self/stat, steadier on a loaded machine) in a transaction rolled back, alternately with the
# totals' triggers off and on (3 pairs); prints the medians, off and on, and the differences.
CPU="select (string_to_array(pg_read_file('/proc/self/stat'), ' '))[14]::bigint + (string_to_array(pg_read_file('/proc/self/stat'), ' '))[15]::bigint"
paired() {
  local db=$1 label=$2 setup=$3 q=$4 i mode out c0 c1 w
  local -a offw=() onw=() offc=() onc=()
  for i in 1 2 3; do
    for mode in disable enable; do
      out=$("${PSQL[@]}" -d "$db" -At -f - <<SQL
begin;
alter table runs $mode trigger territory_runner_totals_insert, $mode trigger territory_runner_totals_update;
alter table territory_hex $mode trigger territory_runner_totals_insert, $mode trigger territory_runner_totals_update;
${zoom:-select};
${setup:-select};
$CPU;
\timing on
$q;
\timing off
$CPU;
rollback;
SQL
)
      c0=$(echo "$out" | grep -E '^[0-9]+$' | sed -n 1p); c1=$(echo "$out" | grep -E '^[0-9]+$' | sed -n 2p)
      w=$(echo "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1)
      if [ $mode = disable ]; then offw+=("$w"); offc+=("$(( (c1 - c0) * 10 ))"); else onw+=("$w"); onc+=("$(( (c1 - c0) * 10 ))"); fi
    done
  done
  med() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
  local a b c d; a=$(med "${offw[@]}"); b=$(med "${onw[@]}"); c=$(med "${offc[@]}"); d=$(med "${onc[@]}")
  printf '  %-44s %9.0f %9.0f %+8.0f %9s %9s %+8d\n' "$label" "$a" "$b" "$(echo "$b - $a" | bc)" "$c" "$d" "$((d - c))"
}
stats() {  # stats DB [all]: the stats of the runner with the most cells (all: of every runner), median of 20 calls (ms)
  local who q; who=$(pg_sql "$1" "select owner_user_id from territory_hex group by 1 order by count(*) desc limit 1")
  q="select * from territory_runner_stats where user_id = '$who'"; [ "${2:-}" = all ] && q="select * from territory_runner_stats"
  for i in $(seq 20); do echo "$q;"; done \
    | "${PSQL[@]}" -d "$1" -At -c '\timing on' -f - | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
load() {  # load DB MIGRATIONS_DIR: the schema, the migrations, the runners, runs and cells
  local db=$1 dir=$2
  pg_sql postgres "create database $db" >/dev/null
  "${PSQL[@]}" -d "$db" -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql >/dev/null
  for f in "$dir"/*.sql; do "${PSQL[@]}" -d "$db" -f "$f" >/dev/null; done
  "${PSQL[@]}" -d "$db" -c "\\copy users (id, username) from '$TMP/users.csv' csv" \
    -c "create table bench_cells (hex_id text, owner_user_id uuid, last_run_id uuid, claimed_at timestamptz, cell geometry(Polygon, 4326))" \
    -c "\\copy bench_cells from '$TMP/cells.csv' csv" \
    -c "create table bench_runs (id uuid, user_id uuid, started_at timestamptz, ended_at timestamptz, distance_m float8, duration_s float8, valid_loop boolean)" \
    -c "\\copy bench_runs from '$TMP/runs.csv' csv" \
    -c "alter table bench_runs add column path geometry(LineString, 4326)" \
    -c "update bench_runs set path = (select st_setsrid(st_makeline(array_agg(st_makepoint(13 + k * 1e-5, 52 + (k % 7) * 1e-5 + (id::text < '8')::int * 1e-6) order by k)), 4326) from generate_series(1, 1000) k)" \
    -c "insert into runs (id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop, path) select * from bench_runs" \
    -c "insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell) select * from bench_cells order by hex_id" \
    -c "vacuum analyze" >/dev/null
}
echo "cells $CELLS, runners $RUNNERS, runs $RUNS; load: $(cut -d' ' -f1-3 /proc/loadavg)"
load before "$BEFORE"
load after "$AFTER"
echo "territory_runner_stats, median of 20 calls: one runner (the most cells): before $(stats before) ms, after $(stats after) ms; every runner: before $(stats before all) ms, after $(stats after all) ms"
pg_sql before "select user_id, runs, valid_runs, round(km_run::numeric, 6), cells, round(km2_owned::numeric, 6) from territory_runner_stats order by 1" >"$TMP/before.stats"
pg_sql after "select user_id, runs, valid_runs, round(km_run::numeric, 6), cells, round(km2_owned::numeric, 6) from territory_runner_stats order by 1" >"$TMP/after.stats"
cmp -s "$TMP/before.stats" "$TMP/after.stats" && echo "every runner's stats: equal before and after (6 decimals)" \
  || { echo "stats differ before/after:"; diff "$TMP/before.stats" "$TMP/after.stats" | head; exit 1; }
writes() {
echo "the writes, each in a transaction rolled back, with the totals' triggers off and on (median of 3, ms; the server's CPU in steps of 10 ms; $1):"
printf '  %-44s %9s %9s %8s %9s %9s %8s\n' write wall_off wall_on diff cpu_off cpu_on diff
paired after "night: $RUNS new runs (one insert)" "" \
  "insert into runs (id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop, path) select gen_random_uuid(), user_id, started_at, ended_at, distance_m, duration_s, valid_loop, path from bench_runs"
[ "$2" = all ] && paired after "night: $CELLS new cells (one insert)" "delete from territory_hex" "insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell) select * from bench_cells order by hex_id"
[ "$2" = all ] && paired after "night: every other cell stolen (one update)" "" "update territory_hex t set owner_user_id = r.user_id, last_run_id = r.id, claimed_at = t.claimed_at + interval '1 day'
  from (select hex_id, row_number() over (order by hex_id) as i from territory_hex) h
  join (select id, user_id, row_number() over (order by id) as i from runs) r on r.i = h.i % 5000 + 1 where t.hex_id = h.hex_id and h.i % 2 = 0"
paired after "follower: 100 runs judged (one update)" "" "update runs set valid_loop = not valid_loop, distance_m = distance_m + 1 where id in (select id from runs order by id limit 100)"
paired after "follower: 500 cells change hands (one update)" "" "update territory_hex t set owner_user_id = r.user_id, claimed_at = t.claimed_at + interval '2 days'
  from (select hex_id from territory_hex order by hex_id limit 500) h, (select user_id from runs order by id limit 1) r where t.hex_id = h.hex_id"
}
zoom="" writes "the zoom levels' trigger on in both, as the night and the followers run" some
zoom="alter table territory_hex disable trigger territory_zoom_insert, disable trigger territory_zoom_update, disable trigger territory_zoom_delete" \
  writes "the zoom levels' trigger off: the totals' cost alone" all
