"""territory: the running game's runs → validated loops → claimed H3 cells (CONTRACTS §8).

What it does, as a Python developer would: reads the runs GeoJSON; per run drops fixes less
accurate than 50 m, measures distances with pyproj Geod (line length, closure, the fastest
step and the longest jump) and checks the game's rules (≥ 100 m, ≥ 30 s, ≥ 10 fixes, start
and end within 50 m, no step above 43 km/h, no jump over 1,000 m); a valid run's loop is the
closed path as a shapely Polygon, repaired with make_valid, its parts' cells from h3-py
(`h3.polygon_to_cells` at resolution 9 on an `h3.LatLngPoly`) and its area from Geod; the most
recent valid run owns a cell; writes territory_hex.sql (users, runs with their paths as WKT,
cell upserts), territory.geojson (owned cells' boundaries from h3.cell_to_boundary),
loops.geojson, runs.tsv, users.tsv and an SVG preview of the busiest area. What it does not do
compared with geo-territory: no merge with an existing territory export (--existing), no
shards, no detail in the rejection reasons beyond the rule's name.
"""
import csv
import datetime
import io
import os
import sys

import h3
import numpy as np
import orjson
import pyproj
import shapely
from shapely.geometry import mapping

from ref_io import features

GEOD = pyproj.Geod(ellps="WGS84")
RES = 9


def ts(s):
    return datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()


def judge(ft):
    p = ft["properties"]
    coords = np.asarray(ft["geometry"]["coordinates"], dtype=np.float64)
    acc = np.asarray(p["accuracy_m"], dtype=np.float64)
    t = np.array([ts(x) for x in p["times"]])
    keep = acc <= 50
    c, tt = coords[keep], t[keep]
    v = {"run_id": ft["id"], "user_id": p["user_id"], "fixes": len(coords), "kept_fixes": int(keep.sum()), "reasons": [],
         "distance_m": 0.0, "duration_s": 0.0, "closure_m": 0.0, "max_speed_kmh": 0.0, "max_jump_m": 0.0,
         "started": t[0] if len(t) else 0, "ended": t[-1] if len(t) else 0, "path": coords}
    if len(c) < 10:
        v["reasons"].append("too-few-fixes")
        return v
    _, _, step = GEOD.inv(c[:-1, 0], c[:-1, 1], c[1:, 0], c[1:, 1])
    dt = np.diff(tt)
    speed = np.where(dt > 0, step / np.maximum(dt, 1e-9) * 3.6, np.where(step > 0, np.inf, 0))
    v.update(distance_m=float(step.sum()), duration_s=float(tt[-1] - tt[0]), max_speed_kmh=float(speed.max()), max_jump_m=float(step.max()),
             closure_m=float(GEOD.inv(c[0, 0], c[0, 1], c[-1, 0], c[-1, 1])[2]))
    for bad, code in ((v["distance_m"] < 100, "too-short"), (v["duration_s"] < 30, "too-brief"), (v["closure_m"] > 50, "not-closed"),
                      (v["max_speed_kmh"] > 43, "speed-spike"), (v["max_jump_m"] > 1000, "teleport")):
        if bad:
            v["reasons"].append(code)
    if v["reasons"]:
        return v
    loop = shapely.make_valid(shapely.Polygon(np.vstack([c, c[:1]])))
    parts = [g for g in shapely.get_parts(loop) if g.geom_type == "Polygon" and g.area > 0]
    if not parts:
        v["reasons"].append("no-loop")
        return v
    cells = set()
    for g in parts:
        poly = h3.LatLngPoly([(y, x) for x, y in g.exterior.coords[:-1]], *[[(y, x) for x, y in r.coords[:-1]] for r in g.interiors])
        cells.update(h3.polygon_to_cells(poly, RES))
    v["loop"] = shapely.MultiPolygon(parts) if len(parts) > 1 else parts[0]
    v["loop_area_m2"] = sum(abs(GEOD.geometry_area_perimeter(g)[0]) for g in parts)
    v["cells"] = sorted(cells)
    return v


def iso(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main(o):
    feats = features(o.runs)
    judged = [judge(ft) for ft in feats]
    owner = {}
    for v in sorted((v for v in judged if not v["reasons"]), key=lambda v: (v["ended"], v["run_id"])):
        for cell in v["cells"]:
            owner[cell] = v
    os.makedirs(o.out_dir, exist_ok=True)

    def write(name, text):
        path = os.path.join(o.out_dir, name)
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    users = sorted({v["user_id"] for v in judged})
    sql = [f"-- territory_hex.sql, written by reference.py territory from {o.runs}", "begin;", "insert into users (id, username) values",
           ",\n".join(f"  ('{u}', 'runner-{u}')" for u in users), "on conflict do nothing;",
           "insert into runs (id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop, path, loop_polygon) values"]
    rows = []
    for v in judged:
        path = shapely.LineString(v["path"]).wkt if len(v["path"]) >= 2 else None
        loop = v["loop"].wkt if "loop" in v else None
        rows.append(f"  ('{v['run_id']}', '{v['user_id']}', '{iso(v['started'])}', '{iso(v['ended'])}', {v['distance_m']:.1f}, {v['duration_s']:.1f}, "
                    f"{str(not v['reasons']).lower()}, {f'ST_GeomFromText({chr(39)}{path}{chr(39)}, 4326)' if path else 'null'}, "
                    f"{f'ST_GeomFromText({chr(39)}{loop}{chr(39)}, 4326)' if loop else 'null'})")
    sql += [",\n".join(rows), "on conflict (id) do update set distance_m = excluded.distance_m, duration_s = excluded.duration_s, valid_loop = excluded.valid_loop, "
            "path = excluded.path, loop_polygon = excluded.loop_polygon;"]
    if owner:
        sql += ["insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at) values",
                ",\n".join(f"  ('{c}', '{v['user_id']}', '{v['run_id']}', '{iso(v['ended'])}')" for c, v in sorted(owner.items())),
                "on conflict (hex_id) do update set owner_user_id = excluded.owner_user_id, last_run_id = excluded.last_run_id, claimed_at = excluded.claimed_at "
                "where territory_hex.claimed_at is null or excluded.claimed_at > territory_hex.claimed_at;"]
    sql.append("commit;")
    write("territory_hex.sql", "\n".join(sql) + "\n")
    cells_fc = [{"type": "Feature", "id": c, "properties": {"hex_id": c, "owner_user_id": v["user_id"], "last_run_id": v["run_id"]},
                 "geometry": {"type": "Polygon", "coordinates": [[[x, y] for y, x in h3.cell_to_boundary(c)] + [list(reversed(h3.cell_to_boundary(c)[0]))]]}}
                for c, v in sorted(owner.items())]
    write("territory.geojson", orjson.dumps({"type": "FeatureCollection", "features": cells_fc}).decode())
    write("loops.geojson", orjson.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": v["run_id"], "properties": {"user_id": v["user_id"], "cells": len(v["cells"])}, "geometry": mapping(v["loop"])}
        for v in judged if "loop" in v]}).decode())
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", lineterminator="\n")
    w.writerow(["run_id", "user_id", "valid", "fixes", "kept_fixes", "distance_m", "duration_s", "closure_m", "max_speed_kmh", "max_jump_m",
                "loop_area_m2", "cells_claimed", "cells_owned", "reasons"])
    owned = {}
    for c, v in owner.items():
        owned[v["run_id"]] = owned.get(v["run_id"], 0) + 1
    for v in judged:
        w.writerow([v["run_id"], v["user_id"], str(not v["reasons"]).lower(), v["fixes"], v["kept_fixes"], f"{v['distance_m']:.1f}", f"{v['duration_s']:.1f}",
                    f"{v['closure_m']:.1f}", f"{v['max_speed_kmh']:.1f}", f"{v['max_jump_m']:.1f}", f"{v.get('loop_area_m2', 0):.0f}",
                    len(v.get("cells", [])), owned.get(v["run_id"], 0), ";".join(v["reasons"])])
    write("runs.tsv", buf.getvalue())
    lines = ["user_id\truns\tvalid_runs\tcells\tarea_km2"]
    for u in users:
        mine = [c for c, v in owner.items() if v["user_id"] == u]
        lines.append(f"{u}\t{sum(1 for v in judged if v['user_id'] == u)}\t{sum(1 for v in judged if v['user_id'] == u and not v['reasons'])}\t"
                     f"{len(mine)}\t{sum(h3.cell_area(c, 'km^2') for c in mine):.4f}")
    write("users.tsv", "\n".join(lines) + "\n")
    # preview: the cells around the busiest parent cell, equirectangular, scaled to 1000 px
    if owner:
        parents = {}
        for c in owner:
            parents.setdefault(h3.cell_to_parent(c, 5), []).append(c)
        busiest = max(parents.values(), key=len)
        pts = np.array([xy for c in busiest for xy in h3.cell_to_boundary(c)])
        (lat0, lon0), (lat1, lon1) = pts.min(axis=0), pts.max(axis=0)
        k = 1000 / max(lon1 - lon0, lat1 - lat0, 1e-9)
        colours = {u: f"hsl({(i * 137) % 360},60%,55%)" for i, u in enumerate(users)}
        polys = "".join(f'<polygon fill="{colours[owner[c]["user_id"]]}" points="' +
                        " ".join(f"{30 + (x - lon0) * k:.1f},{30 + (lat1 - y) * k:.1f}" for y, x in h3.cell_to_boundary(c)) + '"/>' for c in busiest)
        write("preview.svg", f'<svg xmlns="http://www.w3.org/2000/svg" width="1060" height="{int(60 + (lat1 - lat0) * k)}">'
                             f'<rect width="100%" height="100%" fill="#F4F1EA"/><g stroke="#fff" stroke-width="0.8">{polys}</g></svg>\n')
    else:
        write("preview.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"/>\n')
    print(f"territory: {len(judged)} runs, {sum(1 for v in judged if not v['reasons'])} valid loops; {len(owner)} cells owned by "
          f"{len({v['user_id'] for v in owner.values()})} runners", file=sys.stderr)


def add_parser(sub):
    a = sub.add_parser("territory", help="runs → H3 territory")
    a.add_argument("runs"); a.add_argument("--out-dir", required=True)
    a.set_defaults(run=main)
