"""check_follow: the stored runs against the bodies submitted. Usage: follow_stored_rows.py STORED RUNNER
STORED: lines "name|body|started_at|ended_at|path (WKT)|submission" (psql -At); RUNNER: the caller's id.
started_at/ended_at must be the first/last time, path the coordinates, and the submission the
canonical Feature (id lower-cased, user_id the runner, nothing else). Prints each difference; exits 1 on any.
"""
import json, sys
from datetime import datetime, timezone
runner, bad = sys.argv[2], []
for line in open(sys.argv[1]):
    name, body, started, ended, path, submission = line.rstrip("\n").split("|")
    f, s = json.loads(body), json.loads(submission)
    times, xy = f["properties"]["times"], f["geometry"]["coordinates"]
    iso = lambda t: datetime.fromisoformat(t.replace("Z", "+00:00")).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")
    want = (iso(times[0]), iso(times[-1])) if times else ("1970-01-01T00:00:00.000000",) * 2
    if (started, ended) != want: bad.append(f"{name}: started/ended {started} {ended}, expected {want}")
    if len(xy) >= 2:
        pts = [tuple(map(float, p.split())) for p in path[len("LINESTRING("):-1].split(",")]
        if pts != [(p[0], p[1]) for p in xy]: bad.append(f"{name}: path is not the coordinates")
    elif path != "null": bad.append(f"{name}: path {path[:40]} for {len(xy)} fixes")
    f["id"] = f["id"].lower(); f["properties"]["user_id"] = runner
    # The canonical body: what the night reads, nothing else (sample_kind dropped).
    f = {"type": "Feature", "id": f["id"], "geometry": {"type": "LineString", "coordinates": xy},
         "properties": {k: f["properties"][k] for k in ("user_id", "times", "accuracy_m")}}
    if s != f: bad.append(f"{name}: submission is not the canonical Feature with its id and user_id")
if bad: print("\n".join(bad))
sys.exit(1 if bad else 0)
