# check_territory.sh: LOOPS_GEOJSON — each edge loop's cells against h3-py's (around a pole: the cells
# whose centre the loop encloses). Prints one ok/FAIL line; exits 1 on FAIL.
import json, math, sys
import h3
from shapely.geometry import Point as P, Polygon
bad = []
for f in json.load(open(sys.argv[1]))["features"]:
    g = f["geometry"]
    polys = [g["coordinates"]] if g["type"] == "Polygon" else g["coordinates"]
    cells = set()
    for p in polys:
        rings = [[(la, lo - 360 if lo > 180 else lo) for lo, la in r] for r in p]
        pole = next((la for la, lo in rings[0] if abs(la) == 90), None)
        if pole is None:
            cells |= set(h3.polygon_to_cells(h3.LatLngPoly(rings[0], *rings[1:]), 9))
            continue
        # Around a pole: its azimuthal plane, colatitude as the radius.
        def xy(la, lo): r = 90 - abs(la); return (r * math.sin(math.radians(lo)), r * math.cos(math.radians(lo)))
        shape = Polygon([xy(la, lo) for la, lo in rings[0] if abs(la) < 90], [[xy(la, lo) for la, lo in h] for h in rings[1:]])
        for c in h3.grid_disk(h3.latlng_to_cell(pole, 0, 9), 12):
            if shape.contains(P(*xy(*h3.cell_to_latlng(c)))): cells.add(c)
    if sorted(cells) != sorted(f["properties"]["cells"]) or not cells:
        bad.append((f["id"], len(cells), len(f["properties"]["cells"])))
print("  ok   the edge loops' cells equal h3-py's (5 loops; the pole lap by centre containment)" if not bad else f"  FAIL edge loops' cells differ from h3-py's: {bad}")
sys.exit(1 if bad else 0)
