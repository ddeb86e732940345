"""Reads dist/globe.glb with two independent glTF readers (pygltflib and trimesh) plus a raw
reading of the GLB container, and checks it against the glTF 2.0 rules and CONTRACTS §2–3:

  * container: magic, version 2, total length, JSON chunk then BIN chunk, chunk lengths and
    4-byte padding (JSON with spaces), buffer length vs BIN chunk;
  * buffer views inside the buffer, 4-byte aligned; vertex strides multiples of 4; accessors
    inside their views; POSITION min/max equal to the data's exact extremes; indices in range;
    extensionsRequired ⊆ extensionsUsed; materials unlit (KHR_materials_unlit) in the palette;
  * fill nodes == polygon features of dist/world.geojson, point markers == point features
    (both directions), a capital marker for every capital, 48 outline_sector_N nodes;
  * every fill / marker triangle faces outward (trimesh's face normals), no fill edge spans
    more than the manifest's maxEdgeDegrees;
  * each country's mesh area on the unit sphere within 0.5 % of the exact spherical area of its
    world.geojson polygons (computed here independently) for countries over 1,000 km²; the
    PROJ geodesic (ellipsoid) area of the manifest is reported beside it;
  * Antarctica's fill covers the South Pole.
"""
import json, math, os, struct, sys
import numpy as np
import pygltflib
import trimesh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import EARTH_RADIUS_KM, PALETTE, dist, fail, finish, geometry_area, srgb, world_path  # noqa: E402

# Paths can be given for a run on other files: check_globe.py [GLB MANIFEST WORLD]; otherwise
# they follow the DIST (and WORLD_OUT) environment variables like the Makefile's.
GLB, MANIFEST, WORLD = (sys.argv[1:4] if len(sys.argv) >= 4 else
                        (dist("globe.glb"), dist("globe.manifest.json"), world_path()))

raw = open(GLB, "rb").read()
manifest = json.load(open(MANIFEST, encoding="utf-8"))
world = json.load(open(WORLD, encoding="utf-8"))
params = manifest["parameters"]
max_edge = params["maxEdgeDegrees"]

# ---- 1. GLB container ---------------------------------------------------------------------
magic, version, length = struct.unpack_from("<4sII", raw, 0)
if magic != b"glTF": fail(f"magic {magic!r}")
if version != 2: fail(f"version {version}")
if length != len(raw): fail(f"header length {length} != file size {len(raw)}")
jlen, jtype = struct.unpack_from("<II", raw, 12)
if jtype != 0x4E4F534A: fail("first chunk is not JSON")
if jlen % 4: fail(f"JSON chunk length {jlen} not a multiple of 4")
jbytes = raw[20:20 + jlen]
doc = json.loads(jbytes.decode("utf-8"))
if jbytes.rstrip(b" ") != jbytes.rstrip() or len(jbytes) - len(jbytes.rstrip(b" ")) > 3:
    fail("JSON chunk padding is not 0–3 spaces")
boff = 20 + jlen
blen, btype = struct.unpack_from("<II", raw, boff)
if btype != 0x004E4942: fail("second chunk is not BIN")
if blen % 4: fail(f"BIN chunk length {blen} not a multiple of 4")
if boff + 8 + blen != len(raw): fail("chunks do not fill the file exactly")
bin_ = raw[boff + 8: boff + 8 + blen]
if len(doc["buffers"]) != 1 or "uri" in doc["buffers"][0]: fail("expected one buffer, the BIN chunk")
if not (blen - 3 <= doc["buffers"][0]["byteLength"] <= blen): fail("buffer byteLength does not match the BIN chunk")
if doc["asset"]["version"] != "2.0": fail("asset.version is not 2.0")
for e in doc.get("extensionsRequired", []):
    if e not in doc.get("extensionsUsed", []): fail(f"required extension {e} not in extensionsUsed")

# ---- 2. views and accessors (raw) -----------------------------------------------------------
CT = {5120: ("i1", 1), 5121: ("u1", 1), 5122: ("i2", 2), 5123: ("u2", 2), 5125: ("u4", 4), 5126: ("f4", 4)}
NC = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
for i, v in enumerate(doc["bufferViews"]):
    off, ln = v.get("byteOffset", 0), v["byteLength"]
    if off % 4: fail(f"bufferView {i} offset {off} not 4-byte aligned")
    if off + ln > doc["buffers"][0]["byteLength"]: fail(f"bufferView {i} runs past the buffer")
    if "byteStride" in v and (v["byteStride"] % 4 or not 4 <= v["byteStride"] <= 252): fail(f"bufferView {i} stride {v['byteStride']}")

def read_accessor(i):
    a = doc["accessors"][i]
    v = doc["bufferViews"][a["bufferView"]]
    code, size = CT[a["componentType"]]
    n = NC[a["type"]]
    elem = size * n
    stride = v.get("byteStride", elem)
    start = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    if (v.get("byteOffset", 0) + a.get("byteOffset", 0)) % size: fail(f"accessor {i} misaligned for its component type")
    if a.get("byteOffset", 0) + stride * (a["count"] - 1) + elem > v["byteLength"]: fail(f"accessor {i} runs past its bufferView")
    arr = np.lib.stride_tricks.as_strided(np.frombuffer(bin_, dtype=np.uint8, offset=start),
                                          shape=(a["count"], elem), strides=(stride, 1)).copy()
    return arr.view("<" + code).reshape(a["count"], n)

positions = {}
for mi, m in enumerate(doc["meshes"]):
    for pi, p in enumerate(m["primitives"]):
        pa = p["attributes"]["POSITION"]
        acc = doc["accessors"][pa]
        pos = read_accessor(pa)
        if acc["componentType"] != 5126 and not acc.get("normalized"): fail(f"mesh {m['name']}: POSITION type")
        if "min" not in acc or "max" not in acc:
            fail(f"mesh {m['name']}: POSITION without min/max")
        else:
            lo, hi = pos.min(axis=0).astype(np.float64), pos.max(axis=0).astype(np.float64)
            if not (np.array_equal(np.float32(acc["min"]), np.float32(lo)) and np.array_equal(np.float32(acc["max"]), np.float32(hi))):
                fail(f"mesh {m['name']} primitive {pi}: POSITION min/max {acc['min']}/{acc['max']} != data {lo.tolist()}/{hi.tolist()}")
        for sem, ai in p["attributes"].items():
            if doc["accessors"][ai]["count"] != acc["count"]: fail(f"mesh {m['name']}: {sem} count differs from POSITION")
            v = doc["bufferViews"][doc["accessors"][ai]["bufferView"]]
            code, size = CT[doc["accessors"][ai]["componentType"]]
            if size * NC[doc["accessors"][ai]["type"]] % 4 and "byteStride" not in v: fail(f"mesh {m['name']}: {sem} not 4-byte aligned per vertex")
        idx = read_accessor(p["indices"]).ravel()
        if idx.size and idx.max() >= acc["count"]: fail(f"mesh {m['name']}: index {idx.max()} >= vertex count {acc['count']}")
        mode = p.get("mode", 4)
        if mode == 4 and idx.size % 3: fail(f"mesh {m['name']}: index count {idx.size} not a multiple of 3")
        positions[(mi, pi)] = (pos, idx, mode)

# ---- 3. pygltflib: nodes, materials ---------------------------------------------------------
g = pygltflib.GLTF2.load_binary(GLB)
if len(g.nodes) != len(doc["nodes"]) or len(g.meshes) != len(doc["meshes"]): fail("pygltflib sees a different node/mesh count")
blob = g.binary_blob()
if blob is None or len(blob) < doc["buffers"][0]["byteLength"]: fail("pygltflib cannot read the BIN chunk")
nodes_by_kind = {}
for n in g.nodes:
    kind = (n.extras or {}).get("kind")
    nodes_by_kind.setdefault(kind, []).append(n)
mat_names = {}
for m in g.materials:
    mat_names[m.name] = m
    if "KHR_materials_unlit" not in (m.extensions or {}): fail(f"material {m.name} is not unlit")
for name, rgb in PALETTE.items():
    m = mat_names.get(name)
    if m is None: fail(f"palette material {name} missing"); continue
    f = m.pbrMetallicRoughness.baseColorFactor
    if max(abs(srgb(f[k]) - rgb[k]) for k in range(3)) > 1e-4: fail(f"material {name}: {f} is not sRGB {rgb}")
# Borders are double-sided (widened ribbons fold at sharp turns; culling would leave gaps);
# fills are single-sided so the far hemisphere is culled (CONTRACTS §2).
if "border" not in mat_names or not mat_names["border"].doubleSided: fail("border material is not doubleSided")
if mat_names.get("land") is not None and mat_names["land"].doubleSided: fail("land material is doubleSided (fills must be single-sided)")
if abs(mat_names["atmosphere"].pbrMetallicRoughness.baseColorFactor[3] - 0.15) > 1e-9 or mat_names["atmosphere"].alphaMode != "BLEND":
    fail("atmosphere material is not translucent (alpha 0.15, BLEND)")

# World transforms of the nodes (fills carry a translation: positions are relative to it).
def local_matrix(n):
    if "matrix" in n: return np.array(n["matrix"], dtype=np.float64).reshape(4, 4).T
    t = n.get("translation", [0, 0, 0]); q = n.get("rotation", [0, 0, 0, 1]); sc = n.get("scale", [1, 1, 1])
    x, y, z, w = q
    r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    m = np.eye(4); m[:3, :3] = r * np.array(sc)[None, :]; m[:3, 3] = t
    return m
world_matrix = {}
def visit(i, parent):
    world_matrix[i] = parent @ local_matrix(doc["nodes"][i])
    for c in doc["nodes"][i].get("children", []): visit(c, world_matrix[i])
for r in doc["scenes"][doc.get("scene", 0)]["nodes"]: visit(r, np.eye(4))
def to_world(node_index, v):
    m = world_matrix.get(node_index, np.eye(4))
    return v @ m[:3, :3].T + m[:3, 3]
translated = [n.get("name") for n in doc["nodes"] if "translation" in n or "matrix" in n]

features = world["features"]
poly_ids = {f["id"] for f in features if f["geometry"]["type"] in ("Polygon", "MultiPolygon")}
point_ids = {f["id"] for f in features if f["geometry"]["type"] == "Point"}
capital_ids = {f["id"] for f in features if "capitalLat" in f["properties"]}
fill_ids = {n.name for n in nodes_by_kind.get("fill", [])}
marker_ids = {n.name for n in nodes_by_kind.get("point", [])}
if fill_ids != poly_ids: fail(f"fill nodes != polygon features: missing {sorted(poly_ids - fill_ids)}, extra {sorted(fill_ids - poly_ids)}")
if marker_ids != point_ids: fail(f"point markers != point features: missing {sorted(point_ids - marker_ids)}, extra {sorted(marker_ids - point_ids)}")
for n in nodes_by_kind.get("point", []):
    kids = [g.nodes[c] for c in (n.children or [])]
    if not any((k.extras or {}).get("kind") == "rim" and g.materials[g.meshes[k.mesh].primitives[0].material].name == "border" for k in kids):
        fail(f"point marker {n.name} has no black rim")
caps = {n.name for n in nodes_by_kind.get("capital", [])}
if caps != {"capital_" + c for c in capital_ids}: fail(f"capital markers differ: missing {sorted({'capital_' + c for c in capital_ids} - caps)}")
sector_names = sorted(n.name for n in g.nodes if n.name and n.name.startswith("outline_sector_"))
if sector_names != sorted(f"outline_sector_{i}" for i in range(48)): fail("the 48 outline_sector_N nodes are not all there")
for n in g.nodes:
    if n.name and n.name.startswith("outline_sector_") and n.mesh is not None:
        for p in g.meshes[n.mesh].primitives:
            if "_MITER" not in doc["meshes"][n.mesh]["primitives"][0]["attributes"]: fail(f"{n.name} has no _MITER attribute")
# Outline ribbons: vertex pairs (2i, 2i+1) at the same centre-line position with opposite
# miters; miters tangent to the sphere and at least unit length; strips of mode 5.
miter_scale = doc["asset"]["extras"]["miterScale"]
outline_points = 0
for n in g.nodes:
    if not (n.name or "").startswith("outline_sector_") or n.mesh is None:
        continue
    for pi, p in enumerate(doc["meshes"][n.mesh]["primitives"]):
        pos, idx, mode = positions[(n.mesh, pi)]
        if mode != 5: fail(f"{n.name}: outline primitive is not a triangle strip"); continue
        mit = read_accessor(p["attributes"]["_MITER"]).astype(np.float64) / 127 * miter_scale
        pos = pos.astype(np.float64)
        if len(pos) % 2: fail(f"{n.name}: odd outline vertex count"); continue
        outline_points += len(pos) // 2
        if not np.array_equal(pos[0::2], pos[1::2]): fail(f"{n.name}: ribbon vertex pairs are not on the centre line")
        if np.abs(mit[0::2] + mit[1::2]).max() > 1e-9: fail(f"{n.name}: ribbon miters are not opposite")
        u = pos / np.linalg.norm(pos, axis=1)[:, None]
        radial = np.abs(np.einsum("ij,ij->i", mit, u))
        length = np.linalg.norm(mit, axis=1)
        if radial.max() > 0.05 * miter_scale: fail(f"{n.name}: a miter is not tangent to the sphere ({radial.max():.3f})")
        if length.min() < 0.9: fail(f"{n.name}: a miter shorter than 1 ({length.min():.3f})")
        # Consecutive centre-line points of one run are at most maxEdgeDegrees apart.
        a, b = u[idx[:-2:2]], u[idx[2::2]]
        same_run = idx[2::2] - idx[:-2:2] == 2
        ang = np.degrees(np.arctan2(np.linalg.norm(np.cross(a, b), axis=1), np.einsum("ij,ij->i", a, b)))[same_run]
        if ang.size and ang.max() > max_edge + 1e-4: fail(f"{n.name}: an outline segment spans {ang.max():.3f}°")
if outline_points == 0: fail("no outline vertices")

for name in ("ocean", "atmosphere"):
    nd = [n for n in g.nodes if n.name == name]
    if len(nd) != 1: fail(f"no single {name} node"); continue
    pos, _, _ = positions[(nd[0].mesh, 0)]
    r = np.linalg.norm(pos.astype(np.float64), axis=1)
    want = params[name + "Radius"]
    if abs(r.max() - want) > 1e-5: fail(f"{name} radius {r.max()} != {want}")

# ---- 4. trimesh: outward faces, edge lengths, areas -----------------------------------------
scene = trimesh.load(GLB, force="scene", process=False)
geoms = scene.geometry
def tri_mesh(name):
    # trimesh names geometry after the glTF mesh name (the node name for fills).
    m = geoms.get(name)
    if m is None:
        cands = [k for k in geoms if k == name or k.startswith(name + "_") and k[len(name) + 1:].isdigit()]
        m = geoms.get(cands[0]) if cands else None
    return m

def sphere_tri_areas(v, f):
    a, b, c = (v[f[:, k]] / np.linalg.norm(v[f[:, k]], axis=1)[:, None] for k in range(3))
    num = np.einsum("ij,ij->i", a, np.cross(b, c))
    den = 1 + np.einsum("ij,ij->i", a, b) + np.einsum("ij,ij->i", b, c) + np.einsum("ij,ij->i", c, a)
    return 2 * np.arctan2(num, den)

by_id = {f["id"]: f for f in features}
inward = degenerate = 0
long_edges = []
area_report = []
checked = 0
node_index = {id(n): i for i, n in enumerate(g.nodes)}
for node in nodes_by_kind.get("fill", []) + nodes_by_kind.get("point", []) + nodes_by_kind.get("capital", []):
    m = tri_mesh(g.meshes[node.mesh].name)
    if m is None:
        fail(f"trimesh did not load the mesh of {node.name}"); continue
    # trimesh keeps each geometry in its node's frame: place it in the scene.
    v = to_world(node_index[id(node)], np.asarray(m.vertices, dtype=np.float64)); f = np.asarray(m.faces)
    if len(f) == 0:
        fail(f"{node.name}: no triangles"); continue
    cross = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    facing = np.einsum("ij,ij->i", cross, v[f[:, 0]] + v[f[:, 1]] + v[f[:, 2]])
    size = np.linalg.norm(cross, axis=1)
    deg = size < 1e-12
    degenerate += int(deg.sum())
    bad = (~deg) & (facing <= 0)
    if bad.any():
        inward += int(bad.sum())
        fail(f"{node.name}: {int(bad.sum())} of {len(f)} triangles face inward")
    if (node.extras or {}).get("kind") != "fill":
        continue
    u = v / np.linalg.norm(v, axis=1)[:, None]
    for k in range(3):
        a, b = u[f[:, k]], u[f[:, (k + 1) % 3]]
        ang = np.degrees(np.arctan2(np.linalg.norm(np.cross(a, b), axis=1), np.einsum("ij,ij->i", a, b)))
        if ang.max() > max_edge + 1e-4: long_edges.append((node.name, float(ang.max())))
    if node.name not in by_id:
        continue  # a fill without a polygon feature: already reported above
    mesh_area = float(sphere_tri_areas(v, f).sum())
    ref = geometry_area(by_id[node.name]["geometry"])
    km2 = ref * EARTH_RADIUS_KM ** 2
    geod = manifest["nodes"][node.name].get("geodesicAreaKm2")
    if km2 > 1000:
        checked += 1
        rel = mesh_area / ref - 1
        area_report.append((abs(rel), node.name, rel, km2, geod))
        if abs(rel) > 0.005: fail(f"{node.name}: mesh area {mesh_area:.6g} differs from the spherical area {ref:.6g} by {rel:+.3%}")
for name, ang in long_edges: fail(f"{name}: a triangle edge spans {ang:.4f}° > {max_edge}°")

# ---- 5. Antarctica covers the pole ----------------------------------------------------------
if "AQ" in poly_ids:
    m = tri_mesh("AQ")
    aq_node = next(i for i, n in enumerate(doc["nodes"]) if n.get("name") == "AQ" and (n.get("extras") or {}).get("kind") == "fill")
    v = to_world(aq_node, np.asarray(m.vertices, dtype=np.float64)); f = np.asarray(m.faces)
    a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
    covered = 0
    probes = [(lon, -89.95) for lon in range(-180, 180, 15)] + [(0, -90)]
    for lon, lat in probes:
        la, lo = math.radians(lat), math.radians(lon)
        d = np.array([math.cos(la) * math.cos(-lo), math.sin(la), math.cos(la) * math.sin(-lo)])
        s1 = np.einsum("ij,j->i", np.cross(a, b), d); s2 = np.einsum("ij,j->i", np.cross(b, c), d); s3 = np.einsum("ij,j->i", np.cross(c, a), d)
        eps = -1e-12
        if np.any((s1 >= eps) & (s2 >= eps) & (s3 >= eps) & (np.einsum("ij,j->i", a + b + c, d) > 0)): covered += 1
    if covered != len(probes): fail(f"Antarctica's fill covers {covered} of {len(probes)} directions around the South Pole")

area_report.sort(reverse=True)
worst_geod = max(((abs(manifest["nodes"][n]["sphereAreaKm2"] / manifest["nodes"][n]["geodesicAreaKm2"] - 1), n)
                  for _, n, _, km2, _ in area_report if manifest["nodes"][n]["geodesicAreaKm2"] > 0), default=(0, "-"))
print(f"{GLB}: {len(raw):,} bytes, {len(doc['nodes'])} nodes, {len(doc['meshes'])} meshes, {len(doc['accessors'])} accessors; "
      f"{len(fill_ids)} fills, {len(marker_ids)} point markers, {len(caps)} capitals, {len(sector_names)} outline sectors")
print(f"outlines: {outline_points:,} centre-line points with miters; {len(translated)} nodes with a translation (checked in scene space)")
print(f"trimesh: {len(geoms)} geometries; {inward} inward triangles, {degenerate} degenerate (zero-area in float32, ignored)")
if area_report:
    print(f"areas: {checked} countries over 1,000 km² checked; worst mesh vs spherical area: "
          + ", ".join(f"{n} {rel:+.4%}" for _, n, rel, _, _ in area_report[:3]))
    print(f"(PROJ's ellipsoidal area differs from the spherical area of the same lon/lat polygon by up to "
          f"{worst_geod[0]:.2%} ({worst_geod[1]}): the contract maps geodetic latitude straight onto the sphere)")
finish()
