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
    cellToChildren: identical sets; gridDistance: identical (and refused where h3 refuses);
    isValidCell on 60,000 near-valid 64-bit values: identical;
  * polygonToCells: ≥1,000 random polygons (convex and not, holes, crossing 180°, around
    pentagons, near the poles, 1 m² to 10,000 km²) at resolutions 7–11, plus run-like loops of
    a few km², and degenerate ones h3 refuses: identical sets (or both refuse);
  * the command-line front: cell / polyfill / disk equal h3, boundary GeoJSON read by shapely
    (valid, counter-clockwise, split at ±180°, closed over the poles), bad input refused.
  * H3.mapRing (the ring the game's app draws from an id): h3's vertices, closed, longitudes
    continuous across ±180°, closed over the pole for the cells that hold one.
ONLY=points,cells,ring,disk,poly,cli runs some sections while debugging.

Usage: check_h3.py [BINARY]   (default .build/release/geo-hexagons; SEED env var to vary)
"""
import math
import os
import subprocess
import sys
import threading
import time

import h3
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release/geo-hexagons"
SEED = int(os.environ.get("SEED", "13"))
rng = np.random.default_rng(SEED)
R2D = 180.0 / math.pi
D2R = math.pi / 180.0
T0 = time.time()
ONLY = os.environ.get("ONLY")  # e.g. ONLY=poly runs one section while debugging


def want(section):
    return ONLY is None or section in ONLY.split(",")


def die(msg):
    print("FAIL:", msg)
    print("check_h3: FAILED")
    sys.exit(1)


def ask_async(lines):
    """Starts a check-dump process on the request lines; returns a function that waits for
    and returns its answer lines (so Swift and h3 work at the same time on two cores)."""
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("out", ask(lines)))
    t.start()

    def result():
        t.join()
        if "out" not in box:
            sys.exit(1)  # ask() already printed the failure
        return box["out"]
    return result


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
    die(f"{BIN} not found: build it with `scripts/swift-release.sh build --product geo-hexagons`")

# ---------------------------------------------------------------------------------------------
# latLngToCell
# ---------------------------------------------------------------------------------------------
if want('points'):
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
    # finite values outside the usual ranges (h3 accepts them: the trigonometry wraps them)
    pts += list(zip(rng.uniform(-200, 200, 3000).tolist(), rng.uniform(-1000, 1000, 3000).tolist()))
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

    pending = ask_async([f"c {r} {a!r} {b!r}" for (a, b), r in zip(pts, res)])
    expected = [h3.latlng_to_cell(a, b, r) for (a, b), r in zip(pts, res)]
    progress(f"latLngToCell: {len(pts):,} points asked of h3")
    got = pending()
    for i, (e, g) in enumerate(zip(expected, got)):
        if e != g:
            a, b = pts[i]
            die(f"latLngToCell({a!r}, {b!r}, res {res[i]}): h3 {e}, Swift {g}")
    progress(f"latLngToCell: {len(pts):,} points identical ({len(set(expected)):,} distinct cells)")

# ---------------------------------------------------------------------------------------------
# cellToLatLng, cellToBoundary, cellArea
# ---------------------------------------------------------------------------------------------
if want('cells'):
    cells = list(h3.get_res0_cells())
    for r in range(16):
        cells += list(h3.get_pentagons(r))
        cells += [h3.cell_to_center_child(b, r) for b in h3.get_res0_cells()]
        # the cells holding the poles and their neighbours (longitudes are touchiest there)
        cells += [c for la in (90.0, -90.0) for c in h3.grid_disk(h3.latlng_to_cell(la, 0.0, r), 1)]
    n_special = len(cells)
    rz = rng.uniform(-1, 1, 100_000)
    cells += [h3.latlng_to_cell(float(a), float(b), int(r)) for a, b, r in
              zip(np.degrees(np.arcsin(rz)), rng.uniform(-180, 180, 100_000), rng.integers(0, 16, 100_000))]
    pending = ask_async([f"l {c}" for c in cells] + [f"b {c}" for c in cells] + [f"a {c}" for c in cells])
    exp = [(h3.cell_to_latlng(c), h3.cell_to_boundary(c), h3.cell_area(c, unit="km^2")) for c in cells]
    got = pending()
    got_ll, got_b, got_a = got[:len(cells)], got[len(cells):2 * len(cells)], got[2 * len(cells):]
    max_ll = max_b = max_a = 0.0
    exact = 0
    for c, gl, gb, ga, (e, eb, ea) in zip(cells, got_ll, got_b, got_a, exp):
        g = [float(x) for x in gl.split()]
        d = max(abs(e[0] - g[0]), abs(e[1] - g[1])) * D2R
        max_ll = max(max_ll, d)
        if d > 1e-9:
            die(f"cellToLatLng({c}): h3 {e}, Swift {g} (differ by {d:.3g} rad)")
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
        rel = abs(ea - float(ga)) / ea
        max_a = max(max_a, rel)
        all_exact &= ea == float(ga)
        if rel > 1e-9:
            die(f"cellArea({c}): h3 {ea!r} km², Swift {ga} (relative {rel:.3g})")
        exact += all_exact
    progress(f"cellToLatLng/cellToBoundary/cellArea: {len(cells):,} cells ({n_special:,} base cells, pentagons, "
             f"centre children, polar cells) agree; max differences {max_ll:.2g} rad, {max_b:.2g} rad, {max_a:.2g} rel; "
             f"{exact:,} bit-identical")

# ---------------------------------------------------------------------------------------------
# H3.mapRing: a cell drawn on a map from its id (the game's map, issue 41)
# ---------------------------------------------------------------------------------------------
if want('ring'):
    ring_cells = list(h3.get_res0_cells())
    for r in range(10):
        ring_cells += list(h3.get_pentagons(r))
        ring_cells += [c for la in (90.0, -90.0) for c in h3.grid_disk(h3.latlng_to_cell(la, 0.0, r), 1)]
        ring_cells += [h3.latlng_to_cell(la, lo, r) for la in (-70.0, -17.0, 0.0, 40.0, 65.0) for lo in (179.999, -179.999)]
    rz = rng.uniform(-1, 1, 20_000)
    ring_cells += [h3.latlng_to_cell(float(a), float(b), int(r)) for a, b, r in
              zip(np.degrees(np.arcsin(rz)), rng.uniform(-180, 180, 20_000), rng.integers(0, 10, 20_000))]
    got = ask([f"r {c}" for c in ring_cells])
    across = polar = 0
    for c, line in zip(ring_cells, got):
        v = [float(x) for x in line.split()[1:]]
        ring = list(zip(v[0::2], v[1::2]))
        eb = h3.cell_to_boundary(c)
        walk = ring[:len(eb) + 1]  # h3's vertices and the first again (a turn on, around a pole)
        if ring[0] != ring[-1] or any(abs(b[0] - a[0]) >= 180 for a, b in zip(walk, walk[1:])):
            die(f"mapRing({c}): not closed, or a jump of 180° or more between vertices: {ring}")
        for k, (la, lo) in enumerate(eb):
            glo, gla = ring[k]
            dlo = (glo - lo) % 360
            dlo = min(dlo, 360 - dlo)
            if abs(gla - la) * D2R > 1e-9 or dlo * D2R > 1e-9:
                die(f"mapRing({c}) vertex {k}: h3 {(la, lo)}, Swift {(gla, glo)}")
        extra = ring[len(eb):-1]
        if extra:
            pole = 90.0 if sum(la for la, _ in eb) > 0 else -90.0
            if not (len(extra) == 3 and abs(abs(extra[0][0] - ring[0][0]) - 360) < 1e-9 and extra[0][1] == ring[0][1]
                    and extra[1] == (extra[0][0], pole) and extra[2] == (ring[0][0], pole)):
                die(f"mapRing({c}): the ring around the pole is not closed over it: {ring}")
            holds = h3.latlng_to_cell(pole, 0.0, h3.get_resolution(c)) == c
            if not holds:
                die(f"mapRing({c}): closed over the pole, which h3 puts in another cell")
            polar += 1
        elif max(x for x, _ in ring) > 180 or min(x for x, _ in ring) < -180:
            across += 1
        elif any(h3.latlng_to_cell(p, 0.0, h3.get_resolution(c)) == c for p in (90.0, -90.0)):
            die(f"mapRing({c}): holds a pole but is not closed over it")
    progress(f"H3.mapRing: {len(ring_cells):,} ring_cells (base ring_cells, pentagons, polar ring_cells, ring_cells across ±180°) = h3's boundary, "
             f"closed, longitudes continuous ({across} past ±180°, {polar} closed over a pole)")

# ---------------------------------------------------------------------------------------------
# gridDisk, parents, children
# ---------------------------------------------------------------------------------------------
if want('disk'):
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

    # gridDistance: cells and members of their disks (k ≤ 12), pentagon neighbourhoods, and
    # random pairs up to a few hundred cells apart (where h3 may refuse: Swift must refuse too)
    dist_req = []
    for c, k in disk_req[:3000]:
        ring = sorted(h3.grid_disk(c, min(12, k + 6)))
        for d in rng.choice(ring, 3):
            dist_req.append((c, str(d)))
    for _ in range(4000):
        r = int(rng.integers(0, 16))
        la, lo = math.degrees(math.asin(rng.uniform(-1, 1))), rng.uniform(-180, 180)
        span = float(rng.choice([0.01, 0.1, 1, 10, 40])) * 7 ** (-r / 2)
        a = h3.latlng_to_cell(la, lo, r)
        b = h3.latlng_to_cell(max(-90, min(90, la + rng.normal() * span)), ((lo + rng.normal() * span + 180) % 360) - 180, r)
        dist_req.append((a, b))
    got = ask([f"g {a} {b}" for a, b in dist_req])
    refused = 0
    for (a, b), g in zip(dist_req, got):
        try:
            e = str(h3.grid_distance(a, b))
        except h3.H3BaseException:
            e = None
            refused += 1
        if (e is None) != g.startswith("E ") or (e is not None and e != g):
            die(f"gridDistance({a}, {b}): h3 {e if e is not None else 'refuses'}, Swift {g}")
    progress(f"gridDistance: {len(dist_req):,} pairs identical ({refused:,} refused by both)")

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

    # isValidCell on near-valid 64-bit values: real cells with one field broken at random
    # (mode, reserved bits, base cell ≥ 122, a digit 7 inside, a digit ≠ 7 after the
    # resolution, a pentagon's deleted k subsequence), and random bit patterns
    cand = []
    for c in rng.choice(cells, 60_000):
        v = int(str(c), 16)
        kind = int(rng.integers(0, 7))
        r = (v >> 52) & 15
        if kind == 0:
            v ^= 1 << int(rng.integers(56, 64))
        elif kind == 1:
            v = (v & ~(127 << 45)) | (int(rng.integers(0, 128)) << 45)
        elif kind == 2 and r > 0:
            d = int(rng.integers(1, r + 1))
            v |= 7 << ((15 - d) * 3)
        elif kind == 3 and r < 15:
            d = int(rng.integers(r + 1, 16))
            v = (v & ~(7 << ((15 - d) * 3))) | (int(rng.integers(0, 7)) << ((15 - d) * 3))
        elif kind == 4 and r > 0:
            # first non-zero digit of a pentagon set to 1
            v = (v & ~(127 << 45)) | (int(rng.choice([4, 14, 24, 38, 49, 58, 63, 72, 83, 97, 107, 117])) << 45)
            d = int(rng.integers(1, r + 1))
            for k in range(1, d):
                v &= ~(7 << ((15 - k) * 3))
            v = (v & ~(7 << ((15 - d) * 3))) | (int(rng.choice([1, 1, 2, 5])) << ((15 - d) * 3))
        elif kind == 5:
            v = int(rng.integers(0, 2**63, dtype=np.int64)) | (int(rng.integers(0, 2)) << 63)
        cand.append(f"{v:x}")
    got = ask([f"v {c}" for c in cand])
    for c, g in zip(cand, got):
        e = "1" if h3.is_valid_cell(c) else "0"
        if e != g:
            die(f"isValidCell({c}): h3 {e}, Swift {g}")
    progress(f"isValidCell: {len(cand):,} near-valid values identical ({sum(g == '1' for g in got):,} valid)")

# ---------------------------------------------------------------------------------------------
# polygonToCells
# ---------------------------------------------------------------------------------------------
if want('poly'):
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
    for i in range(1300):
        # 1 m² … 10,000 km²; most above 0.01 km², where a res 7–11 cell centre can fall inside
        area_km2 = 10 ** (rng.uniform(-6, -2) if i % 7 == 0 else rng.uniform(-2, 4))
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
        ok = [r for r in range(7, 12) if area_km2 / AVG_KM2[r] <= 20_000]
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
    # degenerate ones: h3 refuses a zero-height or zero-width bounding box, Swift must too
    polys.append((9, [(10.0, 20.0), (10.0, 20.1), (10.0, 20.2)], [], "degenerate"))
    polys.append((9, [(10.0, 20.0), (10.1, 20.0), (10.2, 20.0)], [], "degenerate"))
    polys.append((9, [(10.0, 20.0), (10.1, 20.1), (10.2, 20.2)], [], "degenerate"))
    assert len(polys) >= 1000


    def loop_text(loop):
        return f"{len(loop)} " + " ".join(f"{a!r} {b!r}" for a, b in loop)


    reqs = []
    for r, outer, holes, _ in polys:
        reqs.append(f"P {r} " + loop_text(outer) + "".join(" h " + loop_text(h) for h in holes))
    pending = ask_async(reqs)
    exp = []
    for r, outer, holes, _ in polys:
        try:
            exp.append(sorted(h3.polygon_to_cells(h3.LatLngPoly(outer, *holes), r)))
        except Exception as ex:
            exp.append(ex)
    got = pending()
    total = refused = empty = 0
    kinds = {}
    for (r, outer, holes, kind), g, e in zip(polys, got, exp):
        if isinstance(e, Exception):  # h3 refuses some degenerate polygons; Swift must refuse them too
            ex = e
            if not g.startswith("E "):
                die(f"polygonToCells res {r} {kind}: h3 raised {ex!r}, Swift answered {g[:100]}")
            refused += 1
            continue
        if g.startswith("E "):
            die(f"polygonToCells res {r} {kind} outer {outer} holes {holes}: h3 {len(e)} cells, Swift error {g}")
        gs = g.split()
        if gs != e:
            die(f"polygonToCells res {r} {kind} outer {outer} holes {holes}: h3 {len(e)} cells, Swift {len(gs)}; "
                f"only h3 {sorted(set(e) - set(gs))[:5]}, only Swift {sorted(set(gs) - set(e))[:5]}")
        total += len(e)
        empty += not e
        kinds[kind] = kinds.get(kind, 0) + 1
    progress(f"polygonToCells: {len(polys):,} polygons identical ({total:,} cells; {empty} hold no cell centre, "
             f"{refused} refused by both; {kinds})")

# ---------------------------------------------------------------------------------------------
# The command-line front: cell, polyfill, boundary (GeoJSON read by shapely), disk, bad input
# ---------------------------------------------------------------------------------------------
if want("cli"):
    import json
    import shutil
    import tempfile

    import shapely.geometry
    import shapely.validation

    def run(args, stdin=""):
        return subprocess.run([BIN] + args, input=stdin.encode(), capture_output=True)

    pts = [(float(a), float(b)) for a, b in zip(np.degrees(np.arcsin(rng.uniform(-1, 1, 3000))), rng.uniform(-180, 180, 3000))]
    p = run(["cell", "--res", "9"], "".join(f"{a!r},{b!r}\n" for a, b in pts))
    if p.returncode != 0 or p.stdout.decode().split() != [h3.latlng_to_cell(a, b, 9) for a, b in pts]:
        die(f"geo-hexagons cell --res 9 differs from h3 (exit {p.returncode}: {p.stderr.decode()[:200]})")

    # polyfill: a FeatureCollection with a Polygon with a hole and a MultiPolygon (GeoJSON lon/lat, closed rings)
    def ring(lat0, lng0, km, n):
        ang = np.linspace(0, 2 * math.pi, n, endpoint=False)
        pts = [(lat0 + km / 111.2 * math.sin(a), lng0 + km / (111.2 * math.cos(math.radians(lat0))) * math.cos(a)) for a in ang]
        return pts
    polys = [(ring(47.37, 8.54, 3, 40), [ring(47.37, 8.54, 1, 12)]), (ring(-33.9, 151.2, 2, 9), []), (ring(64.1, -21.9, 4, 17), [])]
    gj = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"name": "zurich"}, "geometry": {"type": "Polygon", "coordinates": [
            [[b, a] for a, b in o + o[:1]] for o in [polys[0][0]] + polys[0][1]]}},
        {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPolygon", "coordinates": [
            [[[b, a] for a, b in o + o[:1]]] for o, _ in polys[1:]]}}]}
    with tempfile.NamedTemporaryFile("w", suffix=".geojson", delete=False) as f:
        json.dump(gj, f)
    expected = sorted(set().union(*[set(h3.polygon_to_cells(h3.LatLngPoly(o, *hs), 10)) for o, hs in polys]))
    p = run(["polyfill", "--res", "10", f.name])
    os.unlink(f.name)
    if p.returncode != 0 or p.stdout.decode().split() != expected:
        die(f"geo-hexagons polyfill --res 10 differs from h3: {len(p.stdout.split())} vs {len(expected)} cells "
            f"(exit {p.returncode}: {p.stderr.decode()[:200]})")

    c0 = "8928308280fffff"
    p = run(["disk", "--k", "3", c0])
    if p.returncode != 0 or p.stdout.decode().split() != sorted(h3.grid_disk(c0, 3)):
        die("geo-hexagons disk --k 3 differs from h3")

    # boundary: cells on the antimeridian, the cells holding the poles, pentagons, random cells
    bcells = [h3.latlng_to_cell(float(rng.uniform(-85, 85)), float(rng.choice([180.0, -180.0])), int(r)) for r in rng.integers(0, 16, 300)]
    bcells += [h3.latlng_to_cell(la, 0.0, r) for la in (90.0, -90.0) for r in range(16)]
    bcells += [p for r in range(0, 16, 3) for p in h3.get_pentagons(r)]
    bcells += [h3.latlng_to_cell(a, b, int(r)) for (a, b), r in zip(pts[:500], rng.integers(2, 16, 500))]
    bcells = list(dict.fromkeys(bcells))
    p = run(["boundary"], "\n".join(bcells) + "\n")
    if p.returncode != 0:
        die(f"geo-hexagons boundary exited {p.returncode}: {p.stderr.decode()[:300]}")
    fc = json.loads(p.stdout)
    if fc.get("type") != "FeatureCollection" or len(fc["features"]) != len(bcells):
        die("geo-hexagons boundary: not a FeatureCollection with one feature per cell")
    split = polar = 0
    for c, feat in zip(bcells, fc["features"]):
        if feat.get("type") != "Feature" or feat["properties"].get("h3") != c:
            die(f"boundary feature for {c}: wrong type or h3 property {feat.get('properties')}")
        geom = shapely.geometry.shape(feat["geometry"])
        parts = list(geom.geoms) if geom.geom_type == "MultiPolygon" else [geom]
        if not geom.is_valid:
            die(f"boundary of {c}: invalid {geom.geom_type} ({shapely.validation.explain_validity(geom)})")
        for part in parts:
            if not part.exterior.is_ccw:
                die(f"boundary of {c}: exterior ring is not counter-clockwise (RFC 7946)")
        lons = [x for part in parts for x, _ in part.exterior.coords]
        if min(lons) < -180 or max(lons) > 180:
            die(f"boundary of {c}: longitudes outside [-180, 180]")
        split += geom.geom_type == "MultiPolygon"
        lat, _ = h3.cell_to_latlng(c)
        verts = h3.cell_to_boundary(c)
        holds_pole = any(h3.latlng_to_cell(la, 0.0, h3.get_resolution(c)) == c for la in (90.0, -90.0))
        polar += holds_pole
        if holds_pole:
            lats = [y for part in parts for _, y in part.exterior.coords]
            if max(abs(y) for y in lats) != 90:
                die(f"boundary of {c}: holds a pole but does not reach it")
        elif 3 <= h3.get_resolution(c) <= 11 and abs(lat) < 75:  # ring_area loses digits on tinier cells
            # the polygon drawn with straight lon/lat edges has the cell's area (within 1%)
            from common import area_km2
            a = area_km2(feat["geometry"])
            if abs(a / h3.cell_area(c, unit="km^2") - 1) > 0.01:
                die(f"boundary of {c}: GeoJSON area {a} km² vs h3 {h3.cell_area(c, unit='km^2')} km²")
        # every h3 vertex appears (wrapped into [-180, 180])
        coords = np.array([(y, ((x + 180) % 360) - 180) for part in parts for x, y in part.exterior.coords])
        for la, lo in verts:
            lo = ((lo + 180) % 360) - 180
            if abs(la) == 90:  # a pole: any longitude is it
                lo = coords[np.argmax(np.abs(coords[:, 0]))][1]
            d = np.abs(coords - (la, lo))
            d[:, 1] = np.minimum(d[:, 1], 360 - d[:, 1])
            if d.max(axis=1).min() > 1e-8:
                die(f"boundary of {c}: h3 vertex {(la, lo)} missing from the GeoJSON")
    progress(f"geo-hexagons: cell, polyfill, disk equal h3; boundary GeoJSON of {len(bcells)} cells valid "
             f"({split} split at 180°, {polar} holding a pole)")

    bad = tempfile.mkdtemp()
    for name, text in [("malformed.geojson", '{"type": "FeatureCollection", "features": [}'),
                       ("short-ring.geojson", '{"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [0, 0]]]}'),
                       ("line.geojson", '{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}')]:
        with open(os.path.join(bad, name), "w") as f:
            f.write(text)
    for args, stdin, msg in [
        (["polyfill", "--res", "9", os.path.join(bad, "malformed.geojson")], "", "malformed.geojson: not valid JSON"),
        (["polyfill", "--res", "9", os.path.join(bad, "short-ring.geojson")], "", "ring has fewer than 3 distinct positions"),
        (["polyfill", "--res", "9", os.path.join(bad, "line.geojson")], "", "no Polygon or MultiPolygon geometry"),
        (["polyfill", "--res", "16", os.path.join(bad, "line.geojson")], "", "invalid resolution 16"),
        (["cell", "--res", "16"], "1,2\n", "invalid resolution 16"),
        (["cell", "--res", "5"], "nan,2\n", "must be finite"),
        (["cell", "--res", "5"], "1;2\n", "expected \"lat,lon\""),
        (["boundary"], "xyz\n", "invalid cell id \"xyz\""),
        (["disk", "--k", "1", "8e28308280f18f2"], "", "invalid cell id"),
    ]:
        p = run(args, stdin)
        if p.returncode == 0 or msg not in p.stderr.decode():
            die(f"geo-hexagons {' '.join(args)} with {stdin!r}: exit {p.returncode}, stderr {p.stderr.decode()!r}; expected an error naming {msg!r}")
    shutil.rmtree(bad)
    progress("geo-hexagons: bad input (res 16, NaN, malformed line, malformed id, malformed or empty GeoJSON) "
             "refused with a clear message")

print(f"check_h3: ok ({time.time() - T0:.0f}s)")
