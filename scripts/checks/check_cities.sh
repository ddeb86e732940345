#!/usr/bin/env bash
# run-all: alone (it bounds the seed's load time in server CPU; see run-all.sh)
# Consumer check for dist/supabase/cities/ (CONTRACTS §7, issue #15): loads the migrations and
# the seed into a REAL, throwaway PostgreSQL server (unix socket only, as in check_challenges.sh)
# and asserts what the city-ranking app relies on:
#
#   - migrations applied in name order, twice; the seed loaded, in under 10 s of server CPU, then again with
#     nothing changed: no row is rewritten (every xmin unchanged);
#   - one country per feature of dist/world.geojson (206), every city in a known country,
#     display names without repeated parts, plain names without diacritics;
#   - search_cities: "sao paulo" → São Paulo first, "new york" → New York City first, "münchen"
#     and "munich" → Munich, "paris" → Paris, France before Paris, Texas, also through a
#     generic plan; 2-letter queries answer in under 20 ms (EXPLAIN ANALYZE in a warm session);
#   - the ranking of issue #33: every query of scripts/checks/cities_probes.tsv (prefixes,
#     exonyms, old names, missing diacritics, ambiguous names, typos; cities of every inhabited
#     continent) gives its city first, counted per kind; one wrong, missing, extra or swapped
#     letter in the middle of the name of each of the 100 most populous cities (6 letters or
#     more) still finds it among the first 10; no code-like other name is stored; a place
#     GeoNames lists twice is offered once, both ids kept;
#   - issue #40: the probes' qualified, script, abbreviation and typing groups each pass whole
#     (a typing sequence keeps its city first once it is); a qualifier that names nothing keeps
#     the answer; names in other scripts and abbreviations are keyed in city_names by the
#     query's fold, no airport code among them, and a reload rewrites none; the search's
#     functions have a fixed search_path;
#   - row-level security: anon and authenticated read, and can neither insert, update nor delete;
#   - a city a user_city row references, once it leaves the source, is kept and marked
#     (retired_at), drops out of the search, cannot be deleted, and comes back on a full reload;
#     no other city is rewritten; a country that leaves the set is kept and marked (in_source);
#   - with the geo-cities binary: a city name full of quotes, backslashes and semicolons goes
#     through the stage and comes back out of PostgreSQL unchanged.
set -euo pipefail
cd "$(dirname "$0")/../.."

WORLD=${WORLD_OUT:-dist/world.geojson}
DIR=${CITIES_DIR:-dist/supabase/cities}
SEED=$DIR/seed.sql
BIN=${BIN:-.build/release}
PY=${PYTHON:-python3}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
MUNICH=2867714

source scripts/checks/lib/pg.sh
needs check_cities "run make cities" "$WORLD" "$SEED"
mapfile -t MIGRATIONS < <(ls "$DIR"/migrations/*.sql 2>/dev/null | LC_ALL=C sort)
[ ${#MIGRATIONS[@]} -gt 0 ] || { echo "check_cities: no migrations in $DIR/migrations"; exit 1; }
# The server, and contrib's pg_trgm and unaccent (Debian's postgresql-contrib).
if [ ! -x "$PGBIN/postgres" ] || ! ls /usr/share/postgresql/*/extension/unaccent.control >/dev/null 2>&1; then
  bash scripts/setup.sh --test
  [ -x "$PGBIN/postgres" ] || PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
fi
[ -x "$PGBIN/postgres" ] || { echo "check_cities: no PostgreSQL server binaries found"; exit 1; }

# UTF-8 with an ICU-free libc locale if one exists (as on Supabase), else C: the search keys must
# not depend on it.
LOCALE=C; locale -a 2>/dev/null | grep -qx 'C.utf8' && LOCALE=C.UTF-8
pg_start check_cities "$LOCALE"
PG=("${PSQL[@]}" -d postgres)
fail=0
now_ms() { date +%s%3N; }

echo "PostgreSQL $(sql 'show server_version') on $SOCK"
# The client roles Supabase has.
sql "do \$\$ begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin; end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then create role authenticated nologin; end if;
end \$\$"
for pass in 1 2; do for m in "${MIGRATIONS[@]}"; do "${PG[@]}" -f "$m"; done; done
ok "${#MIGRATIONS[@]} migration(s) applied twice in name order"

# The load is timed on the wall clock and by the server's CPU time (its /proc stat, read from
# inside the session): on a shared machine the wall clock also counts other people's work.
load_seed() {  # load_seed FILE → "wall_ms cpu_ms"
  local t0 t1 cpu stat="split_part(pg_read_file('/proc/self/stat'), ' ', 14)::bigint + split_part(pg_read_file('/proc/self/stat'), ' ', 15)::bigint"
  printf '%s\n' "select $stat as cpu0 \\gset" "\\i $1" "select ($stat - :cpu0) * 1000 / $(getconf CLK_TCK);" >"$TMP/load.sql"
  t0=$(now_ms); cpu=$("${PG[@]}" -At -f "$TMP/load.sql" | tail -1); t1=$(now_ms)
  echo "$((t1 - t0)) $cpu"
}
read -r wall cpu < <(load_seed "$SEED")
cities=$(sql "select count(*) from public.cities")
# 10 s: 5 s for the cities (4.3 to 6.0 s measured on the loaded 2-core machine of issue #40),
# and 2 to 2.5 s more for the 127,000 names in other scripts the database keys as they load
# (city_names; a reload that changes nothing keys none): 6.4 to 7.5 s measured there.
if [ "$cpu" -lt 10000 ]; then ok "seed loads $cities cities in $cpu ms of server CPU (< 10000; $wall ms wall, load average $(cut -d' ' -f1 /proc/loadavg))"
else bad "seed took $cpu ms of server CPU to load $cities cities (limit 10000; $wall ms wall)"; fi
[ "$cities" -gt 30000 ] && ok "more than 30,000 cities" || bad "only $cities cities"

snapshot="select md5(string_agg(concat_ws('|', id, xmin), ',' order by id)) from"
c_before=$(sql "$snapshot public.cities"); k_before=$(sql "$snapshot public.countries")
read -r wall cpu < <(load_seed "$SEED")
ok "reload with nothing changed: $cpu ms of server CPU, $wall ms wall"
expect "reload with nothing changed rewrites no city (xmin unchanged)" "$c_before" "$snapshot public.cities"
expect "reload with nothing changed rewrites no country (xmin unchanged)" "$k_before" "$snapshot public.countries"
cn_snapshot="select md5(string_agg(concat_ws('|', kind, key, city_id, xmin), ',' order by kind, key, city_id)) from public.city_names"
q_snapshot="select md5(string_agg(concat_ws('|', name, country_id, admin, xmin), ',' order by name, country_id, admin)) from public.city_qualifiers"
cn0=$(sql "$cn_snapshot"); q0=$(sql "$q_snapshot")
read -r wall cpu < <(load_seed "$SEED")
expect "…nor a key of city_names, nor a qualifier (xmin unchanged)" "$cn0|$q0" "select ($cn_snapshot), ($q_snapshot)"

# The country set, read from world.geojson by Python's json (an independent reader).
"$PY" scripts/checks/lib/world_table.py "$WORLD" id name capital continent >"$TMP/world.tsv"
nworld=$(wc -l <"$TMP/world.tsv")
sql "create table world (code text primary key, name text, capital text, continent text)"
"${PG[@]}" -c "\\copy world from '$TMP/world.tsv'"
expect "one country per feature of $WORLD ($nworld)" "$nworld|$nworld" \
  "select count(*), count(*) filter (where w.name = c.name and coalesce(w.capital, '') = coalesce(c.capital, '') and w.continent = c.continent) from public.countries c join world w on w.code = c.country_code"
expect "every country has a population" "0" "select count(*) from public.countries where population is null or population < 0"
expect "every city's country name is its country's" "0" "select count(*) from public.cities ci join public.countries co on co.id = ci.country_id where ci.country <> co.name"
# "São Paulo, São Paulo, Brazil" names the state, which happens to share the city's name; a part
# that repeats the country ("Singapore, Singapore") or three equal parts are what must not occur.
expect "no display name repeats its country" "0" \
  "select count(*) from public.cities where display_name like '%, ' || country || ', %' or display_name = country || ', ' || country"
expect "no display name repeats a part twice" "0" \
  "select count(*) from public.cities where (select count(*) from unnest(string_to_array(display_name, ', ')) p) > (select count(distinct p) from unnest(string_to_array(display_name, ', ')) p) + 1"
expect "display names read 'city, admin, country'" "São Paulo, São Paulo, Brazil|Singapore|Munich, Bavaria, Germany" \
  "select string_agg(display_name, '|' order by array_position(array[3448439, 1880252, $MUNICH]::bigint[], id)) from public.cities where id in (3448439, 1880252, $MUNICH)"
expect "plain names carry no diacritics" "0" "select count(*) from public.cities where normalize(plain_name, NFD) ~ '[\u0300-\u036f]'"
expect "plain name of São Paulo" "Sao Paulo" "select plain_name from public.cities where id = 3448439"

expect "'sao paulo' finds São Paulo first" "São Paulo, São Paulo, Brazil" "select display_name from public.search_cities('sao paulo') limit 1"
expect "'São Paulo' finds São Paulo first" "3448439" "select id from public.search_cities('São Paulo') limit 1"
expect "'new york' finds New York City first" "5128581" "select id from public.search_cities('new york') limit 1"
expect "'munich' finds Munich first" "$MUNICH" "select id from public.search_cities('munich') limit 1"
expect "'münchen' finds Munich first" "$MUNICH" "select id from public.search_cities('münchen') limit 1"
expect "'MÜNCHEN' finds Munich first" "$MUNICH" "select id from public.search_cities('MÜNCHEN') limit 1"
expect "'paris' puts Paris, France before Paris, Texas" "t" \
  "with r as (select id, row_number() over () as k from public.search_cities('paris', 50)) select (select k from r where id = 2988507) < (select k from r where id = 4717560)"
expect "'paris' finds Paris, France first" "2988507" "select id from public.search_cities('paris') limit 1"
expect "a prepared statement with a generic plan (as PostgREST sends) finds Munich" "$MUNICH" \
  "set plan_cache_mode = force_generic_plan; prepare s(text, int) as select id from public.search_cities(\$1, \$2); execute s('münchen', 1)"
expect "an exact other name ranks by population with exact names: 'mexico' finds Mexico City first" "3530597" "select id from public.search_cities('mexico') limit 1"
expect "'peking' finds Beijing first" "1816670" "select id from public.search_cities('peking') limit 1"
expect "n limits the rows" "3" "select count(*) from public.search_cities('san', 3)"
expect "a 2-letter query ranks by population" "5128581" "select id from public.search_cities('ne') limit 1"
expect "punctuation and empty queries are harmless" "0|0" "select (select count(*) from public.search_cities('%')), (select count(*) from public.search_cities(''))"
expect "a quote in a query is harmless" "0" "select count(*) from public.search_cities(\$q\$'); drop table public.cities; --\$q\$)"

# The ranking (issue #33): the probe set, each query's city first.
PROBES=scripts/checks/cities_probes.tsv
grep -v '^#' "$PROBES" >"$TMP/probes.tsv"
sql "create table probe (q text, kind text, id bigint, note text)"
"${PG[@]}" -c "\\copy probe from '$TMP/probes.tsv'"
sql "create table probe_got as select p.*, (select s.id from public.search_cities(p.q, 1) s) as first,
       (select s.display_name from public.search_cities(p.q, 1) s) as first_name from probe p"
nprobes=$(sql "select count(*) from probe")
[ "$nprobes" -ge 200 ] && [ "$(sql "select count(distinct kind) from probe")" -eq 10 ] \
  && ok "$nprobes probe queries of 10 kinds in $PROBES" || bad "$PROBES: $nprobes queries (at least 200 of 10 kinds expected)"
echo "       right first, per kind: $(sql "select string_agg(kind || ' ' || right_ || '/' || total, ', ' order by kind)
  from (select kind, count(*) filter (where first = id) as right_, count(*) as total from probe_got group by kind) k")"
misses=$(sql "select string_agg(format('%L gave %s, not %s', q, coalesce(first_name, 'nothing'), note), '; ' order by kind, q) from probe_got where first is distinct from id")
[ -z "$misses" ] && ok "every probe query gives its city first" || bad "probe queries missed: $misses"
# Issue #40's groups, each passing whole.
for kind in qualified script abbreviation typing; do
  expect "$kind probes: every one gives its city first" "0" "select count(*) from probe_got where kind = '$kind' and first is distinct from id"
done
# Typing: a probe city first at a prefix stays first at every longer one (the probes list
# each prefix from the first that gives it); checked here as a sequence too.
expect "typing sequences: once first, the city stays first at every longer prefix" "0" \
  "select count(*) from probe_got a join probe_got b on b.kind = 'typing' and a.kind = 'typing' and b.id = a.id
     and starts_with(b.q, a.q) and length(b.q) > length(a.q) where a.first = a.id and b.first is distinct from b.id"
expect "a qualifier that names nothing never empties the answer ('paris, zzqx', 'sarajevo, atlantis')" "2988507|3191281" \
  "select (select id from public.search_cities('paris, zzqx', 1)), (select id from public.search_cities('sarajevo, atlantis', 1))"

# Typos by rule: one wrong, missing, extra or swapped letter in the middle of the name of each
# of the 100 most populous cities whose name has 6 letters or more finds it among the first 10
# (unless the typo is itself the name of a city: "zhenzhou" is Zhenzhou, not Zhengzhou).
sql "create table typo as
  with big as (select id, name_key as k, length(name_key) / 2 as m from public.cities
                where retired_at is null and same_as is null and name_key ~ '^[a-z]{6,}\$' order by population desc, id limit 100)
  select id, k, 'wrong' as kind, overlay(k placing case when substr(k, m + 1, 1) = 'x' then 'q' else 'x' end from m + 1 for 1) as q from big
  union all select id, k, 'missing', overlay(k placing '' from m + 1 for 1) from big
  union all select id, k, 'extra', overlay(k placing 'x' from m + 1 for 0) from big
  union all select id, k, 'swapped', overlay(k placing substr(k, m + 1, 1) || substr(k, m, 1) from m for 2) from big where substr(k, m, 1) <> substr(k, m + 1, 1)"
sql "delete from typo where q in (select name_key from public.cities)"
sql "create table typo_got as select t.*, array(select s.id from public.search_cities(t.q, 10) s) as ids from typo t"
expect "one letter wrong, missing, extra or swapped in 100 big cities' names: each found in the first 10" "0" \
  "select count(*) from typo_got where not (id = any(ids))"
echo "       …found first: $(sql "select string_agg(kind || ' ' || f || '/' || n, ', ' order by kind) from
  (select kind, count(*) filter (where ids[1] = id) as f, count(*) as n from typo_got group by kind) k")"
expect "typos are found through a generic plan too (as PostgREST sends)" "3186886" \
  "set plan_cache_mode = force_generic_plan; prepare t(text, int) as select id from public.search_cities(\$1, \$2); execute t('zagerb', 1)"

# Names in other scripts and abbreviations (issue #40): keyed in city_names by the trigger
# with the fold the query goes through; the search functions have a fixed search_path.
expect "names in other scripts and abbreviations are keyed (more than 100,000; NYC, L.A., SF, DC, KL among 40 or more)" "t|t|t" \
  "select count(*) filter (where kind = 's') > 100000, count(*) filter (where kind = 'a') >= 40,
          count(*) filter (where kind = 'a' and key in ('nyc', 'la', 'sf', 'dc', 'kl')) = 5 from public.city_names"
expect "each key is the query's fold of its name (city_fold_script), for 2,000 names" "0" \
  "select count(*) from (select c.id, x from public.cities c, unnest(string_to_array(c.script_names, '|')) x
     where c.script_names is not null order by c.id limit 2000) s
    where not exists (select 1 from public.city_names n where n.kind = 's' and n.city_id = s.id and n.key = public.city_fold_script(s.x))"
expect "no abbreviation is an airport code (LAX, SFO, JFK, MUN)" "0" \
  "select count(*) from public.city_names where kind = 'a' and key in ('lax', 'sfo', 'jfk', 'mun')"
expect "the search's functions have a fixed search_path" "0" \
  "select count(*) from pg_proc p where p.pronamespace = 'public'::regnamespace
      and p.proname in ('search_cities', 'city_fold_script', 'city_names_sync')
      and not exists (select 1 from unnest(p.proconfig) c where c like 'search_path=%')"
expect "qualifiers: countries by code and names, divisions by name and ISO code, territories" "t|t|t|t|t" \
  "select bool_or(key = 'gb'), bool_or(key = 'czech republic'), bool_or(key = 'great britain'), bool_or(key = 'nsw'), bool_or(key = 'south carolina') from public.city_qualifiers"

# Code-like other names are no names; a place listed twice is offered once, both ids kept.
expect "no other name is code-like (all capitals: an airport code, an abbreviation)" "0" \
  "select count(*) from public.cities, unnest(string_to_array(alt_names, '|') || string_to_array(common_names, '|')) a where a !~ '[[:lower:]]'"
expect "places GeoNames lists twice are marked, each pointing at a kept entry of the same name" "t|0" \
  "select count(*) > 0, count(*) filter (where k.id is null or k.same_as is not null or k.name_key <> d.name_key)
     from public.cities d left join public.cities k on k.id = d.same_as where d.same_as is not null"
dup=$(sql "select id || ' ' || same_as from public.cities where same_as is not null order by id limit 1")
read -r DUP KEPT <<<"$dup"
DUPNAME=$(sql "select plain_name from public.cities where id = $DUP")
expect "'$DUPNAME' is offered once: the kept entry $KEPT, not $DUP" "1|0" \
  "select count(*) filter (where id = $KEPT), count(*) filter (where id = $DUP) from public.search_cities('$DUPNAME', 50)"

# Speed of short queries on the full table, timed inside the server (EXPLAIN ANALYZE): each
# query runs once to warm up, then the best of seven runs counts (the machine is shared: the
# best run is the one no other process interrupted); the slowest query must stay under 20 ms.
# best_ms SQL: runs SQL in a session that has pg_temp.best_ms(query) → ms.
best_ms() { sql "create or replace function pg_temp.best_ms(q text) returns numeric language plpgsql as \$\$
declare j json; best numeric; t numeric;
begin
  perform count(*) from public.search_cities(q, 10);
  for i in 1..7 loop
    execute 'explain (analyze, format json) select * from public.search_cities(\$1, 10)' into j using q;
    t := (j->0->>'Execution Time')::numeric;
    best := least(best, t);
  end loop;
  return best;
end \$\$; $1"; }
read -r slowest worst < <(best_ms "select q, pg_temp.best_ms(q) from unnest(array['pa','sa','ne','mo','be','ka','lo','ch']) q order by 2 desc limit 1" | tr '|' ' ')
"$PY" -c "import sys; sys.exit(0 if $worst < 20 else 1)" && ok "2-letter queries answer in under 20 ms (slowest '$slowest' $worst ms, best of 7)" \
  || bad "2-letter query '$slowest' took $worst ms (limit 20, best of 7)"
t=$(best_ms "select pg_temp.best_ms('york')")
"$PY" -c "import sys; sys.exit(0 if $t < 20 else 1)" && ok "'york' answers in $t ms" || bad "'york' took $t ms (limit 20)"
echo "  info a 1-letter query ('a', the most rows) takes $(best_ms "select pg_temp.best_ms('a')") ms"

# Row-level security: the client roles read, and write nothing.
for role in anon authenticated; do
  expect "$role reads cities" "$cities" "set role $role; select count(*) from public.cities"
  expect "$role searches" "$MUNICH" "set role $role; select id from public.search_cities('munich') limit 1"
  expect "$role searches with a typo (city_near)" "$MUNICH" "set role $role; select id from public.search_cities('munihc') limit 1"
  for stmt in "insert into public.cities (id, display_name, plain_name, country, country_id, latitude, longitude) select 1, 'x', 'x', 'x', id, 0, 0 from public.countries limit 1" \
              "update public.cities set population = 0" "delete from public.cities" "delete from public.countries"; do
    got=$(sql "set role $role; $stmt" 2>&1 || true)
    case "$got" in *"permission denied"*) ok "$role cannot: ${stmt:0:30}…";; *) bad "$role could: $stmt ($got)";; esac
  done
done
expect "nothing was written by the client roles" "$c_before" "$snapshot public.cities"
for role in anon authenticated; do
  got=$(sql "set role $role; insert into public.user_city (user_id, city_id) values ('00000000-0000-0000-0000-000000000002', $MUNICH)" 2>&1 || true)
  case "$got" in *"permission denied"*|*"row-level security"*) ok "$role cannot write user_city rows the migration's table has no policy for";;
    *) bad "$role could write user_city ($got)";; esac
done
expect "user_city made by the migration has row-level security" "t" "select relrowsecurity from pg_class where oid = 'public.user_city'::regclass"

# A city that leaves the source while a user references it.
without() {  # without ID: the seed with the row of that id (city or country) and its id in the id lists removed
  "$PY" scripts/checks/lib/cities_seed_without.py "$SEED" "$1"
}
sql "insert into public.user_city (user_id, city_id, visited, rating, notes) values ('00000000-0000-0000-0000-000000000001', $MUNICH, true, 4.5, 'beer')"
sql "insert into public.user_city (user_id, city_id) values ('00000000-0000-0000-0000-000000000003', $DUP)"
without "$MUNICH" >"$TMP/seed_without.sql"
[ "$(wc -c <"$TMP/seed_without.sql")" -lt "$(wc -c <"$SEED")" ] || bad "could not remove Munich from the seed"
others="select md5(string_agg(concat_ws(':', id, xmin), ',' order by id)) from public.cities where id <> $MUNICH"
others_before=$(sql "$others")
"${PG[@]}" -f "$TMP/seed_without.sql"
expect "a referenced city that left the source is kept and marked" "1|t" "select count(*), bool_and(retired_at is not null) from public.cities where id = $MUNICH"
expect "…and its user_city row still points at it" "1" "select count(*) from public.user_city u join public.cities c on c.id = u.city_id where c.id = $MUNICH"
expect "…and the search no longer offers it" "0" "select count(*) from public.search_cities('munich', 50) where id = $MUNICH"
expect "…and no other city was rewritten (xmin unchanged)" "$others_before" "$others"
"${PG[@]}" -f "$TMP/seed_without.sql"
expect "reloading the reduced seed keeps the mark" "1" "select count(*) from public.cities where id = $MUNICH and retired_at is not null"
expect "a referenced city cannot be deleted" "23503" \
  "do \$\$ begin delete from public.cities where id = $MUNICH; raise exception 'deleted'; exception when foreign_key_violation then null; end \$\$; select '23503'"
# A country that leaves the app's set: kept (its cities point at it) and marked, then back.
GERMANY=$(sql "select id from public.countries where country_code = 'DE'")
without "$GERMANY" >"$TMP/seed_without_de.sql"
"${PG[@]}" -f "$TMP/seed_without_de.sql"
expect "a country that left the set is kept and marked, its cities kept" "f|t" \
  "select in_source, (select count(*) > 100 from public.cities where country_id = $GERMANY) from public.countries where id = $GERMANY"
"${PG[@]}" -f "$SEED"
expect "…and back in the set, unmarked" "t" "select in_source from public.countries where id = $GERMANY"
expect "back in the source: unmarked, found again" "$MUNICH" "select id from public.search_cities('munich') limit 1 "
expect "…same id, same user row" "1" "select count(*) from public.user_city where city_id = $MUNICH"
expect "a user row on the entry of a place listed twice that the search does not offer keeps its city" "1|1" \
  "select count(*), count(c.id) from public.user_city u left join public.cities c on c.id = u.city_id where u.city_id = $DUP"

# Hostile names through the real stage: quotes must be escaped, not rejected.
if [ -x "$BIN/geo-cities" ]; then
  "$PY" scripts/checks/lib/cities_hostile_names.py data/geonames/cities15000.tsv "$TMP/evil.tsv"
  "$BIN/geo-cities" --cities "$TMP/evil.tsv" --world "$WORLD" --out-dir "$TMP/evil" --report "$TMP/evil-report.tsv" -q
  "${PG[@]}" -f "$TMP/evil/seed.sql"
  expect "a name with quotes and backslashes is stored unchanged" "Mu'nich\\'); drop table public.cities; -- \"quoted\"" \
    "select split_part(display_name, ', ', 1) from public.cities where id = $MUNICH"
  expect "…and every table is intact" "$cities" "select count(*) from public.cities"
else
  bad "$BIN/geo-cities is missing; cannot run the hostile-name check"
fi

[ $fail -eq 0 ] && echo "check_cities: all checks passed" || echo "check_cities: FAILED"
exit $fail
