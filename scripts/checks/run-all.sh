#!/usr/bin/env bash
# Runs every consumer check (scripts/checks/check_*.py / check_*.sh) against the products in
# build/ and dist/. Each check reads the outputs with a real, independent reader.
#
# Two checks at a time (CHECK_JOBS, default 2: the machine's two cores), each one's output
# printed whole when it ends. A check whose header says `run-all: alone` (it times a server or
# bounds CPU time) runs with nothing beside it. One whose header says `run-all: one make` (it runs
# make in this checkout, with the products up to date) runs beside any other check but another
# such. The determinism check, which rebuilds everything from scratch, runs last and alone.
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
JOBS=${CHECK_JOBS:-2}
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "run-all: CHECK_JOBS must be a whole number ≥ 1 (got '$JOBS')" >&2; exit 2; }
LOGS=$(mktemp -d /tmp/checks.XXXXXX)
trap 'rm -rf "$LOGS"' EXIT

passed=0; failed=0; failures=()
declare -A started=()

# Starts check $1 in the background; its output goes to its log, its exit status to a file.
start() {
  local c=$1 name; name=$(basename "$c")
  started[$name]=$(date +%s%N)
  (
    case "$c" in
      *.py) "$PY" "$c" ;;
      *.sh) bash "$c" ;;
    esac
    echo $? > "$LOGS/$name.rc"
  ) > "$LOGS/$name.log" 2>&1 &
}

# Prints each finished check (its output, then one line with its verdict and time).
reap() {
  local rcfile name rc ms
  for rcfile in "$LOGS"/*.rc; do
    [ -e "$rcfile" ] || continue
    name=$(basename "$rcfile" .rc); rc=$(cat "$rcfile"); rm -f "$rcfile"
    ms=$(( ($(date +%s%N) - ${started[$name]}) / 1000000 ))
    echo "== $name"
    cat "$LOGS/$name.log"
    echo "== $name: $([ "$rc" -eq 0 ] && echo passed || echo FAILED) in $ms ms"
    if [ "$rc" -eq 0 ]; then passed=$((passed+1)); else failed=$((failed+1)); failures+=("$name"); fi
  done
}

running() { jobs -rp | wc -l; }
drain() { wait; reap; }

alone() { head -n 20 "$1" | grep -q 'run-all: alone'; }
makes() { head -n 20 "$1" | grep -q 'run-all: one make'; }
make_check=""   # the pid of the running `one make` check, if any

t0=$(date +%s)
# The checks that run alone first (nothing waits on them then), then the `one make` ones (the
# night's is the longest), then the others; a `one make` check that finds another running goes
# to the back of the queue.
all=($(ls scripts/checks/check_* | grep -v check_determinism))
queue=()
for c in "${all[@]}"; do alone "$c" && queue+=("$c"); done
for c in "${all[@]}"; do ! alone "$c" && makes "$c" && queue+=("$c"); done
for c in "${all[@]}"; do ! alone "$c" && ! makes "$c" && queue+=("$c"); done
while [ ${#queue[@]} -gt 0 ]; do
  c=${queue[0]}; queue=("${queue[@]:1}")
  [ -f "$c" ] || continue
  if alone "$c"; then
    drain; start "$c"; drain
    continue
  fi
  if makes "$c" && [ -n "$make_check" ] && kill -0 "$make_check" 2>/dev/null; then
    if [ ${#queue[@]} -gt 0 ]; then queue+=("$c"); continue; fi
    while kill -0 "$make_check" 2>/dev/null; do wait -n; reap; done
  fi
  while [ "$(running)" -ge "$JOBS" ]; do wait -n; reap; done
  start "$c"
  makes "$c" && make_check=$!
done
drain
[ -f scripts/checks/check_determinism.sh ] && { start scripts/checks/check_determinism.sh; drain; }

echo
[ $failed -eq 0 ] || echo "failed checks: ${failures[*]}"
echo "checks took $(( $(date +%s) - t0 )) s, $JOBS at a time"
# Under make test (PHASES set): this phase's line, then every phase's time (scripts/phase.sh).
if [ -n "${PHASES:-}" ]; then
  times > "$LOGS/times"
  cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$LOGS/times")
  printf 'checks\t%s\t%s\n' "$(( $(date +%s) - t0 ))" "$cpu" >> "$PHASES"
  echo; scripts/phase.sh --report
fi
echo "checks: $passed passed, $failed failed"
[ $failed -eq 0 ]
