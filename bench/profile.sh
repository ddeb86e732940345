#!/usr/bin/env bash
# bench/profile.sh [STAGE…]: the instructions each stage of the globe app's five products
# executes (valgrind's callgrind: repeatable on a loaded machine, unlike seconds), each stage
# run alone on the inputs the last `make world globe silhouettes challenges highlights` left
# (run that first), writing into build/bench/profile/ rather than over the products. Prints one
# line per stage (instructions, in millions) and keeps each profile as
# build/bench/profile/STAGE.callgrind for `callgrind_annotate` (CPU by function).
# Stages: ingest world globe preview silhouettes challenges highlights (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "profile: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
for f in dist/world.geojson dist/globe.glb build/ingest/places.geojson; do
  [ -f "$f" ] || { echo "profile: $f is missing: run make world globe silhouettes challenges highlights first" >&2; exit 1; }
done
BIN=.build/release
out=build/bench/profile
mkdir -p "$out/products"
p=$out/products
NE=data/natural-earth
stages=("$@"); [ ${#stages[@]} -gt 0 ] || stages=(ingest world globe preview silhouettes challenges highlights)
for s in "${stages[@]}"; do
  case $s in
    ingest) cmd=($BIN/geo-ingest $NE/ne_10m_admin_0_map_units.geojson -o $p/countries.geojson --places-out $p/places.geojson --data-dir data) ;;
    world) cmd=($BIN/geo-world build/ingest/countries.geojson -o $p/world.geojson --report $p/world-report.tsv) ;;
    globe) cmd=($BIN/geo-globe dist/world.geojson -o $p/globe.glb --manifest $p/globe.manifest.json --usdz $p/globe.usdz) ;;
    preview) cmd=($BIN/geo-preview dist/globe.glb --output-dir $p/preview) ;;
    silhouettes) cmd=($BIN/geo-silhouettes dist/world.geojson --output-dir $p/silhouettes) ;;
    challenges) cmd=($BIN/geo-challenges dist/world.geojson --output-dir $p/supabase --report $p/challenges-report.txt --from 2026-01-01) ;;
    highlights) cmd=($BIN/geo-highlights data/country_highlights.json --world dist/world.geojson -o $p/country_highlights.json \
                 --places build/ingest/places.geojson --aliases data/highlight_places.tsv --report $p/highlights-report.txt) ;;
    *) echo "profile: unknown stage $s" >&2; exit 2 ;;
  esac
  valgrind --tool=callgrind --callgrind-out-file="$out/$s.callgrind" "${cmd[@]}" -q >/dev/null 2>"$out/$s.log" \
    || { cat "$out/$s.log" >&2; exit 1; }
  ir=$(sed -n 's/^==[0-9]*== Collected : //p' "$out/$s.log")
  printf '%-12s %10.1f M instructions\n' "$s" "$(awk -v n="$ir" 'BEGIN { print n / 1e6 }')"
done
