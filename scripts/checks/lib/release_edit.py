#!/usr/bin/env python3
"""Makes an edited copy of the data directory for the release check (scripts/checks/check_release.sh):
every file is a symbolic link to the original except
  * the 1:10m map units, where ONE vertex of the Portugal–Spain border (shared by both rings) moves
    4 km: the shared vertex nearest a point of the release's lookup probe (Changes.probePoints, a
    100,000-point Fibonacci lattice), moved towards that point and past it, so that the probe
    answers the other country there (and nowhere else: the points are ~70 km apart);
  * capitals.tsv, where Nauru's capital is renamed ("Yaren" → "Yaren District"; a name no alias
    has, so the capital field alone changes);
  * the populated places, where one place no probe point has within 25 km (the lookup's city
    radius) moves onto the nearest probe point that has no place within 25 km: that point's
    nearest city changes, no other's;
  * cities15000.tsv, where one city's population and another's latitude change (the cities seed's
    other columns: neither a rename nor a move to another country).
Prints the edits; writes what changes.json must then say to OUT_DIR.expected.json.
usage: release_edit.py DATA_DIR OUT_DIR"""
import json, math, os, re, shutil, sys

src, out = sys.argv[1], sys.argv[2]
UNITS = "natural-earth/ne_10m_admin_0_map_units.geojson"
PLACES = "natural-earth/ne_10m_populated_places.geojson"
CITIES = "geonames/cities15000.tsv"
MOVE_KM = 4.0
CITY_RADIUS_KM = 25.0   # GeoLookup.defaultCityRadiusKm, the probe's nearest-city radius
R = 6371.0088

shutil.rmtree(out, ignore_errors=True)
for root, dirs, files in os.walk(src):
    rel = os.path.relpath(root, src)
    os.makedirs(os.path.join(out, rel), exist_ok=True)
    for f in files:
        p = os.path.normpath(os.path.join(rel, f))
        if p in (UNITS, PLACES, CITIES, "capitals.tsv"):
            continue
        os.symlink(os.path.abspath(os.path.join(root, f)), os.path.join(out, p))

# The release's lookup probe (Changes.probePoints), bucketed by whole degrees.
N = 100000
golden = math.pi * (3 - math.sqrt(5))
probe = []
for i in range(N):
    lon = math.fmod(i * golden, 2 * math.pi) * 180 / math.pi
    probe.append((math.asin(1 - (i + 0.5) * 2 / N) * 180 / math.pi, lon - 360 if lon > 180 else lon))
def km(a, b):  # (lat, lon) pairs, haversine on the mean sphere
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * R * math.asin(min(1, math.sqrt(h)))
def bucketed(points):
    grid = {}
    for i, (la, lo) in enumerate(points):
        grid.setdefault((math.floor(la), math.floor(lo)), []).append(i)
    return grid
def within(grid, points, p, radius):  # (km, index) of the points within radius of p (|lat| < 60)
    la, lo = math.floor(p[0]), math.floor(p[1])
    return sorted((km(p, points[i]), i) for a in range(la - 1, la + 2) for b in range(lo - 2, lo + 3)
                  for i in grid.get((a, (b + 180) % 360 - 180), []) if km(p, points[i]) <= radius)
probe_grid = bucketed(probe)

def inside(pt, ring):  # ray casting, (lon, lat)
    x, y, c = pt[0], pt[1], False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            c = not c
    return c

# The border vertex: the shared vertex nearest a probe point (within 3 km), moved 4 km towards
# and past it; kept only if the point is then on the other side of the border (ray casting).
text = open(os.path.join(src, UNITS), encoding="utf-8").read()
units = json.loads(text)
def rings(name):
    f = next(f for f in units["features"] if f["properties"]["NAME"] == name)
    g = f["geometry"]
    polys = g["coordinates"] if g["type"] == "MultiPolygon" else [g["coordinates"]]
    return [tuple(map(tuple, r)) for p in polys for r in p]
spain = {pt for r in rings("Spain") for pt in r}
ring = max(rings("Portugal"), key=len)
km_per_deg = R * math.pi / 180
pairs = sorted((d, k, i) for k, v in enumerate(ring) if v in spain for d, i in within(probe_grid, probe, (v[1], v[0]), 3.0))
for d, k, i in pairs:
    v, p = ring[k], (probe[i][1], probe[i][0])
    c = math.cos(math.radians(v[1]))
    dx, dy = (p[0] - v[0]) * c, p[1] - v[1]
    n = math.hypot(dx, dy)
    moved = (round(v[0] + dx / n * MOVE_KM / km_per_deg / c, 6), round(v[1] + dy / n * MOVE_KM / km_per_deg, 6))
    after = [moved if q == v else q for q in ring]
    if inside(p, ring) != inside(p, after):
        break
else:
    sys.exit("release_edit: no Portugal–Spain border vertex within 3 km of a probe point can move a probe point across")
was, now = ("PT", "ES") if inside(p, ring) else ("ES", "PT")
border_probe = {"index": i, "lat": probe[i][0], "lon": probe[i][1], "old": was, "new": now}

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

# The place: a "Populated place" (no capital, away from the poles) with no probe point within
# 25 km (+ 5 km of margin), moved onto its nearest probe point, which has no place within 30 km;
# of those, the shortest move (the place most likely stays in its country).
ptext = open(os.path.join(src, PLACES), encoding="utf-8").read()
places = json.loads(ptext)["features"]
ppos = [(f["geometry"]["coordinates"][1], f["geometry"]["coordinates"][0]) for f in places]
place_grid = bucketed(ppos)
moves = []
for k, f in enumerate(places):
    if f["properties"]["FEATURECLA"] != "Populated place" or abs(ppos[k][0]) > 55 or within(probe_grid, probe, ppos[k], CITY_RADIUS_KM + 5):
        continue
    near = within(probe_grid, probe, ppos[k], 45)
    if near and not within(place_grid, ppos, probe[near[0][1]], CITY_RADIUS_KM + 5):
        moves.append((near[0][0], k, near[0][1]))
if not moves:
    sys.exit("release_edit: no populated place to move onto a probe point")
move_km, k, target_index = min(moves)
place, target = places[k]["properties"]["NAME"], probe[target_index]
old_place = '"coordinates": [ %s, %s ] }' % tuple(format(x, ".6f").rstrip("0").rstrip(".") for x in (ppos[k][1], ppos[k][0]))
if ptext.count(old_place) != 1:
    sys.exit(f"release_edit: the place {place}'s position {old_place} occurs {ptext.count(old_place)} times in {PLACES}")
new_place = '"coordinates": [ %.6f, %.6f ] }' % (target[1], target[0])
open(os.path.join(out, PLACES), "w", encoding="utf-8").write(ptext.replace(old_place, new_place))

# Two cities: the first data row's population + 1000, the second's latitude + 0.01° (1.1 km).
lines = open(os.path.join(src, CITIES), encoding="utf-8").read().split("\n")
header = next(n for n, l in enumerate(lines) if l.startswith("geonameid\t"))
cols = lines[header].split("\t")
a, b = (lines[header + 1].split("\t"), lines[header + 2].split("\t"))
a[cols.index("population")] = str(int(a[cols.index("population")]) + 1000)
b[cols.index("latitude")] = "%.5f" % (float(b[cols.index("latitude")]) + 0.01)
lines[header + 1], lines[header + 2] = "\t".join(a), "\t".join(b)
open(os.path.join(out, CITIES), "w", encoding="utf-8").write("\n".join(lines))

json.dump({"border_probe": border_probe, "nearest_city_differs": 1, "place": place,
           "cities_other_columns_changed": 2, "cities": [a[1], b[1]]},
          open(out.rstrip("/") + ".expected.json", "w"), ensure_ascii=False, indent=1)
print(f"release_edit: moved the Portugal–Spain border vertex {old} → {new} ({count} occurrences, {MOVE_KM} km) across probe point "
      f"{i} ({was} → {now}); NR capital → Yaren District; place {place} {move_km:.1f} km onto probe point {target_index}; "
      f"{a[1]}'s population and {b[1]}'s latitude changed")
