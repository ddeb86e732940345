#!/usr/bin/env python3
"""The reference for `make bench`: every step of our `make all` written the way a competent
Python developer would with the ordinary stack, and then profiled and made lean: shapely 2
(GEOS ≥ 3.12 coverage operations, vectorised calls over all countries at once), pyproj, numpy,
mapbox_earcut, usd-core's pxr, OpenCV, h3-py, orjson, sqlite3, csv (and rsvg-convert for the
PNGs, as our Makefile). `bench/compare.sh` times it against our
stages in the same run; `bench/reference/Makefile` runs all of it (`reference all`) with -j2.

    reference.py ingest UNITS.geojson OUT.geojson [--places-out P] [--data-dir data] [--points-from UNITS50.geojson]
    reference.py world IN.geojson OUT.geojson --tolerance DEG [--report R] [--min-island-km2 10] [--point-area-km2 2500]
    reference.py calibrate IN.geojson --target-vertices N      (prints the tolerance; not timed)
    reference.py globe IN.geojson OUT.glb [--manifest M] [--usdz U] [--max-edge 2.5]
    reference.py preview | map | silhouettes | highlights | challenges | cities | lookup | routes | territory …
                                                               (ref_<step>.py; `reference.py STEP -h`)

Each step is in its own module, ref_<step>.py (calibrate is in ref_world.py), whose header
says what it does and does not do compared with our stage (docs/PERFORMANCE.md sums it up);
ref_io.py holds the JSON, GeoJSON and TSV reading and writing they share. This file imports
only the standard library, so that each step loads only the libraries it uses.
"""
import argparse
import importlib
import sys

STEP_MODULES = {"ingest": "ingest", "world": "world", "calibrate": "world", "globe": "globe", "preview": "preview", "map": "map",
                "silhouettes": "silhouettes", "highlights": "highlights", "challenges": "challenges", "cities": "cities",
                "lookup": "lookup", "routes": "routes", "territory": "territory"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    # Only the step asked for is imported (all of them for -h).
    wanted = sys.argv[1:2] if sys.argv[1:2] and sys.argv[1] in STEP_MODULES else list(STEP_MODULES)
    for module in dict.fromkeys(STEP_MODULES[s] for s in wanted):
        importlib.import_module(f"ref_{module}").add_parser(sub)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
