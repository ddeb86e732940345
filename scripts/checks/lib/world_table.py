# WORLD FIELD… — the country set of WORLD (world.geojson), read by Python's json (an independent
# reader): one tab-separated line per feature with the FIELDs asked, among
#   id, name, continent     the feature's id and properties
#   capital                 the capital's name, or nothing
#   has_capital, is_point   t or f (is_point: a Point geometry, or renderAs "point")
# Used by check_challenges.sh and check_cities.sh.
import json, sys

def value(f, field):
    p = f["properties"]
    if field == "id":
        return f["id"]
    if field == "capital":
        return p.get("capital") or ""
    if field == "has_capital":
        return "t" if p.get("capital") else "f"
    if field == "is_point":
        return "t" if f["geometry"]["type"] == "Point" or p.get("renderAs") == "point" else "f"
    return p[field]

for f in json.load(open(sys.argv[1], encoding="utf-8"))["features"]:
    print("\t".join(value(f, field) for field in sys.argv[2:]))
