#!/usr/bin/env bash
# Prints, at the end of a make run, a table of the stages this run rebuilt (from build/.stages.log).
run=${1:-}
log=${STAGE_LOG:-build/.stages.log}
rows=$( [ -f "$log" ] && awk -F'\t' -v r="$run" '$1 == r' "$log" )
if [ -z "$rows" ]; then
  echo "make: everything up to date, nothing rebuilt"
  exit 0
fi
echo
printf '%-34s %-16s %8s %9s  %s\n' "rebuilt" "stage" "wall s" "peak MB" "summary"
echo "$rows" | awk -F'\t' '{ printf "%-34s %-16s %8.2f %9.1f  %s\n", $2, $3, $4, $5 / 1024, substr($6, 1, 90) }'
