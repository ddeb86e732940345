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
# The follower's liveness probe: an exec probe on the age of the file the follower's
# --heartbeat touches, run here as the kubelet would (sh -c) on a fresh file and on a stale one.
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
beat=$(sed -n 's/.*"--heartbeat", "\([^"]*\)".*/\1/p' deploy/kubernetes/follower.yaml)
probe=$("${PYTHON:-python3}" -c 'import sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    for c in d["spec"]["template"]["spec"]["containers"]:
        print(c["livenessProbe"]["exec"]["command"][2])' deploy/kubernetes/follower.yaml 2>/dev/null || true)
if [ -n "$beat" ] && [ -n "$probe" ] && [[ $probe == *"$beat"* ]]; then
  touch "$tmp"; fresh=0; sh -c "${probe//$beat/$tmp}" || fresh=$?
  touch -d '-10 minutes' "$tmp"; stale=0; sh -c "${probe//$beat/$tmp}" || stale=$?
  [ "$fresh" = 0 ] && [ "$stale" != 0 ] && echo "  ok   the follower's liveness probe checks the age of its --heartbeat file ($beat): passes fresh, fails 10 minutes old" \
    || { echo "  FAIL the liveness probe on a fresh heartbeat exits $fresh, on a stale one $stale"; fail=1; }
else echo "  FAIL the follower needs --heartbeat FILE and a livenessProbe on that file's age"; fail=1; fi
# The validator itself: a wrong type must fail.
sed 's/replicas: [0-9]*/replicas: two/' deploy/kubernetes/follower.yaml > "$tmp"
if kubernetes-validate --strict --quiet "$tmp" >/dev/null 2>&1; then echo "  FAIL kubernetes-validate passed replicas: two"; fail=1
else echo "  ok   kubernetes-validate refuses replicas: two"; fi
exit $fail
