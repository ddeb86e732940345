#!/usr/bin/env python3
"""Consumer check of dist/silhouettes/ (CONTRACTS §4) with real readers: xmllint parses every
SVG, rsvg-convert renders it, the rendered pixels are counted (our own PNG decoder), and the
shapes are compared with an independent equal-area projection written here in Python.

  * one <ISO>.svg per polygon country of dist/world.geojson, none for point countries;
  * every SVG well-formed (xmllint) and renderable (rsvg-convert), title = the country's
    name and path id = its code after XML parsing (escaping round-trips), even-odd fill;
  * the filled share of each picture is sensible, the shape fits the padded box and is centred;
  * RU, CA, NO, CL, ID, FJ: the drawn bounding-box aspect is within 5% of the aspect of the
    same parts in a spherical Lambert azimuthal equal-area projection computed here;
  * FJ and RU occupy one compact region (no empty band across the middle of the picture);
  * index.html lists every silhouette; contact-sheet.svg parses; contact-sheet.png decodes
    (pngalpha), is not tiny and shows the land colour.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pngalpha  # noqa: E402
from common import dist, echo_failures, fail, finish, laea, laea_inverse, near, polygons, rgb8, rsvg_convert, world_path  # noqa: E402

SIL = dist("silhouettes")
WORLD = world_path()
NS = "{http://www.w3.org/2000/svg}"
ASPECT_IDS = ["RU", "CA", "NO", "CL", "ID", "FJ"]
COMPACT_IDS = ["FJ", "RU"]
echo_failures()


def planar_centroid(rings_xy):
    """Area centroid of polygons given as lists of (x, y) rings (outer first, holes after)."""
    a_sum = cx = cy = 0.0
    for rings in rings_xy:
        for i, (x, y) in enumerate(rings):
            x1, y1 = np.roll(x, -1), np.roll(y, -1)
            cross = x * y1 - x1 * y
            a = cross.sum() / 2
            sign = 1 if (a >= 0) == (i == 0) else -1
            a_sum += sign * abs(a)
            cx += sign * np.sign(a) * ((x + x1) * cross).sum() / 6
            cy += sign * np.sign(a) * ((y + y1) * cross).sum() / 6
    return cx / a_sum, cy / a_sum


def centre_of(parts):
    """Area centroid on the sphere by iteration: start at the normalised mean of the vertices'
    unit vectors, take the planar area centroid in an equal-area projection there, move the
    projection's centre to it, repeat."""
    v = np.zeros(3)
    for poly in parts:
        a = np.radians(np.array(poly[0])[:-1])
        v += np.stack([np.cos(a[:, 1]) * np.cos(a[:, 0]), np.cos(a[:, 1]) * np.sin(a[:, 0]), np.sin(a[:, 1])]).sum(axis=1)
    lon0, lat0 = math.degrees(math.atan2(v[1], v[0])), math.degrees(math.asin(v[2] / np.linalg.norm(v)))
    for _ in range(4):
        rings_xy = [[laea(np.array(r)[:, 0], np.array(r)[:, 1], lon0, lat0) for r in poly] for poly in parts]
        cx, cy = planar_centroid(rings_xy)
        lon0, lat0 = laea_inverse(cx, cy, lon0, lat0)
    return lon0, lat0


def projected_aspect(parts):
    lon0, lat0 = centre_of(parts)
    xs, ys = [], []
    for poly in parts:
        x, y = laea(np.array(poly[0])[:, 0], np.array(poly[0])[:, 1], lon0, lat0)
        xs.append(x); ys.append(y)
    x, y = np.concatenate(xs), np.concatenate(ys)
    return (x.max() - x.min()) / (y.max() - y.min()), (lon0, lat0)


def render(svg, png, width=None):
    cmd = [rsvg_convert(), "-f", "png", "-o", png, svg]
    if width:
        cmd[1:1] = ["-w", str(width)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        fail(f"rsvg-convert {svg}: exit {r.returncode} {r.stderr.strip()}")
        return False
    return True


def main():
    world = json.load(open(WORLD, encoding="utf-8"))
    manifest = json.load(open(os.path.join(SIL, "manifest.json"), encoding="utf-8"))
    size, padding = manifest["viewBox"], manifest["padding"]
    by_id = {c["id"]: c for c in manifest["countries"]}
    features = {f["id"]: f for f in world["features"]}
    polygon_ids = sorted(i for i, f in features.items()
                         if f["geometry"]["type"] in ("Polygon", "MultiPolygon") and f["properties"].get("renderAs") != "point")
    point_ids = sorted(set(features) - set(polygon_ids))
    svgs = sorted(n[:-4] for n in os.listdir(SIL) if n.endswith(".svg") and len(n) == 6)
    if svgs != polygon_ids:
        fail(f"silhouette files ≠ polygon countries: extra {sorted(set(svgs) - set(polygon_ids))}, missing {sorted(set(polygon_ids) - set(svgs))}")
    for pid in point_ids:
        if os.path.exists(os.path.join(SIL, pid + ".svg")):
            fail(f"point country {pid} has a silhouette")

    # Real XML parser: every SVG and the sheet in one xmllint run.
    files = [os.path.join(SIL, i + ".svg") for i in svgs] + [os.path.join(SIL, "contact-sheet.svg")]
    r = subprocess.run(["xmllint", "--noout"] + files, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"xmllint: {r.stderr.strip()[:2000]}")

    sizes, shares = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in svgs:
            path = os.path.join(SIL, i + ".svg")
            root = ET.parse(path).getroot()
            title = root.find(NS + "title")
            paths = root.findall(NS + "path")
            name = features[i]["properties"].get("name", i)
            if title is None or title.text != name:
                fail(f"{i}: <title> {title.text if title is not None else None!r} ≠ name {name!r}")
            if len(paths) != 1 or paths[0].get("id") != i or paths[0].get("fill-rule") != "evenodd":
                fail(f"{i}: expected one <path id={i!r} fill-rule='evenodd'>")
            if root.get("viewBox") != f"0 0 {size:g} {size:g}":
                fail(f"{i}: viewBox {root.get('viewBox')!r}, expected the shared 0 0 {size:g} {size:g}")
            sizes.append((os.path.getsize(path), i))
            width = 1000 if i in ASPECT_IDS or i in COMPACT_IDS else 400
            png = os.path.join(tmp, i + ".png")
            if not render(path, png, width):
                continue
            m = pngalpha.filled_mask(png)          # ink covering at least half a pixel
            ink = pngalpha.filled_mask(png, 8)     # any ink: where the shape reaches
            share = m.mean()
            shares[i] = share
            if not (0.002 <= share <= 0.85):
                fail(f"{i}: filled share {share:.4f} of the picture is not sensible (0.2%…85%)")
                continue
            ys, xs = np.nonzero(ink)
            px = width / size
            bw, bh = (xs.max() + 1 - xs.min()) / px, (ys.max() + 1 - ys.min()) / px
            tol = 2 / px + 2  # two pixels of the render plus two viewBox units of rounding
            if abs(max(bw, bh) - (size - 2 * padding)) > tol:
                fail(f"{i}: drawn extent {max(bw, bh):.1f} ≠ fitted size {size - 2 * padding:g}")
            left, right = xs.min() / px, size - (xs.max() + 1) / px
            top, bottom = ys.min() / px, size - (ys.max() + 1) / px
            if abs(left - right) > tol or abs(top - bottom) > tol:
                fail(f"{i}: not centred (margins left {left:.1f} right {right:.1f} top {top:.1f} bottom {bottom:.1f})")
            if i in ASPECT_IDS:
                parts = [polygons(features[i]["geometry"])[k] for k in by_id[i]["parts"]]
                expected, centre = projected_aspect(parts)
                drawn = bw / bh
                ok = abs(drawn / expected - 1) <= 0.05
                print(f"  {i}: drawn aspect {drawn:.4f}, independent LAEA at ({centre[0]:.2f}, {centre[1]:.2f}) {expected:.4f}  {'ok' if ok else 'FAIL'}")
                if not ok:
                    fail(f"{i}: drawn aspect {drawn:.4f} differs from the equal-area aspect {expected:.4f} by more than 5%")
            if i in COMPACT_IDS:
                # One compact region: within the drawn box, no empty band of columns or rows
                # wider than a quarter of the box (a shape split at ±180° leaves a wide gap).
                for axis, label in ((0, "columns"), (1, "rows")):
                    occupied = m.any(axis=axis)
                    idx = np.nonzero(occupied)[0]
                    gaps = np.diff(idx) - 1
                    widest = gaps.max() if len(gaps) else 0
                    span = idx.max() - idx.min() + 1
                    print(f"  {i}: widest empty band of {label} {widest} px of {span}")
                    if widest > span / 4:
                        fail(f"{i}: not one compact region: an empty band of {widest} {label} in a {span}-pixel shape")
                if shares[i] < 0.01:
                    fail(f"{i}: fills only {shares[i]:.4f} of the picture")

    # index.html lists every code and file.
    class Links(HTMLParser):
        def __init__(self):
            super().__init__()
            self.srcs = []
        def handle_starttag(self, tag, attrs):
            if tag == "img":
                self.srcs.append(dict(attrs).get("src"))
    p = Links()
    p.feed(open(os.path.join(SIL, "index.html"), encoding="utf-8").read())
    if sorted(p.srcs) != [i + ".svg" for i in svgs]:
        shown, want = set(p.srcs), {i + ".svg" for i in svgs}
        dup = sorted({s for s in p.srcs if p.srcs.count(s) > 1}, key=str)
        fail(f"index.html does not show exactly the silhouette files: missing {sorted(want - shown)}, "
             f"extra {sorted(shown - want, key=str)}, repeated {dup}")
    sheet = os.path.join(SIL, "contact-sheet.png")
    try:
        img = pngalpha.read_png(sheet)
    except (OSError, ValueError) as e:
        fail(f"{sheet}: missing or does not decode: {e}")
    else:
        h, w = img.shape[:2]
        land = near(img, rgb8("land")).mean()
        print(f"  {sheet}: {w}×{h}, land colour {rgb8('land')} on {land:.1%} of the pixels")
        if w < 400 or h < 400:
            fail(f"{sheet}: only {w}×{h} pixels for {len(svgs)} silhouettes")
        if land < 0.02:
            fail(f"{sheet}: the land colour {rgb8('land')} covers only {land:.2%} of the sheet")

    sizes.sort()
    total = sum(s for s, _ in sizes)
    over = [f"{i} {s}" for s, i in sizes if s > 10240]
    print(f"  {len(sizes)} silhouettes, {total} bytes, median {sizes[len(sizes) // 2][0]}, largest {sizes[-1][1]} {sizes[-1][0]}; over 10 KiB: {over or 'none'}")
    if shares:
        lo = min(shares, key=shares.get); hi = max(shares, key=shares.get)
        print(f"  filled share: min {lo} {shares[lo]:.4f}, max {hi} {shares[hi]:.4f}")
    finish("check_silhouettes")


if __name__ == "__main__":
    main()
