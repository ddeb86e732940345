#!/usr/bin/env bash
# make bench: the whole pipeline from a clean build/ on real data, several runs per scale,
# median wall time and peak memory per stage, output sizes, the time of a no-op make and of
# a rebuild after touching one input. The Swift build is done first and not timed.
set -euo pipefail
# Run our own makes with their own job slots, not as children of the calling make.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKE_RUN_ID
cd "$(dirname "$0")/.."
SCALES=${BENCH_SCALES:-10m 50m}
RUNS=${BENCH_RUNS:-3}
JOBS=${BENCH_JOBS:-2}
out=build/bench
mkdir -p "$out"
log=$out/stages.tsv; : > "$log"
totals=$out/totals.tsv; : > "$totals"
export STAGE_LOG=$PWD/$log

make --no-print-directory setup >/dev/null
scripts/swift-release.sh build >/dev/null
source bench/lib.sh
now() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }

for scale in $SCALES; do
  for run in $(seq 1 "$RUNS"); do
    clean
    t0=$(now)
    MAKE_RUN_ID="bench-$scale-$run" make --no-print-directory JOBS="$JOBS" all SCALE="$scale" >/dev/null 2>"$out/stderr-$scale-$run.txt"
    t1=$(now)
    printf '%s\tpipeline\t%s\n' "$scale" "$(secs "$t0" "$t1")" >> "$totals"
  done
  du -b dist/world.geojson dist/globe.glb dist/globe.usdz dist/country_highlights.json dist/supabase/seed.sql dist/supabase/cities/seed.sql 2>/dev/null \
    | awk -v s="$scale" '{ printf "%s\tsize\t%s\t%s\n", s, $2, $1 }' >> "$totals" || true
  for d in dist/silhouettes dist/map; do
    [ -d "$d" ] && printf '%s\tsize\t%s/\t%s\n' "$scale" "$d" "$(du -sb "$d" | cut -f1)" >> "$totals"
  done
  # globe.usdz (issue #11): Pixar's USD opening it (budget 1 s), and the globe stage with and
  # without writing it (budget: it adds under 0.3 s).
  for run in $(seq 1 "$RUNS"); do
    printf '%s\tpxr opens dist/globe.usdz\t%s\n' "$scale" "$(${PYTHON:-python3} -c 'import sys, time; from pxr import Usd
t = time.perf_counter(); Usd.Stage.Open(sys.argv[1]); print(f"{time.perf_counter() - t:.3f}")' dist/globe.usdz)" >> "$totals"
    for with in no yes; do
      extra=(); [ "$with" = yes ] && extra=(--usdz "$out/globe.usdz")
      t0=$(now); .build/release/geo-globe -q dist/world.geojson -o "$out/globe.glb" --manifest "$out/globe.json" "${extra[@]}"; t1=$(now)
      printf '%s\tgeo-globe, usdz written: %s\t%s\n' "$scale" "$with" "$(secs "$t0" "$t1")" >> "$totals"
    done
  done
  rm -f "$out/globe.glb" "$out/globe.json" "$out/globe.usdz"
  for run in $(seq 1 "$RUNS"); do
    t0=$(now); make --no-print-directory all SCALE="$scale" >/dev/null; t1=$(now)
    printf '%s\tno-op make\t%s\n' "$scale" "$(secs "$t0" "$t1")" >> "$totals"
  done
  for run in $(seq 1 "$RUNS"); do
    touch data/capitals.tsv
    t0=$(now); MAKE_RUN_ID="touch-$scale-$run" make --no-print-directory JOBS="$JOBS" all SCALE="$scale" >/dev/null 2>&1; t1=$(now)
    printf '%s\trebuild after touching data/capitals.tsv\t%s\n' "$scale" "$(secs "$t0" "$t1")" >> "$totals"
  done
done
# Territory: a night for a large city, 10,000 runs of ~1,000 fixes (generated once from a
# fixed seed into build/bench/, ~500 MB; BENCH_TERRITORY=0 skips it). Target: under 10 s.
# The nightly job's outputs: no --loops-geojson (docs/SCALING.md, Territory).
if [ "${BENCH_TERRITORY:-1}" = 1 ]; then
  truns=$out/territory_runs.geojson
  runs_file "$truns" "${BENCH_TERRITORY_RUNS:-10000}"
  for run in $(seq 1 "$RUNS"); do
    t0=$(now)
    MAKE_RUN_ID="bench-territory-$run" scripts/stage.sh "$out/territory" .build/release/geo-territory "$truns" --out-dir "$out/territory" 2>>"$out/stderr-territory.txt"
    t1=$(now)
    printf 'territory\t%s\t%s\n' "geo-territory, $(du -m "$truns" | cut -f1) MB of runs, nightly outputs" "$(secs "$t0" "$t1")" >> "$totals"
  done
fi
${PYTHON:-python3} bench/table.py "$log" "$totals" | tee "$out/report.txt"
# The pure-Swift H3 library next to the Python reference (issue #13 targets).
echo
${PYTHON:-python3} bench/h3_speed.py | tee "$out/h3.txt" || echo "H3: a speed target was missed (see above)"
# The offline lookup library: size, load time, lookups per second (issue #16 budgets: 5 MB, 50 ms, 1 M/s).
echo
bash bench/lookup.sh | tee -a "$out/report.txt"
# The city-ranking app's search (issue #33): p50/p95 per query length under 8 clients, beside
# today's reference search in the same run (budget p95 ≤ 15 ms). BENCH_CITY_SEARCH=0 skips it.
if [ "${BENCH_CITY_SEARCH:-1}" != 0 ]; then
  echo
  bash bench/city_search.sh | tee -a "$out/report.txt" || echo "City search: the bench failed (see above)"
fi
