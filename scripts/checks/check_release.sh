#!/usr/bin/env bash
# run-all: alone (see run-all.sh)
# Two releases, the second from an edited copy of the data directory, and what changes.json says:
#   A: make release of the products already built (DATA=data, SCALE=10m, the vertex budget decides);
#   B: make release DATA=<copy> RELEASE_PREVIOUS=A, where the copy (scripts/checks/lib/release_edit.py)
#      moves ONE vertex of the Portugal–Spain border 4 km across a point of the lookup probe, renames
#      Nauru's capital, moves one populated place onto another probe point and changes two cities'
#      population and latitude; B builds in its own BUILD/DIST (build/release-test/b-*), reusing A's
#      world tolerance.
# Then, read with Python's json and sha256sum:
#   * A's and B's manifests: every file of the directory listed with its true bytes and sha256
#     (sha256sum), nothing listed that is missing; every data file an input with its sha256, and
#     source/version from data/README.md for the Natural Earth files; parameters; the commit; B's
#     world tolerance is A's to the bit and says it came from the previous release;
#   * B's changes.json lists exactly PT and ES (geometry_km ≥ 1, an area change) and NR (capital
#     ["Yaren", "Yaren District"], no geometry): no other country, no quiz day changed,
#     no city added, retired, renamed or moved, 2 cities with other columns changed, Nauru's capital
#     in the cities app's countries table, file deltas for the globe, USDZ and lookup; the lookup
#     probe: exactly the one point the border vertex crossed answers the other country (by_change,
#     examples) and exactly one point's nearest city differs (the moved place), as release_edit.py
#     computed them (data-edited.expected.json); CHANGES.md has the headline and the three rows;
#   * B's page passes scripts/checks/check_inspect.sh with PT and ES highlighted; its
#     screenshot is build/release-test/screenshot.png.
set -uo pipefail
# Our own makes, with their own job slots and run id (their rebuilt-tables list only their stages).
unset MAKEFLAGS MFLAGS MAKELEVEL MAKE_RUN_ID
cd "$(dirname "$0")/../.."
T=build/release-test
DAY=2026-11-25
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$T/A" "$T/B" "$T/b-build" "$T/b-dist"
mkdir -p "$T"

t0=$(date +%s)
make --no-print-directory release RELEASE_DIR=$T/A RELEASE_DAY=$DAY > $T/A.log 2>&1 || { tail -n 30 $T/A.log; echo "FAIL: make release (A)"; exit 1; }
python3 scripts/checks/lib/release_edit.py data $T/data-edited || { echo "FAIL: could not make the edited data"; exit 1; }
t1=$(date +%s)
make --no-print-directory release DATA=$T/data-edited BUILD=$T/b-build DIST=$T/b-dist RELEASE_DIR=$T/B RELEASE_PREVIOUS=$T/A \
  RELEASE_DAY=$DAY > $T/B.log 2>&1 || { tail -n 30 $T/B.log; echo "FAIL: make release (B)"; exit 1; }
t2=$(date +%s)
echo "release A $((t1 - t0)) s (products already built), release B $((t2 - t1)) s (every product from the edited data)"

for R in A B; do
  # Every file against sha256sum, both ways.
  (cd $T/$R && find . -type f ! -path ./manifest.json | sed 's|^\./||' | LC_ALL=C sort | xargs -d '\n' sha256sum) > $T/$R.sha256 \
    || fail "sha256sum of $T/$R"
done

python3 - "$T" <<'PY' || fails=$((fails + 1))
import json, os, sys
T = sys.argv[1]
bad = []
def check(c, msg):
    if not c: bad.append(msg)
for r in ("A", "B"):
    m = json.load(open(f"{T}/{r}/manifest.json"))
    listed = m["products"]
    actual = {}
    for line in open(f"{T}/{r}.sha256"):
        digest, path = line.rstrip("\n").split("  ", 1)
        actual[path] = digest
    check(set(listed) == set(actual), f"{r}: manifest lists {len(listed)} files, the directory has {len(actual)}: "
          f"{sorted(set(listed) ^ set(actual))[:5]}")
    for p, d in actual.items():
        if p in listed:
            check(listed[p]["sha256"] == d, f"{r}: {p} sha256 {listed[p]['sha256']} but sha256sum says {d}")
            check(listed[p]["bytes"] == os.path.getsize(f"{T}/{r}/{p}"), f"{r}: {p} bytes differ")
    for need in ("world.geojson", "globe.glb", "globe.usdz", "lookup/lookup.bin", "supabase/seed.sql", "supabase/cities/seed.sql",
                 "routes/content.sqlite3", "territory/territory_hex.sql", "inspect/index.html", "changes.json", "CHANGES.md"):
        check(need in listed, f"{r}: no {need} in the release")
    inputs = m["inputs"]["files"]
    ne = inputs.get("natural-earth/ne_10m_admin_0_map_units.geojson", {})
    check(ne.get("version", "").startswith("5.1.2") and "Natural Earth" in (ne.get("source") or ""), f"{r}: NE 10m input provenance {ne}")
    check(all(len(v.get("sha256", "")) == 64 for v in inputs.values()), f"{r}: an input without sha256")
    check("world" in m["parameters"] and "ingest" in m["parameters"], f"{r}: parameters {list(m['parameters'])}")
    check(len(m["release"]["commit"]) >= 40, f"{r}: commit {m['release']['commit']}")
a, b = (json.load(open(f"{T}/{r}/manifest.json")) for r in "AB")
check(a["world"]["decided_by"].startswith("vertex budget"), f"A's tolerance: {a['world']}")
check(b["world"]["tolerance_km"] == a["world"]["tolerance_km"] and "previous release" in b["world"]["decided_by"],
      f"B's tolerance {b['world']} is not A's {a['world']['tolerance_km']}")

c = json.load(open(f"{T}/B/changes.json"))
countries = c["countries"]
check(sorted(countries) == ["ES", "NR", "PT"], f"changed countries {sorted(countries)}, expected exactly ES, NR, PT")
for iso in ("PT", "ES"):
    k = countries.get(iso, {})
    check(k.get("geometry_km", 0) >= 1, f"{iso}: geometry_km {k.get('geometry_km')} (the vertex moved 4 km)")
    check(k.get("geometry_km", 99) <= 4.5, f"{iso}: geometry_km {k.get('geometry_km')} is more than the 4 km edit")
    check(k.get("area_pct") not in (None, 0), f"{iso}: no area change")
    check("fields" not in k, f"{iso}: field changes {k.get('fields')}")
nr = countries.get("NR", {})
check(nr.get("fields") == {"capital": ["Yaren", "Yaren District"]}, f"NR fields {nr.get('fields')}")
check("geometry_km" not in nr, f"NR geometry changed: {nr}")
check(c["quiz"]["days_added"] == 0 and not c["quiz"]["days_changed_before_release_day"] and not c["quiz"]["days_changed_from_release_day"],
      f"quiz {c['quiz']}")
check(not c["cities"]["renamed"] and not c["cities"]["added"] and not c["cities"]["retired"] and not c["cities"]["moved"], f"cities {c['cities']}")
check(c["cities"]["countries_table"] == {"NR": {"capital": ["Yaren", "Yaren District"]}}, f"the cities app's countries table: {c['cities']['countries_table']}")
for f in ("globe.glb", "globe.usdz", "lookup/lookup.bin"):
    check(c["files"]["sizes"][f]["new_bytes"] == b["products"][f]["bytes"], f"files: {f} size delta")
check("world.geojson" in c["files"]["changed"], "files: world.geojson not among the changed products")
check(c["lookup"]["probe_points"] == 100000, f"lookup probe {c['lookup']['probe_points']}")
e = json.load(open(f"{T}/data-edited.expected.json", encoding="utf-8"))
bp = e["border_probe"]
check(c["cities"]["other_columns_changed"] == e["cities_other_columns_changed"],
      f"cities.other_columns_changed {c['cities']['other_columns_changed']}, expected {e['cities_other_columns_changed']} ({', '.join(e['cities'])})")
check(c["lookup"]["by_change"] == {f"{bp['old']} → {bp['new']}": 1} and c["lookup"]["country_differs"] == 1,
      f"lookup.by_change {c['lookup']['by_change']} (country_differs {c['lookup']['country_differs']}), expected one probe point {bp['old']} → {bp['new']}")
ex = c["lookup"]["examples"]
check(len(ex) == 1 and (ex[0]["old"], ex[0]["new"]) == (bp["old"], bp["new"])
      and abs(ex[0]["lat"] - bp["lat"]) < 1e-4 and abs(ex[0]["lon"] - bp["lon"]) < 1e-4,
      f"lookup.examples {ex}, expected probe point {bp['index']} ({bp['lat']:.5f}, {bp['lon']:.5f})")
check(c["lookup"]["nearest_city_differs"] == e["nearest_city_differs"],
      f"lookup.nearest_city_differs {c['lookup']['nearest_city_differs']}, expected {e['nearest_city_differs']} (the place {e['place']} moved onto a probe point)")
md = open(f"{T}/B/CHANGES.md", encoding="utf-8").read()
for s in ("3 countries changed", "| PT |", "| ES |", "| NR |", "capital: Yaren → Yaren District", "## Quiz", "## Cities", "## Lookup", "## Files"):
    check(s in md, f"CHANGES.md lacks {s!r}")
for x in bad: print("FAIL:", x)
moves = ", ".join("%s %s" % (k, v.get("geometry_km", "fields only")) for k, v in sorted(countries.items()))
print(f"changes.json: {moves}; lookup: {c['lookup']['country_differs']} of {c['lookup']['probe_points']} probe points differ "
      f"{c['lookup']['by_change']}, {c['lookup']['nearest_city_differs']} nearest city; cities: {c['cities']['other_columns_changed']} other columns changed")
sys.exit(1 if bad else 0)
PY

OUT=$T/inspect-B SHOT=$T/screenshot.png bash scripts/checks/check_inspect.sh $T/B/inspect $T/B/world.geojson || fail "B's page"
[ $fails -eq 0 ] && { echo "release OK: $T/A, $T/B"; sed -n '1,12p' $T/B/CHANGES.md; }
[ $fails -eq 0 ]
