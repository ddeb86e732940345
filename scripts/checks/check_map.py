#!/usr/bin/env python3
"""Consumer check of dist/map/ (issue 5, CONTRACTS §3) with real readers:

  * world.svg parses with xmllint and renders with rsvg-convert; one element per country with
    id = ISO code and <title> = name (XML parser), circles for point countries;
  * the shipped dist/map/world.png (decoded with pngalpha) has the SVG's size and, like a fresh
    render of world.svg, the rendered picture uses the palette (ocean #2F86A6, land #34BE82), and in the default
    equal-area projection land covers about 29 % of the globe's pixels;
  * world-projected.geojson (read with shapely, a second GeoJSON reader): same ids in the same
    order, and for the default Equal Earth every country's projected area matches its area
    computed here independently (spherical equal-area formulas) within 1 %;
  * no ring is smeared across the map: no projected edge longer than 5 % of the map's width,
    for the default map and for a Pacific-centred Robinson made with the stage binary.
"""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import numpy as np
from shapely.geometry import shape
from shapely.validation import explain_validity

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pngalpha  # noqa: E402
from common import area_km2, dist, echo_failures, fail, finish, near, rgb8, rings, rsvg_convert, world_path  # noqa: E402

MAP = dist("map")
WORLD = world_path()
BIN = os.environ.get("BIN", ".build/release")
NS = "{http://www.w3.org/2000/svg}"
OCEAN, LAND = rgb8("ocean"), rgb8("land")  # #2F86A6, #34BE82
echo_failures()


def spherical_area(geom):
    """Area in m² on the authalic sphere, edges straight in lon/lat (as a map draws them)."""
    return area_km2(geom) * 1e6


def longest_edge_share(features, width):
    worst, where = 0.0, None
    for f in features:
        for r in rings(f["geometry"]):
            a = np.array(r)
            d = np.hypot(*np.diff(a, axis=0).T).max() / width
            if d > worst:
                worst, where = d, f["id"]
    return worst, where


def check_svg(svg_path, world):
    r = subprocess.run(["xmllint", "--noout", svg_path], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"xmllint {svg_path}: {r.stderr.strip()[:1000]}")
        return None
    root = ET.parse(svg_path).getroot()
    elements = {e.get("id"): e for e in root.iter() if e.tag in (NS + "path", NS + "circle") and e.get("id") not in (None, "ocean")}
    for f in world["features"]:
        e = elements.get(f["id"])
        kind = NS + ("circle" if f["geometry"]["type"] == "Point" else "path")
        if e is None or e.tag != kind:
            fail(f"{svg_path}: no <{kind[len(NS):]}> with id {f['id']}")
            continue
        t = e.find(NS + "title")
        if t is None or t.text != f["properties"].get("name"):
            fail(f"{svg_path}: {f['id']} title {t.text if t is not None else None!r} ≠ {f['properties'].get('name')!r}")
    if len(elements) != len(world["features"]):
        fail(f"{svg_path}: {len(elements)} country elements for {len(world['features'])} features")
    return root


def main():
    world = json.load(open(WORLD, encoding="utf-8"))
    svg = os.path.join(MAP, "world.svg")
    check_svg(svg, world)
    proj = json.load(open(os.path.join(MAP, "world-projected.geojson"), encoding="utf-8"))
    pids, wids = [f["id"] for f in proj["features"]], [f["id"] for f in world["features"]]
    if pids != wids:
        missing, extra = sorted(set(wids) - set(pids)), sorted(set(pids) - set(wids))
        if missing or extra:
            fail(f"world-projected.geojson ids differ from {WORLD}: missing {missing}, extra {extra}")
        else:
            moved = [f"position {k}: {i} (world {j})" for k, (i, j) in enumerate(zip(pids, wids)) if i != j]
            fail(f"world-projected.geojson has {WORLD}'s ids in another order: {moved[:10]}")
    for f in proj["features"]:
        shape(f["geometry"])  # shapely must accept every geometry
    extent = proj["extent"]
    width = extent[2] - extent[0]
    worst, where = longest_edge_share(proj["features"], width)
    print(f"  {proj['projection']}: longest projected edge {worst * 100:.2f} % of the map width ({where})")
    if worst > 0.05:
        fail(f"{where}: an edge spans {worst * 100:.1f} % of the map: smeared across the map")

    equal_earth = proj["projection"] in ("EPSG:8857", "+proj=eqearth")
    if equal_earth:
        bad = []
        checked = 0
        for fw, fp in zip(world["features"], proj["features"]):
            if fw["geometry"]["type"] == "Point":
                continue
            a_ref = spherical_area(fw["geometry"])
            if a_ref < 1e10:  # 10,000 km²: smaller ones are dominated by rounding
                continue
            a = shape(fp["geometry"]).area
            checked += 1
            if abs(a / a_ref - 1) > 0.01:
                bad.append(f"{fw['id']} {a / a_ref:.4f}")
        print(f"  equal-area: {checked} countries over 10,000 km² match the independent area within 1 %" if not bad else f"  area mismatches: {bad}")
        if bad:
            fail(f"projected areas differ from the independent areas by more than 1 %: {bad[:10]}")

    # The real product dist/map/world.png (rendered by make from world.svg), decoded here.
    shipped = os.path.join(MAP, "world.png")
    try:
        img = pngalpha.read_png(shipped).astype(int)
    except (OSError, ValueError) as e:
        fail(f"{shipped}: does not decode: {e}")
    else:
        root = ET.parse(svg).getroot()
        want = (int(float(root.get("width"))), int(float(root.get("height"))))
        h, w = img.shape[:2]
        opaque = img[:, :, 3] > 250 if img.shape[2] == 4 else np.ones((h, w), dtype=bool)
        ocean, land = (near(img, OCEAN) & opaque).mean(), (near(img, LAND) & opaque).mean()
        share = land / max(1e-9, land + ocean)
        print(f"  {shipped}: {w}×{h} (SVG {want[0]}×{want[1]}), ocean {ocean:.1%} and land {land:.1%} of the pixels, land share {share:.3f}")
        if (w, h) != want:
            fail(f"{shipped}: {w}×{h} pixels, but world.svg is {want[0]}×{want[1]}")
        if ocean < 0.3 or land < 0.1:
            fail(f"{shipped}: ocean {OCEAN} covers {ocean:.1%} and land {LAND} {land:.1%} of the picture (expected ≥ 30% and ≥ 10%)")
        if equal_earth and not (0.25 <= share <= 0.32):
            fail(f"{shipped}: land covers {share:.3f} of an equal-area map; the Earth's land share is about 0.29")

    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "map.png")
        r = subprocess.run([rsvg_convert(), "-w", "1000", "-f", "png", "-o", png, svg], capture_output=True, text=True)
        if r.returncode != 0 or r.stderr.strip():
            fail(f"rsvg-convert {svg}: {r.stderr.strip()}")
        else:
            img = pngalpha.read_png(png).astype(int)
            opaque = img[:, :, 3] > 250
            ocean, land = (near(img, OCEAN) & opaque).sum(), (near(img, LAND) & opaque).sum()
            share = land / max(1, land + ocean)
            print(f"  palette: ocean {ocean} px, land {land} px, land share {share:.3f}")
            if ocean < 0.3 * img.shape[0] * img.shape[1] or land < 0.1 * img.shape[0] * img.shape[1]:
                fail("the map does not show the palette's ocean and land colours in sensible amounts")
            if equal_earth and not (0.25 <= share <= 0.32):
                fail(f"land covers {share:.3f} of an equal-area map; the Earth's land share is about 0.29")

        # A Pacific-centred map from the stage binary: rings crossing its edge (150°W… no: 30°W)
        # are cut, Fiji and Chukotka joined, nothing smeared.
        exe = os.path.join(BIN, "geo-map")
        if os.path.exists(exe):
            g, s = os.path.join(tmp, "pacific.geojson"), os.path.join(tmp, "pacific.svg")
            r = subprocess.run([exe, WORLD, "--projection", "+proj=robin +lon_0=150", "--geojson", g, "--svg", s, "-q"], capture_output=True, text=True)
            if r.returncode != 0:
                fail(f"geo-map (Pacific-centred): {r.stderr.strip()}")
            else:
                check_svg(s, world)
                pac = json.load(open(g, encoding="utf-8"))
                worst, where = longest_edge_share(pac["features"], pac["extent"][2] - pac["extent"][0])
                print(f"  +proj=robin +lon_0=150: longest projected edge {worst * 100:.2f} % of the map width ({where})")
                if worst > 0.05:
                    fail(f"Pacific-centred map: {where} has an edge across {worst * 100:.1f} % of the map")
                for f in pac["features"]:
                    if f["id"] == "FJ":
                        xs = [p[0] for r in rings(f["geometry"]) for p in r]
                        span = (max(xs) - min(xs)) / (pac["extent"][2] - pac["extent"][0])
                        print(f"  FJ spans {span * 100:.2f} % of the Pacific-centred map")
                        if span > 0.05:
                            fail(f"FJ spans {span * 100:.1f} % of the Pacific-centred map")
            # Mollweide centred at 90°E: its edge (90°W) runs through Canada's Arctic, where the
            # coast comes within metres of the curved edge, and down to the South Pole.
            g, s = os.path.join(tmp, "moll90.geojson"), os.path.join(tmp, "moll90.svg")
            r = subprocess.run([exe, WORLD, "--projection", "+proj=moll +lon_0=90", "--geojson", g, "--svg", s, "-q"], capture_output=True, text=True)
            if r.returncode != 0:
                fail(f"geo-map (+proj=moll +lon_0=90): {r.stderr.strip()}")
            else:
                moll = json.load(open(g, encoding="utf-8"))
                bad = [(f["id"], explain_validity(shape(f["geometry"]))) for f in moll["features"]
                       if f["geometry"]["type"] != "Point" and not shape(f["geometry"]).is_valid]
                worst, where = longest_edge_share(moll["features"], moll["extent"][2] - moll["extent"][0])
                print(f"  +proj=moll +lon_0=90: {len(bad)} invalid polygons; longest projected edge {worst * 100:.2f} % of the map width ({where})")
                for fid, why in bad:
                    fail(f"+proj=moll +lon_0=90: {fid} is not a valid polygon: {why}")
                if worst > 0.01:
                    fail(f"+proj=moll +lon_0=90: {where} has a straight edge across {worst * 100:.1f} % of the map")
        else:
            print(f"  ({exe} not built: Pacific-centred and Mollweide runs skipped)")

    finish("check_map")


if __name__ == "__main__":
    main()
