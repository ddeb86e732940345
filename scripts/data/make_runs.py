#!/usr/bin/env python3
"""Generates the territory game's runs (CONTRACTS §8) from a fixed seed.

  make_runs.py                       the sample set → data/territory/runs.geojson
  make_runs.py --edges               loops where lon/lat planes break → data/territory/edge_runs.geojson
  make_runs.py --scale 10000 -o F    the scale test: N runs of ~--fixes fixes each in one city
                                     (written to build/ by `make bench`, never committed)
  make_runs.py --large 340 -o F      the map's scale test: N loops 14–32 km across (~3,000
                                     resolution-9 cells each) around 28 places on every continent
                                     and across ±180° (Fiji, Chukotka), by 300 runners

The sample: loops around real parks and blocks in four cities (Central Park and Bryant Park in
New York, Hyde Park and the Serpentine in London, Vondelpark in Amsterdam, Daan Forest Park in
Taipei), run by six users over the week 2026-11-15..21 with correlated GPS noise and per-fix
accuracy; later loops steal cells from earlier ones; a figure-eight; and one run of every kind
the rules reject (too short, too brief, too few fixes, not closed, speed spike, teleport, bad
accuracy), each built with a wide margin so that it fails exactly the rule it is named after.
The run's kind is recorded in `properties.sample_kind` (ignored by the stage, read by the
checks). Same seed, same bytes.
"""
import argparse
import json
import math
import os
import random
import sys
import uuid
from datetime import datetime, timedelta, timezone

SEED = 20261121
WGS84_A = 6378137.0
WGS84_F = 1 / 298.257223563


def radii(lat_deg):
    """Meridional and prime-vertical radii of curvature (m) of WGS 84 at a latitude."""
    e2 = WGS84_F * (2 - WGS84_F)
    s = math.sin(math.radians(lat_deg))
    w = math.sqrt(1 - e2 * s * s)
    return WGS84_A * (1 - e2) / w ** 3, WGS84_A / w


def offset(lat, lon, east_m, north_m):
    """Moves a point by a local east/north offset in metres (ellipsoidal radii; the runs are
    a few km across, so this is far below the GPS noise)."""
    m, n = radii(lat)
    return (lat + math.degrees(north_m / m),
            lon + math.degrees(east_m / (n * math.cos(math.radians(lat)))))


def dist_m(a, b):
    """Local ellipsoidal distance between (lat, lon) points, for the generator's own sanity
    checks (the stage uses PROJ's geodesic)."""
    m, n = radii((a[0] + b[0]) / 2)
    dn = math.radians(b[0] - a[0]) * m
    de = math.radians(b[1] - a[1]) * n * math.cos(math.radians((a[0] + b[0]) / 2))
    return math.hypot(dn, de)


# --- shapes: closed curves as functions of arc fraction u ∈ [0, 1) → (east, north) metres ---

def ellipse(a_m, b_m, bearing_deg, start_deg=0.0, clockwise=False, k=2000):
    """An ellipse with semi-axis a_m along `bearing_deg` (clockwise from north)."""
    br = math.radians(bearing_deg)
    # sample densely (k points), then reparametrise by arc length so the runner keeps an even pace
    pts = []
    for i in range(k + 1):
        t = math.radians(start_deg) + (-1 if clockwise else 1) * 2 * math.pi * i / k
        x, y = a_m * math.cos(t), b_m * math.sin(t)       # x along the axis, y across it
        pts.append((x * math.sin(br) + y * math.cos(br), x * math.cos(br) - y * math.sin(br)))
    return polyline(pts)


def polyline(pts):
    """Arc-length parametrisation of a polyline of (east, north) points."""
    cum = [0.0]
    for p, q in zip(pts, pts[1:]):
        cum.append(cum[-1] + math.hypot(q[0] - p[0], q[1] - p[1]))
    total = cum[-1]

    def at(u):
        s = (u % 1.0) * total
        lo, hi = 0, len(cum) - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if cum[mid] <= s:
                lo = mid
            else:
                hi = mid
        seg = cum[hi] - cum[lo]
        f = 0 if seg == 0 else (s - cum[lo]) / seg
        return (pts[lo][0] + f * (pts[hi][0] - pts[lo][0]), pts[lo][1] + f * (pts[hi][1] - pts[lo][1]))
    at.length = total
    return at


def corners_loop(center, corners):
    """A loop through (lat, lon) corners, back to the first, as local metres around center."""
    m, n = radii(center[0])
    c = math.cos(math.radians(center[0]))
    pts = [(math.radians(lon - center[1]) * n * c, math.radians(lat - center[0]) * m) for lat, lon in corners]
    return polyline(pts + [pts[0]])


def figure_eight(a_m, b_m, bearing_deg):
    """x = a·sin t, y = b·sin 2t: starts at the crossing, runs one lobe, crosses, runs the other."""
    br = math.radians(bearing_deg)
    pts = []
    for i in range(2001):
        t = 2 * math.pi * i / 2000
        x, y = a_m * math.sin(t), b_m * math.sin(2 * t)
        pts.append((x * math.sin(br) + y * math.cos(br), x * math.cos(br) - y * math.sin(br)))
    return polyline(pts)


class Noise:
    """GPS error as a slowly varying (AR(1)) offset, the way a phone's fix wanders."""

    def __init__(self, rng, sigma_m, rho=0.9):
        self.rng, self.sigma, self.rho = rng, sigma_m, rho
        self.e = self.n = 0.0

    def step(self):
        s = self.sigma * math.sqrt(1 - self.rho ** 2)
        self.e = self.rho * self.e + self.rng.gauss(0, s)
        self.n = self.rho * self.n + self.rng.gauss(0, s)
        return self.e, self.n


def iso(t):
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_uuid(rng):
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def run_feature(rng, user, center, shape, start, *, speed=3.0, interval=3, laps=1.0, sigma=3.0,
                acc=(4.0, 1.5), end_gap_m=0.0, kind="valid", edits=None, start_u=0.0):
    """One run: the runner follows `shape` around `center` at `speed` m/s, a fix every
    `interval` s, for `laps` laps, ending `end_gap_m` short of the start. `edits(fixes)` may
    alter the fix list [(east, north, t_offset_s, accuracy)] before it is written."""
    length = shape.length * laps - end_gap_m
    n = max(2, int(round(length / speed / interval)) + 1)
    noise = Noise(rng, sigma)
    fixes = []
    for i in range(n):
        s = min(i * speed * interval, length)
        e, no = shape(start_u + s / shape.length)
        ne, nn = noise.step()
        a = max(2.0, rng.gauss(*acc))
        fixes.append([e + ne, no + nn, i * interval, round(a, 1)])
    if edits:
        fixes = edits(fixes)
    coords, times, accs = [], [], []
    for e, no, ts, a in fixes:
        lat, lon = offset(center[0], center[1], e, no)
        coords.append([round(lon, 7), round(lat, 7)])
        times.append(iso(start + timedelta(seconds=ts)))
        accs.append(a)
    return {"type": "Feature", "id": new_uuid(rng),
            "geometry": {"type": "LineString", "coordinates": coords},
            "properties": {"user_id": user, "times": times, "accuracy_m": accs, "sample_kind": kind}}


def t(day, hh, mm, ss=0):
    return datetime(2026, 11, day, hh, mm, ss, tzinfo=timezone.utc)


# Real places (WGS 84 degrees). Each is checked against a map by eye, to within ~100 m.
CENTRAL_PARK = (40.7829, -73.9654)
CENTRAL_PARK_CORNERS = [(40.7650, -73.9738), (40.7684, -73.9812),      # 59th St: 5th Ave, Columbus Circle
                        (40.7995, -73.9585), (40.7963, -73.9504)]      # 110th St: CPW, 5th Ave
RESERVOIR = (40.7853, -73.9626)          # Jacqueline Kennedy Onassis Reservoir (its 2.5 km track)
BRYANT_PARK = (40.7537, -73.9832)        # the block 40th–42nd St, 5th–6th Ave
MANHATTAN_GRID = 29.0                    # the avenues run 29° east of true north
HYDE_PARK = (51.5075, -0.1650)
HYDE_PARK_CORNERS = [(51.5032, -0.1530), (51.5125, -0.1592),           # Hyde Park Corner, Marble Arch
                     (51.5113, -0.1745), (51.5024, -0.1738)]           # Lancaster Gate, Alexandra Gate
SERPENTINE = (51.5050, -0.1665)
VONDELPARK = (52.3584, 4.8683)           # the park runs 66° east of north, about 1.6 km long
DAAN_PARK = (25.0298, 121.5355)          # Daan Forest Park, Taipei
DAAN_CORNERS = [(25.0327, 121.5339), (25.0327, 121.5371), (25.0269, 121.5371), (25.0269, 121.5339)]


def sample(rng):
    users = {name: new_uuid(rng) for name in ["ana", "ben", "chen", "dara", "emil", "fumi"]}
    U = users
    runs = []
    add = runs.append
    reservoir = ellipse(500, 290, MANHATTAN_GRID, start_deg=200)
    park = corners_loop(CENTRAL_PARK, CENTRAL_PARK_CORNERS)

    # New York
    add(run_feature(rng, U["ana"], RESERVOIR, reservoir, t(15, 12, 1, 7), speed=2.9, kind="valid"))
    add(run_feature(rng, U["chen"], CENTRAL_PARK, park, t(16, 11, 30, 2), speed=3.3, interval=4, kind="valid"))
    add(run_feature(rng, U["ben"], RESERVOIR, reservoir, t(17, 11, 45, 40), speed=3.1, kind="valid: steals the reservoir"))
    # the block around Bryant Park and the library: a rectangle along the Manhattan grid
    g = math.radians(MANHATTAN_GRID)
    ax, cr = (math.sin(g), math.cos(g)), (math.cos(g), -math.sin(g))  # along the avenues, along the streets
    rect = [(sx * 140 * cr[0] + sy * 85 * ax[0], sx * 140 * cr[1] + sy * 85 * ax[1])
            for sx, sy in [(-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1)]]
    bryant = polyline(rect)
    add(run_feature(rng, U["ana"], BRYANT_PARK, bryant, t(18, 17, 20, 11), speed=2.6, interval=2, laps=3, kind="valid: a block, three laps"))
    # not closed: Columbus Circle up the west drive, ending 1.6 km from the start
    add(run_feature(rng, U["dara"], CENTRAL_PARK, park, t(19, 12, 5, 0), speed=3.0, laps=0.3, start_u=0.05, kind="invalid: not closed"))

    # speed spike: a reservoir lap with 39 s on a bike share at 16 m/s (58 km/h)
    spike = run_feature(rng, U["emil"], RESERVOIR, reservoir, t(20, 13, 0, 30), speed=3.0, kind="invalid: speed spike",
                        edits=lambda fx: speed_burst(fx, reservoir, 100, 13, 16.0, 3.0, 3))
    add(spike)

    # London
    hyde = corners_loop(HYDE_PARK, HYDE_PARK_CORNERS)
    serp = ellipse(640, 190, 104, start_deg=180)
    add(run_feature(rng, U["ben"], HYDE_PARK, hyde, t(15, 8, 10, 0), speed=3.2, interval=4, kind="valid"))
    add(run_feature(rng, U["emil"], SERPENTINE, serp, t(19, 7, 45, 15), speed=3.4, kind="valid: steals the Serpentine"))

    # bad fixes dropped: five fixes at 80 m accuracy, thrown 300 m off; without the accuracy
    # rule they would be speed spikes and teleports, with it the run is valid
    def wild(fixes):
        for i in range(200, 205):
            fixes[i][0] += 300.0
            fixes[i][3] = 80.0
        return fixes
    add(run_feature(rng, U["fumi"], SERPENTINE, serp, t(20, 9, 2, 0), speed=3.0, kind="valid: inaccurate fixes dropped", edits=wild))

    # teleport: one fix 3.5 km away reported at 6 m accuracy (a position glitch the phone trusts)
    def glitch(fixes):
        fixes[150][0] += 3500.0
        fixes[150][3] = 6.0
        return fixes
    add(run_feature(rng, U["dara"], HYDE_PARK, hyde, t(21, 8, 0, 0), speed=3.0, interval=4, kind="invalid: teleport", edits=glitch))

    # bad accuracy: under heavy tree cover, all but 8 fixes (start and end among them) worse than 50 m
    def cover(fixes):
        for i, f in enumerate(fixes):
            f[3] = 6.0 if i % 40 == 0 or i == len(fixes) - 1 else round(60.0 + (i % 7) * 9.5, 1)
        return fixes
    add(run_feature(rng, U["ana"], SERPENTINE, serp, t(21, 16, 30, 0), speed=3.0, kind="invalid: bad accuracy", edits=cover))

    # Amsterdam
    vondel = ellipse(800, 120, 66, start_deg=180)
    add(run_feature(rng, U["chen"], VONDELPARK, vondel, t(16, 7, 0, 0), speed=3.1, kind="valid"))
    add(run_feature(rng, U["fumi"], VONDELPARK, figure_eight(760, 95, 66), t(20, 7, 15, 0), speed=3.0, kind="valid: figure-eight"))
    # too short: one slow, accurately recorded lap of a 60 m path around a playground
    add(run_feature(rng, U["ben"], (52.3575, 4.8660), ellipse(11, 8, 66), t(18, 15, 0, 0), speed=1.0, interval=4,
                    sigma=0.4, acc=(3.0, 0.3), kind="invalid: too short"))
    # too brief: a 160 m loop in 25 s (the phone paused most of the run)
    add(run_feature(rng, U["dara"], (52.3590, 4.8710), ellipse(30, 21, 66), t(18, 16, 0, 0), speed=6.4, interval=1,
                    sigma=0.5, acc=(3.0, 0.3), kind="invalid: too brief"))
    # too few fixes: a 700 m loop recorded in battery-saver mode, a fix every 30 s
    add(run_feature(rng, U["emil"], (52.3570, 4.8630), ellipse(140, 80, 66), t(18, 17, 0, 0), speed=2.8, interval=30,
                    sigma=2.0, kind="invalid: too few fixes"))

    # Taipei
    daan = corners_loop(DAAN_PARK, DAAN_CORNERS)
    south = corners_loop(DAAN_PARK, [(25.0297, 121.5339), (25.0297, 121.5371), (25.0269, 121.5371), (25.0269, 121.5339)])
    add(run_feature(rng, U["dara"], DAAN_PARK, daan, t(17, 22, 30, 0), speed=2.8, kind="valid"))
    add(run_feature(rng, U["ana"], DAAN_PARK, daan, t(20, 23, 10, 0), speed=3.0, kind="valid: steals Daan Park"))
    add(run_feature(rng, U["emil"], DAAN_PARK, south, t(21, 10, 5, 0), speed=3.2, interval=2, kind="valid: steals the south half"))
    # all fixes worse than 50 m: nothing remains
    def fog(fixes):
        for f in fixes:
            f[3] = 65.0
        return fixes
    add(run_feature(rng, U["fumi"], DAAN_PARK, daan, t(21, 11, 0, 0), speed=3.0, kind="invalid: bad accuracy (all fixes)", edits=fog))

    # London again, last so that every run above keeps its random draws: a loop from
    # Knightsbridge up into Hyde Park's south edge. It starts south of a resolution-3 H3 border
    # that runs along the park (83194a… below, 83195d… above) and steals park cells claimed
    # by a run that started north of it: the case where two shards claim one cell.
    knightsbridge = corners_loop(HYDE_PARK, [(51.4975, -0.1585), (51.4975, -0.1540), (51.5055, -0.1540),
                                             (51.5055, -0.1640), (51.4975, -0.1640)])
    add(run_feature(rng, U["dara"], HYDE_PARK, knightsbridge, t(21, 18, 40, 0), speed=3.1, kind="valid: crosses a resolution-3 border"))
    return runs


def speed_burst(fixes, shape, first, count, fast, slow, interval):
    """Re-samples fixes so that `count` fixes from `first` on move at `fast` m/s, the rest at
    `slow`: the runner covers more track in the same time, then goes on."""
    out = []
    s = 0.0
    base = [shape(i * slow * interval / shape.length) for i in range(len(fixes))]
    for i, f in enumerate(fixes):
        if i > 0:
            s += (fast if first <= i < first + count else slow) * interval
        e, n = shape(s / shape.length)
        de, dn = f[0] - base[i][0], f[1] - base[i][1]   # keep the fix's own GPS noise
        out.append([e + de, n + dn, f[2], f[3]])
        if s >= shape.length:
            break
    return out


def scale(rng, count, fixes_per_run):
    """`count` runs over one city (a 40 × 40 km box around Berlin), vectorised with numpy:
    ellipse loops of 0.3–3.6 km with about `fixes_per_run` fixes at a runner's pace and 3 m GPS
    noise, 2,000 users, over one week; 3 % not closed and 3 % with a teleport. Yields each
    run's JSON text."""
    import numpy as np
    nrng = np.random.default_rng(rng.getrandbits(64))
    users = [new_uuid(rng) for _ in range(2000)]
    city = (52.5200, 13.4050)
    m, n = radii(city[0])
    week0 = int(t(15, 0, 0).timestamp())
    for k in range(count):
        ce, cn = rng.uniform(-20000, 20000), rng.uniform(-20000, 20000)
        a = rng.uniform(150, 900)
        b = a * rng.uniform(0.3, 1.0)
        br = math.radians(rng.uniform(0, 180))
        nf = int(fixes_per_run * rng.uniform(0.9, 1.1))
        r = rng.random()
        laps = 0.7 if r < 0.03 else 1.0
        th = math.radians(rng.uniform(0, 360)) + np.linspace(0, 2 * math.pi * laps, nf)
        x, y = a * np.cos(th), b * np.sin(th)
        # GPS error that wanders: white noise smoothed over 10 s (σ 3 m), as a phone's fix does
        kern = np.ones(10) / math.sqrt(10)
        e = ce + x * math.sin(br) + y * math.cos(br) + np.convolve(nrng.normal(0, 3.0, nf + 9), kern, "valid")
        no = cn + x * math.cos(br) - y * math.sin(br) + np.convolve(nrng.normal(0, 3.0, nf + 9), kern, "valid")
        if 0.03 <= r < 0.06:
            e[nf // 2] += 2500.0
        lat = city[0] + np.degrees(no / m)
        lon = city[1] + np.degrees(e / (n * math.cos(math.radians(city[0]))))
        acc = np.round(np.clip(nrng.normal(4.0, 1.5, nf), 2.0, None), 1)
        start = week0 + rng.randrange(7 * 86400)
        # A runner's pace, about 3 m/s (no stretch faster than a world record, CONTRACTS §8c):
        # a fix every `step` seconds, the loop's length (Ramanujan's ellipse perimeter) over the fixes.
        perimeter = math.pi * (3 * (a + b) - math.sqrt((3 * a + b) * (a + 3 * b))) * laps
        step = max(1, round(perimeter / (nf * 3.0)))
        times = [datetime.fromtimestamp(start + i * step, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") for i in range(nf)]
        coords = ",".join(f"[{o:.7f},{l:.7f}]" for o, l in zip(lon.tolist(), lat.tolist()))
        yield ('{"type":"Feature","id":"%s","geometry":{"type":"LineString","coordinates":[%s]},'
               '"properties":{"user_id":"%s","times":["%s"],"accuracy_m":[%s]}}'
               % (new_uuid(rng), coords, rng.choice(users), '","'.join(times), ",".join(map(str, acc.tolist())))), nf


def sphere_direct(lat, lon, azimuth_deg, dist_m, r=6371008.8):
    """The point dist_m from (lat, lon) along azimuth_deg on a sphere (the edge runs need
    poles and ±180°, where the local offset above breaks down); longitude in −180…180."""
    p1, l1, az, d = math.radians(lat), math.radians(lon), math.radians(azimuth_deg), dist_m / r
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(az))
    l2 = l1 + math.atan2(math.sin(az) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    lon2 = (math.degrees(l2) + 180) % 360 - 180
    return math.degrees(p2), lon2


def edges(rng):
    """Valid loops where a plane of longitude and latitude breaks: across ±180° on Taveuni
    (Fiji) and in Chukotka, a figure-eight across ±180°, a loop 1 km from the North Pole (its
    longitudes span half the globe) and a lap around the South Pole (the Race Around the World
    at the station). Shapes are ellipses about a centre, on a sphere; `properties.edge_kind`
    names them (the stage ignores it)."""
    user = "e0000000-0000-4000-8000-00000000000%d"
    start = int(t(21, 6, 0).timestamp())
    def run(kind, k, pts):
        times = [datetime.fromtimestamp(start + 3600 * k + i, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") for i in range(len(pts))]
        return {"type": "Feature", "id": "e0000000-0000-4000-8000-%012d" % (k + 1),
                "geometry": {"type": "LineString", "coordinates": [[round(lo, 7), round(la, 7)] for la, lo in pts]},
                "properties": {"user_id": user % (k % 3 + 1), "times": times, "accuracy_m": [4.0] * len(pts), "edge_kind": kind}}
    def loop(centre, a, b, n, eight=False):
        pts = []
        for i in range(n + 1):
            th = 2 * math.pi * (i % n) / n
            x, y = a * math.sin(th), b * (math.sin(2 * th) if eight else math.cos(th))
            pts.append(sphere_direct(centre[0], centre[1], math.degrees(math.atan2(x, y)), math.hypot(x, y)))
        return pts
    pole = [(-90 + 600 / 111_000, -180 + 360 * i / 1000) for i in range(1000)] + [(-90 + 600 / 111_000, -180.0)]
    pole = [(la, (lo + 180) % 360 - 180) for la, lo in pole]
    yield run("taveuni", 0, loop((-16.805, 179.9995), 330, 330, 600))
    yield run("chukotka", 1, loop((67.5, -179.998), 500, 300, 900))
    yield run("antimeridian-figure-eight", 2, loop((-16.79, 180.0), 400, 200, 800, eight=True))
    yield run("north-pole", 3, loop((89.99, 45.0), 400, 400, 900))
    yield run("south-pole-lap", 4, pole)


PLACES = [(51.50, -0.12), (48.85, 2.35), (52.52, 13.40), (40.42, -3.70), (41.90, 12.50), (52.23, 21.01),
          (59.33, 18.07), (40.71, -74.00), (41.88, -87.63), (34.05, -118.25), (19.43, -99.13), (-23.55, -46.63),
          (-34.60, -58.38), (6.52, 3.38), (-1.29, 36.82), (-33.92, 18.42), (30.04, 31.24), (55.75, 37.62),
          (28.61, 77.21), (19.08, 72.88), (39.90, 116.40), (35.68, 139.69), (-33.87, 151.21), (-36.85, 174.76),
          (-16.80, 179.95), (61.22, -149.90), (65.00, -179.90), (64.15, -21.94)]


def large(rng, count):
    """Big loops for the map at every zoom: each an ellipse of semi-axes 7–16 km and 0.6–1 of
    that, its centre within 60 km of one of PLACES (so loops overlap and steal), run at about
    12 km/h with a fix every 15 s (50 m apart), on a sphere (two places straddle ±180°)."""
    users = [new_uuid(rng) for _ in range(300)]
    start0 = int(t(15, 0, 0).timestamp())
    for k in range(count):
        la0, lo0 = PLACES[k % len(PLACES)]
        la, lo = sphere_direct(la0, lo0, rng.uniform(0, 360), rng.uniform(0, 60000))
        a = rng.uniform(7000, 16000)
        b = a * rng.uniform(0.6, 1.0)
        turn = rng.uniform(0, 2 * math.pi)
        n = int(2 * math.pi * math.sqrt((a * a + b * b) / 2) / 50)
        pts = []
        for i in range(n + 1):
            th = 2 * math.pi * (i % n) / n
            x, y = a * math.sin(th), b * math.cos(th)
            x, y = x * math.cos(turn) - y * math.sin(turn), x * math.sin(turn) + y * math.cos(turn)
            pts.append(sphere_direct(la, lo, math.degrees(math.atan2(x, y)), math.hypot(x, y)))
        start = start0 + rng.randrange(7 * 86400)
        times = [datetime.fromtimestamp(start + 15 * i, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") for i in range(len(pts))]
        yield {"type": "Feature", "id": new_uuid(rng),
               "geometry": {"type": "LineString", "coordinates": [[round(q, 7), round(p, 7)] for p, q in pts]},
               "properties": {"user_id": rng.choice(users), "times": times, "accuracy_m": [4.0] * len(pts)}}


def write(features, path):
    """Writes the features (any iterable, streamed) as a FeatureCollection, one per line;
    returns (runs, fixes)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    runs = fixes = 0
    with open(tmp, "w", encoding="utf-8") as f:
        f.write('{"type": "FeatureCollection", "features": [')
        for feat in features:
            f.write(",\n" if runs else "\n")
            if isinstance(feat, tuple):         # (JSON text, fix count) from scale()
                f.write(feat[0])
                fixes += feat[1]
            else:
                f.write(json.dumps(feat, separators=(",", ":")))
                fixes += len(feat["geometry"]["coordinates"])
            runs += 1
        f.write("\n]}\n")
    os.replace(tmp, path)
    return runs, fixes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", default=None)
    ap.add_argument("--scale", type=int, default=0, help="generate N runs for the scale test instead of the sample")
    ap.add_argument("--fixes", type=int, default=1000, help="fixes per run in the scale test")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--edges", action="store_true", help="the edge runs (±180°, poles) instead of the sample")
    ap.add_argument("--large", type=int, default=0, help="generate N big loops for the map's scale test instead of the sample")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    if a.edges:
        feats = edges(rng)
        out = a.output or os.path.join(os.path.dirname(__file__), "..", "..", "data", "territory", "edge_runs.geojson")
    elif a.large:
        feats = large(rng, a.large)
        out = a.output or "build/bench/territory_large.geojson"
    elif a.scale:
        feats = scale(rng, a.scale, a.fixes)
        out = a.output or "build/bench/territory_runs.geojson"
    else:
        feats = sample(rng)
        out = a.output or os.path.join(os.path.dirname(__file__), "..", "..", "data", "territory", "runs.geojson")
    runs, fixes = write(feats, out)
    print(f"make_runs: {runs} runs, {fixes} fixes → {os.path.normpath(out)}", file=sys.stderr)


if __name__ == "__main__":
    main()
