"""Reads build/ingest/countries.geojson with Python's json and shapely (a second, independent
GeoJSON reader) and checks it against CONTRACTS §1 as far as the ingest stage promises."""
import json, os, sys
from shapely.geometry import shape
import shapely

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import fail, finish, ingest_path, polygons  # noqa: E402

PATH = ingest_path()  # $INGEST_OUT, else $BUILD/ingest/countries.geojson
CONTINENTS = {"Africa", "Asia", "Europe", "North America", "South America", "Oceania", "Antarctica"}
with open(PATH, encoding="utf-8") as f:
    fc = json.load(f)
codes = [l.strip() for l in open("data/app_country_codes.txt") if l.strip()]
assert fc["type"] == "FeatureCollection"
ids = [f["id"] for f in fc["features"]]
if ids != sorted(ids): fail("features are not sorted by id")
if sorted(ids) != sorted(codes): fail(f"ids differ from the app's set: missing {sorted(set(codes)-set(ids))}, extra {sorted(set(ids)-set(codes))}")
invalid = []
for f in fc["features"]:
    p, fid = f["properties"], f["id"]
    if p.get("continent") not in CONTINENTS: fail(f"{fid}: continent {p.get('continent')!r}")
    if not p.get("name"): fail(f"{fid}: no name")
    if fid in ("AQ", "TF"):
        if "capital" in p: fail(f"{fid}: should have no capital")
    else:
        for k in ("capital", "capitalLat", "capitalLon"):
            if k not in p: fail(f"{fid}: no {k}")
    g = shape(f["geometry"])
    if f["geometry"]["type"] in ("Polygon", "MultiPolygon"):
        for poly in polygons(f["geometry"]):
            if not shapely.LinearRing(poly[0]).is_ccw: fail(f"{fid}: exterior ring not counter-clockwise")
            for h in poly[1:]:
                if shapely.LinearRing(h).is_ccw: fail(f"{fid}: hole not clockwise")
        if not g.is_valid: invalid.append((fid, shapely.is_valid_reason(g)))
    elif f["geometry"]["type"] != "Point":
        fail(f"{fid}: geometry type {f['geometry']['type']}")
# Natural Earth's own invalid rings are repaired by the world stage, not here.
known = {"EG", "US", "SD"}
for fid, why in invalid:
    if fid not in known: fail(f"{fid}: invalid geometry {why}")
by = {f["id"]: f for f in fc["features"]}
za, ls = shape(by["ZA"]["geometry"]), shape(by["LS"]["geometry"])
# Lesotho is a hole of South Africa: its inner point is inside ZA's outer ring but not in ZA.
if za.contains(ls.representative_point()): fail("Lesotho's inner point lies inside South Africa's area (no hole)")
print(f"{PATH}: {len(ids)} features, {sum(len(f['geometry'].get('coordinates', [])) for f in fc['features'])} parts; invalid (left for the world stage): {invalid}")
finish()
