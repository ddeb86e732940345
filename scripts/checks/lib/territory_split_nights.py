# check_territory.sh: RUNS DIR — RUNS split into DIR/night1.geojson (runs ending before
# 2026-11-19) and DIR/night2.geojson (the rest).
import json, sys
fc = json.load(open(sys.argv[1], encoding="utf-8"))
cut = "2026-11-19T00:00:00Z"
for name, keep in (("night1", lambda t: t < cut), ("night2", lambda t: t >= cut)):
    out = dict(fc, features=[f for f in fc["features"] if keep(f["properties"]["times"][-1])])
    json.dump(out, open(f"{sys.argv[2]}/{name}.geojson", "w"))
