# Shared by the bench scripts (sourced, from the repository's root): timing a command, and
# cleaning build/ and dist/ for a run from scratch.

# measure LOG COMMAND…: runs COMMAND with its standard output and error in LOG and prints
# "wall_s cpu_s peak_KB" from GNU time: wall clock, user + system seconds of the command and
# of every child it waited for, the largest resident size. When COMMAND fails its LOG is
# shown and its failure returned.
measure() {
  local log=$1; shift
  local f; f=$(mktemp)
  if ! /usr/bin/time -f '%e %U %S %M' -o "$f" "$@" >"$log" 2>&1; then
    cat "$log" >&2; rm -f "$f"; return 1
  fi
  awk '{ printf "%s %.3f %s\n", $1, $2 + $3, $4 }' "$f"
  rm -f "$f"
}

# clean: empties build/ (keeping make's set-up stamp and the bench outputs, build/bench and
# build/growth) and removes dist/, so that the next make builds every product.
clean() { find build -mindepth 1 -maxdepth 1 ! -name .setup ! -name bench ! -name growth -exec rm -rf {} +; rm -rf dist; }

# runs_file PATH [RUNS]: the generated night of RUNS runs (default 10,000; a fixed seed, so the
# same file every time) at PATH, made once and kept (the territory benches share it).
runs_file() {
  [ -f "$1" ] || { mkdir -p "$(dirname "$1")"; ${PYTHON:-python3} scripts/data/make_runs.py --scale "${2:-10000}" -o "$1"; }
}
