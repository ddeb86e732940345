#!/usr/bin/env bash
# run-all: alone (it times a server; see run-all.sh)
# The game's backend against a hostile client (issue 37, CONTRACTS §8b, §8c), on a REAL
# PostgreSQL 15 + PostGIS with Supabase's roles and the game's migrations as a night applies
# them, one follower running throughout (--heartbeat). An attacker calls submit_run as the app
# would, with what a client can send (scripts/checks/lib/hostile_runs.py):
#   - bodies the night's reader refused when submit_run stored them whole (600 levels deep, a
#     100 kB bad time), put straight into runs: each quarantined alone, the follower goes on,
#     an honest run submitted after them judged within 2 s;
#   - 11 runs with an unknown property nested 600 deep, and one with 3.9 MB of unknown fields:
#     stored as the canonical body only (nothing the night does not read);
#   - times[0] a 3.9 MB string: refused in bounded time, the refusal and the server's log
#     quoting at most 80 characters of it;
#   - runs ending an hour from now and on 9999-12-31: refused, nothing stored;
#   - more than 20 submissions in an hour, 60 in a day: refused with PT429, a resend of a
#     stored body free; the same id with another body: refused;
# and proves that nothing is stored that should not be, that the follower never stops (its
# heartbeat fresh), that honest runs submitted during the attack are judged within seconds,
# and that the territory equals one night's over the honest runs alone.
# Fair time (a run dated 9999-12-31 stored before the rule, a real run a day later takes its
# cells) is checked here too, on the follower.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN=${BIN:-.build/release}
FOLLOW=$BIN/geo-territory-follow
NIGHTLY=$BIN/geo-nightly
RUNS=${TERRITORY_RUNS_RUNS:-data/territory/runs.geojson}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PY=${PYTHON:-python3}

source scripts/checks/lib/pg.sh
needs check_hostile "scripts/swift-release.sh build" "$FOLLOW" "$NIGHTLY" "$RUNS"
pg_start check_hostile C timezone=UTC
source scripts/checks/lib/game_runs.sh
fail=0
DB=hostile
ATTACKER=e0000000-0000-4000-8000-00000000000e
HOARDER=d0000000-0000-4000-8000-00000000000d
url() { echo "host=$SOCK user=postgres dbname=$1"; }

# as_runner RUNNER SQL: SQL as authenticated with RUNNER's JWT claims (as PostgREST runs a
# request); prints "ok|result|ms" or "SQLSTATE|message|ms" (the message's length kept whole).
as_runner() {
  local out t0 t1
  t0=$(date +%s%N)
  if out=$("${PSQL[@]}" -d "$DB" -At -v VERBOSITY=verbose \
        -c "set role authenticated; set request.jwt.claims = '{\"sub\": \"$1\", \"role\": \"authenticated\"}'; $2" 2>&1 </dev/null); then
    t1=$(date +%s%N); echo "ok|$out|$(( (t1 - t0) / 1000000 ))"
  else
    t1=$(date +%s%N)
    echo "$out" | sed -n 's/^ERROR:  \([0-9A-Z]\{5\}\): \(.*\)$/\1|\2/p' | head -1 | tr -d '\n'; echo "|$(( (t1 - t0) / 1000000 ))"
  fi
}
# attack RUNNER NAME: submit_run of the attack's body.
attack() { as_runner "$1" "select submit_run(body::jsonb) from checks.attacks where name = '$2'"; }
stored() { pg_sql "$DB" "select count(*) from runs where id = '$1'"; }
field() { echo "$1" | cut -d'|' -f"$2"; }

# ----------------------------------------------------------------------------------------------
setup() {
  echo "-- the game's database, one follower"
  pg_sql postgres "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls" >/dev/null
  game_db "$DB"
  game_templates "$DB" "$RUNS"
  pg_sql "$DB" "insert into users (id, username) values ('$ATTACKER', 'attacker'), ('$HOARDER', 'hoarder');
    grant select on templates to authenticated" >/dev/null
  "$PY" scripts/checks/lib/hostile_runs.py "$RUNS" "$TMP" "$ATTACKER"
  pg_sql "$DB" "create schema checks; grant usage on schema checks to authenticated;
    create table checks.attacks (name text primary key, kind text, id uuid, body text); grant select on checks.attacks to authenticated" >/dev/null
  "${PSQL[@]}" -d "$DB" -c "\\copy checks.attacks from '$TMP/attacks.csv' with (format csv)"
  # (An older build, without --heartbeat, runs without it: BIN=… measures the attack before the fix.)
  local beat=(--heartbeat "$TMP/alive")
  "$FOLLOW" --help 2>&1 | grep -q -- --heartbeat || beat=()
  DATABASE_URL=$(url "$DB") "$FOLLOW" --batch 20 --poll 1 "${beat[@]}" >"$TMP/follow.log" 2>&1 &
  FOLLOWER=$!
  for _ in $(seq 100); do grep -q 'listening on' "$TMP/follow.log" && break; sleep 0.05; done
  grep -q 'listening on' "$TMP/follow.log" && ok "the follower listens (pid $FOLLOWER, heartbeat $TMP/alive)" || { bad "the follower did not start:"; cat "$TMP/follow.log"; }
}

# honest K: template K submitted through submit_run by its runner; prints the result line.
honest() {
  local runner; runner=$(pg_sql "$DB" "select user_id from templates where k = $1")
  as_runner "$runner" "select submit_run(submission) from templates where k = $1"
}

# judged_within ID SECONDS: waits for the run to be judged; prints judged_at − created_at.
judged_within() {
  local i
  for i in $(seq $(( $2 * 20 ))); do
    [ "$(pg_sql "$DB" "select judged_at is not null from runs where id = '$1'")" = t ] && break
    kill -0 "$FOLLOWER" 2>/dev/null || break
    sleep 0.05
  done
  pg_sql "$DB" "select coalesce(round(extract(epoch from judged_at - created_at)::numeric, 3)::text, 'never') from runs where id = '$1'"
}

alive() {  # the follower still running and its heartbeat at most 2 s old
  kill -0 "$FOLLOWER" 2>/dev/null && [ -f "$TMP/alive" ] && [ $(( $(date +%s) - $(stat -c %Y "$TMP/alive") )) -le 2 ]
}

# ----------------------------------------------------------------------------------------------
legacy_quarantine() {
  echo "-- bodies an older submit_run stored whole, which the night's reader refuses"
  # Stored two days ago (before the limits), pending.
  pg_sql "$DB" "insert into runs (id, user_id, started_at, ended_at, submission, created_at)
    select id, '$ATTACKER', now(), now(), body::jsonb, now() - interval '2 days' from checks.attacks where kind = 'legacy' order by name;
    select pg_notify('territory_runs', '')" >/dev/null
  local n id latency
  n=$(pg_sql "$DB" "select count(*) from checks.attacks where kind = 'legacy'")
  for _ in $(seq 100); do [ "$(pg_sql "$DB" "select count(*) from geodata.quarantined_runs q join checks.attacks a on a.id = q.run_id")" = "$n" ] && break; sleep 0.05; done
  pg_expect "$DB" "each of the $n is quarantined alone, with the reader's reason (geodata.quarantined_runs), judged, not valid" "$n|$n|11|1" \
    "select count(*), count(*) filter (where r.judged_at is not null and not r.valid_loop),
            count(*) filter (where q.reason like '%nesting deeper than 512 levels%'),
            count(*) filter (where q.reason like '%times[1] \"' || repeat('y', 79) || '…\" is not an ISO 8601 time%')
       from geodata.quarantined_runs q join runs r on r.id = q.run_id join checks.attacks a on a.id = q.run_id"
  alive && ok "the follower keeps running (heartbeat fresh), --max-rejects not applied to pending runs" || { bad "the follower stopped:"; tail -5 "$TMP/follow.log"; }
  id=$(field "$(honest 1)" 2)
  latency=$(judged_within "$id" 5)
  [ "$latency" != never ] && [ "$(echo "$latency <= 2" | bc)" = 1 ] && ok "an honest run submitted after them is judged in $latency s (≤ 2 s)" \
    || bad "the honest run after the quarantined ones: judged after $latency s"
  local longest; longest=$(awk '{ print length($0) }' "$TMP/follow.log" | sort -n | tail -1)
  [ "$longest" -le 2000 ] && ok "the follower's log quotes no body: its longest line has $longest characters" || bad "a follower log line has $longest characters"
}

# ----------------------------------------------------------------------------------------------
canonical_bodies() {
  echo "-- unknown properties and members: stored as the canonical body only"
  local name got n=0 ms=0
  for name in $(pg_sql "$DB" "select name from checks.attacks where kind in ('deep', 'padded') order by name"); do
    got=$(attack "$ATTACKER" "$name")
    [ "$(field "$got" 1)" = ok ] && n=$((n + 1)) || bad "$name: $got"
    [ "$name" = padded_3_9_mb ] && ms=$(field "$got" 3)
  done
  PADDED_MS=$ms
  ok "the 11 runs nested 600 deep and the one with 3.9 MB of unknown fields are accepted ($n calls; 3.9 MB: $ms ms)"
  pg_expect "$DB" "what is stored of them is the canonical body: no unknown property or member, at most 2 kB each" "12|0|t" \
    "select count(*), count(*) filter (where (r.submission - array['type', 'id', 'geometry', 'properties']) <> '{}'
                                       or ((r.submission -> 'properties') - array['user_id', 'times', 'accuracy_m', 'simulated']) <> '{}'
                                       or ((r.submission -> 'geometry') - array['type', 'coordinates']) <> '{}'),
            max(octet_length(r.submission::text)) <= 2000
       from runs r join checks.attacks a using (id) where a.kind in ('deep', 'padded')"
  for _ in $(seq 100); do [ "$(game_pending "$DB")" = 0 ] && break; sleep 0.05; done
  pg_expect "$DB" "the follower judged them as runs (too short: not valid), none quarantined" "12|0" \
    "select count(*) filter (where r.judged_at is not null and not r.valid_loop), count(q.run_id)
       from runs r join checks.attacks a using (id) left join geodata.quarantined_runs q on q.run_id = r.id where a.kind in ('deep', 'padded')"
}

# ----------------------------------------------------------------------------------------------
bounded_refusals() {
  echo "-- a 3.9 MB bad times[0]: refused in bounded time, quoting at most 80 characters"
  local log0 log1 got ms message i
  log0=$(stat -c %s "$TMP/server.log")
  for i in 1 2; do got=$(attack "$ATTACKER" bad_time_3_9_mb); done
  log1=$(stat -c %s "$TMP/server.log")
  ms=$(field "$got" 3); message=$(field "$got" 2)
  [ "$(field "$got" 1)" = 22023 ] && [ "$(stored "$(pg_sql "$DB" "select id from checks.attacks where name = 'bad_time_3_9_mb'")")" = 0 ] \
    && ok "refused (22023), nothing stored: $message" || bad "the 3.9 MB bad time: $got"
  [ "${#message}" -le 200 ] && ok "the refusal is ${#message} characters long" || bad "the refusal is ${#message} characters long"
  # Bounded: about what reading 3.9 MB of JSON costs (the padded run's call, the same run's
  # reference), not the seconds a 3.9 MB time cost when it was matched and quoted whole.
  [ "$ms" -le $((3 * ${PADDED_MS:-500} + 500)) ] && ok "the call took $ms ms (the 3.9 MB padded run's took ${PADDED_MS:-?} ms; 5.8 s before the bound)" \
    || bad "the call took $ms ms (the 3.9 MB padded run's: ${PADDED_MS:-?} ms)"
  [ $((log1 - log0)) -le 20000 ] && ok "two such calls added $((log1 - log0)) bytes to the server's log (11.7 MB before)" || bad "two calls added $((log1 - log0)) bytes to the server's log"
}

# ----------------------------------------------------------------------------------------------
future_runs() {
  echo "-- runs that end in the future"
  local name got id
  for name in future_hour future_9999; do
    got=$(attack "$ATTACKER" "$name"); id=$(pg_sql "$DB" "select id from checks.attacks where name = '$name'")
    case "$(field "$got" 1)|$(field "$got" 2)" in
      "22023|times["*"] is in the future: more than 2 minutes past the server's clock") [ "$(stored "$id")" = 0 ] && ok "$name: refused, nothing stored ($(field "$got" 2))" || bad "$name stored";;
      *) bad "$name: $got";;
    esac
  done
}

# ----------------------------------------------------------------------------------------------
rate_limits() {
  echo "-- per-runner limits: 20 submissions an hour, 60 a day; a resend free"
  local name got first="" n=0 hour
  hour=$(pg_sql "$DB" "select count(*) from runs where user_id = '$ATTACKER' and created_at > now() - interval '1 hour' and submission is not null")
  for name in $(pg_sql "$DB" "select name from checks.attacks where kind = 'quota' order by id"); do
    got=$(attack "$ATTACKER" "$name")
    if [ "$(field "$got" 1)" = PT429 ]; then first=${first:-$got}; else n=$((n + 1)); fi
  done
  [ $((hour + n)) = 20 ] && case "$first" in PT429*) true;; *) false;; esac \
    && ok "after $hour stored this hour, $n more accepted, then PT429: $(field "$first" 2)" || bad "hourly limit: $hour + $n accepted, first refusal: $first"
  got=$(attack "$ATTACKER" deep_1)
  [ "$(field "$got" 1)" = ok ] && ok "a resend of a stored body is free: its id again ($(field "$got" 2))" || bad "a resend over the limit: $got"
  # 59 runs submitted (and judged) between 2 and 22 hours ago.
  pg_sql "$DB" "insert into runs (id, user_id, started_at, ended_at, submission, judged_at, created_at)
    select gen_random_uuid(), '$HOARDER', now(), now(), '{}', now(), now() - interval '2 hours' - random() * interval '20 hours'
      from generate_series(1, 59)" >/dev/null
  local body; body=$(pg_sql "$DB" "select body from checks.attacks where name = 'quota_1'")
  # Each copy 0.1° and more further east: the same fixes again would be a replay (CONTRACTS §8c).
  pg_sql "$DB" "insert into checks.attacks select 'hoard_' || g, 'hoard', gen_random_uuid(),
                  jsonb_set(jsonb_set(jsonb_set(body::jsonb, '{properties,user_id}', '\"$HOARDER\"'), '{id}', to_jsonb(gen_random_uuid()::text)),
                            '{geometry,coordinates}', (select jsonb_agg(jsonb_build_array((c->>0)::float8 + 0.1 * g, (c->>1)::float8) order by k)
                                                         from jsonb_array_elements(body::jsonb->'geometry'->'coordinates') with ordinality e(c, k)))::text
                  from checks.attacks, generate_series(1, 2) g where name = 'quota_1'" >/dev/null
  pg_sql "$DB" "update checks.attacks set id = (body::jsonb ->> 'id')::uuid where kind = 'hoard'" >/dev/null
  got=$(attack "$HOARDER" hoard_1)
  [ "$(field "$got" 1)" = ok ] && ok "a runner with 59 runs in the last day submits a 60th" || bad "the 60th of the day: $got"
  got=$(attack "$HOARDER" hoard_2)
  [ "$(field "$got" 1)" = PT429 ] && ok "the 61st in a day: PT429: $(field "$got" 2)" || bad "the 61st of the day: $got"
}

# ----------------------------------------------------------------------------------------------
replays() {
  echo "-- ids sent again"
  local got id
  id=$(pg_sql "$DB" "select id from checks.attacks where name = 'deep_2'")
  pg_sql "$DB" "insert into checks.attacks select 'deep_2_changed', 'replay', id, jsonb_set(body::jsonb, '{properties,accuracy_m,0}', '3.5')::text from checks.attacks where name = 'deep_2'" >/dev/null
  got=$(attack "$ATTACKER" deep_2_changed)
  [ "$(field "$got" 1)" = 23505 ] && ok "another body under a stored id: refused (23505)" || bad "another body under a stored id: $got"
  pg_sql "$DB" "insert into checks.attacks select 'deep_2_by_b', 'replay', id, (body::jsonb #- '{properties,user_id}')::text from checks.attacks where name = 'deep_2'" >/dev/null
  local honest_runner; honest_runner=$(pg_sql "$DB" "select user_id from templates where k = 1")
  got=$(as_runner "$honest_runner" "select submit_run(body::jsonb) from checks.attacks where name = 'deep_2_by_b'")
  [ "$(field "$got" 1)" = 23505 ] && ok "another runner sending the attacker's id: refused (23505)" || bad "another runner with a stored id: $got"
  got=$(as_runner "$ATTACKER" "select submit_run(submission) from templates where k = 2")
  [ "$(field "$got" 1)" = 42501 ] && ok "the attacker sending an honest runner's run: refused (42501)" || bad "an honest run sent by the attacker: $got"
}

# ----------------------------------------------------------------------------------------------
honest_during_attack() {
  echo "-- honest runs submitted during the attack, and the territory"
  local k got id latency worst=0 n=0
  for k in $(pg_sql "$DB" "select k from templates where k > 1 order by k"); do
    got=$(honest "$k")
    [ "$(field "$got" 1)" = ok ] || { bad "honest run $k: $got"; continue; }
    n=$((n + 1))
  done
  for id in $(pg_sql "$DB" "select id from templates order by k"); do
    latency=$(judged_within "$id" 10)
    [ "$latency" = never ] && { bad "honest run $id never judged"; continue; }
    [ "$(echo "$latency > $worst" | bc)" = 1 ] && worst=$latency
  done
  [ "$(echo "$worst <= 5" | bc)" = 1 ] && ok "$((n + 1)) honest runs, each judged within $worst s of its submission (≤ 5 s)" || bad "an honest run waited $worst s"
  alive && ok "the follower never stopped: running, heartbeat fresh" || { bad "the follower stopped"; tail -5 "$TMP/follow.log"; }
  game_db honest_night
  DATABASE_URL=$(url honest_night) "$NIGHTLY" --apps territory --runs "$RUNS" --pipeline-commit check >"$TMP/night.log" 2>&1 || { bad "the night over the honest runs:"; cat "$TMP/night.log"; }
  [ "$(pg_sql "$DB" "$game_territory")" = "$(pg_sql honest_night "$game_territory")" ] \
    && ok "territory_hex equals one night's over the honest runs alone ($(pg_sql "$DB" "select count(*) from territory_hex") cells)" || bad "territory_hex differs from one night's over the honest runs"
  pg_expect "$DB" "the attacker owns no cell" 0 "select count(*) from territory_hex where owner_user_id in ('$ATTACKER', '$HOARDER')"
  pg_expect "$DB" "nothing stored of a refused run: no bad time, no future run, 20 of the attacker's this hour" "0|20" \
    "select (select count(*) from runs r join checks.attacks a using (id) where a.kind in ('badtime', 'future')),
            (select count(*) from runs where user_id = '$ATTACKER' and submission is not null and created_at > now() - interval '1 hour')"
}

# ----------------------------------------------------------------------------------------------
fair_time() {
  echo "-- fair time: a run dated 9999-12-31 stored before the rule, a real run a day later"
  game_db fair
  pg_sql fair "insert into users (id, username) values ('$ATTACKER', 'attacker'), ('$HOARDER', 'hoarder')" >/dev/null
  "${PSQL[@]}" -d fair -c "create table attacks (name text primary key, kind text, id uuid, body text)" -c "\\copy attacks from '$TMP/attacks.csv' with (format csv)" >/dev/null
  pg_sql fair "insert into runs (id, user_id, started_at, ended_at, path, submission, created_at) select id, '$ATTACKER', (body::jsonb #>> '{properties,times,0}')::timestamptz,
      (body::jsonb #>> '{properties,times,-1}')::timestamptz, st_setsrid(st_geomfromgeojson(body::jsonb ->> 'geometry'), 4326), body::jsonb,
      now() - interval '1 day' from attacks where name = 'future_9999'" >/dev/null
  DATABASE_URL=$(url fair) "$NIGHTLY" --apps territory --pipeline-commit check >"$TMP/fair1.log" 2>&1 || { bad "the night over the 9999 run:"; cat "$TMP/fair1.log"; }
  pg_expect fair "the 9999 run claims its cells at the time the server received it (a day ago), not 9999" "t|t" \
    "select count(*) > 0, bool_and(claimed_at between now() - interval '25 hours' and now() - interval '23 hours') from territory_hex"
  local body got
  pg_sql fair "grant usage on schema public to authenticated; grant select on attacks to authenticated" >/dev/null
  got=$("${PSQL[@]}" -d fair -At -c "set role authenticated; set request.jwt.claims = '{\"sub\": \"$HOARDER\"}';
    select submit_run(jsonb_set(jsonb_set(body::jsonb, '{properties,user_id}', '\"$HOARDER\"'), '{id}', '\"bbbbbbbb-0000-4000-8000-000000000001\"'))
      from attacks where name = 'fair_today'" 2>&1) || true
  DATABASE_URL=$(url fair) "$NIGHTLY" --apps territory --pipeline-commit check >"$TMP/fair2.log" 2>&1 || { bad "the night over the real run:"; cat "$TMP/fair2.log"; }
  pg_expect fair "a real run a day later, submitted now, takes every one of its cells ($got)" "0" \
    "select count(*) from territory_hex where owner_user_id = '$ATTACKER'"
}

setup
legacy_quarantine
canonical_bodies
bounded_refusals
future_runs
rate_limits
replays
honest_during_attack
fair_time
kill -TERM "$FOLLOWER"; wait "$FOLLOWER" && ok "SIGTERM: the follower stops, exit 0 ($(grep -o 'stopped by SIGTERM' "$TMP/follow.log" | head -1))" || bad "the follower's exit on SIGTERM"
exit $fail
