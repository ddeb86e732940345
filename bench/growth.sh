#!/usr/bin/env bash
# make bench-growth: how each stage's time and memory grow with its input. Runs `make all`
# (JOBS=1, so every stage has the machine to itself) into build/growth/<input>/ for
#   110m, 50m, 10m            Natural Earth at its three scales (default vertex budgets)
#   10m-all                   1:10m keeping every vertex (WORLD_TARGET_VERTICES=0)
#   10m-x4                    1:10m with every edge split into four (bench/split_edges.py,
#                             ~2.2 M input vertices), default budget
#   10m-x4-all                the same keeping every vertex (every stage sees ~4× 10m-all)
# and prints, per stage, wall and CPU seconds, peak memory, the vertices it read, and CPU
# microseconds per 1,000 vertices (flat = linear). BENCH_GROWTH_INPUTS picks a subset.
set -euo pipefail
unset MAKEFLAGS MFLAGS MAKELEVEL MAKE_RUN_ID
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
INPUTS=${BENCH_GROWTH_INPUTS:-110m 50m 10m 10m-all 10m-x4 10m-x4-all}
root=build/growth
mkdir -p "$root"
make --no-print-directory setup >/dev/null
scripts/swift-release.sh build >/dev/null
x4=$root/ne_10m_x4_map_units.geojson
if [[ " $INPUTS " == *" 10m-x4"* ]] && [ ! -s "$x4" ]; then
  $PY bench/split_edges.py data/natural-earth/ne_10m_admin_0_map_units.geojson "$x4"
fi
log=$PWD/$root/stages.tsv; touch "$log"
# Rerunning some inputs replaces their rows and keeps the others' (the report covers all).
for input in $INPUTS; do grep -v "^growth-$input	" "$log" > "$log.tmp" || true; mv "$log.tmp" "$log"; done
for input in $INPUTS; do
  args=()
  case $input in
    110m|50m|10m) args=(SCALE=$input) ;;
    10m-all) args=(SCALE=10m WORLD_TARGET_VERTICES=0) ;;
    # The lookup index has a size budget (5 MB, for the app); four times the edges need more.
    10m-x4) args=(SCALE=10m INGEST_UNITS=$x4 LOOKUP_MAX_BYTES=40000000) ;;
    10m-x4-all) args=(SCALE=10m INGEST_UNITS=$x4 WORLD_TARGET_VERTICES=0 LOOKUP_MAX_BYTES=40000000) ;;
    *) echo "growth: unknown input $input" >&2; exit 2 ;;
  esac
  dir=$root/$input
  rm -rf "$dir"; mkdir -p "$dir"
  echo "growth: $input" >&2
  STAGE_LOG=$log MAKE_RUN_ID="growth-$input" make --no-print-directory JOBS=1 all BUILD="$dir/build" DIST="$dir/dist" "${args[@]}" \
    >"$dir/make.log" 2>&1 || { tail -n 30 "$dir/make.log" >&2; exit 1; }
done
ALL_INPUTS="110m 50m 10m 10m-all 10m-x4 10m-x4-all"
$PY - "$log" "$root" $ALL_INPUTS <<'PYEOF' | tee "$root/report.txt"
import json, sys
log, root, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
def vertices(path):
    n = 0
    def walk(c):
        nonlocal n
        if c and isinstance(c[0], (int, float)): n += 1
        else:
            for x in c: walk(x)
    try:
        for f in json.load(open(path, encoding="utf-8"))["features"]: walk(f["geometry"]["coordinates"])
    except (FileNotFoundError, ValueError): return 0
    return n
units = {"110m": "data/natural-earth/ne_110m_admin_0_countries.geojson", "50m": "data/natural-earth/ne_50m_admin_0_map_units.geojson"}
rows = {}
for line in open(log, encoding="utf-8"):
    c = line.rstrip("\n").split("\t")
    if not c[0].startswith("growth-"): continue
    rows[(c[0][7:], c[2])] = (float(c[3]), float(c[6]) if len(c) > 6 else 0.0, int(c[4]) / 1024)
verts = {}
for i in inputs:
    src = units.get(i, f"{root}/ne_10m_x4_map_units.geojson" if "x4" in i else "data/natural-earth/ne_10m_admin_0_map_units.geojson")
    countries = vertices(f"{root}/{i}/build/ingest/countries.geojson")
    # What each stage reads: ingest the units; world and lookup the ingested countries; the
    # rest world.geojson.
    verts[i] = {"geo-ingest": vertices(src), "geo-world": countries, "geo-lookup": countries,
                "*": vertices(f"{root}/{i}/dist/world.geojson")}
stages = []
for (_, s) in rows:
    if s not in stages: stages.append(s)
print("Growth: per stage, the vertices it reads, wall and CPU seconds, peak memory, CPU µs per 1,000 input")
print("vertices (all of it, start-up included), and the marginal CPU µs per 1,000 vertices from the next")
print("smaller input (flat or falling = linear; a stage whose input did not grow shows -)")
print(f"{'stage':16} {'input':11} {'vertices in':>12} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} {'µs/kvtx':>9} {'marginal':>9}")
for s in stages:
    pts = sorted(((verts[i].get(s, verts[i]["*"]), i) for i in inputs if (i, s) in rows))
    prev = None
    for v, i in pts:
        w, c, p = rows[(i, s)]
        m = "-"
        if prev and v > prev[0] * 1.05:
            m = f"{(c - prev[1]) * 1e9 / (v - prev[0]):9.1f}"
        print(f"{s:16} {i:11} {v:12,} {w:8.3f} {c:8.3f} {p:8.1f} {c * 1e9 / max(v, 1):9.1f} {m:>9}")
        prev = (v, c)
PYEOF
