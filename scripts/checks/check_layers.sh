#!/usr/bin/env bash
# No stage imports a stage (docs/ARCHITECTURE.md): a file under Sources/Stages/<A>/ that imports
# another stage's module <B>Stage, or a stage whose `uses:` in Package.swift names a stage, fails.
# SwiftPM finds any module already built, so an import the manifest does not declare may compile;
# this check does not depend on build order. What two stages share belongs in a library.
# Nor does a library below the stages import the stage contract (StageContract).
set -euo pipefail
cd "$(dirname "$0")/../.."
fail=0
for dir in Sources/Stages/*/; do
  stage=$(basename "$dir")
  while IFS= read -r hit; do
    echo "  FAIL $hit: the $stage stage imports another stage (move what they share into a library)"; fail=1
  done < <(grep -rnE "^\s*(@testable\s+|@_exported\s+)?import\s+[A-Za-z]+Stage\b" "$dir" | grep -vE "import\s+${stage}Stage\b" || true)
done
while IFS= read -r line; do
  echo "  FAIL Package.swift: a stage lists another stage in uses: $line"; fail=1
done < <(grep -E '^\s*\.init\(name: "[A-Za-z]+", front:' Package.swift | grep -E 'uses: \[[^]]*"[A-Za-z]+Stage"' || true)
# The stage contract (StageContract) is the stages' and the fronts': a library below the stages
# (GeoModel, TerritoryGame, NightDatabase, …) imports neither it nor the options declared over it
# (TerritoryOptions). Allowed: the stages, the fronts, StageCommand, and TerritoryOptions itself.
for dir in Sources/*/; do
  lib=$(basename "$dir")
  case "$lib" in Stages|System|StageCommand|StageContract|TerritoryOptions|geo-*|embed-files) continue ;; esac
  while IFS= read -r hit; do
    echo "  FAIL $hit: the library $lib imports the stage contract (declare its options in a target above it, as TerritoryOptions does)"; fail=1
  done < <(grep -rnE "^\s*(@testable\s+|@_exported\s+)?import\s+(StageContract|TerritoryOptions|StageCommand)\b" "$dir" || true)
done
[ $fail -eq 0 ] && echo "  ok   no stage imports a stage, no library the stage contract ($(ls -d Sources/Stages/*/ | wc -l) stages; Sources/ and Package.swift)"
exit $fail
