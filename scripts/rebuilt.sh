#!/usr/bin/env bash
# Prints, at the end of a make run, a table of the stages this run rebuilt (from build/.stages.log).
# One awk reads the log and prints the table (or that nothing was rebuilt).
run=${1:-}
log=${STAGE_LOG:-build/.stages.log}
[ -f "$log" ] || log=/dev/null
exec awk -F'\t' -v r="$run" '
  $1 == r {
    if (!n++) { print ""; printf "%-34s %-16s %8s %9s  %s\n", "rebuilt", "stage", "wall s", "peak MB", "summary" }
    printf "%-34s %-16s %8.2f %9.1f  %s\n", $2, $3, $4, $5 / 1024, substr($6, 1, 90)
  }
  END { if (!n) print "make: everything up to date, nothing rebuilt" }' "$log"
