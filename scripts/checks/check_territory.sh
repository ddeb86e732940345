#!/usr/bin/env bash
# run-all: alone (it times the city box; see run-all.sh)
# Consumer check for dist/territory/territory_hex.sql and preview.svg, with REAL PostgreSQL 15
# + PostGIS on a throwaway unix-socket server (as check_challenges.sh), over the game's schema
# (scripts/checks/territory_schema.sql = CONTRACTS §8):
#   - the SQL loads twice; the second load changes no row;
#   - who owns what (a SQL query) equals territory.geojson; valid_loop/distance_m equal runs.tsv;
#   - PostGIS agrees with the rules on its own geodesic: path length (geography, spheroid) =
#     distance_m, start–end of valid loops ≤ 50 m; loop polygons are valid polygons, SRID 4326;
#   - an incremental night through psql: night 1 (runs ending before 2026-11-19) loaded, the
#     table exported with \copy … csv header, night 2 run with --existing on that CSV and
#     loaded: the table equals the full recompute; loading night 1's file again changes nothing;
#   - the four shards' SQL files loaded into one database, in a shuffled order, give the
#     unsharded table (on the sample a Hyde Park cell is claimed from two shards);
#   - loops where a lon/lat plane breaks (data/territory/edge_runs.geojson: Taveuni and Chukotka
#     across ±180°, a figure-eight across it, a loop 1 km from the North Pole, a lap around the
#     South Pole): one part per loop, ST_IsValid(loop_polygon), loop_area_m2 and
#     ST_Area(loop_polygon::geography) within 1 % of PostGIS's geodesic area of the run's own
#     path; cells = h3-py's (the pole lap: h3-py's cells near the pole whose centre it encloses);
#   - malformed runs are quarantined in rejects.tsv and the night goes on;
#   - preview.svg is well-formed XML (xmllint) and renders (rsvg-convert) with the owners' colours.
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=${TERRITORY_DIR:-dist/territory}
RUNS=${TERRITORY_RUNS:-data/territory/runs.geojson}
BIN=${BIN:-.build/release}
PY=${PYTHON:-python3}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
RSVG=${RSVG:-rsvg-convert}

source scripts/checks/lib/pg.sh
needs check_territory "run make territory" "$OUT/territory_hex.sql" "$OUT/territory.geojson" "$OUT/runs.tsv" "$OUT/preview.svg"
if [ ! -x "$PGBIN/postgres" ] || [ ! -f /usr/share/postgresql/15/extension/postgis.control ]; then
  bash scripts/setup.sh --test
fi
[ -x "$PGBIN/postgres" ] || { echo "check_territory: no PostgreSQL 15 server binaries in $PGBIN"; exit 1; }

pg_start check_territory C timezone=UTC
fail=0
# The game's migration (CONTRACTS §8a), as make territory wrote it; applied after the schema; then
# (but for the speed table) the privacy migration (CONTRACTS §8c: who reads what, the runner stats).
MIGRATION=$(ls dist/supabase/game/migrations/*_territory_viewport.sql 2>/dev/null | tail -1)
PRIVACY=$(ls dist/supabase/game/migrations/*_territory_privacy.sql 2>/dev/null | tail -1)
[ -n "$MIGRATION" ] && [ -n "$PRIVACY" ] || { echo "check_territory: dist/supabase/game/migrations/*_territory_{viewport,privacy}.sql is missing (run make territory)"; exit 1; }
newdb() {  # newdb NAME [viewport]: the schema, the viewport migration, and the privacy one unless told
  sql postgres "create database $1"
  "${PSQL[@]}" -d "$1" -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql
  "${PSQL[@]}" -d "$1" -f "$MIGRATION"
  [ "${2:-}" = viewport ] || "${PSQL[@]}" -d "$1" -f "$PRIVACY"
}
# The roles a Supabase database has (cluster-wide): clients sign in as anon or authenticated;
# the service role (the night, the app's functions) bypasses row-level security.
sql postgres "do \$\$ begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin; end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then create role authenticated nologin; end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then create role service_role nologin bypassrls; end if;
end \$\$"
OWNERS="select hex_id || ' ' || owner_user_id || ' ' || last_run_id || ' ' || to_char(claimed_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') || 'Z' from territory_hex order by hex_id"
# territory.geojson's owners in the same text form (claimed_at: the sample's whole seconds).
geo_owners() {
  "$PY" -c 'import json,sys
for f in sorted(json.load(open(sys.argv[1]))["features"], key=lambda f: f["properties"]["hex_id"]):
    p = f["properties"]; print(p["hex_id"], p["owner_user_id"], p["last_run_id"], p["claimed_at"])' "$1"
}

echo "PostgreSQL $(sql postgres 'show server_version'), PostGIS $(newdb game && sql game 'select postgis_lib_version()')"
schema_snap="select md5(string_agg(concat_ws('|', table_name, column_name, data_type), ',' order by table_name, column_name)) from information_schema.columns where table_schema = 'public'
  union all select md5(string_agg(concat_ws('|', tablename, policyname, cmd, roles::text), ',' order by policyname)) from pg_policies
  union all select md5(string_agg(indexname, ',' order by indexname)) from pg_indexes where schemaname = 'public'"
schema_once=$(sql game "$schema_snap")
"${PSQL[@]}" -d game -f "$MIGRATION" -f "$PRIVACY"
expect game "the game's migrations applied twice = once (columns, policies, indexes)" "$schema_once" "$schema_snap"
"${PSQL[@]}" -d game -f "$OUT/territory_hex.sql"
snap="select md5(string_agg(concat_ws('|', hex_id, owner_user_id, last_run_id, claimed_at), ',' order by hex_id)) from territory_hex
      union all select md5(string_agg(concat_ws('|', id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop, md5(st_asewkb(path)::text), md5(st_asewkb(loop_polygon)::text)), ',' order by id)) from runs"
first=$(sql game "$snap")
versions="select md5(string_agg(id::text || ':' || xmin::text, ',' order by id)) from runs"
runs_before=$(sql game "$versions")
"${PSQL[@]}" -d game -f "$OUT/territory_hex.sql"
expect game "territory_hex.sql loaded twice leaves the same rows" "$first" "$snap"
expect game "the second load rewrites no runs row (row versions unchanged)" "$runs_before" "$versions"

geo_owners "$OUT/territory.geojson" > "$TMP/geo.txt"
sql game "$OWNERS" > "$TMP/db.txt"
if cmp -s "$TMP/geo.txt" "$TMP/db.txt"; then echo "  ok   who owns what in PostgreSQL = territory.geojson ($(wc -l <"$TMP/db.txt") cells)"
else echo "  FAIL who owns what in PostgreSQL differs from territory.geojson:"; diff "$TMP/geo.txt" "$TMP/db.txt" | head -5; fail=1; fi

tail -n +2 "$OUT/runs.tsv" | awk -F'\t' '{ printf "%s %s %.1f\n", $1, $3, $6 }' | sort > "$TMP/tsv_runs.txt"
sql game "select id || ' ' || valid_loop || ' ' || to_char(round(distance_m::numeric, 1), 'FM999999990.0') from runs order by id" | sort > "$TMP/db_runs.txt"
if cmp -s "$TMP/tsv_runs.txt" "$TMP/db_runs.txt"; then echo "  ok   runs: valid_loop and distance_m = runs.tsv ($(wc -l <"$TMP/db_runs.txt") runs)"
else echo "  FAIL runs differ from runs.tsv:"; diff "$TMP/tsv_runs.txt" "$TMP/db_runs.txt" | head -5; fail=1; fi
expect game "PostGIS's spheroid length of every path = distance_m (within 1 mm)" "0" \
  "select count(*) from runs where path is not null and abs(st_length(path::geography, true) - distance_m) > 0.001"
expect game "valid loops start and end within 50 m (PostGIS geography)" "0" \
  "select count(*) from runs where valid_loop and st_distance(st_startpoint(path)::geography, st_endpoint(path)::geography, true) > 50"
expect game "loop polygons are valid polygons in SRID 4326, only on valid loops" "0" \
  "select count(*) from runs where loop_polygon is not null and (not valid_loop or not st_isvalid(loop_polygon) or st_srid(loop_polygon) <> 4326 or geometrytype(loop_polygon) <> 'POLYGON')"
expect game "every owned cell's last run is a valid loop" "0" \
  "select count(*) from territory_hex t join runs r on r.id = t.last_run_id where not r.valid_loop"

# An incremental night through PostgreSQL itself.
"$PY" scripts/checks/lib/territory_split_nights.py "$RUNS" "$TMP"
newdb night
"$BIN/geo-territory" "$TMP/night1.geojson" --out-dir "$TMP/n1" -q
"${PSQL[@]}" -d night -f "$TMP/n1/territory_hex.sql"
"${PSQL[@]}" -d night -c "\\copy territory_hex to '$TMP/existing.csv' with (format csv, header)"
"$BIN/geo-territory" "$TMP/night2.geojson" --existing "$TMP/existing.csv" --out-dir "$TMP/n2" -q
"${PSQL[@]}" -d night -f "$TMP/n2/territory_hex.sql"
sql night "$OWNERS" > "$TMP/night.txt"
if cmp -s "$TMP/geo.txt" "$TMP/night.txt" && cmp -s "$TMP/geo.txt" <(geo_owners "$TMP/n2/territory.geojson"); then
  echo "  ok   incremental night (night 1 \\copy'd to CSV, then night 2 with --existing) = full recompute, in PostgreSQL and in territory.geojson"
else echo "  FAIL the incremental night differs from the full recompute"; diff "$TMP/geo.txt" "$TMP/night.txt" | head -5; fail=1; fi
"${PSQL[@]}" -d night -f "$TMP/n1/territory_hex.sql"
sql night "$OWNERS" > "$TMP/night_again.txt"
if cmp -s "$TMP/night.txt" "$TMP/night_again.txt"; then echo "  ok   loading an older night's file again takes no cell back"
else echo "  FAIL reloading night 1 changed the territory"; fail=1; fi

# The shards' files into one database.
newdb shards
for i in 0 1 2 3; do
  "$BIN/geo-territory" "$RUNS" --shard "$i/4" --out-dir "$TMP/s$i" -q
done
for i in 3 1 0 2; do "${PSQL[@]}" -d shards -f "$TMP/s$i/territory_hex.sql"; done
sql shards "$OWNERS" > "$TMP/shards.txt"
if cmp -s "$TMP/geo.txt" "$TMP/shards.txt"; then echo "  ok   the 4 shards' SQL loaded in a shuffled order = the unsharded territory"
else echo "  FAIL the shards' SQL gives another territory"; diff "$TMP/geo.txt" "$TMP/shards.txt" | head -5; fail=1; fi
expect shards "the 4 shards wrote every run once" "$(tail -n +2 "$OUT/runs.tsv" | wc -l)" "select count(*) from runs"

# Loops across ±180° and at the poles.
EDGES=${TERRITORY_EDGE_RUNS:-data/territory/edge_runs.geojson}
"$BIN/geo-territory" "$EDGES" --out-dir "$TMP/edges" --loops-geojson -q
newdb edges
"${PSQL[@]}" -d edges -f "$TMP/edges/territory_hex.sql" 2>&1 | grep -v 'coerced into range' || true
tail -n +2 "$TMP/edges/runs.tsv" | awk -F'\t' '{ print $1 "\t" $3 "\t" $11 "\t" $12 }' > "$TMP/edges_tsv.txt"
"${PSQL[@]}" -d edges -c "create table tsv (id uuid, valid boolean, parts int, area double precision)" -c "\\copy tsv from '$TMP/edges_tsv.txt'"
expect edges "the 5 edge runs (±180°, poles) are valid loops" "5" "select count(*) from tsv where valid"
expect edges "one part for each loop run once round (the figure-eight: its two lobes)" "0" \
  "select count(*) from tsv t join runs r using (id) where t.parts <> case when r.id = 'e0000000-0000-4000-8000-000000000003' then 2 else 1 end"
expect edges "loop_polygon valid (ST_IsValid) across ±180° and at the poles" "0" \
  "select count(*) from runs where loop_polygon is null or not st_isvalid(loop_polygon) or geometrytype(loop_polygon) <> 'POLYGON'"
# The reference: PostGIS's geodesic area of the run's own path closed (geography takes the
# short way across ±180° and the cap a ring circles), for the loops of one part.
ref="st_area(st_makepolygon(st_addpoint(r.path, st_startpoint(r.path)))::geography)"
expect edges "loop_area_m2 (runs.tsv) within 1 % of the geodesic area of the path" "0" \
  "select count(*) from tsv t join runs r using (id) where t.parts = 1 and abs(t.area - $ref) > 0.01 * $ref" 2>/dev/null
expect edges "ST_Area(loop_polygon::geography) within 1 % of the geodesic area of the path" "0" \
  "select count(*) from tsv t join runs r using (id) where t.parts = 1 and abs(st_area(r.loop_polygon::geography) - $ref) > 0.01 * $ref" 2>/dev/null
"$PY" scripts/checks/lib/territory_edge_cells.py "$TMP/edges/loops.geojson" || fail=1

# Served by viewport (CONTRACTS §8a).
expect game "every territory_hex row has its cell, a valid polygon" "0" \
  "select count(*) from territory_hex where cell is null or not st_isvalid(cell) or geometrytype(cell) <> 'POLYGON'"
expect edges "cells across ±180° and at the poles are valid polygons of a res-9 cell's area" "0" \
  "select count(*) from territory_hex where cell is null or not st_isvalid(cell) or st_area(cell::geography) not between 70000 and 140000"
# territory_in_viewport against a reference in Python (shapely over territory.geojson's cells,
# each box tried where it lies and a turn east and west, the cells unwrapped by hand).
BOXES="-0.20 51.49 -0.14 51.52|-0.1675 51.5 -0.1665 51.501|-74.0 40.76 -73.94 40.80|179.99 -16.9 -179.99 -16.7|179.999 -16.9 180 -16.7|-180 -16.9 -179.9999 -16.7|170 60 -170 70|-180 -90 180 90|-180 -90.0 180 -89.99|-10 80 10 89.999"
for db in game edges; do
  dir=$OUT; [ $db = edges ] && dir=$TMP/edges
  : > "$TMP/vp_$db.txt"
  IFS='|' read -ra boxes <<< "$BOXES"
  for b in "${boxes[@]}"; do
    set -- $b
    echo "box $b: $(sql $db "set role authenticated; select string_agg(hex_id, ' ' order by hex_id) from territory_in_viewport($1, $2, $3, $4)")" >> "$TMP/vp_$db.txt"
  done
  "$PY" scripts/checks/lib/territory_viewport_ref.py "$dir/territory.geojson" "$BOXES" > "$TMP/vp_ref_$db.txt"
  if cmp -s "$TMP/vp_$db.txt" "$TMP/vp_ref_$db.txt"; then
    echo "  ok   territory_in_viewport as authenticated = the cells intersecting each of ${#boxes[@]} boxes ($db: $(tr ' ' '\n' < "$TMP/vp_$db.txt" | grep -c '^8[0-9a-f]\{14\}$') cells found; boxes across ±180°, at the poles, the world)"
  else echo "  FAIL territory_in_viewport differs from the reference ($db):"; diff "$TMP/vp_ref_$db.txt" "$TMP/vp_$db.txt" | head -6; fail=1; fi
done
expect game "territory_in_viewport returns at most max_cells" "3" "select count(*) from territory_in_viewport(-180, -90, 180, 90, 3)"
expect game "cell_geojson is the cell as GeoJSON (9 decimals)" "0" \
  "select count(*) from territory_in_viewport(-180, -90, 180, 90) v join territory_hex t using (hex_id) where st_hausdorffdistance(st_geomfromgeojson(v.cell_geojson), t.cell) > 1e-8"
# Row-level security and grants.
expect game "authenticated reads territory_hex and the stats view; of runs a runner's own only (none without one signed in)" "$(sql game 'select count(*) from territory_hex') 0 $(sql game 'select count(*) from users')" \
  "set role authenticated; select (select count(*) from territory_hex) || ' ' || (select count(*) from runs) || ' ' || (select count(*) from territory_runner_stats)"
for stmt in "insert into territory_hex (hex_id) values ('89194ad16c3fff0')" "update territory_hex set owner_user_id = null" \
            "delete from territory_hex" "update runs set valid_loop = true" "select claimed_at from territory_hex limit 1"; do
  got=$(sql game "set role authenticated; $stmt" 2>&1 || true)
  case "$got" in *"permission denied"*|*"row-level security"*) echo "  ok   authenticated is refused: ${stmt:0:40}";;
    *) echo "  FAIL authenticated could: $stmt ($got)"; fail=1;; esac
done
got=$(sql game "set role anon; select count(*) from territory_in_viewport(-180, -90, 180, 90)" 2>&1 || true)
case "$got" in *"permission denied"*) echo "  ok   anon cannot call territory_in_viewport";; *) echo "  FAIL anon called territory_in_viewport ($got)"; fail=1;; esac
expect game "the service role writes" "1" \
  "begin; set local role service_role; update territory_hex set claimed_at = claimed_at where hex_id = (select min(hex_id) from territory_hex); select count(*) from territory_hex where hex_id = (select min(hex_id) from territory_hex); rollback"
# The stats view = users.tsv (runs, valid runs, cells; km² within 0.5 %: PostGIS's geodesic
# cell areas against H3's).
tail -n +2 "$OUT/users.tsv" | sort > "$TMP/users_tsv.txt"
sql game "select user_id, runs, valid_runs, cells, km2_owned from territory_runner_stats order by user_id" | tr '|' '\t' | sort > "$TMP/users_db.txt"
if "$PY" scripts/checks/lib/territory_users_match.py "$TMP/users_tsv.txt" "$TMP/users_db.txt"
then echo "  ok   territory_runner_stats = users.tsv (runs, valid runs, cells, km² owned) for $(wc -l < "$TMP/users_db.txt") runners"
else echo "  FAIL territory_runner_stats differs from users.tsv"; diff "$TMP/users_tsv.txt" "$TMP/users_db.txt" | head -4; fail=1; fi

# Speed: a 300,000-cell table: the 30,301 real H3 cells within 100 rings of central London,
# and the same set moved to 9 other places (their hex_id suffixed), loaded and indexed.
newdb big viewport
"$PY" scripts/checks/lib/territory_big_cells.py "$TMP/big.csv"
"${PSQL[@]}" -d big -c "insert into users (id, username) select ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, 'u' || i from generate_series(0, 499) i" \
  -c "insert into runs (id, user_id, started_at, ended_at) values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000000', now(), now())" \
  -c "\\copy territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell) from '$TMP/big.csv' with (format csv)" \
  -c "insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell)
        select hex_id || '-' || k, owner_user_id, last_run_id, claimed_at, st_translate(cell, 12 * k - 60, -3 * k)
        from territory_hex, generate_series(1, 9) k" -c "analyze territory_hex"
CITYBOX="-0.20, 51.46, -0.04, 51.56"   # central London, 11 km × 11 km
expect big "the speed table holds 300,000+ cells" "303010" "select count(*) from territory_hex"
plan=$(sql big "explain select * from territory_in_viewport($CITYBOX)")
case "$plan" in *idx_territory_hex_cell*) echo "  ok   the viewport query's plan uses the GiST index (idx_territory_hex_cell)";;
  *) echo "  FAIL the viewport query's plan does not use the index: $plan"; fail=1;; esac
ms=$(sql big "set role authenticated; select count(*) from territory_in_viewport($CITYBOX);
  do \$\$ declare t0 timestamptz; ms float8[] := '{}'; n int; total bigint; begin
    for i in 1..21 loop t0 := clock_timestamp(); select count(*), sum(length(v.cell_geojson) + length(v.hex_id)) into n, total from territory_in_viewport($CITYBOX) v;
      ms := ms || extract(epoch from clock_timestamp() - t0) * 1000; end loop;
    raise warning 'median % ms for % cells (% bytes of GeoJSON)', (select round(percentile_cont(0.5) within group (order by m)::numeric, 1) from unnest(ms) m), n, total;
  end \$\$" 2>&1 | sed -n 's/.*WARNING:  //p')
med=${ms#median }; med=${med%% ms*}
if [ -n "$med" ] && awk "BEGIN { exit !($med <= 30) }"; then echo "  ok   territory_in_viewport on 303,010 cells, city box: $ms (≤ 30 ms; 21 calls as authenticated)"
else echo "  FAIL territory_in_viewport city box: ${ms:-no timing} (limit 30 ms)"; fail=1; fi

# Quarantine: a night with malformed runs among good ones goes on and lists them.
"$PY" scripts/checks/lib/territory_quarantine_runs.py "$RUNS" "$TMP/quarantine.geojson"
"$BIN/geo-territory" "$TMP/quarantine.geojson" --out-dir "$TMP/quarantine" -q
if [ "$(cut -f1 "$TMP/quarantine/rejects.tsv" | tail -n +2 | tr '\n' ' ')" = "3 7 " ] \
   && [ "$(tail -n +2 "$TMP/quarantine/runs.tsv" | wc -l)" -eq "$(( $(tail -n +2 "$OUT/runs.tsv" | wc -l) - 2 ))" ]; then
  echo "  ok   2 malformed runs quarantined in rejects.tsv (features 3 and 7), the night went on with the others"
else echo "  FAIL quarantine: rejects.tsv says $(tail -n +2 "$TMP/quarantine/rejects.tsv" | cut -f1,3 | head -3)"; fail=1; fi

# The picture.
if xmllint --noout "$OUT/preview.svg" 2>"$TMP/xmllint.txt"; then echo "  ok   preview.svg is well-formed XML"; else echo "  FAIL preview.svg: $(head -3 "$TMP/xmllint.txt")"; fail=1; fi
"$RSVG" -o "$TMP/preview.png" "$OUT/preview.svg"
"$PY" scripts/checks/lib/territory_preview_png.py "$TMP/preview.png" "$OUT/preview.svg" || fail=1

[ $fail -eq 0 ] && echo "check_territory.sh: all checks passed" || echo "check_territory.sh: FAILED"
exit $fail
