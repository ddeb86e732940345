#!/usr/bin/env bash
# Runs every consumer check (scripts/checks/check_*.py / check_*.sh) against the products in
# build/ and dist/. Each check reads the outputs with a real, independent reader.
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
passed=0; failed=0; failures=()
# The determinism check rebuilds everything from scratch, so it runs last.
checks=$(ls scripts/checks/check_* | grep -v check_determinism; ls scripts/checks/check_determinism.sh)
for c in $checks; do
  [ -f "$c" ] || continue
  name=$(basename "$c")
  echo "== $name"
  t0=$(date +%s%N)
  case "$c" in
    *.py) "$PY" "$c" ;;
    *.sh) bash "$c" ;;
  esac
  rc=$?
  echo "== $name: $([ $rc -eq 0 ] && echo passed || echo FAILED) in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  if [ $rc -eq 0 ]; then passed=$((passed+1)); else failed=$((failed+1)); failures+=("$name"); fi
done
echo
[ $failed -eq 0 ] || echo "failed checks: ${failures[*]}"
echo "checks: $passed passed, $failed failed"
[ $failed -eq 0 ]
