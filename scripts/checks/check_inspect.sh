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

python3 - "$OUT/dom.html" "$WORLD" "$PAGE_DIR" <<'PY' || fails=$((fails + 1))
import json, re, sys
dom, world, page = sys.argv[1], sys.argv[2], sys.argv[3]
html = open(dom, encoding="utf-8").read()
ids = sorted(f["id"] for f in json.load(open(world))["features"])
elements = re.findall(r'<(path|g|img|div)\b[^>]*\bdata-iso="([A-Z]{2})"[^>]*>', html)
drawn = [iso for _, iso in elements]
bad = []
if sorted(set(drawn)) != ids:
    bad.append(f"data-iso codes differ from world.geojson: missing {sorted(set(ids) - set(drawn))[:10]}, extra {sorted(set(drawn) - set(ids))[:10]}")
if len(drawn) != len(ids):
    bad.append(f"{len(drawn)} elements carry data-iso for {len(ids)} features (one each expected)")
data = open(page + "/data.js", encoding="utf-8").read()
start = data.index("window.INSPECT = ") + len("window.INSPECT = ")
changes = json.loads(data[start:].rstrip().rstrip(";"))["changes"]
changed = set((changes or {}).get("countries", {}))
fills = {iso: re.search(r'fill="([^"]+)"', tag).group(1) for tag, iso in
         ((m.group(0), m.group(1)) for m in re.finditer(r'<path\b[^>]*\bdata-iso="([A-Z]{2})"[^>]*>', html))
         if re.search(r'fill="([^"]+)"', tag)}
highlighted = {iso for iso, f in fills.items() if f.lower() == "#e4572e"}
if highlighted != changed:
    bad.append(f"highlighted {sorted(highlighted)} but changes.json lists {sorted(changed)}")
for url in re.findall(r'(?:src|href)="(https?:[^"]+)"', open(page + "/index.html", encoding="utf-8").read()):
    bad.append(f"the page loads {url} from the network")
for b in bad: print("FAIL:", b)
print(f"inspect: {len(set(drawn))} of {len(ids)} countries drawn with data-iso, {len(highlighted)} highlighted as changed")
sys.exit(1 if bad else 0)
PY
[ $fails -eq 0 ] && echo "inspect page OK: $URL (screenshot $SHOT)"
[ $fails -eq 0 ]
