#!/usr/bin/env bash
# The city-ranking app's type-ahead (issue #33): search_cities(q, 10) under 8 concurrent
# clients (pgbench), latency p50/p95 per query length 1…12, typos included. Budget: p95 ≤ 15 ms
# at every length. The cities stage's migrations and seed go into a throwaway PostgreSQL 15
# (scripts/checks/lib/pg.sh); the queries are the first L letters of 5 of the 400 most
# populous cities' names, and from 5 letters on two of them carry a typo (two letters swapped
# in the middle), which takes the trigram fallback. The same queries go, in the same run, to
# the reference: the search of issue #33 (…_cities_search.sql, its ranking and typos), made
# again as search_cities_reference, so the ratio holds on a loaded machine. Each query is one
# pgbench script, sent as a simple query (parsed and planned on every call, as a client without
# prepared statements does); the per-transaction log gives the percentiles. The last line is the
# ratio of the two functions' p95 over all queries (issue #40: at most 1.5). Wall-clock latency
# counts every other process on the machine; so, per length, each function then runs alone for
# BENCH_CITY_CPU_SECONDS and the server's CPU time per call is read from the postmaster (its
# children's user + system time, which the backends of a finished pgbench add to it).
#   BENCH_CITY_SECONDS (20), BENCH_CITY_CPU_SECONDS (2), BENCH_CITY_CLIENTS (8);
#   BENCH_STRICT=1: a length over budget fails.
set -euo pipefail
cd "$(dirname "$0")/.."
unset MAKEFLAGS MFLAGS MAKELEVEL
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PY=${PYTHON:-python3}
SECONDS_RUN=${BENCH_CITY_SECONDS:-20}
CPU_SECONDS=${BENCH_CITY_CPU_SECONDS:-2}
CLIENTS=${BENCH_CITY_CLIENTS:-8}
DIR=${CITIES_DIR:-dist/supabase/cities}
make --no-print-directory cities >/dev/null 2>&1 || { echo "bench/city_search.sh: make cities failed"; exit 1; }

source scripts/checks/lib/pg.sh
pg_start bench_city_search C max_connections=40
PG=("${PSQL[@]}" -d postgres)
"${PG[@]}" -c "create role anon nologin; create role authenticated nologin" >/dev/null
for m in $(ls "$DIR"/migrations/*.sql | LC_ALL=C sort); do "${PG[@]}" -f "$m" >/dev/null; done
"${PG[@]}" -f "$DIR/seed.sql" >/dev/null
"${PG[@]}" -c "vacuum analyze" >/dev/null   # every table: an autovacuum of one during the CPU phase would count
# The reference: the search before issue #40 (the migration …_cities_search.sql, issue #33)
# under another name; it calls city_near, which later migrations leave unchanged.
first=$(ls "$DIR"/migrations/*_cities_search.sql | LC_ALL=C sort | head -1)
sed -n '/^create or replace function public.search_cities(/,/^\$\$;$/p' "$first" \
  | sed 's/function public.search_cities(/function public.search_cities_reference(/' >"$TMP/reference.sql"
grep -q search_cities_reference "$TMP/reference.sql" || { echo "bench/city_search.sh: no search_cities in $first"; exit 1; }
"${PG[@]}" -f "$TMP/reference.sql" >/dev/null

# The queries: one script per query, named by its length.
"${PG[@]}" -At -c "select name_key from public.cities where same_as is null and retired_at is null
                   and name_key ~ '^[a-z]+( [a-z]+)*\$' order by population desc, id limit 400" >"$TMP/names.txt"
"$PY" - "$TMP/names.txt" "$TMP/scripts" <<'EOF'
import os, sys
names = [l.strip() for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
out = sys.argv[2]
os.makedirs(out)
for length in range(1, 13):
    fit = [n for n in names if len(n) >= length]
    picks, seen = [], set()
    for i, n in enumerate(fit):  # every 7th name: the big ones and the middle of the list
        if i % 7 == 0 and n[:length] not in seen:
            seen.add(n[:length]); picks.append(n[:length])
        if len(picks) == 5:
            break
    for j, q in enumerate(picks):
        if length >= 5 and j % 2 == 1:
            m = length // 2
            q = q[:m - 1] + q[m] + q[m - 1] + q[m + 1:]
        for fn in ("search_cities", "search_cities_reference"):
            with open(os.path.join(out, f"{length:02d}_{j}_{fn}.sql"), "w", encoding="utf-8") as f:
                f.write(f"select count(*) from public.{fn}('{q}', 10);\n")
EOF
mapfile -t SCRIPTS < <(ls "$TMP"/scripts/*.sql | LC_ALL=C sort)
args=(); for s in "${SCRIPTS[@]}"; do args+=(-f "$s"); done
# Warm the caches, then the measured run.
(cd "$TMP" && "$PGBIN/pgbench" -h "$SOCK" -U postgres -n -M simple -c "$CLIENTS" -j 2 -T 3 "${args[@]}" postgres >/dev/null 2>&1)
(cd "$TMP" && "$PGBIN/pgbench" -h "$SOCK" -U postgres -n -M simple -c "$CLIENTS" -j 2 -T "$SECONDS_RUN" --log --log-prefix=lat \
   "${args[@]}" postgres >"$TMP/pgbench.out" 2>&1) || { cat "$TMP/pgbench.out"; exit 1; }
cat "$TMP"/lat.* >"$TMP/latency.log"
# Server CPU per call, per length and function, each alone.
POSTMASTER=$(head -1 "$DATA/postmaster.pid")
children_cpu() { awk '{ print $16 + $17 }' "/proc/$POSTMASTER/stat"; }  # clock ticks
: >"$TMP/cpu.tsv"
for n in $(seq -w 1 12); do
  for fn in search_cities search_cities_reference; do
    one=(); for s in "$TMP"/scripts/${n}_*_"$fn".sql; do one+=(-f "$s"); done
    c0=$(children_cpu)
    calls=$(cd "$TMP" && "$PGBIN/pgbench" -h "$SOCK" -U postgres -n -M simple -c "$CLIENTS" -j 2 -T "$CPU_SECONDS" "${one[@]}" postgres 2>/dev/null \
              | awk '/number of transactions actually processed/ { print $NF }')
    sleep 0.3; c1=$(children_cpu)
    printf '%s\t%s\t%s\t%s\n' "$((10#$n))" "$fn" "$calls" "$(( (c1 - c0) * 1000 / $(getconf CLK_TCK) ))" >>"$TMP/cpu.tsv"
  done
done
printf '%s\n' "${SCRIPTS[@]}" >"$TMP/scripts.txt"
echo "City search (search_cities(q, 10), $CLIENTS clients, ${SECONDS_RUN} s, pgbench -M simple; load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) cores):"
"$PY" - "$TMP/latency.log" "$TMP/scripts.txt" "$TMP/pgbench.out" "$TMP/cpu.tsv" <<'EOF'
import os, sys
cpu = {}
for line in open(sys.argv[4]):
    n, fn, calls, ms = line.split()
    cpu[(int(n), fn.endswith("_reference"))] = int(ms) / max(int(calls.split("/")[0]), 1)
scripts = [os.path.basename(l.strip()) for l in open(sys.argv[2])]
lat = {}
for line in open(sys.argv[1]):
    f = line.split()
    s = scripts[int(f[3])]
    lat.setdefault((int(s[:2]), s.endswith("_reference.sql")), []).append(int(f[2]) / 1000.0)
tps = next((l.split("=")[1].split()[0] for l in open(sys.argv[3]) if l.startswith("tps")), "?")
def pct(v):
    v = sorted(v)
    return v[len(v) // 2], v[min(len(v) - 1, int(len(v) * 0.95))]
bad = 0
print(f"  {'letters':>7} {'calls':>7} {'p50 ms':>8} {'p95 ms':>8}   {'reference p50':>13} {'p95':>7}   p95 ratio   {'CPU ms/call':>11} {'reference':>9} {'ratio':>6}")
for n in sorted({k[0] for k in lat}):
    p50, p95 = pct(lat[(n, False)])
    r50, r95 = pct(lat[(n, True)])
    flag = "  OVER BUDGET (p95 > 15 ms)" if p95 > 15 else ""
    bad |= p95 > 15
    c, rc = cpu.get((n, False), 0), cpu.get((n, True), 0)
    print(f"  {n:>7} {len(lat[(n, False)]):>7} {p50:>8.2f} {p95:>8.2f}   {r50:>13.2f} {r95:>7.2f}   {p95 / r95:>9.2f}   {c:>11.3f} {rc:>9.3f} {c / rc if rc else 0:>6.2f}{flag}")
print(f"  {sum(len(v) for v in lat.values())} calls, {tps} calls/s")
all_new = [x for k, v in lat.items() if not k[1] for x in v]
all_ref = [x for k, v in lat.items() if k[1] for x in v]
p95, r95 = pct(all_new)[1], pct(all_ref)[1]
print(f"  p95 over all lengths: {p95:.2f} ms, reference {r95:.2f} ms: ratio {p95 / r95:.2f} (issue #40: at most 1.5)")
sys.exit(1 if bad and os.environ.get("BENCH_STRICT", "0") == "1" else 0)
EOF
