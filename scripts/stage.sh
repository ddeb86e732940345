#!/usr/bin/env bash
# Runs one pipeline stage for make: measures its wall time and peak memory, keeps its
# one-line summary, and appends a record to build/.stages.log for the rebuilt-table and
# the benchmark.   usage: scripts/stage.sh TARGET COMMAND [ARGS...]
# Make runs it once per stage, so it forks nothing but GNU time and the stage: bash built-ins
# (EPOCHREALTIME, arithmetic, regex, printf -v) instead of date, awk, grep, sed and $(…); the
# stage's standard error passes through a read loop in this shell (lastpipe) rather than tee
# and a temporary file, and GNU time writes its figures to that same stream, on one last
# line with a marker that the loop takes out.
set -uo pipefail
shopt -s lastpipe
target=$1; shift
log=${STAGE_LOG:-build/.stages.log}
run=${MAKE_RUN_ID:-manual}
[[ $log != */* || -d ${log%/*} ]] || mkdir -p "${log%/*}"
marker=geo-stage-rusage
time=()
[ -x /usr/bin/time ] && time=(/usr/bin/time -f "$marker %U %S %M")
summary="" user=0 sys=0 peak=0 held=""
start=$EPOCHREALTIME
exec 3>&1
"${time[@]}" "$@" 2>&1 >&3 3>&- | while IFS= read -r line || [ -n "$line" ]; do
  # GNU time's line: user and system CPU seconds (two decimals), peak resident KB.
  # (A glob first: cheaper than compiling a regex for every line.)
  if [[ $line == "$marker "* && $line =~ ^$marker\ ([0-9]+)\.([0-9]+)\ ([0-9]+)\.([0-9]+)\ ([0-9]+)$ ]]; then
    user=$((10#${BASH_REMATCH[1]} * 100 + 10#${BASH_REMATCH[2]})); sys=$((10#${BASH_REMATCH[3]} * 100 + 10#${BASH_REMATCH[4]})); peak=${BASH_REMATCH[5]}
    held=""   # GNU time's own "Command exited with non-zero status N" before it: not the stage's
    continue
  fi
  [ -n "$held" ] && printf '%s\n' "$held" >&2
  held=""
  if [[ $line == Command\ * && $line =~ ^Command\ (exited\ with\ non-zero\ status|terminated\ by\ signal)\ [0-9]+$ ]]; then
    held=$line; continue
  fi
  printf '%s\n' "$line" >&2
  # The stage's own one-line summary: its last "[name done in …] …" line, without the prefix.
  [[ $line == \[*\ done\ in* && $line =~ ^\[[a-z-]+\ done\ in[^]]*\]\ (.*)$ ]] && summary=${BASH_REMATCH[1]//$'\t'/ }
done
status=${PIPESTATUS[0]}
end=$EPOCHREALTIME
[ -n "$held" ] && printf '%s\n' "$held" >&2
exec 3>&-
if [ "$status" -ne 0 ]; then exit "$status"; fi
us=$(( 10#${end/./} - 10#${start/./} ))   # EPOCHREALTIME is s.µs
printf -v secs '%d.%03d' $((us / 1000000)) $((us % 1000000 / 1000))
cs=$((user + sys))   # centiseconds
printf -v cpu '%d.%02d0' $((cs / 100)) $((cs % 100))
# run, target, stage, wall s, peak KB, summary, CPU s (user+sys; steadier than wall on a busy machine)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$run" "$target" "${1##*/}" "$secs" "$peak" "$summary" "$cpu" >> "$log"
