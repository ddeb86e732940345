# check_territory.sh: TERRITORY_GEOJSON BOXES — per box ("lo la hi ha", '|'-separated), the
# hex_ids of the cells intersecting it (shapely; each box where it lies and a turn east and west).
import json, sys
from shapely.geometry import Polygon, box
feats = json.load(open(sys.argv[1]))["features"]
cells = []
for f in feats:
    ring = f["geometry"]["coordinates"][0]
    if max(x for x, y in ring) - min(x for x, y in ring) > 180:
        ring = [(x + 360 if x < 0 else x, y) for x, y in ring]
    cells.append((f["properties"]["hex_id"], Polygon(ring)))
for b in sys.argv[2].split("|"):
    lo, la, hi, ha = map(float, b.split())
    if lo > hi: hi += 360
    got = sorted(h for h, p in cells if any(p.intersects(box(lo + s, la, hi + s, ha)) for s in (-360, 0, 360)))
    print(f"box {b}: {' '.join(got)}")
