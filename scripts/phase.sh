#!/usr/bin/env bash
# make test's phases, timed: `phase.sh NAME COMMAND…` runs COMMAND and adds a line
# "NAME <wall s> <cpu s>" to $PHASES (build/test-phases.tsv); `phase.sh --report` prints them
# as a table with the total, so each make test ends with where its time went.
# `phase.sh --beside NAME COMMAND…`: a phase that runs beside another (the fuzzer beside the unit
# tests): its line says so and its wall time is not added to the total (its CPU time is).
set -uo pipefail
PHASES=${PHASES:-build/test-phases.tsv}
if [ "${1:-}" = "--report" ]; then
  [ -f "$PHASES" ] || exit 0
  exec awk -F'\t' '{ printf "%-12s %8.1f s wall %8.1f s cpu%s\n", $1, $2, $3, ($4 == "beside" ? "   (beside another phase)" : "")
                     if ($4 != "beside") w += $2; c += $3 }
    END { printf "%-12s %8.1f s wall %8.1f s cpu\n", "make test", w, c }' "$PHASES"
fi
beside=""; [ "${1:-}" = "--beside" ] && { beside=beside; shift; }
name=$1; shift
mkdir -p "$(dirname "$PHASES")"
t0=$(date +%s%N)
# CPU of the command and all its children: bash's `times` after it ends (user+sys of children).
"$@"; rc=$?
wall=$(( ($(date +%s%N) - t0) / 1000000 ))
# (`times` redirected, not piped: a pipeline would run it in a subshell that has no children.)
times_file=$(mktemp); times > "$times_file"
cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$times_file")
rm -f "$times_file"
printf '%s\t%s\t%s\t%s\n' "$name" "$(awk -v w="$wall" 'BEGIN { printf "%.1f", w / 1000 }')" "$cpu" "$beside" >> "$PHASES"
exit $rc
