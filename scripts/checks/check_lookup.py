"""Checks the offline lookup (dist/lookup/lookup.bin through `geo-lookup --batch`) against
GEOS (shapely 2) on the same full-detail polygons (build/ingest/countries.geojson):

  * 1,000,000 points: uniform on the sphere, near every kind of boundary (0–2 km), near land
    borders (0–1 km), across the 12-nautical-mile coast buffer (0–30 km from a coast) and
    near cities; the batch answers in input order with `lat,lon,country,city` lines;
  * country: point-in-polygon by an STRtree of the polygons (prepared, vectorised); where
    polygons overlap, the code that sorts first; at sea, the country of the nearest boundary
    by great-circle distance (exact distance to each edge as a great-circle arc, candidate
    edges from the tree) when it is within 22.224 km, else none. Every answer must agree
    except within 100 m of a border, of the buffer's edge or of the line equidistant from
    two countries' coasts; those disagreements are counted and reported;
  * city: on 40,000 of the points, the nearest Natural Earth populated place within 25 km
    by brute force (haversine; equal distance → larger population, then name).

check_lookup.py [INDEX]; GEO_LOOKUP (the executable), INGEST_OUT, NE_PLACES follow the
Makefile. Fixed seed, so a failure reproduces.
"""
import csv
import io
import json
import math
import os
import subprocess
import sys
import time

import numpy as np
import shapely

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import dist, fail, finish, ingest_path, polygons  # noqa: E402

INDEX = sys.argv[1] if len(sys.argv) > 1 else dist("lookup", "lookup.bin")
EXE = os.environ.get("GEO_LOOKUP", ".build/release/geo-lookup")
PLACES = os.environ.get("NE_PLACES", "data/natural-earth/ne_10m_populated_places.geojson")
R = 6371.0088
BUFFER_KM = 22.224
CITY_KM = 25.0
TOL_KM = 0.1
N = 1_000_000
t0 = time.time()


def log(msg):
    print(f"[lookup-check {time.time() - t0:5.1f}s] {msg}", flush=True)


# ---- the polygons ----------------------------------------------------------------------------
features = sorted(json.load(open(ingest_path(), encoding="utf-8"))["features"], key=lambda f: f["id"])
codes = [f["id"] for f in features]
geoms, gowner, seg = [], [], []
for ci, f in enumerate(features):
    for poly in polygons(f["geometry"]):
        geoms.append(shapely.Polygon(poly[0], poly[1:]))
        gowner.append(ci)
        for ring in poly:
            r = np.asarray(ring, dtype=float)
            if len(r) < 2:
                continue
            if not np.array_equal(r[0], r[-1]):
                r = np.vstack([r, r[:1]])
            s = np.hstack([r[:-1], r[1:], np.full((len(r) - 1, 1), ci)])
            seg.append(s[np.any(r[:-1] != r[1:], axis=1)])
gowner = np.asarray(gowner)
seg = np.vstack(seg)  # ax, ay, bx, by, owner
# GEOS's prepared point-in-polygon tests the edges crossing the point's latitude: cut the big
# polygons into 5° tiles so that a test touches a few dozen edges, not thousands
TILE = 5.0
tiles, towner = [], []
for g, o in zip(geoms, gowner):
    x0, y0, x1, y1 = g.bounds
    if x1 - x0 <= TILE and y1 - y0 <= TILE:
        tiles.append(g)
        towner.append(o)
        continue
    for tx in np.arange(math.floor(x0 / TILE) * TILE, x1, TILE):
        for ty in np.arange(math.floor(y0 / TILE) * TILE, y1, TILE):
            c = shapely.clip_by_rect(g, tx, ty, tx + TILE, ty + TILE)
            if not c.is_empty:
                tiles.append(c)
                towner.append(o)
towner = np.asarray(towner)
poly_tree = shapely.STRtree(tiles)
seg_tree = shapely.STRtree(shapely.linestrings(seg[:, :4].reshape(-1, 2, 2)))
log(f"{len(codes)} countries, {len(geoms)} polygons, {len(seg)} boundary edges")

# land borders: edges that two countries share
key = np.round(np.hstack([np.minimum(seg[:, :2], seg[:, 2:4]), np.maximum(seg[:, :2], seg[:, 2:4])]) * 1e6).astype(np.int64)
_, inv, cnt = np.unique(key, axis=0, return_inverse=True, return_counts=True)
shared = np.where(cnt[inv.ravel()] > 1)[0]

# ---- the points ------------------------------------------------------------------------------
rng = np.random.default_rng(20261122)
places = json.load(open(PLACES, encoding="utf-8"))["features"]
city_name = [p["properties"]["NAME"] for p in places]
city_pop = np.array([p["properties"].get("POP_MAX") or 0 for p in places], dtype=float)
# the index keeps micro-degrees
city_lon = np.round(np.array([p["geometry"]["coordinates"][0] for p in places]) * 1e6) / 1e6
city_lat = np.round(np.array([p["geometry"]["coordinates"][1] for p in places]) * 1e6) / 1e6


def around(lat, lon, max_km):
    """Points at a uniform random distance (0..max_km) in a random direction."""
    d = rng.uniform(0, max_km, len(lat)) / R
    b = rng.uniform(0, 2 * math.pi, len(lat))
    p1, l1 = np.radians(lat), np.radians(lon)
    p2 = np.arcsin(np.sin(p1) * np.cos(d) + np.cos(p1) * np.sin(d) * np.cos(b))
    l2 = l1 + np.arctan2(np.sin(b) * np.sin(d) * np.cos(p1), np.cos(d) - np.sin(p1) * np.sin(p2))
    return np.degrees(p2), (np.degrees(l2) + 180) % 360 - 180


def on_edges(idx):
    t = rng.uniform(0, 1, len(idx))
    s = seg[idx]
    return s[:, 1] + t * (s[:, 3] - s[:, 1]), s[:, 0] + t * (s[:, 2] - s[:, 0])


parts = []
n_uniform, n_cities = 660_000, 40_000
z = rng.uniform(-1, 1, n_uniform)
parts.append((np.degrees(np.arcsin(z)), rng.uniform(-180, 180, n_uniform), "uniform"))
parts.append((*around(*on_edges(rng.integers(0, len(seg), 100_000)), 2.0), "near any boundary"))
parts.append((*around(*on_edges(shared[rng.integers(0, len(shared), 50_000)]), 1.0), "near land borders"))
parts.append((*around(*on_edges(rng.integers(0, len(seg), 150_000)), 30.0), "across the coast buffer"))
ci = rng.integers(0, len(places), n_cities)
parts.append((*around(city_lat[ci], city_lon[ci], 30.0), "near cities"))
lat = np.concatenate([p[0] for p in parts])
lon = np.concatenate([p[1] for p in parts])
lat = np.round(np.clip(lat, -89.9999999, 89.9999999), 7)
lon = np.round(lon, 7)
assert len(lat) == N
kinds = np.concatenate([np.full(len(p[0]), k) for k, p in enumerate(parts)])
log(f"{N} points: " + ", ".join(f"{len(p[0])} {p[2]}" for p in parts))

# ---- the lookup, through its command line -----------------------------------------------------
text = "".join(f"{a:.7f},{b:.7f}\n" for a, b in zip(lat, lon))
t1 = time.time()
run = subprocess.run([EXE, "--batch", "--index", INDEX], input=text.encode(), capture_output=True)
if run.returncode != 0:
    print(run.stderr.decode()[-2000:])
    fail(f"{EXE} --batch exited {run.returncode}")
    finish("lookup")
log(f"geo-lookup --batch answered in {time.time() - t1:.1f}s")
rows = list(csv.reader(io.StringIO(run.stdout.decode("utf-8"))))
if len(rows) != N:
    fail(f"{N} lines in, {len(rows)} lines out")
    finish("lookup")
got_lines = [f"{a:.7f},{b:.7f}" for a, b in zip(lat, lon)]
bad_order = [i for i, r in enumerate(rows) if len(r) != 4 or f"{r[0]},{r[1]}" != got_lines[i]]
if bad_order:
    fail(f"{len(bad_order)} output lines are not 'lat,lon,country,city' echoing their input line, first #{bad_order[0]}: {rows[bad_order[0]]}")
    finish("lookup")
code_index = {c: i for i, c in enumerate(codes)}
unknown = sorted({r[2] for r in rows if r[2] and r[2] not in code_index})
if unknown:
    fail(f"unknown country codes in the output: {unknown[:10]}")
got = np.array([code_index.get(r[2], -1) for r in rows])

# ---- reference: GEOS point in polygon --------------------------------------------------------
pts = shapely.points(lon, lat)
pi, gi = poly_tree.query(pts, predicate="intersects")
ref = np.full(N, np.iinfo(np.int64).max)
np.minimum.at(ref, pi, towner[gi])
ref[ref == np.iinfo(np.int64).max] = -1
log(f"GEOS point-in-polygon: {np.count_nonzero(ref >= 0)} points on land")


# ---- great-circle distance to edges (as arcs) -------------------------------------------------
def unit(la, lo):
    la, lo = np.radians(la), np.radians(lo)
    return np.stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)], axis=-1)


def arc_distance_km(pidx, sidx):
    p = unit(lat[pidx], lon[pidx])
    a = unit(seg[sidx, 1], seg[sidx, 0])
    b = unit(seg[sidx, 3], seg[sidx, 2])

    def ang(u, v):
        return np.arctan2(np.linalg.norm(np.cross(u, v), axis=-1), np.sum(u * v, axis=-1))
    n = np.cross(a, b)
    ln = np.linalg.norm(n, axis=-1, keepdims=True)
    nu = n / np.where(ln < 1e-15, 1, ln)
    s = np.sum(p * nu, axis=-1)
    q = p - s[:, None] * nu
    inside = (np.sum(np.cross(a, q) * nu, axis=-1) >= 0) & (np.sum(np.cross(q, b) * nu, axis=-1) >= 0) & (ln[:, 0] >= 1e-15)
    d = np.where(inside, np.arcsin(np.minimum(1, np.abs(s))), np.minimum(ang(p, a), ang(p, b)))
    return d * R


# Edge trees per 2° band of latitude, longitudes scaled by the band's cosine, so that a
# planar radius there is close to a great-circle one (a radius in plain degrees would be
# three times too wide at 70°N and gather thousands of fjord edges).
BAND = 2.0
MARGIN = 0.5  # degrees of latitude beyond the band: more than any reach used here
seg_lat_lo = np.minimum(seg[:, 1], seg[:, 3])
seg_lat_hi = np.maximum(seg[:, 1], seg[:, 3])
_bands = {}


def band(b):
    if b not in _bands:
        lo, hi = -90 + BAND * b - MARGIN, -90 + BAND * (b + 1) + MARGIN
        c0 = math.cos(math.radians(min(89.0, abs(-90 + BAND * (b + 0.5)))))
        c_min = math.cos(math.radians(min(89.9, max(abs(lo), abs(hi)))))
        idx = np.where((seg_lat_hi >= lo) & (seg_lat_lo <= hi))[0]
        xy = seg[idx, :4].reshape(-1, 2, 2).copy()
        xy[:, :, 0] *= c0
        _bands[b] = (shapely.STRtree(shapely.linestrings(xy)), idx, c0, max(1.0, c0 / c_min) * 1.02)
    return _bands[b]


def nearest_two(idx, reach_km):
    """For points idx: distance to the nearest edge and its owner (ties: lower code), and the
    distance to the nearest edge of any other country; inf beyond reach_km."""
    d1 = np.full(len(idx), np.inf)
    o1 = np.full(len(idx), -1)
    d2 = np.full(len(idx), np.inf)
    bands = np.minimum(((lat[idx] + 90) // BAND).astype(int), int(180 / BAND) - 1)
    km_deg = 180 / math.pi / R
    for b in np.unique(bands):
        tree, sidx, c0, factor = band(b)
        locs = np.where(bands == b)[0]
        for start in range(0, len(locs), 4000):
            loc = locs[start:start + 4000]
            sub = idx[loc]
            px, py = lon[sub] * c0, lat[sub]
            # the planar-nearest edge bounds the great-circle nearest from above
            r_max = (reach_km + 1.0) * km_deg * factor + 1e-7
            qn, sn = tree.query_nearest(shapely.points(px, py), max_distance=r_max, all_matches=False)
            t1 = np.full(len(sub), np.inf)
            t1[qn] = arc_distance_km(sub[qn], sidx[sn])
            # + 1 km: an edge's great-circle arc sags poleward of its straight lon/lat line
            # (under 0.7 km for Natural Earth's longest edges, 55 km, even at 85°)
            radius = np.minimum(r_max, (t1 + 1.0) * km_deg * factor + 1e-7)
            qs, ss = [], []
            for shift in (0.0, 360.0, -360.0):
                w = np.arange(len(sub)) if shift == 0 else np.where((lon[sub] + shift >= -180 - 1) & (lon[sub] + shift <= 180 + 1))[0]
                if len(w) == 0:
                    continue
                q2, s2 = tree.query(shapely.points(px[w] + shift * c0, py[w]), predicate="dwithin", distance=radius[w])
                qs.append(w[q2])
                ss.append(sidx[s2])
            qi, si = np.concatenate(qs), np.concatenate(ss)
            if len(qi) == 0:
                continue
            d = arc_distance_km(sub[qi], si)
            own = seg[si, 4].astype(np.int64)
            keep = d <= reach_km
            qi, d, own = qi[keep], d[keep], own[keep]
            if len(qi) == 0:
                continue
            o = np.lexsort((own, d, qi))
            qi, d, own = qi[o], d[o], own[o]
            first = np.r_[True, qi[1:] != qi[:-1]]
            best_own = np.full(len(sub), -1)
            best_own[qi[first]] = own[first]
            d1[loc[qi[first]]] = d[first]
            o1[loc[qi[first]]] = own[first]
            other = own != best_own[qi]
            m = np.full(len(sub), np.inf)
            np.minimum.at(m, qi[other], d[other])
            d2[loc] = m
    return d1, o1, d2


sea = np.where(ref < 0)[0]
d1, o1, d2 = nearest_two(sea, BUFFER_KM + 0.5)
ref_sea = np.where(d1 <= BUFFER_KM, o1, -1)
ref[sea] = ref_sea
log(f"coast buffer: {np.count_nonzero(ref_sea >= 0)} of {len(sea)} points at sea are within {BUFFER_KM} km of a coast")

# ---- compare -------------------------------------------------------------------------------
diff = np.where(got != ref)[0]
near = np.zeros(len(diff), dtype=bool)
if len(diff):
    # distance to the nearest boundary of any country
    db, _, _ = nearest_two(diff, 1.0)
    near |= db <= TOL_KM
    # at sea: the buffer's edge and the line equidistant from two countries' coasts
    pos = {p: k for k, p in enumerate(sea)}
    for j, p in enumerate(diff):
        k = pos.get(p)
        if k is not None and np.isfinite(d1[k]) and (abs(d1[k] - BUFFER_KM) <= TOL_KM or d2[k] - d1[k] <= 2 * TOL_KM):
            near[j] = True
far = diff[~near]
labels = [p[2] for p in parts]
log(f"country: {N - len(diff)} of {N} equal; {int(near.sum())} differ within {TOL_KM * 1000:.0f} m of a border, "
    f"the buffer's edge or an equidistant line; {len(far)} differ farther out")
for k, name in enumerate(labels):
    sel = kinds[diff[near]] == k
    if sel.any():
        print(f"    {name}: {int(sel.sum())} within 100 m")
for p in far[:20]:
    fail(f"country at {lat[p]:.7f},{lon[p]:.7f}: lookup {codes[got[p]] if got[p] >= 0 else '(none)'}, "
         f"GEOS + buffer {codes[ref[p]] if ref[p] >= 0 else '(none)'}")
if len(far) > 20:
    fail(f"... and {len(far) - 20} more country disagreements farther than 100 m from a border")

# ---- nearest city, by brute force ---------------------------------------------------------------
sample = np.concatenate([np.where(kinds == len(parts) - 1)[0][:15_000], rng.choice(np.where(kinds == 0)[0], 15_000, replace=False)])
cu = unit(city_lat, city_lon)
bad_city = 0
ties = 0


def haversine(la, lo, las, los):
    p1, p2 = math.radians(la), np.radians(las)
    h = np.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * np.cos(p2) * np.sin(np.radians(los - lo) / 2) ** 2
    return 2 * R * np.arcsin(np.minimum(1, np.sqrt(h)))


for start in range(0, len(sample), 5000):
    sub = sample[start:start + 5000]
    # every city, by the chord (one matrix product); then the haversine (the lookup's
    # formula) on the few within 1 m of the nearest
    chord = np.sqrt(np.maximum(0, 2 - 2 * (unit(lat[sub], lon[sub]) @ cu.T)))
    approx = 2 * R * np.arcsin(np.minimum(1, chord / 2))
    for j, p in enumerate(sub):
        row = approx[j]
        m0 = row.min()
        want, m = "", m0
        if m0 <= CITY_KM + 0.01:
            cand = np.where(row <= m0 + 0.001)[0]
            dh = haversine(lat[p], lon[p], city_lat[cand], city_lon[cand])
            m = dh.min()
            if m <= CITY_KM:
                best = sorted(range(len(cand)), key=lambda c: (dh[c], -city_pop[cand[c]], city_name[cand[c]]))[0]
                want = city_name[cand[best]]
                ties += int(np.count_nonzero(dh == m) > 1)
        if rows[p][3] != want:
            if abs(m - CITY_KM) < 1e-6:
                continue
            bad_city += 1
            if bad_city <= 10:
                fail(f"city at {lat[p]:.7f},{lon[p]:.7f}: lookup {rows[p][3]!r}, brute force {want!r} ({m:.3f} km)")
if bad_city > 10:
    fail(f"... {bad_city} city disagreements in all")
log(f"city: {len(sample) - bad_city} of {len(sample)} equal to brute force ({ties} exact ties)")
finish("lookup")
