#!/usr/bin/env bash
# Consumer check for the game's map at every zoom (issue 29; CONTRACTS §8a; the migration
# *_territory_at_every_zoom.sql, whose header is the contract), with REAL PostgreSQL 15 + PostGIS
# on a throwaway unix-socket server, the game's schema and Supabase's roles:
#   - the migration (as make territory wrote it) applies twice after the game's first one;
#   - two nights of geo-nightly (the sample runs, then the edge runs: ±180°, the poles) write
#     territory_hex; for boxes (a city, the same city at small max_cells, the world, across ±180°,
#     at each pole, out of range, the world at the largest max_cells) territory_in_viewport as
#     authenticated = the answer recomputed
#     by scripts/checks/zoom_reference.py: parents by h3-py, boundaries by shapely, the
#     resolution the contract picks, majority owner, counts and latest claim recounted from
#     territory_hex; the city box = ST_Intersects on territory_hex exactly (an ownerless row
#     written by hand included); a box found by h3-py where a coarse count exceeds max_cells and
#     a finer one fits is answered at the finest that fits;
#   - rows written by hand (a new area, a steal, a delete) show at coarse zoom at commit (a new
#     area's coarse cells drawn as stand-ins) and the next night writes their boundaries;
#   - 4 writers upserting overlapping cells at once (sorted, as the followers do; two of them
#     deferring the coarse cells' pass to territory_zoom_flush, as the followers do): none fails,
#     the coarse cells equal the recount; a night repairs coarse cells changed behind the trigger;
#   - max_cells <= 0, an absurd box, anon and authenticated's rights;
#   - territory_cells_in_viewport (issue 41): the same cells, resolutions, owners and counts as
#     territory_in_viewport for every box above, after every kind of write; and its changes since a
#     number, applied as a client applies them (scripts/checks/zoom_since.py), give the whole answer
#     after each kind of write: the nights, an ownerless row, rows by hand (a new area, a steal), a
#     delete, the followers' concurrent upserts, the night's repair; a box where nothing changed gets
#     its number back and no rows.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN=${BIN:-.build/release}
PY=${PYTHON:-python3}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
RUNS=${TERRITORY_RUNS:-data/territory/runs.geojson}
EDGES=${TERRITORY_EDGE_RUNS:-data/territory/edge_runs.geojson}
# (a migration not made yet: its pattern, which needs then names as missing)
FIRST=$(ls dist/supabase/game/migrations/*_territory_viewport.sql 2>/dev/null | tail -1)
FIRST=${FIRST:-dist/supabase/game/migrations/*_territory_viewport.sql}
MIGRATION=$(ls dist/supabase/game/migrations/*_territory_at_every_zoom.sql 2>/dev/null | tail -1)
MIGRATION=${MIGRATION:-dist/supabase/game/migrations/*_territory_at_every_zoom.sql}

source scripts/checks/lib/pg.sh
needs check_zoom "run make territory, and scripts/swift-release.sh build --product geo-nightly" "$BIN/geo-nightly" "$RUNS" "$EDGES" "$FIRST" "$MIGRATION"
pg_start check_zoom C timezone=UTC
fail=0
sql postgres "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls" >/dev/null
newdb() { sql postgres "create database $1" >/dev/null; "${PSQL[@]}" -d "$1" -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql >/dev/null; }

# The migration file, after the first one, twice: the same catalog.
newdb files
"${PSQL[@]}" -d files -f "$FIRST" >/dev/null 2>&1
snap="select md5(string_agg(concat_ws('|', table_name, column_name, data_type), ',' order by table_name, column_name)) from information_schema.columns where table_schema = 'public'
  union all select md5(string_agg(concat_ws('|', tablename, policyname, cmd, roles::text), ',' order by policyname)) from pg_policies
  union all select md5(string_agg(indexname, ',' order by indexname)) from pg_indexes where schemaname = 'public'
  union all select md5(string_agg(tgname || tgenabled::text, ',' order by tgname)) from pg_trigger where not tgisinternal
  union all select pg_get_function_result('territory_in_viewport(float8, float8, float8, float8, integer)'::regprocedure)"
"${PSQL[@]}" -d files -f "$MIGRATION" >/dev/null 2>&1
once=$(sql files "$snap")
"${PSQL[@]}" -d files -f "$FIRST" >/dev/null 2>&1; "${PSQL[@]}" -d files -f "$MIGRATION" >/dev/null 2>&1
expect files "$(basename "$MIGRATION") applied again (after the first migration again) = once" "$once" "$snap"

newdb game
night() {  # night RUNS: geo-nightly's territory night into game
  DATABASE_URL="host=$SOCK user=postgres dbname=game" "$BIN/geo-nightly" --apps territory --runs "$1" --pipeline-commit check >"$TMP/night.log" 2>&1 \
    || { echo "  FAIL the night on $1:"; cat "$TMP/night.log"; exit 1; }
  grep '^territory: ok' "$TMP/night.log" | sed 's/^/       /'
}
# Changes since (territory_cells_in_viewport's `since`), box: lo la hi ha max_cells.
SINCE_BOXES="-0.20 51.49 -0.14 51.52 5000|-0.20 51.49 -0.14 51.52 12|-180 -90 180 90 40|-180 -90 180 90 5000|179.9 -17 -179.9 -16.6 5000"
SINCE_BOXES="$SINCE_BOXES|179.9 -17 -179.9 -16.6 3|170 -30 -170 70 10|-180 89.9 180 90 5000|-23 63 -20 65 5000|-23 63 -20 65 4"
cells_csv() {  # cells_csv OUT [TOKENS]: every since box's cells-only answer (since the box's number in TOKENS)
  local out=$1 tokens=${2:-} since
  : > "$out"
  IFS='|' read -ra bs <<< "$SINCE_BOXES"
  for i in "${!bs[@]}"; do
    since=null; [ -n "$tokens" ] && since=$(awk -v i="$i" '$1 == i { print $2 }' "$tokens")
    set -- ${bs[$i]}
    "${PSQL[@]}" -d game -At -F, -c "set role authenticated" -c "select $i, kind, resolution, owner_user_id, array_to_string(hex_ids, ' '),
      array_to_string(cells, ' '), array_to_string(owner_cells, ' '), next from territory_cells_in_viewport($1, $2, $3, $4, $5, $since)" >> "$out"
  done
}
since_take() { cells_csv "$TMP/all.csv"; "$PY" scripts/checks/zoom_since.py take "$TMP/drawn.json" "$TMP/all.csv"; }
since_check() {  # since_check LABEL: the changes since each box's number, applied, = the whole answer
  "$PY" scripts/checks/zoom_since.py tokens "$TMP/drawn.json" > "$TMP/tokens.txt"
  cells_csv "$TMP/since.csv" "$TMP/tokens.txt"
  cells_csv "$TMP/all.csv"
  echo "  -- changes since, $1"
  "$PY" scripts/checks/zoom_since.py apply "$TMP/drawn.json" "$TMP/since.csv" "$TMP/all.csv" "$1" || fail=1
}
night "$RUNS"
since_take
night "$EDGES"
since_check "after a night (±180°, the poles)"
expect game "every coarse cell has the pipeline's boundary (territory_zoom.exact), a valid polygon" "0" \
  "select count(*) from territory_zoom where not exact or cell is null or not st_isvalid(cell)"

# territory_in_viewport against the recount. Box: lo la hi ha max_cells.
BOXES="-0.20 51.49 -0.14 51.52 5000|-0.20 51.49 -0.14 51.52 12|-0.20 51.49 -0.14 51.52 2|-180 -90 180 90 5000|-180 -90 180 90 40|-180 -90 180 90 7|-180 -90 180 90 1"
BOXES="$BOXES|179.9 -17 -179.9 -16.6 5000|179.9 -17 -179.9 -16.6 3|170 -30 -170 70 10|-180 89.9 180 90 5000|-180 89.9 180 90 2|-180 -90 180 -89.9 5000|-180 -90 180 -89.9 1"
BOXES="$BOXES|-1000 -100 1000 100 20|-74.0 40.76 -73.94 40.80 0|-74.0 40.76 -73.94 40.80 -3|-180 -90 180 90 2147483647"
viewport() {  # viewport DB OUT: every box's answer as CSV
  local db=$1 out=$2
  : > "$out"
  IFS='|' read -ra bs <<< "$BOXES"
  for i in "${!bs[@]}"; do
    set -- ${bs[$i]}
    "${PSQL[@]}" -d "$db" -At -F, -c "set role authenticated" -c "select $i, hex_id, resolution, cells, owner_user_id, owner_cells, last_run_id,
      to_char(claimed_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') from territory_in_viewport($1, $2, $3, $4, $5)" >> "$out"
  done
}
cellwkt() { "$PY" -c 'import sys, h3; r = [(x, y) for y, x in h3.cell_to_boundary(sys.argv[1])]; r.append(r[0]); print("SRID=4326;POLYGON((" + ",".join(f"{x} {y}" for x, y in r) + "))")' "$1"; }
# The cells-only answer against the GeoJSON one, box by box: the boxes whose rows differ.
cells_vs_geojson() {
  local db=$1 differ=""
  IFS='|' read -ra bs <<< "$BOXES"
  for i in "${!bs[@]}"; do
    set -- ${bs[$i]}
    n=$("${PSQL[@]}" -d "$db" -At -c "set role authenticated" -c "
      with a as (select hex_id, resolution, cells, owner_user_id, owner_cells from territory_in_viewport($1, $2, $3, $4, $5)),
           b as (select u.h, c.resolution, u.n, c.owner_user_id, u.o from territory_cells_in_viewport($1, $2, $3, $4, $5) c,
                        unnest(c.hex_ids, c.cells, c.owner_cells) u(h, n, o) where c.kind = 'cells')
      select count(*) from ((table a except all table b) union all (table b except all table a)) d")
    [ "$n" = 0 ] || differ="$differ $i"
  done
  if [ -z "$differ" ]; then echo "  ok   territory_cells_in_viewport = territory_in_viewport (cells, resolutions, owners, counts) for all ${#bs[@]} boxes"
  else echo "  FAIL territory_cells_in_viewport differs from territory_in_viewport for boxes$differ"; fail=1; fi
}
recount() {  # recount LABEL
  sql game "copy (select hex_id, owner_user_id, last_run_id, to_char(claimed_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') from territory_hex) to stdout with (format csv)" > "$TMP/hex.csv"
  viewport game "$TMP/vp.csv"
  echo "  -- $1"
  "$PY" scripts/checks/zoom_reference.py "$TMP/hex.csv" "$TMP/vp.csv" "$BOXES" || fail=1
  cells_vs_geojson game
}
# A row without an owner (the schema allows it; the night reads it as unclaimed), written by hand
# in the city box: at resolution 9 the answer is every territory_hex row meeting the box, as
# before the map at every zoom, this one with cells 0.
sql game "select hex_id from territory_hex" > "$TMP/ids.txt"
OWNERLESS=$("$PY" -c 'import sys, h3
have = set(open(sys.argv[1]).read().split())
print(min(set(h3.geo_to_cells({"type": "Polygon", "coordinates": [[(-0.19, 51.5), (-0.15, 51.5), (-0.15, 51.51), (-0.19, 51.51), (-0.19, 51.5)]]}, 9)) - have))' "$TMP/ids.txt")
sql game "set role service_role; insert into territory_hex (hex_id, cell) values ('$OWNERLESS', '$(cellwkt "$OWNERLESS")')" >/dev/null
since_check "after an ownerless row written by hand"
# A box where a coarse count exceeds max_cells and a finer one fits (found by h3-py near the
# territory's edge): the answer is at the finest resolution that fits, not the one before the
# first count over max_cells.
sql game "copy (select hex_id, owner_user_id, last_run_id, to_char(claimed_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') from territory_hex) to stdout with (format csv)" > "$TMP/hex.csv"
read -r NM_LO NM_LA NM_HI NM_HA NM_MAX NM_RES < <("$PY" scripts/checks/zoom_reference.py --non-monotone "$TMP/hex.csv") \
  || { echo "  FAIL h3-py found no box whose counts are not monotone near the territory's edge"; exit 1; }
BOXES="$BOXES|$NM_LO $NM_LA $NM_HI $NM_HA $NM_MAX"
recount "after the nights (sample, then ±180° and the poles) and an ownerless row"
CITY="st_makeenvelope(-0.20, 51.49, -0.14, 51.52, 4326)"
expect game "the city box = ST_Intersects on territory_hex (every row, the ownerless one too), exactly" \
  "$(sql game "select string_agg(hex_id, ' ' order by hex_id) from territory_hex where st_intersects(cell, $CITY)")" \
  "set role authenticated; select string_agg(hex_id, ' ' order by hex_id) from territory_in_viewport(-0.20, 51.49, -0.14, 51.52) where resolution = 9"
expect game "the ownerless row is in the city box's answer, with cells 0 and owner_cells 0" "9 0 0" \
  "set role authenticated; select resolution || ' ' || cells || ' ' || owner_cells from territory_in_viewport(-0.20, 51.49, -0.14, 51.52) where hex_id = '$OWNERLESS' and owner_user_id is null"
expect game "box ($NM_LO, $NM_LA, $NM_HI, $NM_HA) at max_cells $NM_MAX: a coarser count exceeds it, the answer is at resolution $NM_RES (h3-py: the finest that fits)" "$NM_RES" \
  "set role authenticated; select string_agg(distinct resolution::text, ',') from territory_in_viewport($NM_LO, $NM_LA, $NM_HI, $NM_HA, $NM_MAX)"
expect game "the city box in a parallel query (force_parallel_mode): the same answer" \
  "$(sql game "set role authenticated; select count(*) from territory_in_viewport(-0.20, 51.49, -0.14, 51.52)")" \
  "set role authenticated; set force_parallel_mode = on; select count(*) from territory_in_viewport(-0.20, 51.49, -0.14, 51.52)"
expect game "coarse rows' cell_geojson = the pipeline's boundary" "0" \
  "select count(*) from territory_in_viewport(-180, -90, 180, 90, 40) v join territory_zoom z using (hex_id) where v.cell_geojson <> st_asgeojson(z.cell) or z.resolution <> v.resolution"

# Rows by hand (as the service role), committed one statement at a time: a new area (two cells
# of one resolution-8 cell in Reykjavik, where the night has never been: no boundaries), a
# steal, a delete.
U1=$(sql game "select id from users order by id limit 1"); U2=$(sql game "select id from users order by id offset 1 limit 1")
R1=$(sql game "select id from runs where valid_loop order by id limit 1")
"$PY" -c 'import h3; c = h3.latlng_to_cell(64.1466, -21.9426, 9); print(c); print(min(set(h3.cell_to_children(h3.cell_to_parent(c, 8), 9)) - {c}))' > "$TMP/new.txt"
NEW1=$(sed -n 1p "$TMP/new.txt"); NEW2=$(sed -n 2p "$TMP/new.txt")
sql game "set role service_role; insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell)
  values ('$NEW1', '$U1', '$R1', '2026-11-26 12:00:00+00', '$(cellwkt "$NEW1")'), ('$NEW2', '$U2', '$R1', '2026-11-26 12:00:01+00', '$(cellwkt "$NEW2")')" >/dev/null
sql game "set role service_role; update territory_hex set owner_user_id = '$U2', claimed_at = '2026-11-26 13:00:00+00' where hex_id = (select min(hex_id) from territory_hex where owner_user_id <> '$U2')" >/dev/null
since_check "after rows written by hand (a new area, a steal)"
sql game "set role service_role; delete from territory_hex where hex_id = (select max(hex_id) from territory_hex where hex_id not in ('$NEW1', '$NEW2'))" >/dev/null
since_check "after a delete"
REYKJAVIK=$("$PY" scripts/checks/zoom_since.py tokens "$TMP/drawn.json" | awk '$1 == 8 { print $2 }')
sql game "set role service_role; delete from territory_hex where hex_id = (select min(hex_id) from territory_hex where hex_id like '89195%')" >/dev/null
expect game "a box where nothing changed (Reykjavik, after a delete in London): a number, no rows" "1 since 9 0" \
  "set role authenticated; select count(*) || ' ' || min(kind) || ' ' || min(resolution) || ' ' || coalesce(sum(cardinality(hex_ids)), 0)
   from territory_cells_in_viewport(-23, 63, -20, 65, 5000, $REYKJAVIK) where next >= $REYKJAVIK or next is null"
expect game "the hand-written new area is at every coarse resolution at commit, drawn as a stand-in" "9 9" \
  "select count(*) filter (where not exact) || ' ' || count(*) filter (where cells = 2) from territory_zoom where h3 in (select territory_h3_parent(territory_h3('$NEW1'), r) from generate_series(0, 8) r)"
recount "after rows written by hand (a new area, a steal, a delete)"
night "$EDGES"
since_check "after the next night (the new area's boundaries)"
expect game "the next night wrote the new area's coarse boundaries" "0" "select count(*) from territory_zoom where not exact or not st_isvalid(cell)"

# Four writers at once, each 20 transactions upserting 12 cells (sorted, overlapping) as theirs;
# writers 1 and 3 as the followers write (the coarse cells' pass deferred to territory_zoom_flush).
sql game "select hex_id from territory_hex where hex_id like '89%' order by hex_id" > "$TMP/cells.txt"
users=($(sql game "select id from users order by id limit 4"))
for w in 0 1 2 3; do
  "$PY" scripts/checks/lib/zoom_writer_sql.py "$TMP/cells.txt" "${users[$w]}" "$R1" "$w" > "$TMP/writer$w.sql"
done
pids=()
for w in 0 1 2 3; do "${PSQL[@]}" -d game -f "$TMP/writer$w.sql" > "$TMP/writer$w.log" 2>&1 & pids+=($!); done
wfail=0; for p in "${pids[@]}"; do wait "$p" || wfail=1; done
if [ $wfail -eq 0 ]; then echo "  ok   4 concurrent writers, 80 transactions upserting overlapping cells: none failed (no deadlock reached a writer)"
else echo "  FAIL a concurrent writer failed: $(cat "$TMP"/writer*.log | head -3)"; fail=1; fi
since_check "after the followers' upserts (4 writers at once)"
recount "after 4 concurrent writers"

# Changed behind the trigger's back (disabled): the night finds it and rebuilds.
sql game "alter table territory_hex disable trigger territory_zoom_update; update territory_hex set owner_user_id = '$U1' where hex_id in (select hex_id from territory_hex order by hex_id limit 30);
          alter table territory_hex enable trigger territory_zoom_update" >/dev/null
night "$EDGES"
grep -q 'disagreed with territory_hex' "$TMP/night.log" && echo "  ok   the night found the coarse cells wrong and rebuilt them" || { echo "  FAIL the night did not see the coarse cells wrong"; fail=1; }
since_check "after the night's repair"
recount "after the night's repair"

# Limits and rights.
got=$(sql game "set role authenticated; select * from territory_in_viewport('nan', 0, 1, 1)" 2>&1 || true)
case "$got" in *"is not a box"*) echo "  ok   a NaN bound: a clear error: ${got:0:110}";; *) echo "  FAIL a NaN bound: $got"; fail=1;; esac
got=$(sql game "set role authenticated; select * from territory_in_viewport(0, 10, 1, -10)" 2>&1 || true)
case "$got" in *"is not a box"*) echo "  ok   min_lat > max_lat: a clear error";; *) echo "  FAIL min_lat > max_lat: $got"; fail=1;; esac
got=$(sql game "set role anon; select count(*) from territory_in_viewport(-180, -90, 180, 90)" 2>&1 || true)
case "$got" in *"permission denied"*) echo "  ok   anon cannot call territory_in_viewport";; *) echo "  FAIL anon called territory_in_viewport ($got)"; fail=1;; esac
for stmt in "select count(*) from territory_zoom_owner" "update territory_zoom set cells = 0" "insert into territory_zoom_shape values (1, null)" \
            "select territory_zoom_refresh(array[1::bigint])" "select territory_zoom_repair()"; do
  got=$(sql game "set role authenticated; $stmt" 2>&1 || true)
  case "$got" in *"permission denied"*|*"row-level security"*) echo "  ok   authenticated is refused: ${stmt:0:45}";;
    *) echo "  FAIL authenticated could: $stmt ($got)"; fail=1;; esac
done
expect game "authenticated reads territory_zoom" "$(sql game 'select count(*) from territory_zoom')" "set role authenticated; select count(*) from territory_zoom"

[ $fail -eq 0 ] && echo "check_zoom.sh: all checks passed" || echo "check_zoom.sh: FAILED"
exit $fail
