"""globe: the scene as glb + usdz + manifest.

What it does, as a Python developer would with the ordinary stack: reads world.geojson;
`shapely.segmentize` every country to 2.5° edges (one vectorised call), earcut (mapbox_earcut)
each polygon in lon/lat, then bisects the longest edge of every triangle over 2.5° until none
is left (numpy, all the polygons of a country at once), so fills follow the sphere; fills at
r 1.003 with per-vertex normals, one node per country; point countries as 24-segment discs
(r 0.012) with a rim (0.014) at r 1.005; a five-pointed star per capital at r 1.006; border
outlines (every ring, segmentized to 2.5°) as LINES split into the 12 × 4 outline_sector_N
nodes at r 1.004; an ocean sphere (r 1) and a translucent atmosphere (r 1.08) as 2.5° UV
spheres; the contract's colours as materials; the .glb written directly (its JSON by orjson,
the buffer from numpy: pygltflib's encoder deep-copies the whole document). The same meshes go
into a USD stage (pxr: UsdGeom.Mesh per node, BasisCurves for the outlines, UsdPreviewSurface
materials) packaged with UsdUtils.CreateNewUsdzPackage; a manifest (parameters, totals,
per-node counts, centroids, bboxes, per-sector counts).
What it does not do compared with geo-globe: no sphere-aware triangulation (earcut in lon/lat,
longest-edge bisection afterwards, which leaves hairline T-junctions inside a country), no seam
handling or fold checks, outlines are GL lines (ours: miter-extruded triangle strips the
renderer widens to a constant on-screen width), no quantised normals; one process.
"""
import os
import struct
import sys

import mapbox_earcut
import numpy as np
import orjson
import shapely

from ref_io import features, geometries, polygons, write_json

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
    w = nlon + 1
    a = (np.arange(nlat)[:, None] * w + np.arange(nlon)[None, :]).ravel()
    b, c = a + 1, a + w
    d = c + 1
    # outward (counter-clockwise seen from outside): (a, b, c) and (b, d, c) per quad
    return pos, np.stack([np.stack([a, b, c], axis=1), np.stack([b, d, c], axis=1)], axis=1).reshape(-1, 3)


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
    """Meshes collected once, written both as glTF and as USD (pxr)."""

    def __init__(self):
        self.nodes = []  # (name, material, mode, positions float32, indices uint32)

    def add(self, name, material, pos, idx, mode="triangles"):
        self.nodes.append((name, material, mode, np.asarray(pos, dtype=np.float32), np.asarray(idx, dtype=np.uint32).ravel()))

    def write_glb(self, path):
        """glTF 2.0 binary: the JSON (plain dicts, orjson) and one buffer, in the two chunks of
        the container (pygltflib's dataclass encoding deep-copies the whole document)."""
        ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, UNSIGNED_INT = 34962, 34963, 5126, 5125
        mats = {name: i for i, name in enumerate(COLOURS)}
        gltf = {"asset": {"version": "2.0", "generator": "reference.py"}, "scene": 0, "scenes": [{"nodes": []}],
                "materials": [{"name": name, "doubleSided": name == "border", "alphaMode": "BLEND" if rgba[3] < 1 else "OPAQUE",
                               "pbrMetallicRoughness": {"baseColorFactor": srgb_to_linear(rgba), "metallicFactor": 0.0, "roughnessFactor": 1.0}}
                              for name, rgba in COLOURS.items()],
                "accessors": [], "bufferViews": [], "meshes": [], "nodes": []}
        chunks, offset = [], 0

        def accessor(arr, target, kind, **extra):
            nonlocal offset
            pad = -offset % 4
            if pad:
                chunks.append(bytes(pad))
                offset += pad
            gltf["bufferViews"].append({"buffer": 0, "byteOffset": offset, "byteLength": arr.nbytes, "target": target})
            chunks.append(arr.tobytes())
            offset += arr.nbytes
            gltf["accessors"].append({"bufferView": len(gltf["bufferViews"]) - 1, "componentType": FLOAT if arr.dtype == np.float32 else UNSIGNED_INT,
                                      "count": len(arr), "type": kind, **extra})
            return len(gltf["accessors"]) - 1
        root = {"name": "globe", "children": []}
        for name, material, mode, pos, ind in self.nodes:
            attrs = {"POSITION": accessor(pos, ARRAY_BUFFER, "VEC3", max=pos.max(axis=0).tolist(), min=pos.min(axis=0).tolist())}
            if mode == "triangles":
                attrs["NORMAL"] = accessor((pos / np.linalg.norm(pos, axis=1, keepdims=True)).astype(np.float32), ARRAY_BUFFER, "VEC3")
            prim = {"attributes": attrs, "indices": accessor(ind, ELEMENT_ARRAY_BUFFER, "SCALAR"), "material": mats[material],
                    "mode": 4 if mode == "triangles" else 1}
            gltf["meshes"].append({"name": name, "primitives": [prim]})
            gltf["nodes"].append({"name": name, "mesh": len(gltf["meshes"]) - 1})
            root["children"].append(len(gltf["nodes"]) - 1)
        gltf["nodes"].append(root)
        gltf["scenes"][0]["nodes"].append(len(gltf["nodes"]) - 1)
        chunks.append(bytes(-offset % 4))
        offset += -offset % 4
        gltf["buffers"] = [{"byteLength": offset}]
        head = orjson.dumps(gltf)
        head += b" " * (-len(head) % 4)
        with open(path, "wb") as f:
            f.write(struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(head) + 8 + offset))
            f.write(struct.pack("<I4s", len(head), b"JSON") + head)
            f.write(struct.pack("<I4s", offset, b"BIN\0"))
            f.writelines(chunks)

    def write_usdz(self, path):
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


def main(args):
    feats = sorted(features(args.input), key=lambda f: f["id"])
    geoms = geometries(feats)
    areal = shapely.get_type_id(geoms) != 0
    geoms[areal] = shapely.segmentize(geoms[areal], args.max_edge)
    scene = Scene()
    manifest_nodes, sectors = {}, {}
    ocean = uv_sphere(1.0, SPHERE_STEP)
    scene.add("ocean", "ocean", *ocean)
    seg_starts, seg_ends = [], []
    totals = {"fillVertices": 0, "fillTriangles": 0}
    capitals = []
    for ft, g in zip(feats, geoms):
        iso, props = ft["id"], ft["properties"]
        if "capitalLat" in props:
            capitals.append((iso, props["capitalLon"], props["capitalLat"]))
        if g.geom_type == "Point":
            pos, idx = disc(g.x, g.y, DISC_R, POINT_R)
            rpos, ridx = disc(g.x, g.y, RIM_R, POINT_R - 0.0002)
            scene.add(iso, "land", pos, idx)
            scene.add(f"{iso}_rim", "border", rpos, ridx)
            manifest_nodes[iso] = {"iso": iso, "kind": "point", "centroid": [g.x, g.y], "bbox": list(g.bounds), "vertices": len(pos), "triangles": len(idx)}
            continue
        verts, idx, base = [], [], 0
        for p in polygons(g):
            rings = [shapely.get_coordinates(r)[:-1] for r in (p.exterior, *p.interiors)]
            for r in rings:  # outline segments of every ring
                seg_starts.append(r)
                seg_ends.append(np.roll(r, -1, axis=0))
            pts = np.concatenate(rings)
            ends = np.cumsum([len(r) for r in rings]).astype(np.uint32)
            verts.append(pts)
            idx.append(mapbox_earcut.triangulate_float64(pts, ends).reshape(-1, 3).astype(np.int64) + base)
            base += len(pts)
        pts, tri = subdivide(np.concatenate(verts), np.concatenate(idx), args.max_edge)
        pos, ind = lonlat_to_xyz(pts[:, 0], pts[:, 1], FILL_R), tri
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
        write_json(args.manifest, manifest, indent=True)
    print(f"globe: {totals['polygonCountries']} fills ({totals['fillVertices']} vertices, {totals['fillTriangles']} triangles), "
          f"{totals['pointCountries']} points, {len(capitals)} capitals, {len(a)} outline segments", file=sys.stderr)




def add_parser(sub):
    a = sub.add_parser("globe", help="world.geojson → glb, usdz, manifest")
    a.add_argument("input"); a.add_argument("out"); a.add_argument("--max-edge", type=float, default=2.5)
    a.add_argument("--manifest"); a.add_argument("--usdz")
    a.set_defaults(run=main)
