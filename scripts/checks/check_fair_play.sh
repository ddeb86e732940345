#!/usr/bin/env bash
# Consumer check for fair play (issue 38, CONTRACTS §8c) against a REAL PostgreSQL 15 + PostGIS
# (throwaway server on a unix socket) with the game's migrations applied by an empty night
# (geo-nightly), as on a live database. A comparison set of FAIR_PLAY_RUNS generated runs
# (default 400; scripts/checks/lib/fair_play_runs.py: honest runs with GPS noise, pauses,
# tunnels, sprint finishes, the same park loops again on other days; and every kind of cheat:
# a long fast loop, a vehicle-paced loop under 43 km/h, a bike, a loop over the cap, the issue's
# 60,000 km² run, simulated fixes, another runner's replay, one's own replay with new times,
# every other fix, from another start, backwards), in submission order:
#   - TerritoryRules (geo-territory on the set as a file: runs.tsv) refuses each cheat with its
#     reason and no honest run;
#   - submit_run (each run as its runner, in order) refuses exactly those runs, SQLSTATE 22023,
#     in TerritoryRules' words (code and detail), and stores nothing of them (no runs row, no
#     signature);
#   - the same park loop run again by the same runner on other days is valid every time;
#   - the night over the pending runs (geo-nightly) and a follower (geo-territory-follow --drain,
#     on a copy) judge every stored run as geo-territory does;
#   - the false-positive rate (honest runs refused) and submit_run's time per run are printed.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN=${BIN:-.build/release}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PY=${PYTHON:-python3}
N=${FAIR_PLAY_RUNS:-400}   # make test's size (FAIR_PLAY_RUNS=1000 for the fuller set: 0 of 903 honest runs refused)
source scripts/checks/lib/pg.sh
needs check_fair_play "scripts/swift-release.sh build" "$BIN/geo-territory" "$BIN/geo-nightly" "$BIN/geo-territory-follow"
pg_start check_fair_play C timezone=UTC
source scripts/checks/lib/game_runs.sh
fail=0
url() { echo "host=$SOCK user=postgres dbname=$1"; }

# The set, judged by TerritoryRules through geo-territory on a file.
t0=$(date +%s)
"$PY" scripts/checks/lib/fair_play_runs.py "$TMP/set" --runs "$N"
"$BIN/geo-territory" "$TMP/set/runs.geojson" --output-dir "$TMP/night" --migration-dir "$TMP/night/migrations" -q
echo "  ..   $N generated runs ($(( $(date +%s) - t0 )) s with geo-territory's verdicts)"

# submit_run, each run as its runner, in order.
sql postgres "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls" >/dev/null
game_db fair
sql fair "create table staged (k int primary key, id uuid, user_id uuid, body jsonb);
  create table results (k int, id uuid, state text, message text, ms double precision)" >/dev/null
"$PY" scripts/checks/lib/runs_csv.py "$TMP/set/runs.geojson" | "${PSQL[@]}" -d fair -c "copy staged from stdin with (format csv)" >/dev/null
sql fair "insert into users (id, username) select distinct user_id, 'runner-' || user_id from staged" >/dev/null
t0=$(date +%s)
"${PSQL[@]}" -d fair -f scripts/checks/lib/fair_play_submit.sql >/dev/null
sql fair "copy (select id, state, coalesce(message, '') from results order by k) to stdout" > "$TMP/submitted.tsv"
echo "  ..   submit_run: $(sql fair "select format('%s runs in %s s, %s ms a run (p95 %s ms, max %s ms)', count(*), $(( $(date +%s) - t0 )),
  round(avg(ms)::numeric), round(percentile_cont(0.95) within group (order by ms)::numeric), round(max(ms)::numeric)) from results")"

# Nothing stored of a refused run.
stored=$(sql fair "select count(*) from runs r join results s using (id) where s.state <> 'ok'")
signed=$(sql fair "select count(distinct run_id) from run_signatures g join results s on s.id = g.run_id where s.state <> 'ok'")
if [ "$stored" = 0 ] && [ "$signed" = 0 ]; then
  echo "  ok   nothing stored of a refused run (no runs row, no signature)"
else
  bad "refused runs stored: $stored runs rows, $signed with signatures"
fi

# The night over the pending runs, and a follower on a copy of them.
game_db fair_follow
game_copy_runs fair fair_follow
DATABASE_URL=$(url fair) "$BIN/geo-nightly" --apps territory --pipeline-commit check >"$TMP/nightly.log" 2>&1 \
  || { bad "the night over pending runs failed:"; cat "$TMP/nightly.log"; }
DATABASE_URL=$(url fair_follow) "$BIN/geo-territory-follow" --drain >"$TMP/follow.log" 2>&1 \
  || { bad "the follower failed:"; cat "$TMP/follow.log"; }
sql fair "copy (select id, valid_loop from runs where judged_at is not null) to stdout" > "$TMP/night_judged.tsv"
sql fair_follow "copy (select id, valid_loop from runs where judged_at is not null) to stdout" > "$TMP/follow_judged.tsv"
pending=$(( $(sql fair "select count(*) from runs where judged_at is null") + $(sql fair_follow "select count(*) from runs where judged_at is null") ))
[ "$pending" = 0 ] || bad "$pending runs left pending by the night or the follower"

"$PY" scripts/checks/lib/fair_play_compare.py compare "$TMP/set" "$TMP/night" "$TMP/submitted.tsv" \
  "the night=$TMP/night_judged.tsv" "the follower=$TMP/follow_judged.tsv" || fail=1
exit $fail
