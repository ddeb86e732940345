# check_challenges.sh: WORLD_TSV — 365 hand-written quiz rows from 2026-02-17 as CSV (date, the three types,
# answer): one type each, answers from WORLD_TSV (world_table.py's id has_capital is_point), with
# repeats within 30 days as the real schedule has; deterministic (a fixed LCG).
import datetime, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
pools = [sorted(r[0] for r in rows if r[2] == "f"), sorted(r[0] for r in rows if r[1] == "t"), sorted(r[0] for r in rows)]
state = 20260217
def rnd(n):
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
    return (state >> 33) % n
print("date,is_guess_country,is_guess_capital,is_guess_flag,answer")
recent, day, prev = [], datetime.date(2026, 2, 17), None
for i in range(365):
    t = rnd(3)
    if t == prev:
        t = (t + 1) % 3
    prev = t
    pool = pools[t]
    cands = [a for a in recent[-25:] if a in pool]
    if cands and rnd(10) == 0:   # the hand-written schedule repeats answers within 30 days
        answer = cands[rnd(len(cands))]
    else:
        answer = pool[rnd(len(pool))]
    recent.append(answer)
    print(day.isoformat() + "," + ",".join("t" if t == k else "f" for k in range(3)) + "," + answer)
    day += datetime.timedelta(days=1)
