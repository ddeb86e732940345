#!/usr/bin/env python3
"""Writes data/region_codes.tsv: the ISO 3166-2 code of each first-level division the cities
stage names (data/geonames/admin1_names.tsv), so the city search takes "Mt Pleasant, SC",
"Sydney NSW" and "London, ON" (issue #40).

Source: ISO 3166-2 as Debian's iso-codes package ships it (/usr/share/iso-codes/json/iso_3166-2.json,
iso-codes 4.15.0, LGPL-2.1-or-later; `apt-get install iso-codes`). The code after the hyphen is
what people write after a city (SC, NSW, ON, BY, ZH). GeoNames' admin-1 codes are the same
letters for the United States only; elsewhere they are numbers or FIPS codes, so a
subdivision is linked to a GeoNames admin-1 name of its country when the two names agree,
compared without case, diacritics and punctuation, and without the kind of division
("kraj", "Province", "State of", …), each of the forms the ISO name lists ("Catalunya
[Cataluña]", "Praha, Hlavní město" also read "Hlavní město Praha"). Only top-level subdivisions
(no parent) are considered; a subdivision whose name agrees with no admin-1 name, or with
two, is left out (the count is printed), and so are codes without a letter (CZ-10). The ISO
name is kept too: the search takes it as another name of the division ("München, Bayern").

Usage: python3 scripts/data/region_codes.py [--iso-codes /usr/share/iso-codes/json/iso_3166-2.json]
"""
import argparse
import collections
import json
import os
import re
import unicodedata

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
ADMIN1 = os.path.join(ROOT, "data", "geonames", "admin1_names.tsv")
OUT = os.path.join(ROOT, "data", "region_codes.tsv")

# Words that name the kind of division, not the division: dropped before comparing.
KINDS = {"province", "provincia", "provinsi", "region", "regiao", "region", "state", "estado", "oblast",
         "kraj", "krai", "county", "district", "department", "departamento", "departement", "governorate",
         "prefecture", "of", "the", "de", "del", "do", "da", "la", "le", "republic", "autonomous",
         "territory", "federal", "capital", "city", "municipality", "canton", "land", "voivodeship",
         "wojewodztwo", "parish", "division", "zone", "area", "mesto", "hlavni"}


def fold(s):
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c)).lower()
    return " ".join(w for w in re.sub(r"[^0-9a-z]+", " ", s).split() if w not in KINDS)


def forms(name):
    """The forms an ISO name lists: 'A [B]' gives A and B, 'X, Y' also 'Y X'."""
    out = []
    for part in re.split(r"\s*\[|\]\s*", name):
        part = part.strip()
        if not part:
            continue
        out.append(part)
        if ", " in part:
            a, b = part.split(", ", 1)
            out.append(f"{b} {a}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iso-codes", default="/usr/share/iso-codes/json/iso_3166-2.json")
    args = ap.parse_args()
    iso = json.load(open(args.iso_codes, encoding="utf-8"))["3166-2"]
    admin = {}
    for line in open(ADMIN1, encoding="utf-8"):
        if line.startswith("#") or line.startswith("country_code\t"):
            continue
        cc, code, name, _ = line.rstrip("\n").split("\t")
        admin[(cc, code)] = name
    by_name = collections.defaultdict(set)
    for (cc, code), name in admin.items():
        if fold(name):
            by_name[(cc, fold(name))].add(code)
    rows, unmatched = {}, 0
    for s in iso:
        if "parent" in s:
            continue
        cc, sub = s["code"].split("-", 1)
        codes = set()
        if not re.search("[A-Z]", sub):  # CZ-10, FR-75: nobody writes a number after a city
            continue
        if cc == "US" and (cc, sub) in admin:
            codes = {sub}
        else:
            for f in forms(s["name"]):
                codes |= by_name.get((cc, fold(f)), set())
        if len(codes) != 1:
            unmatched += 1
            continue
        code = codes.pop()
        key = (cc, code)
        if key in rows:  # two subdivisions for one division: keep neither's claim ambiguous, keep the first
            continue
        rows[key] = (sub, s["name"])
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("# ISO 3166-2 code of GeoNames first-level divisions (data/geonames/admin1_names.tsv): Debian iso-codes 4.15.0 "
                "(LGPL-2.1-or-later), linked by name; regenerate with scripts/data/region_codes.py\n")
        f.write("country_code\tadmin1_code\tiso_code\tiso_name\n")
        for (cc, code), (sub, name) in sorted(rows.items()):
            f.write(f"{cc}\t{code}\t{sub}\t{name}\n")
    print(f"region_codes: {len(rows)} of {len(admin)} admin-1 divisions have an ISO 3166-2 code; "
          f"{unmatched} top-level ISO subdivisions matched no single admin-1 name")


if __name__ == "__main__":
    main()
