-- The game's map, cheaper to read up close (CONTRACTS §8a, issue 41), written by geo-territory
-- after the game's other migrations. Safe to apply twice (one transaction, behind an advisory lock).
-- Changes no answer: the contract stays the territory_at_every_zoom migration's header.
--
-- territory_in_viewport, up close: a box too small to hold 4 × max_cells resolution-9 cells of
-- average size (the test of territory_zoom_pick) is answered by one read of its territory_hex
-- rows, at most max_cells + 1 of them, kept in memory: when they number at most max_cells the
-- box holds no more resolution-9 cells than max_cells, so they are the answer at resolution 9
-- (the zoom rule's, with or without the walk), and the function returns them; otherwise the
-- walk of territory_zoom_pick as before. This is the query of the function before the zoom
-- levels (the box's rows, capped), without its sort; the count territory_zoom_pick made first (a
-- second read of the same rows) and its call are gone from the street and city boxes.
begin;
do $$ begin perform pg_advisory_xact_lock(hashtext('game migration territory_map_speed')); end $$;

-- GET /territoryInViewport at every zoom (the territory_at_every_zoom header is its contract).
create or replace function public.territory_in_viewport(min_lon double precision, min_lat double precision,
    max_lon double precision, max_lat double precision, max_cells integer default 5000)
  returns table (hex_id text, owner_user_id uuid, last_run_id uuid, claimed_at timestamptz, cell_geojson text,
                 resolution integer, cells integer, owner_cells integer)
  language plpgsql stable security definer
  set enable_bitmapscan = on set jit = off set max_parallel_workers_per_gather = 0 set plan_cache_mode = force_generic_plan
  set search_path = public, extensions, pg_temp as $$
#variable_conflict use_column
declare
  p record; b1 geometry; b2 geometry; b3 geometry; cap integer; w double precision; la double precision; ha double precision;
begin
  if coalesce(max_cells, 0) <= 0 then return; end if;
  -- Up close (territory_zoom_pick's test): the box's rows read once, at most cap + 1; at most cap
  -- of them: the answer at resolution 9.
  b1 := public.territory_zoom_box(min_lon, min_lat, max_lon, max_lat);
  if b1 is not null then
    cap := least(max_cells, 10000);
    w := st_xmax(b1) - st_xmin(b1); la := st_ymin(b1); ha := st_ymax(b1);
    if w * (ha - la) * 12392 * (case when la <= 0 and ha >= 0 then 1 else cosd(least(abs(la), abs(ha))) end) <= 4 * 0.1053 * cap then
      b2 := st_translate(b1, -360, 0); b3 := st_translate(b1, 360, 0);
      return query
        with c as materialized (
          select t.hex_id, t.owner_user_id, t.last_run_id, t.claimed_at, t.cell
            from (select * from public.territory_hex t where t.cell && b1 or t.cell && b2 or t.cell && b3 offset 0) t
           where t.cell @ b1 or t.cell @ b2 or t.cell @ b3 or st_intersects(t.cell, b1) or st_intersects(t.cell, b2) or st_intersects(t.cell, b3)
           limit cap + 1)
        select c.hex_id, c.owner_user_id, c.last_run_id, (c.claimed_at at time zone 'UTC')::date::timestamp at time zone 'UTC', st_asgeojson(c.cell), 9,
               (c.owner_user_id is not null)::integer, (c.owner_user_id is not null)::integer
          from c where (select count(*) from c) <= cap;
      -- Rows: the answer. None: an empty box, or more than cap rows (the walk below decides).
      if found then return; end if;
    end if;
  end if;
  select * into p from public.territory_zoom_pick('territory_in_viewport', min_lon, min_lat, max_lon, max_lat, max_cells);
  -- The answer: at most cap rows known to be there, read by one bitmap scan on the boxes' bounds
  -- (the subquery keeps the planner from a second index scan for st_intersects), in the order the
  -- scan finds them. claimed_at: the UTC day.
  if p.best = 9 then
    return query select t.hex_id, t.owner_user_id, t.last_run_id, (t.claimed_at at time zone 'UTC')::date::timestamp at time zone 'UTC', st_asgeojson(t.cell), 9,
                        (t.owner_user_id is not null)::integer, (t.owner_user_id is not null)::integer
      from (select * from public.territory_hex t where t.cell && p.b1 or t.cell && p.b2 or t.cell && p.b3 offset 0) t
      where t.cell @ p.b1 or t.cell @ p.b2 or t.cell @ p.b3 or st_intersects(t.cell, p.b1) or st_intersects(t.cell, p.b2) or st_intersects(t.cell, p.b3)
      limit p.cap;
  elsif p.best >= 0 then
    return query select z.hex_id, z.owner_user_id, z.last_run_id, (z.claimed_at at time zone 'UTC')::date::timestamp at time zone 'UTC', z.cell_geojson, p.best, z.cells, z.owner_cells
      from (select * from public.territory_zoom z where z.resolution = p.best::smallint and z.cells > 0
              and (z.cell && p.b1 or z.cell && p.b2 or z.cell && p.b3) offset 0) z
      where z.cell @ p.b1 or z.cell @ p.b2 or z.cell @ p.b3 or st_intersects(z.cell, p.b1) or st_intersects(z.cell, p.b2) or st_intersects(z.cell, p.b3)
      limit p.cap;
  else
    -- No resolution fits: the cap resolution-0 cells holding the most.
    return query select z.hex_id, z.owner_user_id, z.last_run_id, (z.claimed_at at time zone 'UTC')::date::timestamp at time zone 'UTC', z.cell_geojson, 0, z.cells, z.owner_cells
      from (select * from public.territory_zoom z where z.resolution = 0::smallint and z.cells > 0
              and (z.cell && p.b1 or z.cell && p.b2 or z.cell && p.b3) offset 0) z
      where z.cell @ p.b1 or z.cell @ p.b2 or z.cell @ p.b3 or st_intersects(z.cell, p.b1) or st_intersects(z.cell, p.b2) or st_intersects(z.cell, p.b3)
      order by z.cells desc, z.h3 limit p.cap;
  end if;
end $$;
comment on function public.territory_in_viewport(double precision, double precision, double precision, double precision, integer) is
  'The territory of a box at any zoom as GeoJSON (the territory_at_every_zoom migration''s header); up close, one read (territory_map_speed).';

-- The search_path: the schema PostGIS is in, then pg_temp (as the zoom migration fixes it).
do $$
declare f regprocedure;
begin
  foreach f in array array['public.territory_in_viewport(float8, float8, float8, float8, integer)']::regprocedure[] loop
    execute format('alter function %s set search_path = %I, pg_temp', f,
                   (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'postgis'));
  end loop;
end $$;
revoke all on function public.territory_in_viewport(double precision, double precision, double precision,
  double precision, integer) from public, anon;
grant execute on function public.territory_in_viewport(double precision, double precision, double precision,
  double precision, integer) to authenticated, service_role;
commit;
