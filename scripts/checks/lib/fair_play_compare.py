#!/usr/bin/env python3
"""check_fair_play.sh's comparisons (issue 38, CONTRACTS §8c).

  fair_play_compare.py compare SET NIGHT SUBMITTED [JUDGED]
      SET/kinds.tsv (fair_play_runs.py: each run's kind and the reason it must be refused for),
      NIGHT/runs.tsv (geo-territory on SET/runs.geojson: TerritoryRules' verdicts and reasons),
      SUBMITTED (run_id, state, message: what submit_run answered each run, in order),
      JUDGED (optional; run_id, valid_loop of every stored run as the night or a follower judged
      it, a file per judge: NAME=FILE …).
  Prints ok/FAIL lines; exits 1 on a FAIL. The false-positive rate: honest runs refused (by
  geo-territory or submit_run) of all honest runs.
"""
import sys

REFUSED = ("faster_than_record", "over_cap", "simulated_fix", "replay")


def tsv(path, header=True):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    return [l.split("\t") for l in (lines[1:] if header else lines)]


def night_reasons(path):
    """run_id → (valid, the first §8c reason as "code (detail)" or None, all reasons)."""
    rows = tsv(path)
    out = {}
    for r in rows:
        reasons = [x for x in r[-1].split("; ") if x] if r[-1] else []
        first = next((x for x in reasons if x.split(" (")[0] in REFUSED), None)
        out[r[0]] = (r[2] == "true", first, reasons)
    return out


def compare(set_dir, night_dir, submitted, judged):
    fail = 0

    def bad(msg):
        nonlocal fail
        print(f"  FAIL {msg}")
        fail = 1

    kinds = {r[0]: (r[1], r[2], r[3]) for r in tsv(f"{set_dir}/kinds.tsv")}
    loops = {r[0]: (r[1], r[4]) for r in tsv(f"{set_dir}/kinds.tsv") if r[2] == "honest" and len(r) > 4}
    night = night_reasons(f"{night_dir}/runs.tsv")
    sub = {r[0]: (r[1], r[2] if len(r) > 2 else "") for r in tsv(submitted, header=False)}
    if set(night) != set(kinds) or set(sub) != set(kinds):
        bad(f"the runs differ: {len(kinds)} generated, {len(night)} judged by geo-territory, {len(sub)} submitted")
        return fail
    # Each kind: refused with its reason by geo-territory and by submit_run (SQLSTATE 22023).
    by_kind = {}
    for rid, (user, kind, expected) in kinds.items():
        valid, first, _ = night[rid]
        state, message = sub[rid]
        got_night = first.split(" (")[0] if first else "valid"
        got_sub = message.split(" (")[0] if state == "22023" and message.split(" (")[0] in REFUSED else ("valid" if state == "ok" else f"{state} {message[:60]}")
        k = by_kind.setdefault(kind, [0, 0, 0, expected, []])
        k[0] += 1
        if got_night == expected:
            k[1] += 1
        if got_sub == expected:
            k[2] += 1
        if (got_night != expected or got_sub != expected) and len(k[4]) < 2:
            k[4].append(f"{rid}: geo-territory {first or 'no §8c reason'}; submit_run {state} {message[:200]}")
    for kind in sorted(by_kind):
        n, nights, subs, expected, examples = by_kind[kind]
        what = "valid (not refused)" if expected == "valid" else f"refused: {expected}"
        if nights == n and subs == n:
            print(f"  ok   {kind}: {n:,} runs, all {what} by TerritoryRules (geo-territory) and by submit_run")
        else:
            bad(f"{kind}: {n:,} runs, {what}: geo-territory {nights:,}, submit_run {subs:,}; e.g. " + " | ".join(examples))
    # The same words: the first §8c reason of geo-territory is submit_run's message.
    differ = [rid for rid in kinds if (night[rid][1] or "") != (sub[rid][1] if sub[rid][0] == "22023" and sub[rid][1].split(" (")[0] in REFUSED else "")]
    if differ:
        r = differ[0]
        bad(f"{len(differ):,} runs where submit_run's reason is not TerritoryRules' (e.g. {r}: {night[r][1]!r} vs {sub[r][1]!r})")
    else:
        print(f"  ok   submit_run refuses every run TerritoryRules refuses, in the same words, and no other ({len(kinds):,} runs)")
    honest = [rid for rid, (_, kind, _) in kinds.items() if kind == "honest"]
    fp = [rid for rid in honest if night[rid][1] or sub[rid][0] != "ok"]
    seed_invalid = sum(1 for rid in honest if not night[rid][0] and not night[rid][1])
    print(f"  ..   false positives: {len(fp):,} of {len(honest):,} honest generated runs refused ({100 * len(fp) / max(len(honest), 1):.2f} %); "
          f"{seed_invalid:,} judged invalid by §8's rules (not refused)")
    # The same park loop run again by the same runner on another day: each run valid.
    reruns = {}
    for rid, key in loops.items():
        reruns.setdefault(key, []).append(rid)
    reruns = {k: v for k, v in reruns.items() if len(v) >= 2}
    twice = sum(1 for v in reruns.values() if all(night[r][0] and sub[r][0] == "ok" for r in v))
    if not reruns or twice < len(reruns):
        bad(f"same park loop, same runner, other days: {twice:,} of {len(reruns):,} runners' loops valid every time")
    else:
        print(f"  ok   the same park loop run again by the same runner on other days: {len(reruns):,} runners' loops, "
              f"{sum(len(v) for v in reruns.values()):,} runs, every one valid and stored")
    # The night and the follower: every stored run judged as geo-territory judged it.
    for spec in judged:
        name, path = spec.split("=", 1)
        rows = {r[0]: r[1] == "t" for r in tsv(path, header=False)}
        stored = [rid for rid in kinds if sub[rid][0] == "ok"]
        wrong = [rid for rid in stored if rows.get(rid) != night[rid][0]]
        extra = set(rows) - set(stored)
        if wrong or extra:
            bad(f"{name}: {len(wrong):,} stored runs judged otherwise than geo-territory, {len(extra):,} runs stored that submit_run refused")
        else:
            print(f"  ok   {name} judges all {len(stored):,} stored runs as geo-territory does (valid or not), and sees no refused run")
    return fail


def main():
    if len(sys.argv) < 5 or sys.argv[1] != "compare":
        print(__doc__)
        return 2
    return compare(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])


if __name__ == "__main__":
    sys.exit(main())
