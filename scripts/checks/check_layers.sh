#!/usr/bin/env bash
# No stage imports a stage (docs/ARCHITECTURE.md): a file under Sources/Stages/<A>/ that imports
# another stage's module <B>Stage, or a stage whose `uses:` in Package.swift names a stage, fails.
# SwiftPM finds any module already built, so an import the manifest does not declare may compile;
# this check does not depend on build order. What two stages share belongs in a library.
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
[ $fail -eq 0 ] && echo "  ok   no stage imports a stage ($(ls -d Sources/Stages/*/ | wc -l) stages; Sources/Stages/*/ and Package.swift)"
exit $fail
