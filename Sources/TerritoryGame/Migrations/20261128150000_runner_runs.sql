-- Runner stats without a submission waiting for a judging batch (CONTRACTS §8c; issue 41 §4),
-- written by geo-territory after the game's other migrations. Safe to apply twice (one
-- transaction, behind an advisory lock); the territory_privacy migration applied again after it
-- (a night finding its work undone) makes its own triggers and view again, consistent with each
-- other, and this one is then applied again after it.
--
-- territory_runner_stats gives the same columns and figures as before. What changes is where a
-- runner's count of stored runs is kept: in territory_runner_runs, one row a runner, written by
-- the statement storing or deleting a run; the judged side (valid runs, distance, cells, area)
-- stays in territory_runner_totals, written by the judging (the night, the followers).
-- Before, both were one row: a follower's batch updated the row of each runner it judged and held
-- it until it committed (seconds, with the coarse cells' pass), and a submit_run of the same
-- runner meanwhile waited for that commit. Now a submission locks only its runner's count, which
-- no judging writes (a judged run keeps its runner), and judging never waits for a submission.
-- territory_runner_totals.runs stays 0 (the count is territory_runner_runs.runs); a distance
-- back at 0 runs reads 0 (the view), as before.
begin;
do $$ begin perform pg_advisory_xact_lock(hashtext('game migration runner_runs')); end $$;
-- search_path: PostGIS's schema, then pg_temp, for the functions' `set search_path from current`
-- (as the territory_privacy migration; put back at the end).
do $$ begin
  perform set_config('territory.search_path_before', current_setting('search_path'), true);
  perform set_config('search_path', format('%I, pg_temp', (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
                                                             where e.extname = 'postgis')), true);
end $$;

create table if not exists public.territory_runner_runs (
  user_id uuid primary key,
  runs bigint not null default 0);
alter table public.territory_runner_runs enable row level security;
drop policy if exists territory_runner_runs_read on public.territory_runner_runs;
create policy territory_runner_runs_read on public.territory_runner_runs for select to authenticated using (true);
revoke all on public.territory_runner_runs from anon, authenticated;
grant select on public.territory_runner_runs to authenticated;
grant select, insert, update, delete on public.territory_runner_runs to service_role;

-- Adds each runner's change of stored runs (user_id, runs), in user_id order.
create or replace function public.territory_runner_runs_add(d public.territory_runner_runs[]) returns void
  language sql volatile security definer set search_path from current as $$
  insert into public.territory_runner_runs as t
  select x.user_id, sum(x.runs) from unnest(d) x where x.user_id is not null group by x.user_id having sum(x.runs) <> 0
   order by x.user_id
  on conflict (user_id) do update set runs = t.runs + excluded.runs
$$;

-- The judged side's changes (runs 0), in user_id order; a runner back at 0 cells has area 0, not
-- a rounding residue (a distance back at 0 runs reads 0 through the view).
create or replace function public.territory_runner_totals_add(d public.territory_runner_totals[]) returns void
  language sql volatile security definer set search_path from current as $$
  insert into public.territory_runner_totals as t
  select x.user_id, 0, sum(x.valid_runs), sum(x.distance_m), sum(x.cells), sum(x.area_m2)
    from unnest(d) x where x.user_id is not null group by x.user_id
  having sum(x.valid_runs) <> 0 or sum(x.distance_m) <> 0 or sum(x.cells) <> 0 or sum(x.area_m2) <> 0
   order by x.user_id
  on conflict (user_id) do update set
    valid_runs = t.valid_runs + excluded.valid_runs, distance_m = t.distance_m + excluded.distance_m,
    cells = t.cells + excluded.cells,
    area_m2 = case when t.cells + excluded.cells = 0 then 0 else t.area_m2 + excluded.area_m2 end
$$;

-- runs' statement triggers (the territory_privacy migration's, by name): the count of stored runs
-- to territory_runner_runs, the judged side to territory_runner_totals; each only for the
-- runners whose figures change (a judging update changes no count, a pending run no judged figure).
create or replace function public.territory_runner_totals_after_runs() returns trigger
  language plpgsql security definer set search_path from current as $$
begin
  if tg_op = 'INSERT' then
    perform public.territory_runner_runs_add(array(select row(n.user_id, 1)::public.territory_runner_runs from runs_new n));
    perform public.territory_runner_totals_add(array(
      select row(n.user_id, 0, (n.valid_loop is true)::int, coalesce(n.distance_m, 0), 0, 0)::public.territory_runner_totals from runs_new n));
  elsif tg_op = 'DELETE' then
    perform public.territory_runner_runs_add(array(select row(o.user_id, -1)::public.territory_runner_runs from runs_old o));
    perform public.territory_runner_totals_add(array(
      select row(o.user_id, 0, -(o.valid_loop is true)::int, -coalesce(o.distance_m, 0), 0, 0)::public.territory_runner_totals from runs_old o));
  else
    perform public.territory_runner_runs_add(array(
      select x from runs_new n full join runs_old o on o.id = n.id,
             lateral (values (row(n.user_id, 1)::public.territory_runner_runs), (row(o.user_id, -1)::public.territory_runner_runs)) v(x)
       where (n.id, n.user_id) is distinct from (o.id, o.user_id)));
    perform public.territory_runner_totals_add(array(
      select x from runs_new n full join runs_old o on o.id = n.id,
             lateral (values (row(n.user_id, 0, (n.valid_loop is true)::int, coalesce(n.distance_m, 0), 0, 0)::public.territory_runner_totals),
                             (row(o.user_id, 0, -(o.valid_loop is true)::int, -coalesce(o.distance_m, 0), 0, 0)::public.territory_runner_totals)) v(x)
       where (n.id, n.user_id, n.valid_loop, n.distance_m) is distinct from (o.id, o.user_id, o.valid_loop, o.distance_m)));
  end if;
  return null;
end $$;

create or replace function public.territory_runner_totals_after_truncate() returns trigger
  language plpgsql security definer set search_path from current as $$
begin
  if tg_table_name = 'runs' then
    update public.territory_runner_runs set runs = 0 where runs <> 0;
    update public.territory_runner_totals set runs = 0, valid_runs = 0, distance_m = 0 where runs <> 0 or valid_runs <> 0 or distance_m <> 0;
  else
    update public.territory_runner_totals set cells = 0, area_m2 = 0 where cells <> 0 or area_m2 <> 0;
  end if;
  return null;
end $$;

-- Every figure recomputed from runs and territory_hex (writers of either wait meanwhile).
-- Returns the rows (of either table) whose figures changed.
create or replace function public.territory_runner_totals_rebuild() returns bigint
  language plpgsql security definer set search_path from current as $$
declare changed bigint;
begin
  lock table public.runs, public.territory_hex in share mode;
  with r as (select user_id, count(*) as runs, count(*) filter (where valid_loop) as valid_runs, coalesce(sum(distance_m), 0) as distance_m
               from public.runs where user_id is not null group by user_id),
       h as (select owner_user_id as user_id, count(*) as cells, coalesce(sum(st_area(cell::geography)), 0) as area_m2
               from public.territory_hex where owner_user_id is not null group by owner_user_id),
       want as (select coalesce(r.user_id, h.user_id) as user_id, 0::bigint as runs, coalesce(r.valid_runs, 0) as valid_runs,
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
                 returning 1),
       runs_gone as (update public.territory_runner_runs t set runs = 0
                      where t.runs <> 0 and not exists (select from r where r.user_id = t.user_id) returning 1),
       runs_put as (insert into public.territory_runner_runs as t select r.user_id, r.runs from r order by r.user_id
                      on conflict (user_id) do update set runs = excluded.runs where t.runs <> excluded.runs returning 1)
  select (select count(*) from gone) + (select count(*) from put) + (select count(*) from runs_gone) + (select count(*) from runs_put)
    into changed;
  return changed;
end $$;

-- The profile tab: the same columns and figures as before, the count of runs from
-- territory_runner_runs; read as the caller.
create or replace view public.territory_runner_stats with (security_invoker = true) as
  select u.id as user_id, coalesce(r.runs, 0) as runs, coalesce(t.valid_runs, 0) as valid_runs,
         case when coalesce(r.runs, 0) = 0 then 0 else coalesce(t.distance_m, 0) / 1000 end as km_run,
         coalesce(t.cells, 0) as cells, coalesce(t.area_m2, 0) / 1e6 as km2_owned
    from public.users u left join public.territory_runner_totals t on t.user_id = u.id
    left join public.territory_runner_runs r on r.user_id = u.id;
alter view public.territory_runner_stats set (security_invoker = true);
revoke all on public.territory_runner_stats from anon, authenticated;
grant select on public.territory_runner_stats to authenticated, service_role;

revoke all on function public.territory_runner_runs_add(public.territory_runner_runs[]) from public, anon, authenticated;

-- The figures moved (and any drift repaired).
do $$ begin perform public.territory_runner_totals_rebuild(); end $$;
do $$ begin perform set_config('search_path', current_setting('territory.search_path_before'), true); end $$;
comment on table public.territory_runner_runs is
  'Each runner''s count of stored runs, pending included (the runner_runs migration); territory_runner_stats.runs.';
commit;
