#!/usr/bin/env bash
# The game's map drawn from the cells-only answer (issue 41), in Debian's headless Chromium:
#   * the sample night and the edge night (±180°, the poles) by geo-nightly into a throwaway
#     PostgreSQL 15 + PostGIS; territory_cells_in_viewport as authenticated for three boxes (a city
#     at resolution 9, the same at max_cells 12: coarse cells, a box across ±180° at max_cells 3);
#   * each answer's hex_ids through `geo-hexagons boundary` (the project's own H3: the database
#     sends no geometry), the page made by scripts/map_page.py (build/game-map/index.html);
#   * Chromium, from the file system: no console line but the page's own "map: drew N cells",
#     N = the answers' cells, one SVG polygon (data-h3) per cell and resolution-9 cell of the
#     answer (a cell across ±180° is two); a screenshot at build/game-map/screenshot.png.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-.build/release}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PY=${PYTHON:-python3}
OUT=${OUT:-build/game-map}
source scripts/checks/lib/pg.sh
needs check_map_page "scripts/swift-release.sh build --product geo-nightly --product geo-hexagons" \
  "$BIN/geo-nightly" "$BIN/geo-hexagons" data/territory/runs.geojson data/territory/edge_runs.geojson
pg_start check_map_page C timezone=UTC
fail=0
mkdir -p "$OUT"
pg_sql postgres "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls" >/dev/null
pg_sql postgres "create database game" >/dev/null
"${PSQL[@]}" -d game -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql >/dev/null
for runs in data/territory/runs.geojson data/territory/edge_runs.geojson; do
  DATABASE_URL="host=$SOCK user=postgres dbname=game" "$BIN/geo-nightly" --apps territory --runs "$runs" --pipeline-commit check >"$TMP/night.log" 2>&1 \
    || { echo "  FAIL the night on $runs:"; cat "$TMP/night.log"; exit 1; }
done

args=(); want=0
while IFS='|' read -r title box; do
  n=${#args[@]}
  "${PSQL[@]}" -d game -At -F, -c "set role authenticated" -c "select kind, resolution, owner_user_id, array_to_string(hex_ids, ' '),
    array_to_string(cells, ' '), array_to_string(owner_cells, ' '), next from territory_cells_in_viewport($box)" > "$TMP/answer$n.csv"
  awk -F, '$1 == "cells" { print $4 }' "$TMP/answer$n.csv" | tr ' ' '\n' | grep . > "$TMP/ids$n.txt"
  "$BIN/geo-hexagons" boundary < "$TMP/ids$n.txt" > "$TMP/boundaries$n.geojson" || { echo "  FAIL geo-hexagons boundary"; exit 1; }
  want=$((want + $(wc -l < "$TMP/ids$n.txt")))
  args+=("$title ($box)" "$TMP/answer$n.csv" "$TMP/boundaries$n.geojson")
  [ ${#args[@]} -eq 3 ] && args+=("$OUT/index.html")
done <<'BOXES'
London|-0.20, 51.49, -0.14, 51.52, 5000
London zoomed out|-0.20, 51.49, -0.14, 51.52, 12
Across ±180°|179.9, -17, -179.9, -16.6, 3
BOXES
"$PY" scripts/map_page.py "${args[@]}" | sed 's/^/  /'

URL="file://$(realpath "$OUT/index.html")"
chrome() { timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --enable-logging=stderr --v=0 \
  --user-data-dir="$(mktemp -d)" --virtual-time-budget=10000 "$@"; }
chrome --dump-dom "$URL" > "$OUT/dom.html" 2> "$OUT/console.txt" || { echo "  FAIL chromium --dump-dom exited $?"; fail=1; }
grep -F ':CONSOLE' "$OUT/console.txt" > "$OUT/console-lines.txt"
if grep -q "\"map: drew $want cells\"" "$OUT/console-lines.txt"; then echo "  ok   the page logged 'map: drew $want cells' (the answers' cells)"
else echo "  FAIL the page did not log 'map: drew $want cells': $(head -3 "$OUT/console-lines.txt")"; fail=1; fi
if grep -v '"map: drew ' "$OUT/console-lines.txt" | grep -q .; then
  echo "  FAIL console lines:"; grep -v '"map: drew ' "$OUT/console-lines.txt" | head -5; fail=1
else echo "  ok   no other console line (no error)"; fi
cells=$(grep -o 'data-h3="[0-9a-f]*"' "$OUT/dom.html" | sort -u | wc -l)
[ "$cells" -eq "$want" ] && echo "  ok   every cell of the answers is an SVG polygon ($cells distinct data-h3)" \
  || { echo "  FAIL $cells distinct cells drawn for $want in the answers"; fail=1; }
grep -qE '(src|href)="https?:' "$OUT/index.html" && { echo "  FAIL the page references the network"; fail=1; }
chrome --window-size=1320,900 --screenshot="$OUT/screenshot.png" "$URL" > /dev/null 2>&1 || { echo "  FAIL chromium --screenshot exited $?"; fail=1; }
[ -s "$OUT/screenshot.png" ] && echo "  ok   screenshot: $OUT/screenshot.png" || { echo "  FAIL no screenshot"; fail=1; }
[ $fail -eq 0 ] && echo "check_map_page.sh: all checks passed" || echo "check_map_page.sh: FAILED"
exit $fail
