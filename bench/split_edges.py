#!/usr/bin/env python3
"""Writes a denser copy of a Natural Earth admin-0 file for the growth benchmark: every edge
split into N (default 4) equal pieces, so 1:10m's ~550 k vertices become ~2.2 M. A shared
border stays shared: the points inserted on an edge are computed from its lexicographically
smaller end, so both units that draw the edge get bit-identical positions.

    split_edges.py IN.geojson OUT.geojson [--pieces 4]
"""
import argparse
import json
import os


def split_ring(ring, n):
    out = []
    for a, b in zip(ring, ring[1:]):
        out.append(a)
        p, q, flip = (a, b, False) if (a[0], a[1]) <= (b[0], b[1]) else (b, a, True)
        # Rounded to 9 decimals (Natural Earth has 6): shortest forms of at most 15 digits,
        # as in real data, instead of 17-digit floats that would only measure strtod.
        inner = [[round(p[0] + (q[0] - p[0]) * k / n, 9), round(p[1] + (q[1] - p[1]) * k / n, 9)] for k in range(1, n)]
        out.extend(reversed(inner) if flip else inner)
    out.append(ring[-1])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input"); ap.add_argument("output"); ap.add_argument("--pieces", type=int, default=4)
    a = ap.parse_args()
    with open(a.input, encoding="utf-8") as f:
        doc = json.load(f)
    before = after = 0
    for ft in doc["features"]:
        g = ft["geometry"]
        polys = [g["coordinates"]] if g["type"] == "Polygon" else g["coordinates"] if g["type"] == "MultiPolygon" else []
        for poly in polys:
            for i, ring in enumerate(poly):
                before += len(ring)
                poly[i] = split_ring(ring, a.pieces)
                after += len(poly[i])
    os.makedirs(os.path.dirname(a.output) or ".", exist_ok=True)
    tmp = a.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
    os.replace(tmp, a.output)
    print(f"{a.input}: {before:,} vertices → {a.output}: {after:,} vertices")


if __name__ == "__main__":
    main()
