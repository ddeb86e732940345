#!/usr/bin/env python3
"""The fair-play comparison set (issue 38, CONTRACTS §8c): honest runs with realistic GPS noise
and cheats of every kind, in submission order, from a fixed seed (same seed, same bytes).

  fair_play_runs.py OUT_DIR [--runs N] [--seed S]

writes OUT_DIR/runs.geojson (a FeatureCollection, one Feature per run, §8 with the optional
properties.simulated) and OUT_DIR/kinds.tsv (run_id, user_id, kind, expected: the code of the
first §8c reason the run must be refused for, or "valid"; loop: the park loop of an honest run,
"-" for the others).

No Debian or PyPI package ships GPS traces of runs (gpxpy's source ships three hikes and rides,
fitparse none), so the honest runs are generated, each one a runner on one of their home loops
(parks 1.2-3.5 km round) on another day:
  - pace 7-16 km/h, varying along the run (+-10 %), 1-3 laps, mostly the runner's usual
    direction, from near their front door and back to it;
  - a fix every 1 s (a third of the runners) or every 2-5 s;
  - GPS error: a wandering offset (first-order autoregressive, 3 m, a minute's correlation, as a
    phone's filtered fix wanders) plus 0.8 m of jitter; accuracy_m 3-12 m, now and then 15-30 m;
    2 % of fixes bad (30-100 m off, accuracy 60-150 m: dropped by the rules);
  - pauses (a red light: 10-90 s standing, the fixes still coming), tunnels (15-40 s without a
    fix), a sprint finish (the last 300 m at 1.4 times the pace).
Cheats: a long fast loop, a vehicle-paced park loop under 43 km/h, a bike at 26 km/h, a loop
over the cap run within 24 h, the issue's 60,000 km² "run", simulated fixes, another runner's
replay (their kept fixes, new times, new id), one's own replay with new times (as stored, every
other fix, from another start, backwards).
"""
import argparse
import json
import math
import os
import random
import uuid
from datetime import datetime, timedelta, timezone

M_PER_DEG = 111319.49079327357
CITIES = [(52.3584, 4.8683), (51.5073, -0.1657), (40.7812, -73.9665), (25.0320, 121.5436), (48.8462, 2.3371)]


def offset(lat, lon, east, north):
    return lat + north / M_PER_DEG, lon + east / (M_PER_DEG * math.cos(math.radians(lat)))


def make_loop(rng, city):
    """A park loop: a smooth closed curve 1.2-5 km round, as (east, north) metres by arc fraction."""
    clat, clon = city
    lat, lon = offset(clat, clon, rng.uniform(-6000, 6000), rng.uniform(-6000, 6000))
    perimeter = rng.uniform(1200, 3500)
    r0 = perimeter / (2 * math.pi)
    harmonics = [(k, rng.uniform(0, 0.12) / k, rng.uniform(0, 2 * math.pi)) for k in (2, 3, 4, 5)]
    aspect = rng.uniform(0.6, 1.0)
    pts = []
    for i in range(720):
        t = 2 * math.pi * i / 720
        r = r0 * (1 + sum(a * math.cos(k * t + ph) for k, a, ph in harmonics))
        pts.append((r * math.cos(t), aspect * r * math.sin(t)))
    pts.append(pts[0])
    # Arc length along the polygon.
    cum = [0.0]
    for a, b in zip(pts, pts[1:]):
        cum.append(cum[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))
    return {"lat": lat, "lon": lon, "pts": pts, "cum": cum, "length": cum[-1]}


def along(loop, s):
    """The point s metres along the loop (any s: laps wrap)."""
    L = loop["length"]
    s %= L
    cum, pts = loop["cum"], loop["pts"]
    lo, hi = 0, len(cum) - 1
    while lo < hi - 1:
        mid = (lo + hi) // 2
        if cum[mid] <= s:
            lo = mid
        else:
            hi = mid
    f = (s - cum[lo]) / max(cum[lo + 1] - cum[lo], 1e-9)
    a, b = pts[lo], pts[lo + 1]
    return a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S") + (".%03dZ" % (t.microsecond // 1000) if t.microsecond else "Z")


class Gps:
    """A phone's position error: a wandering offset (AR(1), sigma 3 m, tau 60 s) plus jitter."""

    def __init__(self, rng, sigma=3.0, tau=60.0, jitter=0.8):
        self.rng, self.sigma, self.tau, self.jitter = rng, sigma, tau, jitter
        self.e = [rng.gauss(0, sigma), rng.gauss(0, sigma)]

    def step(self, dt):
        a = math.exp(-dt / self.tau)
        s = self.sigma * math.sqrt(1 - a * a)
        self.e = [a * x + s * self.rng.gauss(0, 1) for x in self.e]
        return self.e[0] + self.rng.gauss(0, self.jitter), self.e[1] + self.rng.gauss(0, self.jitter)


def feature(rid, user, fixes, simulated=None):
    props = {"user_id": user, "times": [iso(t) for _, _, t, _ in fixes],
             "accuracy_m": [round(a, 1) for _, _, _, a in fixes]}
    if simulated is not None:
        props["simulated"] = simulated
    return {"type": "Feature", "id": rid, "geometry": {"type": "LineString",
            "coordinates": [[round(lon, 7), round(lat, 7)] for lat, lon, _, _ in fixes]}, "properties": props}


def honest(rng, runner, loop, day):
    """One honest run of `loop` by `runner` (its pace, interval, start, direction) on `day`."""
    gps = Gps(rng)
    kmh = min(16, max(7, rng.gauss(runner["kmh"], 0.8)))
    speed = kmh / 3.6
    laps = rng.choice([1, 1, 1, 2, 2, 3]) if loop["length"] < 2000 else rng.choice([1, 1, 2])
    total = laps * loop["length"]
    direction = runner["direction"] if rng.random() < 0.8 else -runner["direction"]
    start = runner["start"] + rng.uniform(-30, 30)
    interval = runner["interval"]
    t = day + timedelta(hours=rng.uniform(6, 20))
    pauses = sorted(rng.uniform(0.1, 0.9) * total for _ in range(rng.choice([0, 0, 1, 2, 3])))
    tunnel = rng.uniform(0.1, 0.9) * total if rng.random() < 0.2 else None
    phase = rng.uniform(0, 2 * math.pi)
    fixes = []
    s = 0.0
    elapsed = 0.0
    while True:
        east, north = along(loop, start + direction * min(s, total))
        ex, ey = gps.step(interval)
        bad = rng.random() < 0.02
        if bad:
            ex += rng.uniform(30, 100) * rng.choice([-1, 1]); ey += rng.uniform(30, 100) * rng.choice([-1, 1])
            acc = rng.uniform(60, 150)
        else:
            acc = rng.uniform(3, 12) if rng.random() < 0.9 else rng.uniform(15, 30)
        in_tunnel = tunnel is not None and tunnel <= s < tunnel + speed * rng.uniform(15, 40)
        if not in_tunnel:
            lat, lon = offset(loop["lat"], loop["lon"], east + ex, north + ey)
            fixes.append((lat, lon, t + timedelta(seconds=elapsed), acc))
        if s >= total:
            break
        if pauses and s >= pauses[0]:
            pauses.pop(0)
            stand = rng.uniform(10, 90)
            k = 0.0
            while k < stand:
                k += interval
                ex, ey = gps.step(interval)
                lat, lon = offset(loop["lat"], loop["lon"], east + ex, north + ey)
                elapsed += interval
                fixes.append((lat, lon, t + timedelta(seconds=elapsed), rng.uniform(3, 12)))
        v = speed * (1 + 0.1 * math.sin(phase + s / 400))
        if total - s < 300:
            v = min(speed * 1.4, 22 / 3.6)
        s = min(total, s + v * interval)
        elapsed += interval
    return fixes


def paced(rng, loop, day, kmh, interval=1.0, laps=1):
    """A loop covered at a steady `kmh` (a vehicle: its fix steadier than a runner's phone's)."""
    gps = Gps(rng, sigma=2.0, tau=120.0, jitter=0.2)
    t = day + timedelta(hours=rng.uniform(6, 20))
    fixes, s, elapsed, total = [], 0.0, 0.0, laps * loop["length"]
    while True:
        east, north = along(loop, min(s, total))
        ex, ey = gps.step(interval)
        lat, lon = offset(loop["lat"], loop["lon"], east + ex, north + ey)
        fixes.append((lat, lon, t + timedelta(seconds=elapsed), rng.uniform(3, 10)))
        if s >= total:
            return fixes
        s = min(total, s + kmh / 3.6 * interval)
        elapsed += interval


def circle(rng, city, radius, kmh, step_m, day):
    """A circle of `radius` m around a point near `city`, a fix every `step_m` m at `kmh`."""
    n = int(2 * math.pi * radius / step_m)
    t = day + timedelta(hours=1)
    dt = step_m / (kmh / 3.6)
    fixes = []
    for i in range(n + 1):
        a = 2 * math.pi * i / n
        lat, lon = offset(city[0], city[1], radius * math.sin(a), radius * math.cos(a))
        fixes.append((lat, lon, t + timedelta(seconds=i * dt), 5.0))
    return fixes


def replayed(rng, stored, day, *, every=1, rotate=0, reverse=False):
    """A stored run's kept fixes (accuracy <= 50 m) sent again with new times."""
    kept = [(lat, lon) for lat, lon, _, acc in stored if acc <= 50]
    kept = kept[::every]
    if rotate:
        k = len(kept) * rotate // 100
        kept = kept[k:] + kept[:k]
        kept.append(kept[0])
    if reverse:
        kept = kept[::-1]
    t = day + timedelta(hours=rng.uniform(6, 20))
    dt = rng.uniform(1.5, 3.0) * every
    return [(lat, lon, t + timedelta(seconds=i * dt), 5.0) for i, (lat, lon) in enumerate(kept)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=38)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    ids = random.Random(a.seed + 1)

    def new_id():
        return str(uuid.UUID(int=ids.getrandbits(128), version=4))

    loops = [make_loop(rng, CITIES[i % len(CITIES)]) for i in range(max(8, a.runs // 25))]
    # At most 15 runs a runner (under the 20 submissions an hour a runner may make).
    runners = []
    for _ in range(max(20, a.runs // 8)):
        home = rng.sample(range(len(loops)), rng.choice([1, 1, 2, 3]))
        runners.append({"id": new_id(), "loops": home, "kmh": rng.uniform(8, 14.5),
                        "interval": 1.0 if rng.random() < 0.3 else rng.choice([2.0, 3.0, 4.0, 5.0]),
                        "direction": rng.choice([-1, 1]), "start": rng.uniform(0, 5000), "runs": 0})
    first_day = datetime(2026, 10, 1, tzinfo=timezone.utc)
    out, kinds, stored = [], [], []

    def add(fixes, user, kind, expected, simulated=None, loop="-"):
        rid = new_id()
        out.append(feature(rid, user["id"], fixes, simulated))
        kinds.append((rid, user["id"], kind, expected, loop))
        user["runs"] += 1
        if expected == "valid":
            stored.append((user, fixes))

    cheats = ["long_fast_loop", "vehicle_loop", "bike_loop", "over_cap", "region", "simulated",
              "replay_other", "replay_own", "replay_own_every_other", "replay_own_rotated", "replay_own_reversed"]
    k = 0
    while len(out) < a.runs:
        free = [r for r in runners if r["runs"] < 14]
        user = rng.choice(free)
        day = first_day + timedelta(days=rng.randrange(0, 55))
        if k % 10 == 9 and len(stored) > 5:
            kind = cheats[(k // 10) % len(cheats)]
            loop = loops[rng.choice(user["loops"])]
            city = CITIES[rng.randrange(len(CITIES))]
            if kind == "long_fast_loop":
                add(circle(rng, city, 5000, 40, 30, day), user, kind, "faster_than_record")
            elif kind == "vehicle_loop":
                add(paced(rng, loop, day, rng.uniform(30, 38), interval=2, laps=2), user, kind, "faster_than_record")
            elif kind == "bike_loop":
                add(paced(rng, loop, day, 26, interval=2, laps=max(1, math.ceil(4000 / loop["length"]))), user, kind, "faster_than_record")
            elif kind == "over_cap":
                add(circle(rng, city, 52000, 13.8, 900, day), user, kind, "over_cap")
            elif kind == "region":
                # The run: 1,001 fixes about 1 km apart every 84 s (here 950 m: no teleport).
                add(circle(rng, city, 1000 * 950 / (2 * math.pi), 950 / 84 * 3.6, 950, day), user, kind, "faster_than_record")
            elif kind == "simulated":
                fixes = honest(rng, user, loop, day)
                sim = [False] * len(fixes)
                for i in rng.sample(range(len(fixes)), rng.choice([1, 3, len(fixes) // 2])):
                    sim[i] = True
                add(fixes, user, kind, "simulated_fix", sim)
            elif kind == "replay_other":
                other = [f for u, f in stored if u is not user]
                add(replayed(rng, rng.choice(other), day), user, kind, "replay")
            else:
                own = [f for u, f in stored if u is user]
                if not own:
                    k += 1
                    continue
                f = rng.choice(own)
                opts = {"replay_own": {}, "replay_own_every_other": {"every": 2},
                        "replay_own_rotated": {"rotate": 37}, "replay_own_reversed": {"reverse": True}}[kind]
                add(replayed(rng, f, day, **opts), user, kind, "replay")
        else:
            which = rng.choice(user["loops"])
            add(honest(rng, user, loops[which], day), user, "honest", "valid", loop=str(which))
        k += 1
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "runs.geojson"), "w", encoding="utf-8") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        f.write(",\n".join(json.dumps(x, separators=(",", ":")) for x in out))
        f.write("\n]}\n")
    with open(os.path.join(a.out, "kinds.tsv"), "w", encoding="utf-8") as f:
        f.write("run_id\tuser_id\tkind\texpected\tloop\n")
        for row in kinds:
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
