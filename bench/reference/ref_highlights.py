"""highlights: the curated country highlights, checked against the world and the populated places.

What it does, as a Python developer would: reads data/country_highlights.json, the alias
table (data/highlight_places.tsv), world.geojson and the compact populated places (orjson); checks
that the highlight countries are the world's, every list has 1–5 entries; locates each city
in the places by name (or alias) and country code, else by name alone; tests the located
points against the countries with one shapely STRtree query over all points (bounding boxes),
then the prepared polygons' `contains`; a point outside its country passes within 25 km of it
(pyproj Geod distance to the nearest point of the polygon), a point country's city within
150 km of the point; writes dist/country_highlights.json (sorted keys) and a text report.
What it does not do compared with geo-highlights: fewer name normalisations (case and
diacritics only), no per-entry error messages naming the file and the entry.
"""
import sys
import unicodedata

import numpy as np
import orjson
import pyproj
import shapely
import shapely.ops

from ref_io import features, geometries, load_json, write_text

GEOD = pyproj.Geod(ellps="WGS84")


def norm(s):
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).casefold()


def main(o):
    source = load_json(o.source)
    world = {ft["id"]: ft for ft in features(o.world)}
    places = features(o.places)
    aliases = {}
    with open(o.aliases, encoding="utf-8") as f:
        header = None
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if header is None:
                header = cells
                continue
            row = dict(zip(header, cells))
            aliases[(row["id"], row["city"])] = row["place"]
    missing = sorted(set(world) - set(source))
    extra = sorted(set(source) - set(world))
    if extra:
        sys.exit(f"{o.source}: countries not in {o.world}: {' '.join(extra)}")
    by_key, by_name = {}, {}
    for pl in places:
        p = pl["properties"]
        for name in {p["NAME"], p.get("NAMEASCII") or p["NAME"]}:
            by_key.setdefault((norm(name), p.get("ISO_A2")), []).append(pl)
            by_name.setdefault(norm(name), []).append(pl)
    located = []  # (iso, city, lon, lat, how)
    notfound = []
    for iso, entry in source.items():
        for key in ("cities", "attractions"):
            if not 1 <= len(entry.get(key, [])) <= 5:
                sys.exit(f"{o.source}: {iso}: {key} must have 1–5 entries")
        for city in entry["cities"]:
            name = aliases.get((iso, city), city)
            cands = sorted(by_key.get((norm(name), iso), []), key=lambda pl: -(pl["properties"].get("POP_MAX") or 0))
            how = "code"
            if not cands:
                cands = sorted(by_name.get(norm(name), []), key=lambda pl: -(pl["properties"].get("POP_MAX") or 0))
                how = "name"
            if not cands:
                notfound.append((iso, city))
                continue
            lon, lat = cands[0]["geometry"]["coordinates"]
            located.append((iso, city, lon, lat, how))
    ids = sorted(world)
    geoms = geometries([world[i] for i in ids])
    shapely.prepare(geoms)
    tree = shapely.STRtree(geoms)
    pts = shapely.points([(lon, lat) for _, _, lon, lat, _ in located])
    pi, gi = tree.query(pts)
    inside_ = shapely.contains(geoms[gi], pts[pi])
    pi, gi = pi[inside_], gi[inside_]
    hits = {}
    for a, b in zip(pi.tolist(), gi.tolist()):
        hits.setdefault(a, set()).add(ids[b])
    inside, coast, point, outside = [], [], [], []
    for n, (iso, city, lon, lat, how) in enumerate(located):
        g = geoms[ids.index(iso)]
        if iso in hits.get(n, ()):
            inside.append((iso, city))
            continue
        near = shapely.ops.nearest_points(g, pts[n])[0] if g.geom_type != "Point" else g
        km = GEOD.inv(lon, lat, near.x, near.y)[2] / 1000
        if g.geom_type == "Point":
            (point if km <= o.point_radius else outside).append((iso, city, km))
        else:
            (coast if km <= o.coastal_tolerance else outside).append((iso, city, km))
    out = {iso: {"cities": source[iso]["cities"], "attractions": source[iso]["attractions"]} for iso in sorted(source)}
    text = orjson.dumps(out, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode() + "\n"
    for path, body in ((o.out, text), (o.report, "\n".join(
            [f"highlights: {len(out)} countries, {sum(len(e['cities']) for e in out.values())} cities",
             f"located {len(located)} (inside {len(inside)}, near coast {len(coast)}, point countries {len(point)}, outside {len(outside)}), not located {len(notfound)}",
             f"countries without highlights: {' '.join(missing) or 'none'}"]
            + [f"outside: {i} {c} {km:.0f} km" for i, c, km in outside] + [f"not located: {i} {c}" for i, c in notfound]) + "\n")):
        write_text(path, body)
    print(f"highlights: {len(out)} countries; located {len(located)} (inside {len(inside)}, coast {len(coast)}, point {len(point)}, outside {len(outside)}), "
          f"not located {len(notfound)}", file=sys.stderr)


def add_parser(sub):
    a = sub.add_parser("highlights", help="validated country highlights")
    a.add_argument("source"); a.add_argument("--world", required=True); a.add_argument("-o", "--out", required=True)
    a.add_argument("--places", required=True); a.add_argument("--aliases", required=True); a.add_argument("--report", required=True)
    a.add_argument("--coastal-tolerance", type=float, default=25); a.add_argument("--point-radius", type=float, default=150)
    a.set_defaults(run=main)
