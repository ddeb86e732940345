#!/usr/bin/env bash
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
#   - preview.svg is well-formed XML (xmllint) and renders (rsvg-convert) with the owners' colours.
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=${TERRITORY_DIR:-dist/territory}
RUNS=${TERRITORY_RUNS:-data/territory/runs.geojson}
BIN=${BIN:-.build/release}
PY=${PYTHON:-python3}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
RSVG=${RSVG:-rsvg-convert}

for f in "$OUT/territory_hex.sql" "$OUT/territory.geojson" "$OUT/runs.tsv" "$OUT/preview.svg"; do
  [ -f "$f" ] || { echo "check_territory: $f is missing (run make territory)"; exit 1; }
done
if [ ! -x "$PGBIN/postgres" ] || [ ! -f /usr/share/postgresql/15/extension/postgis.control ]; then
  bash scripts/setup.sh --test
fi
[ -x "$PGBIN/postgres" ] || { echo "check_territory: no PostgreSQL 15 server binaries in $PGBIN"; exit 1; }

source scripts/checks/lib/pg.sh
pg_start check_territory C timezone=UTC
fail=0
sql() { pg_sql "$@"; }        # sql DB QUERY
expect() { pg_expect "$@"; }  # expect DB NAME EXPECTED QUERY
newdb() { sql postgres "create database $1"; "${PSQL[@]}" -d "$1" -f scripts/checks/territory_schema.sql; }
OWNERS="select hex_id || ' ' || owner_user_id || ' ' || last_run_id || ' ' || to_char(claimed_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') || 'Z' from territory_hex order by hex_id"
# territory.geojson's owners in the same text form (claimed_at: the sample's whole seconds).
geo_owners() {
  "$PY" -c 'import json,sys
for f in sorted(json.load(open(sys.argv[1]))["features"], key=lambda f: f["properties"]["hex_id"]):
    p = f["properties"]; print(p["hex_id"], p["owner_user_id"], p["last_run_id"], p["claimed_at"])' "$1"
}

echo "PostgreSQL $(sql postgres 'show server_version'), PostGIS $(newdb game && sql game 'select postgis_lib_version()')"
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
"$PY" - "$RUNS" "$TMP" <<'PYEOF'
import json, sys
fc = json.load(open(sys.argv[1], encoding="utf-8"))
cut = "2026-11-19T00:00:00Z"
for name, keep in (("night1", lambda t: t < cut), ("night2", lambda t: t >= cut)):
    out = dict(fc, features=[f for f in fc["features"] if keep(f["properties"]["times"][-1])])
    json.dump(out, open(f"{sys.argv[2]}/{name}.geojson", "w"))
PYEOF
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

# The picture.
if xmllint --noout "$OUT/preview.svg" 2>"$TMP/xmllint.txt"; then echo "  ok   preview.svg is well-formed XML"; else echo "  FAIL preview.svg: $(head -3 "$TMP/xmllint.txt")"; fail=1; fi
"$RSVG" -o "$TMP/preview.png" "$OUT/preview.svg"
"$PY" - "$TMP/preview.png" "$OUT/preview.svg" <<'PYEOF' || fail=1
import re, struct, sys, zlib
png = open(sys.argv[1], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n"
w, h, depth, ctype = struct.unpack(">IIBB", png[16:26])
idat = b"".join(png[i + 8:i + 8 + struct.unpack(">I", png[i:i + 4])[0]] for i in [m.start() - 4 for m in re.finditer(b"IDAT", png)])
raw = zlib.decompress(idat)
bpp = {6: 4, 2: 3}[ctype]
stride = w * bpp
rows, prev = [], bytearray(stride)
pos = 0
for y in range(h):
    f = raw[pos]; line = bytearray(raw[pos + 1:pos + 1 + stride]); pos += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line)); prev = line
colours = {tuple(r[x:x + 3]) for r in rows for x in range(0, stride, bpp)}
fills = set(re.findall(r'<path id="h[0-9a-f]+" fill="#([0-9A-F]{6})"', open(sys.argv[2]).read()))
# cells are drawn at 60 % over the background: at least as many distinct tints as owners in view
print(f"  ok   preview.svg renders with rsvg-convert ({w}×{h} px, {len(colours)} colours, {len(fills)} owners' fills)" if w > 300 and h > 100 and len(fills) >= 2 and len(colours) > len(fills)
      else f"  FAIL preview.png {w}×{h}, {len(fills)} owners")
sys.exit(0 if w > 300 and h > 100 and len(fills) >= 2 else 1)
PYEOF

[ $fail -eq 0 ] && echo "check_territory.sh: all checks passed" || echo "check_territory.sh: FAILED"
exit $fail
