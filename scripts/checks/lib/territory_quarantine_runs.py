# check_territory.sh: RUNS OUT — RUNS with two malformed runs (feature 3 loses a time, feature 7's
# user_id is not a UUID), written to OUT.
import json, sys
fc = json.load(open(sys.argv[1], encoding="utf-8"))
fc["features"][3]["properties"]["times"] = fc["features"][3]["properties"]["times"][:-1]
fc["features"][7]["properties"]["user_id"] = "not-a-uuid"
json.dump(fc, open(sys.argv[2], "w"))
