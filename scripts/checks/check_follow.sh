#!/usr/bin/env bash
# run-all: alone (it times a server; see run-all.sh)
# Consumer check for the game's loop (issue #32, CONTRACTS §8b) against a REAL PostgreSQL 15 +
# PostGIS (throwaway server on a unix socket) with Supabase's roles anon, authenticated and
# service_role and the stand-in auth.uid() (scripts/checks/supabase_auth.sql), the game's
# migrations as make territory wrote them applied twice:
#   submit_run, called as `authenticated` with request.jwt.claims set (as PostgREST does):
#   - every run the night quarantines is refused with the night's own reason (geo-territory's
#     rejects.tsv for the same runs), every other refusal with the field named; nothing stored;
#   - well-formed runs (invalid by the rules or not) stored pending: judged_at null, the fixes
#     kept, started/ended from the times, created_at the submission's time, one NOTIFY each, and
#     the stored Features read back by geo-territory without a reject;
#   - idempotency (same body: same id, nothing written; another body: refused), a runner
#     without a users row, a properties.user_id other than the caller, no signed-in runner;
#   - row-level security: another runner reads no path or submission, only its own runs whole
#     (my_runs); anon calls and reads nothing;
#   - the migrations applied again (in the night's order) change nothing; with PostGIS in schema
#     `extensions` (some Supabase projects) submit_run's search_path follows it.
#   the follower and the night over pending runs (follow_*; runs stored as submit_run stores them):
#   - a night over pending runs (geo-nightly without a runs file) gives the same territory_hex
#     and judged runs as a night over the same runs as a file; a rerun finds nothing pending; a
#     pending run the night's reader refuses is marked judged, its reason recorded;
#   - two followers while runs stream in (pgbench), one killed -9 mid-batch (while its
#     transaction holds claimed runs): every run judged exactly once, the table equal to one
#     night's over the same runs; SIGTERM: the batch finishes, exit 0;
#   - a follower whose connection is killed reconnects and goes on; a wrong password stops it
#     at once, and no password is ever printed;
#   - latency at a steady 20 runs/s through submit_run: p95 from created_at to judged_at ≤ 1 s.
# Each section is a function (submit_*, follow_*); the lines at the bottom run them in order.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN=${BIN:-.build/release}
TERRITORY=$BIN/geo-territory
FOLLOW=$BIN/geo-territory-follow
NIGHTLY=$BIN/geo-nightly
RUNS=${TERRITORY_RUNS_RUNS:-data/territory/runs.geojson}
MIGRATIONS=${GAME_MIGRATIONS:-dist/supabase/game/migrations}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PY=${PYTHON:-python3}
# The game's migrations, named as in Sources/TerritoryGame/Migrations/ (the stage writes those names).
GAME_MIGRATION_FILES=()
for m in Sources/TerritoryGame/Migrations/*.sql; do
  GAME_MIGRATION_FILES+=("$MIGRATIONS/$(basename "$m")")
done

source scripts/checks/lib/pg.sh
needs check_follow "run make territory, and scripts/swift-release.sh build --product geo-territory, geo-territory-follow, geo-nightly" \
  "$TERRITORY" "$FOLLOW" "$NIGHTLY" "$RUNS" "${GAME_MIGRATION_FILES[@]}"
# Passwords on TCP (the follower's wrong password), trust on the socket (the test's own psql).
pg_start_tcp check_follow timezone=UTC
source scripts/checks/lib/game_runs.sh
fail=0

# ----------------------------------------------------------------------------------------------
# The game's database as on Supabase: roles, the game's tables (CONTRACTS §8), auth.uid(), then
# the game's migrations in name order.
# ----------------------------------------------------------------------------------------------
DB=game
RUNNER_A=a0000000-0000-4000-8000-00000000000a
RUNNER_B=b0000000-0000-4000-8000-00000000000b
NO_PROFILE=c0000000-0000-4000-8000-00000000000c

apply_migrations() {  # apply_migrations DB: every game migration, in order
  local m
  for m in "${GAME_MIGRATION_FILES[@]}"; do "${PSQL[@]}" -d "$1" -f "$m" >/dev/null; done
}

setup_game_db() {
  sql postgres "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls"
  sql postgres "create database $DB"
  "${PSQL[@]}" -d "$DB" -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql >/dev/null
  apply_migrations "$DB"
  sql "$DB" "insert into users (id, username) values ('$RUNNER_A', 'runner-a'), ('$RUNNER_B', 'runner-b')"
  "$PY" scripts/checks/lib/submit_cases.py "$RUNS" "$TMP" "$RUNNER_A"
  load_cases "$DB"
}

# load_cases DB: the test's own table (schema checks) of the runs to submit (submit_cases.py),
# read by the caller's role.
load_cases() {
  sql "$1" "create schema checks; grant usage on schema checks to anon, authenticated;
            create table checks.cases (name text primary key, kind text, id uuid, expected text, body text);
            grant select on checks.cases to anon, authenticated"
  "${PSQL[@]}" -d "$1" -c "\\copy checks.cases from '$TMP/cases.csv' with (format csv)"
}

# as_role ROLE RUNNER SQL: SQL as ROLE with RUNNER's JWT claims (no claims when RUNNER is -), as
# PostgREST runs a request; prints the result, or "SQLSTATE: message" of the error.
as_role() {
  local role=$1 runner=$2 claims="" out
  [ "$runner" = - ] || claims="set request.jwt.claims = '{\"sub\": \"$runner\", \"role\": \"$role\"}';"
  if out=$("${PSQL[@]}" -d "$DB" -At -v VERBOSITY=verbose -c "set role $role; $claims $3" 2>&1 </dev/null); then
    echo "$out"
  else
    echo "$out" | sed -n 's/^ERROR:  \([0-9A-Z]\{5\}\): /\1: /p' | head -1
  fi
}
# submit RUNNER CASE: submit_run of the case's body by RUNNER as authenticated.
submit() { as_role authenticated "$1" "select submit_run(body::jsonb) from checks.cases where name = '$2'"; }
# moved BODY DLON: the SQL of BODY (a jsonb expression) with every fix DLON degrees further east.
moved() { echo "jsonb_set($1, '{geometry,coordinates}', (select jsonb_agg(jsonb_build_array((c->>0)::float8 + $2, (c->>1)::float8) order by k) from jsonb_array_elements(($1)->'geometry'->'coordinates') with ordinality e(c, k)))"; }
stored() { sql "$DB" "select count(*) from runs where id = '$1'"; }
runs_count() { sql "$DB" "select count(*) || ' ' || coalesce(sum(xmin::text::bigint), 0) from runs"; }

# ----------------------------------------------------------------------------------------------
# submit_run's refusals: the night's reasons, word for word, and submit_run's own.
# ----------------------------------------------------------------------------------------------
submit_refusals() {
  echo "-- submit_run refuses, nothing stored"
  # The night's reasons for the same runs.
  "$TERRITORY" "$TMP/night.geojson" --output-dir "$TMP/night" --max-rejects 1000 >"$TMP/night.log" 2>&1 \
    || { bad "geo-territory on the malformed runs: $(tail -3 "$TMP/night.log")"; return; }
  local nights quarantined
  nights=$(sql "$DB" "select count(*) from checks.cases where kind = 'night'")
  quarantined=$(($(wc -l < "$TMP/night/rejects.tsv") - 1))
  [ "$quarantined" = "$nights" ] && ok "the night quarantines each of the $nights malformed runs (rejects.tsv)" \
    || bad "the night quarantined $quarantined of the $nights malformed runs"
  local before name kind id expected got k=0 same=0
  before=$(runs_count)
  while IFS='|' read -r name kind id expected; do
    got=$(submit "$RUNNER_A" "$name")
    if [ "$kind" = night ]; then
      expected=$(awk -F'\t' -v k=$((k + 1)) 'NR == k + 1 { print $3 }' "$TMP/night/rejects.tsv")
      k=$((k + 1))
    fi
    if [ "$got" = "22023: $expected" ] && [ -n "$expected" ] && [ "$(stored "$id")" = 0 ]; then
      [ "$kind" = night ] && same=$((same + 1))
      [ "$kind" = night ] || ok "$name ($kind): $expected"
    else
      bad "$name ($kind): expected \"22023: $expected\", got \"$got\" ($(stored "$id") rows)"
    fi
  done < <(sql "$DB" "select name, kind, id, expected from checks.cases where kind in ('night', 'fatal', 'submit') order by id")
  [ "$same" = "$nights" ] && ok "each of the $nights runs the night quarantines is refused with the night's reason, word for word"
  sql "$DB" "select name from checks.cases where kind = 'night' order by id" | paste -d'\t' - <(tail -n +2 "$TMP/night/rejects.tsv" | cut -f3) \
    | sed 's/^/         /' | head -40
  # A feature that stops the night's whole file: refused here, and indeed not read by the night.
  local f
  for f in "$TMP"/fatal_*.geojson; do
    if "$TERRITORY" "$f" --output-dir "$TMP/fatal" >"$TMP/fatal.log" 2>&1; then bad "the night reads $(basename "$f")"
    else ok "the night stops on $(basename "$f" .geojson | sed 's/^fatal_//') too: $(grep -o 'invalid JSON.*' "$TMP/fatal.log" | head -1)"; fi
  done
  # NaN is not JSON: PostgreSQL refuses the text before submit_run runs (PostgREST: 400).
  got=$(submit "$RUNNER_A" nan_literal)
  case "$got" in 22P02:*) ok "NaN in the JSON text: refused by PostgreSQL's JSON parser ($got)";; *) bad "NaN literal: $got";; esac
  [ "$(runs_count)" = "$before" ] && ok "after every refusal: no row added or changed in runs" || bad "runs changed: $before → $(runs_count)"
}

# ----------------------------------------------------------------------------------------------
# Well-formed runs: stored pending, as the night's reader will take them.
# ----------------------------------------------------------------------------------------------
submit_accepts() {
  echo "-- submit_run stores well-formed runs pending"
  local name id got t0 notes
  t0=$(sql "$DB" "select now()")
  while IFS='|' read -r name id; do
    # LISTEN in the same session: psql prints the notification that the commit sends.
    got=$("${PSQL[@]}" -d "$DB" -At -c "listen territory_runs" \
           -c "set role authenticated; set request.jwt.claims = '{\"sub\": \"$RUNNER_A\"}'; select submit_run(body::jsonb) from checks.cases where name = '$name'" 2>&1 </dev/null) || true
    notes=$(echo "$got" | grep -c "notification \"territory_runs\" with payload \"$id\"" || true)
    if [ "$(echo "$got" | head -1)" = "$id" ] && [ "$notes" = 1 ]; then ok "$name: stored as $id, one NOTIFY territory_runs"
    else bad "$name: $got"; fi
  done < <(sql "$DB" "select name, id from checks.cases where kind = 'accept' order by id")
  expect "$DB" "pending runs: judged_at null, the caller's, created_at the submission's time, no judged figures" \
    "7|7|7|7|7" "select count(*), count(*) filter (where judged_at is null), count(*) filter (where user_id = '$RUNNER_A'),
       count(*) filter (where created_at >= '$t0' and created_at <= now()), count(*) filter (where distance_m is null and not valid_loop and loop_polygon is null)
       from runs r join checks.cases c using (id) where c.kind = 'accept'"
  # started_at/ended_at and path against the bodies (checked in Python from the JSON text).
  sql "$DB" "select c.name, c.body, to_char(r.started_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US'),
             to_char(r.ended_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US'), coalesce(st_astext(r.path), 'null'),
             r.submission::text from runs r join checks.cases c using (id) where c.kind = 'accept' order by c.id" > "$TMP/stored.txt"
  if "$PY" scripts/checks/lib/follow_stored_rows.py "$TMP/stored.txt" "$RUNNER_A"
  then ok "started_at/ended_at the first/last time, path the coordinates, submission the canonical Feature (id lower-cased, user_id the runner, nothing else)"
  else bad "stored rows differ from the bodies (above)"; fi
  # The night's own reader takes every stored submission: no reject, one run each.
  sql "$DB" "select json_build_object('type', 'FeatureCollection', 'features', json_agg(submission order by id)) from runs where submission is not null" > "$TMP/stored.geojson"
  if "$TERRITORY" "$TMP/stored.geojson" --output-dir "$TMP/stored" --max-rejects 0 >"$TMP/stored.log" 2>&1 \
     && [ "$(tail -n +2 "$TMP/stored/rejects.tsv" | wc -l)" = 0 ] && [ "$(tail -n +2 "$TMP/stored/runs.tsv" | wc -l)" = 7 ]; then
    ok "geo-territory reads the 7 stored submissions without a reject; its verdicts: $(awk -F'\t' 'NR > 1 { printf "%s%s", (NR > 2 ? " | " : ""), ($3 == "true" ? "valid" : $15) }' "$TMP/stored/runs.tsv")"
  else bad "geo-territory on the stored submissions: $(tail -3 "$TMP/stored.log")"; fi
}

# ----------------------------------------------------------------------------------------------
# Sent again, sent by someone else, sent without a profile.
# ----------------------------------------------------------------------------------------------
submit_idempotency() {
  echo "-- submit_run again, by others, without a profile"
  local id before got
  id=$(sql "$DB" "select id from checks.cases where name = 'valid_loop'")
  before=$(sql "$DB" "select xmin || ' ' || created_at from runs where id = '$id'")
  got=$("${PSQL[@]}" -d "$DB" -At -c "listen territory_runs" \
         -c "set role authenticated; set request.jwt.claims = '{\"sub\": \"$RUNNER_A\"}'; select submit_run(body::jsonb) from checks.cases where name = 'valid_loop'" 2>&1 </dev/null) || true
  [ "$got" = "$id" ] && [ "$(sql "$DB" "select xmin || ' ' || created_at from runs where id = '$id'")" = "$before" ] \
    && ok "the same body again: the same id, the row untouched (xmin, created_at), no NOTIFY" || bad "same body again: $got"
  # The upper-case id's body with its id lower-cased is the same run.
  sql "$DB" "insert into checks.cases select 'id_upper_case_lowered', 'again', id, '', jsonb_set(body::jsonb, '{id}', to_jsonb(id::text))::text from checks.cases where name = 'id_upper_case'"
  got=$(submit "$RUNNER_A" id_upper_case_lowered)
  [ "$got" = "$(sql "$DB" "select id from checks.cases where name = 'id_upper_case'")" ] && ok "the same run with its id in lower case: the same id" || bad "lower-cased id: $got"
  before=$(runs_count)
  sql "$DB" "insert into checks.cases select 'valid_loop_changed', 'again', id, '', jsonb_set(body::jsonb, '{properties,accuracy_m,0}', '3.5')::text from checks.cases where name = 'valid_loop'"
  got=$(submit "$RUNNER_A" valid_loop_changed)
  case "$got" in "23505: id: the run $id is already stored with another body"*) ok "another body under a stored id: refused ($got)";; *) bad "another body: $got";; esac
  got=$(submit "$RUNNER_B" valid_loop)
  case "$got" in 42501:*properties.user_id*) ok "runner B sending runner A's run: refused ($got)";; *) bad "B sends A's run: $got";; esac
  sql "$DB" "insert into checks.cases select 'valid_loop_no_user', 'again', id, '', (body::jsonb #- '{properties,user_id}')::text from checks.cases where name = 'valid_loop'"
  got=$(submit "$RUNNER_B" valid_loop_no_user)
  case "$got" in 23505:*) ok "runner B sending A's run id without user_id: refused ($got)";; *) bad "B reuses A's id: $got";; esac
  sql "$DB" "insert into checks.cases select 'fresh', 'again', '00000000-0000-4000-8000-0000000000ff', '', jsonb_set(body::jsonb, '{id}', '\"00000000-0000-4000-8000-0000000000ff\"')::text from checks.cases where name = 'user_id_left_out'"
  got=$(submit "$NO_PROFILE" fresh)
  case "$got" in "23503: runner $NO_PROFILE has no profile (no users row): make the profile first"*) ok "a runner without a users row: refused ($got)";; *) bad "no profile: $got";; esac
  got=$(as_role authenticated - "select submit_run(body::jsonb) from checks.cases where name = 'fresh'")
  case "$got" in "42501: submit_run needs a signed-in runner"*) ok "no JWT claims: refused ($got)";; *) bad "no claims: $got";; esac
  [ "$(runs_count)" = "$before" ] && [ "$(stored 00000000-0000-4000-8000-0000000000ff)" = 0 ] \
    && ok "after those refusals: no row added or changed" || bad "runs changed: $before → $(runs_count)"
  # Sent again while the first request is still open: the second waits for it, then finds the
  # same body (its id) or another (refused).
  local c=00000000-0000-4000-8000-0000000000cc name want first
  # Moved 0.01° east: the same fixes under another id would be a replay (CONTRACTS §8c).
  sql "$DB" "insert into checks.cases select 'concurrent', 'again', '$c', '', $(moved "jsonb_set(body::jsonb, '{id}', '\"$c\"')" 0.01)::text from checks.cases where name = 'user_id_left_out';
             insert into checks.cases select 'concurrent_changed', 'again', '$c', '', jsonb_set(body::jsonb, '{properties,accuracy_m,0}', '3.5')::text from checks.cases where name = 'concurrent'"
  "${PSQL[@]}" -d "$DB" -At -c "begin; set local role authenticated; set local request.jwt.claims = '{\"sub\": \"$RUNNER_A\"}';
    select submit_run(body::jsonb) from checks.cases where name = 'concurrent'; select pg_sleep(1); commit;" >"$TMP/first.out" 2>&1 </dev/null &
  first=$!
  for _ in $(seq 50); do [ "$(sql "$DB" "select count(*) from pg_stat_activity where query like '%pg_sleep(1)%' and state = 'active' and pid <> pg_backend_pid()")" = 1 ] && break; sleep 0.05; done
  for name in concurrent concurrent_changed; do submit "$RUNNER_A" $name >"$TMP/$name.out" & done
  wait $first || true; wait
  want="$c
23505: id: the run $c is already stored with another body (a new run needs a new id)"
  [ "$(cat "$TMP/concurrent.out" "$TMP/concurrent_changed.out")" = "$want" ] && [ "$(stored $c)" = 1 ] && grep -q "^$c$" "$TMP/first.out" \
    && ok "sent again while the first request is open: the same body waits and gets the id, another body waits and is refused; one row" \
    || bad "concurrent submissions: $(cat "$TMP/first.out" "$TMP/concurrent.out" "$TMP/concurrent_changed.out" | tr '\n' ' ')"
}

# ----------------------------------------------------------------------------------------------
# Row-level security: a runner's fixes are their own; anon nothing.
# ----------------------------------------------------------------------------------------------
submit_rls() {
  echo "-- who reads what"
  sql "$DB" "insert into checks.cases select 'b_run', 'again', '00000000-0000-4000-8000-0000000000bb', '', $(moved "jsonb_set(body::jsonb, '{id}', '\"00000000-0000-4000-8000-0000000000bb\"')" 0.02)::text from checks.cases where name = 'user_id_left_out'"
  [ "$(submit "$RUNNER_B" b_run)" = 00000000-0000-4000-8000-0000000000bb ] && ok "runner B submits a run" || bad "runner B's run"
  local q got stmt
  q="select count(*) || ' ' || count(path) || ' ' || count(submission) || ' ' || count(*) filter (where judged_at is null) from my_runs"
  # What the tables' owner sees of A's runs, and of all.
  local own all mine="from runs where user_id = '$RUNNER_A'"
  own=$(sql "$DB" "${q/from my_runs/$mine}")
  all=$(sql "$DB" "select count(*) from runs")
  expect "$DB" "runner A reads its own runs whole through my_runs, pending ones included (runs, paths, submissions, pending: $own)" \
    "$own" "set role authenticated; set request.jwt.claims = '{\"sub\": \"$RUNNER_A\"}'; $q"
  expect "$DB" "runner B reads its one run through my_runs, none of A's" "1 1 1 1" \
    "set role authenticated; set request.jwt.claims = '{\"sub\": \"$RUNNER_B\"}'; $q"
  expect "$DB" "runner B finds none of A's runs in my_runs, even asked by id" "0" \
    "set role authenticated; set request.jwt.claims = '{\"sub\": \"$RUNNER_B\"}'; select count(*) from my_runs where user_id = '$RUNNER_A' or id = (select id from checks.cases where name = 'valid_loop')"
  expect "$DB" "runner B reads its own run in runs, whole, and nothing of the others' ($all runs stored; CONTRACTS §8c)" "1 1 1" \
    "set role authenticated; set request.jwt.claims = '{\"sub\": \"$RUNNER_B\"}'; select count(*) || ' ' || count(path) || ' ' || count(submission) from runs"
  for stmt in "insert into runs (id, user_id, started_at, ended_at) values (gen_random_uuid(), '$RUNNER_B', now(), now())" \
              "update runs set judged_at = now()" "select submit_run_read('{}')"; do
    got=$(as_role authenticated "$RUNNER_B" "$stmt")
    case "$got" in 42501:*) ok "runner B is refused: $stmt";; *) bad "runner B: $stmt gave $got";; esac
  done
  for stmt in "select submit_run(body::jsonb) from checks.cases where name = 'b_run'" "select id from runs limit 1" \
              "select id from my_runs limit 1" "select path from runs limit 1" "select 1 from territory_in_viewport(0, 0, 1, 1)"; do
    got=$(as_role anon "$RUNNER_A" "$stmt")
    case "$got" in 42501:*) ok "anon is refused (with A's claims even): $stmt";; *) bad "anon: $stmt gave $got";; esac
  done
  expect "$DB" "submit_run runs with a fixed search_path (PostGIS's schema, pg_temp last) and its owner's rights" \
    't|{"search_path=public, pg_temp"}' "select prosecdef, proconfig from pg_proc where oid = 'submit_run(jsonb)'::regprocedure"
  # Its reader's exception blocks are subtransactions, which a parallel query refuses.
  local q="select md5(string_agg(coalesce((submit_run_read(body::jsonb)).problem, 'ok'), '|' order by name)) from checks.cases where kind in ('night', 'submit', 'accept')"
  expect "$DB" "submit_run's reader gives the same answers in a parallel query (force_parallel_mode)" \
    "$(sql "$DB" "$q")" "set force_parallel_mode = on; $q"
}

# ----------------------------------------------------------------------------------------------
# The migrations again, in the night's order: nothing changes.
# ----------------------------------------------------------------------------------------------
submit_migrations_twice() {
  echo "-- the game's migrations applied again"
  local snap before
  # ACLs sorted: the first migration revokes and grants again, which reorders them.
  snap="select (select md5(string_agg(x, ',' order by x)) from (
    select attname || ':' || format_type(atttypid, atttypmod) || ':' || coalesce((select string_agg(a::text, ' ' order by a::text) from unnest(attacl) a), '') as x from pg_attribute where attrelid = 'runs'::regclass and attnum > 0 and not attisdropped
    union all select polname || ':' || pg_get_expr(polqual, polrelid) from pg_policy
    union all select indexrelid::regclass::text || ':' || pg_get_indexdef(indexrelid) from pg_index where indrelid = 'runs'::regclass
    union all select p.oid::regprocedure::text || ':' || md5(prosrc) || ':' || coalesce((select string_agg(a::text, ' ' order by a::text) from unnest(proacl) a), '') || ':' || coalesce(array_to_string(proconfig, ' '), '') from pg_proc p where pronamespace = 'public'::regnamespace and (proname like 'submit_run%' or proname = 'territory_in_viewport')
    union all select relname || ':' || coalesce((select string_agg(a::text, ' ' order by a::text) from unnest(relacl) a), '') from pg_class where relname in ('runs', 'my_runs', 'territory_hex', 'territory_runner_stats')) s"
  snap="$snap) || (select md5(string_agg(row(id, user_id, judged_at, created_at, submission)::text, ',' order by id)) from runs)"
  before=$(sql "$DB" "$snap")
  apply_migrations "$DB"
  expect "$DB" "both migrations applied again = once (columns, grants, policies, indexes, functions, every run's row)" "$before" "$snap"
}

# ----------------------------------------------------------------------------------------------
# PostGIS in schema `extensions`, as some Supabase projects have it: submit_run's search_path
# follows it, and a run is stored.
# ----------------------------------------------------------------------------------------------
submit_postgis_elsewhere() {
  echo "-- PostGIS in schema extensions"
  local db=game_ext got
  sql postgres "create database $db"
  sql postgres "alter database $db set search_path = \"\$user\", public, extensions"
  sql "$db" "create schema extensions; grant usage on schema extensions to anon, authenticated, service_role;
             create extension postgis schema extensions"
  "${PSQL[@]}" -d "$db" -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql >/dev/null
  apply_migrations "$db"; apply_migrations "$db"
  load_cases "$db"
  sql "$db" "insert into users (id, username) values ('$RUNNER_A', 'runner-a')"
  got=$(DB=$db submit "$RUNNER_A" valid_loop 2>&1 || true)
  expect "$db" "submit_run's search_path is extensions, pg_temp; the run stored with its path ($got)" \
    '{"search_path=extensions, pg_temp"}|1|291' \
    "select (select proconfig::text from pg_proc where oid = 'submit_run(jsonb)'::regprocedure) || '|' || count(*) || '|' || sum(extensions.st_npoints(path)) from runs"
}

# ----------------------------------------------------------------------------------------------
# The follower and the night over pending runs. Each database here is the game's as the night
# leaves it (game_db: the schema, auth.uid(), both migrations applied by an empty night); runs
# are stored as submit_run stores them, with its notification (scripts/checks/lib/game_runs.sh).
# ----------------------------------------------------------------------------------------------
url() { echo "host=$SOCK port=$PORT user=postgres dbname=$1${2:+ application_name=$2}"; }
# Every judging of a run (judged_at set), with the worker that did it: a run judged twice shows.
count_judgings() {
  pg_sql "$1" "create schema checks; create table checks.judgings (run_id uuid not null, worker text);
    create function checks.judged() returns trigger language plpgsql as \$\$ begin
      insert into checks.judgings values (new.id, current_setting('application_name')); return new; end \$\$;
    create trigger judged after update of judged_at on runs for each row
      when (old.judged_at is null and new.judged_at is not null) execute function checks.judged()" >/dev/null
}
# follow DB NAME [ARGS…]: a follower in the background, its log in $TMP/NAME.log, its pid in $follower
follow() {
  local db=$1 name=$2; shift 2
  DATABASE_URL=$(url "$db" "$name") "$FOLLOW" --poll 1 "$@" >"$TMP/$name.log" 2>&1 &
  follower=$!
}
# wait_judged DB SECONDS: until nothing is pending
wait_judged() {
  local i
  for i in $(seq $(($2 * 10))); do [ "$(game_pending "$1")" = 0 ] && return 0; sleep 0.1; done
  return 1
}
# stop NAME PID: SIGTERM, expecting exit 0 and "stopped by SIGTERM"
stop() {
  local rc=0; kill -TERM "$2"; wait "$2" || rc=$?
  if [ $rc -eq 0 ] && grep -q 'stopped by SIGTERM' "$TMP/$1.log"; then ok "$1: SIGTERM finishes the batch, exit 0"
  else bad "$1: SIGTERM gave exit $rc:"; tail -5 "$TMP/$1.log"; fi
}


follow_night_over_pending() {
  echo "-- a night over pending runs"
  game_db file_night && game_db pending_night
  DATABASE_URL=$(url file_night) "$NIGHTLY" --apps territory --runs "$RUNS" --pipeline-commit check >"$TMP/file.out" 2>&1 || { bad "the file night failed:"; cat "$TMP/file.out"; }
  game_templates pending_night "$RUNS"
  game_submit_all pending_night
  n=$(game_pending pending_night)
  if DATABASE_URL=$(url pending_night) "$NIGHTLY" --apps territory --pipeline-commit check >"$TMP/pending.out" 2>&1 \
     && grep -q "territory: ok on .*: $n pending runs" "$TMP/pending.out"; then ok "the night judged the $n pending runs"
  else bad "the night over pending runs:"; cat "$TMP/pending.out"; fi
  expect pending_night "every run judged" 0 "select count(*) from runs where judged_at is null"
  [ "$(pg_sql pending_night "$game_territory")" = "$(pg_sql file_night "$game_territory")" ] \
    && ok "territory_hex equals the file night's ($(pg_sql file_night "select count(*) from territory_hex") cells)" || bad "territory_hex differs from the file night's"
  [ "$(pg_sql pending_night "$game_judged")" = "$(pg_sql file_night "$game_judged")" ] \
    && ok "the runs' judged columns equal the file night's (judged_at set by both)" || bad "the runs' judged columns differ from the file night's"
  DATABASE_URL=$(url pending_night) "$NIGHTLY" --apps territory --pipeline-commit check >"$TMP/again.out" 2>&1 \
    && grep -q ': 0 pending runs (0 valid loops): 0 runs judged, 0 cells written' "$TMP/again.out" && ok "a second night finds nothing pending" \
    || { bad "the second night:"; cat "$TMP/again.out"; }
  # A run stored pending that the night's reader refuses (here: stored by hand, times one short;
  # submit_run refuses it, but rules and reader may change between a submission and its night).
  bad_id=$(pg_sql pending_night "select gen_random_uuid()")
  pg_sql pending_night "$game_submit_sql select '$bad_id', user_id, started_at, ended_at, path,
      jsonb_set(jsonb_set(submission, '{id}', to_jsonb('$bad_id'::text)), '{properties,times}', (submission->'properties'->'times') - 0)
      from templates where k = 1" >/dev/null
  DATABASE_URL=$(url pending_night) "$NIGHTLY" --apps territory --pipeline-commit check >"$TMP/bad.out" 2>&1 || { bad "a night with a malformed pending run failed:"; cat "$TMP/bad.out"; }
  expect pending_night "a malformed pending run: judged, not valid" "t|f" "select judged_at is not null, valid_loop from runs where id = '$bad_id'"
  expect pending_night "… its reason in geodata.quarantined_runs, naming the field" 1 \
    "select count(*) from geodata.quarantined_runs where run_id = '$bad_id' and reason like 'properties.times has % entries for % fixes'"
  [ "$(pg_sql pending_night "$game_territory")" = "$(pg_sql file_night "$game_territory")" ] && ok "… and the territory is unchanged" || bad "the malformed run changed the territory"
}

follow_two_followers() {
  echo "-- two followers while runs stream in, one killed -9 mid-batch"
  $PY scripts/data/make_runs.py --scale 300 --fixes 400 -o "$TMP/stream.geojson" >/dev/null 2>&1
  game_db stream
  game_templates stream "$TMP/stream.geojson"
  count_judgings stream
  game_pgbench_script "$TMP/submit.sql"
  follow stream follow-b --batch 8; b=$follower
  "$PGBIN/pgbench" -n -h "$SOCK" -p "$PORT" -U postgres -c 2 -j 2 --rate=60 -T 6 -D templates=300 -f "$TMP/submit.sql" stream >"$TMP/pgbench.log" 2>&1 &
  bench=$!
  # Mid-batch: A's transaction has claimed runs (locking rows gives it a transaction id) and is
  # still open when the kill comes; the server rolls it back. Should A commit between the look
  # and the kill, that was no mid-batch kill: another A is started and killed, up to 5 times.
  killed=""
  for try in 1 2 3 4 5; do
    follow stream follow-a$try --batch 20 --threads 1; a=$follower
    for i in $(seq 100); do [ "$(grep -c 'batch [0-9]*:' "$TMP/follow-a$try.log")" -ge 2 ] && break; sleep 0.05; done
    xid=""
    for i in $(seq 400); do
      xid=$(pg_sql stream "select backend_xid from pg_stat_activity where application_name = 'follow-a$try' and backend_xid is not null")
      if [ -n "$xid" ]; then kill -9 "$a"; break; fi
      sleep 0.01
    done
    wait "$a" 2>/dev/null || true
    [ -n "$xid" ] || continue
    for i in $(seq 50); do [ "$(pg_sql stream "select pg_xact_status('$xid'::xid8)")" = "in progress" ] || break; sleep 0.1; done
    if [ "$(pg_sql stream "select pg_xact_status('$xid'::xid8)")" = aborted ]; then
      killed="follow-a$try killed -9 mid-batch: its open transaction $xid (claimed runs) rolled back, after $(grep -c 'batch [0-9]*:' "$TMP/follow-a$try.log" || true) committed batches"
      break
    fi
  done
  [ -n "$killed" ] && ok "$killed" || bad "no follower was killed mid-batch in 5 tries"
  wait "$bench" || { bad "pgbench failed:"; cat "$TMP/pgbench.log"; }
  submitted=$(pg_sql stream "select count(*) from runs")
  wait_judged stream 60 && ok "follow-b judged what was left: $submitted runs submitted at 60/s, none pending" || bad "runs still pending: $(game_pending stream)"
  stop follow-b "$b"
  expect stream "each run judged exactly once" "$submitted|$submitted" "select count(*), count(distinct run_id) from checks.judgings"
  logged() { sed -n 's/.*batch [0-9]*: \([0-9]*\) runs\{0,1\} judged.*/\1/p' "$TMP/$1.log" | paste -sd+ | sed 's/^$/0/' | bc; }
  expect stream "follow-b: one log line per batch, adding up to the runs it judged" "$(logged follow-b)" "select count(*) from checks.judgings where worker = 'follow-b'"
  game_db stream_night
  game_copy_runs stream stream_night
  DATABASE_URL=$(url stream_night) "$NIGHTLY" --apps territory --pipeline-commit check >"$TMP/stream_night.out" 2>&1 || { bad "the night over the streamed runs failed:"; cat "$TMP/stream_night.out"; }
  [ "$(pg_sql stream "$game_territory")" = "$(pg_sql stream_night "$game_territory")" ] \
    && ok "territory_hex equals one night's over the same runs ($(pg_sql stream "select count(*) from territory_hex") cells)" || bad "territory_hex differs from one night's"
  [ "$(pg_sql stream "$game_judged")" = "$(pg_sql stream_night "$game_judged")" ] \
    && ok "the runs' judged columns equal one night's" || bad "the runs' judged columns differ from one night's"
  zoom="select md5(coalesce(string_agg(row(h3, cells, owner_user_id, owner_cells, last_run_id, claimed_at, st_asewkb(cell))::text, ',' order by h3), '')) || ' ' || count(*) from territory_zoom"
  [ "$(pg_sql stream "$zoom")" = "$(pg_sql stream_night "$zoom")" ] \
    && ok "the map at every zoom (territory_zoom, kept by its trigger) equals one night's ($(pg_sql stream "select count(*) from territory_zoom") coarse cells)" || bad "territory_zoom differs from one night's"
}

follow_lost_connection() {
  echo "-- a lost connection, a wrong password"
  follow stream follow-c; c=$follower
  sleep 0.5
  pg_sql stream "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'follow-c'" >/dev/null
  game_submit_copies stream 3
  pg_sql stream "select pg_notify('territory_runs', '')" >/dev/null
  if wait_judged stream 15 && kill -0 "$c" 2>/dev/null && grep -q 'lost.*reconnecting' "$TMP/follow-c.log"; then ok "follow-c reconnected after its connection was killed, and judged what came next"
  else bad "follow-c after a killed connection:"; cat "$TMP/follow-c.log"; fi
  stop follow-c "$c"
  rc=0; DATABASE_URL="postgresql://follow_user:Wrong-pw-3@127.0.0.1:$PORT/stream" "$FOLLOW" >"$TMP/wrong.log" 2>&1 || rc=$?
  [ $rc -ne 0 ] && grep -q 'follow_user@127.0.0.1' "$TMP/wrong.log" && grep -q 28P01 "$TMP/wrong.log" && ok "a wrong password: exit $rc at once, naming user, host and port" \
    || { bad "a wrong password gave exit $rc:"; cat "$TMP/wrong.log"; }
  DATABASE_URL="postgresql://follow_user:Follow-pw-7@127.0.0.1:$PORT/stream" "$FOLLOW" --drain >"$TMP/right.log" 2>&1 || { bad "the follower over TCP:"; cat "$TMP/right.log"; }
  if grep -q -e Wrong-pw-3 -e Follow-pw-7 "$TMP/wrong.log" "$TMP/right.log"; then bad "a password was printed"; else ok "no password printed"; fi
}

follow_latency() {
  echo "-- latency at a steady 20 runs/s, through submit_run"
  game_db steady
  game_templates steady "$TMP/stream.geojson"
  follow steady follow-d; d=$follower
  sleep 0.3
  game_pgbench_submit_run "$TMP/submit_run.sql" steady
  "$PGBIN/pgbench" -n -h "$SOCK" -p "$PORT" -U postgres -c 2 -j 2 --rate=20 -T 8 -D templates=300 -f "$TMP/submit_run.sql" steady >"$TMP/pgbench.log" 2>&1 \
    || { bad "pgbench failed:"; cat "$TMP/pgbench.log"; }
  wait_judged steady 10 || bad "runs still pending after the stream"
  stop follow-d "$d"
  read -r n p50 p95 max < <(game_latency steady)
  if [ "$(echo "$p95 <= 1" | bc)" = 1 ] && [ "$n" -ge 100 ]; then ok "20 runs/s: $n runs, created_at → judged_at p50 ${p50} s, p95 ${p95} s, max ${max} s (≤ 1 s)"
  else bad "20 runs/s: $n runs, p50 $p50 s, p95 $p95 s, max $max s (the bound: p95 ≤ 1 s)"; fi
}

setup_game_db
submit_refusals
submit_accepts
submit_idempotency
submit_rls
submit_migrations_twice
submit_postgis_elsewhere
sql postgres "create role follow_user login superuser password 'Follow-pw-7'" >/dev/null
follow_night_over_pending
follow_two_followers
follow_lost_connection
follow_latency
exit $fail
