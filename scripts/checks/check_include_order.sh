#!/usr/bin/env bash
# The pipelines (pipelines/*.mk) name only their own variables and the Makefile's, so the order
# make includes them in does not matter: every rule (target and prerequisites) and every
# variable is the same when they are included the other way round. A pipeline that reads
# another's variable while it is read (a prerequisite, a `:=`) gets an empty one in one of the
# two orders, and this fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

# make's database (-p, nothing run: -q -n; -q exits 1 when something is out of date): each
# rule as "target: sorted prerequisites", each variable with its value.
rules() {
  { GEO_MAKE_LOCK_HELD=1 make --no-print-directory -pqn -o .build/target-deps.mk JOBS=1 MAKE_RUN_ID=check "$@" 2>/dev/null || true; } |
    ${PYTHON:-python3} -c '
import re, sys
skip = {"PIPELINES", "MAKEFILE_LIST", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES", ".VARIABLES", "GNUMAKEFLAGS"}
files = False
for line in sys.stdin:
    if line.startswith("# Files"): files = True
    elif line.startswith(("# Finished", "# VPATH")): files = False
    elif files and re.match(r"[^#\t ][^=]*:([^=]|$)", line):
        target, _, prerequisites = line.rstrip("\n").partition(":")
        if target not in (".PHONY", "all"):
            print(target + ": " + " ".join(sorted(prerequisites.split())))
    elif not files:
        # A variable as make holds it once every file is read (its words sorted: lists such
        # as ALL_PRODUCTS grow in include order).
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*) :?= (.*)$", line.rstrip("\n"))
        if m and m.group(1) not in skip:
            print(m.group(1) + " = " + " ".join(sorted(m.group(2).split())))
' | sort
}

# Everything, and a release over a previous one (release.mk sets world.mk's tolerance).
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo '{"release": {"scale": "10m"}, "world": {"tolerance_km": 1.25}}' > "$tmp/manifest.json"
backward=$(ls pipelines/*.mk | tac | tr '\n' ' ')
status=0
for goals in "all" "release RELEASE_DIR=$tmp/out RELEASE_PREVIOUS=$tmp SCALE=10m"; do
  # shellcheck disable=SC2086
  forward_rules=$(rules $goals); backward_rules=$(rules $goals PIPELINES="$backward")
  count=$(grep -c . <<<"$forward_rules" || true)
  if [ "$count" -lt 20 ]; then echo "FAIL include order (make $goals): make printed only $count rules"; status=1; continue; fi
  if ! diff <(echo "$forward_rules") <(echo "$backward_rules"); then
    echo "FAIL include order (make $goals): the rules above differ when pipelines/*.mk are included the other way round"; status=1
  else
    echo "include order (make $goals): $count rules, the same in either order"
  fi
done
exit $status
