# Sourced (after scripts/checks/lib/pg.sh and pg_start) by check_follow.sh and bench/follow.sh:
# a game database as the app leaves it, runs submitted into it, and what the tests compare.
#
#   game_db DB                  the game's schema (CONTRACTS §8), Supabase's auth.uid() (the
#                               stand-in) and the game's migrations, applied by an empty night
#                               (geo-nightly), as on a live database
#   game_templates DB RUNS [N]  RUNS (a runs file; its first N runs) as the table templates (k, id, user_id,
#                               submission: each run as the phone sends it) and their runners
#   game_submit_all DB          every template submitted once, under its own id (pending runs)
#   game_submit_copies DB N     N runs submitted at once, templates taken in turn, fresh ids
#   game_pgbench_script FILE    a pgbench transaction that stores one random template under a
#                               fresh id as submit_run stores it (pending, then notified)
#   game_pgbench_submit_run FILE DB   the same through submit_run, as the app calls it, the
#                               template moved east by a random multiple of 4e-5° (not a replay
#                               of an earlier copy, CONTRACTS §8c)
#   game_copy_runs FROM TO      the submitted runs of FROM (and their runners) into TO, pending
#   game_latency DB [WHERE]     "n p50 p95 max" of judged_at − created_at, in seconds
#   game_pending DB             runs still pending
#   $game_territory $game_judged  queries: md5 of territory_hex, of the runs' judged columns
BIN=${BIN:-.build/release}

game_db() {
  pg_sql postgres "create database $1" >/dev/null
  "${PSQL[@]}" -d "$1" -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql >/dev/null
  local empty; empty=$(mktemp --suffix=.geojson)
  echo '{"type":"FeatureCollection","features":[]}' > "$empty"
  DATABASE_URL="host=$SOCK ${PORT:+port=$PORT} user=postgres dbname=$1" "$BIN/geo-nightly" --apps territory --runs "$empty" --pipeline-commit check \
    >"$empty.log" 2>&1 || { cat "$empty.log"; rm -f "$empty" "$empty.log"; return 1; }
  rm -f "$empty" "$empty.log"
}

game_templates() {
  pg_sql "$1" "create table templates (k int primary key, id uuid not null, user_id uuid not null, submission jsonb not null,
    started_at timestamptz, ended_at timestamptz, path geometry(linestring, 4326))" >/dev/null
  ${PYTHON:-python3} scripts/checks/lib/runs_csv.py "$2" ${3:-} | "${PSQL[@]}" -d "$1" -c "copy templates (k, id, user_id, submission) from stdin with (format csv)" >/dev/null
  pg_sql "$1" "update templates set started_at = (submission->'properties'->'times'->>0)::timestamptz,
      ended_at = (submission->'properties'->'times'->>-1)::timestamptz,
      path = st_setsrid(st_geomfromgeojson(submission->>'geometry'), 4326);
    insert into users (id, username) select distinct user_id, 'runner-' || user_id from templates on conflict do nothing;
    analyze templates" >/dev/null
}

# What the app stores for a submitted run (submit_run): its fixes, times from them, pending.
game_submit_sql="insert into runs (id, user_id, started_at, ended_at, path, submission)"

game_submit_all() {
  pg_sql "$1" "$game_submit_sql select id, user_id, started_at, ended_at, path, submission from templates order by k;
    select pg_notify('territory_runs', '')" >/dev/null
}

game_submit_copies() {
  pg_sql "$1" "$game_submit_sql
    select g.id, t.user_id, t.started_at, t.ended_at, t.path, jsonb_set(t.submission, '{id}', to_jsonb(g.id::text))
      from generate_series(0, $2 - 1) s(n)
      cross join lateral (select gen_random_uuid() id, s.n) g
      join templates t on t.k = g.n % (select count(*) from templates) + 1" >/dev/null
}

game_pgbench_script() {
  cat > "$1" <<'SQL'
\set k random(1, :templates)
insert into runs (id, user_id, started_at, ended_at, path, submission)
  select g.id, t.user_id, t.started_at, t.ended_at, t.path, jsonb_set(t.submission, '{id}', to_jsonb(g.id::text))
    from templates t cross join (select gen_random_uuid() id) g where t.k = :k
  returning pg_notify('territory_runs', id::text);
SQL
}

# game_pgbench_submit_run FILE DB: the same through submit_run itself, as the app calls it
# (authenticated, the runner's JWT claims; the function stores, checks and notifies).
game_pgbench_submit_run() {
  pg_sql "$2" "grant select on templates to authenticated" >/dev/null
  cat > "$1" <<'SQL'
\set k random(1, :templates)
\set dx random(1, 50000)
begin;
select set_config('request.jwt.claims', json_build_object('sub', user_id, 'role', 'authenticated')::text, true) from templates where k = :k;
set local role authenticated;
select submit_run(jsonb_set(jsonb_set(submission, '{id}', to_jsonb(gen_random_uuid()::text)), '{geometry,coordinates}',
    (select jsonb_agg(jsonb_build_array((c ->> 0)::float8 + :dx * 4e-5, c -> 1) order by n)
       from jsonb_array_elements(submission -> 'geometry' -> 'coordinates') with ordinality as e(c, n))))
  from templates where k = :k;
commit;
SQL
}

game_copy_runs() {
  "${PSQL[@]}" -d "$1" -c "copy (select distinct u.id, u.username from users u join runs r on r.user_id = u.id) to stdout" \
    | "${PSQL[@]}" -d "$2" -c "copy users (id, username) from stdin" >/dev/null
  "${PSQL[@]}" -d "$1" -c "copy (select id, user_id, started_at, ended_at, path, submission, created_at from runs where submission is not null) to stdout" \
    | "${PSQL[@]}" -d "$2" -c "copy runs (id, user_id, started_at, ended_at, path, submission, created_at) from stdin" >/dev/null
}

game_latency() {
  pg_sql "$1" "select count(*), coalesce(round(percentile_cont(0.5) within group (order by s)::numeric, 3), 0),
      coalesce(round(percentile_cont(0.95) within group (order by s)::numeric, 3), 0), coalesce(round(max(s)::numeric, 3), 0)
    from (select extract(epoch from judged_at - created_at) s from runs where submission is not null and ${2:-true}) l" | tr '|' ' '
}

game_pending() { pg_sql "$1" "select count(*) from runs where judged_at is null and submission is not null"; }

game_territory="select md5(coalesce(string_agg(row(hex_id, owner_user_id, last_run_id, claimed_at, st_asewkb(cell))::text, ',' order by hex_id), '')) || ' ' || count(*) from territory_hex"
game_judged="select md5(coalesce(string_agg(row(id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop, st_asewkb(loop_polygon), judged_at is not null)::text, ',' order by id), '')) || ' ' || count(*) from runs"
