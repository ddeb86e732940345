# check_challenges.sh: WORLD OUT — WORLD with every country's name made hostile (a quote, a backslash, a
# semicolon, a line break, SQL around them), written to OUT.
import json, sys
w = json.load(open(sys.argv[1], encoding="utf-8"))
for f in w["features"]:
    f["properties"]["name"] = f["properties"]["name"] + "'); drop table public.daily_challenges; -- \\\n drop table world; select ('"
json.dump(w, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
