#!/usr/bin/env bash
# Determinism: the products are byte-identical when rebuilt from scratch, also with make -j2.
set -euo pipefail
cd "$(dirname "$0")/../.."
sums() {
  local dirs=()
  for d in dist build/ingest; do [ -d "$d" ] && dirs+=("$d"); done
  [ ${#dirs[@]} -gt 0 ] || return 0
  find "${dirs[@]}" -type f ! -name '.*' -print0 | sort -z | xargs -0 sha256sum
}
first=$(mktemp); second=$(mktemp); trap 'rm -f "$first" "$second"' EXIT
sums > "$first"
[ -s "$first" ] || { echo "no products to compare: run make all first"; exit 1; }
find build -mindepth 1 -maxdepth 1 ! -name .setup ! -name params ! -name bench ! -name fuzz -exec rm -rf {} +
rm -rf dist
if ! make --no-print-directory -j2 all >/tmp/determinism-rebuild.log 2>&1; then
  tail -n 20 /tmp/determinism-rebuild.log; echo "FAIL: the clean rebuild failed"; exit 1
fi
sums > "$second"
if ! diff -u "$first" "$second"; then echo "FAIL: outputs differ between two runs"; exit 1; fi
echo "determinism: $(wc -l < "$first") files byte-identical across two clean runs (second with -j2)"
