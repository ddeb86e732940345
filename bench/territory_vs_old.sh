#!/usr/bin/env bash
# The territory night side by side: this build's geo-territory against the one built from main at
# 71d624f (before issue #22), on the 10,000-run night, in pairs (new, old, new, old, …) so a
# machine whose speed drifts moves both alike. CPU is user + system and peak memory the largest
# resident size, both from /usr/bin/time (bench/lib.sh's measure); the ratio is taken pair by pair and its median quoted.
#
#   bench/territory_vs_old.sh [RUNS_FILE] [PAIRS]     defaults: build/bench/territory_runs.geojson, 3
#
# The old binary is built once into build/bench/territory-old/ (kept between bench runs) from a
# detached worktree of that commit in a temporary folder, removed afterwards (TERRITORY_OLD_BIN=
# names one already built). The nightly outputs, no --loops-geojson,
# as make bench runs the night.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-build/bench/territory_runs.geojson}
pairs=${2:-3}
old=${TERRITORY_OLD_BIN:-build/bench/territory-old/geo-territory}
new=.build/release/geo-territory
source bench/lib.sh
runs_file "$runs"
if [ ! -x "$old" ]; then
  src=$(mktemp -d)/territory-old
  git worktree add --detach "$src" 71d624f >/dev/null
  # The package checkouts this build already has (the same swift-argument-parser), not fetched again.
  mkdir -p "$src/.build"; cp -a .build/checkouts .build/repositories "$src/.build/" 2>/dev/null || true
  echo "building geo-territory at 71d624f (once, into $(dirname "$old")/)"
  (cd "$src" && swift build -c release --product geo-territory >/dev/null)
  mkdir -p "$(dirname "$old")"; cp "$src/.build/release/geo-territory" "$old"
  git worktree remove --force "$src"; rm -rf "$(dirname "$src")"
fi
[ -x "$new" ] || scripts/swift-release.sh build --product geo-territory
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$pairs"); do
  n=$(measure "$tmp/new.log" "$new" "$runs" --out-dir "$tmp/out" -q)
  o=$(measure "$tmp/old.log" "$old" "$runs" --out-dir "$tmp/out" -q)
  echo "${n#* } ${o#* }" >> "$tmp/pairs"   # "cpu_s peak_KB cpu_s peak_KB" (new, old)
done
${PYTHON:-python3} - "$tmp/pairs" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
ratios = [n / o for n, _, o, _ in rows]
print("territory night, 10,000 runs: this build against main at 71d624f, %d pairs (load %s)" % (len(rows), sys.argv[2]))
for n, nm, o, om in rows:
    print(f"  new {n:6.2f} s CPU {nm / 1024:5.0f} MB   old {o:6.2f} s CPU {om / 1024:5.0f} MB   ratio {n / o:.3f}")
print(f"  median CPU ratio {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}); "
      f"peak {max(r[1] for r in rows) / 1024:.0f} MB against {max(r[3] for r in rows) / 1024:.0f} MB")
PY
