# check_territory.sh: USERS_TSV USERS_DB — exit 0 when the runners' rows agree (runs, valid runs,
# cells equal; km² within 0.5 %).
import sys
a = {l.split("\t")[0]: l.split("\t") for l in open(sys.argv[1]).read().split("\n") if l}
b = {l.split("\t")[0]: l.split("\t") for l in open(sys.argv[2]).read().split("\n") if l}
ok = a.keys() == b.keys() and all(a[u][1:4] == b[u][1:4] and abs(float(a[u][4]) - float(b[u][4])) <= 0.005 * float(a[u][4]) + 1e-9 for u in a)
sys.exit(0 if ok else 1)
