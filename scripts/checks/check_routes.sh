#!/usr/bin/env bash
# Reads the focus app's content database (dist/routes/content.sqlite3) with Debian's sqlite3
# and the routes' GeoJSON with Python's json:
#   * pragma integrity_check is "ok", pragma foreign_key_check finds nothing, and the foreign
#     keys are declared (locations → routes, location_tags → locations and tags);
#   * reading the locations back (in route and location order, tags in their order) gives
#     data/routes.tsv exactly; the rewards are at 1, 10, 20, 50 and 200 hours, as data/rewards.tsv;
#   * cumulative minutes and distances grow along each route, and a route's length is its
#     last location's distance;
#   * routes.geojson: one LineString per route through every location in order (each leg's
#     points on the great circle between its ends), Points with the database's distances;
#     every location's coordinates are those of the Natural Earth place its source names.
set -uo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:-${DIST:-dist}/routes}
DB=$DIR/content.sqlite3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
q() { sqlite3 -bail -batch -separator $'\t' "$DB" "$1"; }

[ -s "$DB" ] || { echo "FAIL: $DB is missing"; exit 1; }
r=$(q "pragma integrity_check"); [ "$r" = ok ] || fail "integrity_check: $r"
r=$(q "pragma foreign_key_check"); [ -z "$r" ] || fail "foreign_key_check: $r"
r=$(q "select group_concat(t || '→' || p, ' ') from (select 'locations' t, \"table\" p from pragma_foreign_key_list('locations') union all select 'location_tags', \"table\" from pragma_foreign_key_list('location_tags') order by 1, 2)")
[ "$r" = "location_tags→locations location_tags→tags locations→routes" ] || fail "foreign keys declared: '$r'"

got=$(q "select r.id, r.name, r.country_code, l.position, l.name, printf('%.6f', l.latitude), printf('%.6f', l.longitude),
         l.minutes_to_unlock,
         coalesce((select group_concat(name, ';') from (select t.name from location_tags lt join tags t on t.id = lt.tag_id
                   where lt.location_id = l.id order by lt.position)), ''),
         l.description, l.source
         from locations l join routes r on r.id = l.route_id order by r.position, l.position")
want=$(grep -v '^#' data/routes.tsv | grep -v '^[[:space:]]*$' | tail -n +2)
if [ "$got" != "$want" ]; then
  fail "the database read back differs from data/routes.tsv:"
  diff <(echo "$want") <(echo "$got") | head -20
fi
got=$(q "select hours, id, title, description from rewards order by hours")
want=$(grep -v '^#' data/rewards.tsv | tail -n +2)
[ "$got" = "$want" ] || fail "rewards read back differ from data/rewards.tsv"
r=$(q "select group_concat(hours, ',') from (select hours from rewards order by hours)"); [ "$r" = "1,10,20,50,200" ] || fail "reward hours: $r"
r=$(q "select count(*) from locations a join locations b on a.route_id = b.route_id and b.position = a.position + 1
       where b.cumulative_minutes != a.cumulative_minutes + b.minutes_to_unlock or b.distance_km <= a.distance_km")
[ "$r" = 0 ] || fail "$r locations whose cumulative minutes or distance do not grow from the previous one"
r=$(q "select count(*) from routes r where abs(r.length_km - (select max(distance_km) from locations where route_id = r.id)) > 1e-9
       or (select distance_km from locations where route_id = r.id and position = 1) != 0")
[ "$r" = 0 ] || fail "$r routes whose length is not the last location's distance (or whose start is not at 0 km)"
echo "content.sqlite3: $(q 'select count(*) from routes') routes, $(q 'select count(*) from locations') locations, $(q 'select count(*) from tags') tags, $(q 'select count(*) from rewards') rewards"

# the rows the GeoJSON is compared with
rows=$(mktemp); trap 'rm -f "$rows"' EXIT
q "select l.route_id, l.position, l.latitude, l.longitude, l.distance_km, l.cumulative_minutes, l.source from locations l
   join routes r on r.id = l.route_id order by r.position, l.position" > "$rows"
${PYTHON:-python3} - "$DIR/routes.geojson" "$rows" <<'PY' || fails=$((fails + 1))
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
PY
[ $fails -eq 0 ] && echo "routes: ok" || echo "routes: $fails failures"
[ $fails -eq 0 ]
