#!/usr/bin/env bash
# The bad-input corpus (Tests/BadInputs/cases.tsv): every stage must exit non-zero with the
# expected message (naming file, feature and problem) and leave no artefact behind.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
dir=$root/Tests/BadInputs
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0

generate() {  # GENERATED inputs are too big to commit
  case "$1" in
    huge-unclosed-ring.geojson)
      # A 200 MB coordinate array: one ring of ~9.5 M positions that never closes.
      ${PYTHON:-python3} scripts/checks/lib/bad_inputs_huge_ring.py "$tmp/$1"
      echo "$tmp/$1" ;;
    # Inputs that are not what they claim: each must be refused at once, never read.
    fifo.geojson) [ -p "$tmp/$1" ] || mkfifo "$tmp/$1"; echo "$tmp/$1" ;;          # no writer: reading would block forever
    directory.geojson) mkdir -p "$tmp/$1"; echo "$tmp/$1" ;;
    dev-zero) echo /dev/zero ;;                                 # endless
    sparse-2gb.geojson) truncate -s 2G "$tmp/$1"; echo "$tmp/$1" ;;  # larger than an input may be
  esac
}

while IFS=$'\t' read -r stage input args expected; do
  [[ -z "$stage" || "$stage" == \#* || "$stage" == stage ]] && continue
  # STDIN:FILE: the file is the stage's standard input (every other stage reads none).
  stdin=/dev/null
  if [[ "$input" == GENERATED:* ]]; then in=$(generate "${input#GENERATED:}")
  elif [[ "$input" == STDIN:* ]]; then in=$dir/${input#STDIN:}; stdin=$in
  else in=$dir/$input; fi
  outdir=$tmp/out-$((passed + failed)); mkdir -p "$outdir"
  out=$outdir/result.out
  a=${args//\{in\}/$in}; a=${a//\{out\}/$out}; a=${a//\{dir\}/$dir}; a=${a//\{data\}/$root/data}
  # shellcheck disable=SC2086
  err=$("$root/.build/release/$stage" -q $a 2>&1 >/dev/null <"$stdin"); rc=$?
  problem=""
  [ $rc -ne 0 ] || problem="exit status 0"
  [[ "$err" == *"$expected"* ]] || problem="${problem:+$problem; }message lacks «$expected»"
  left=$(ls -A "$outdir")
  [ -z "$left" ] || problem="${problem:+$problem; }left behind: $left"
  if [ -z "$problem" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL $stage $input: $problem"; echo "     it said: $err"
  fi
done < "$dir/cases.tsv"
echo "bad inputs: $passed passed, $failed failed"
[ $failed -eq 0 ]
