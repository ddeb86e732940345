"""routes: the focus-timer app's routes → routes.geojson and the bundled SQLite database.

What it does, as a Python developer would: reads data/routes.tsv and data/rewards.tsv (csv);
checks every location against the reference's lookup index (ref_lookup.Index: it must lie in
its route's country); geodesic distances along each route (pyproj Geod.inv) and the drawn
line along great circles with points every 0.25° of arc at most (Geod.npts); writes
routes.geojson and content.sqlite3 (sqlite3 module: routes, locations, tags, location_tags,
rewards; one transaction, then VACUUM) through a temporary file. What it does not do
compared with geo-routes: no check of the tables' ordering rules beyond the country, and a
location in a "mixed" sea cell of the index is reported as outside.
"""
import csv
import json
import math
import os
import sqlite3
import sys

import pyproj

from ref_lookup import Index

GEOD = pyproj.Geod(ellps="WGS84")

SCHEMA = """
CREATE TABLE routes (id TEXT PRIMARY KEY, position INTEGER NOT NULL UNIQUE, name TEXT NOT NULL,
  country_code TEXT NOT NULL, length_km REAL NOT NULL);
CREATE TABLE locations (id INTEGER PRIMARY KEY, route_id TEXT NOT NULL REFERENCES routes(id), position INTEGER NOT NULL,
  name TEXT NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL, minutes_to_unlock INTEGER NOT NULL,
  cumulative_minutes INTEGER NOT NULL, distance_km REAL NOT NULL, description TEXT NOT NULL, source TEXT NOT NULL,
  UNIQUE (route_id, position));
CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE location_tags (location_id INTEGER NOT NULL REFERENCES locations(id), tag_id INTEGER NOT NULL REFERENCES tags(id),
  position INTEGER NOT NULL, PRIMARY KEY (location_id, tag_id));
CREATE TABLE rewards (hours INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL, description TEXT NOT NULL);
"""


def read_tsv(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t", quoting=csv.QUOTE_NONE))


def main(o):
    rows = read_tsv(o.routes)
    rewards = read_tsv(o.rewards)
    index = Index(o.index)
    routes = {}
    for r in rows:
        routes.setdefault(r["route"], []).append(r)
    bad = []
    features = []
    for rid, locs in routes.items():
        locs.sort(key=lambda r: int(r["order"]))
        total = 0.0
        line = []
        for i, r in enumerate(locs):
            lon, lat = float(r["lon"]), float(r["lat"])
            got = index.country_at(lon, lat)
            if got != r["country"]:
                bad.append(f"{rid} {r['location']}: in {got or 'no country'}, not {r['country']}")
            if i:
                plon, plat = float(locs[i - 1]["lon"]), float(locs[i - 1]["lat"])
                _, _, d = GEOD.inv(plon, plat, lon, lat)
                total += d
                n = max(0, math.ceil(math.degrees(d / 6371008.8) / o.step_degrees) - 1)
                line += [list(p) for p in GEOD.npts(plon, plat, lon, lat, n)] + [[lon, lat]]
            else:
                line.append([lon, lat])
            r["distance_km"] = total / 1000
        features.append({"type": "Feature", "id": rid, "properties": {"name": locs[0]["route_name"], "country": locs[0]["country"],
                                                                     "length_km": round(total / 1000, 3)},
                         "geometry": {"type": "LineString", "coordinates": [[round(x, 6), round(y, 6)] for x, y in line]}})
        for r in locs:
            features.append({"type": "Feature", "properties": {"route": rid, "order": int(r["order"]), "name": r["location"],
                                                               "distance_km": round(r["distance_km"], 3)},
                             "geometry": {"type": "Point", "coordinates": [float(r["lon"]), float(r["lat"])]}})
    if bad:
        sys.exit(f"{o.routes}: locations outside their country by the lookup index: " + "; ".join(bad))
    os.makedirs(o.out_dir, exist_ok=True)
    gj = os.path.join(o.out_dir, "routes.geojson")
    with open(gj + ".tmp", "w", encoding="utf-8") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f, ensure_ascii=False)
    os.replace(gj + ".tmp", gj)
    db = os.path.join(o.out_dir, "content.sqlite3")
    if os.path.exists(db + ".tmp"):
        os.remove(db + ".tmp")
    con = sqlite3.connect(db + ".tmp")
    con.executescript(SCHEMA)
    tags = {}
    with con:
        loc_id = 0
        for pos, (rid, locs) in enumerate(routes.items(), 1):
            con.execute("insert into routes values (?, ?, ?, ?, ?)", (rid, pos, locs[0]["route_name"], locs[0]["country"], locs[-1]["distance_km"]))
            cumulative = 0
            for r in locs:
                loc_id += 1
                cumulative += int(r["minutes"])
                con.execute("insert into locations values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (loc_id, rid, int(r["order"]), r["location"], float(r["lat"]), float(r["lon"]), int(r["minutes"]), cumulative,
                             r["distance_km"], r["description"], r["source"]))
                for tpos, tag in enumerate(t for t in r["tags"].split(";") if t):
                    if tag not in tags:
                        tags[tag] = len(tags) + 1
                        con.execute("insert into tags values (?, ?)", (tags[tag], tag))
                    con.execute("insert into location_tags values (?, ?, ?)", (loc_id, tags[tag], tpos + 1))
        con.executemany("insert into rewards values (?, ?, ?, ?)", [(int(r["hours"]), r["id"], r["title"], r["description"]) for r in rewards])
    con.execute("vacuum")
    con.close()
    os.replace(db + ".tmp", db)
    print(f"routes: {len(routes)} routes, {len(rows)} locations, {len(rewards)} rewards → {o.out_dir}", file=sys.stderr)


def add_parser(sub):
    a = sub.add_parser("routes", help="routes GeoJSON and SQLite database")
    a.add_argument("routes"); a.add_argument("--rewards", required=True); a.add_argument("--index", required=True)
    a.add_argument("--out-dir", required=True); a.add_argument("--step-degrees", type=float, default=0.25)
    a.set_defaults(run=main)
