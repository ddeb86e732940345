#!/usr/bin/env python3
"""Runs of a FeatureCollection (CONTRACTS §8) as CSV rows for `copy … from stdin (format csv)`:
k (1-based), id, user_id, the feature as the phone sends it to submit_run (JSON, with only the
contract's properties). The follow check and bench load them as runs the app submits.

  runs_csv.py RUNS.geojson [N] > runs.csv      (N: only the first N runs)

Streams: a file written one feature per line (scripts/data/make_runs.py's form, 500 MB for a
10,000-run night) is read a line at a time; any other layout is read whole.
"""
import csv
import json
import sys

KEEP = ("user_id", "times", "accuracy_m", "simulated")


def features(path):
    with open(path, encoding="utf-8") as f:
        first = f.readline()
        if first.strip() != '{"type": "FeatureCollection", "features": [':
            yield from json.loads(first + f.read())["features"]
            return
        for line in f:
            line = line.strip().rstrip(",")
            if line.startswith("{"):
                yield json.loads(line)


def main():
    w = csv.writer(sys.stdout, lineterminator="\n")
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else None
    for k, feat in enumerate(features(sys.argv[1]), 1):
        if limit is not None and k > limit:
            break
        props = {key: feat["properties"][key] for key in KEEP if key in feat["properties"]}
        run = {"type": "Feature", "id": feat["id"], "geometry": feat["geometry"], "properties": props}
        w.writerow([k, feat["id"], props["user_id"], json.dumps(run, separators=(",", ":"))])


if __name__ == "__main__":
    main()
