# check_cities.sh: SEED ID — the seed with the row of that id (city or country) and its id in the id
# lists removed, on stdout.
import re, sys
# A row is one line of a values list that starts with "(id, "; the ids of the source are listed
# as '{…,id,…}'.
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
key = sys.argv[2]
out = []
for line in lines:
    if line.startswith(f"({key}, "):
        if line.endswith(";") and out and out[-1].endswith(","):
            out[-1] = out[-1][:-1] + ";"
        continue
    out.append(re.sub(r"([{,])" + key + r"(?=[,}])", lambda m: "" if m.group(1) == "," else "{", line).replace("{,", "{"))
sys.stdout.write("\n".join(out))
