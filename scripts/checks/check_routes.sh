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
${PYTHON:-python3} scripts/checks/lib/routes_geojson.py "$DIR/routes.geojson" "$rows" || fails=$((fails + 1))
[ $fails -eq 0 ] && echo "routes: ok" || echo "routes: $fails failures"
[ $fails -eq 0 ]
