#!/usr/bin/env bash
# The offline lookup's numbers (issue #16): index size (budget 5 MB), load time (budget
# 50 ms), country(at:) lookups per second on one core (budget 1,000,000) and nearest-city
# searches per second, measured by `geo-lookup bench` on dist/lookup/lookup.bin. A number
# over budget is flagged; BENCH_STRICT=1 makes that an error (on a quiet machine).
set -euo pipefail
cd "$(dirname "$0")/.."
unset MAKEFLAGS MFLAGS MAKELEVEL
make --no-print-directory lookup >/dev/null 2>&1 || { echo "bench/lookup.sh: make lookup failed"; exit 1; }
out=$(.build/release/geo-lookup bench --index "${LOOKUP_INDEX:-dist/lookup/lookup.bin}" --points "${BENCH_LOOKUP_POINTS:-1000000}")
echo "Offline lookup (dist/lookup/lookup.bin), one core:"
echo "$out" | awk -F'\t' '{ printf "  %-85s %s\n", $1, $2 }'
echo "$out" | awk -F'\t' '
  /^index bytes/ { if ($2 > 5000000) { print "  OVER BUDGET: index larger than 5 MB"; bad = 1 } }
  /^load ms/ { if ($2 > 50) { print "  OVER BUDGET: load slower than 50 ms"; bad = 1 } }
  /uniform on the sphere/ { if ($2 < 1000000) { print "  UNDER BUDGET: fewer than 1,000,000 lookups/s"; bad = 1 } }
  END { exit bad }' || [ "${BENCH_STRICT:-0}" = 0 ]
