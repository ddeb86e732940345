# check_inspect.sh: DOM_HTML WORLD PAGE_DIR — the page's DOM as headless Chromium left it, against
# world.geojson and the page's data (see check_inspect.sh's header). Prints what it found and a FAIL line per failure; exits 1 on one.
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
