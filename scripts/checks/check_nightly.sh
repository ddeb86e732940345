#!/usr/bin/env bash
# run-all: one make (see run-all.sh)
# Consumer check for `make nightly` (issue #21, CONTRACTS §9): geo-nightly against a REAL
# PostgreSQL 15 + PostGIS (throwaway server on a unix socket, plus a TCP port on 127.0.0.1 with
# password authentication), with Supabase's roles anon, authenticated and service_role:
#   - unreachable server, wrong password, missing database: a clear error naming host, port,
#     database and user (never the password), non-zero exit, nothing touched;
#   - a full night (quiz, territory, cities) through `make nightly`: one quiz row per day from
#     today through today + 60, the territory equals geo-territory's territory.geojson for the
#     same runs, the cities equal the seed; one geodata.nights row per app;
#   - a rerun changes no row (row versions unchanged); a dry run changes nothing; the night's game
#     rows equal what territory_hex.sql loads by psql; a city that leaves the source while a
#     user_city row points at it is kept and marked retired;
#   - live tables that break the contract (two quiz rows on one date; a territory row whose
#     owner is not in users) are refused with the rows named, nothing changed in that app;
#   - kill -9 of the stage during each app's load (held mid-transaction, and at random moments),
#     and of make: the app's tables are exactly as before or exactly as after;
#   - two nights at once: the second stops at once (--no-wait) or waits, never interleaves;
#   - four TERRITORY_SHARD=i/4 nights run concurrently end with the one-night territory_hex.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN=${BIN:-.build/release}
NIGHTLY=$BIN/geo-nightly
WORLD=${WORLD_OUT:-dist/world.geojson}
RUNS=${TERRITORY_RUNS:-data/territory/runs.geojson}
SEED=${CITIES_SEED:-dist/supabase/cities/seed.sql}
TERRITORY_OUT=${TERRITORY_DIR:-dist/territory}
GAME_MIGRATION=${GAME_MIGRATION:-dist/supabase/game/migrations/$(basename Sources/TerritoryGame/Migrations/*_territory_viewport.sql)}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PY=${PYTHON:-python3}

source scripts/checks/lib/pg.sh
needs check_nightly "run make all, and scripts/swift-release.sh build --product geo-nightly" \
  "$NIGHTLY" "$WORLD" "$RUNS" "$SEED" "$TERRITORY_OUT/territory.geojson" "$TERRITORY_OUT/territory_hex.sql" "$GAME_MIGRATION"

# Passwords on TCP, trust on the socket (the test's own psql).
pg_start_tcp check_nightly timezone=UTC
fail=0
SOCKURL() { echo "host=$SOCK port=$PORT user=postgres dbname=$1"; }
TODAY=2026-11-25
night() {  # night DB [geo-nightly args…] (stdout+stderr to $TMP/out, status returned)
  local db=$1; shift
  DATABASE_URL=$(SOCKURL "$db") "$NIGHTLY" --world "$WORLD" --runs "$RUNS" --cities-seed "$SEED" --today "$TODAY" \
    --pipeline-commit check "$@" >"$TMP/out" 2>&1
}

sql postgres "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls;
              create role night_user login password 'Sekr1t-pw';"
# An apps database as the three apps leave it: the game's tables (CONTRACTS §8) and a user_city
# table pointing at cities; the quiz's and cities' tables are created by their migrations.
newdb() {
  sql postgres "create database $1"
  "${PSQL[@]}" -d "$1" -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql
}
newdb base
# The role the night needs (docs/OPERATIONS.md): it creates tables (the migrations) and the
# schema geodata, and owns the apps' tables (the game's migration alters territory_hex), as the
# postgres role of a Supabase project does.
sql base "grant create on database base to night_user; grant all on schema public to night_user;
          alter table users owner to night_user; alter table runs owner to night_user; alter table territory_hex owner to night_user"

# What an app's night may change, as text (no created_at: a row's time of insertion differs by
# run); 'none' for a table its migration has not created yet. Row versions: a rewritten row gets
# a new xmin even when its values are the same. checks.snap is the test's own helper.
sql base "create schema checks; create function checks.snap(rel text, q text) returns text language plpgsql as \$\$
  declare r text; begin if to_regclass(rel) is null then return 'none'; end if; execute q into r; return coalesce(r, 'empty'); end \$\$"
snap_quiz="select checks.snap('public.daily_challenges', \$q\$select md5(string_agg(concat_ws('|', id, date, is_guess_country, is_guess_capital, is_guess_flag, answer), ',' order by date, id)) from daily_challenges\$q\$)"
# row(…)::text keeps every field in its place, a NULL as an empty one (concat_ws would skip it).
snap_game="select md5(coalesce((select string_agg(row(id, username)::text, ',' order by id) from users), '')
  || coalesce((select string_agg(row(id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop, md5(st_asewkb(path)::text), md5(st_asewkb(loop_polygon)::text))::text, ',' order by id) from runs), '')
  || coalesce((select string_agg(row(hex_id, owner_user_id, last_run_id, claimed_at)::text, ',' order by hex_id) from territory_hex), ''))"
snap_cities="select checks.snap('public.cities', \$q\$select md5(string_agg(concat_ws('|', id, display_name, country_id, population, retired_at is null), ',' order by id)) from public.cities\$q\$)"
versions="select md5(concat((select string_agg(xmin::text, ',' order by id) from users), (select string_agg(xmin::text, ',' order by id) from runs),
  (select string_agg(xmin::text, ',' order by hex_id) from territory_hex),
  checks.snap('public.daily_challenges', \$q\$select string_agg(xmin::text, ',' order by date) from daily_challenges\$q\$),
  checks.snap('public.cities', \$q\$select string_agg(xmin::text, ',' order by id) from public.cities\$q\$)))"
snap_all() { echo "$(sql "$1" "$snap_quiz") $(sql "$1" "$snap_game") $(sql "$1" "$snap_cities")"; }

echo "PostgreSQL $(sql postgres 'show server_version'), PostGIS $(sql base 'select postgis_lib_version()'), TCP port $PORT"

# --- connection failures: named, never the password, nothing touched --------------------------
before=$(snap_all base)
check_refusal() {  # check_refusal NAME EXPECTED_TEXT URL
  local rc=0
  DATABASE_URL=$3 "$NIGHTLY" --apps quiz --world "$WORLD" --today "$TODAY" >"$TMP/out" 2>&1 || rc=$?
  if [ $rc -ne 0 ] && grep -q -- "$2" "$TMP/out" && ! grep -q 'Sekr1t' "$TMP/out"; then ok "$1: exit $rc, \"$(grep -o -- "$2[^;]*" "$TMP/out" | head -1)\""
  else bad "$1: exit $rc, output: $(cat "$TMP/out")"; fi
}
check_refusal "unreachable server" "night_user@127.0.0.1:1/base" "postgresql://night_user:Sekr1t-pw@127.0.0.1:1/base"
check_refusal "wrong password (scram over TCP)" "night_user@127.0.0.1:$PORT/base: connect failed: .*password authentication failed" \
  "postgresql://night_user:Sekr1t-pwX@127.0.0.1:$PORT/base"
check_refusal "malformed URI (libpq would quote it whole)" "connect failed: the connection string is not a valid libpq URI or conninfo" \
  "postgresql://night_user:Sekr1t-pw@[::1/base"
check_refusal "missing database" "night_user@127.0.0.1:$PORT/nosuchdb: connect failed: .*does not exist" \
  "host=127.0.0.1 port=$PORT user=night_user password=Sekr1t-pw dbname=nosuchdb"
rc=0; DATABASE_URL="host=127.0.0.1 port=$PORT user=night_user password=Sekr1t-pw dbname=base" "$NIGHTLY" --apps quiz --world "$WORLD" --today "$TODAY" --dry-run >"$TMP/out" 2>&1 || rc=$?
if [ $rc -eq 0 ] && grep -q "quiz: dry run on night_user@127.0.0.1:$PORT/base" "$TMP/out" && ! grep -q Sekr1t "$TMP/out"; then ok "the right password over TCP connects (dry run)"; else bad "right password: exit $rc: $(cat "$TMP/out")"; fi
[ "$(snap_all base)" = "$before" ] && ok "nothing touched by the failures" || bad "a failed connection touched the database"

# --- the full night, through make, as a password-authenticated role over TCP -------------------
sql postgres "create database full_night template base"; sql postgres "grant create on database full_night to night_user"
t0=$(date +%s%N)
make --no-print-directory nightly DATABASE_URL="postgresql://night_user:Sekr1t-pw@127.0.0.1:$PORT/full_night" NIGHTLY_TODAY=$TODAY TERRITORY_RUNS="$RUNS" >"$TMP/make.out" 2>&1 \
  && ok "make nightly: $(grep -cE '^(quiz|territory|cities): ok on ' "$TMP/make.out") apps ok in $(( ($(date +%s%N) - t0) / 1000000 )) ms" \
  || { bad "make nightly failed:"; cat "$TMP/make.out"; }
grep -E '^(quiz|territory|cities): ' "$TMP/make.out" | sed 's/^/       /'
if grep -q "night_user@127.0.0.1:$PORT/full_night" "$TMP/make.out" && ! grep -q Sekr1t "$TMP/make.out" build/.stages.log 2>/dev/null; then
  ok "make's output names user, host, port and database, never the password (nor does the stage log)"
else bad "make's output: $(grep -c Sekr1t "$TMP/make.out") lines with the password"; fi
expect full_night "one quiz row per day, $TODAY … +60" "61|61" \
  "select count(*), count(distinct date) from daily_challenges where date between '$TODAY' and date '$TODAY' + 60"
expect full_night "every quiz row has exactly one type" "0" \
  "select count(*) from daily_challenges where is_guess_country::int + is_guess_capital::int + is_guess_flag::int <> 1"
"$PY" -c 'import json,sys
for f in sorted(json.load(open(sys.argv[1]))["features"], key=lambda f: f["properties"]["hex_id"]):
    p = f["properties"]; print(p["hex_id"], p["owner_user_id"], p["last_run_id"], p["claimed_at"])' "$TERRITORY_OUT/territory.geojson" >"$TMP/geo.txt"
OWNERS="select hex_id || ' ' || owner_user_id || ' ' || last_run_id || ' ' || to_char(claimed_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') || 'Z' from territory_hex order by hex_id"
sql full_night "$OWNERS" >"$TMP/db.txt"
cmp -s "$TMP/geo.txt" "$TMP/db.txt" && ok "territory_hex = geo-territory's territory.geojson ($(wc -l <"$TMP/db.txt") cells)" || bad "territory_hex differs from territory.geojson: $(diff "$TMP/geo.txt" "$TMP/db.txt" | head -5)"
# The same night through the stage's files (the game's migration, then territory_hex.sql by psql):
# the same users, runs and territory_hex, cell boundaries included, byte for byte.
sql postgres "create database by_file template base"
"${PSQL[@]}" -d by_file -f "$GAME_MIGRATION" -f "$TERRITORY_OUT/territory_hex.sql" >/dev/null
cells="select md5(string_agg(hex_id || coalesce(st_asewkb(cell)::text, 'null'), ',' order by hex_id)) from territory_hex"
if [ "$(sql by_file "$snap_game") $(sql by_file "$cells")" = "$(sql full_night "$snap_game") $(sql full_night "$cells")" ]; then
  ok "users, runs, territory_hex (with cell) = what territory_hex.sql loads by psql"
else bad "the night's game rows differ from territory_hex.sql's"; fi
expect full_night "runs: every run of the file, valid loops as the stage judged them" \
  "$(awk -F'\t' 'NR>1 { n++; if ($3 == "true") v++ } END { print n "|" v }' "$TERRITORY_OUT/runs.tsv")" \
  "select count(*) || '|' || count(*) filter (where valid_loop) from runs"
expect full_night "cities: the seed's countries and cities" "$(grep -o '[0-9]* cities of [0-9]* in [^,]*, [0-9]* countries' "$SEED" | awk '{ print $7 "|" $1 }')" \
  "select (select count(*) from public.countries) || '|' || (select count(*) from public.cities)"
expect full_night "geodata.nights: one ok row per app" "cities ok|quiz ok|territory ok" \
  "select string_agg(app || ' ' || status, '|' order by app) from geodata.nights"
expect full_night "geodata.nights: inputs_sha256 of the runs file" "$(sha256sum "$RUNS" | cut -d' ' -f1)" \
  "select inputs_sha256 from geodata.nights where app = 'territory'"

# --- rerun, dry run ---------------------------------------------------------------------------
after=$(snap_all full_night); rows=$(sql full_night "$versions")
night full_night || { bad "rerun failed"; cat "$TMP/out"; }
[ "$(sql full_night "$versions")" = "$rows" ] && ok "a rerun of the same night rewrites no row (row versions unchanged)" || bad "the rerun rewrote rows"
grep -q 'territory: ok .* 0 users, 0 runs, 0 cells written' "$TMP/out" && grep -q '0 days added' "$TMP/out" && grep -q '0 countries and 0 cities written' "$TMP/out" \
  && ok "the rerun says it changed nothing" || bad "rerun summary: $(grep -E '^(quiz|territory|cities):' "$TMP/out")"
nights_before=$(sql full_night "select count(*) from geodata.nights")
rc=0; night full_night --today 2026-12-10 --dry-run || rc=$?
if [ $rc -eq 0 ] && grep -q 'quiz: dry run .* 15 days would be added' "$TMP/out" && [ "$(sql full_night "$versions")" = "$rows" ] \
   && [ "$(sql full_night "select count(*) from geodata.nights")" = "$nights_before" ]; then
  ok "a dry run 15 days later says 15 days would be added and changes nothing"
else bad "dry run (exit $rc): $(cat "$TMP/out")"; fi

# --- rows stored without their boundary (before the game's migration): the night fills them -----
# Ten cells tonight's runs own, and one that no run of tonight claims (across ±180°, claimed by a
# run of an earlier night): every row has its boundary afterwards, the ten as territory_hex.sql writes them.
sql postgres "create database no_cells template full_night"
far=$("$PY" -c 'import h3; print(h3.latlng_to_cell(-16.8, 179.9995, 9))')
far_m2=$("$PY" -c 'import h3, sys; print(h3.cell_area(sys.argv[1], "m^2"))' "$far")
sql no_cells "update territory_hex set cell = null where hex_id in (select hex_id from territory_hex order by hex_id limit 10);
  insert into runs (id, user_id, started_at, ended_at) select '00000000-0000-4000-8000-00000000f00d', min(id::text)::uuid, '2020-01-01Z', '2020-01-01Z' from users;
  insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at) select '$far', user_id, id, ended_at from runs where id = '00000000-0000-4000-8000-00000000f00d'"
rc=0; night no_cells --apps territory || rc=$?
if [ $rc -eq 0 ] && grep -q "1 stored cells' boundaries filled" "$TMP/out" \
   && [ "$(sql no_cells "select md5(string_agg(hex_id || st_asewkb(cell)::text, ',' order by hex_id)) from territory_hex where hex_id <> '$far'")" = "$(sql full_night "$cells")" ] \
   && [ "$(sql no_cells "select st_isvalid(cell) and abs(st_area(cell::geography) / $far_m2 - 1) < 0.01 from territory_hex where hex_id = '$far'")" = t ]; then
  ok "rows without a boundary get it: 10 won tonight (as territory_hex.sql writes them) and 1 claimed before, across ±180° ($far)"
else bad "boundary fill (exit $rc): $(grep -E '^territory' "$TMP/out")"; fi

# --- a run stored by the app while the night copies: the night's COPY into runs fails on its key,
# is rolled back to its savepoint, and every run goes through the merge (nothing lost, no error).
# The app's transaction holds the run, uncommitted, when the night looks for stored runs. A night
# with no runs has applied the game's migration first: a night that finds it recorded in
# geodata.migrations takes no table lock, so the app's writes go on while it runs.
sql postgres "create database race template base"
echo '{"type": "FeatureCollection", "features": []}' >"$TMP/no-runs.geojson"
night race --apps territory --runs "$TMP/no-runs.geojson" || { bad "a night of no runs failed"; cat "$TMP/out"; }
run1=$("$PY" -c 'import json,sys; f=json.load(open(sys.argv[1]))["features"][0]; print(f["id"], f["properties"]["user_id"])' "$RUNS")
read -r race_run race_user <<<"$run1"
"${PSQL[@]}" -d race -c "begin; insert into users (id, username) values ('$race_user', 'from the app');
  insert into runs (id, user_id, started_at, ended_at, path) values ('$race_run', '$race_user', '2026-11-21Z', '2026-11-21Z', 'SRID=4326;LINESTRING(1 1,2 2)');
  select pg_sleep(2); commit;" >/dev/null 2>&1 & app=$!
for _ in $(seq 50); do [ "$(sql race "select count(*) from pg_stat_activity where datname = 'race' and pid <> pg_backend_pid() and query like '%pg_sleep%' and state = 'active'")" = 1 ] && break; sleep 0.1; done
rc=0; night race --apps territory || rc=$?
# Every other run's row through the merge as through the direct COPY; the app's run keeps its
# path and times, and gets the judged columns.
runs_but_race="select md5(string_agg(row(id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop,
  md5(st_asewkb(path)::text), md5(st_asewkb(loop_polygon)::text))::text, ',' order by id)) from runs where id <> '$race_run'"
judged="select row(distance_m, duration_s, valid_loop, md5(st_asewkb(loop_polygon)::text))::text from runs where id = '$race_run'"
wait $app
if [ $rc -eq 0 ] && grep -q 'a run was stored while the night ran' "$TMP/out" \
   && [ "$(sql race "select count(*) || '|' || count(path) from runs")" = "$(sql full_night "select count(*) || '|' || count(path) from runs")" ] \
   && [ "$(sql race "select username || ' ' || st_astext(path) from runs join users u on u.id = user_id where runs.id = '$race_run'")" = "from the app LINESTRING(1 1,2 2)" ] \
   && [ "$(sql race "$runs_but_race")" = "$(sql full_night "$runs_but_race")" ] && [ "$(sql race "$judged")" = "$(sql full_night "$judged")" ] \
   && [ "$(sql race "$OWNERS")" = "$(cat "$TMP/geo.txt")" ]; then
  ok "a run the app stored while the night copied: the night goes through the merge (every other run's row as the direct COPY writes it), the app's row keeps its path, times and runner and gets the judged columns, the territory is the night's"
else bad "run stored during the night (exit $rc): $(grep -E '^territory|stored while' "$TMP/out")"; fi

# --- malformed runs: quarantined up to TERRITORY_MAX_REJECTS, more stop the app's night -----------
sql postgres "create database rejects template full_night"
MALFORMED=Tests/BadInputs/territory/many-malformed.geojson   # 11 malformed runs of 12
b="$(sql rejects "$snap_game") $(sql rejects "$versions")"
rc=0; night rejects --apps territory --runs "$MALFORMED" || rc=$?
if [ $rc -ne 0 ] && grep -q '11 of 12 runs are malformed, more than the 10 a night may quarantine' "$TMP/out" \
   && [ "$(sql rejects "$snap_game") $(sql rejects "$versions")" = "$b" ]; then
  ok "11 malformed runs of 12, over the default 10: the territory night stops, nothing changed"
else bad "malformed runs over the limit (exit $rc): $(grep -E '^territory' "$TMP/out")"; fi
rc=0; night rejects --apps territory --runs "$MALFORMED" --max-rejects 11 || rc=$?
if [ $rc -eq 0 ] && grep -q 'territory: ok .* 1 runs (.*11 malformed quarantined)' "$TMP/out"; then
  ok "with --max-rejects 11 (TERRITORY_MAX_REJECTS) the same night goes on without them: $(grep -o '1 runs ([^)]*)' "$TMP/out" | head -1)"
else bad "malformed runs within --max-rejects (exit $rc): $(grep -E '^territory' "$TMP/out")"; fi

# --- a migration recorded in geodata.migrations whose work was undone by hand: applied again ------
# A rerun finds every migration recorded and present, and applies none (no table lock). With
# territory_hex.cell dropped (and the stats view with it), row-level security off on runs, the
# quiz's one-row-per-date constraint and a cities policy dropped, the next night applies each again
# (the game's: the first, applied again, revokes the grants the later ones make and makes its own
# viewport function again, so every game migration after it is applied again too;
# the cities' likewise: the first, applied again, puts back its own search_cities, and so does the
# second).
sql postgres "create database undone template full_night"
all_migrations=$(ls dist/supabase/migrations/*.sql dist/supabase/cities/migrations/*.sql dist/supabase/game/migrations/*.sql | wc -l)
rc=0; night undone || rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c 'is applied (geodata.migrations)' "$TMP/out")" = "$all_migrations" ] && ! grep -q 'apply the migration' "$TMP/out"; then
  ok "a rerun applies no migration: all $all_migrations recorded and present"
else bad "rerun's migrations (exit $rc): $(grep -E 'migration' "$TMP/out")"; fi
sql undone "alter table territory_hex drop column cell cascade; alter table runs disable row level security;
  alter table daily_challenges drop constraint daily_challenges_date_key; drop policy cities_read on public.cities"
rc=0; night undone || rc=$?
# (The fair play migration's own tables and functions are untouched by all that: it is found present.)
if [ $rc -eq 0 ] && [ "$(grep -c 'recorded in geodata.migrations, but .* applying it again' "$TMP/out")" = "$((all_migrations - 1))" ] \
   && grep -q '_fair_play.sql is applied (geodata.migrations)' "$TMP/out" \
   && [ "$(sql undone "select (select relrowsecurity from pg_class where oid = 'runs'::regclass) and to_regclass('territory_runner_stats') is not null
        and exists (select 1 from pg_constraint where conname = 'daily_challenges_date_key')
        and exists (select 1 from pg_policy where polname = 'cities_read')
        and position('city_qualifiers' in pg_get_functiondef('public.search_cities(text, integer)'::regprocedure)) > 0")" = t ] \
   && [ "$(sql undone "$cells")" = "$(sql full_night "$cells")" ] && [ "$(sql undone "$snap_game")" = "$(sql full_night "$snap_game")" ]; then
  ok "a recorded migration whose work was undone is applied again: cell (every boundary as before), RLS, the quiz's and the cities' constraints and policies, the cities' search"
else bad "undone migrations (exit $rc): $(grep -E 'migration' "$TMP/out")"; fi

# --- a hand-written live schedule (repeats, gaps, rows past the horizon): only gaps are filled ----
sql postgres "create database hand_quiz template base"
"${PSQL[@]}" -d hand_quiz -f scripts/checks/daily_challenges_app.sql
sql hand_quiz "insert into daily_challenges (date, is_guess_flag, answer) select d, true, 'FR' from generate_series(date '2026-11-20', date '2026-12-10', interval '1 day') d;
  insert into daily_challenges (date, is_guess_capital, answer) select d, true, 'DE' from generate_series(date '2027-01-01', date '2027-03-01', interval '1 day') d"
hand="select md5(string_agg(concat_ws('|', id, date, is_guess_country, is_guess_capital, is_guess_flag, answer, xmin), ',' order by date)) from daily_challenges"
b=$(sql hand_quiz "$hand")
rc=0; night hand_quiz --apps quiz || rc=$?
if [ $rc -eq 0 ] && grep -q '21 days added, 40 kept' "$TMP/out" \
   && [ "$(sql hand_quiz "select count(*) || '|' || count(distinct date) from daily_challenges where date between '$TODAY' and date '$TODAY' + 60")" = "61|61" ] \
   && [ "$(sql hand_quiz "select md5(string_agg(concat_ws('|', id, date, is_guess_country, is_guess_capital, is_guess_flag, answer, xmin), ',' order by date)) from daily_challenges where answer in ('FR', 'DE') and (date <= '2026-12-10' or date >= '2027-01-01')")" = "$b" ]; then
  ok "a hand-written schedule (one answer 21 days running, rows past the horizon): the 21 missing days added, no existing row rewritten"
else bad "hand-written schedule (exit $rc): $(grep -E '^quiz' "$TMP/out")"; fi

# --- a city that leaves the source while a user row points at it: kept, marked ----------------------
sql postgres "create database fk_city template full_night"
city=$(sql fk_city "select min(id) from public.cities where id <> (select min(id) from public.cities)")
sql fk_city "insert into public.user_city (user_id, city_id, visited) values ('00000000-0000-4000-8000-000000000001', $city, true)"
# The seed without that city: its row and its id in the list of cities still in the source.
grep -v "^($city, " "$SEED" | sed "s/,$city,/,/" > "$TMP/seed-without.sql"
rc=0; night fk_city --apps cities --cities-seed "$TMP/seed-without.sql" || rc=$?
if [ $rc -eq 0 ] && [ "$(sql fk_city "select count(*) from public.cities c join public.user_city u on u.city_id = c.id where c.id = $city and c.retired_at is not null")" = 1 ]; then
  ok "a city that left the source while user_city points at it is kept and marked retired ($(grep -o "1 retired" "$TMP/out" | head -1))"
else bad "city $city with a user row (exit $rc): $(cat "$TMP/out")"; fi

# --- live tables that break the contract --------------------------------------------------------
sql postgres "create database bad_quiz template base"
"${PSQL[@]}" -d bad_quiz -f scripts/checks/daily_challenges_app.sql
sql bad_quiz "insert into daily_challenges (date, is_guess_flag, answer) values ('2026-11-20', true, 'FR'), ('2026-11-21', true, 'DE'), ('2026-11-21', true, 'IT')"
b="$(sql bad_quiz "$snap_quiz") $(sql bad_quiz "$versions")"
rc=0; night bad_quiz --apps quiz || rc=$?
if [ $rc -ne 0 ] && grep -q '2026-11-21' "$TMP/out" && grep -q 'more than one row' "$TMP/out" && [ "$(sql bad_quiz "$snap_quiz") $(sql bad_quiz "$versions")" = "$b" ]; then
  ok "two quiz rows on one date: refused naming $(grep -o 'more than one row: [0-9-]*' "$TMP/out" | head -1), nothing changed"
else bad "two quiz rows on one date (exit $rc): $(cat "$TMP/out")"; fi
expect bad_quiz "the refused night is recorded as failed" "failed" "select string_agg(status, ',') from geodata.nights"
sql postgres "create database bad_game template full_night"
sql bad_game "set session_replication_role = replica;
  update territory_hex set owner_user_id = '00000000-0000-4000-8000-0000000000ff' where hex_id = (select min(hex_id) from territory_hex)"
orphan=$(sql bad_game "select min(hex_id) from territory_hex")
b=$(snap_all bad_game); bv=$(sql bad_game "$versions")
rc=0; night bad_game --apps territory || rc=$?
if [ $rc -ne 0 ] && grep -q "$orphan (owner 00000000-0000-4000-8000-0000000000ff" "$TMP/out" && [ "$(snap_all bad_game)" = "$b" ] && [ "$(sql bad_game "$versions")" = "$bv" ]; then
  ok "a territory row whose owner is not in users: refused naming $orphan, nothing changed"
else bad "orphan territory row (exit $rc): $(cat "$TMP/out")"; fi

# --- kill -9 during each app's load -------------------------------------------------------------
# Held: another session holds a lock the app's write needs, so the night stops mid-transaction
# (after its reads and COPYs) until it is killed; random: killed after a random delay.
held_table() { case $1 in quiz) echo daily_challenges;; territory) echo territory_hex;; cities) echo public.cities;; esac; }
for app in quiz territory cities; do
  db=k_${app}; sql postgres "create database ${db}_before template base"
  # Before: the quiz a month behind; the cities loaded, then a tenth of them gone; no territory.
  if [ $app != territory ]; then night ${db}_before --apps "$app" --today 2026-11-01 || { bad "$app: first night"; cat "$TMP/out"; }; fi
  [ $app != cities ] || sql ${db}_before "delete from public.cities where id % 10 = 0"
  sql postgres "create database ${db}_after template ${db}_before"
  night ${db}_after --apps "$app" || { bad "$app: reference night"; cat "$TMP/out"; }
  before=$(snap_all ${db}_before); after=$(snap_all ${db}_after)
  [ "$before" != "$after" ] || bad "$app: the reference night changed nothing"
  outcomes=""
  for trial in held random1 random2 make; do
    sql postgres "create database ${db}_$trial template ${db}_before"
    if [ $trial = held ]; then
      "${PSQL[@]}" -d ${db}_$trial -c "begin; lock table $(held_table $app) in share mode; select pg_sleep(3); commit;" >/dev/null &
      holder=$!; sleep 0.3
    fi
    if [ $trial = make ]; then
      setsid make --no-print-directory nightly DATABASE_URL="$(SOCKURL ${db}_$trial)" NIGHTLY_TODAY=$TODAY NIGHTLY_APPS=$app TERRITORY_RUNS="$RUNS" >"$TMP/out" 2>&1 &
    else
      DATABASE_URL=$(SOCKURL ${db}_$trial) "$NIGHTLY" --apps $app --world "$WORLD" --runs "$RUNS" --cities-seed "$SEED" --today $TODAY >"$TMP/out" 2>&1 &
    fi
    pid=$!
    case $trial in held) sleep 1.5;; make) sleep 0.$((RANDOM % 9 + 1));; *) sleep 0.$((RANDOM % 9)); esac
    kill -9 $pid 2>/dev/null || true
    wait $pid 2>/dev/null || true
    [ $trial = held ] && wait $holder
    # The server notices the dead client and rolls back (or an orphaned stage finishes): wait
    # until no night of this database is left.
    for _ in $(seq 50); do [ "$(sql postgres "select count(*) from pg_stat_activity where datname = '${db}_$trial' and application_name = 'geo-nightly'")" = 0 ] && break; sleep 0.1; done
    now=$(snap_all ${db}_$trial)
    if [ "$now" = "$before" ]; then outcomes+=" $trial:before"; elif [ "$now" = "$after" ]; then outcomes+=" $trial:after"; else outcomes+=" $trial:MIXED"; fi
  done
  case $outcomes in *MIXED*) bad "kill -9 during the $app night left a mixed state:$outcomes";; *) ok "kill -9 during the $app night: all-before or all-after ($outcomes )";; esac
done

# --- two nights at once ------------------------------------------------------------------------
# hold DB: another session holds territory_hex (share mode) until `release DB`, however long the
# machine takes meanwhile; nights_waiting DB N: until N nights wait for a lock there.
hold() {
  "${PSQL[@]}" -d "$1" -c "begin; lock table territory_hex in share mode; select pg_sleep(600); commit;" >/dev/null 2>&1 & holder=$!
  for _ in $(seq 100); do [ "$(sql "$1" "select count(*) from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'territory_hex' and l.mode = 'ShareLock' and l.granted")" = 1 ] && break; sleep 0.05; done
}
release() {
  sql "$1" "select count(pg_cancel_backend(pid)) from pg_stat_activity where datname = '$1' and query like '%pg_sleep(600)%' and pid <> pg_backend_pid()" >/dev/null
  wait $holder || true
}
nights_waiting() {
  for _ in $(seq 200); do [ "$(sql "$1" "select count(*) from pg_stat_activity where datname = '$1' and application_name = 'geo-nightly' and wait_event_type = 'Lock'")" = "$2" ] && break; sleep 0.05; done
}
sql postgres "create database twice template base"
hold twice
DATABASE_URL=$(SOCKURL twice) "$NIGHTLY" --apps territory --runs "$RUNS" --today $TODAY >"$TMP/first" 2>&1 & first=$!
nights_waiting twice 1
rc=0; t0=$(date +%s%N); DATABASE_URL=$(SOCKURL twice) "$NIGHTLY" --apps territory --runs "$RUNS" --today $TODAY --no-wait >"$TMP/second" 2>&1 || rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ $rc -ne 0 ] && grep -q 'another night of territory is running' "$TMP/second"; then ok "a second night with --no-wait stops at once ($ms ms): $(grep -o 'another night of territory is running[^;]*' "$TMP/second" | head -1)"
else bad "second night --no-wait (exit $rc): $(cat "$TMP/second")"; fi
DATABASE_URL=$(SOCKURL twice) "$NIGHTLY" --apps territory --runs "$RUNS" --today $TODAY >"$TMP/third" 2>&1 & third=$!
for _ in $(seq 100); do grep -q 'waiting for it to finish' "$TMP/third" && break; sleep 0.1; done
release twice; wait $first || bad "the first night failed: $(cat "$TMP/first")"; wait $third || bad "the waiting night failed: $(cat "$TMP/third")"
if grep -q 'waiting for it to finish' "$TMP/third" && grep -q 'territory: ok .* 0 runs, 0 cells written' "$TMP/third"; then
  ok "a third night waits for the first, then finds nothing left to do (no interleaving)"
else bad "waiting night: $(cat "$TMP/third")"; fi
expect twice "two ok records" "2" "select count(*) from geodata.nights where status = 'ok'"

# Two apps' nights at once in one database (two schedulers, each app behind its own lock), as the
# role that made geodata: the quiz's night goes through while the territory's is held
# mid-transaction (neither writes a catalog row once geodata exists: a REVOKE on the schema by
# both made the second wait for the first's commit, then fail "tuple concurrently updated").
sql postgres "create database two_apps template full_night"; sql postgres "grant create on database two_apps to night_user"
two_apps="postgresql://night_user:Sekr1t-pw@127.0.0.1:$PORT/two_apps"
hold two_apps
DATABASE_URL=$two_apps "$NIGHTLY" --apps territory --runs "$RUNS" --today $TODAY >"$TMP/first" 2>&1 & first=$!
nights_waiting two_apps 1
rc=0; DATABASE_URL=$two_apps "$NIGHTLY" --apps quiz --world "$WORLD" --today 2026-12-10 >"$TMP/out" 2>&1 || rc=$?
held=no; [ "$(sql two_apps "select count(*) from pg_stat_activity where datname = 'two_apps' and application_name = 'geo-nightly' and wait_event_type = 'Lock'")" = 1 ] && held=yes
release two_apps; wait $first || bad "the held territory night failed: $(cat "$TMP/first")"
if [ $rc -eq 0 ] && [ $held = yes ] && grep -q 'quiz: ok .* 15 days added' "$TMP/out"; then
  ok "a quiz night in the same database goes through while the territory night is held"
else bad "two apps at once (exit $rc, territory held: $held): $(grep -E '^quiz' "$TMP/out")"; fi

# The first nights of two apps in a fresh database: the territory night makes geodata and is held
# (its migration waits for a lock); the quiz night waits for it to commit instead of failing on
# the schema the other made ("duplicate key value violates unique constraint pg_namespace…").
sql postgres "create database two_fresh template base"
"${PSQL[@]}" -d two_fresh -c "begin; lock table territory_hex in share mode; select pg_sleep(2); commit;" >/dev/null & holder=$!
sleep 0.3
DATABASE_URL=$(SOCKURL two_fresh) "$NIGHTLY" --apps territory --runs "$RUNS" --today $TODAY >"$TMP/first" 2>&1 & first=$!
for _ in $(seq 50); do [ "$(sql two_fresh "select count(*) from pg_stat_activity where datname = 'two_fresh' and application_name = 'geo-nightly' and wait_event_type = 'Lock'")" = 1 ] && break; sleep 0.05; done
rc=0; DATABASE_URL=$(SOCKURL two_fresh) "$NIGHTLY" --apps quiz --world "$WORLD" --today $TODAY >"$TMP/out" 2>&1 || rc=$?
frc=0; wait $first || frc=$?; wait $holder
if [ $rc -eq 0 ] && [ $frc -eq 0 ] && grep -q 'quiz: ok' "$TMP/out" && grep -q 'territory: ok' "$TMP/first" \
   && [ "$(sql two_fresh "select string_agg(app || ' ' || status, '|' order by app) from geodata.nights")" = "quiz ok|territory ok" ]; then
  ok "the first nights of two apps in a fresh database: the second waits for the one making geodata, both ok"
else bad "first nights of two apps (quiz exit $rc, territory exit $frc): $(grep -E '^(quiz|territory)' "$TMP/out" "$TMP/first")"; fi

# --- four shards at once = one night ---------------------------------------------------------
sql postgres "create database shards template base"
pids=()
for i in 0 1 2 3; do
  DATABASE_URL=$(SOCKURL shards) "$NIGHTLY" --apps territory --runs "$RUNS" --today $TODAY --shard $i/4 --threads 1 >"$TMP/shard$i" 2>&1 & pids+=($!)
done
for p in "${pids[@]}"; do wait $p || { bad "a shard night failed"; cat "$TMP"/shard*; }; done
[ "$(sql shards "$OWNERS" | md5sum)" = "$(sql full_night "$OWNERS" | md5sum)" ] \
  && ok "four concurrent TERRITORY_SHARD=i/4 nights end with the one-night territory_hex ($(sql shards 'select count(*) from territory_hex') cells)" \
  || bad "shards differ from one night: $(diff <(sql shards "$OWNERS") <(sql full_night "$OWNERS") | head -5)"

[ $fail -eq 0 ] && echo "check_nightly: all ok" || echo "check_nightly: FAILED"
exit $fail
