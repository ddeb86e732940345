#!/usr/bin/env bash
# The pipelines (pipelines/*.mk) name only their own variables and the Makefile's, so the order
# make includes them in does not matter: every rule (target and prerequisites) is the same when
# they are included the other way round. A pipeline that names another's variable in a
# prerequisite gets an empty one in one of the two orders, and this fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

# make's rule database (-p, nothing run: -q -n; -q exits 1 when something is out of date),
# each rule as "target: sorted prerequisites".
rules() {
  { GEO_MAKE_LOCK_HELD=1 make --no-print-directory -pqn -o .build/target-deps.mk JOBS=1 MAKE_RUN_ID=check "$@" all 2>/dev/null || true; } |
    ${PYTHON:-python3} -c '
import re, sys
files = False
for line in sys.stdin:
    if line.startswith("# Files"): files = True
    elif line.startswith(("# Finished", "# VPATH")): files = False
    elif files and re.match(r"[^#\t ][^=]*:([^=]|$)", line):
        target, _, prerequisites = line.rstrip("\n").partition(":")
        if target not in (".PHONY", "all"):
            print(target + ": " + " ".join(sorted(prerequisites.split())))
' | sort
}

forward=$(rules)
backward=$(rules PIPELINES="$(ls pipelines/*.mk | tac | tr '\n' ' ')")
count=$(grep -c . <<<"$forward")
if [ "$count" -lt 20 ]; then echo "FAIL include order: make printed only $count rules"; exit 1; fi
if ! diff <(echo "$forward") <(echo "$backward"); then
  echo "FAIL include order: the rules above differ when pipelines/*.mk are included the other way round"; exit 1
fi
echo "include order: $count rules, the same in either order"
