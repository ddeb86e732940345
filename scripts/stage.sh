#!/usr/bin/env bash
# Runs one pipeline stage for make: measures its wall time and peak memory, keeps its
# one-line summary, and appends a record to build/.stages.log for the rebuilt-table and
# the benchmark.   usage: scripts/stage.sh TARGET COMMAND [ARGS...]
# Written with bash built-ins (EPOCHREALTIME, arithmetic, regex) rather than date, awk, grep
# and sed: make runs it once per stage, and each fork was on the pipeline's critical path.
set -uo pipefail
target=$1; shift
log=${STAGE_LOG:-build/.stages.log}
run=${MAKE_RUN_ID:-manual}
mkdir -p "${log%/*}"
tmp=${TMPDIR:-/tmp}/geo-stage.$$.$RANDOM
err=$tmp.err; mem=$tmp.mem
trap 'rm -f "$err" "$mem"' EXIT
micros() { local t=${1/./}; echo $((10#$t)); }   # EPOCHREALTIME (s.µs) → µs
start=$EPOCHREALTIME
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f '%U %S %M' -o "$mem" "$@" 2> >(tee "$err" >&2)
else
  : > "$mem"; "$@" 2> >(tee "$err" >&2)
fi
status=$?
end=$EPOCHREALTIME
wait
if [ $status -ne 0 ]; then exit $status; fi
us=$(( $(micros "$end") - $(micros "$start") ))
secs=$(printf '%d.%03d' $((us / 1000000)) $((us % 1000000 / 1000)))
# GNU time's last line: user and system CPU seconds (two decimals), peak resident KB.
user=0 sys=0 peak=0
while read -r line; do
  if [[ $line =~ ^([0-9]+)\.([0-9]+)\ ([0-9]+)\.([0-9]+)\ ([0-9]+)$ ]]; then
    user=$((10#${BASH_REMATCH[1]} * 100 + 10#${BASH_REMATCH[2]})); sys=$((10#${BASH_REMATCH[3]} * 100 + 10#${BASH_REMATCH[4]})); peak=${BASH_REMATCH[5]}
  fi
done < "$mem"
cs=$((user + sys))   # centiseconds
cpu=$(printf '%d.%02d0' $((cs / 100)) $((cs % 100)))
# The stage's own one-line summary: its last "[name done in …] …" line, without the prefix.
summary=""
while IFS= read -r line; do
  [[ $line =~ ^\[[a-z-]+\ done\ in[^]]*\]\ (.*)$ ]] && summary=${BASH_REMATCH[1]//$'\t'/ }
done < "$err"
# run, target, stage, wall s, peak KB, summary, CPU s (user+sys; steadier than wall on a busy machine)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$run" "$target" "${1##*/}" "$secs" "$peak" "$summary" "$cpu" >> "$log"
