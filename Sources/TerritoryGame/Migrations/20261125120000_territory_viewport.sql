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

-- Row-level security: the app's signed-in users read the territory; only the service role (the
-- night, the followers) writes. Who reads what of runs, users and the runner stats:
-- the territory_privacy migration (after this one).
alter table territory_hex enable row level security;
alter table runs enable row level security;
drop policy if exists territory_hex_read on territory_hex;
create policy territory_hex_read on territory_hex for select to authenticated using (true);
drop policy if exists runs_read on runs;
revoke all on territory_hex, runs from anon, authenticated;
grant select on territory_hex to authenticated;
revoke all on function territory_in_viewport(double precision, double precision, double precision,
  double precision, integer) from public, anon;
grant execute on function territory_in_viewport(double precision, double precision, double precision,
  double precision, integer) to authenticated, service_role;
grant select, insert, update, delete on territory_hex, runs to service_role;
commit;