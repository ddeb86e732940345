#!/usr/bin/env python3
"""The app's rules against the night's (issue 22): TerritoryRules alone (app_verdicts.tsv,
written by geo-territory --app-verdicts: Swift geodesic, no PROJ, no GEOS) must give every
run the night's verdict and reasons (runs.tsv: PROJ decides near a threshold) and, for a loop
that does not cross itself, the night's cells (loops.geojson: GEOS make-valid, H3's fill). A
self-crossing loop's cells may differ (make-valid against the winding rule): reported, how many
runs and by how many cells, and no more than 1 % of the cells claimed.

  check_territory_rules.py             a generated night of TERRITORY_RULES_RUNS runs (default
                                       2,000; make_runs.py --scale) through geo-territory
  TERRITORY_RULES_RUNS=10000 check_territory_rules.py    the whole 10,000-run night (~2 min)
  check_territory_rules.py OUT_DIR     a night already run with --loops-geojson --app-verdicts
"""
import json
import os
import subprocess
import sys
import tempfile
import time


def main():
    if len(sys.argv) > 1:
        return compare(sys.argv[1])
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    n = int(os.environ.get("TERRITORY_RULES_RUNS", "2000"))
    binary = os.path.join(os.environ.get("BIN", os.path.join(root, ".build", "release")), "geo-territory")
    with tempfile.TemporaryDirectory(prefix="check_territory_rules.") as tmp:
        t0 = time.time()
        subprocess.run([sys.executable, os.path.join(root, "scripts", "data", "make_runs.py"), "--scale", str(n),
                        "-o", f"{tmp}/runs.geojson"], check=True, stderr=subprocess.DEVNULL)
        t1 = time.time()
        subprocess.run([binary, f"{tmp}/runs.geojson", "--out-dir", f"{tmp}/night", "--loops-geojson", "--app-verdicts", "-q"], check=True)
        print(f"  ..   {n:,} generated runs ({t1 - t0:.1f} s), judged by the night and by the app's rules ({time.time() - t1:.1f} s)")
        compare(f"{tmp}/night")


def compare(out):
    night = {}
    with open(f"{out}/runs.tsv", encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            night[r["run_id"]] = r
    app = {}
    with open(f"{out}/app_verdicts.tsv", encoding="utf-8") as f:
        f.readline()
        for line in f:
            rid, valid, reasons, cells = line.rstrip("\n").split("\t")
            app[rid] = (valid, reasons, set(cells.split()) if cells else set())
    loops = {f["id"]: f for f in json.load(open(f"{out}/loops.geojson", encoding="utf-8"))["features"]}
    fail = 0
    verdicts = [rid for rid in night if (night[rid]["valid"], night[rid]["reasons"]) != app[rid][:2]]
    if set(app) != set(night) or verdicts:
        print(f"  FAIL the app's verdicts differ from the night's on {len(verdicts)} of {len(night)} runs: {verdicts[:3]}")
        fail = 1
    else:
        print(f"  ok   the app's TerritoryRules give the night's verdict and reasons on all {len(night):,} runs")
    # By the night's loop: one part (a loop that does not cross itself, or only so that
    # make-valid keeps one polygon) or several (lobes).
    diff = {1: [0, 0, 0], 2: [0, 0, 0]}  # parts → [loops, loops that differ, cells off]
    total = 0
    for rid, f in loops.items():
        want, got = set(f["properties"]["cells"]), app[rid][2]
        total += len(want)
        d = diff[1 if night[rid]["loop_parts"] == "1" else 2]
        d[0] += 1
        if want != got:
            d[1] += 1
            d[2] += len(want ^ got)
    off = diff[1][2] + diff[2][2]
    line = (f"loops of one part: {diff[1][1]:,} of {diff[1][0]:,} differ ({diff[1][2]:,} cells); loops of several parts "
            f"(self-crossing): {diff[2][1]:,} of {diff[2][0]:,} differ ({diff[2][2]:,} cells); {off:,} of {total:,} cells claimed")
    if off > 0.01 * total:
        print(f"  FAIL the app's cells differ from the night's by more than 1 %: {line}")
        fail = 1
    else:
        print(f"  ok   the app's cells (winding rule, H3) against the night's (GEOS make-valid, H3): {line}")
    if fail:
        sys.exit(1)


if __name__ == "__main__":
    main()
