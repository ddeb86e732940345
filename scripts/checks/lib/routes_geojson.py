# check_routes.sh: ROUTES_GEOJSON ROWS — routes.geojson against the locations read back from the
# content database (see check_routes.sh's header). Prints what it found and a FAIL line per failure; exits 1 on one.
import json, math, sys
import numpy as np
doc = json.load(open(sys.argv[1], encoding="utf-8"))
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2], encoding="utf-8")]
bad = []
lines = [f for f in doc["features"] if f["geometry"]["type"] == "LineString"]
points = [f for f in doc["features"] if f["geometry"]["type"] == "Point"]
by_route = {}
for r in rows:
    by_route.setdefault(r[0], []).append(r)
if [f["properties"]["route"] for f in lines] != list(by_route):
    bad.append(f"LineStrings {[f['properties']['route'] for f in lines]} ≠ routes {list(by_route)}")
def unit(lon, lat):
    lo, la = math.radians(lon), math.radians(lat)
    return np.array([math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la)])
for f in lines:
    locs = by_route.get(f["properties"]["route"], [])
    coords = f["geometry"]["coordinates"]
    stops = [(float(r[3]), float(r[2])) for r in locs]
    # every location is a vertex, in order; the points between two are on their great circle
    at = []
    for s in stops:
        k = next((i for i in range(at[-1] if at else 0, len(coords)) if abs(coords[i][0] - s[0]) < 1e-6 and abs(coords[i][1] - s[1]) < 1e-6), None)
        if k is None:
            bad.append(f"{f['properties']['route']}: the line does not pass through {s}")
            break
        at.append(k)
    if len(at) == len(stops):
        if at[0] != 0 or at[-1] != len(coords) - 1:
            bad.append(f"{f['properties']['route']}: the line does not start and end at the first and last locations")
        for a, b in zip(at, at[1:]):
            n = np.cross(unit(*coords[a]), unit(*coords[b])); n /= np.linalg.norm(n)
            off = max(abs(float(unit(*coords[i]) @ n)) for i in range(a, b + 1)) * 6371.0088
            if off > 0.001:
                bad.append(f"{f['properties']['route']}: a point of leg {a}–{b} is {off:.3f} km off the great circle")
            step = max(math.degrees(math.acos(min(1, float(unit(*coords[i]) @ unit(*coords[i + 1]))))) for i in range(a, b))
            if step > 0.25 + 1e-6:
                bad.append(f"{f['properties']['route']}: a piece of {step:.3f}° (longer than 0.25°)")
    want_km = [round(float(r[4]), 3) for r in locs]
    if f["properties"]["location_km"] != want_km:
        bad.append(f"{f['properties']['route']}: location_km {f['properties']['location_km']} ≠ database {want_km}")
    # the geodesic distance is close to the sphere's (within 0.6 %): an independent sanity check
    hav = 0.0
    for (lo1, la1), (lo2, la2) in zip(stops, stops[1:]):
        hav += 6371.0088 * math.acos(min(1, float(unit(lo1, la1) @ unit(lo2, la2))))
    if locs and abs(float(locs[-1][4]) - hav) > 0.006 * hav:
        bad.append(f"{f['properties']['route']}: length {locs[-1][4]} km vs {hav:.1f} km on the sphere")
got = [(p["properties"]["route"], p["properties"]["order"], p["geometry"]["coordinates"], p["properties"]["distance_km"], p["properties"]["cumulative_minutes"]) for p in points]
want = [(r[0], int(r[1]), [float(r[3]), float(r[2])], round(float(r[4]), 3), int(r[5])) for r in rows]
if got != want:
    bad.append("location Points differ from the database")
# coordinates = the Natural Earth place named in the source
ne = {}
for f in json.load(open("data/natural-earth/ne_10m_populated_places.geojson", encoding="utf-8"))["features"]:
    ne[(f["properties"]["NAME"], f["properties"]["ISO_A2"])] = f["geometry"]["coordinates"]
for r in rows:
    src = dict(kv.split("=", 1) for kv in r[6].split() if "=" in kv)
    if "ne_10m_populated_places" in r[6]:
        c = ne.get((src.get("NAME"), src.get("ISO_A2")))
        if c is None or abs(c[0] - float(r[3])) > 1e-6 or abs(c[1] - float(r[2])) > 1e-6:
            bad.append(f"{r[0]} #{r[1]}: coordinates {r[2]}, {r[3]} are not Natural Earth's {src} ({c})")
for b in bad:
    print("FAIL:", b)
print(f"routes.geojson: {len(lines)} routes, {sum(len(f['geometry']['coordinates']) for f in lines)} line points, {len(points)} locations" + (f", {len(bad)} failures" if bad else ", ok"))
sys.exit(1 if bad else 0)
