-- Runs submitted from the phone (CONTRACTS §8b), written by geo-territory. Safe to apply twice.
-- Needs the game's tables (CONTRACTS §8), PostGIS, the territory_viewport migration before it,
-- and Supabase's auth.uid() (on plain PostgreSQL: scripts/checks/supabase_auth.sql).
--
-- submit_run(run jsonb) returns uuid, for `authenticated` (supabase.rpc("submit_run", {run})):
--   run      one Feature of CONTRACTS §8, its id a uuid made on the phone; properties.user_id may
--            be left out (the runner is auth.uid()); at most 20,000 fixes, 24 h, times never
--            going backwards, and 4,000,000 bytes as JSON text (a run of 20,000 fixes with its
--            times and accuracies takes about 1.1 MB; the body is stored whole).
--   returns  the run's id, once the run is stored pending: a runs row with judged_at null, its
--            Feature (id and user_id filled in) in `submission`, `path` from its coordinates,
--            started_at/ended_at its first/last time, created_at the submission's time; then
--            pg_notify('territory_runs', id). The same id and body again returns the id and
--            stores nothing.
--   refuses  (nothing stored; the message names the field) with SQLSTATE
--            22023 a run the night would quarantine, in the night's words (rejects.tsv), or over
--                  the limits above;
--            42501 no signed-in runner, or properties.user_id other than auth.uid();
--            23503 a runner without a users row (the app makes the profile first);
--            23505 the id already stored with another body.
-- A well-formed run the rules judge invalid (too short, not closed…) is stored and judged later.
--
-- Row-level security: authenticated reads every run's figures (runs_read; not path, not
-- submission), and its own runs whole, pending ones included, through the view my_runs; anon
-- reads and calls nothing here. Only submit_run and the service role write runs.
begin;
do $$ begin perform pg_advisory_xact_lock(hashtext('game migration submit_run')); end $$;

-- Pending runs. judged_at: null until the night or a follower has judged the run; the runs
-- stored before this migration were judged by the night that loaded them (the column's value
-- for them is the time it was added: a constant default is not written into the rows).
alter table runs add column if not exists submission jsonb;
alter table runs add column if not exists judged_at timestamptz default now();
alter table runs alter column judged_at drop default;
create index if not exists idx_runs_pending on runs (created_at, id) where judged_at is null;
-- A submission is stored compressed with lz4 where the server has it (pglz takes about three
-- times as long on a run's fixes).
do $$ begin
  if exists (select from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)) then
    alter table runs alter column submission set compression lz4;
  end if;
end $$;

-- A JSON value read as the night's reader reads a number: null when it is one it takes, else
-- what is wrong with it, in the night's words.
create or replace function submit_run_number(v jsonb) returns text
  language sql immutable parallel safe as $f$
  select case jsonb_typeof(v)
    when 'number' then case when abs(v::numeric) >= 1.797693134862315807937289714053e308 then 'is out of range, not a finite number' end
    when 'null' then 'is null, not a number'
    when 'string' then 'is a string, not a number'
    else 'is not a number' end
$f$;

-- A JSON number as a double (one too small for a double is 0, as the night reads it).
create or replace function submit_run_double(v jsonb) returns double precision
  language sql immutable parallel safe as $f$
  select case when abs(v::numeric) < 2.4703282292062328e-324 then 0 else v::double precision end
$f$;

-- A double as the night's messages print it (Swift's description: 200.0, 1e-05, 1e+16).
create or replace function submit_run_text(d double precision) returns text
  language sql immutable parallel safe as $f$
  select case
    when abs(d) >= 1e15 and abs(d) < 9007199254740992 then trim_scale(d::text::numeric)::text || '.0'
    when d::text ~ '[.e]' then d::text
    else d::text || '.0' end
$f$;

-- A string as the night's messages quote it (Swift's debugDescription).
create or replace function submit_run_quote(s text) returns text
  language sql immutable parallel safe as $f$
  select '"' || coalesce(string_agg(case
      when c = '\' then '\\' when c = '"' then '\"' when c = '''' then '\'''
      when c = E'\t' then '\t' when c = E'\n' then '\n' when c = E'\r' then '\r'
      when ascii(c) < 32 or ascii(c) = 127 then '\u{' || upper(lpad(to_hex(ascii(c)), 2, '0')) || '}'
      else c end, '' order by i), '') || '"'
  from regexp_split_to_table(s, '') with ordinality as t(c, i)
$f$;

-- A time as the night parses it (ISO 8601 with a zone: 2026-11-21T07:02:11Z,
-- 2026-11-21T07:02:11.25+01:00, 2026-11-21 07:02:11+00; at most microseconds); null when it
-- would not.
create or replace function submit_run_time(s text) returns timestamptz
  language plpgsql immutable parallel safe strict as $f$
declare
  y int; mo int; days int; zone text; micros int := 0; offset_minutes int := 0;
begin
  if s !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?([Zz]|[+-][0-9]{2}(:?[0-9]{2})?)$' then return null; end if;
  y := substr(s, 1, 4)::int; mo := substr(s, 6, 2)::int;
  days := case when mo = 2 then case when y % 4 = 0 and (y % 100 <> 0 or y % 400 = 0) then 29 else 28 end
               when mo in (4, 6, 9, 11) then 30 else 31 end;
  if mo not between 1 and 12 or substr(s, 9, 2)::int not between 1 and days
     or substr(s, 12, 2) > '23' or substr(s, 15, 2) > '59' or substr(s, 18, 2) > '59' then return null; end if;
  zone := substr(s, 20);
  if left(zone, 1) = '.' then
    zone := ltrim(substr(zone, 2), '0123456789');
    micros := rpad(substr(s, 21, length(s) - 20 - length(zone)), 6, '0')::int;
  end if;
  if length(zone) > 1 then
    if substr(zone, 2, 2) > '23' or (length(zone) > 3 and right(zone, 2) > '59') then return null; end if;
    offset_minutes := (case when left(zone, 1) = '-' then -1 else 1 end)
                      * (substr(zone, 2, 2)::int * 60 + case when length(zone) > 3 then right(zone, 2)::int else 0 end);
  end if;
  return make_timestamptz(case when y = 0 then -1 else y end, mo, substr(s, 9, 2)::int,
                          substr(s, 12, 2)::int, substr(s, 15, 2)::int, substr(s, 18, 2)::int, 'UTC')
         + micros * interval '1 microsecond' - offset_minutes * interval '1 minute';
end
$f$;

-- A run's times as the night parses them (null where it would not), the phone's forms the fast
-- way: PostgreSQL's own input reads `2026-11-21T07:02:11Z` and `….250Z` exactly as the night
-- does once their shape and clock are checked, and raises an error for an impossible date
-- (2026-02-30) or year 0, which sends every time the slow way. Parallel unsafe (the default),
-- as is submit_run_read: an exception block is a subtransaction, which a parallel query refuses.
create or replace function submit_run_times(t jsonb) returns timestamptz[]
  language plpgsql immutable as $f$
begin
  return (select coalesce(array_agg(case when jsonb_typeof(x) <> 'string' then null
            when translate(s, '0123456789', '0000000000') in ('0000-00-00T00:00:00Z', '0000-00-00T00:00:00.000Z')
                 and substr(s, 12, 2) <= '23' and substr(s, 15, 1) <= '5' and substr(s, 18, 1) <= '5'
              then s::timestamptz
            else public.submit_run_time(s) end order by k), '{}')
          from jsonb_array_elements(t) with ordinality as e(x, k), lateral (select x #>> '{}' as s) as l);
exception when datetime_field_overflow or invalid_datetime_format then
  return (select coalesce(array_agg(case when jsonb_typeof(x) = 'string' then public.submit_run_time(x #>> '{}') end order by k), '{}')
          from jsonb_array_elements(t) with ordinality as e(x, k));
end
$f$;

-- A run read as the night reads one (RunsReader), with submit_run's own limits: `problem` is
-- null for a well-formed run, else what is wrong, naming the field, in the night's words
-- (rejects.tsv) where the night quarantines the run. The fixes are returned for a well-formed run.
create or replace function submit_run_read(run jsonb, out problem text, out id uuid, out user_id uuid,
    out lon double precision[], out lat double precision[], out times timestamptz[])
  language plpgsql immutable
  set extra_float_digits = 1
as $f$
declare
  geom jsonb := case when jsonb_typeof(run -> 'geometry') = 'object' then run -> 'geometry' end;
  props jsonb := case when jsonb_typeof(run -> 'properties') = 'object' then run -> 'properties' end;
  coords jsonb;
  t jsonb;
  acc jsonb;
  accuracy double precision[];
  fixes int := 0;
  bad int;
  usual boolean;
  uuid_form constant text := '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
begin
  coords := geom -> 'coordinates';
  t := props -> 'times';
  acc := props -> 'accuracy_m';
  -- The limits first: they read no fix. The size bounds what is stored and what every
  -- follower reads back (fields the night does not read are stored too).
  if octet_length(run::text) > 4000000 then
    problem := 'the run takes more than the 4000000 bytes a run may take as JSON text'; return;
  end if;
  if jsonb_typeof(coords) = 'array' and jsonb_array_length(coords) > 20000 then
    problem := format('the run has %s fixes, more than the 20000 a run may have', jsonb_array_length(coords));
    return;
  end if;
  -- What the night finds while it reads: a number that is not one, a position without two.
  if coords is not null then
    if jsonb_typeof(coords) <> 'array' then
      problem := 'geometry.coordinates is not an array of [lon, lat] positions'; return;
    end if;
    -- The usual run, in one pass: every position two numbers a double holds (a cast that fails
    -- on one it does not sends the run the slow way, which names the fix).
    begin
      select coalesce(bool_and(jsonb_typeof(c) = 'array' and jsonb_array_length(c) = 2
                               and jsonb_typeof(c -> 0) = 'number' and jsonb_typeof(c -> 1) = 'number'), true),
             coalesce(array_agg((c ->> 0)::double precision order by k), '{}'),
             coalesce(array_agg((c ->> 1)::double precision order by k), '{}')
        into usual, lon, lat from jsonb_array_elements(coords) with ordinality as e(c, k);
    exception when numeric_value_out_of_range or invalid_text_representation then usual := false;
    end;
    if usual then
      fixes := jsonb_array_length(coords);
    else
      lon := null; lat := null;
    end if;
    -- An array of anything but positions (a Point's) is left for the geometry's type to name.
    if not usual and jsonb_typeof(coords -> 0) = 'array' then
      if jsonb_path_exists(coords, 'strict $[*] ? (@.type() != "array" || @.size() < 2 || exists (@[*] ? (@.type() != "number" || @ >= 1.797693134862315807937289714053e308 || @ <= -1.797693134862315807937289714053e308)))') then
        select format('coordinate %s %s', k - 1, p) into problem from (
          select k, case when jsonb_typeof(c) <> 'array' then 'is not a [lon, lat] position'
                    else coalesce((select public.submit_run_number(x) from jsonb_array_elements(c) x
                                    where public.submit_run_number(x) is not null limit 1),
                                  format('has %s numbers, not [lon, lat]', jsonb_array_length(c))) end as p
          from jsonb_array_elements(coords) with ordinality as e(c, k)
          where jsonb_typeof(c) <> 'array' or jsonb_array_length(c) < 2
             or exists (select from jsonb_array_elements(c) x where public.submit_run_number(x) is not null)
          order by k limit 1) q;
        return;
      end if;
      fixes := jsonb_array_length(coords);
    end if;
  end if;
  if acc is not null then
    if jsonb_typeof(acc) <> 'array' then problem := 'properties.accuracy_m is not an array'; return; end if;
    begin
      select coalesce(bool_and(jsonb_typeof(x) = 'number'), true), coalesce(array_agg((x #>> '{}')::double precision order by k), '{}')
        into usual, accuracy from jsonb_array_elements(acc) with ordinality as e(x, k);
    exception when numeric_value_out_of_range or invalid_text_representation then usual := false;
    end;
    if not usual then
      accuracy := null;
      select format('accuracy_m[%s] %s', k - 1, public.submit_run_number(x)) into problem
        from jsonb_array_elements(acc) with ordinality as e(x, k)
       where public.submit_run_number(x) is not null order by k limit 1;
      if problem is not null then return; end if;
    end if;
  end if;
  if t is not null and jsonb_typeof(t) <> 'array' then problem := 'properties.times is not an array'; return; end if;

  -- What the night checks once a feature is read, in its order.
  if run ->> 'type' is distinct from 'Feature' or jsonb_typeof(run -> 'type') <> 'string' then
    problem := format('is not a GeoJSON Feature (type is %s)',
                      case when jsonb_typeof(run -> 'type') = 'string' then '"' || (run ->> 'type') || '"' else 'missing' end);
    return;
  end if;
  if not run ? 'id' then problem := 'the run has no id'; return; end if;
  if jsonb_typeof(run -> 'id') <> 'string' then problem := 'the run id is not a string'; return; end if;
  if run ->> 'id' !~ uuid_form then problem := format('the run id "%s" is not a UUID', run ->> 'id'); return; end if;
  if jsonb_typeof(geom -> 'type') is distinct from 'string' or geom ->> 'type' <> 'LineString' then
    problem := format('the geometry is %s, not a LineString of fixes',
                      case when jsonb_typeof(geom -> 'type') = 'string' then 'a ' || (geom ->> 'type') else 'missing' end);
    return;
  end if;
  -- properties.user_id may be left out here: the runner is the caller (submit_run checks it).
  if props ? 'user_id' then
    if jsonb_typeof(props -> 'user_id') <> 'string' then problem := 'properties.user_id is not a string'; return; end if;
    if props ->> 'user_id' !~ uuid_form then
      problem := format('properties.user_id "%s" is not a UUID', props ->> 'user_id'); return;
    end if;
    user_id := (props ->> 'user_id')::uuid;
  end if;
  if t is null then problem := 'the run has no properties.times'; return; end if;
  if acc is null then problem := 'the run has no properties.accuracy_m'; return; end if;
  times := public.submit_run_times(t);
  select k - 1 into bad from unnest(times) with ordinality as u(v, k) where v is null order by k limit 1;
  if bad is not null then
    problem := format('times[%s] %s is not an ISO 8601 time with a zone (e.g. 2026-11-21T07:02:11Z)', bad,
                      public.submit_run_quote(case when jsonb_typeof(t -> bad) = 'string' then t ->> bad else 'a non-string value' end));
    return;
  end if;
  if jsonb_array_length(t) <> fixes then
    problem := format('properties.times has %s entries for %s fixes', jsonb_array_length(t), fixes); return;
  end if;
  if jsonb_array_length(acc) <> fixes then
    problem := format('properties.accuracy_m has %s entries for %s fixes', jsonb_array_length(acc), fixes); return;
  end if;
  if lon is null then
    select coalesce(array_agg(public.submit_run_double(c -> 0) order by k), '{}'), coalesce(array_agg(public.submit_run_double(c -> 1) order by k), '{}')
      into lon, lat from jsonb_array_elements(case when fixes > 0 then coords else '[]' end) with ordinality as e(c, k);
  end if;
  if accuracy is null then
    select coalesce(array_agg(public.submit_run_double(x) order by k), '{}') into accuracy
      from jsonb_array_elements(acc) with ordinality as e(x, k);
  end if;
  select case when not (x between -180 and 180 and y between -90 and 90)
              then format('fix %s [%s, %s] is outside longitude −180…180, latitude −90…90', k - 1, public.submit_run_text(x), public.submit_run_text(y))
              else format('accuracy_m[%s] is %s, a negative accuracy', k - 1, public.submit_run_text(a)) end
    into problem
    from unnest(lon, lat, accuracy) with ordinality as u(x, y, a, k)
   where not (x between -180 and 180 and y between -90 and 90) or a < 0
   order by k limit 1;
  if problem is not null then return; end if;

  -- submit_run's own limits (the night judges such a run invalid, or never sees one).
  select format('times[%s] is earlier than times[%s]: a run''s times never go backwards', k - 1, k - 2) into problem
    from unnest(times) with ordinality as u(v, k) where k > 1 and v < times[k - 1] order by k limit 1;
  if problem is not null then return; end if;
  if fixes > 0 and times[fixes] - times[1] > interval '24 hours' then
    problem := format('the run lasts %s h from times[0] to times[%s], more than the 24 h a run may last',
                      round(extract(epoch from times[fixes] - times[1]) / 3600, 1), fixes - 1);
    return;
  end if;
  id := (run ->> 'id')::uuid;
end
$f$;

-- POST /submitRun. Security definer: the only way a runner writes `runs`, so every stored run
-- passed submit_run_read, belongs to its caller and leaves the judged columns to the night
-- (an insert policy would let the app write any column, valid_loop included, and could not see
-- another runner's row to refuse a reused id). Its search_path is PostGIS's schema and
-- pg_temp (set below); the game's tables and the helpers above are named with their schema.
create or replace function submit_run(run jsonb) returns uuid
  language plpgsql volatile security definer
  set search_path = public, pg_temp
as $f$
declare
  runner uuid := auth.uid();
  r record;
  body jsonb;
  stored record;
begin
  if runner is null then
    raise exception using errcode = '42501', message = 'submit_run needs a signed-in runner (auth.uid() is null)';
  end if;
  r := public.submit_run_read(run);
  if r.problem is not null then
    raise exception using errcode = '22023', message = r.problem,
      detail = format('run %s refused, nothing stored', coalesce(run ->> 'id', '(no id)'));
  end if;
  if r.user_id is not null and r.user_id <> runner then
    raise exception using errcode = '42501',
      message = format('properties.user_id %s is not the signed-in runner %s', r.user_id, runner),
      detail = format('run %s refused, nothing stored', r.id);
  end if;
  if not exists (select from public.users u where u.id = runner) then
    raise exception using errcode = '23503',
      message = format('runner %s has no profile (no users row): make the profile first, then submit the run again', runner),
      detail = format('run %s refused, nothing stored', r.id);
  end if;
  -- The Feature as the night's reader takes it: its id canonical, its runner named.
  body := jsonb_set(jsonb_set(run, '{id}', to_jsonb(r.id::text)), '{properties,user_id}', to_jsonb(runner::text));
  insert into public.runs as t (id, user_id, started_at, ended_at, path, submission, created_at, judged_at)
  values (r.id, runner,
          coalesce(r.times[1], to_timestamp(0)), coalesce(r.times[cardinality(r.times)], to_timestamp(0)),
          case when cardinality(r.lon) >= 2 then
            st_setsrid(st_makeline(array(select st_makepoint(x, y) from unnest(r.lon, r.lat) with ordinality as p(x, y, k) order by k)), 4326) end,
          body, now(), null)
  on conflict (id) do nothing;
  if not found then
    -- Sent again (the phone was offline): the same body stores nothing; another is refused.
    select t.user_id, t.submission into stored from public.runs t where t.id = r.id;
    if stored.user_id = runner and stored.submission = body then return r.id; end if;
    raise exception using errcode = '23505',
      message = format('id: the run %s is already stored with another body (a new run needs a new id)', r.id),
      detail = format('run %s refused, nothing stored', r.id);
  end if;
  perform pg_notify('territory_runs', r.id::text);
  return r.id;
end
$f$;

-- submit_run's search_path: the schema PostGIS is in (public here, `extensions` on some
-- Supabase projects) and pg_temp last, so that no object a client creates can stand in for one
-- it calls.
do $$ begin
  execute format('alter function submit_run(jsonb) set search_path = %I, pg_temp',
                 (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'postgis'));
end $$;

-- A runner's own runs, whole (path, submission), pending ones included. Column privileges are
-- per role, not per row: path and submission are granted to no client role, and this view is
-- the one way to them: it reads runs with its owner's rights (the tables' owner, who passes
-- row-level security), filtered on auth.uid(); security_barrier, so that no function in a
-- caller's condition sees a row before that filter does.
create or replace view my_runs with (security_barrier) as
  select id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop, path, loop_polygon,
         created_at, judged_at, submission
  from runs where user_id = auth.uid();

revoke all on function submit_run_number(jsonb), submit_run_double(jsonb), submit_run_text(double precision),
  submit_run_quote(text), submit_run_time(text), submit_run_times(jsonb), submit_run_read(jsonb) from public, anon, authenticated;
revoke all on function submit_run(jsonb) from public, anon;
grant execute on function submit_run(jsonb) to authenticated;
revoke all on my_runs from public, anon, authenticated;
grant select on my_runs to authenticated;
-- runs: today's figures for every runner, and now whether a run is judged; never path nor
-- submission (the territory_viewport migration revoked the rest).
revoke select (path, submission) on runs from anon, authenticated;
grant select (judged_at) on runs to authenticated;
grant select, insert, update, delete on runs to service_role;
commit;