#!/usr/bin/env python3
"""bench/fair_play_replay.sh's stored runs: RUNS runs' replay signatures (the fair_play
migration's: the 8 smallest hashes of the 2e-5° cells of their fixes) as CSV `hash,k` on
standard output, k the run's number (1-based). POPULAR of them are reruns of one park loop (3 km,
the busiest place: every submission there meets them all), the rest are spread over 10,000 other
loops around the world. Each run: 200 fixes of a lap with the generator's GPS error (a wandering
3 m offset and 0.8 m jitter). With --bodies FILE, also the popular loop's runs as Features
(`k,body` CSV: the submission each candidate is matched against) and 40 submissions to time
(`probes.csv`: kind,body: honest reruns, replays of a stored run, a quiet loop's run).

  fair_play_signatures.py RUNS POPULAR --bodies DIR > signatures.csv
"""
import argparse
import json
import math
import os
import sys

import numpy as np

M = 111319.49079327357
FIXES = 200


def hashes(lat, lon):
    """fair_play_hash, vectorised (int64 arithmetic, no overflow: every product < 2^63)."""
    row = np.floor(lat / 2e-5).astype(np.int64) + 5000000
    col = np.floor(lon / 2e-5).astype(np.int64) + 10000000
    h = (row * 20000000 + col) % 2147483647
    h = (h * 1103515245 + 12345) % 2147483647
    return (h * 48271 + 11) % 2147483647


def laps(rng, lat0, lon0, radius, n, fixes=FIXES):
    """n laps of a circle of `radius` m with GPS error, each from a random start: (lat, lon) arrays n × fixes."""
    t = np.linspace(0, 2 * np.pi, fixes)[None, :] + rng.uniform(0, 2 * np.pi, (n, 1))
    e = np.zeros((n, fixes, 2))
    a = math.exp(-15 / 60)
    x = rng.normal(0, 3, (n, 2))
    for i in range(fixes):
        x = a * x + 3 * math.sqrt(1 - a * a) * rng.normal(0, 1, (n, 2))
        e[:, i, :] = x + rng.normal(0, 0.8, (n, 2))
    north = radius * np.sin(t) + e[:, :, 1]
    east = radius * np.cos(t) + e[:, :, 0]
    lat = lat0 + north / M
    lon = lon0 + east / (M * np.cos(np.radians(lat0)))
    return lat, lon


def signature_rows(lat, lon, first_k, out):
    h = np.sort(hashes(lat, lon), axis=1)
    dup = np.zeros_like(h, dtype=bool)
    dup[:, 1:] = h[:, 1:] == h[:, :-1]
    h = np.where(dup, np.iinfo(np.int64).max, h)
    h = np.sort(h, axis=1)[:, :8]
    ks = np.arange(first_k, first_k + len(h))[:, None].repeat(8, axis=1)
    ok = h != np.iinfo(np.int64).max
    np.savetxt(out, np.stack([h[ok], ks[ok]], axis=1), fmt="%d", delimiter=",")


def feature(k, lat, lon, day, step=15.0):
    times = [f"2026-{10 + day // 28:02d}-{1 + day % 28:02d}T07:{int(i * step) // 60 % 60:02d}:{int(i * step) % 60:02d}Z" for i in range(len(lat))]
    return json.dumps({"type": "Feature", "id": f"00000000-0000-4000-8000-{k:012x}",
                       "geometry": {"type": "LineString", "coordinates": [[round(x, 7), round(y, 7)] for x, y in zip(lon, lat)]},
                       "properties": {"user_id": "00000000-0000-4000-8000-0000000000aa", "times": times,
                                      "accuracy_m": [5.0] * len(lat)}}, separators=(",", ":"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", type=int)
    ap.add_argument("popular", type=int)
    ap.add_argument("--bodies")
    a = ap.parse_args()
    rng = np.random.default_rng(38)
    out = sys.stdout
    park = (40.7812, -73.9665, 3000 / (2 * math.pi))
    k = 1
    bodies = open(os.path.join(a.bodies, "bodies.csv"), "w") if a.bodies else None
    stored = []
    for start in range(0, a.popular, 5000):
        n = min(5000, a.popular - start)
        lat, lon = laps(rng, *park, n)
        signature_rows(lat, lon, k, out)
        if bodies:
            for i in range(n):
                bodies.write(f'{k + i},"{feature(k + i, lat[i], lon[i], int(rng.integers(0, 50))).replace(chr(34), chr(34) * 2)}"\n')
            stored.append((lat[:20], lon[:20], k))
        k += n
    rest = a.runs - a.popular
    centres = np.stack([rng.uniform(-50, 60, 10000), rng.uniform(-180, 180, 10000), rng.uniform(300, 800, 10000)], axis=1)
    for start in range(0, rest, 20000):
        n = min(20000, rest - start)
        which = rng.integers(0, len(centres), n)
        lat, lon = laps(rng, 0, 0, 1, n)  # the error's shape; placed below
        t = np.linspace(0, 2 * np.pi, FIXES)[None, :] + rng.uniform(0, 2 * np.pi, (n, 1))
        c = centres[which]
        la = c[:, 0:1] + (c[:, 2:3] * np.sin(t) + (lat - 0) * M) / M
        lo = c[:, 1:2] + (c[:, 2:3] * np.cos(t) + lon * M) / (M * np.cos(np.radians(c[:, 0:1])))
        signature_rows(la, lo, k, out)
        k += n
    if bodies:
        bodies.close()
        with open(os.path.join(a.bodies, "probes.csv"), "w") as f:
            lat, lon = laps(rng, *park, 30)
            for i in range(30):
                f.write(f'honest,"{feature(10**9 + i, lat[i], lon[i], 51).replace(chr(34), chr(34) * 2)}"\n')
            slat, slon, first = stored[0]
            for i in range(8):
                f.write(f'replay,"{feature(10**9 + 100 + i, slat[i], slon[i], 52, step=9.0).replace(chr(34), chr(34) * 2)}"\n')
            lat, lon = laps(rng, -33.9, 18.4, 500, 2)
            for i in range(2):
                f.write(f'quiet,"{feature(10**9 + 200 + i, lat[i], lon[i], 53).replace(chr(34), chr(34) * 2)}"\n')


if __name__ == "__main__":
    main()
