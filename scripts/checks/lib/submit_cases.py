"""The runs check_follow.sh submits (submit_run, CONTRACTS §8b), made from one valid run.

    python3 submit_cases.py RUNS.geojson OUTDIR RUNNER

writes OUTDIR/cases.csv (name, kind, id, expected, body: the Feature's exact JSON text) and
OUTDIR/night.geojson, a FeatureCollection of the `night` cases in cases.csv's order, for
geo-territory: the reason each gets in rejects.tsv is the message submit_run must give. The
runs are RUNNER's (properties.user_id). Kinds:
  night   quarantined by the night (rejects.tsv gives the expected message);
  fatal   a feature that stops the night's whole file (OUTDIR/fatal_<name>.geojson holds it
          alone); submit_run refuses it with `expected`;
  submit  refused by submit_run's own limits (the night judges such a run invalid or never
          sees one), with `expected`;
  badjson not JSON at all (NaN): PostgreSQL refuses the text before submit_run is called;
  accept  well-formed: stored pending, whatever the rules will say of it.
Every case has its own id (uuid), so that "nothing stored" is "no row with that id".
"""
import copy
from datetime import datetime, timedelta, timezone
import csv
import json
import sys
from datetime import datetime, timedelta, timezone

runs_path, out, runner = sys.argv[1], sys.argv[2], sys.argv[3]
base = json.load(open(runs_path))["features"][0]
base["properties"]["user_id"] = runner
n = len(base["geometry"]["coordinates"])
cases = []  # (name, kind, feature or text, expected)


def case_id(k):
    return f"00000000-0000-4000-8000-{k:012d}"


def variant(name, kind, change, expected=""):
    f = copy.deepcopy(base)
    f["id"] = case_id(len(cases) + 1)
    change(f)
    if kind == "accept":
        # Each stored case elsewhere (0.001° apart): the same fixes again would be a replay of
        # the first (CONTRACTS §8c), refused.
        for c in f["geometry"]["coordinates"]:
            c[0] = round(c[0] + 0.001 * len(cases), 9)
    cases.append((name, kind, f, expected))


def props(f):
    return f["properties"]


def coords(f):
    return f["geometry"]["coordinates"]


def put(path, value):
    def change(f):
        target = f
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def delete(path):
    def change(f):
        target = f
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


# What the night quarantines (RunsReader), one case per reason.
variant("type_point", "night", put(["type"], "Point"))
variant("type_missing", "night", delete(["type"]))
variant("id_missing", "night", delete(["id"]))
variant("id_not_string", "night", put(["id"], 42))
variant("id_not_uuid", "night", put(["id"], "run-7"))
variant("geometry_point", "night", put(["geometry"], {"type": "Point", "coordinates": [2.35, 48.85]}))
variant("geometry_null", "night", put(["geometry"], None))
variant("user_id_not_string", "night", put(["properties", "user_id"], 7))
variant("user_id_null", "night", put(["properties", "user_id"], None))
variant("user_id_not_uuid", "night", put(["properties", "user_id"], "bob"))
variant("times_missing", "night", delete(["properties", "times"]))
variant("accuracy_missing", "night", delete(["properties", "accuracy_m"]))
variant("time_without_zone", "night", lambda f: props(f)["times"].__setitem__(3, props(f)["times"][3].rstrip("Z")))
variant("time_not_a_date", "night", lambda f: props(f)["times"].__setitem__(2, 'yesterday "noon"\t\\ é'))
variant("time_february_30", "night", lambda f: props(f)["times"].__setitem__(1, "2026-02-30T07:02:11Z"))
variant("time_seven_decimals", "night", lambda f: props(f)["times"].__setitem__(4, props(f)["times"][4][:-1] + ".1234567Z"))
variant("times_one_short", "night", lambda f: props(f)["times"].pop())
variant("accuracy_one_long", "night", lambda f: props(f)["accuracy_m"].append(5.0))
variant("coordinate_null", "night", lambda f: coords(f)[4].__setitem__(0, None))  # JSON.stringify(NaN)
variant("coordinate_string_nan", "night", lambda f: coords(f)[4].__setitem__(1, "NaN"))
variant("coordinate_bool", "night", lambda f: coords(f)[6].__setitem__(0, True))
variant("coordinate_one_number", "night", lambda f: coords(f).__setitem__(5, [2.35]))
variant("coordinate_empty", "night", lambda f: coords(f).__setitem__(5, []))
variant("coordinate_huge", "night", lambda f: coords(f)[7].__setitem__(0, "@HUGE@"))
variant("longitude_200", "night", lambda f: coords(f)[6].__setitem__(0, 200))
variant("latitude_minus_91_5", "night", lambda f: coords(f)[8].__setitem__(1, -91.5))
variant("longitude_1e16", "night", lambda f: coords(f)[9].__setitem__(0, 1e16))
variant("longitude_minus_1_2e15", "night", lambda f: coords(f)[9].__setitem__(0, -1234567890123456.0))
variant("accuracy_negative", "night", lambda f: props(f)["accuracy_m"].__setitem__(7, -3))
variant("accuracy_string", "night", lambda f: props(f)["accuracy_m"].__setitem__(8, "5"))
variant("accuracy_null", "night", lambda f: props(f)["accuracy_m"].__setitem__(0, None))
# A refusal quotes at most 80 characters of what was sent (the first 79 and "…").
variant("type_long", "night", put(["type"], "Feature" * 40))
variant("id_long", "night", put(["id"], "r" * 5000))
variant("geometry_type_long", "night", put(["geometry", "type"], "Line" * 50))
variant("user_id_long", "night", put(["properties", "user_id"], "u\u00e9" * 300))
variant("time_long", "night", lambda f: props(f)["times"].__setitem__(2, '9"' * 50_000))
# A file the night reads no further (not a quarantine): submit_run's own words.
variant("coordinates_string", "fatal", put(["geometry", "coordinates"], "48.85,2.35"),
        "geometry.coordinates is not an array of [lon, lat] positions")
variant("coordinate_not_array", "fatal", lambda f: coords(f).__setitem__(2, 2.35), "coordinate 2 is not a [lon, lat] position")
variant("time_not_string", "fatal", lambda f: props(f)["times"].__setitem__(5, 1763190000),
        'times[5] "a non-string value" is not an ISO 8601 time with a zone (e.g. 2026-11-21T07:02:11Z)')
variant("times_not_array", "fatal", put(["properties", "times"], "2026-11-15T12:01:07Z"), "properties.times is not an array")
variant("accuracy_not_array", "fatal", put(["properties", "accuracy_m"], 5), "properties.accuracy_m is not an array")
# submit_run's own limits.
variant("time_backwards", "submit", lambda f: props(f)["times"].__setitem__(5, props(f)["times"][3]),
        "times[5] is earlier than times[4]: a run's times never go backwards")


def over_a_day(f):
    t = props(f)["times"]
    assert t[0].endswith("Z") and len(t[0]) == 20 and t[0][11:13] < "23", t[0]
    t[-1] = t[0][:8] + f"{int(t[0][8:10]) + 1:02d}T{int(t[0][11:13]) + 1:02d}" + t[0][13:]  # 25 h after the first


variant("over_24_hours", "submit", over_a_day,
        f"the run lasts 25.0 h from times[0] to times[{n - 1}], more than the 24 h a run may last")


def many(count):
    def change(f):
        c, t, a = coords(f), props(f)["times"], props(f)["accuracy_m"]
        f["geometry"]["coordinates"] = [c[i % n] for i in range(count)]
        # One fix every 4 s from the first time (a runner's pace: no stretch faster than a world
        # record), never backwards, within 24 h.
        start = datetime(2026, 11, 15, 12, tzinfo=timezone.utc)
        props(f)["times"] = [(start + timedelta(seconds=4 * i)).strftime("%Y-%m-%dT%H:%M:%SZ") for i in range(count)]
        props(f)["accuracy_m"] = [a[i % n] for i in range(count)]
    return change


def in_an_hour(f):
    """The run moved to start an hour from now (its durations kept): every time in the future."""
    t = [datetime.fromisoformat(x.replace("Z", "+00:00")) for x in props(f)["times"]]
    d = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(hours=1) - t[0]
    props(f)["times"] = [(x + d).strftime("%Y-%m-%dT%H:%M:%SZ") for x in t]


variant("future_hour", "submit", in_an_hour, "times[0] is in the future: more than 2 minutes past the server's clock")
variant("fixes_20001", "submit", many(20001), "the run has 20001 fixes, more than the 20000 a run may have")
# A well-formed run padded with a field the night does not read: refused by its size.
variant("padded_4_mb", "submit", put(["properties", "note"], "x" * 4_000_000),
        "the run takes more than the 4000000 bytes a run may take as JSON text")
cases.append(("nan_literal", "badjson", None, ""))
# Well-formed runs, stored pending whatever the rules will say of them.
variant("valid_loop", "accept", lambda f: None)
variant("user_id_left_out", "accept", delete(["properties", "user_id"]))
variant("id_upper_case", "accept", lambda f: f.__setitem__("id", f["id"].upper()))
def first(count):
    def change(f):
        f["geometry"]["coordinates"] = coords(f)[:count]
        for k in ("times", "accuracy_m"):
            props(f)[k] = props(f)[k][:count]
    return change


variant("too_short", "accept", first(3))
variant("no_fixes", "accept", first(0))
variant("same_second_fixes", "accept", lambda f: props(f)["times"].__setitem__(5, props(f)["times"][4]))
variant("fixes_20000", "accept", many(20000))

rows, night = [], []
for name, kind, f, expected in cases:
    if kind == "badjson":
        g = copy.deepcopy(base)
        g["id"] = case_id(len(rows) + 1)
        text = json.dumps(g).replace(json.dumps(g["geometry"]["coordinates"][4][0]), "NaN", 1)
        rows.append((name, kind, g["id"], expected, text))
        continue
    text = json.dumps(f, ensure_ascii=False).replace('"@HUGE@"', "1e400")
    rows.append((name, kind, case_id(len(rows) + 1), expected, text))
    if kind == "night":
        night.append(text)
    if kind == "fatal":
        open(f"{out}/fatal_{name}.geojson", "w").write('{"type": "FeatureCollection", "features": [' + text + "]}\n")

with open(f"{out}/cases.csv", "w", newline="") as fh:
    csv.writer(fh).writerows(rows)
with open(f"{out}/night.geojson", "w") as fh:
    fh.write('{"type": "FeatureCollection", "features": [\n' + ",\n".join(night) + "\n]}\n")
