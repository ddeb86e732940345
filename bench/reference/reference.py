#!/usr/bin/env python3
"""The reference for `make bench`: every step of our `make all` written the way a Python
developer would with the ordinary stack: shapely 2 (GEOS ≥ 3.12 coverage operations), pyproj,
numpy, mapbox_earcut, pygltflib, usd-core's pxr, Pillow, h3-py, sqlite3, json, csv (and
rsvg-convert for the PNGs, as our Makefile). `bench/compare.sh` times it against our
stages in the same run; `bench/reference/Makefile` runs all of it (`reference all`) with -j2.

    reference.py ingest UNITS.geojson OUT.geojson [--places-out P] [--data-dir data] [--points-from UNITS50.geojson]
    reference.py world IN.geojson OUT.geojson --tolerance DEG [--report R] [--min-island-km2 10] [--point-area-km2 2500]
    reference.py calibrate IN.geojson --target-vertices N      (prints the tolerance; not timed)
    reference.py globe IN.geojson OUT.glb [--manifest M] [--usdz U] [--max-edge 2.5]
    reference.py preview | map | silhouettes | highlights | challenges | cities | lookup | routes | territory …
                                                               (ref_<step>.py; `reference.py STEP -h`)

The first four steps are in this file; each other step is in its own module, whose header
says what it does and does not do compared with our stage (docs/PERFORMANCE.md sums it up).
"""
import argparse
import json
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
# What it does: json.load the map units; map units to the app's ids (id_remaps.tsv, ISO_A2_EH,
# the country set); capitals from capitals.tsv or the populated places (json.load of the 16 MB
# file); dissolve each country (coverage_union_all, falling back to unary_union of make_valid);
# write countries.geojson and the places compacted to the fields later steps read (as ours).
# What it does not do compared with geo-ingest: no cross-check of the capitals against
# GeoNames, no capital or name aliases, no error naming the file and feature.
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
            # a country known only from --points-from: its capital, else Natural Earth's label point
            geom = shapely.Point(cap[1], cap[2]) if cap else (shapely.Point(main["LABEL_X"], main["LABEL_Y"]) if "LABEL_X" in main else None)
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
    if args.places_out:  # the places with the fields later steps read, as our ingest writes them
        keep = ("NAME", "NAMEASCII", "FEATURECLA", "ISO_A2", "ADM0NAME", "POP_MAX")
        compact = [{"type": "Feature", "properties": {k: pl["properties"].get(k) for k in keep}, "geometry": pl["geometry"]} for pl in places]
        with open(args.places_out, "w", encoding="utf-8") as f:
            json.dump({"type": "FeatureCollection", "features": compact}, f, ensure_ascii=False)


# --- world: repair, drop small islands, point countries, coverage simplification ------------
# What it does: make_valid the invalid; drop parts under 10 km² (geodesic area, pyproj.Geod);
# countries under 2,500 km² become points at their capital; one coverage_simplify at the
# tolerance that gives our vertex budget (found beforehand by `calibrate`, not timed);
# make_valid what came out invalid; write the GeoJSON and a per-country report.
# What it does not do compared with geo-world: no filling of point countries' gaps, no
# Hausdorff-bounded simplification or topology rounds (ring size, crossings, sidedness).
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
    if args.report:  # per country: kind, vertices before and after, geodesic area
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("id\tkind\tvertices_in\tvertices_out\tarea_km2\n")
            for (ft, before), after in zip(areal, simplified):
                f.write(f"{ft['id']}\tpolygon\t{shapely.get_num_coordinates(before)}\t{shapely.get_num_coordinates(after)}\t{geodesic_km2(after):.1f}\n")
            for ft, _ in points:
                f.write(f"{ft['id']}\tpoint\t0\t1\t0\n")
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


# --- globe: the scene as glb + usdz + manifest ------------------------------------------------
# What it does, as a Python developer would with the ordinary stack: reads world.geojson;
# `shapely.segmentize` every country to 2.5° edges, earcut (mapbox_earcut) each polygon in
# lon/lat, then bisects the longest edge of every triangle over 2.5° until none is left (numpy),
# so fills follow the sphere; fills at r 1.003 with per-vertex normals, one node per country;
# point countries as 24-segment discs (r 0.012) with a rim (0.014) at r 1.005; a five-pointed
# star per capital at r 1.006; border outlines (every ring, segmentized to 2.5°) as LINES split
# into the 12 × 4 outline_sector_N nodes at r 1.004; an ocean sphere (r 1) and a translucent
# atmosphere (r 1.08) as 2.5° UV spheres; the contract's colours as materials; written with
# pygltflib. The same meshes go into a USD stage (pxr: UsdGeom.Mesh per node, BasisCurves for
# the outlines, UsdPreviewSurface materials) packaged with UsdUtils.CreateNewUsdzPackage; a
# manifest (parameters, totals, per-node counts, centroids, bboxes, per-sector counts).
# What it does not do compared with geo-globe: no sphere-aware triangulation (earcut in
# lon/lat, longest-edge bisection afterwards, which leaves hairline T-junctions inside a country),
# no seam handling or fold checks, outlines are GL lines (ours: miter-extruded triangle strips
# the renderer widens to a constant on-screen width), no quantised normals; one process.
FILL_R, OUTLINE_R, POINT_R, DISC_R, RIM_R = 1.003, 1.004, 1.005, 0.012, 0.014
CAPITAL_R, STAR_SIZE, ATMOSPHERE_R, SPHERE_STEP = 1.006, 0.006, 1.08, 2.5
COLOURS = {  # CONTRACTS §3, sRGB → linear for glTF's baseColorFactor
    "ocean": (0.184, 0.525, 0.651, 1.0), "land": (0.204, 0.745, 0.510, 1.0),
    "atmosphere": (0.6, 0.8, 1.0, 0.15), "border": (0.0, 0.0, 0.0, 1.0), "capital": (0.8, 0.1, 0.12, 1.0)}


def srgb_to_linear(c):
    return [((x / 12.92) if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4) for x in c[:3]] + [c[3]]


def lonlat_to_xyz(lon, lat, r):
    lon, lat = np.radians(lon), np.radians(lat)
    c = np.cos(lat)
    return np.stack([r * c * np.cos(-lon), r * np.sin(lat), r * c * np.sin(-lon)], axis=-1)


def edge_degrees(a, b):
    """Length of lon/lat edges in degrees, longitude scaled by the cosine of the mean latitude
    (halving both differences halves it, so bisection always ends)."""
    return np.hypot((a[:, 0] - b[:, 0]) * np.cos(np.radians((a[:, 1] + b[:, 1]) / 2)), a[:, 1] - b[:, 1])


def subdivide(pts, tri, max_edge):
    """Bisect the longest edge of every triangle whose longest edge (degrees, longitude scaled by cos latitude) is over
    max_edge, until none is; a midpoint is shared by the triangles that split the same edge."""
    pts = np.asarray(pts, dtype=np.float64)
    while True:
        a, b, c = pts[tri[:, 0]], pts[tri[:, 1]], pts[tri[:, 2]]
        lens = np.stack([edge_degrees(a, b), edge_degrees(b, c), edge_degrees(c, a)], axis=1)
        big = lens.max(axis=1) > max_edge
        if not big.any():
            return pts, tri
        t, k = tri[big], lens[big].argmax(axis=1)
        rot = np.stack([t[np.arange(len(t)), k], t[np.arange(len(t)), (k + 1) % 3], t[np.arange(len(t)), (k + 2) % 3]], axis=1)
        lo, hi = np.minimum(rot[:, 0], rot[:, 1]), np.maximum(rot[:, 0], rot[:, 1])
        keys, inverse = np.unique(lo * len(pts) + hi, return_inverse=True)
        mids = (pts[keys // len(pts)] + pts[keys % len(pts)]) / 2
        m = len(pts) + inverse.ravel()
        pts = np.concatenate([pts, mids])
        tri = np.concatenate([tri[~big], np.stack([rot[:, 0], m, rot[:, 2]], axis=1), np.stack([m, rot[:, 1], rot[:, 2]], axis=1)])


def uv_sphere(r, step):
    nlat, nlon = int(round(180 / step)), int(round(360 / step))
    lat = np.linspace(-90, 90, nlat + 1)
    lon = np.linspace(-180, 180, nlon + 1)
    LON, LAT = np.meshgrid(lon, lat)
    pos = lonlat_to_xyz(LON.ravel(), LAT.ravel(), r)
    idx = []
    w = nlon + 1
    for i in range(nlat):
        for j in range(nlon):
            a, b = i * w + j, i * w + j + 1
            c, d = a + w, b + w
            idx += [(a, b, c), (b, d, c)]  # outward (counter-clockwise seen from outside)
    return pos, np.array(idx, dtype=np.int64)


def disc(lon, lat, radius, height, segments=24):
    centre = lonlat_to_xyz(np.array([lon]), np.array([lat]), height)[0]
    n = centre / np.linalg.norm(centre)
    e = np.cross([0.0, 1.0, 0.0], n)
    e = e / np.linalg.norm(e) if np.linalg.norm(e) > 1e-9 else np.array([1.0, 0.0, 0.0])
    f = np.cross(n, e)
    ang = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    ring = centre + radius * (np.cos(ang)[:, None] * e + np.sin(ang)[:, None] * f)
    pos = np.vstack([centre, ring])
    idx = np.array([(0, 1 + i, 1 + (i + 1) % segments) for i in range(segments)], dtype=np.int64)
    return pos, idx


def star(lon, lat, size, height):
    centre = lonlat_to_xyz(np.array([lon]), np.array([lat]), height)[0]
    n = centre / np.linalg.norm(centre)
    e = np.cross([0.0, 1.0, 0.0], n)
    e = e / np.linalg.norm(e) if np.linalg.norm(e) > 1e-9 else np.array([1.0, 0.0, 0.0])
    f = np.cross(n, e)
    ang = np.pi / 2 + np.arange(10) * np.pi / 5
    rad = np.where(np.arange(10) % 2 == 0, size, size * 0.4)
    ring = centre + (rad * np.cos(ang))[:, None] * e + (rad * np.sin(ang))[:, None] * f
    pos = np.vstack([centre, ring])
    idx = np.array([(0, 1 + i, 1 + (i + 1) % 10) for i in range(10)], dtype=np.int64)
    return pos, idx


class Scene:
    """Meshes collected once, written both as glTF (pygltflib) and as USD (pxr)."""

    def __init__(self):
        self.nodes = []  # (name, material, mode, positions float32, indices uint32)

    def add(self, name, material, pos, idx, mode="triangles"):
        self.nodes.append((name, material, mode, np.asarray(pos, dtype=np.float32), np.asarray(idx, dtype=np.uint32).ravel()))

    def write_glb(self, path):
        gltf = pygltflib.GLTF2(scene=0, scenes=[pygltflib.Scene(nodes=[])], asset=pygltflib.Asset(generator="reference.py"))
        mats = {}
        for name, rgba in COLOURS.items():
            mats[name] = len(gltf.materials)
            gltf.materials.append(pygltflib.Material(
                name=name, doubleSided=name == "border", alphaMode="BLEND" if rgba[3] < 1 else "OPAQUE",
                pbrMetallicRoughness=pygltflib.PbrMetallicRoughness(baseColorFactor=srgb_to_linear(rgba), metallicFactor=0.0, roughnessFactor=1.0)))
        blob = bytearray()

        def view(arr, target):
            while len(blob) % 4:
                blob.append(0)
            gltf.bufferViews.append(pygltflib.BufferView(buffer=0, byteOffset=len(blob), byteLength=arr.nbytes, target=target))
            blob.extend(arr.tobytes())
            return len(gltf.bufferViews) - 1
        root = pygltflib.Node(name="globe", children=[])
        for name, material, mode, pos, ind in self.nodes:
            attrs = pygltflib.Attributes(POSITION=len(gltf.accessors))
            gltf.accessors.append(pygltflib.Accessor(bufferView=view(pos, pygltflib.ARRAY_BUFFER), componentType=pygltflib.FLOAT,
                                                     count=len(pos), type=pygltflib.VEC3, max=pos.max(axis=0).tolist(), min=pos.min(axis=0).tolist()))
            if mode == "triangles":
                nrm = pos / np.linalg.norm(pos, axis=1, keepdims=True)
                attrs.NORMAL = len(gltf.accessors)
                gltf.accessors.append(pygltflib.Accessor(bufferView=view(nrm.astype(np.float32), pygltflib.ARRAY_BUFFER),
                                                         componentType=pygltflib.FLOAT, count=len(nrm), type=pygltflib.VEC3))
            gltf.accessors.append(pygltflib.Accessor(bufferView=view(ind, pygltflib.ELEMENT_ARRAY_BUFFER), componentType=pygltflib.UNSIGNED_INT,
                                                     count=len(ind), type=pygltflib.SCALAR))
            prim = pygltflib.Primitive(attributes=attrs, indices=len(gltf.accessors) - 1, material=mats[material],
                                       mode=pygltflib.TRIANGLES if mode == "triangles" else pygltflib.LINES)
            gltf.meshes.append(pygltflib.Mesh(name=name, primitives=[prim]))
            gltf.nodes.append(pygltflib.Node(name=name, mesh=len(gltf.meshes) - 1))
            root.children.append(len(gltf.nodes) - 1)
        gltf.nodes.append(root)
        gltf.scenes[0].nodes.append(len(gltf.nodes) - 1)
        gltf.buffers.append(pygltflib.Buffer(byteLength=len(blob)))
        gltf.set_binary_blob(bytes(blob))
        gltf.save_binary(path)

    def write_usdz(self, path):
        import os
        import tempfile
        from pxr import Gf, Sdf, Usd, UsdGeom, UsdShade, UsdUtils, Vt
        tmp = tempfile.mkdtemp(prefix="reference-usd-")
        layer = os.path.join(tmp, "globe.usdc")
        stage = Usd.Stage.CreateNew(layer)
        UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
        root = UsdGeom.Xform.Define(stage, "/globe")
        stage.SetDefaultPrim(root.GetPrim())
        mats = {}
        for name, rgba in COLOURS.items():
            mat = UsdShade.Material.Define(stage, f"/globe/materials/{name}")
            sh = UsdShade.Shader.Define(stage, f"/globe/materials/{name}/surface")
            sh.CreateIdAttr("UsdPreviewSurface")
            sh.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(*rgba[:3]))
            sh.CreateInput("opacity", Sdf.ValueTypeNames.Float).Set(rgba[3])
            sh.CreateInput("roughness", Sdf.ValueTypeNames.Float).Set(1.0)
            mat.CreateSurfaceOutput().ConnectToSource(sh.ConnectableAPI(), "surface")
            mats[name] = mat
        for name, material, mode, pos, ind in self.nodes:
            prim_path = f"/globe/{name}"
            if mode == "triangles":
                m = UsdGeom.Mesh.Define(stage, prim_path)
                m.CreatePointsAttr(Vt.Vec3fArray.FromNumpy(pos))
                m.CreateFaceVertexCountsAttr(Vt.IntArray.FromNumpy(np.full(len(ind) // 3, 3, dtype=np.int32)))
                m.CreateFaceVertexIndicesAttr(Vt.IntArray.FromNumpy(ind.astype(np.int32)))
                m.CreateNormalsAttr(Vt.Vec3fArray.FromNumpy((pos / np.linalg.norm(pos, axis=1, keepdims=True)).astype(np.float32)))
                m.SetNormalsInterpolation(UsdGeom.Tokens.vertex)
                m.CreateSubdivisionSchemeAttr(UsdGeom.Tokens.none)
                # glTF winds counter-clockwise; USD's default orientation is right-handed too
                prim = m
            else:
                c = UsdGeom.BasisCurves.Define(stage, prim_path)
                c.CreateTypeAttr(UsdGeom.Tokens.linear)
                c.CreatePointsAttr(Vt.Vec3fArray.FromNumpy(pos[ind.reshape(-1)]))
                c.CreateCurveVertexCountsAttr(Vt.IntArray.FromNumpy(np.full(len(ind) // 2, 2, dtype=np.int32)))
                c.CreateWidthsAttr(Vt.FloatArray([0.001]))
                prim = c
            UsdShade.MaterialBindingAPI.Apply(prim.GetPrim()).Bind(mats[material])
        stage.GetRootLayer().Save()
        UsdUtils.CreateNewUsdzPackage(Sdf.AssetPath(layer), path)
        os.remove(layer)
        os.rmdir(tmp)


def globe(args):
    import os
    with open(args.input, encoding="utf-8") as f:
        feats = json.load(f)["features"]
    scene = Scene()
    manifest_nodes, sectors = {}, {}
    ocean = uv_sphere(1.0, SPHERE_STEP)
    scene.add("ocean", "ocean", *ocean)
    seg_starts, seg_ends = [], []
    totals = {"fillVertices": 0, "fillTriangles": 0}
    capitals = []
    for ft in sorted(feats, key=lambda f: f["id"]):
        iso, props = ft["id"], ft["properties"]
        g = shape(ft["geometry"])
        if "capitalLat" in props:
            capitals.append((iso, props["capitalLon"], props["capitalLat"]))
        if g.geom_type == "Point":
            pos, idx = disc(g.x, g.y, DISC_R, POINT_R)
            rpos, ridx = disc(g.x, g.y, RIM_R, POINT_R - 0.0002)
            scene.add(iso, "land", pos, idx)
            scene.add(f"{iso}_rim", "border", rpos, ridx)
            manifest_nodes[iso] = {"iso": iso, "kind": "point", "centroid": [g.x, g.y], "bbox": list(g.bounds), "vertices": len(pos), "triangles": len(idx)}
            continue
        g = shapely.segmentize(g, args.max_edge)
        verts, idx, base = [], [], 0
        for p in polygons(g):
            rings = [np.asarray(p.exterior.coords)[:-1]] + [np.asarray(r.coords)[:-1] for r in p.interiors]
            for r in rings:  # outline segments of every ring
                seg_starts.append(r)
                seg_ends.append(np.roll(r, -1, axis=0))
            pts = np.concatenate(rings)
            ends = np.cumsum([len(r) for r in rings]).astype(np.uint32)
            tri = mapbox_earcut.triangulate_float64(pts, ends).reshape(-1, 3).astype(np.int64)
            pts, tri = subdivide(pts, tri, args.max_edge)
            verts.append(lonlat_to_xyz(pts[:, 0], pts[:, 1], FILL_R))
            idx.append(tri + base)
            base += len(pts)
        pos, ind = np.concatenate(verts), np.concatenate(idx)
        scene.add(iso, "land", pos, ind)
        c = g.centroid
        manifest_nodes[iso] = {"iso": iso, "kind": "fill", "centroid": [round(c.x, 6), round(c.y, 6)], "bbox": [round(v, 6) for v in g.bounds],
                               "vertices": len(pos), "triangles": len(ind), "polygons": len(polygons(g)),
                               "inputVertices": int(shapely.get_num_coordinates(g))}
        totals["fillVertices"] += len(pos)
        totals["fillTriangles"] += len(ind)
    # outlines: every segment into the sector of its midpoint (12 longitude × 4 latitude bands)
    a, b = np.concatenate(seg_starts), np.concatenate(seg_ends)
    mid = (a + b) / 2
    sector = np.clip(((mid[:, 1] + 90) // 45).astype(int), 0, 3) * 12 + np.clip(((mid[:, 0] + 180) // 30).astype(int), 0, 11)
    for s in range(48):
        sel = sector == s
        if not sel.any():
            continue
        sa, sb = a[sel], b[sel]
        pos = np.concatenate([lonlat_to_xyz(sa[:, 0], sa[:, 1], OUTLINE_R), lonlat_to_xyz(sb[:, 0], sb[:, 1], OUTLINE_R)])
        n = len(sa)
        ind = np.stack([np.arange(n), np.arange(n) + n], axis=1)
        scene.add(f"outline_sector_{s}", "border", pos, ind, mode="lines")
        sectors[f"outline_sector_{s}"] = {"bbox": [-180 + 30 * (s % 12), -90 + 45 * (s // 12), -150 + 30 * (s % 12), -45 + 45 * (s // 12)], "segments": int(n)}
    for iso, lon, lat in capitals:
        scene.add(f"capital_{iso}", "capital", *star(lon, lat, STAR_SIZE, CAPITAL_R))
    scene.add("atmosphere", "atmosphere", *uv_sphere(ATMOSPHERE_R, SPHERE_STEP))
    totals.update(outlineSegments=int(len(a)), polygonCountries=sum(1 for n in manifest_nodes.values() if n["kind"] == "fill"),
                  pointCountries=sum(1 for n in manifest_nodes.values() if n["kind"] == "point"), capitals=len(capitals))
    if args.usdz:
        scene.write_usdz(args.usdz)
    scene.write_glb(args.out)
    if args.manifest:
        manifest = {"glb": os.path.basename(args.out), "usdz": os.path.basename(args.usdz) if args.usdz else None, "input": os.path.basename(args.input),
                    "parameters": {"maxEdgeDegrees": args.max_edge, "fillRadius": FILL_R, "outlineRadius": OUTLINE_R, "pointRadius": POINT_R,
                                   "discRadius": DISC_R, "rimRadius": RIM_R, "capitalRadius": CAPITAL_R, "starSize": STAR_SIZE,
                                   "atmosphereRadius": ATMOSPHERE_R, "sphereMaxEdgeDegrees": SPHERE_STEP},
                    "totals": totals, "nodes": manifest_nodes, "sectors": sectors}
        with open(args.manifest, "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=1, ensure_ascii=False)
    print(f"globe: {totals['polygonCountries']} fills ({totals['fillVertices']} vertices, {totals['fillTriangles']} triangles), "
          f"{totals['pointCountries']} points, {len(capitals)} capitals, {len(a)} outline segments", file=sys.stderr)


STEP_MODULES = ("preview", "map", "silhouettes", "highlights", "challenges", "cities", "lookup", "routes", "territory")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("ingest"); a.add_argument("units"); a.add_argument("out"); a.add_argument("--places-out")
    a.add_argument("--data-dir", default="data"); a.add_argument("--points-from")
    for name in ("world", "calibrate"):
        a = sub.add_parser(name); a.add_argument("input")
        if name == "world":
            a.add_argument("out"); a.add_argument("--tolerance", type=float, default=0.0); a.add_argument("--report")
        else:
            a.add_argument("--target-vertices", type=int, required=True)
        a.add_argument("--min-island-km2", type=float, default=10); a.add_argument("--point-area-km2", type=float, default=2500)
    a = sub.add_parser("globe"); a.add_argument("input"); a.add_argument("out"); a.add_argument("--max-edge", type=float, default=2.5)
    a.add_argument("--manifest"); a.add_argument("--usdz")
    # The other steps live in their own modules (ref_<step>.py), imported only for that step.
    import importlib
    for step in STEP_MODULES:
        if step in sys.argv[1:2] or sys.argv[1:2] in ([], ["-h"], ["--help"]):
            importlib.import_module(f"ref_{step}").add_parser(sub)
    args = ap.parse_args()
    if hasattr(args, "run"):
        args.run(args)
    else:
        {"ingest": ingest, "world": world, "calibrate": calibrate, "globe": globe}[args.cmd](args)


if __name__ == "__main__":
    main()
