"""Reads dist/globe.usdz with Pixar's USD (usd-core) and Python's zipfile, and compares it with
dist/globe.glb read by pygltflib (CONTRACTS §2–3, issue #11):

  * package: a zip whose files are all stored (no compression, no encryption), CRCs right,
    every file's data 64-byte aligned, the root layer first and a binary crate (.usdc);
  * pxr opens it, and every validator in UsdValidation's registry reports no error;
  * AR Quick Look's rules, checked here since usd-core ships no usdchecker: only Xform, Scope,
    Mesh, GeomSubset, Material and Shader prims; only UsdPreviewSurface / UsdPrimvarReader_*
    shaders; upAxis Y, metersPerUnit authored, defaultPrim "globe"; no references, payloads,
    inherits, sublayers or asset paths (nothing outside the package);
  * every Mesh: triangles only, indices in range, subdivisionScheme "none", extent equal to its
    points' bounds, normals per vertex (the outline ribbons carry none, as in the glb);
  * against the glb: the same node names under the same parents (the USD materials scope
    aside); per node the same vertices (world positions within float32 precision, node
    transforms applied) and the same triangles (country fills index for index; strips turned
    into triangle lists for outlines; disc + rim subset for point countries); normals and
    miters equal to the glb's quantized ones within their quantization step; each node's
    material the glb's, and each material's colour the palette's;
  * the manifest names both files.
"""
import json, os, struct, sys, time, zipfile

import numpy as np
import pygltflib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import PALETTE, dist, fail, finish, srgb  # noqa: E402

USDZ, GLB, MANIFEST = (sys.argv[1:4] if len(sys.argv) >= 4 else
                       (dist("globe.usdz"), dist("globe.glb"), dist("globe.manifest.json")))

# ---- 1. the zip package -----------------------------------------------------------------------
for path in (USDZ, GLB, MANIFEST):
    if not os.path.isfile(path): fail(f"{path} is missing (make globe writes it)")
if not os.path.isfile(USDZ) or not os.path.isfile(GLB) or not os.path.isfile(MANIFEST): finish("usdz")
raw = open(USDZ, "rb").read()
with zipfile.ZipFile(USDZ) as z:
    infos = z.infolist()
    bad = z.testzip()
    if bad: fail(f"zip member {bad} has a bad CRC")
if not infos: fail("the package is empty")
for i in infos:
    if i.compress_type != zipfile.ZIP_STORED: fail(f"{i.filename} is compressed (method {i.compress_type})")
    if i.flag_bits & 1: fail(f"{i.filename} is encrypted")
    sig, = struct.unpack_from("<I", raw, i.header_offset)
    if sig != 0x04034B50: fail(f"{i.filename}: no local header at {i.header_offset}")
    nlen, xlen = struct.unpack_from("<HH", raw, i.header_offset + 26)
    data = i.header_offset + 30 + nlen + xlen
    if data % 64: fail(f"{i.filename}: data at offset {data}, not 64-byte aligned")
root = infos[0].filename if infos else ""
if not root.endswith(".usdc"): fail(f"the first file (the root layer) is {root!r}, not a .usdc layer")
elif raw[infos[0].header_offset + 30 + len(root.encode()) + struct.unpack_from("<H", raw, infos[0].header_offset + 28)[0]:][:8] != b"PXR-USDC":
    fail(f"{root} does not start with the crate magic PXR-USDC")

# ---- 2. pxr: open and validate ------------------------------------------------------------------
from pxr import Sdf, Usd, UsdGeom, UsdShade, UsdValidation  # noqa: E402

t0 = time.perf_counter()
stage = Usd.Stage.Open(USDZ)
open_seconds = time.perf_counter() - t0
if stage is None:
    fail("pxr cannot open the package"); finish("usdz")
registry = UsdValidation.ValidationRegistry()
errors = UsdValidation.ValidationContext(registry.GetOrLoadAllValidators()).Validate(stage)
for e in errors:
    msg = f"validator {e.GetName()}: {e.GetMessage()}"
    if e.GetType() == UsdValidation.ValidationErrorType.Error: fail(msg)
    else: print("note:", msg)

# ---- 3. AR Quick Look's rules ---------------------------------------------------------------------
ALLOWED = {"Xform", "Scope", "Mesh", "GeomSubset", "Material", "Shader"}
if UsdGeom.GetStageUpAxis(stage) != "Y": fail(f"upAxis is {UsdGeom.GetStageUpAxis(stage)}, not Y")
if not stage.HasAuthoredMetadata("metersPerUnit"): fail("metersPerUnit is not authored")
if not stage.GetDefaultPrim() or stage.GetDefaultPrim().GetName() != "globe": fail("defaultPrim is not globe")
layer = stage.GetRootLayer()
if layer.subLayerPaths: fail(f"the root layer has sublayers {list(layer.subLayerPaths)}")
if layer.GetCompositionAssetDependencies() or layer.GetExternalReferences(): fail("the root layer refers to other files")
prims = list(stage.TraverseAll())
for p in prims:
    if p.GetTypeName() not in ALLOWED: fail(f"{p.GetPath()}: prim type {p.GetTypeName()!r} is not one AR Quick Look accepts")
    if p.HasAuthoredReferences() or p.HasAuthoredPayloads() or p.HasAuthoredInherits() or p.HasAuthoredSpecializes():
        fail(f"{p.GetPath()}: has references, payloads, inherits or specializes")
    for a in p.GetAttributes():
        if a.GetTypeName() in (Sdf.ValueTypeNames.Asset, Sdf.ValueTypeNames.AssetArray): fail(f"{a.GetPath()}: asset path")
    if p.GetTypeName() == "Shader":
        sid = UsdShade.Shader(p).GetIdAttr().Get()
        if not (sid == "UsdPreviewSurface" or str(sid).startswith("UsdPrimvarReader_")): fail(f"{p.GetPath()}: shader id {sid}")

# ---- 4. meshes ------------------------------------------------------------------------------------
xf = UsdGeom.XformCache()
usd = {}      # name -> dict(points (world), tris, normals, miter, material, parent, subsets)
for p in prims:
    if p.GetPath().HasPrefix("/globe/materials"): continue
    name = p.GetName()
    entry = {"parent": p.GetParent().GetName(), "type": p.GetTypeName()}
    if p.GetTypeName() == "Mesh":
        m = UsdGeom.Mesh(p)
        pts = np.array(m.GetPointsAttr().Get(), dtype=np.float64).reshape(-1, 3)
        counts = np.array(m.GetFaceVertexCountsAttr().Get())
        idx = np.array(m.GetFaceVertexIndicesAttr().Get(), dtype=np.int64)
        if counts.size == 0 or not (counts == 3).all(): fail(f"{name}: not a triangle mesh")
        if idx.size != 3 * counts.size: fail(f"{name}: {idx.size} indices for {counts.size} triangles")
        if idx.size and (idx.min() < 0 or idx.max() >= len(pts)): fail(f"{name}: index out of range")
        if m.GetSubdivisionSchemeAttr().Get() != "none": fail(f"{name}: subdivisionScheme is {m.GetSubdivisionSchemeAttr().Get()}")
        ext = m.GetExtentAttr().Get()
        if ext is None: fail(f"{name}: no extent")
        elif not (np.array_equal(np.float32(np.array(ext)[0]), np.float32(pts.min(axis=0))) and
                  np.array_equal(np.float32(np.array(ext)[1]), np.float32(pts.max(axis=0)))):
            fail(f"{name}: extent {ext} is not the bounds of its points")
        nrm = m.GetNormalsAttr().Get()
        if name.startswith("outline_sector_"):
            if nrm is not None: fail(f"{name}: outline ribbons should carry no normals (they have none in the glb)")
        elif nrm is None or len(nrm) != len(pts) or m.GetNormalsInterpolation() != "vertex":
            fail(f"{name}: normals missing or not per vertex")
        # Gf matrices act on row vectors: p' = p · M, the translation in the last row.
        mat = np.array(xf.GetLocalToWorldTransform(p), dtype=np.float64)
        world = pts @ mat[:3, :3] + mat[3, :3]
        miter = UsdGeom.PrimvarsAPI(p).GetPrimvar("miter")
        bound = UsdShade.MaterialBindingAPI(p).ComputeBoundMaterial()[0]
        entry.update(points=world, tris=idx.reshape(-1, 3), normals=None if nrm is None else np.array(nrm, dtype=np.float64),
                     miter=np.array(miter.Get(), dtype=np.float64) if miter and miter.HasValue() else None,
                     material=bound.GetPrim().GetName() if bound else None,
                     doubleSided=bool(m.GetDoubleSidedAttr().Get()))
    if p.GetTypeName() == "GeomSubset":
        s = UsdGeom.Subset(p)
        bound = UsdShade.MaterialBindingAPI(p).ComputeBoundMaterial()[0]
        entry.update(indices=np.array(s.GetIndicesAttr().Get(), dtype=np.int64), material=bound.GetPrim().GetName() if bound else None)
    if name in usd: fail(f"prim name {name} appears twice")
    usd[name] = entry

# Materials: one per palette entry, emissive in the palette colour, diffuse black.
for name, rgb in PALETTE.items():
    mp = stage.GetPrimAtPath(f"/globe/materials/{name}")
    if not mp: fail(f"material {name} missing"); continue
    surface = UsdShade.Material(mp).ComputeSurfaceSource()[0]
    if not surface or surface.GetIdAttr().Get() != "UsdPreviewSurface": fail(f"material {name}: no UsdPreviewSurface"); continue
    emissive = surface.GetInput("emissiveColor").Get()
    diffuse = surface.GetInput("diffuseColor").Get()
    if emissive is None or max(abs(srgb(emissive[k]) - rgb[k]) for k in range(3)) > 1e-4: fail(f"material {name}: emissive {emissive} is not sRGB {rgb}")
    if diffuse is None or tuple(diffuse) != (0, 0, 0): fail(f"material {name}: diffuseColor {diffuse} is not black")
    opacity = surface.GetInput("opacity").Get() if surface.GetInput("opacity") else None
    want = 0.15 if name == "atmosphere" else None
    if (opacity is None) != (want is None) or (want is not None and abs(opacity - want) > 1e-6):
        fail(f"material {name}: opacity {opacity}, expected {want or 'none (opaque)'}")

# ---- 5. against the glb ---------------------------------------------------------------------------
g = pygltflib.GLTF2.load_binary(GLB)
blob = g.binary_blob()
CT = {5120: "i1", 5121: "u1", 5122: "i2", 5123: "u2", 5125: "u4", 5126: "f4"}
NC = {"SCALAR": 1, "VEC3": 3}


def accessor(i):
    a = g.accessors[i]; v = g.bufferViews[a.bufferView]
    n = NC[a.type]; dt = np.dtype("<" + CT[a.componentType])
    stride = v.byteStride or dt.itemsize * n
    start = (v.byteOffset or 0) + (a.byteOffset or 0)
    arr = np.lib.stride_tricks.as_strided(np.frombuffer(blob, dtype=np.uint8, offset=start),
                                          shape=(a.count, dt.itemsize * n), strides=(stride, 1)).copy()
    out = arr.view(dt).reshape(a.count, n).astype(np.float64)
    if a.normalized: out = np.maximum(out / {1: 127.0, 2: 32767.0}[dt.itemsize], -1)
    return out


def local(n):
    m = np.eye(4)
    if n.matrix: return np.array(n.matrix, dtype=np.float64).reshape(4, 4).T
    if n.rotation and n.rotation != [0, 0, 0, 1] or n.scale and n.scale != [1, 1, 1]: fail(f"glb node {n.name}: rotation/scale not handled")
    if n.translation: m[:3, 3] = n.translation
    return m


world, parent = {}, {}
def visit(i, pm, pname):
    n = g.nodes[i]
    world[i] = pm @ local(n); parent[n.name] = pname
    for c in n.children or []: visit(c, world[i], n.name)
for r in g.scenes[g.scene or 0].nodes: visit(r, np.eye(4), "")

glb_names = {g.nodes[i].name for i in world}
usd_names = set(usd) - {"materials"}
if glb_names != usd_names:
    fail(f"node names differ: only in glb {sorted(glb_names - usd_names)[:10]}, only in usdz {sorted(usd_names - glb_names)[:10]}")
for name in glb_names & usd_names:
    want = parent[name] or "/"
    got = usd[name]["parent"] if usd[name]["parent"] else "/"
    if (want, got) != ("/", "/") and want != got: fail(f"{name}: parent {got} in the usdz, {want} in the glb")

miter_scale = (g.asset.extras or {}).get("miterScale", 2.0)
mat_names = [m.name for m in g.materials]
checked = {"fill": 0, "point": 0, "outline": 0, "other": 0}
for i, n in ((i, g.nodes[i]) for i in world):
    kind = (n.extras or {}).get("kind", "")
    if n.mesh is None or kind == "rim": continue       # rims: compared with their point country
    if n.name not in usd: continue                      # reported with the node names
    u = usd[n.name]
    pts, tris, nrm, mit, mats = [], [], [], [], []
    base = 0
    for prim in g.meshes[n.mesh].primitives:
        p = accessor(prim.attributes.POSITION)
        idx = accessor(prim.indices).ravel().astype(np.int64)
        if (prim.mode if prim.mode is not None else 4) == 5:     # strip → triangles, joins dropped
            t = np.stack([idx[:-2], idx[1:-1], idx[2:]], axis=1)
            odd = np.arange(len(t)) % 2 == 1
            t[odd, 0], t[odd, 1] = idx[1:-1][odd], idx[:-2][odd]
            t = t[(t[:, 0] != t[:, 1]) & (t[:, 1] != t[:, 2]) & (t[:, 0] != t[:, 2])]
        else:
            t = idx.reshape(-1, 3)
        pts.append(p); tris.append(t + base); base += len(p)
        if prim.attributes.NORMAL is not None: nrm.append(accessor(prim.attributes.NORMAL))
        if getattr(prim.attributes, "_MITER", None) is not None: mit.append(accessor(prim.attributes._MITER) * miter_scale)
        mats.append(mat_names[prim.material])
    pts, tris = np.concatenate(pts), np.concatenate(tris)
    pts = pts @ world[i][:3, :3].T + world[i][:3, 3]
    u_pts, u_tris = u.get("points"), u.get("tris")
    if kind == "point":
        # The usdz's point-country mesh is the disc followed by its rim (the GeomSubset <ISO>_rim).
        rim = next(g.nodes[c] for c in n.children)
        rp = accessor(g.meshes[rim.mesh].primitives[0].attributes.POSITION) @ world[n.children[0]][:3, :3].T + world[n.children[0]][:3, 3]
        rt = accessor(g.meshes[rim.mesh].primitives[0].indices).ravel().astype(np.int64).reshape(-1, 3) + len(pts)
        sub = usd.get(rim.name, {})
        want_sub = np.arange(len(tris), len(tris) + len(rt))
        if sub.get("indices") is None or not np.array_equal(np.sort(sub["indices"]), want_sub): fail(f"{rim.name}: subset faces are not the rim's")
        if sub.get("material") != mat_names[g.meshes[rim.mesh].primitives[0].material]: fail(f"{rim.name}: material {sub.get('material')}")
        pts, tris = np.concatenate([pts, rp]), np.concatenate([tris, rt])
    if u_pts is None: fail(f"{n.name}: a mesh in the glb, not in the usdz"); continue
    if len(u_pts) != len(pts): fail(f"{n.name}: {len(u_pts)} vertices in the usdz, {len(pts)} in the glb"); continue
    if len(u_tris) != len(tris): fail(f"{n.name}: {len(u_tris)} triangles in the usdz, {len(tris)} in the glb"); continue
    if not np.array_equal(u_tris, tris): fail(f"{n.name}: triangles differ from the glb's")
    err = np.abs(u_pts - pts).max()
    if err > 4e-7: fail(f"{n.name}: positions differ from the glb's by {err:.2e}")
    if nrm and u["normals"] is not None and kind != "point":
        e = np.abs(u["normals"] - np.concatenate(nrm)).max()
        if e > 1 / 127 + 1e-6: fail(f"{n.name}: normals differ from the glb's by {e:.4f}")
    if mit:
        if u["miter"] is None: fail(f"{n.name}: no primvars:miter")
        else:
            e = np.abs(u["miter"] - np.concatenate(mit)).max()
            if e > miter_scale / 127 + 2e-3: fail(f"{n.name}: miter differs from the glb's by {e:.4f}")
    if u["material"] != mats[0]: fail(f"{n.name}: material {u['material']} in the usdz, {mats[0]} in the glb")
    if u["doubleSided"] != any(g.materials[p.material].doubleSided for p in g.meshes[n.mesh].primitives) and kind != "point":
        fail(f"{n.name}: doubleSided {u['doubleSided']} differs from the glb's material")
    checked["fill" if kind == "fill" else "point" if kind == "point" else "outline" if kind == "outline" else "other"] += 1

# ---- 6. the manifest ------------------------------------------------------------------------------
manifest = json.load(open(MANIFEST, encoding="utf-8"))
if manifest.get("glb") != os.path.basename(GLB): fail(f"manifest glb is {manifest.get('glb')}")
mu = manifest.get("usdz") or {}
if mu.get("file") != os.path.basename(USDZ) or mu.get("rootLayer") != root: fail(f"manifest usdz entry {mu} does not name {os.path.basename(USDZ)} / {root}")
for name, node in manifest["nodes"].items():
    if node["kind"] == "fill" and name in usd and usd[name].get("tris") is not None and len(usd[name]["tris"]) != node["triangles"]:
        fail(f"{name}: manifest says {node['triangles']} triangles, the usdz has {len(usd[name]['tris'])}")

print(f"usdz: {len(raw):,} bytes, {len(infos)} file(s), root {root}; pxr opened it in {open_seconds:.3f}s; "
      f"{len(prims)} prims, {len(errors)} validator reports; compared with the glb: "
      + ", ".join(f"{v} {k}" for k, v in checked.items()))
if open_seconds > 5: fail(f"pxr took {open_seconds:.1f}s to open the package (budget 1 s; measured in make bench)")
finish("usdz")
