#!/usr/bin/env bash
# run-all: one make (see run-all.sh)
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

python3 scripts/checks/lib/release_changes.py "$T" || fails=$((fails + 1))

OUT=$T/inspect-B SHOT=$T/screenshot.png bash scripts/checks/check_inspect.sh $T/B/inspect $T/B/world.geojson || fail "B's page"
[ $fails -eq 0 ] && { echo "release OK: $T/A, $T/B"; sed -n '1,12p' $T/B/CHANGES.md; }
[ $fails -eq 0 ]
