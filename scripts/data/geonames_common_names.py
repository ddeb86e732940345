#!/usr/bin/env python3
"""Writes data/geonames/common_names.tsv: for each GeoNames city of cities15000.tsv, the other
names of it that people use, so the city search can rank them above the rest of its alternate
names (issue #33).

GeoNames marks the names people use (isPreferredName, isShortName) only in alternateNamesV2,
which this repository does not hold (cities15000 lists alternate names without flags). Natural
Earth's populated places 4.0.0 (public domain, data/natural-earth/) carry, for 7,300 places with a
GEONAMEID, the names an atlas prints: NAME, NAMEASCII, NAMEALT, NAMEPAR and the English, German,
Spanish, French and Portuguese names (NAME_EN … NAME_PT). A GeoNames alternate name of the city
that Natural Earth also gives it (compared without case and diacritics) is a common name; the
city's own GeoNames name is not listed again, and no name Natural Earth alone has is added (a
ranking signal, not a new source of names).

Usage: python3 scripts/data/geonames_common_names.py   (deterministic: rows sorted by id)
"""
import csv
import json
import os
import unicodedata

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
CITIES = os.path.join(ROOT, "data", "geonames", "cities15000.tsv")
PLACES = os.path.join(ROOT, "data", "natural-earth", "ne_10m_populated_places.geojson")
OUT = os.path.join(ROOT, "data", "geonames", "common_names.tsv")
FIELDS = ["NAME", "NAMEASCII", "NAMEALT", "NAMEPAR", "NAME_EN", "NAME_DE", "NAME_ES", "NAME_FR", "NAME_PT"]


def fold(s):
    """Case, diacritics and punctuation do not make another name."""
    s = unicodedata.normalize("NFKD", s.casefold())
    return " ".join("".join(c if c.isalnum() else " " for c in s if not unicodedata.combining(c)).split())


def main():
    with open(CITIES, encoding="utf-8") as f:
        next(f)  # the provenance comment
        cities = {r["geonameid"]: r for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)}
    common = {}
    for feat in json.load(open(PLACES, encoding="utf-8"))["features"]:
        p = feat["properties"]
        gid = p.get("GEONAMEID")
        city = cities.get(str(int(gid))) if gid and gid > 0 else None
        if city is None:
            continue
        atlas = {fold(p[k]) for k in FIELDS if p.get(k)}
        own = fold(city["name"])
        names = common.setdefault(city["geonameid"], {})
        for alt in sorted(city["alternate_names"].split("|")):
            # One spelling per folded name (the search folds them alike): the first in code-point order.
            if alt and fold(alt) in atlas and fold(alt) != own:
                names.setdefault(fold(alt), alt)
    rows = sorted(((int(k), sorted(v.values())) for k, v in common.items() if v))
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("# The other names people use of GeoNames cities (CC BY 4.0, www.geonames.org): those Natural Earth "
                "populated places 4.0.0 (public domain) also gives the city; regenerate with "
                "scripts/data/geonames_common_names.py\n")
        f.write("geonameid\tcommon_names\n")
        for gid, names in rows:
            f.write(f"{gid}\t{'|'.join(names)}\n")
    print(f"geonames_common_names: {len(rows)} cities with common other names ({sum(len(n) for _, n in rows)} names)")


if __name__ == "__main__":
    main()
