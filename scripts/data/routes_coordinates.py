"""Rewrites the lat/lon of data/routes.tsv from the source each row names: for a row whose
source is "Natural Earth 4.0.0 ne_10m_populated_places NAME=<name> ISO_A2=<code>", the
coordinates of that place (its Point geometry, 6 decimals). Every other cell stays as it is.

  python3 scripts/data/routes_coordinates.py           # rewrite data/routes.tsv
  python3 scripts/data/routes_coordinates.py --check   # exit 1 if a row differs
"""
import json
import sys

TSV = "data/routes.tsv"
PLACES = "data/natural-earth/ne_10m_populated_places.geojson"

places = {}
for f in json.load(open(PLACES, encoding="utf-8"))["features"]:
    p = f["properties"]
    places[(p["NAME"], p["ISO_A2"])] = f["geometry"]["coordinates"]

lines = open(TSV, encoding="utf-8").read().split("\n")
header = None
changed = []
for i, line in enumerate(lines):
    if not line or line.startswith("#"):
        continue
    cells = line.split("\t")
    if header is None:
        header = cells
        continue
    row = dict(zip(header, cells))
    src = dict(kv.split("=", 1) for kv in row["source"].split() if "=" in kv)
    if "ne_10m_populated_places" not in row["source"]:
        continue
    lon, lat = places[(src["NAME"], src["ISO_A2"])]
    cells[header.index("lat")], cells[header.index("lon")] = f"{lat:.6f}", f"{lon:.6f}"
    if "\t".join(cells) != line:
        changed.append(f"line {i + 1}: {row['route']} #{row['order']} {row['location']}")
        lines[i] = "\t".join(cells)

if "--check" in sys.argv:
    for c in changed:
        print("differs from its source:", c)
    sys.exit(1 if changed else 0)
open(TSV, "w", encoding="utf-8").write("\n".join(lines))
print(f"{TSV}: {len(changed)} rows updated")
