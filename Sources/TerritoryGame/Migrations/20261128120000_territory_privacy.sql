-- Who reads what of the game, and the runner stats kept by the writers (CONTRACTS §8a, §8c;
-- issues 37 and 38), written by geo-territory after the game's other migrations. Safe to apply
-- twice (one transaction, behind an advisory lock). Needs auth.uid() (Supabase's; on plain
-- PostgreSQL scripts/checks/supabase_auth.sql) and PostGIS, in `extensions` or in `public`.
--
-- What each client role reads (Supabase's default privileges assumed: every grant below is
-- preceded by a revoke of everything):
--   anon           nothing of the game.
--   authenticated  users: every row's id, username, avatar_url, created_at; inserts its own row
--                    (id = auth.uid()) and updates its own username and avatar_url; deletes nothing.
--                  runs, my_runs: its own runs only, every column (row-level security; my_runs is
--                    security_invoker). Nothing of another runner's run: no geometry, no time.
--                  territory_hex, territory_zoom: every cell, all but claimed_at (a run's end time:
--                    its time of day); territory_in_viewport gives the claim's day,
--                    territory_cells_in_viewport none (both run with their owner's rights).
--                  territory_hex_sheet(hex_id): the seed's hex sheet of one cell: owner's username,
--                    claim date (UTC), the claiming run's distance (m) and loop area (km²).
--                  territory_runner_stats: per runner runs, valid runs, km run, cells, km² owned.
--   service_role   reads and writes every table (bypasses row-level security).
--
-- Runner stats in O(1) per runner: territory_runner_totals holds each runner's totals, kept by
-- statement triggers on runs (runs, valid runs, distance) and territory_hex (cells, area: the
-- geodesic area of each cell's boundary, computed once when the cell changes hands), in the
-- writer's own statement; territory_runner_stats reads it. territory_runner_totals_rebuild()
-- recomputes every total from the tables (the migration does, once).
begin;
do $$ begin perform pg_advisory_xact_lock(hashtext('game migration territory_privacy')); end $$;
-- The functions below run with search_path = the schema PostGIS is in (`extensions` on Supabase,
-- else public), then pg_temp (`set search_path from current`, set here, put back at the end), so
-- that no object a client creates stands in for one they call; their own objects are written
-- with their schema.
do $$ begin
  perform set_config('territory.search_path_before', current_setting('search_path'), true);
  perform set_config('search_path', format('%I, pg_temp', (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
                                                             where e.extname = 'postgis')), true);
end $$;

-- users: signed-in runners read every profile; each makes and edits only their own.
alter table public.users enable row level security;
drop policy if exists users_read on public.users;
create policy users_read on public.users for select to authenticated using (true);
drop policy if exists users_insert_own on public.users;
create policy users_insert_own on public.users for insert to authenticated with check (id = (select auth.uid()));
drop policy if exists users_update_own on public.users;
create policy users_update_own on public.users for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));
revoke all on public.users from anon, authenticated;
grant select, insert (id, username, avatar_url), update (username, avatar_url) on public.users to authenticated;
grant select, insert, update, delete on public.users to service_role;

-- runs: a runner reads their own, whole; nobody reads another's (the hex sheet is the function below).
alter table public.runs enable row level security;
drop policy if exists runs_read on public.runs;
drop policy if exists runs_own on public.runs;
create policy runs_own on public.runs for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.runs from anon, authenticated;
grant select on public.runs to authenticated;
grant select, insert, update, delete on public.runs to service_role;
-- my_runs (the submit_run migration's) reads runs as its caller: their own runs only.
do $$ begin
  if to_regclass('public.my_runs') is not null then
    alter view public.my_runs set (security_invoker = true);
    revoke all on public.my_runs from anon, authenticated;
    grant select on public.my_runs to authenticated;
  end if;
end $$;

-- territory_hex and territory_zoom: the map, without the claims' time of day.
revoke all on public.territory_hex from anon, authenticated;
grant select (hex_id, owner_user_id, last_run_id, cell) on public.territory_hex to authenticated;
do $$ begin
  if to_regclass('public.territory_zoom') is not null then
    revoke all on public.territory_zoom from anon, authenticated;
    execute (select format('grant select (%s) on public.territory_zoom to authenticated', string_agg(quote_ident(attname), ', ' order by attnum))
               from pg_attribute where attrelid = 'public.territory_zoom'::regclass and attnum > 0 and not attisdropped and attname <> 'claimed_at');
  end if;
end $$;

-- The map's functions read territory_hex and territory_zoom whole (claimed_at too, which no client
-- role may read) and return no time of day (territory_in_viewport: the claim's UTC day): they run
-- with their owner's rights, with their search_path fixed (as the zoom migration sets it; where it
-- has not, public and PostGIS's schema).
do $$
declare f oid;
begin
  for f in select p.oid from pg_proc p where p.pronamespace = 'public'::regnamespace
                                          and p.proname in ('territory_in_viewport', 'territory_cells_in_viewport') loop
    execute format('alter function %s security definer', f::regprocedure);
    if not exists (select from unnest((select proconfig from pg_proc where oid = f)) c where c like 'search_path=%') then
      execute format('alter function %s set search_path = public, %s', f::regprocedure, current_setting('search_path'));
    end if;
  end loop;
end $$;

-- The hex sheet: what another runner may read of the run that claimed a cell. Security definer:
-- it reads runs, which the caller cannot.
create or replace function public.territory_hex_sheet(hex_id text)
  returns table (hex_id text, owner_user_id uuid, owner_username text, claimed_on date, run_distance_m double precision, run_area_km2 double precision)
  language sql stable security definer set search_path from current as $$
  select t.hex_id, t.owner_user_id, u.username, (t.claimed_at at time zone 'UTC')::date, r.distance_m,
         st_area(r.loop_polygon::geography) / 1e6
    from public.territory_hex t
    left join public.users u on u.id = t.owner_user_id
    left join public.runs r on r.id = t.last_run_id
   where t.hex_id = territory_hex_sheet.hex_id
$$;

-- Runner totals, kept by the writers.
create table if not exists public.territory_runner_totals (
  user_id uuid primary key,
  runs bigint not null default 0,
  valid_runs bigint not null default 0,
  distance_m double precision not null default 0,
  cells bigint not null default 0,
  area_m2 double precision not null default 0);
alter table public.territory_runner_totals enable row level security;
drop policy if exists territory_runner_totals_read on public.territory_runner_totals;
create policy territory_runner_totals_read on public.territory_runner_totals for select to authenticated using (true);
revoke all on public.territory_runner_totals from anon, authenticated;
grant select on public.territory_runner_totals to authenticated;
grant select, insert, update, delete on public.territory_runner_totals to service_role;

-- Adds each runner's changes (d: user_id, runs, valid_runs, distance_m, cells, area_m2) to the
-- totals, in user_id order (writers lock runners' rows in one order); a runner back at 0 runs
-- (cells) has distance (area) 0, not a rounding residue.
create or replace function public.territory_runner_totals_add(d public.territory_runner_totals[]) returns void
  language sql volatile security definer set search_path from current as $$
  insert into public.territory_runner_totals as t
  select x.user_id, sum(x.runs), sum(x.valid_runs), sum(x.distance_m), sum(x.cells), sum(x.area_m2)
    from unnest(d) x where x.user_id is not null group by x.user_id
  having sum(x.runs) <> 0 or sum(x.valid_runs) <> 0 or sum(x.distance_m) <> 0 or sum(x.cells) <> 0 or sum(x.area_m2) <> 0
   order by x.user_id
  on conflict (user_id) do update set
    runs = t.runs + excluded.runs, valid_runs = t.valid_runs + excluded.valid_runs,
    distance_m = case when t.runs + excluded.runs = 0 then 0 else t.distance_m + excluded.distance_m end,
    cells = t.cells + excluded.cells,
    area_m2 = case when t.cells + excluded.cells = 0 then 0 else t.area_m2 + excluded.area_m2 end
$$;

-- The triggers: each statement's changes to runs (a run's runner, validity, distance) and to
-- territory_hex (a cell's owner or boundary: its geodesic area, computed for the cells that change
-- hands only), added in the writer's own statement. Security definer: any writer of runs or
-- territory_hex keeps the totals.
create or replace function public.territory_runner_totals_after_runs() returns trigger
  language plpgsql security definer set search_path from current as $$
begin
  if tg_op = 'INSERT' then
    perform public.territory_runner_totals_add(array(
      select row(n.user_id, 1, (n.valid_loop is true)::int, coalesce(n.distance_m, 0), 0, 0)::public.territory_runner_totals from runs_new n));
  elsif tg_op = 'DELETE' then
    perform public.territory_runner_totals_add(array(
      select row(o.user_id, -1, -(o.valid_loop is true)::int, -coalesce(o.distance_m, 0), 0, 0)::public.territory_runner_totals from runs_old o));
  else
    perform public.territory_runner_totals_add(array(
      select x from runs_new n full join runs_old o on o.id = n.id,
             lateral (values (row(n.user_id, 1, (n.valid_loop is true)::int, coalesce(n.distance_m, 0), 0, 0)::public.territory_runner_totals),
                             (row(o.user_id, -1, -(o.valid_loop is true)::int, -coalesce(o.distance_m, 0), 0, 0)::public.territory_runner_totals)) v(x)
       where (n.id, n.user_id, n.valid_loop, n.distance_m) is distinct from (o.id, o.user_id, o.valid_loop, o.distance_m)));
  end if;
  return null;
end $$;

create or replace function public.territory_runner_totals_after_hex() returns trigger
  language plpgsql security definer set search_path from current as $$
begin
  if tg_op = 'INSERT' then
    perform public.territory_runner_totals_add(array(
      select row(n.owner_user_id, 0, 0, 0, 1, coalesce(st_area(n.cell::geography), 0))::public.territory_runner_totals
        from hex_new n where n.owner_user_id is not null));
  elsif tg_op = 'DELETE' then
    perform public.territory_runner_totals_add(array(
      select row(o.owner_user_id, 0, 0, 0, -1, -coalesce(st_area(o.cell::geography), 0))::public.territory_runner_totals
        from hex_old o where o.owner_user_id is not null));
  else
    perform public.territory_runner_totals_add(array(
      select x from hex_new n full join hex_old o on o.hex_id = n.hex_id,
             lateral (select coalesce(st_area(n.cell::geography), 0) as a) an,
             lateral (select case when n.cell is not distinct from o.cell then an.a else coalesce(st_area(o.cell::geography), 0) end as a) ao,
             lateral (values (row(n.owner_user_id, 0, 0, 0, 1, an.a)::public.territory_runner_totals),
                             (row(o.owner_user_id, 0, 0, 0, -1, -ao.a)::public.territory_runner_totals)) v(x)
       where (n.hex_id is distinct from o.hex_id or n.owner_user_id is distinct from o.owner_user_id or not n.cell is not distinct from o.cell)
         and (n.owner_user_id is not null or o.owner_user_id is not null)));
  end if;
  return null;
end $$;

create or replace function public.territory_runner_totals_after_truncate() returns trigger
  language plpgsql security definer set search_path from current as $$
begin
  if tg_table_name = 'runs' then
    update public.territory_runner_totals set runs = 0, valid_runs = 0, distance_m = 0 where runs <> 0 or valid_runs <> 0 or distance_m <> 0;
  else
    update public.territory_runner_totals set cells = 0, area_m2 = 0 where cells <> 0 or area_m2 <> 0;
  end if;
  return null;
end $$;

-- Every total recomputed from runs and territory_hex (writers of either wait meanwhile).
-- Returns the runners whose totals changed.
create or replace function public.territory_runner_totals_rebuild() returns bigint
  language plpgsql security definer set search_path from current as $$
declare changed bigint;
begin
  lock table public.runs, public.territory_hex in share mode;
  with r as (select user_id, count(*) as runs, count(*) filter (where valid_loop) as valid_runs, coalesce(sum(distance_m), 0) as distance_m
               from public.runs where user_id is not null group by user_id),
       h as (select owner_user_id as user_id, count(*) as cells, coalesce(sum(st_area(cell::geography)), 0) as area_m2
               from public.territory_hex where owner_user_id is not null group by owner_user_id),
       want as (select coalesce(r.user_id, h.user_id) as user_id, coalesce(r.runs, 0) as runs, coalesce(r.valid_runs, 0) as valid_runs,
                       coalesce(r.distance_m, 0) as distance_m, coalesce(h.cells, 0) as cells, coalesce(h.area_m2, 0) as area_m2
                  from r full join h on h.user_id = r.user_id),
       gone as (update public.territory_runner_totals t set runs = 0, valid_runs = 0, distance_m = 0, cells = 0, area_m2 = 0
                 where not exists (select from want w where w.user_id = t.user_id)
                   and (t.runs, t.valid_runs, t.distance_m, t.cells, t.area_m2) is distinct from (0, 0, 0, 0, 0) returning 1),
       put as (insert into public.territory_runner_totals as t select * from want order by user_id
                 on conflict (user_id) do update set runs = excluded.runs, valid_runs = excluded.valid_runs, distance_m = excluded.distance_m,
                                                     cells = excluded.cells, area_m2 = excluded.area_m2
                 where (t.runs, t.valid_runs, t.distance_m, t.cells, t.area_m2)
                       is distinct from (excluded.runs, excluded.valid_runs, excluded.distance_m, excluded.cells, excluded.area_m2)
                 returning 1)
  select (select count(*) from gone) + (select count(*) from put) into changed;
  return changed;
end $$;

-- The triggers, on runs (transition tables runs_old, runs_new) and territory_hex (hex_old, hex_new).
do $$
declare t record;
begin
  for t in select * from (values ('runs', 'runs', 'territory_runner_totals_after_runs'),
                                 ('territory_hex', 'hex', 'territory_runner_totals_after_hex')) v(tab, rows, fn) loop
    execute format($t$
      drop trigger if exists territory_runner_totals_insert on public.%1$I;
      drop trigger if exists territory_runner_totals_update on public.%1$I;
      drop trigger if exists territory_runner_totals_delete on public.%1$I;
      drop trigger if exists territory_runner_totals_truncate on public.%1$I;
      create trigger territory_runner_totals_insert after insert on public.%1$I referencing new table as %2$I
        for each statement execute function public.%4$I();
      create trigger territory_runner_totals_update after update on public.%1$I referencing old table as %3$I new table as %2$I
        for each statement execute function public.%4$I();
      create trigger territory_runner_totals_delete after delete on public.%1$I referencing old table as %3$I
        for each statement execute function public.%4$I();
      create trigger territory_runner_totals_truncate after truncate on public.%1$I
        for each statement execute function public.territory_runner_totals_after_truncate();
      $t$, t.tab, t.rows || '_new', t.rows || '_old', t.fn);
  end loop;
end $$;

-- The profile tab, as before (the same columns), from the totals: one row per runner, read as the caller.
create or replace view public.territory_runner_stats with (security_invoker = true) as
  select u.id as user_id, coalesce(t.runs, 0) as runs, coalesce(t.valid_runs, 0) as valid_runs,
         coalesce(t.distance_m, 0) / 1000 as km_run, coalesce(t.cells, 0) as cells, coalesce(t.area_m2, 0) / 1e6 as km2_owned
    from public.users u left join public.territory_runner_totals t on t.user_id = u.id;
alter view public.territory_runner_stats set (security_invoker = true);
revoke all on public.territory_runner_stats from anon, authenticated;
grant select on public.territory_runner_stats to authenticated, service_role;

revoke all on function public.territory_hex_sheet(text) from public, anon;
grant execute on function public.territory_hex_sheet(text) to authenticated, service_role;
revoke all on function public.territory_runner_totals_add(public.territory_runner_totals[]), public.territory_runner_totals_after_runs(), public.territory_runner_totals_after_hex(),
  public.territory_runner_totals_after_truncate(), public.territory_runner_totals_rebuild() from public, anon, authenticated;
grant execute on function public.territory_runner_totals_rebuild() to service_role;

-- btree_gist (the zoom levels' index) where Supabase keeps extensions, when the schema exists.
do $$ begin
  if exists (select from pg_extension where extname = 'btree_gist' and extnamespace = 'public'::regnamespace)
     and to_regnamespace('extensions') is not null then
    alter extension btree_gist set schema extensions;
  end if;
end $$;

-- Totals for what is stored already (and any drift repaired).
do $$ begin perform public.territory_runner_totals_rebuild(); end $$;
do $$ begin perform set_config('search_path', current_setting('territory.search_path_before'), true); end $$;
commit;
