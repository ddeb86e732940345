#!/usr/bin/env bash
# deploy/kubernetes/ (the game's followers as a Deployment, its night as a CronJob) validated
# against Kubernetes' own schemas by kubernetes-validate (PyPI; scripts/setup.sh --test), strict:
# an unknown field is an error. Also what the manifests promise docs/SCALING.md: each takes its
# URL from a Secret (never a literal), the follower's command is the follow stage's front.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v kubernetes-validate >/dev/null || bash scripts/setup.sh --test
fail=0
shopt -s nullglob
files=(deploy/kubernetes/*.yaml)
[ ${#files[@]} -gt 0 ] || { echo "  FAIL no manifest in deploy/kubernetes"; exit 1; }
if out=$(kubernetes-validate --strict --quiet "${files[@]}" 2>&1); then echo "  ok   ${files[*]} valid (strict)"; else echo "$out"; echo "  FAIL kubernetes-validate"; fail=1; fi
for kind in Deployment CronJob; do
  grep -l "^kind: $kind" "${files[@]}" >/dev/null && echo "  ok   a $kind" || { echo "  FAIL no $kind in deploy/kubernetes"; fail=1; }
done
for f in "${files[@]}"; do
  if grep -q 'secretKeyRef' "$f" && ! grep -qiE 'postgres(ql)?://[^ <…]*:[^ <…]*@' <(grep -v '^ *#' "$f"); then echo "  ok   $f: its URL from a Secret"
  else echo "  FAIL $f: the database URL must come from a Secret (secretKeyRef), never written in"; fail=1; fi
done
grep -q '"geo-territory-follow"' deploy/kubernetes/follower.yaml && grep -q 'geo-territory-follow' deploy/Containerfile \
  && echo "  ok   the Deployment runs geo-territory-follow, which the Containerfile builds" \
  || { echo "  FAIL the Deployment's command and the Containerfile disagree"; fail=1; }
# The validator itself: a wrong type must fail.
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
sed 's/replicas: [0-9]*/replicas: two/' deploy/kubernetes/follower.yaml > "$tmp"
if kubernetes-validate --strict --quiet "$tmp" >/dev/null 2>&1; then echo "  FAIL kubernetes-validate passed replicas: two"; fail=1
else echo "  ok   kubernetes-validate refuses replicas: two"; fi
exit $fail
