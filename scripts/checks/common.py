"""Helpers shared by the Python consumer checks (imported like pngalpha):

  * fail(msg) / finish(label): collect failures, print "FAIL: …", exit non-zero at the end;
  * paths that follow the Makefile's variables: DIST, BUILD, WORLD_OUT, and RSVG (the
    rsvg-convert executable);
  * polygons(geom) / rings(geom): the polygons / rings of a GeoJSON geometry dict;
  * ring_area / geometry_area / area_km2: exact areas on the sphere of EARTH_RADIUS_KM (one
    constant for every check) of rings whose edges are straight in lon/lat;
  * laea(...): a spherical Lambert azimuthal equal-area projection;
  * the palette of CONTRACTS §3 and the sRGB transfer functions.
"""
import math
import os
import sys

import numpy as np

# ---- failures -------------------------------------------------------------------------------
_failures = []
_echo = False


def echo_failures(on=True):
    """Print each failure when it happens (beside the progress lines) instead of at the end."""
    global _echo
    _echo = on


def fail(msg):
    _failures.append(msg)
    if _echo:
        print("FAIL:", msg)


def failures():
    return list(_failures)


def finish(label=None):
    """Prints the failures (unless already echoed), then "<label>: N failures" or "<label>: ok"
    when a label is given, and exits 1 if anything failed, else 0."""
    if not _echo:
        for m in _failures:
            print("FAIL:", m)
    if label:
        print(f"{label}: {len(_failures)} failures" if _failures else f"{label}: ok")
    sys.exit(1 if _failures else 0)


# ---- paths (the Makefile's variables) ---------------------------------------------------------
def dist(*parts):
    return os.path.join(os.environ.get("DIST", "dist"), *parts)


def build(*parts):
    return os.path.join(os.environ.get("BUILD", "build"), *parts)


def world_path(default=None):
    """WORLD_OUT if set, else `default`, else $DIST/world.geojson."""
    return os.environ.get("WORLD_OUT") or default or dist("world.geojson")


def ingest_path():
    return os.environ.get("INGEST_OUT") or build("ingest", "countries.geojson")


def rsvg_convert():
    return os.environ.get("RSVG", "rsvg-convert")


# ---- GeoJSON geometry -------------------------------------------------------------------------
def polygons(geom):
    """The polygons (lists of rings, outer first) of a Polygon/MultiPolygon; [] otherwise."""
    if geom["type"] == "Polygon":
        return [geom["coordinates"]]
    if geom["type"] == "MultiPolygon":
        return geom["coordinates"]
    return []


def rings(geom):
    return [r for p in polygons(geom) for r in p]


# ---- areas on the sphere ------------------------------------------------------------------------
# The authalic radius of WGS84 (the sphere with the ellipsoid's area), also used for distances.
WGS84_A, WGS84_F = 6378137.0, 1 / 298.257223563
WGS84_E2 = WGS84_F * (2 - WGS84_F)
EARTH_RADIUS_KM = 6371.007180918
EARTH_RADIUS_M = EARTH_RADIUS_KM * 1000
_E = math.sqrt(WGS84_E2)


def _q(sinphi):
    return (1 - WGS84_E2) * (sinphi / (1 - WGS84_E2 * sinphi ** 2) - np.log((1 - _E * sinphi) / (1 + _E * sinphi)) / (2 * _E))


_QP = float(_q(np.float64(1.0)))


def authalic_latitude(lat_deg):
    """Authalic latitude (degrees) of a WGS84 geodetic latitude."""
    return np.degrees(np.arcsin(np.clip(_q(np.sin(np.radians(lat_deg))) / _QP, -1, 1)))


def ring_area(ring, authalic=False):
    """Signed area (steradians, counter-clockwise positive) on the unit sphere of a lon/lat ring
    whose edges are straight lines in lon/lat (as a map draws them): exact integral of
    sin(lat) d(lon) with lat linear in lon along each edge. authalic=True first maps geodetic
    latitudes to authalic ones (areas on the WGS84 ellipsoid, scaled to the authalic sphere)."""
    r = np.asarray(ring, dtype=np.float64)
    if len(r) < 2:
        return 0.0
    if (r[0] != r[-1]).any():
        r = np.vstack([r, r[:1]])  # close it
    lat = authalic_latitude(r[:, 1]) if authalic else r[:, 1]
    lon, lat = np.radians(r[:, 0]), np.radians(lat)
    dl = lon[1:] - lon[:-1]
    p1, p2 = lat[:-1], lat[1:]
    dp = p2 - p1
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_sin = np.where(np.abs(dp) < 1e-9, np.sin((p1 + p2) / 2), (np.cos(p1) - np.cos(p2)) / dp)
    return float(-np.sum(dl * mean_sin))


def geometry_area(geom, authalic=False):
    """Area (steradians) of a GeoJSON Polygon/MultiPolygon: outer rings minus holes."""
    return sum(abs(ring_area(p[0], authalic)) - sum(abs(ring_area(h, authalic)) for h in p[1:]) for p in polygons(geom))


def area_km2(geom, authalic=False):
    return geometry_area(geom, authalic) * EARTH_RADIUS_KM ** 2


def ring_km2(coords, authalic=True):
    """Unsigned area (km²) of one ring; by default on the WGS84 ellipsoid (authalic latitudes)."""
    c = np.asarray(coords, dtype=float)
    if len(c) < 4:
        return 0.0
    return abs(ring_area(c, authalic)) * EARTH_RADIUS_KM ** 2


# ---- projection -------------------------------------------------------------------------------
def laea(lon, lat, lon0, lat0):
    """Spherical Lambert azimuthal equal-area (unit sphere) centred at (lon0, lat0), degrees in."""
    lam, phi = np.radians(np.asarray(lon) - lon0), np.radians(np.asarray(lat))
    p1 = math.radians(lat0)
    k = np.sqrt(2 / np.maximum(1e-12, 1 + math.sin(p1) * np.sin(phi) + math.cos(p1) * np.cos(phi) * np.cos(lam)))
    return k * np.cos(phi) * np.sin(lam), k * (math.cos(p1) * np.sin(phi) - math.sin(p1) * np.cos(phi) * np.cos(lam))


def laea_inverse(x, y, lon0, lat0):
    """(lon, lat) in degrees of a point (x, y) of laea(…, lon0, lat0)."""
    p1 = math.radians(lat0)
    rho = math.hypot(x, y)
    if rho < 1e-15:
        return lon0, lat0
    c = 2 * math.asin(min(1.0, rho / 2))
    lat = math.asin(math.cos(c) * math.sin(p1) + y * math.sin(c) * math.cos(p1) / rho)
    lon = lon0 + math.degrees(math.atan2(x * math.sin(c), rho * math.cos(p1) * math.cos(c) - y * math.sin(p1) * math.sin(c)))
    return lon, math.degrees(lat)


# ---- colours ------------------------------------------------------------------------------------
# CONTRACTS §3, sRGB components in 0…1.
PALETTE = {
    "ocean": (0.184, 0.525, 0.651), "land": (0.204, 0.745, 0.510), "land_selected": (0.45, 0.85, 0.60),
    "visited": (0.949, 0.941, 0.075), "visited_selected": (1.0, 1.0, 0.3), "wishlist": (0.6, 0.4, 0.8),
    "wishlist_selected": (0.75, 0.55, 0.95), "atmosphere": (0.6, 0.8, 1.0),
}


def linear(c):
    """sRGB component (0…1) → linear light."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def srgb(c):
    """Linear light (0…1) → sRGB component."""
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def rgb8(name_or_rgb):
    """A palette colour (name or 0…1 triple) as 8-bit sRGB."""
    rgb = PALETTE[name_or_rgb] if isinstance(name_or_rgb, str) else name_or_rgb
    return tuple(round(255 * c) for c in rgb)


def near(px, rgb, tol=3):
    """Mask of pixels (…, ≥3 channels) within `tol` of an 8-bit RGB colour in every channel."""
    return np.all(np.abs(px[..., :3].astype(int) - np.array(rgb)) <= tol, axis=-1)
