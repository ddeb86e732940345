-- The running game's territory served by viewport (CONTRACTS §8a), written by geo-territory.
-- Safe to apply twice. Needs the game's tables (CONTRACTS §8) and PostGIS; the night's
-- territory_hex.sql writes `cell` and needs this migration first.
begin;
do $$ begin perform pg_advisory_xact_lock(hashtext('game migration territory_viewport')); end $$;
create extension if not exists postgis;

-- Each cell's boundary (a cell across ±180° runs on past 180, so it stays one valid polygon).
alter table territory_hex add column if not exists cell geometry(Polygon, 4326);
create index if not exists idx_territory_hex_cell on territory_hex using gist (cell);

-- GET /territoryInViewport: exactly the cells whose polygon intersects the box, at most
-- max_cells (by hex_id). min_lon > max_lon is a box across ±180°. The box is tried where
-- it lies and a turn east and west, so cells stored past 180 are found from either side.
-- A plain SQL function so the planner inlines it and uses the GiST index. Dropped first:
-- the later migration territory_at_every_zoom returns more columns (applied after this one).
drop function if exists territory_in_viewport(double precision, double precision, double precision, double precision, integer);
create function territory_in_viewport(min_lon double precision, min_lat double precision,
    max_lon double precision, max_lat double precision, max_cells integer default 5000)
  returns table (hex_id text, owner_user_id uuid, last_run_id uuid, claimed_at timestamptz, cell_geojson text)
  language sql stable parallel safe as $$
  select t.hex_id, t.owner_user_id, t.last_run_id, t.claimed_at, st_asgeojson(t.cell)
  from territory_hex t
  where st_intersects(t.cell, st_makeenvelope(min_lon, min_lat,
          case when min_lon > max_lon then max_lon + 360 else max_lon end, max_lat, 4326))
     or st_intersects(t.cell, st_makeenvelope(min_lon - 360, min_lat,
          case when min_lon > max_lon then max_lon else max_lon - 360 end, max_lat, 4326))
     or st_intersects(t.cell, st_makeenvelope(min_lon + 360, min_lat,
          case when min_lon > max_lon then max_lon + 720 else max_lon + 360 end, max_lat, 4326))
  order by t.hex_id
  limit greatest(max_cells, 0)
$$;

-- The profile tab: per runner, runs, valid runs, km run, cells and km² owned.
create or replace view territory_runner_stats as
  select u.id as user_id,
         coalesce(r.runs, 0) as runs, coalesce(r.valid_runs, 0) as valid_runs,
         coalesce(r.km_run, 0) as km_run,
         coalesce(t.cells, 0) as cells, coalesce(t.km2_owned, 0) as km2_owned
  from users u
  left join (select user_id, count(*) as runs, count(*) filter (where valid_loop) as valid_runs,
                    sum(distance_m) / 1000 as km_run
             from runs group by user_id) r on r.user_id = u.id
  left join (select owner_user_id, count(*) as cells, sum(st_area(cell::geography)) / 1e6 as km2_owned
             from territory_hex group by owner_user_id) t on t.owner_user_id = u.id;

-- Row-level security: the app's signed-in users read the territory, their runs' figures
-- (not the raw path) and the stats; only the service role (the night, submitRun) writes.
alter table territory_hex enable row level security;
alter table runs enable row level security;
drop policy if exists territory_hex_read on territory_hex;
create policy territory_hex_read on territory_hex for select to authenticated using (true);
drop policy if exists runs_read on runs;
create policy runs_read on runs for select to authenticated using (true);
revoke all on territory_hex, runs, territory_runner_stats from anon, authenticated;
grant select on territory_hex, territory_runner_stats to authenticated;
grant select (id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop, loop_polygon, created_at)
  on runs to authenticated;
revoke all on function territory_in_viewport(double precision, double precision, double precision,
  double precision, integer) from public, anon;
grant execute on function territory_in_viewport(double precision, double precision, double precision,
  double precision, integer) to authenticated, service_role;
grant select, insert, update, delete on territory_hex, runs to service_role;
grant select on territory_runner_stats to service_role;
commit;