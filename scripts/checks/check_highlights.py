"""Reads dist/country_highlights.json with Python's json (an independent reader) and checks it
against dist/world.geojson:

  * the keys are exactly the ids of world.geojson, in sorted order, none repeated;
  * each value is an object with exactly the keys "cities" and "attractions", in that order;
  * each list has 1–5 entries: non-empty strings, trimmed, unique within the list ignoring case;
  * every string (keys and entries) is in Unicode NFC;
  * the file ends with a newline.

Paths follow DIST and WORLD_OUT (check_highlights.py [HIGHLIGHTS [WORLD]] overrides them).
"""
import json
import os
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import dist, fail, finish, world_path  # noqa: E402

PATH = sys.argv[1] if len(sys.argv) > 1 else dist("country_highlights.json")
WORLD = sys.argv[2] if len(sys.argv) > 2 else world_path()
FIELDS = ["cities", "attractions"]


def reject_duplicates(pairs):
    keys = [k for k, _ in pairs]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        fail(f"{PATH}: repeated keys {dup}")
    return dict(pairs)


raw = open(PATH, "rb").read()
if not raw.endswith(b"\n"):
    fail(f"{PATH}: does not end with a newline")
doc = json.loads(raw.decode("utf-8"), object_pairs_hook=reject_duplicates)
world_ids = [f["id"] for f in json.load(open(WORLD, encoding="utf-8"))["features"]]

counts = {k: 0 for k in FIELDS}
if not isinstance(doc, dict):
    fail(f"{PATH}: top level is {type(doc).__name__}, expected an object")
    finish()
keys = list(doc)
if sorted(keys) != sorted(world_ids):
    fail(f"{PATH}: keys differ from {WORLD}'s ids: missing {sorted(set(world_ids) - set(keys))}, extra {sorted(set(keys) - set(world_ids))}")
if keys != sorted(keys):
    bad = [f"{a} before {b}" for a, b in zip(keys, keys[1:]) if a > b]
    fail(f"{PATH}: keys not sorted: {bad[:10]}")
for cid, v in doc.items():
    if unicodedata.normalize("NFC", cid) != cid:
        fail(f"{PATH}: key {cid!r} is not NFC")
    if not isinstance(v, dict) or list(v) != FIELDS:
        fail(f"{PATH}: {cid}: expected an object with keys {FIELDS} in that order, got {list(v) if isinstance(v, dict) else type(v).__name__}")
        continue
    for field in FIELDS:
        items = v[field]
        if not isinstance(items, list) or not 1 <= len(items) <= 5:
            fail(f"{PATH}: {cid}.{field}: expected a list of 1–5 entries, got {items!r}")
            continue
        counts[field] += len(items)
        seen = {}
        for k, s in enumerate(items):
            where = f"{PATH}: {cid}.{field}[{k}]"
            if not isinstance(s, str) or not s:
                fail(f"{where}: {s!r} is not a non-empty string"); continue
            if s != s.strip():
                fail(f"{where}: {s!r} has leading or trailing white space")
            if unicodedata.normalize("NFC", s) != s:
                fail(f"{where}: {s!r} is not NFC")
            key = unicodedata.normalize("NFC", s).strip().casefold()
            if key in seen:
                fail(f"{where}: {s!r} repeats entry {seen[key]} ({items[seen[key]]!r}) ignoring case")
            else:
                seen[key] = k

print(f"{PATH}: {len(raw):,} bytes, {len(keys)} countries (world.geojson has {len(world_ids)}), "
      f"{counts['cities']} cities, {counts['attractions']} attractions")
finish()
