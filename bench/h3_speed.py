"""Speed of the Swift H3 library next to the Python reference (h3 4.5.0 on PyPI).

Runs `geo-hexagons bench` (in-process timings, CPU time of one thread, so neighbours on a
shared machine do not count) and times the same operations through h3-py. h3-py's numbers
include Python's per-call overhead (argument conversion, string ids, the interpreter loop),
so they measure what a Python caller gets, not the C library alone.

Targets (issue #13): latLngToCell ≥ 2,000,000 points/s, cellToBoundary ≥ 1,000,000 cells/s,
polygonToCells of a 5 km² loop at res 9 < 0.5 ms. Exits 1 if a target is missed.

Usage: bench/h3_speed.py [BINARY]   (default .build/release/geo-hexagons)
"""
import math
import re
import subprocess
import sys
import time

import h3
import numpy as np

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release/geo-hexagons"

out = subprocess.run([BIN, "bench"], capture_output=True, text=True, check=True).stdout
ll = float(re.search(r"latLngToCell: (\d+)", out).group(1))
bd = float(re.search(r"cellToBoundary: (\d+)", out).group(1))
pm = float(re.search(r"res 9: ([\d.]+) ms", out).group(1))

rng = np.random.default_rng(1)
n = 200_000
lat = np.degrees(np.arcsin(rng.uniform(-1, 1, n))).tolist()
lng = rng.uniform(-180, 180, n).tolist()
res = [i % 16 for i in range(n)]
t0 = time.process_time()
cells = [h3.latlng_to_cell(a, b, r) for a, b, r in zip(lat, lng, res)]
py_ll = n / (time.process_time() - t0)
t0 = time.process_time()
for c in cells:
    h3.cell_to_boundary(c)
py_bd = n / (time.process_time() - t0)

# the same ~5 km² loop as `geo-hexagons bench`: a wobbly circle of radius ≈1.26 km in Zürich
loop = []
for i in range(64):
    a = i / 64 * 2 * math.pi
    r = 1.26 * (1 + 0.05 * math.sin(5 * a)) / 6371.0
    la = math.radians(47.3769) + r * math.sin(a)
    lo = math.radians(8.5417) + r * math.cos(a) / math.cos(math.radians(47.3769))
    loop.append((math.degrees(la), math.degrees(lo)))
poly = h3.LatLngPoly(loop)
reps = 200
t0 = time.process_time()
for _ in range(reps):
    got = h3.polygon_to_cells(poly, 9)
py_pm = (time.process_time() - t0) / reps * 1000

rows = [
    ("latLngToCell (points/s, res 0-15)", f"{ll:,.0f}", f"{py_ll:,.0f}", ll >= 2e6, "≥ 2,000,000"),
    ("cellToBoundary (cells/s)", f"{bd:,.0f}", f"{py_bd:,.0f}", bd >= 1e6, "≥ 1,000,000"),
    (f"polygonToCells 5 km² loop res 9 (ms, {len(got)} cells)", f"{pm:.3f}", f"{py_pm:.3f}", pm < 0.5, "< 0.5"),
]
print(f"{'operation':48} {'Swift H3':>14} {'h3-py 4.5.0':>14}  target")
for name, s, p, ok, target in rows:
    print(f"{name:48} {s:>14} {p:>14}  {target} {'ok' if ok else 'MISSED'}")
print("(CPU time of one thread; h3-py figures include Python's per-call overhead)")
sys.exit(0 if all(r[3] for r in rows) else 1)
