#!/usr/bin/env python3
"""The reference for `make bench`: the pipeline's three core steps written the way a Python
developer would, with shapely 2 (GEOS ≥ 3.12 coverage operations), pyproj, mapbox_earcut and
pygltflib. `scripts/bench.sh` times it against our Swift stages in the same run.

    reference.py ingest UNITS.geojson OUT.geojson [--data-dir data] [--points-from UNITS50.geojson]
    reference.py world IN.geojson OUT.geojson --tolerance DEG [--min-island-km2 10] [--point-area-km2 2500]
    reference.py calibrate IN.geojson --target-vertices N      (prints the tolerance; not timed)
    reference.py globe IN.geojson OUT.glb [--max-edge 2.5]

What each step does (and what it leaves out compared with our stage) is in docs/PERFORMANCE.md.
"""
import argparse
import json
import math
import sys

import mapbox_earcut
import numpy as np
import pygltflib
import pyproj
import shapely
from shapely.geometry import mapping, shape

GEOD = pyproj.Geod(ellps="WGS84")


def read_tsv(path, key):
    rows, header = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if header is None:
                header = cells
                continue
            row = dict(zip(header, cells))
            rows[row[key]] = row
    return rows


def polygons(geom):
    if geom.geom_type == "Polygon":
        return [geom]
    if geom.geom_type in ("MultiPolygon", "GeometryCollection"):
        return [p for g in geom.geoms for p in polygons(g)]
    return []


# --- ingest: Natural Earth map units → one feature per app country ---------------------------
def ingest(args):
    d = args.data_dir
    codes = [l.strip() for l in open(f"{d}/app_country_codes.txt") if l.strip() and not l.startswith("#")]
    remaps = read_tsv(f"{d}/id_remaps.tsv", "su_a3")
    names = read_tsv(f"{d}/names.tsv", "id")
    continents = read_tsv(f"{d}/continents.tsv", "id")
    capitals = read_tsv(f"{d}/capitals.tsv", "id")
    with open(args.units, encoding="utf-8") as f:
        units = json.load(f)["features"]
    groups = {}
    for u in units:
        p = u["properties"]
        su = p["SU_A3"]
        uid = remaps[su]["id"] if su in remaps else p.get("ISO_A2_EH", "-99")
        if uid == "-99" or uid not in codes:
            continue
        g = shape(u["geometry"])
        groups.setdefault(uid, []).append((g.area, p, g))
    missing = [c for c in codes if c not in groups]
    if missing and args.points_from:
        with open(args.points_from, encoding="utf-8") as f:
            for u in json.load(f)["features"]:
                p = u["properties"]
                uid = remaps[p["SU_A3"]]["id"] if p["SU_A3"] in remaps else p.get("ISO_A2_EH")
                if uid in missing and uid not in groups:
                    groups[uid] = [(0.0, p, None)]
    # The capitals: Natural Earth populated places, as our ingest reads them.
    with open(f"{d}/natural-earth/ne_10m_populated_places.geojson", encoding="utf-8") as f:
        places = json.load(f)["features"]
    caps = {}
    for pl in places:
        pp = pl["properties"]
        if pp.get("FEATURECLA") == "Admin-0 capital":
            caps.setdefault(pp.get("ISO_A2"), []).append(pl)
    by_name = {}
    for pl in places:
        by_name.setdefault(pl["properties"]["NAME"], []).append(pl)
    out = []
    for uid in sorted(groups):
        group = sorted(groups[uid], key=lambda t: -t[0])
        main = group[0][1]
        cap = None
        row = capitals.get(uid)
        if row and row["capital"] != "-":
            if row.get("lat"):
                cap = (row["capital"], float(row["lon"]), float(row["lat"]))
            else:
                cands = [c for c in by_name.get(row["capital"], []) if c["properties"].get("ISO_A2") == uid] or by_name.get(row["capital"], [])
                if cands:
                    c = cands[0]
                    cap = (row["capital"], *c["geometry"]["coordinates"])
        elif not row and caps.get(uid):
            c = caps[uid][0]
            cap = (c["properties"]["NAME"], *c["geometry"]["coordinates"])
        geoms = [g for _, _, g in group if g is not None]
        if not geoms:
            geom = shapely.Point(cap[1], cap[2]) if cap else None
        elif len(geoms) == 1:
            geom = geoms[0]
        else:
            try:
                geom = shapely.coverage_union_all(geoms)
                if not geom.is_valid:
                    raise ValueError("invalid")
            except Exception:
                geom = shapely.unary_union([shapely.make_valid(g) for g in geoms])
        if geom is None:
            continue
        props = {
            "name": names[uid]["name"] if uid in names else main.get("NAME_LONG") or main.get("NAME"),
            "continent": continents[uid]["continent"] if uid in continents else main.get("CONTINENT"),
        }
        if cap:
            props.update(capital=cap[0], capitalLat=cap[2], capitalLon=cap[1])
        props["neUnits"] = sorted(p["SU_A3"] for _, p, _ in group)
        out.append({"type": "Feature", "id": uid, "properties": props, "geometry": mapping(shapely.orient_polygons(geom) if geom.geom_type != "Point" else geom)})
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"type": "FeatureCollection", "features": out}, f, ensure_ascii=False)


# --- world: repair, drop small islands, point countries, coverage simplification ------------
def geodesic_km2(poly):
    return abs(GEOD.geometry_area_perimeter(poly)[0]) / 1e6


def prepare_world(path, min_island_km2, point_area_km2):
    with open(path, encoding="utf-8") as f:
        feats = json.load(f)["features"]
    areal, points = [], []
    for ft in feats:
        g = shape(ft["geometry"])
        if g.geom_type == "Point":
            points.append((ft, g))
            continue
        if not g.is_valid:
            g = shapely.make_valid(g)
        parts = polygons(g)
        areas = [geodesic_km2(p) for p in parts]
        largest = max(range(len(parts)), key=lambda i: areas[i])
        if areas[largest] < point_area_km2:
            p = ft["properties"]
            points.append((ft, shapely.Point(p.get("capitalLon", 0), p.get("capitalLat", 0))))
            continue
        kept = [p for i, p in enumerate(parts) if areas[i] >= min_island_km2 or i == largest]
        areal.append((ft, shapely.MultiPolygon(kept) if len(kept) > 1 else kept[0]))
    return areal, points


def simplify(geoms, tolerance):
    if tolerance <= 0:
        return list(geoms)
    return list(shapely.coverage_simplify(np.array(geoms, dtype=object), tolerance))


def world(args):
    areal, points = prepare_world(args.input, args.min_island_km2, args.point_area_km2)
    simplified = simplify([g for _, g in areal], args.tolerance)
    out = []
    for (ft, _), g in zip(areal, simplified):
        if not g.is_valid:
            g = shapely.make_valid(g)
        out.append({**ft, "geometry": mapping(shapely.orient_polygons(g))})
    for ft, g in points:
        out.append({**ft, "geometry": mapping(g)})
    out.sort(key=lambda f: f["id"])
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"type": "FeatureCollection", "features": out}, f, ensure_ascii=False)
    print(f"world: {len(out)} countries, {sum(shapely.get_num_coordinates(g) for g in simplified)} vertices", file=sys.stderr)


def calibrate(args):
    """The coverage-simplification tolerance that lands nearest the vertex budget (bisection).
    Run once before timing, so the timed run simplifies once, as our stage does."""
    areal, _ = prepare_world(args.input, args.min_island_km2, args.point_area_km2)
    geoms = [g for _, g in areal]
    if args.target_vertices <= 0:
        print(0.0)
        return
    lo, hi = 0.0, 1.0
    for _ in range(18):
        mid = (lo + hi) / 2
        n = sum(shapely.get_num_coordinates(g) for g in simplify(geoms, mid))
        lo, hi = (mid, hi) if n > args.target_vertices else (lo, mid)
    print(f"{hi:.9f}")


# --- globe: earcut each country, on the unit sphere, into one .glb ---------------------------
def to_xyz(lonlat):
    lon, lat = np.radians(lonlat[:, 0]), np.radians(lonlat[:, 1])
    c = np.cos(lat)
    return np.stack([c * np.sin(lon), np.sin(lat), c * np.cos(lon)], axis=1)


def globe(args):
    with open(args.input, encoding="utf-8") as f:
        feats = json.load(f)["features"]
    gltf = pygltflib.GLTF2(scene=0, scenes=[pygltflib.Scene(nodes=[])])
    blob = bytearray()
    for ft in feats:
        g = shape(ft["geometry"])
        if g.geom_type == "Point":
            continue
        g = shapely.segmentize(g, args.max_edge)
        verts, idx = [], []
        base = 0
        for p in polygons(g):
            rings = [np.asarray(p.exterior.coords)[:-1]] + [np.asarray(r.coords)[:-1] for r in p.interiors]
            pts = np.concatenate(rings)
            ends = np.cumsum([len(r) for r in rings]).astype(np.uint32)
            tri = mapbox_earcut.triangulate_float64(pts, ends)
            verts.append(to_xyz(pts))
            idx.append(tri.astype(np.uint32) + base)
            base += len(pts)
        pos = np.concatenate(verts).astype(np.float32)
        ind = np.concatenate(idx).astype(np.uint32)
        views = []
        for arr, target in ((pos, pygltflib.ARRAY_BUFFER), (ind, pygltflib.ELEMENT_ARRAY_BUFFER)):
            while len(blob) % 4:
                blob.append(0)
            gltf.bufferViews.append(pygltflib.BufferView(buffer=0, byteOffset=len(blob), byteLength=arr.nbytes, target=target))
            blob += arr.tobytes()
            views.append(len(gltf.bufferViews) - 1)
        gltf.accessors.append(pygltflib.Accessor(bufferView=views[0], componentType=pygltflib.FLOAT, count=len(pos),
                                                 type=pygltflib.VEC3, max=pos.max(axis=0).tolist(), min=pos.min(axis=0).tolist()))
        gltf.accessors.append(pygltflib.Accessor(bufferView=views[1], componentType=pygltflib.UNSIGNED_INT,
                                                 count=len(ind), type=pygltflib.SCALAR))
        n = len(gltf.accessors)
        gltf.meshes.append(pygltflib.Mesh(name=ft["id"], primitives=[pygltflib.Primitive(attributes=pygltflib.Attributes(POSITION=n - 2), indices=n - 1)]))
        gltf.nodes.append(pygltflib.Node(name=ft["id"], mesh=len(gltf.meshes) - 1))
        gltf.scenes[0].nodes.append(len(gltf.nodes) - 1)
    gltf.buffers.append(pygltflib.Buffer(byteLength=len(blob)))
    gltf.set_binary_blob(bytes(blob))
    gltf.save_binary(args.out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("ingest"); a.add_argument("units"); a.add_argument("out")
    a.add_argument("--data-dir", default="data"); a.add_argument("--points-from")
    for name in ("world", "calibrate"):
        a = sub.add_parser(name); a.add_argument("input")
        if name == "world":
            a.add_argument("out"); a.add_argument("--tolerance", type=float, default=0.0)
        else:
            a.add_argument("--target-vertices", type=int, required=True)
        a.add_argument("--min-island-km2", type=float, default=10); a.add_argument("--point-area-km2", type=float, default=2500)
    a = sub.add_parser("globe"); a.add_argument("input"); a.add_argument("out"); a.add_argument("--max-edge", type=float, default=2.5)
    args = ap.parse_args()
    {"ingest": ingest, "world": world, "calibrate": calibrate, "globe": globe}[args.cmd](args)


if __name__ == "__main__":
    main()
