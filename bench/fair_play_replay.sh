#!/usr/bin/env bash
# The replay search at a million stored runs (issue 38, CONTRACTS §8c), against a throwaway
# PostgreSQL 15 + PostGIS (scripts/checks/lib/pg.sh) with the game's migrations: RUNS stored runs
# (default 1,000,000: runs rows and their signatures, 8 a run, in run_signatures), POPULAR of them
# (default 20,000) laps of one 3 km park loop, stored whole (their submissions: the candidates a
# submission there is matched against), the rest on 10,000 loops around the world
# (bench/fair_play_signatures.py). Then submit_run_rules, what submit_run adds for §8c, timed on
# 30 honest laps of the busy loop, 8 replays of its stored runs and 2 runs of a quiet loop: the
# time of each, the candidates it matched, the rows its signature probes read.
#
#   bash bench/fair_play_replay.sh [RUNS] [POPULAR]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-1000000}
POPULAR=${2:-20000}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
source scripts/checks/lib/pg.sh
pg_start bench_fair_play C timezone=UTC shared_buffers=256MB
sql() { pg_sql "$@"; }
sql postgres "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls"
sql postgres "create database game"
"${PSQL[@]}" -d game -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql >/dev/null
for m in Sources/TerritoryGame/Migrations/*.sql; do "${PSQL[@]}" -d game -f "$m" >/dev/null; done
sql game "insert into users (id, username) values ('00000000-0000-4000-8000-0000000000aa', 'bench')"

t0=$(date +%s)
sql game "insert into runs (id, user_id, started_at, ended_at, created_at, judged_at)
  select ('00000000-0000-4000-8000-' || lpad(to_hex(k), 12, '0'))::uuid, '00000000-0000-4000-8000-0000000000aa',
         now() - interval '1 day', now() - interval '1 day', now() - interval '1 day', now()
    from generate_series(1, $RUNS) k"
sql game "create unlogged table sig (hash bigint, k bigint); create unlogged table bodies (k bigint, body jsonb)"
${PYTHON:-python3} bench/fair_play_signatures.py "$RUNS" "$POPULAR" --bodies "$TMP" | "${PSQL[@]}" -d game -c "copy sig from stdin with (format csv)"
"${PSQL[@]}" -d game -c "copy bodies from '$TMP/bodies.csv' with (format csv)" 2>/dev/null \
  || "${PSQL[@]}" -d game -c "\\copy bodies from '$TMP/bodies.csv' with (format csv)"
sql game "update runs r set submission = b.body from bodies b where r.id = ('00000000-0000-4000-8000-' || lpad(to_hex(b.k), 12, '0'))::uuid"
sql game "insert into run_signatures (hash, run_id, stored)
  select hash, ('00000000-0000-4000-8000-' || lpad(to_hex(k), 12, '0'))::uuid, k from sig on conflict do nothing;
  select setval('run_signatures_stored', $RUNS); drop table sig; drop table bodies" >/dev/null
sql game "vacuum analyze runs"
sql game "vacuum analyze run_signatures"
echo "stored: $(sql game "select format('%s runs, %s signature rows, run_signatures %s (index %s)', (select count(*) from runs), count(*),
  pg_size_pretty(pg_table_size('run_signatures')), pg_size_pretty(pg_indexes_size('run_signatures'))) from run_signatures") ($(( $(date +%s) - t0 )) s)"

sql game "create table probes (kind text, body jsonb); create table timed (kind text, ms double precision, candidates int, rows_read int, reason text)"
"${PSQL[@]}" -d game -c "\\copy probes from '$TMP/probes.csv' with (format csv)"
sql game "do \$\$ declare p record; rr record; t0 timestamptz; reason text; sig bigint[]; begin
  for p in select * from probes loop
    rr := public.submit_run_read(p.body);
    sig := public.fair_play_signature((public.fair_play_kept(p.body)).lon, (public.fair_play_kept(p.body)).lat);
    t0 := clock_timestamp();
    reason := public.submit_run_rules(p.body, rr.id, rr.times);
    insert into timed values (p.kind, extract(epoch from clock_timestamp() - t0) * 1000,
      (select count(*) from (select run_id from run_signatures where hash = any(sig) group by run_id having count(*) >= 2 limit 8) c),
      (select count(*) from run_signatures where hash = any(sig)), left(coalesce(reason, 'not refused'), 60));
  end loop; end \$\$"
echo "submit_run_rules per submission (ms):"
sql game "select kind, count(*), round(percentile_cont(0.5) within group (order by ms)::numeric), round(max(ms)::numeric),
  max(candidates), max(rows_read), string_agg(distinct split_part(reason, ' (', 1), ',') from timed group by kind order by kind" \
  | sed 's/^/  /; s/|/  /g'
