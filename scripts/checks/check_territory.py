#!/usr/bin/env python3
"""Consumer check for dist/territory/ (the running game's territory, CONTRACTS §8).

Readers independent of the stage: Python's json, h3-py 4 (the H3 reference) and a local
ellipsoidal distance.
  - every valid run's claimed cells equal h3.h3shape_to_cells of its loop (loops.geojson);
  - territory.geojson: RFC 7946 cells (closed counter-clockwise rings equal to
    h3.cell_to_boundary), with hex_id/owner_user_id/last_run_id/claimed_at, and owners equal
    to an independent recompute (latest end time, ties to the larger run id) from the loops;
  - runs.tsv: one row per input run; in the sample each run's sample_kind says whether it is
    valid and, if not, which reason it must carry; distances agree with an independent
    ellipsoidal sum; users.tsv cells and km² agree with territory.geojson and h3.cell_area;
  - shards: geo-territory --shard i/4 for i = 0..3 (on the sample, a Hyde Park cell south of
    a resolution-3 border is claimed from two shards); the runs rows are split exactly, and
    the shards' cells merged by the ownership order equal the unsharded territory.
"""
import csv
import io
import json
import math
import os
import subprocess
import sys
import tempfile

import h3

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.environ.get("TERRITORY_DIR", os.path.join(ROOT, "dist", "territory"))
RUNS = os.environ.get("TERRITORY_RUNS", os.path.join(ROOT, "data", "territory", "runs.geojson"))
BIN = os.environ.get("BIN", os.path.join(ROOT, ".build", "release"))
failures = []


def check(ok, msg):
    print(("  ok   " if ok else "  FAIL ") + msg)
    if not ok:
        failures.append(msg)


def load(name):
    with open(os.path.join(OUT, name), encoding="utf-8") as f:
        return json.load(f)


def tsv(path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def shape(geom):
    def poly(rings):
        ll = [[(lat, lng) for lng, lat in r] for r in rings]
        return h3.LatLngPoly(ll[0], *ll[1:])
    if geom["type"] == "Polygon":
        return poly(geom["coordinates"])
    return h3.LatLngMultiPoly(*[poly(p) for p in geom["coordinates"]])


def ring_area_sign(ring):
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(ring, ring[1:]))


def local_distance(a, b):
    """Distance between (lon, lat) points on WGS 84 with the radii of curvature at the mid
    latitude: not PROJ's geodesic, within a few mm over the metres between two fixes."""
    f = 1 / 298.257223563
    e2 = f * (2 - f)
    lat = math.radians((a[1] + b[1]) / 2)
    w = math.sqrt(1 - e2 * math.sin(lat) ** 2)
    m, n = 6378137 * (1 - e2) / w ** 3, 6378137 / w
    return math.hypot(math.radians(b[1] - a[1]) * m, math.radians(b[0] - a[0]) * n * math.cos(lat))


def winner(claims):
    return max(claims, key=lambda c: (c["claimed_at"], c["last_run_id"]))


def main():
    for name in ["territory.geojson", "loops.geojson", "runs.tsv", "users.tsv", "territory_hex.sql", "preview.svg"]:
        if not os.path.exists(os.path.join(OUT, name)):
            print(f"check_territory: {OUT}/{name} is missing (run make territory)")
            return 1
    runs_in = json.load(open(RUNS, encoding="utf-8"))["features"]
    loops = load("loops.geojson")["features"]
    terr = load("territory.geojson")
    rows = tsv(os.path.join(OUT, "runs.tsv"))

    # 1. claimed cells = h3-py on the same loop polygon
    bad = []
    for f in loops:
        want = set(h3.h3shape_to_cells(shape(f["geometry"]), 9)) if f["geometry"] else set()
        if want != set(f["properties"]["cells"]):
            bad.append(f"{f['id']}: h3 {len(want)} cells, stage {len(f['properties']['cells'])}")
    n_cells = sum(len(f["properties"]["cells"]) for f in loops)
    check(not bad and loops, f"claimed cells of {len(loops)} valid loops ({n_cells} cells) equal h3.h3shape_to_cells"
          + (f": {bad[:3]}" if bad else ""))
    multi = [f["id"] for f in loops if f["geometry"] and f["geometry"]["type"] == "MultiPolygon"]
    print(f"       ({len(multi)} loop(s) with several lobes)")

    # 2. territory.geojson: cells, properties, owners = independent recompute
    feats = terr["features"]
    claims = {}
    for f in loops:
        for c in f["properties"]["cells"]:
            claims.setdefault(c, []).append({"owner_user_id": f["properties"]["user_id"], "last_run_id": f["id"],
                                             "claimed_at": f["properties"]["ended_at"]})
    want = {c: winner(v) for c, v in claims.items()}
    got = {f["properties"]["hex_id"]: f["properties"] for f in feats}
    check(len(got) == len(feats), "territory.geojson: one feature per cell")
    check(set(got) == set(want), f"territory.geojson has exactly the claimed cells ({len(want)})")
    wrong = [c for c in want if c in got and any(got[c][k] != want[c][k] for k in ("owner_user_id", "last_run_id", "claimed_at"))]
    check(not wrong, f"every cell's owner is the latest valid run's runner (recomputed independently){': ' + str(wrong[:3]) if wrong else ''}")
    geo_bad = []
    for f in feats:
        ring = f["geometry"]["coordinates"][0]
        ref = [(lng, lat) for lat, lng in h3.cell_to_boundary(f["properties"]["hex_id"])]
        if f["geometry"]["type"] != "Polygon" or ring[0] != ring[-1] or ring_area_sign(ring) <= 0 or len(ring) != len(ref) + 1:
            geo_bad.append(f["id"]); continue
        # same vertices (to the 7 decimals written), possibly starting elsewhere
        if not all(any(abs(p[0] - q[0]) < 2e-7 and abs(p[1] - q[1]) < 2e-7 for q in ref) for p in ring[:-1]):
            geo_bad.append(f["id"])
    check(not geo_bad, f"cell polygons are closed, counter-clockwise, and h3.cell_to_boundary{': ' + str(geo_bad[:3]) if geo_bad else ''}")
    check(all(f["id"] == f["properties"]["hex_id"] and h3.get_resolution(f["id"]) == 9 for f in feats), "feature ids are the resolution-9 hex ids")
    stolen = sum(1 for c, v in claims.items() if len({x["owner_user_id"] for x in v}) > 1)
    print(f"       ({stolen} cells claimed by more than one runner: stolen or defended)")

    # 3. runs.tsv against the input and the sample's intent
    ids = [f["id"] for f in runs_in]
    check([r["run_id"] for r in rows] == ids, f"runs.tsv has one row per input run, in input order ({len(ids)})")
    by_id = {r["run_id"]: r for r in rows}
    kinds = {"too short": "too_short", "too brief": "too_brief", "too few fixes": "too_few_fixes", "not closed": "not_closed",
             "speed spike": "speed_spike", "teleport": "teleport", "bad accuracy": "too_few_fixes"}
    intent_bad, dist_bad = [], []
    for f in runs_in:
        r = by_id.get(f["id"])
        kind = f["properties"].get("sample_kind")
        if r is None:
            continue
        if kind:
            if kind.startswith("valid"):
                if r["valid"] != "true":
                    intent_bad.append(f"{kind}: {r['reasons']}")
            else:
                k = kind.split(": ", 1)[1].split(" (")[0]
                if r["valid"] != "false" or kinds[k] not in r["reasons"]:
                    intent_bad.append(f"{kind}: valid={r['valid']} {r['reasons']}")
        pts = [c for c, a in zip(f["geometry"]["coordinates"], f["properties"]["accuracy_m"]) if a <= 50]
        d = sum(local_distance(a, b) for a, b in zip(pts, pts[1:]))
        if abs(d - float(r["distance_m"])) > 0.05 + 1e-4 * d:
            dist_bad.append(f"{f['id']}: {d:.2f} vs {r['distance_m']}")
    if any(f["properties"].get("sample_kind") for f in runs_in):
        check(not intent_bad, f"each sample run is judged as its kind says (valid, or rejected for that reason){': ' + str(intent_bad[:3]) if intent_bad else ''}")
    check(not dist_bad, f"distance_m agrees with an independent ellipsoidal sum{': ' + str(dist_bad[:3]) if dist_bad else ''}")
    check(all(r["reasons"] == "" for r in rows if r["valid"] == "true") and all(r["reasons"] for r in rows if r["valid"] == "false"),
          "valid runs have no reason, rejected runs at least one")
    print(f"       ({sum(r['valid'] == 'true' for r in rows)} valid, {sum(r['valid'] == 'false' for r in rows)} rejected)")

    # 4. users.tsv
    users = tsv(os.path.join(OUT, "users.tsv"))
    per = {}
    for f in feats:
        per.setdefault(f["properties"]["owner_user_id"], []).append(f["properties"]["hex_id"])
    ok = all(int(u["cells"]) == len(per.get(u["user_id"], [])) and
             abs(float(u["area_km2"]) - sum(h3.cell_area(c, "km^2") for c in per.get(u["user_id"], []))) < 1e-3
             for u in users) and set(per) <= {u["user_id"] for u in users}
    check(ok, f"users.tsv: cells and km² per runner match territory.geojson and h3.cell_area ({len(users)} runners)")

    # 5. shards: rows split exactly, cells merged by the ownership order = unsharded
    exe = os.path.join(BIN, "geo-territory")
    if not os.access(exe, os.X_OK):
        check(False, f"{exe} is missing: cannot run the shard check")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            n = 4
            shard_rows, merged, seen = [], {}, {}
            for i in range(n):
                d = os.path.join(tmp, f"s{i}")
                subprocess.run([exe, RUNS, "--out-dir", d, "--shard", f"{i}/{n}", "-q"], check=True)
                shard_rows += [r["run_id"] for r in tsv(os.path.join(d, "runs.tsv"))]
                for f in json.load(open(os.path.join(d, "territory.geojson")))["features"]:
                    p = f["properties"]
                    seen[p["hex_id"]] = seen.get(p["hex_id"], 0) + 1
                    merged[p["hex_id"]] = winner([p] + ([merged[p["hex_id"]]] if p["hex_id"] in merged else []))
            check(sorted(shard_rows) == sorted(ids), f"--shard i/{n}: every run in exactly one shard's runs.tsv")
            check(merged == {c: dict(p) for c, p in got.items()},
                  f"--shard i/{n}: the shards' cells merged by (claimed_at, run id) equal the unsharded territory "
                  f"({sum(1 for v in seen.values() if v > 1)} cells in two shards)")
    print("check_territory: " + ("all checks passed" if not failures else f"{len(failures)} FAILED"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
