#!/usr/bin/env bash
# Opens the inspection page (dist/inspect/index.html, or the page of the folder given) in
# Debian's headless Chromium, from the file system, with no network:
#   * with every layer on (#layers=all): no console line but the page's own "inspect: drew …"
#     (an uncaught error, a console.error, a file that would not load all print one);
#   * every country of world.geojson is drawn: the DOM has one element carrying data-iso per
#     feature, and the set of codes is the set of feature ids;
#   * with a changes.json in the page's data, the changed countries (and only they) are filled
#     with the highlight colour;
#   * the page references no http(s) resource (no CDN);
#   * a screenshot of the default view goes to build/inspect/screenshot.png (SHOT=… elsewhere).
# usage: check_inspect.sh [PAGE_DIR [WORLD_GEOJSON]]
set -uo pipefail
cd "$(dirname "$0")/../.."
PAGE_DIR=${1:-${DIST:-dist}/inspect}
WORLD=${2:-${DIST:-dist}/world.geojson}
OUT=${OUT:-build/inspect}
SHOT=${SHOT:-$OUT/screenshot.png}
mkdir -p "$OUT"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
[ -s "$PAGE_DIR/index.html" ] && [ -s "$PAGE_DIR/data.js" ] && [ -s "$PAGE_DIR/leaflet/leaflet.js" ] \
  || { echo "FAIL: $PAGE_DIR has no index.html, data.js and leaflet/leaflet.js (make inspect)"; exit 1; }
URL="file://$(realpath "$PAGE_DIR")/index.html"

# Chromium prints console messages on stderr as INFO:CONSOLE lines (whatever their level).
chrome() { timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --enable-logging=stderr --v=0 \
  --user-data-dir="$(mktemp -d)" --virtual-time-budget=10000 "$@"; }
chrome --dump-dom "$URL#layers=all" > "$OUT/dom.html" 2> "$OUT/console.txt" || fail "chromium --dump-dom exited $?"
grep -F ':CONSOLE' "$OUT/console.txt" > "$OUT/console-lines.txt"
grep -q '"inspect: drew ' "$OUT/console-lines.txt" || fail "the page never logged 'inspect: drew …' (its script did not finish)"
if grep -v '"inspect: drew ' "$OUT/console-lines.txt" | grep -q .; then
  fail "console lines:"; grep -v '"inspect: drew ' "$OUT/console-lines.txt" | head -n 10
fi
chrome --window-size=1400,800 --screenshot="$SHOT" "$URL" > /dev/null 2>&1 || fail "chromium --screenshot exited $?"
[ -s "$SHOT" ] || fail "no screenshot at $SHOT"

python3 scripts/checks/lib/inspect_dom.py "$OUT/dom.html" "$WORLD" "$PAGE_DIR" || fails=$((fails + 1))
[ $fails -eq 0 ] && echo "inspect page OK: $URL (screenshot $SHOT)"
[ $fails -eq 0 ]
