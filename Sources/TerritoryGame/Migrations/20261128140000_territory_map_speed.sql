-- The game's map, cheaper to read up close and to keep (CONTRACTS §8a, issue 41), written by
-- geo-territory after the game's other migrations. Safe to apply twice (one transaction, behind an
-- advisory lock). Changes no answer: the contract stays the territory_at_every_zoom migration's
-- header (and the coarse levels' writes, below).
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

-- The coarse levels' writes (the territory_at_every_zoom header: what they keep, and when), in
-- fewer statements and row versions, the same cells, owners, counts and change numbers:
-- - a pass gathers the finer level only for the coarse cells territory_zoom lacks (the cells
--   already there are gathered once, when held); a cell held gets its change number in the
--   update of its counts (one row version a cell a pass, not two);
-- - a writer may ask for one pass a transaction: with territory.zoom_defer = 'on' (set_config,
--   local to its transaction) the trigger only notes the resolution-8 cells each statement
--   changed, and `select territory_zoom_flush()` brings them and every coarser cell up to date
--   in one pass (and ends the deferral); the writer calls it before it commits. An upsert (its
--   update, then its insert trigger) is then one pass where it was two. No writer does yet: the
--   followers, the night and a row written by hand get the pass in their own statement.
--   Not flushed, the coarse cells stay behind until the night's check rebuilds them.
create or replace function public.territory_zoom_refresh_pass(a bigint[], everything boolean) returns integer
  language plpgsql security definer set max_parallel_workers_per_gather = 0 set search_path = public, extensions, pg_temp as $$
declare
  r integer; n integer; changed integer := 0; bulk boolean; fresh bigint[]; held bigint[]; drawn bigint[];
  stamp bigint := pg_current_xact_id()::text::bigint;
begin
  for r in reverse 8..0 loop
    if everything then
      a := array(select x from unnest(a) x union select z.h3 from public.territory_zoom z where z.resolution = r);
    end if;
    a := array(select distinct x from unnest(a) x where x is not null order by x);
    if cardinality(a) = 0 then return changed; end if;
    -- Cells new to territory_zoom: made, in H3 order, with their owners as this statement sees
    -- the finer level (another writer making the same cell waits for this one's commit, then
    -- finds it made and brings it up to date below). Gathered only for the cells not there.
    fresh := array(select x from unnest(a) x where not exists (select 1 from public.territory_zoom z where z.h3 = x) order by x);
    if cardinality(fresh) > 0 then
    bulk := r = 8 and cardinality(fresh) > 20000;
    with g as materialized (select * from public.territory_zoom_gather(fresh, r, bulk)),
    m as (
      select distinct on (g.h3) g.h3, g.owner_user_id, g.cells, g.last_run_id, g.claimed_at, sum(g.cells) over (partition by g.h3) as total
        from g order by g.h3, g.cells desc, g.claimed_at desc nulls last, g.last_run_id desc nulls last, g.owner_user_id),
    made as (
      insert into public.territory_zoom (h3, hex_id, resolution, cells, owner_user_id, owner_cells, last_run_id, claimed_at, cell, cell_geojson, exact,
                                  children, grandchildren, change)
        select x, public.territory_h3_hex(x), r, coalesce(m.total, 0), m.owner_user_id, coalesce(m.cells, 0), m.last_run_id, m.claimed_at,
               s.cell, st_asgeojson(s.cell), s.cell is not null, coalesce(k.n, m.total, 0), coalesce(k.g, 0), stamp
          from unnest(fresh) x left join m on m.h3 = x left join public.territory_zoom_shape s on s.h3 = x
          left join lateral (select count(*)::integer as n, coalesce(sum(c.children), 0)::integer as g from public.territory_zoom c
                              where r < 8 and c.h3 = any(public.territory_h3_children(x)) and c.cells > 0) k on r < 8
         order by x
        on conflict do nothing
        returning territory_zoom.h3),
    gone as (delete from public.territory_zoom_owner o where o.h3 in (select made.h3 from made)
               and not exists (select 1 from g where g.h3 = o.h3 and g.owner_user_id = o.owner_user_id)),
    owners as (insert into public.territory_zoom_owner as o select g.* from g where g.h3 in (select made.h3 from made) order by g.h3, g.owner_user_id
                 on conflict (h3, owner_user_id) do update set cells = excluded.cells, last_run_id = excluded.last_run_id, claimed_at = excluded.claimed_at)
    select array(select made.h3 from made order by 1) into fresh;
    end if;
    changed := changed + cardinality(fresh);
    -- Cells already there: locked in H3 order (one deleted meanwhile is made again), then brought
    -- up to date from the finer level as it is once they are held, and given this writer's change
    -- number in the same update (one row version a cell).
    held := array(select x from unnest(a) x except select y from unnest(fresh) y order by 1);
    if cardinality(held) > 0 then
      loop
        select count(*) into n from (select z.h3 from public.territory_zoom z where z.h3 = any(held) order by z.h3 for update) l;
        exit when n = cardinality(held);
        insert into public.territory_zoom (h3, hex_id, resolution, cell, cell_geojson, exact, change)
          select x, public.territory_h3_hex(x), r, s.cell, st_asgeojson(s.cell), s.cell is not null, stamp
          from unnest(held) x left join public.territory_zoom_shape s on s.h3 = x order by x
          on conflict do nothing;
      end loop;
      -- Pipeline boundaries written since a cell got its stand-in.
      update public.territory_zoom z set cell = s.cell, cell_geojson = st_asgeojson(s.cell), exact = true
        from public.territory_zoom_shape s where z.h3 = any(held) and not z.exact and s.h3 = z.h3;
      with g as materialized (select * from public.territory_zoom_gather(held, r, r = 8 and cardinality(held) > 20000)),
      u as (
        insert into public.territory_zoom_owner as o select * from g order by h3, owner_user_id
          on conflict (h3, owner_user_id) do update set cells = excluded.cells, last_run_id = excluded.last_run_id, claimed_at = excluded.claimed_at
          where (o.cells, o.last_run_id, o.claimed_at) is distinct from (excluded.cells, excluded.last_run_id, excluded.claimed_at)
        returning 1)
      delete from public.territory_zoom_owner o where o.h3 = any(held)
        and not exists (select 1 from g where g.h3 = o.h3 and g.owner_user_id = o.owner_user_id);
      -- Each cell's majority owner (a tie: the latest claim) and counts; no owner: nothing claimed.
      -- Counted as changed: a cell whose counts or owner moved (not its number alone).
      with u as (
      update public.territory_zoom z set cells = coalesce(m.total, 0), owner_user_id = m.owner_user_id, owner_cells = coalesce(m.cells, 0),
             last_run_id = m.last_run_id, claimed_at = m.claimed_at, children = coalesce(k.n, m.total, 0), grandchildren = coalesce(k.g, 0),
             change = stamp
        from unnest(held) x join public.territory_zoom y on y.h3 = x left join lateral (
          select o.owner_user_id, o.cells, o.last_run_id, o.claimed_at, sum(o.cells) over () as total
          from public.territory_zoom_owner o where o.h3 = x
          order by o.cells desc, o.claimed_at desc nulls last, o.last_run_id desc nulls last, o.owner_user_id limit 1) m on true
        left join lateral (
          select count(*)::integer as n, coalesce(sum(c.children), 0)::integer as g from public.territory_zoom c
           where r < 8 and c.h3 = any(public.territory_h3_children(x)) and c.cells > 0) k on r < 8
        where z.h3 = x and (y.change <> stamp or (y.cells, y.owner_user_id, y.owner_cells, y.last_run_id, y.claimed_at, y.children, y.grandchildren)
                   is distinct from (coalesce(m.total, 0), m.owner_user_id, coalesce(m.cells, 0), m.last_run_id, m.claimed_at, coalesce(k.n, m.total, 0), coalesce(k.g, 0)))
        returning (y.cells, y.owner_user_id, y.owner_cells, y.last_run_id, y.claimed_at, y.children, y.grandchildren)
                  is distinct from (z.cells, z.owner_user_id, z.owner_cells, z.last_run_id, z.claimed_at, z.children, z.grandchildren) as moved)
      select count(*) filter (where moved) into n from u;
      changed := changed + n;
    end if;
    -- Cells without the pipeline's boundary: the hull of their finer cells until the night.
    drawn := array(select z.h3 from public.territory_zoom z where z.h3 = any(a) and not z.exact order by 1);
    if cardinality(drawn) > 0 then
      update public.territory_zoom z set cell = h.cell, cell_geojson = st_asgeojson(h.cell)
        from (select x, (select case when geometrytype(g) = 'POLYGON' then g end
                         from (select case when st_xmax(c) - st_xmin(c) > 180 then st_convexhull(st_shiftlongitude(c)) else st_convexhull(c) end g
                               from (select st_collect(f.cell) c from (
                                       select t.cell from public.territory_hex t where r = 8
                                          and t.hex_id = any(array(select public.territory_h3_hex(c) from unnest(public.territory_h3_children(x)) c))
                                       union all
                                       select k.cell from public.territory_zoom k where r < 8 and k.h3 = any(public.territory_h3_children(x)) and k.cells > 0) f) u) v) as cell
              from unnest(drawn) x) h
        where z.h3 = h.x and z.cell is distinct from h.cell;
    end if;
    a := array(select public.territory_h3_parent(x, r - 1) from unnest(a) x where r > 0);
  end loop;
  return changed;
end $$;

-- The trigger: the resolution-8 parents of the resolution-9 rows whose claim a statement changed,
-- brought up to date now, or noted for territory_zoom_flush.
create or replace function public.territory_zoom_after_write() returns trigger
  language plpgsql security definer set search_path = public, extensions, pg_temp as $$
declare a bigint[];
begin
  if tg_op = 'INSERT' then
    a := array(select public.territory_h3_parent(h, 8) from (select public.territory_h3(n.hex_id) h from zoom_new n) s
               where (h >> 52) & 15 = 9);
  elsif tg_op = 'DELETE' then
    a := array(select public.territory_h3_parent(h, 8) from (select public.territory_h3(o.hex_id) h from zoom_old o) s
               where (h >> 52) & 15 = 9);
  else
    a := array(select public.territory_h3_parent(h, 8) from (
                 select public.territory_h3(coalesce(n.hex_id, o.hex_id)) h from zoom_new n full join zoom_old o on o.hex_id = n.hex_id
                  where (n.hex_id, n.owner_user_id, n.last_run_id, n.claimed_at, n.cell is null) is distinct from (o.hex_id, o.owner_user_id, o.last_run_id, o.claimed_at, o.cell is null)) s
               where (h >> 52) & 15 = 9);
  end if;
  if current_setting('territory.zoom_defer', true) = 'on' then
    if cardinality(a) > 0 then
      perform set_config('territory.zoom_deferred',
                         concat_ws(',', nullif(current_setting('territory.zoom_deferred', true), ''), array_to_string(a, ',')), true);
    end if;
    return null;
  end if;
  perform public.territory_zoom_refresh(a);
  return null;
end $$;

-- The cells noted since territory.zoom_defer was turned on in this transaction, and every coarser
-- cell, brought up to date in one pass; ends the deferral. Returns the coarse cells changed.
create or replace function public.territory_zoom_flush() returns integer
  language plpgsql security definer set search_path = public, extensions, pg_temp as $$
declare a bigint[];
begin
  a := coalesce(string_to_array(nullif(current_setting('territory.zoom_deferred', true), ''), ',')::bigint[], '{}');
  perform set_config('territory.zoom_deferred', '', true);
  perform set_config('territory.zoom_defer', 'off', true);
  if cardinality(a) = 0 then return 0; end if;
  return public.territory_zoom_refresh(a);
end $$;
revoke all on function public.territory_zoom_flush(), public.territory_zoom_refresh_pass(bigint[], boolean),
  public.territory_zoom_after_write() from public, anon, authenticated;
grant execute on function public.territory_zoom_flush() to service_role;

-- The search_path: the schema PostGIS is in, then pg_temp (as the zoom migration fixes it).
do $$
declare f regprocedure;
begin
  foreach f in array array['public.territory_in_viewport(float8, float8, float8, float8, integer)', 'public.territory_zoom_refresh_pass(bigint[], boolean)',
                           'public.territory_zoom_after_write()', 'public.territory_zoom_flush()']::regprocedure[] loop
    execute format('alter function %s set search_path = %I, pg_temp', f,
                   (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'postgis'));
  end loop;
end $$;
revoke all on function public.territory_in_viewport(double precision, double precision, double precision,
  double precision, integer) from public, anon;
grant execute on function public.territory_in_viewport(double precision, double precision, double precision,
  double precision, integer) to authenticated, service_role;
commit;
