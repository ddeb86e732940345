#!/usr/bin/env bash
# Runs one pipeline stage for make: measures its wall time and peak memory, keeps its
# one-line summary, and appends a record to build/.stages.log for the rebuilt-table and
# the benchmark.   usage: scripts/stage.sh TARGET COMMAND [ARGS...]
set -uo pipefail
target=$1; shift
log=${STAGE_LOG:-build/.stages.log}
run=${MAKE_RUN_ID:-manual}
mkdir -p "$(dirname "$log")"
err=$(mktemp); mem=$(mktemp)
trap 'rm -f "$err" "$mem"' EXIT
start=$(date +%s%N)
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f '%U %S %M' -o "$mem" "$@" 2> >(tee "$err" >&2)
else
  "$@" 2> >(tee "$err" >&2)
fi
status=$?
end=$(date +%s%N)
wait
if [ $status -ne 0 ]; then exit $status; fi
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
# GNU time's last line: user and system CPU seconds, peak resident KB.
read -r user sys peak < <(tail -n 1 "$mem" 2>/dev/null | grep -E '^[0-9.]+ [0-9.]+ [0-9]+$' || echo "0 0 0")
cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')
summary=$(grep -E '^\[[a-z-]+ done in' "$err" | tail -n 1 | sed -E 's/^\[[^]]*\] //' | tr '\t' ' ')
# run, target, stage, wall s, peak KB, summary, CPU s (user+sys; steadier than wall on a busy machine)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$run" "$target" "$(basename "$1")" "$secs" "$peak" "$summary" "$cpu" >> "$log"
