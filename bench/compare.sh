#!/usr/bin/env bash
# make bench, part 1: our pipeline against the Python reference (bench/reference/: shapely,
# pyproj, mapbox_earcut, pygltflib, pxr, h3, Pillow, sqlite3), measured in the same run, runs
# alternating (ours, reference, ours, …), medians of BENCH_COMPARE_RUNS (default 5). Comparisons:
#   ALL   `make all` from a clean build/ and dist/ (every product) vs `reference all`: the whole
#         reference, every product of make all, run by bench/reference/Makefile with -j2 as
#         ours runs with two jobs (the ratio issue #17 asks for); per step, our stages' own
#         times (build/.stages.log) next to the reference steps' (its steps.tsv);
#   core  our ingest → world → globe binaries, run one after the other as make would, vs the
#         same three reference steps (like for like);
#   and `make all` against the reference's three core steps alone (the earlier, lopsided
#   comparison, kept for continuity). Wall time and CPU time (user+sys of every process) are both reported: on a
# shared machine the CPU time is the steadier number. Writes build/bench/compare.tsv and prints
# the ratios. The reference's coverage-simplification tolerance is calibrated to our vertex
# budget first (bisection, not timed).
set -euo pipefail
unset MAKEFLAGS MFLAGS MAKELEVEL MAKE_RUN_ID
cd "$(dirname "$0")/.."
SCALE=${BENCH_SCALE:-10m}
RUNS=${BENCH_COMPARE_RUNS:-5}
PY=${PYTHON:-python3}
out=build/bench
mkdir -p "$out"
if ! $PY -c "import shapely, pyproj, mapbox_earcut, numpy, orjson, cv2, h3, pxr" 2>/dev/null; then
  echo "bench: installing the Python reference stack (bench/reference/requirements.txt)" >&2
  $PY -m pip install -q -r bench/reference/requirements.txt 2>/dev/null \
    || $PY -m pip install -q --break-system-packages -r bench/reference/requirements.txt
fi
make --no-print-directory setup >/dev/null
swift build -c release >/dev/null

NE=data/natural-earth
case $SCALE in
  10m) units=$NE/ne_10m_admin_0_map_units.geojson; budget=175000; extra=() ;;
  50m) units=$NE/ne_50m_admin_0_map_units.geojson; budget=60000; extra=() ;;
  110m) units=$NE/ne_110m_admin_0_countries.geojson; budget=0; extra=(--points-from $NE/ne_50m_admin_0_map_units.geojson) ;;
esac
ref=$out/reference-$SCALE; mkdir -p "$ref"
REF="$PY bench/reference/reference.py"

# The tolerance that gives the reference our vertex budget (once per input and budget).
tolfile=$out/reference-tolerance-$SCALE.txt
key="$(sha256sum "$units" | cut -c1-16) $budget"
if [ ! -s "$tolfile" ] || [ "$(head -n 1 "$tolfile")" != "$key" ]; then
  echo "bench: calibrating the reference's coverage-simplification tolerance to $budget vertices (not timed)" >&2
  $REF ingest "$units" "$ref/countries.geojson" "${extra[@]}"
  printf '%s\n%s\n' "$key" "$($REF calibrate "$ref/countries.geojson" --target-vertices $budget)" > "$tolfile"
fi
tol=$(sed -n 2p "$tolfile")

tsv=$out/compare.tsv; : > "$tsv"
# timed LABEL CMD...: one record "label wall cpu peakKB" (CPU = user+sys of the command and
# every child it waited for).
timed() {
  local label=$1; shift
  local f; f=$(mktemp)
  /usr/bin/time -f '%e %U %S %M' -o "$f" "$@" >/dev/null 2>"$out/compare-last.err" || { cat "$out/compare-last.err" >&2; rm -f "$f"; return 1; }
  awk -v l="$label" '{ printf "%s\t%s\t%.3f\t%s\n", l, $1, $2 + $3, $4 }' "$f" >> "$tsv"
  rm -f "$f"
}
clean() { find build -mindepth 1 -maxdepth 1 ! -name .setup ! -name bench ! -name growth -exec rm -rf {} +; rm -rf dist; }
B=.build/release
core=$out/core-$SCALE; mkdir -p "$core"
refall=$ref/all
: > "$out/ours-stages.tsv"; : > "$out/reference-steps.tsv"
for run in $(seq 1 "$RUNS"); do
  clean
  timed "ours all" make --no-print-directory JOBS=2 all SCALE="$SCALE"
  awk -F'\t' -v r="$run" '{ print r "\t" $3 "\t" $4 "\t" $7 }' build/.stages.log >> "$out/ours-stages.tsv"
  rm -rf "$refall"
  timed "reference all" make --no-print-directory -s -f bench/reference/Makefile -j2 all OUT="$refall" UNITS="$units" \
    TOLERANCE="$tol" INGEST_FLAGS="${extra[*]}" PYTHON="$PY"
  awk -F'\t' -v r="$run" '{ printf "%s\t%s\t%s\t%.3f\n", r, $1, $2, $3 + $4 }' "$refall/steps.tsv" >> "$out/reference-steps.tsv"
  timed "ours ingest" $B/geo-ingest "$units" -o "$core/countries.geojson" --data-dir data "${extra[@]}"
  timed "ours world" $B/geo-world "$core/countries.geojson" -o "$core/world.geojson" --report "$core/report.tsv" --target-vertices $budget
  timed "ours globe" $B/geo-globe "$core/world.geojson" -o "$core/globe.glb" --manifest "$core/globe.manifest.json"
  timed "reference ingest" $REF ingest "$units" "$ref/countries.geojson" "${extra[@]}"
  timed "reference world" $REF world "$ref/countries.geojson" "$ref/world.geojson" --tolerance "$tol"
  timed "reference globe" $REF globe "$ref/world.geojson" "$ref/globe.glb"
done
$PY - "$tsv" "$SCALE" "$RUNS" "$out/ours-stages.tsv" "$out/reference-steps.tsv" <<'PYEOF' | tee "$out/compare.txt"
import sys, statistics
from collections import defaultdict
rows = defaultdict(list)
for line in open(sys.argv[1]):
    label, wall, cpu, peak = line.rstrip("\n").split("\t")
    rows[label].append((float(wall), float(cpu), int(peak)))
runs = [defaultdict(lambda: [0.0, 0.0]) for _ in range(int(sys.argv[3]))]
med = {k: (statistics.median(w for w, _, _ in v), statistics.median(c for _, c, _ in v), max(p for _, _, p in v)) for k, v in rows.items()}
def total(side):  # per run, the three steps added up, then the median
    steps = [f"{side} {s}" for s in ("ingest", "world", "globe")]
    n = min(len(rows[s]) for s in steps)
    return (statistics.median(sum(rows[s][i][0] for s in steps) for i in range(n)),
            statistics.median(sum(rows[s][i][1] for s in steps) for i in range(n)))
print(f"Ours against the Python reference (bench/reference: shapely/pyproj/earcut/pygltflib/pxr/h3/Pillow/sqlite3), {sys.argv[2]}, medians of {sys.argv[3]} alternating runs")
print(f"{'':28} {'wall s':>8} {'cpu s':>8} {'peak MB':>8}")
for k in sorted(med):
    w, c, p = med[k]
    print(f"{k:28} {w:8.3f} {c:8.3f} {p / 1024:8.1f}")
ow, oc = total("ours"); rw, rc = total("reference")
aw, ac, _ = med["ours all"]
print(f"{'ours ingest+world+globe':28} {ow:8.3f} {oc:8.3f}")
print(f"{'reference ingest+world+globe':28} {rw:8.3f} {rc:8.3f}")
for s in ("ingest", "world", "globe"):
    print(f"ratio {s:10} reference/ours: wall {med['reference ' + s][0] / med['ours ' + s][0]:5.2f}×  cpu {med['reference ' + s][1] / med['ours ' + s][1]:5.2f}×")
print(f"ratio core (ingest+world+globe) reference/ours: wall {rw / ow:5.2f}×  cpu {rc / oc:5.2f}×")
print(f"ratio ALL (make all vs reference ingest+world+globe): wall {rw / aw:5.2f}×  cpu {rc / ac:5.2f}×")
fw, fc, _ = med["reference all"]
print(f"ratio ALL (make all vs reference all): wall {fw / aw:5.2f}×  cpu {fc / ac:5.2f}×")
# Per step inside the two `all` runs (medians): our stages' times from build/.stages.log (the
# PNG renders are not stages there), the reference's from its steps.tsv.
def steps(path, rename):
    per = defaultdict(list)
    for line in open(path):
        run, step, wall, cpu = line.rstrip("\n").split("\t")
        per[rename(step)].append((float(wall), float(cpu)))
    return {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in per.items()}
ours = steps(sys.argv[4], lambda s: s.removeprefix("geo-"))
refs = steps(sys.argv[5], lambda s: s)
print("per step inside the `all` runs (medians; ours from build/.stages.log, reference from its steps.tsv)")
print(f"{'step':16} {'ours wall':>9} {'ours cpu':>9} {'ref wall':>9} {'ref cpu':>9} {'cpu ratio':>9}")
for k in sorted(set(ours) | set(refs), key=lambda k: -refs.get(k, (0, 0))[1]):
    o, r = ours.get(k), refs.get(k)
    fmt = lambda v, i: f"{v[i]:9.3f}" if v else f"{'-':>9}"
    ratio = f"{r[1] / o[1]:8.2f}×" if o and r and o[1] > 0 else f"{'-':>9}"
    print(f"{k:16} {fmt(o, 0)} {fmt(o, 1)} {fmt(r, 0)} {fmt(r, 1)} {ratio}")
print(f"{'sum of steps':16} {sum(v[0] for v in ours.values()):9.3f} {sum(v[1] for v in ours.values()):9.3f} "
      f"{sum(v[0] for v in refs.values()):9.3f} {sum(v[1] for v in refs.values()):9.3f}")
PYEOF
