#!/usr/bin/env bash
# Supabase's Security Advisor, plpgsql_check and squawk on the three apps' migrations (issue 37
# part 4), with REAL PostgreSQL 15 + PostGIS on a throwaway unix-socket server:
#   - a database set up as a Supabase project (scripts/checks/supabase_like.sql: the API's roles,
#     auth.uid(), extensions in `extensions`, Supabase's default privileges, pgrst.db_schemas);
#   - every app's migrations applied there, in name order, twice: the quiz (the app's own table
#     first, scripts/checks/daily_challenges_app.sql, then dist/supabase/migrations), the cities
#     (dist/supabase/cities/migrations), the game (its tables, scripts/checks/territory_schema.sql,
#     then dist/supabase/game/migrations); and again in a plain database with every extension in
#     public (the checks' other servers, a self-hosted PostgreSQL);
#   - the Advisor's rules (scripts/checks/advisor_lints.sql, our own queries named as Supabase
#     names them); plpgsql_check on every PL/pgSQL function (triggers with their table and
#     transition tables); squawk on every migration file;
#   - fails on any ERROR, and on any other finding that docs/SUPABASE.md ("What the advisor
#     check accepts") does not name with why it stays. An accepted finding no longer found is
#     reported (the table should shrink with it), not failed.
# ADVISOR_MIGRATIONS=DIR reads DIR/{migrations,cities/migrations,game/migrations} instead of dist/supabase.
set -euo pipefail
cd "$(dirname "$0")/../.."

PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
ROOT=${ADVISOR_MIGRATIONS:-dist/supabase}
QUIZ=("$ROOT"/migrations/*.sql); CITIES=("$ROOT"/cities/migrations/*.sql); GAME=("$ROOT"/game/migrations/*.sql)
source scripts/checks/lib/pg.sh
needs check_advisor "run make challenges cities territory" "${QUIZ[0]}" "${CITIES[0]}" "${GAME[0]}"
if [ ! -x "$PGBIN/postgres" ] || [ ! -f /usr/share/postgresql/15/extension/postgis.control ] \
   || [ ! -f /usr/share/postgresql/15/extension/plpgsql_check.control ] || ! command -v squawk >/dev/null; then
  bash scripts/setup.sh --test
fi

pg_start check_advisor C timezone=UTC
fail=0

# apply DB FILE…: each file with psql, stopping at the first error (shown).
apply() {
  local db=$1 f; shift
  for f in "$@"; do
    "${PSQL[@]}" -d "$db" -f "$f" >"$TMP/apply.log" 2>&1 || { echo "  FAIL $(basename "$f") on $db:"; sed 's/^/       /' "$TMP/apply.log" | head -20; exit 1; }
  done
}
apps() {  # apps DB: the three apps' migrations, after each app's own tables
  apply "$1" "${QUIZ[@]}" "${CITIES[@]}" "${GAME[@]}"
}

# The Supabase-like database, and a plain one (every extension in public, auth.uid() stand-in).
sql postgres "create database supa" >/dev/null
apply supa scripts/checks/supabase_like.sql scripts/checks/daily_challenges_app.sql scripts/checks/territory_schema.sql
apps supa
snap="select md5(string_agg(x, ',' order by x)) from (select concat_ws('|', table_schema, table_name, column_name, data_type) x from information_schema.columns where table_schema not in ('pg_catalog', 'information_schema')) s
  union all select md5(string_agg(x, ',' order by x)) from (select concat_ws('|', schemaname, tablename, policyname, cmd, roles::text, qual, with_check) x from pg_policies) s
  union all select md5(string_agg(x, ',' order by x)) from (select concat_ws('|', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), p.proconfig::text, p.prosecdef, array(select a::text from unnest(p.proacl) a order by 1)::text) x from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema')) s
  union all select md5(string_agg(x, ',' order by x)) from (select concat_ws('|', c.relname, array(select a::text from unnest(c.relacl) a order by 1)::text, c.relrowsecurity, c.reloptions::text) x from pg_class c where c.relnamespace = 'public'::regnamespace) s
  union all select md5(string_agg(x, ',' order by x)) from (select concat_ws('|', e.extname, e.extnamespace::regnamespace) x from pg_extension e) s"
once=$(sql supa "$snap")
apps supa
expect supa "Supabase-like database: the three apps' migrations applied twice = once" "$once" "$snap"

sql postgres "create database plain" >/dev/null
"${PSQL[@]}" -d postgres -c "do \$\$ begin if not exists (select from pg_roles where rolname = 'anon') then create role anon nologin; end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then create role authenticated nologin; end if;
  if not exists (select from pg_roles where rolname = 'service_role') then create role service_role nologin bypassrls; end if; end \$\$" >/dev/null
apply plain scripts/checks/daily_challenges_app.sql scripts/checks/territory_schema.sql scripts/checks/supabase_auth.sql
apps plain; once=$(sql plain "$snap"); apps plain
expect plain "plain database (extensions in public): applied twice = once" "$once" "$snap"
expect plain "plain database: postgis in public; btree_gist, pg_trgm, unaccent in extensions (the schema the cities' migration makes)" "btree_gist:extensions|pg_trgm:extensions|postgis:public|unaccent:extensions" \
  "select string_agg(extname || ':' || extnamespace::regnamespace, '|' order by extname) from pg_extension where extname in ('postgis', 'pg_trgm', 'unaccent', 'btree_gist')"
expect supa "Supabase-like database: postgis, pg_trgm, unaccent, btree_gist in extensions" "btree_gist|pg_trgm|postgis|unaccent" \
  "select string_agg(extname, '|' order by extname) from pg_extension where extname in ('postgis', 'pg_trgm', 'unaccent', 'btree_gist') and extnamespace = 'extensions'::regnamespace"

# Privacy (CONTRACTS §8c, issue 38 part 6), per client role under Supabase's default privileges:
# runner A's run (a distinctive path, start 05:17:43, end 05:49:19, submitted 05:51:07 UTC) and
# three cells it claimed; then, as anon, as A and as another runner B, every column of every table
# and view the role may read in any schema it may use, and what the client functions return, are
# searched for the run's geometry (its coordinates as text and as the bytes of a WKB double) and
# its times of day.
A=aaaaaaaa-0000-4000-8000-000000000001; B=bbbbbbbb-0000-4000-8000-000000000002; RUN=cccccccc-0000-4000-8000-000000000003
mapfile -t CELLS < <(${PYTHON:-python3} -c 'import h3
for c in sorted(h3.grid_disk(h3.latlng_to_cell(52.5166661, 13.3777771, 9), 1))[:3]:
    r = [(x, y) for y, x in h3.cell_to_boundary(c)]; r.append(r[0])
    print(c + " SRID=4326;POLYGON((" + ",".join(f"{x} {y}" for x, y in r) + "))")')
[ ${#CELLS[@]} -eq 3 ] || { echo "  FAIL h3-py made no cells"; exit 1; }
LOOP="SRID=4326;LINESTRING(13.3777771 52.5166661,13.3901234 52.5166661,13.3901234 52.5234567,13.3777771 52.5234567,13.3777771 52.5166661)"
"${PSQL[@]}" -d supa >/dev/null <<SQL
set timezone = 'UTC';
insert into public.users (id, username) values ('$A', 'runner-a'), ('$B', 'runner-b');
insert into public.runs (id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop, path, loop_polygon, created_at, judged_at, submission)
values ('$RUN', '$A', '2026-11-21 05:17:43.25+00', '2026-11-21 05:49:19.75+00', 4321.5, 1896.5, true, '$LOOP',
        extensions.st_makepolygon('$LOOP'), '2026-11-21 05:51:07+00', '2026-11-21 05:51:08+00',
        '{"type": "Feature", "id": "$RUN", "geometry": {"type": "LineString", "coordinates": [[13.3777771, 52.5166661]]},
          "properties": {"user_id": "$A", "times": ["2026-11-21T05:17:43.25Z"], "accuracy_m": [4]}}');
insert into public.territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell) values
  $(for c in "${CELLS[@]}"; do printf "('%s', '%s', '%s', '2026-11-21 05:49:19.75+00', '%s')," "${c%% *}" "$A" "$RUN" "${c#* }"; done | sed 's/,$//');
-- The scan: every row of every relation the caller may read (the columns it may read), as text.
create schema check_privacy;
grant usage on schema check_privacy to anon, authenticated;
create function check_privacy.readable() returns table (rel text, line text) language plpgsql as \$f\$
declare r record; cols text;
begin
  for r in select c.oid, format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where c.relkind in ('r', 'v', 'm', 'p', 'f') and n.nspname not in ('pg_catalog', 'information_schema', 'check_privacy')
              and has_schema_privilege(n.oid, 'usage') order by 2 loop
    select string_agg(format('%I', a.attname), ', ' order by a.attnum) into cols from pg_attribute a
     where a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped and has_column_privilege(r.oid, a.attnum, 'select');
    continue when cols is null;
    return query execute format('select %L, t::text from (select %s from %s) t', r.name, cols, r.name);
  end loop;
end \$f\$;
grant execute on function check_privacy.readable() to anon, authenticated;
SQL
# as ROLE [SUB] QUERY: the query as a client role (PostgREST's way: set role, the JWT's claims).
as() {
  local role=$1 claims="{\"role\": \"$1\"}"; [ "$2" = - ] || claims="{\"sub\": \"$2\", \"role\": \"$1\"}"; shift 2
  { "${PSQL[@]}" -d supa -At -F '|' -c "set timezone = 'UTC'; set role $role; select set_config('request.jwt.claims', '$claims', false)" -c "$*" 2>&1 || true; } | sed 1d
}
# A's run as it could show: its coordinates as text, or as the bytes of a double in (E)WKB, either order.
WKB=$(${PYTHON:-python3} -c 'import struct
print("|".join(struct.pack(o, v).hex() for v in (13.3777771, 52.5166661, 13.3901234, 52.5234567) for o in ("<d", ">d")))')
leaks() {  # leaks FILE: the lines holding A's run's geometry or times of day
  grep -E -i "13\.3777771|52\.5166661|13\.3901234|52\.5234567|$WKB|05:17|05:49|05:51" "$1" || true
}
for who in "anon -" "authenticated $B"; do
  set -- $who; label=$([ "$1" = anon ] && echo anon || echo "authenticated as another runner (B)")
  as "$1" "$2" "select rel, line from check_privacy.readable()" >"$TMP/read.txt"
  as "$1" "$2" "select * from public.territory_in_viewport(-180, -90, 180, 90, 5000)" >>"$TMP/read.txt"
  as "$1" "$2" "select * from public.territory_hex_sheet('${CELLS[0]%% *}')" >>"$TMP/read.txt"
  if [ "$(sql supa "select to_regproc('public.territory_cells_in_viewport') is not null")" = t ]; then
    as "$1" "$2" "select * from public.territory_cells_in_viewport(-180, -90, 180, 90, 5000)" >>"$TMP/read.txt"
    as "$1" "$2" "select * from public.territory_cells_in_viewport(13.3, 52.4, 13.5, 52.6, 5000)" >>"$TMP/read.txt"
  fi
  found=$(leaks "$TMP/read.txt")
  if [ -z "$found" ]; then echo "  ok   $label: no geometry and no time of day of A's run in any table, view or client function it can read"
  else echo "  FAIL $label reads A's run's geometry or time of day:"; echo "$found" | head -5 | cut -c1-240 | sed 's/^/       /'; fail=1; fi
done
expect supa "anon: reads nothing of the game (users, runs, my_runs, territory_hex, territory_zoom, runner stats, hex sheet)" "0" \
  "select count(*) from unnest(array['public.users', 'public.runs', 'public.my_runs', 'public.territory_hex', 'public.territory_zoom', 'public.territory_runner_stats', 'public.territory_runner_totals']) r
    where has_table_privilege('anon', r, 'select') or exists (select from pg_attribute a where a.attrelid = r::regclass and a.attnum > 0 and has_column_privilege('anon', r, a.attname, 'select'))
       or has_function_privilege('anon', 'public.territory_hex_sheet(text)', 'execute') or has_function_privilege('anon', 'public.territory_in_viewport(float8, float8, float8, float8, integer)', 'execute')"
got=$(as authenticated "$B" "select hex_id, owner_username, claimed_on, run_distance_m, round(run_area_km2::numeric, 6) from public.territory_hex_sheet('${CELLS[0]%% *}')")
want="${CELLS[0]%% *}|runner-a|2026-11-21|4321.5|$(sql supa "select round((extensions.st_area(loop_polygon::extensions.geography) / 1e6)::numeric, 6) from public.runs where id = '$RUN'")"
[ "$got" = "$want" ] && echo "  ok   B reads A's cell's hex sheet: owner's username, claim date, run distance, area ($got)" || { echo "  FAIL B's hex sheet: expected $want, got $got"; fail=1; }
got=$(as authenticated "$B" "select count(*) from public.territory_hex")"|"$(as authenticated "$B" "select count(*), string_agg(distinct to_char(claimed_at, 'YYYY-MM-DD HH24:MI:SS'), ',') from public.territory_in_viewport(13.3, 52.4, 13.5, 52.6, 5000)")
[ "$got" = "3|3|2026-11-21 00:00:00" ] && echo "  ok   B reads the claimed cells (3 in territory_hex; territory_in_viewport: 3, claimed on the day, 00:00 UTC)" || { echo "  FAIL B's cells (territory_hex | territory_in_viewport: cells, claimed_at): $got"; fail=1; }
got=$(as authenticated "$B" "select count(*) from public.runs")"|"$(as authenticated "$B" "select count(*) from public.my_runs")
[ "$got" = "0|0" ] && echo "  ok   B reads none of A's runs (runs, my_runs)" || { echo "  FAIL B reads A's runs: $got"; fail=1; }
got=$(as authenticated "$A" "select id, to_char(started_at, 'HH24:MI:SS'), to_char(ended_at, 'HH24:MI:SS'), path is not null, loop_polygon is not null, submission is not null from public.my_runs")
[ "$got" = "$RUN|05:17:43|05:49:19|t|t|t" ] && echo "  ok   A reads their own run whole through my_runs (times, path, loop, submission)" || { echo "  FAIL A's my_runs: $got"; fail=1; }
got=$(as authenticated "$A" "select count(*) from public.runs where path is not null")
[ "$got" = 1 ] && echo "  ok   A reads their own run in runs" || { echo "  FAIL A's runs: $got"; fail=1; }
# users: signed-in runners read profiles, write only their own; daily_challenges: clients only read.
got=$(as authenticated "$B" "with u as (update public.users set username = 'renamed-a' where id = '$A' returning 1) select count(*) from u")"|"$(as authenticated "$B" "with u as (update public.users set username = 'runner-b2' where id = '$B' returning 1) select count(*) from u")
[ "$got" = "0|1" ] && echo "  ok   users: B renames their own profile, not A's" || { echo "  FAIL users updates: $got"; fail=1; }
got=$(as authenticated "$B" "insert into public.users (id, username) values ('$RUN', 'someone-else')")
case "$got" in *"row-level security"*) echo "  ok   users: B cannot make a profile for another id";; *) echo "  FAIL users: B made another's profile: $got"; fail=1;; esac
got=$(as anon - "select count(*) from public.users")
case "$got" in *"permission denied"*) echo "  ok   users: anon reads none";; *) echo "  FAIL users: anon reads $got"; fail=1;; esac
"${PSQL[@]}" -d supa -c "insert into public.daily_challenges (date, is_guess_flag, answer) values ('2026-11-21', true, 'FR')" >/dev/null
got=$(as anon - "select answer from public.daily_challenges")"|"$(as authenticated "$B" "select answer from public.daily_challenges")
[ "$got" = "FR|FR" ] && echo "  ok   daily_challenges: anon and authenticated read the quiz" || { echo "  FAIL daily_challenges reads: $got"; fail=1; }
for who in "anon -" "authenticated $B"; do
  set -- $who
  got=$(as "$1" "$2" "update public.daily_challenges set answer = 'DE'")"|"$(as "$1" "$2" "insert into public.daily_challenges (date, is_guess_flag, answer) values ('2026-11-22', true, 'DE')")"|"$(as "$1" "$2" "delete from public.daily_challenges")
  case "$got" in *"UPDATE 1"*|*"INSERT 0 1"*|*"DELETE 1"*) echo "  FAIL daily_challenges: $1 writes: $got"; fail=1;; *) echo "  ok   daily_challenges: $1 cannot write (update, insert, delete)";; esac
done

sql supa "drop schema check_privacy cascade" >/dev/null

# Runner stats kept by the writers = recomputed from the tables, after each kind of write, in the
# plain database (PostGIS in public): new runs and cells, a judged run, a steal, a boundary filled,
# a delete, an upsert, a truncate; and territory_runner_totals_rebuild() then changes nothing.
recount="select coalesce(string_agg(concat_ws(',', s.user_id, s.runs, s.valid_runs, round(s.km_run::numeric, 9), s.cells, round(s.km2_owned::numeric, 9)), ' ' order by s.user_id), '')
  || ' = ' || coalesce((select string_agg(concat_ws(',', u.id, coalesce(r.n, 0), coalesce(r.v, 0), round(coalesce(r.km, 0)::numeric, 9), coalesce(h.c, 0), round(coalesce(h.a, 0)::numeric, 9)), ' ' order by u.id)
     from users u left join (select user_id, count(*) n, count(*) filter (where valid_loop) v, sum(distance_m) / 1000 km from runs group by 1) r on r.user_id = u.id
     left join (select owner_user_id, count(*) c, sum(st_area(cell::geography)) / 1e6 a from territory_hex group by 1) h on h.owner_user_id = u.id), '')
  from territory_runner_stats s"
stats_step() {  # stats_step LABEL SQL
  sql plain "$2" >/dev/null
  local got; got=$(sql plain "$recount")
  if [ "${got% = *}" = "${got#* = }" ]; then echo "  ok   runner stats after $1 = recomputed"; else echo "  FAIL runner stats after $1: kept ${got% = *}, recomputed ${got#* = }"; fail=1; fi
}
stats_step "two runners and a run" "insert into users (id, username) values ('$A', 'runner-a'), ('$B', 'runner-b');
  insert into runs (id, user_id, started_at, ended_at, distance_m, valid_loop) values ('$RUN', '$A', now(), now(), 4321.5, false)"
stats_step "three cells claimed (one without a boundary yet)" "insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell) values
  $(for c in "${CELLS[@]:0:2}"; do printf "('%s', '%s', '%s', now(), '%s')," "${c%% *}" "$A" "$RUN" "${c#* }"; done) ('${CELLS[2]%% *}', '$A', '$RUN', now(), null)"
stats_step "the run judged valid, its distance changed" "update runs set valid_loop = true, distance_m = 4400.25 where id = '$RUN'"
stats_step "a boundary filled" "update territory_hex set cell = '${CELLS[2]#* }' where hex_id = '${CELLS[2]%% *}'"
stats_step "a cell stolen by B and another run of B's" "insert into runs (id, user_id, started_at, ended_at, distance_m, valid_loop) values ('$B', '$B', now(), now(), 100, true);
  update territory_hex set owner_user_id = '$B', last_run_id = '$B' where hex_id = '${CELLS[0]%% *}'"
stats_step "an upsert (one new cell, one stolen back, one unchanged)" "insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell) values
  ('${CELLS[0]%% *}', '$A', '$RUN', now(), '${CELLS[0]#* }'), ('${CELLS[1]%% *}', '$A', '$RUN', now(), '${CELLS[1]#* }'), ('8928308280fffff', '$B', '$B', now(), null)
  on conflict (hex_id) do update set owner_user_id = excluded.owner_user_id, last_run_id = excluded.last_run_id, claimed_at = excluded.claimed_at"
stats_step "a cell deleted and a run deleted" "delete from territory_hex where hex_id = '8928308280fffff'; delete from runs where id = '$B'"
stats_step "territory_hex truncated" "truncate territory_hex"
stats_step "runs truncated" "truncate runs cascade"
expect plain "territory_runner_totals_rebuild() after the writes: nothing to change" "0" "select territory_runner_totals_rebuild()"
# A runner's next run is stored while a judging transaction (a follower's batch: A's run judged, a
# cell claimed for A) holds A's judged figures until it commits: the insert must not wait for it.
sql plain "insert into runs (id, user_id, started_at, ended_at) values ('$RUN', '$A', now(), now())" >/dev/null
"${PSQL[@]}" -d plain -c "begin" -c "update runs set valid_loop = true, distance_m = 5000 where id = '$RUN'" \
  -c "insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell) values ('${CELLS[0]%% *}', '$A', '$RUN', now(), '${CELLS[0]#* }')" \
  -c "select pg_sleep(6)" -c "commit" >/dev/null 2>"$TMP/judging.err" &
judging=$!
holding() { [ "$(sql plain "select count(*) from pg_stat_activity where query = 'select pg_sleep(6)'")" = 1 ]; }
for i in $(seq 50); do holding && break; sleep 0.1; done
holding || { echo "  FAIL the judging transaction did not start within 5 s"; fail=1; }
got=$("${PSQL[@]}" -d plain -At -c "set lock_timeout = '2s'" -c "insert into runs (id, user_id, started_at, ended_at) values ('$B', '$A', now(), now()) returning 'stored'" 2>&1 | tail -1 || true)
wait $judging || { echo "  FAIL the judging transaction: $(cat "$TMP/judging.err")"; fail=1; }
if [ "$got" = stored ]; then echo "  ok   a runner's run stored while a judging transaction holds their judged figures (no wait)"
else echo "  FAIL storing a run waited for a judging transaction of the same runner: $got"; fail=1; fi
stats_step "a run stored beside a judging" "select 1"
# A function a client calls with its caller's rights reads no more than the tables and views above;
# one with its owner's rights (security definer) may read anything, so each is named here, with what
# it returns, and the calls above search what it gives.
REVIEWED="public.submit_run(jsonb): the caller's run id
public.territory_hex_sheet(text): the hex sheet (searched above)
public.territory_in_viewport(double precision, double precision, double precision, double precision, integer): the cells, claimed_at the UTC day (searched above)
public.territory_cells_in_viewport(double precision, double precision, double precision, double precision, integer, bigint): the cells' ids and counts by owner, no time (searched above)"
while IFS='|' read -r role fn; do
  if printf '%s\n' "$REVIEWED" | grep -qF "$fn:"; then echo "  ok   $role may call $fn, security definer: $(printf '%s\n' "$REVIEWED" | grep -F "$fn:" | sed 's/^[^:]*: //')"
  else echo "  FAIL $role may call $fn, a security definer function check_advisor.sh has not reviewed (what does it return to whom?)"; fail=1; fi
done < <(sql supa "select r, format('%I.%I(%s)', n.nspname, p.proname, oidvectortypes(p.proargtypes)) from pg_proc p join pg_namespace n on n.oid = p.pronamespace, unnest(array['anon', 'authenticated']) r
                    where p.prosecdef and has_function_privilege(r, p.oid, 'execute') and n.nspname not in ('pg_catalog', 'information_schema', 'auth', 'extensions')
                      and not exists (select from pg_depend d where d.objid = p.oid and d.deptype = 'e') order by 1, 2")

# Findings, one per line: tool<TAB>level<TAB>rule<TAB>object<TAB>detail.
: >"$TMP/findings.tsv"
"${PSQL[@]}" -d supa -At -F $'\t' -f scripts/checks/advisor_lints.sql | sed 's/^/advisor\t/' >>"$TMP/findings.tsv"

# plpgsql_check: every PL/pgSQL function outside the extensions; a trigger function with the
# table of its trigger and that trigger's transition tables (the one naming the most).
"${PSQL[@]}" -d supa -c "create extension if not exists plpgsql_check with schema extensions" >/dev/null
"${PSQL[@]}" -d supa -At -F $'\t' >>"$TMP/findings.tsv" <<'SQL'
select 'plpgsql_check', case when (c).level like 'error%' then 'ERROR' else 'WARN' end,
       coalesce((c).sqlstate, '') || ' ' || (c).message, f.fn::text, coalesce('line ' || (c).lineno, '') || coalesce(': ' || (c).detail, '')
  from (select p.oid, p.oid::regprocedure as fn, t.tgrelid, t.tgnewtable, t.tgoldtable
          from pg_proc p join pg_language l on l.oid = p.prolang join pg_namespace n on n.oid = p.pronamespace
          left join lateral (select * from pg_trigger t where t.tgfoid = p.oid and not t.tgisinternal
                              order by (t.tgnewtable is not null)::int + (t.tgoldtable is not null)::int desc limit 1) t on true
         where l.lanname = 'plpgsql' and n.nspname not in ('pg_catalog', 'information_schema', 'extensions', 'auth')
           and not exists (select from pg_depend d where d.objid = p.oid and d.deptype = 'e')) f,
       lateral extensions.plpgsql_check_function_tb(f.oid, coalesce(f.tgrelid, 0), fatal_errors => false, other_warnings => true,
                 extra_warnings => true, performance_warnings => false, newtable => f.tgnewtable, oldtable => f.tgoldtable) c
 order by 4, 3;
SQL

# squawk: every migration file (a file without its own transaction is run in one by the Supabase
# CLI and by the night: --assume-in-transaction).
for f in "${QUIZ[@]}" "${CITIES[@]}" "${GAME[@]}"; do
  flags=(--pg-version 15 --reporter gcc)
  grep -qi '^begin;' "$f" || flags+=(--assume-in-transaction)
  squawk "${flags[@]}" "$f" 2>/dev/null | sed -n 's/^[^:]*:\([0-9]*\):[0-9]*: \([a-z]*\): \([^ ]*\) \(.*\)$/squawk\tWARN\t\3\t'"$(basename "$f")"'\tline \1: \4/p' >>"$TMP/findings.tsv" || true
done

# What docs/SUPABASE.md accepts: the rows of its table "What the advisor check accepts"
# (| tool | rule | object | why it stays |; a * in object stands for any text).
awk '/^### What the advisor check accepts/ {on = 1; next} on && /^#/ {on = 0} on && /^\| *(advisor|plpgsql_check|squawk) *\|/' docs/SUPABASE.md \
  | awk -F'|' '{for (i = 2; i <= 5; i++) gsub(/^ +| +$|`/, "", $i); print $2 "\t" $3 "\t" $4 "\t" $5}' >"$TMP/accepted.tsv"

echo "-- findings (tool, level, rule, object)"
errors=0; warnings=0; accepted=0; unexplained=0
declare -A used=()
while IFS=$'\t' read -r tool level rule object detail; do
  ok=""; n=0
  while IFS=$'\t' read -r atool arule aobject why; do
    n=$((n + 1))
    [ "$atool" = "$tool" ] && [ "$arule" = "$rule" ] || continue
    pat=${aobject//[/\\[}; pat=${pat//]/\\]}; pat=${pat//\?/\\?}
    # shellcheck disable=SC2053
    if [ "$aobject" = "$object" ] || [[ "$object" == $pat ]]; then ok=$n; break; fi
  done <"$TMP/accepted.tsv"
  if [ "$level" = ERROR ]; then
    errors=$((errors + 1)); echo "  FAIL $tool $level $rule $object ($detail)"; fail=1
  elif [ -n "$ok" ]; then
    warnings=$((warnings + 1)); accepted=$((accepted + 1)); used[$ok]=1; echo "  ok   $tool $level $rule $object (accepted in docs/SUPABASE.md)"
  else
    warnings=$((warnings + 1)); unexplained=$((unexplained + 1)); echo "  FAIL $tool $level $rule $object ($detail): not accepted in docs/SUPABASE.md"; fail=1
  fi
done <"$TMP/findings.tsv"
n=0
while IFS=$'\t' read -r atool arule aobject why; do
  n=$((n + 1)); [ -n "${used[$n]:-}" ] || echo "  note $atool $arule $aobject is accepted in docs/SUPABASE.md but no longer found"
done <"$TMP/accepted.tsv"
for t in advisor plpgsql_check squawk; do
  echo "  $t: $(awk -F'\t' -v t=$t '$1 == t && $2 == "ERROR"' "$TMP/findings.tsv" | wc -l) errors, $(awk -F'\t' -v t=$t '$1 == t && $2 != "ERROR"' "$TMP/findings.tsv" | wc -l) warnings"
done
echo "  $errors errors, $warnings warnings ($accepted accepted, $unexplained unexplained)"

[ $fail -eq 0 ] && echo "check_advisor: passed" || { echo "check_advisor: FAILED"; exit 1; }
