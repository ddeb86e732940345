#!/usr/bin/env bash
# run-all: alone (see run-all.sh)
# Determinism: two clean runs of the whole pipeline, the first serial (JOBS=1) and the second
# with two jobs, give byte-identical products (sha256 of every file in dist/ and build/ingest/).
set -euo pipefail
# Run our own makes with their own job slots, not as children of the calling make.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKE_RUN_ID
cd "$(dirname "$0")/../.."
sums() {
  local dirs=()
  for d in dist build/ingest; do [ -d "$d" ] && dirs+=("$d"); done
  [ ${#dirs[@]} -gt 0 ] || return 0
  find "${dirs[@]}" -type f ! -name '.*' -print0 | sort -z | xargs -0 sha256sum
}
clean_run() {
  find build -mindepth 1 -maxdepth 1 ! -name .setup ! -name params ! -name bench ! -name fuzz ! -name test-phases.tsv -exec rm -rf {} +
  rm -rf dist
  if ! make --no-print-directory "$@" all >/tmp/determinism-run.log 2>&1; then
    tail -n 20 /tmp/determinism-run.log; echo "FAIL: a clean run of the pipeline failed"; exit 1
  fi
}
first=$(mktemp); second=$(mktemp); trap 'rm -f "$first" "$second"' EXIT
clean_run JOBS=1; sums > "$first"
clean_run JOBS=2; sums > "$second"
[ -s "$first" ] || { echo "FAIL: the pipeline produced nothing to compare"; exit 1; }
if ! diff -u "$first" "$second"; then echo "FAIL: outputs differ between two runs"; exit 1; fi
echo "determinism: $(wc -l < "$first") files byte-identical across two clean runs (make JOBS=1, make JOBS=2)"
