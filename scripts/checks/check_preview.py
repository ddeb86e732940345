"""Reads the globe previews dist/preview/{atlantic,pacific,south_pole}.png with an independent
PNG decoder (pngalpha: zlib + struct + numpy; CRCs, all five row filters) and checks that they
show the globe of dist/globe.glb:

  * each file is a valid 8-bit RGB PNG, square, all three the same size;
  * the colours: the background, the ocean and the land as the palette of CONTRACTS §3 shows
    them under the translucent atmosphere (alpha 0.15, blended in linear light, computed here
    from the palette) are the most common colours, in sensible shares per view;
  * places land where the orthographic projection puts them: the view centres, Brazil and the
    Sahara (Atlantic), Australia and Russia's Chukotka on both sides of 180° (Pacific: no seam
    line along the antimeridian), Antarctica over the pole and along its ±180° cut (South Pole);
  * capital stars (red) are drawn, point countries are discs (land colour) with a dark rim.
"""
import math, os, sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pngalpha  # noqa: E402
from common import PALETTE, dist, fail, finish, linear, near, srgb, world_path  # noqa: E402

# Paths can be given (check_preview.py [PREVIEW_DIR MANIFEST]); otherwise they follow DIST.
# world.geojson: WORLD_OUT, else beside the manifest.
DIR = sys.argv[1] if len(sys.argv) > 1 else dist("preview")
MANIFEST = sys.argv[2] if len(sys.argv) > 2 else dist("globe.manifest.json")
WORLD = world_path(os.path.join(os.path.dirname(MANIFEST), "world.geojson"))
FILL = 0.9          # geo-preview's default: the scene's bounding sphere fills 90 % of the width
BACKGROUND = (0x0B, 0x10, 0x20)
LAND, OCEAN, ATMOSPHERE = PALETTE["land"], PALETTE["ocean"], PALETTE["atmosphere"]
ALPHA = 0.15
def under_atmosphere(rgb):
    return tuple(round(255 * srgb(linear(c) * (1 - ALPHA) + linear(a) * ALPHA)) for c, a in zip(rgb, ATMOSPHERE))

land_rgb, ocean_rgb = under_atmosphere(LAND), under_atmosphere(OCEAN)
import json
params = json.load(open(MANIFEST, encoding="utf-8"))["parameters"]
radius = max(params["atmosphereRadius"], params["oceanRadius"])

def unit(lon, lat):
    if lat <= -90: return np.array([0.0, -1.0, 0.0])
    if lat >= 90: return np.array([0.0, 1.0, 0.0])
    if lon == -180: lon = 180
    p, l = math.radians(lat), -math.radians(lon)
    return np.array([math.cos(p) * math.cos(l), math.sin(p), math.cos(p) * math.sin(l)])

def frame(lon, lat):
    """The view frame of GlobeShapes.frame: up towards the viewer, east right, north up."""
    up = unit(lon, lat)
    east = np.cross([0.0, 1.0, 0.0], up)
    if np.linalg.norm(east) < 1e-9: east = np.array([0.0, 0.0, -1.0])
    east = east / np.linalg.norm(east)
    if np.dot(east, unit(lon + 0.001, lat) - up) < 0: east = -east
    north = np.cross(up, east); north /= np.linalg.norm(north)
    return up, east, north

VIEWS = {"atlantic": (-30, 20), "pacific": (180, 0), "south_pole": (0, -90)}
# (lon, lat, what is there); "land" points are well inside a country, away from any border.
PLACES = {
    "atlantic": [(-30, 20, "ocean"), (-52, -8, "land"), (10, 24, "land"), (-20, -30, "ocean"), (-100, 40, "land")],
    "pacific": [(180, 0, "ocean"), (134, -25, "land"), (-150, -20, "ocean")]
               + [(180, lat / 10, "land") for lat in range(670, 685, 2)]            # Chukotka across 180°
               + [(179.8, 67.5, "land"), (-179.8, 67.5, "land")],
    "south_pole": [(0, -90, "land"), (90, -80, "land")]
                  + [(180, lat / 10, "land") for lat in range(-899, -860, 2)]       # Antarctica's ±180° cut
                  + [(-179.5, -87, "land"), (179.5, -87, "land"), (0, -55, "ocean")],
}

sizes = set()
decoded = {}
for view, (clon, clat) in VIEWS.items():
    path = f"{DIR}/{view}.png"
    try:
        img = pngalpha.read_png(path)
    except Exception as e:  # noqa: BLE001
        fail(f"{path}: does not decode: {e}"); continue
    decoded[view] = img
    h, w, ch = img.shape
    sizes.add((w, h))
    if ch != 3: fail(f"{path}: {ch} channels, expected RGB")
    if w != h or w < 64: fail(f"{path}: {w}×{h}, expected a square of at least 64 pixels")
    img = img[:, :, :3]
    n = w * h
    bg = near(img, BACKGROUND, 0).sum() / n
    land = near(img, land_rgb).sum() / n
    ocean = near(img, ocean_rgb).sum() / n
    red = ((img[:, :, 0].astype(int) > img[:, :, 1].astype(int) + 40) & (img[:, :, 0].astype(int) > img[:, :, 2].astype(int) + 40)).sum()
    # The globe (r = 1) covers π·(FILL/2/radius)² of the picture; the background is outside the atmosphere.
    disc = math.pi * (FILL / 2 / radius) ** 2
    expect_bg = 1 - math.pi * (FILL / 2) ** 2
    print(f"{path}: {w}×{h}, {os.path.getsize(path):,} bytes; background {bg:.1%} (expected ≈ {expect_bg:.1%}), "
          f"ocean {ocean / disc:.1%} and land {land / disc:.1%} of the globe's disc, {red} red capital pixels")
    if abs(bg - expect_bg) > 0.02: fail(f"{path}: background covers {bg:.1%} of the picture, expected about {expect_bg:.1%}")
    lo, hi = {"atlantic": (0.20, 0.50), "pacific": (0.05, 0.30), "south_pole": (0.08, 0.35)}[view]
    if not lo <= land / disc <= hi: fail(f"{path}: land colour {land_rgb} covers {land / disc:.1%} of the globe, expected {lo:.0%}–{hi:.0%}")
    if ocean / disc < 0.35: fail(f"{path}: ocean colour {ocean_rgb} covers only {ocean / disc:.1%} of the globe")
    if red < 5: fail(f"{path}: no capital stars visible ({red} red pixels)")
    up, east, north = frame(clon, clat)
    scale = w * FILL / 2 / radius
    for lon, lat, what in PLACES[view]:
        v = unit(lon, lat) * params["fillRadius"]
        if np.dot(v, up) <= 0: fail(f"{view}: test place ({lon}, {lat}) is behind the globe"); continue
        x, y = int(w / 2 + scale * np.dot(v, east)), int(h / 2 - scale * np.dot(v, north))
        px = img[y, x]
        want = land_rgb if what == "land" else ocean_rgb
        if not near(px, want, 6):
            fail(f"{view}: pixel ({x}, {y}) at lon {lon}, lat {lat} is {tuple(int(c) for c in px)}, expected {what} {want}")

if len(sizes) > 1: fail(f"the previews differ in size: {sorted(sizes)}")

# Point countries: a disc in the land colour with a dark rim, e.g. Malta (atlantic view).
world = json.load(open(WORLD, encoding="utf-8"))
points = [f for f in world["features"] if f["geometry"]["type"] == "Point"]
f = None  # the point country being looked at, named if something breaks
try:
    if "atlantic" not in decoded:
        raise ValueError(f"{DIR}/atlantic.png did not decode (see above)")
    img = decoded["atlantic"][:, :, :3].astype(int)
    w = img.shape[1]
    up, east, north = frame(*VIEWS["atlantic"])
    scale = w * FILL / 2 / radius
    rims = 0
    seen = 0
    for f in points:
        lon, lat = f["geometry"]["coordinates"]
        v = unit(lon, lat) * params["pointRadius"]
        if np.dot(v, up) < 0.5: continue
        seen += 1
        # Brightness around a circle between the disc and the rim's outer edge, and around one
        # at 0.7 of the disc radius (between the capital star at the centre and the rim), both
        # laid on the disc's plane and projected, so foreshortening is accounted for.
        _, pe, pn = frame(lon, lat)
        def around(r, k):
            out = []
            for a in np.linspace(0, 2 * math.pi, k, endpoint=False):
                q = v + r * (math.cos(a) * pe + math.sin(a) * pn)
                out.append(img[int(w / 2 - scale * np.dot(q, north)), int(w / 2 + scale * np.dot(q, east))].sum())
            return np.median(out)
        ring = around((params["discRadius"] + params["rimRadius"]) / 2, 16)
        inner = around(0.7 * params["discRadius"], 8)
        if ring < inner - 60 and abs(inner - sum(land_rgb)) < 40: rims += 1
        else: print(f"  {f['id']}: no dark rim (brightness {ring:.0f} on the rim, {inner:.0f} inside)")
    print(f"point countries on the Atlantic side: {seen}, drawn as discs with a dark rim: {rims}")
    if seen == 0 or rims < 0.8 * seen: fail(f"only {rims} of {seen} point countries show a disc with a dark rim in atlantic.png")
except Exception as e:  # noqa: BLE001
    where = f" at point country {f['id']} ({f['properties'].get('name')})" if f is not None else ""
    fail(f"point-country check in {DIR}/atlantic.png{where}: {type(e).__name__}: {e}")

finish()
