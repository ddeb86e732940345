"""The runs check_hostile.sh sends as an attacker would (issue 37), made from one valid run.

    python3 hostile_runs.py RUNS.geojson OUTDIR ATTACKER

writes OUTDIR/attacks.csv (name, kind, id, body: the Feature's exact JSON text), each run the
ATTACKER's (properties.user_id), each with its own id. The attacker's runs that submit_run
stores are too short to claim anything (three fixes), so that the territory after the attack
is one night's over the honest runs alone. Kinds:
  deep      an unknown property nested 600 levels deep (the night's reader refuses 512);
  padded    an unknown property of 3.9 MB;
  badtime   times[0] a 3.9 MB string that is no time (refused; quoted at most 80 characters);
  future    a valid loop ending in the future: an hour from now, or 9999-12-31 (refused);
  fair      the same loop ended a minute ago (fair time: it takes the cells of the 9999 one);
  quota     plain short runs, one after another (the hourly limit);
  legacy    bodies as an older submit_run stored them, which today's night's reader refuses
            (600 levels deep, a bad time): put straight into runs, to be quarantined alone.
"""
import copy
import csv
import json
import sys
from datetime import datetime, timedelta, timezone

runs_path, out, attacker = sys.argv[1], sys.argv[2], sys.argv[3]
base = json.load(open(runs_path))["features"][0]
base["properties"]["user_id"] = attacker
rows = []


def case_id(k):
    return f"aaaaaaaa-0000-4000-8000-{k:012d}"


shorts = 0


def short(f):
    """The run cut to three fixes: well-formed, judged invalid (too short), claims nothing.
    Each one 0.001° further east than the one before: the same fixes again would be a replay
    (CONTRACTS §8c), refused before the limit or the storing this check is after."""
    global shorts
    shorts += 1
    f["geometry"]["coordinates"] = [[round(x + 0.001 * shorts, 9), y] for x, y in f["geometry"]["coordinates"][:3]]
    for k in ("times", "accuracy_m"):
        f["properties"][k] = f["properties"][k][:3]
    return f


def add(name, kind, f):
    f["id"] = case_id(len(rows) + 1)
    rows.append((name, kind, f["id"], json.dumps(f, separators=(",", ":"))))


def nested(levels):
    # Arrays, not objects: 600 levels in 1.2 kB of text.
    return json.loads("[" * levels + "]" * levels)


for i in range(11):
    f = short(copy.deepcopy(base))
    f["properties"]["extra"] = nested(600)
    add(f"deep_{i + 1}", "deep", f)

f = short(copy.deepcopy(base))
f["properties"]["note"] = "x" * 3_900_000
f["members"] = {"also": "dropped"}
add("padded_3_9_mb", "padded", f)

f = short(copy.deepcopy(base))
f["properties"]["times"][0] = "9" * 3_900_000
add("bad_time_3_9_mb", "badtime", f)


def shifted(to_end):
    """The valid run moved in time so that it ends at `to_end` (its durations kept)."""
    f = copy.deepcopy(base)
    t = [datetime.fromisoformat(x.replace("Z", "+00:00")) for x in f["properties"]["times"]]
    d = to_end - t[-1]
    f["properties"]["times"] = [(x + d).strftime("%Y-%m-%dT%H:%M:%SZ") for x in t]
    return f


now = datetime.now(timezone.utc).replace(microsecond=0)
add("future_hour", "future", shifted(now + timedelta(hours=1)))
add("future_9999", "future", shifted(datetime(9999, 12, 31, 23, 0, 0, tzinfo=timezone.utc)))
# The same loop, ended a minute ago: what a real runner sends today.
add("fair_today", "fair", shifted(now - timedelta(minutes=1)))

for i in range(21):
    add(f"quota_{i + 1}", "quota", short(copy.deepcopy(base)))

# As an older submit_run stored them (the body whole): the night's reader refuses these.
for i in range(11):
    f = short(copy.deepcopy(base))
    f["properties"]["extra"] = nested(600)
    add(f"legacy_deep_{i + 1}", "legacy", f)
f = short(copy.deepcopy(base))
f["properties"]["times"][1] = "y" * 100_000
add("legacy_bad_time", "legacy", f)

with open(f"{out}/attacks.csv", "w", newline="") as o:
    csv.writer(o).writerows(rows)
