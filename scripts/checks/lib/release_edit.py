#!/usr/bin/env python3
"""Makes an edited copy of the data directory for the release check (scripts/checks/check_release.sh):
every file is a symbolic link to the original except
  * the 1:10m map units, where ONE vertex of the Portugal–Spain border (shared by both rings) moves
    4 km across the border, and
  * capitals.tsv, where Nauru's capital is renamed ("Yaren" → "Yaren District"; a name no alias
    has, so the capital field alone changes).
Prints the vertex before and after. usage: release_edit.py DATA_DIR OUT_DIR"""
import math, os, re, shutil, sys

src, out = sys.argv[1], sys.argv[2]
UNITS = "natural-earth/ne_10m_admin_0_map_units.geojson"
MOVE_KM = 4.0

shutil.rmtree(out, ignore_errors=True)
for root, dirs, files in os.walk(src):
    rel = os.path.relpath(root, src)
    os.makedirs(os.path.join(out, rel), exist_ok=True)
    for f in files:
        p = os.path.normpath(os.path.join(rel, f))
        if p in (UNITS, "capitals.tsv"):
            continue
        os.symlink(os.path.abspath(os.path.join(root, f)), os.path.join(out, p))

# The border vertex: the middle of the longest run of Portugal's mainland ring that Spain's rings share.
text = open(os.path.join(src, UNITS), encoding="utf-8").read()
import json
units = json.loads(text)
def rings(name):
    f = next(f for f in units["features"] if f["properties"]["NAME"] == name)
    g = f["geometry"]
    polys = g["coordinates"] if g["type"] == "MultiPolygon" else [g["coordinates"]]
    return [tuple(map(tuple, r)) for p in polys for r in p]
spain = {pt for r in rings("Spain") for pt in r}
ring = max(rings("Portugal"), key=len)
best, run = (0, 0), None
for i, pt in enumerate(ring):
    if pt in spain:
        run = i if run is None else run
        if i - run + 1 > best[1] - best[0]:
            best = (run, i + 1)
    else:
        run = None
k = (best[0] + best[1]) // 2
prev, v, nxt = ring[k - 1], ring[k], ring[k + 1]
# Across the border: perpendicular to the chord prev → next, in a local metric frame.
c = math.cos(math.radians(v[1]))
dx, dy = (nxt[0] - prev[0]) * c, nxt[1] - prev[1]
n = math.hypot(dx, dy)
km_per_deg = 6371.0088 * math.pi / 180
moved = (round(v[0] + (-dy / n) * MOVE_KM / km_per_deg / c, 6), round(v[1] + (dx / n) * MOVE_KM / km_per_deg, 6))

# The file writes each position as "[ lon, lat ]" with the shortest decimal form of 6 places.
old = "[ %s, %s ]" % (format(v[0], ".6f").rstrip("0").rstrip("."), format(v[1], ".6f").rstrip("0").rstrip("."))
count = text.count(old)
if count < 2:
    sys.exit(f"release_edit: the vertex {old} occurs {count} times in {UNITS}; expected it in both Portugal and Spain")
new = "[ %s, %s ]" % (format(moved[0], ".6f").rstrip("0").rstrip("."), format(moved[1], ".6f").rstrip("0").rstrip("."))
os.makedirs(os.path.dirname(os.path.join(out, UNITS)), exist_ok=True)
open(os.path.join(out, UNITS), "w", encoding="utf-8").write(text.replace(old, new))

caps = open(os.path.join(src, "capitals.tsv"), encoding="utf-8").read()
edited = re.sub(r"^NR\tYaren\t", "NR\tYaren District\t", caps, count=1, flags=re.M)
if edited == caps:
    sys.exit("release_edit: no row 'NR<TAB>Yaren' in capitals.tsv")
open(os.path.join(out, "capitals.tsv"), "w", encoding="utf-8").write(edited)
print(f"release_edit: moved the Portugal–Spain border vertex {old} → {new} ({count} occurrences, {MOVE_KM} km); NR capital → Yaren District")
