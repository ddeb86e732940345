"""The quiz's answers (CONTRACTS §1, issue #12), read from build/ingest/countries.geojson (and
dist/world.geojson when present, which must carry the same answers) with Python's json:

  * name/aliases and capital/capitalAliases are trimmed NFC strings, no alias repeats the name
    (or capital) or another alias ignoring case; the form without diacritics is always accepted;
  * no name or alias of one country equals, ignoring case, diacritics, hyphens, dots,
    apostrophes and Saint/St., the name or an alias of another; the same among capitals;
  * the capital agrees with GeoNames' (data/geonames/countries.tsv) or data/capitals.tsv has a
    row (with a reason) for that country: every disagreement is resolved there;
  * the answers issue #12 names are right (Kyiv, Copenhagen, Gitega, Dodoma, Porto-Novo, ...),
    and countries with two capitals in common use accept the other one.
The folding here is written independently of the Swift stage's.
"""
import json
import os
import re
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import fail, finish, ingest_path, world_path  # noqa: E402

SPECIAL = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss",
                         "đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "ı": "i", "þ": "th", "Þ": "Th",
                         "ð": "d", "Ð": "D", "ʻ": "'", "’": "'", "‘": "'"})


def ascii_fold(s):
    s = unicodedata.normalize("NFD", s)
    s = "".join(c for c in s if unicodedata.category(c) != "Mn")
    return unicodedata.normalize("NFC", s.translate(SPECIAL))


def key(s):
    """What two answers share when a player could not tell them apart by typing."""
    s = ascii_fold(s).casefold().replace("-", " ")
    s = re.sub(r"[.'’]", "", s)
    s = re.sub(r"\bsaint\b", "st", s)
    return " ".join(s.split())


def tsv(path):
    rows, header = [], None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        if header is None:
            header = cells
            continue
        rows.append(dict(zip(header, cells + [""] * (len(header) - len(cells)))))
    return rows


def load(path):
    with open(path, encoding="utf-8") as f:
        return {f["id"]: f["properties"] for f in json.load(f)["features"]}


def answers(props, field, aliases_field):
    main = props.get(field)
    return ([main] if main else []) + list(props.get(aliases_field, []))


def check_strings(cid, props, field, aliases_field):
    main = props.get(field)
    al = props.get(aliases_field)
    if main is None:
        if al:
            fail(f"{cid}: {aliases_field} without a {field}")
        return
    if not isinstance(al, list):
        fail(f"{cid}: {aliases_field} is {type(al).__name__}, not a list")
        return
    seen = {main.casefold()}
    for s in [main] + al:
        if not isinstance(s, str) or not s or s != s.strip() or unicodedata.normalize("NFC", s) != s:
            fail(f"{cid}: {field} answer {s!r} is not a trimmed NFC string")
    for a in al:
        if a.casefold() in seen:
            fail(f"{cid}: {aliases_field} repeats {a!r} (ignoring case)")
        seen.add(a.casefold())
    for s in [main] + al:
        folded = ascii_fold(s)
        if folded.casefold() not in seen:
            fail(f"{cid}: {field} answer {s!r} is accepted but its form without diacritics {folded!r} is not")


def check_unique(countries, field, aliases_field, what):
    owner = {}
    for cid in sorted(countries):
        for s in answers(countries[cid], field, aliases_field):
            k = key(s)
            if k in owner and owner[k][0] != cid:
                fail(f"{what}: {s!r} of {cid} equals {owner[k][1]!r} of {owner[k][0]} (key {k!r})")
            owner.setdefault(k, (cid, s))
    return len(owner)


PATH = ingest_path()
countries = load(PATH)
for cid, p in sorted(countries.items()):
    check_strings(cid, p, "name", "aliases")
    check_strings(cid, p, "capital", "capitalAliases")
    if "aliases" not in p:
        fail(f"{cid}: no aliases property")
    if p.get("capital") and "capitalAliases" not in p:
        fail(f"{cid}: a capital but no capitalAliases property")
names = check_unique(countries, "name", "aliases", "country names")
capitals = check_unique(countries, "capital", "capitalAliases", "capitals")

# GeoNames' capital is the second source: a disagreement must be resolved in data/capitals.tsv.
geonames = {r["iso"]: r for r in tsv("data/geonames/countries.tsv")}
table = {r["id"]: r for r in tsv("data/capitals.tsv")}
disagreements = 0
for cid, p in sorted(countries.items()):
    g = geonames.get(cid, {}).get("capital", "")
    ours = p.get("capital") or ""
    if key(g) == key(ours):
        continue
    disagreements += 1
    row = table.get(cid)
    if row is None or not row.get("reason"):
        fail(f"{cid}: capital {ours or '(none)'!r}, GeoNames {g or '(none)'!r}, and no row with a reason in data/capitals.tsv")
    elif (row["capital"] == "-") != (not ours) or (ours and row["capital"] != ours):
        fail(f"{cid}: capital {ours!r} is not data/capitals.tsv's {row['capital']!r}")

EXPECT = {  # id: (capital, aliases that must be accepted)
    "UA": ("Kyiv", ["Kiev"]), "DK": ("Copenhagen", ["København", "Kobenhavn"]), "BI": ("Gitega", ["Bujumbura"]),
    "TZ": ("Dodoma", ["Dar es Salaam"]), "BJ": ("Porto-Novo", ["Cotonou"]), "KW": ("Kuwait City", []),
    "GT": ("Guatemala City", []), "KZ": ("Astana", ["Nur-Sultan"]), "US": ("Washington, D.C.", ["Washington"]),
    "AG": ("St. John's", ["Saint John's", "St John's"]), "IS": ("Reykjavík", ["Reykjavik"]),
    "BR": ("Brasília", ["Brasilia"]), "PY": ("Asunción", ["Asuncion"]), "ST": ("São Tomé", ["Sao Tome"]),
    "BO": ("Sucre", ["La Paz"]), "CI": ("Yamoussoukro", ["Abidjan"]), "SZ": ("Mbabane", ["Lobamba"]),
    "MY": ("Kuala Lumpur", ["Putrajaya"]), "NL": ("Amsterdam", ["The Hague"]), "ZA": ("Pretoria", ["Cape Town"]),
    "LK": ("Sri Jayawardenepura Kotte", ["Colombo"]),
}
for cid, (cap, accepted) in EXPECT.items():
    p = countries.get(cid, {})
    if p.get("capital") != cap:
        fail(f"{cid}: capital {p.get('capital')!r}, expected {cap!r}")
    for a in accepted:
        if a.casefold() not in {s.casefold() for s in p.get("capitalAliases", [])}:
            fail(f"{cid}: capital alias {a!r} missing (has {p.get('capitalAliases')})")
for cid, name, accepted in [("CZ", "Czechia", ["Czech Republic"]), ("ST", "São Tomé and Príncipe", ["Sao Tome and Principe"]),
                            ("CI", "Côte d'Ivoire", ["Cote d'Ivoire", "Ivory Coast"]), ("GB", "United Kingdom", ["UK"]),
                            ("KN", "Saint Kitts and Nevis", ["St. Kitts and Nevis", "St Kitts and Nevis"])]:
    p = countries.get(cid, {})
    if p.get("name") != name:
        fail(f"{cid}: name {p.get('name')!r}, expected {name!r}")
    for a in accepted:
        if a.casefold() not in {s.casefold() for s in p.get("aliases", [])}:
            fail(f"{cid}: alias {a!r} missing (has {p.get('aliases')})")
# One treatment of diacritics: a name that carries them carries the English name's (no half-accented name).
for cid, p in countries.items():
    if ("Principe" in p["name"]) or ("Tome" in p["name"] and "Tomé" not in p["name"]):
        fail(f"{cid}: name {p['name']!r} is half accented")

# dist/world.geojson passes the answers through unchanged.
world = world_path()
if os.path.exists(world):
    w = load(world)
    for cid, p in sorted(countries.items()):
        for k in ("name", "aliases", "capital", "capitalAliases"):
            if w.get(cid, {}).get(k) != p.get(k):
                fail(f"{world}: {cid} {k} {w.get(cid, {}).get(k)!r} differs from {PATH}'s {p.get(k)!r}")

print(f"{PATH}: {len(countries)} countries, {names} distinct name keys, {capitals} distinct capital keys, "
      f"{disagreements} capitals differ from GeoNames (each resolved in data/capitals.tsv)")
finish("check_quiz_answers")
