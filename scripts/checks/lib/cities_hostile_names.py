# check_cities.sh: CITIES_TSV OUT — CITIES_TSV (GeoNames' cities15000.tsv) with Munich's name made hostile
# (quotes, a backslash, SQL after them), written to OUT.
import sys
src, dst = sys.argv[1], sys.argv[2]
with open(src, encoding="utf-8") as f, open(dst, "w", encoding="utf-8") as g:
    for line in f:
        if line.startswith("2867714\t"):
            cols = line.rstrip("\n").split("\t")
            cols[1] = "Mu'nich\\'); drop table public.cities; -- \"quoted\""
            line = "\t".join(cols) + "\n"
        g.write(line)
