"""Proves the pure-Swift H3 library equal to Uber's h3 (PyPI h3 4.5.0, the C library 4.5.0).

Drives `.build/release/geo-hexagons check-dump` (one batch per section through stdin/stdout)
and compares every answer with h3 from PyPI. Fails on the first difference and prints it.

  * latLngToCell: ≥1,000,000 points over the whole sphere (uniform, poles, antimeridian,
    icosahedron vertices and edges, cell vertices and edge midpoints, which are the most
    ambiguous points of all), resolutions 0–15: identical ids;
  * cellToLatLng / cellToBoundary: every base cell, every pentagon and every base cell's centre
    child at every resolution, 100,000 random cells: same vertex count, within 1e-9 rad;
  * cellArea (km²): same cells, within 1e-9 relative;
  * gridDisk k ≤ 5 (random cells, pentagons and their surroundings), cellToParent,
    cellToChildren: identical sets;
  * polygonToCells: ≥1,000 random polygons (convex and not, holes, crossing 180°, around
    pentagons, near the poles, 1 m² to 10,000 km²) at resolutions 7–11, plus run-like loops of
    a few km²: identical sets.

Usage: check_h3.py [BINARY]   (default .build/release/geo-hexagons; SEED env var to vary)
"""
import math
import os
import subprocess
import sys
import time

import h3
import numpy as np

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release/geo-hexagons"
SEED = int(os.environ.get("SEED", "13"))
rng = np.random.default_rng(SEED)
R2D = 180.0 / math.pi
D2R = math.pi / 180.0
T0 = time.time()


def die(msg):
    print("FAIL:", msg)
    print("check_h3: FAILED")
    sys.exit(1)


def ask(lines):
    """Sends request lines to one check-dump process, returns the answer lines."""
    data = ("\n".join(lines) + "\n").encode()
    p = subprocess.run([BIN, "check-dump"], input=data, capture_output=True)
    if p.returncode != 0:
        die(f"{BIN} check-dump exited {p.returncode}: {p.stderr.decode()[:500]}")
    out = p.stdout.decode().split("\n")
    if out and out[-1] == "":
        out.pop()
    if len(out) != len(lines):
        die(f"check-dump answered {len(out)} lines for {len(lines)} requests")
    return out


def progress(label):
    print(f"  {label} ({time.time() - T0:.1f}s)", flush=True)


if not os.access(BIN, os.X_OK):
    die(f"{BIN} not found: build it with `swift build -c release --product geo-hexagons`")

# ---------------------------------------------------------------------------------------------
# latLngToCell
# ---------------------------------------------------------------------------------------------
pts = []  # (lat, lng) degrees as Python floats
N_UNIFORM = 800_000
z = rng.uniform(-1, 1, N_UNIFORM)
lat = np.degrees(np.arcsin(z))
lng = rng.uniform(-180, 180, N_UNIFORM)
pts += list(zip(lat.tolist(), lng.tolist()))
# poles and near-poles, the antimeridian and the prime meridian
for _ in range(20_000):
    la = float(rng.choice([90.0, -90.0])) * (1 - float(rng.choice([0, 1e-12, 1e-9, 1e-6, 1e-3])))
    pts.append((la, float(rng.uniform(-180, 180))))
for _ in range(30_000):
    lo = float(rng.choice([180.0, -180.0, 0.0])) + float(rng.choice([0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-5, -1e-5]))
    lo = max(-180.0, min(180.0, lo))
    pts.append((float(rng.uniform(-90, 90)), lo))
# icosahedron vertices (the 12 pentagon centres) and face centres, with tiny offsets
verts = [h3.cell_to_latlng(p) for p in h3.get_pentagons(0)]
for _ in range(20_000):
    la, lo = verts[rng.integers(len(verts))]
    eps = float(rng.choice([0, 1e-13, 1e-10, 1e-7, 1e-4, 1e-2]))
    pts.append((max(-90.0, min(90.0, la + eps * rng.normal())), ((lo + eps * rng.normal() + 180) % 360) - 180))
# icosahedron edges: great-circle points between neighbouring vertices, nudged across
V = np.array([[math.cos(a * D2R) * math.cos(b * D2R), math.cos(a * D2R) * math.sin(b * D2R), math.sin(a * D2R)] for a, b in verts])
pairs = [(i, j) for i in range(12) for j in range(i + 1, 12) if np.dot(V[i], V[j]) > 0.4]
assert len(pairs) == 30, len(pairs)
for _ in range(60_000):
    i, j = pairs[rng.integers(30)]
    t = rng.uniform(0, 1)
    p = V[i] * (1 - t) + V[j] * t
    p = p / np.linalg.norm(p)
    p = p + rng.normal(size=3) * float(rng.choice([0, 1e-14, 1e-11, 1e-8, 1e-5]))
    p = p / np.linalg.norm(p)
    pts.append((math.degrees(math.asin(max(-1.0, min(1.0, p[2])))), math.degrees(math.atan2(p[1], p[0]))))
n_base = len(pts)
# cell vertices and edge midpoints: the points where two or three cells meet
seed_cells = [h3.latlng_to_cell(float(a), float(b), int(r)) for a, b, r in
              zip(np.degrees(np.arcsin(rng.uniform(-1, 1, 12_000))), rng.uniform(-180, 180, 12_000), rng.integers(0, 16, 12_000))]
for c in seed_cells:
    b = h3.cell_to_boundary(c)
    for k in range(len(b)):
        pts.append(b[k])
        a1, a2 = b[k], b[(k + 1) % len(b)]
        if abs(a1[1] - a2[1]) < 180:
            pts.append(((a1[0] + a2[0]) / 2, (a1[1] + a2[1]) / 2))
# resolutions: uniform over 0–15; boundary points use their own cell's resolution and a finer one
res = [i % 16 for i in range(len(pts))]
assert len(pts) >= 1_000_000, len(pts)

expected = [h3.latlng_to_cell(a, b, r) for (a, b), r in zip(pts, res)]
progress(f"latLngToCell: {len(pts):,} points asked of h3")
got = ask([f"c {r} {a!r} {b!r}" for (a, b), r in zip(pts, res)])
for i, (e, g) in enumerate(zip(expected, got)):
    if e != g:
        a, b = pts[i]
        die(f"latLngToCell({a!r}, {b!r}, res {res[i]}): h3 {e}, Swift {g}")
progress(f"latLngToCell: {len(pts):,} points identical ({len(set(expected)):,} distinct cells)")

# ---------------------------------------------------------------------------------------------
# cellToLatLng, cellToBoundary, cellArea
# ---------------------------------------------------------------------------------------------
cells = list(h3.get_res0_cells())
for r in range(16):
    cells += list(h3.get_pentagons(r))
    cells += [h3.cell_to_center_child(b, r) for b in h3.get_res0_cells()]
n_special = len(cells)
rz = rng.uniform(-1, 1, 100_000)
cells += [h3.latlng_to_cell(float(a), float(b), int(r)) for a, b, r in
          zip(np.degrees(np.arcsin(rz)), rng.uniform(-180, 180, 100_000), rng.integers(0, 16, 100_000))]
got_ll = ask([f"l {c}" for c in cells])
got_b = ask([f"b {c}" for c in cells])
got_a = ask([f"a {c}" for c in cells])
max_ll = max_b = max_a = 0.0
exact = 0
for c, gl, gb, ga in zip(cells, got_ll, got_b, got_a):
    e = h3.cell_to_latlng(c)
    g = [float(x) for x in gl.split()]
    d = max(abs(e[0] - g[0]), abs(e[1] - g[1])) * D2R
    max_ll = max(max_ll, d)
    if d > 1e-9:
        die(f"cellToLatLng({c}): h3 {e}, Swift {g} (differ by {d:.3g} rad)")
    eb = h3.cell_to_boundary(c)
    gb = gb.split()
    n = int(gb[0])
    if n != len(eb):
        die(f"cellToBoundary({c}): h3 has {len(eb)} vertices {eb}, Swift {n}: {gb[1:]}")
    vals = [float(x) for x in gb[1:]]
    all_exact = e[0] == g[0] and e[1] == g[1]
    for k, (la, lo) in enumerate(eb):
        dla, dlo = abs(la - vals[2 * k]), abs(lo - vals[2 * k + 1])
        if dlo > 180:  # the same meridian written as ±180
            dlo = 360 - dlo
        d = max(dla, dlo) * D2R
        max_b = max(max_b, d)
        all_exact &= dla == 0 and dlo == 0
        if d > 1e-9:
            die(f"cellToBoundary({c}) vertex {k}: h3 {(la, lo)}, Swift {(vals[2 * k], vals[2 * k + 1])} ({d:.3g} rad)")
    ea = h3.cell_area(c, unit="km^2")
    rel = abs(ea - float(ga)) / ea
    max_a = max(max_a, rel)
    all_exact &= ea == float(ga)
    if rel > 1e-9:
        die(f"cellArea({c}): h3 {ea!r} km², Swift {ga} (relative {rel:.3g})")
    exact += all_exact
progress(f"cellToLatLng/cellToBoundary/cellArea: {len(cells):,} cells ({n_special:,} base cells, pentagons, "
         f"centre children) agree; max differences {max_ll:.2g} rad, {max_b:.2g} rad, {max_a:.2g} rel; "
         f"{exact:,} bit-identical")

# ---------------------------------------------------------------------------------------------
# gridDisk, parents, children
# ---------------------------------------------------------------------------------------------
disk_req = []
for r in range(16):
    for p in h3.get_pentagons(r):
        for k in range(6):
            disk_req.append((p, k))
        # cells around the pentagon, in its distortion zone
        around = sorted(h3.grid_disk(p, 3))
        for c in rng.choice(around, 6, replace=False):
            disk_req.append((str(c), int(rng.integers(0, 6))))
for c in rng.choice(cells[n_special:], 4000, replace=False):
    disk_req.append((str(c), int(rng.integers(0, 6))))
got = ask([f"d {c} {k}" for c, k in disk_req])
for (c, k), g in zip(disk_req, got):
    e = sorted(h3.grid_disk(c, k))
    if g.split() != e:
        gs = set(g.split())
        die(f"gridDisk({c}, {k}): h3 {len(e)} cells, Swift {len(gs)}; only h3 {sorted(set(e) - gs)[:5]}, "
            f"only Swift {sorted(gs - set(e))[:5]} (raw: {g[:200]})")
progress(f"gridDisk: {len(disk_req):,} disks identical (k 0–5, 960 around pentagons)")

par_req, ch_req = [], []
for c in list(cells[:n_special]) + list(rng.choice(cells[n_special:], 20_000, replace=False)):
    r = h3.get_resolution(c)
    par_req.append((c, int(rng.integers(0, r + 1))))
    if r < 15:
        ch_req.append((c, int(min(15, r + rng.integers(0, 4)))))
got = ask([f"p {c} {r}" for c, r in par_req])
for (c, r), g in zip(par_req, got):
    e = h3.cell_to_parent(c, r)
    if e != g:
        die(f"cellToParent({c}, {r}): h3 {e}, Swift {g}")
got = ask([f"ch {c} {r}" for c, r in ch_req])
for (c, r), g in zip(ch_req, got):
    e = sorted(h3.cell_to_children(c, r))
    if g.split() != e:
        die(f"cellToChildren({c}, {r}): h3 {len(e)} cells, Swift {len(g.split())}")
progress(f"cellToParent: {len(par_req):,}, cellToChildren: {len(ch_req):,} identical")

# ---------------------------------------------------------------------------------------------
# polygonToCells
# ---------------------------------------------------------------------------------------------
EARTH_KM = 6371.007180918475
AVG_KM2 = {r: h3.average_hexagon_area(r, unit="km^2") for r in range(16)}


def offset(lat0, lng0, north_km, east_km):
    """Point at local (north, east) km from (lat0, lng0), longitudes wrapped to [-180, 180]."""
    la = lat0 + north_km / EARTH_KM * R2D
    lo = lng0 + east_km / (EARTH_KM * math.cos(lat0 * D2R)) * R2D
    lo = ((lo + 180) % 360) - 180
    return (float(la), float(lo))


def star(lat0, lng0, radius_km, n, convex, rot=0.0):
    ang = np.sort(rng.uniform(0, 2 * math.pi, n)) + rot
    rad = np.full(n, radius_km) if convex else radius_km * rng.uniform(0.35, 1.0, n)
    return [offset(lat0, lng0, r * math.sin(a), r * math.cos(a)) for a, r in zip(ang, rad)]


def run_loop(lat0, lng0, length_km):
    """A runner's closed loop: a smoothed random walk pulled back to its start."""
    n = 200
    steps = rng.normal(size=(n, 2))
    steps = np.cumsum(steps, axis=0)
    steps -= np.outer(np.linspace(0, 1, n), steps[-1])
    ang = np.linspace(0, 2 * math.pi, n, endpoint=False)
    base = np.stack([np.sin(ang), np.cos(ang)], axis=1) * length_km / (2 * math.pi)
    path = base + steps * length_km / 200
    return [offset(lat0, lng0, float(p[0]), float(p[1])) for p in path]


pent_centres = [h3.cell_to_latlng(p) for p in h3.get_pentagons(0)]
polys = []  # (res, outer, holes, kind)
for i in range(1100):
    area_km2 = 10 ** rng.uniform(-6, 4)  # 1 m² … 10,000 km²
    radius = math.sqrt(area_km2 / math.pi)
    kind = ["uniform", "antimeridian", "pentagon", "polar", "uniform"][i % 5]
    if kind == "uniform":
        lat0, lng0 = math.degrees(math.asin(rng.uniform(-1, 1))), rng.uniform(-180, 180)
        lat0 = max(-80.0, min(80.0, lat0))
    elif kind == "antimeridian":
        lat0, lng0 = rng.uniform(-70, 70), float(rng.choice([180.0, -180.0])) - rng.normal() * radius / 200
    elif kind == "pentagon":
        lat0, lng0 = pent_centres[i % 12]
        lat0 += rng.normal() * radius / 300
    else:
        lat0, lng0 = float(rng.choice([1, -1])) * rng.uniform(75, 88), rng.uniform(-180, 180)
        if 90 - abs(lat0) < radius / 111 * 1.5:  # keep the pole outside
            lat0 = math.copysign(90 - radius / 111 * 1.5 - 0.5, lat0)
    ok = [r for r in range(7, 12) if area_km2 / AVG_KM2[r] <= 30_000]
    if not ok:
        continue
    r = int(rng.choice(ok))
    convex = i % 3 == 0
    outer = star(lat0, lng0, radius, int(rng.integers(3, 40)), convex)
    holes = []
    if i % 4 == 1:
        holes.append(star(lat0, lng0, radius * 0.3, int(rng.integers(3, 12)), True))
    polys.append((r, outer, holes, kind))
for i in range(60):
    lat0, lng0 = math.degrees(math.asin(rng.uniform(-0.9, 0.9))), rng.uniform(-180, 180)
    polys.append((int(rng.integers(9, 12)), run_loop(lat0, lng0, rng.uniform(3, 15)), [], "run loop"))
assert len(polys) >= 1000


def loop_text(loop):
    return f"{len(loop)} " + " ".join(f"{a!r} {b!r}" for a, b in loop)


reqs = []
for r, outer, holes, _ in polys:
    reqs.append(f"P {r} " + loop_text(outer) + "".join(" h " + loop_text(h) for h in holes))
got = ask(reqs)
total = 0
kinds = {}
for (r, outer, holes, kind), g in zip(polys, got):
    try:
        e = sorted(h3.polygon_to_cells(h3.LatLngPoly(outer, *holes), r))
    except Exception as ex:  # h3 refuses some degenerate polygons; Swift must refuse them too
        if not g.startswith("E "):
            die(f"polygonToCells res {r} {kind}: h3 raised {ex!r}, Swift answered {g[:100]}")
        continue
    if g.startswith("E "):
        die(f"polygonToCells res {r} {kind} outer {outer} holes {holes}: h3 {len(e)} cells, Swift error {g}")
    gs = g.split()
    if gs != e:
        die(f"polygonToCells res {r} {kind} outer {outer} holes {holes}: h3 {len(e)} cells, Swift {len(gs)}; "
            f"only h3 {sorted(set(e) - set(gs))[:5]}, only Swift {sorted(set(gs) - set(e))[:5]}")
    total += len(e)
    kinds[kind] = kinds.get(kind, 0) + 1
progress(f"polygonToCells: {len(polys):,} polygons identical ({total:,} cells; {kinds})")

print(f"check_h3: ok ({time.time() - T0:.0f}s)")
