-- The game's map at every zoom (CONTRACTS §8a, issue 29), written by geo-territory after the
-- territory_viewport migration. Safe to apply twice (in one transaction, behind an advisory lock).
--
-- territory_in_viewport(min_lon, min_lat, max_lon, max_lat, max_cells default 5000) returns
--   (hex_id text, owner_user_id uuid, last_run_id uuid, claimed_at timestamptz, cell_geojson text,
--    resolution integer, cells integer, owner_cells integer)
-- - max_cells <= 0 (or null): no rows.
-- - The box: min_lon > max_lon crosses ±180° (as before); longitudes are taken modulo 360 and a
--   box 360° wide or more is the whole world; latitudes are clamped to -90…90. A null, NaN or
--   infinite bound, or min_lat > max_lat, is refused (SQLSTATE 22023, the box named).
-- - The resolution, as issue 29 states it: when the box holds no more resolution-9 cells than
--   max_cells, the answer is as before this migration: exactly the cells whose polygon intersects the
--   box (every territory_hex row meeting it, one without an owner too; in no particular order), with
--   resolution 9 and cells = owner_cells = 1 (0 for a row without an owner). When it holds more, the
--   answer is the box's cells at the finest coarser H3 resolution whose count fits (a coarse cell is
--   the box's when its polygon intersects it and it has claimed resolution-9 cells under it). Counts
--   need not grow with the resolution (a coarse cell can reach in at the box's edge where its finer
--   cells do not), so a count over max_cells does not end the search; a proof that no finer
--   resolution fits does (bounds from H3's hierarchy, in the function). Cost: a walk up from
--   resolution 0 over the cells near the box, which usually ends a resolution short of the answer's,
--   then the answer read once; in the rare box where a count exceeds max_cells without that proof,
--   the walk goes on to the finer resolutions, up to 9, reading each in full near the box while a
--   bound keeps it under 4 × max_cells cells, else stopping at max_cells + 1 of the box's cells (per
--   turn of the box across ±180°).
-- - A coarse row (in no particular order): the H3 cell (hex_id, its boundary as cell_geojson), cells
--   = claimed resolution-9 cells under it (H3's parent of each), owner_user_id = the runner owning
--   most of them (a tie: the owner of the latest claim, by claimed_at then last_run_id), owner_cells
--   = how many, last_run_id and claimed_at = that runner's latest claim there. When even resolution 0
--   does not fit: the max_cells resolution-0 cells holding the most cells (most first, then by
--   hex_id).
-- - Never stale: a trigger on territory_hex (any writer: the night, the followers, a row written
--   by hand) brings the coarse cells (territory_zoom, territory_zoom_owner) up to date in the
--   writer's own statement, so at commit they are right. Counted: rows with an owner whose
--   hex_id is a resolution-9 cell as the pipeline writes it (15 lower-case hexadecimal digits).
--   A coarse cell's boundary comes from the pipeline (PostgreSQL has no H3): the night writes the
--   boundary of every coarse cell its cells fall in (territory_zoom_shape: h3 = the 64-bit index
--   as bigint) before it writes the cells; any writer with H3 may do the same. A coarse cell
--   whose boundary is not known yet (claimed by another writer where the night has not been) is
--   drawn, until the night writes it, as the convex hull of its claimed finer cells' boundaries,
--   with the right owner and counts. The night checks the coarse cells against territory_hex
--   (per resolution and owner: cells and latest claim; per cell: its owners' total, and its
--   claimed children and grandchildren against the finer cells) and, when anything differs (a
--   trigger disabled, rows restored around it), rebuilds them all. Rows not counted (no owner,
--   or another hex_id) have their own partial index, idx_territory_hex_uncounted.
-- - Writers lock the coarse cells they change finest resolution first, then by H3 index; writers
--   in the same coarse cell (resolution 0 is shared by a continent) queue at its row until the
--   other commits. An upsert fires the insert and then the update trigger (two passes), and a
--   transaction may write in several statements: a deadlock between two writers makes the
--   victim give up its pass's locks and try again (up to 5 times), never reaching the writer.
-- - Reading: authenticated and service_role may call territory_in_viewport and read
--   territory_zoom; anon may not. Only the service role (and the trigger) writes.
begin;
do $$ begin perform pg_advisory_xact_lock(hashtext('game migration territory_at_every_zoom')); end $$;
create extension if not exists postgis;
create extension if not exists btree_gist;

-- H3 indexes as bigint (the bits of the 64-bit index; bit 63 is 0): a resolution-9 cell's hex_id
-- as the pipeline writes it (15 lower-case hexadecimal digits), else null.
create or replace function territory_h3(hex text) returns bigint
  language sql immutable parallel safe as
  $$ select case when hex ~ '^8[0-9a-f]{14}$' then ('x' || lpad(hex, 16, '0'))::bit(64)::bigint end $$;
create or replace function territory_h3_hex(h bigint) returns text
  language sql immutable parallel safe as $$ select lpad(to_hex(h), 15, '0') $$;
-- The parent at resolution r: the resolution field (bits 52–55) set to r, digits r+1…15 set to 7.
create or replace function territory_h3_parent(h bigint, r integer) returns bigint
  language sql immutable parallel safe as
  $$ select (h & ~(15::bigint << 52)) | (r::bigint << 52) | ((1::bigint << (3 * (15 - r))) - 1) $$;
-- The (up to 7) children one resolution finer: digit r+1 set to 0…6 (a pentagon lacks digit 1).
create or replace function territory_h3_children(h bigint) returns bigint[]
  language sql immutable parallel safe as $$
  select array(select ((h & ~(15::bigint << 52)) | (c::bigint << 52)) & ~(7::bigint << (3 * (15 - c))) | (d::bigint << (3 * (15 - c)))
               from (select ((h >> 52) & 15)::integer + 1 as c) k, generate_series(0, 6) d) $$;

-- Coarse cells' boundaries, written by the pipeline (never by the database, which has no H3).
create table if not exists territory_zoom_shape (h3 bigint primary key, cell geometry(Polygon, 4326) not null);
-- Per coarse cell (resolutions 0–8) and owner: the owner's claimed resolution-9 cells under it
-- and the owner's latest claim there.
create table if not exists territory_zoom_owner (h3 bigint not null, owner_user_id uuid not null,
  cells integer not null, last_run_id uuid, claimed_at timestamptz, primary key (h3, owner_user_id)) with (fillfactor = 70);
alter table territory_zoom_owner set (fillfactor = 70);
-- Per coarse cell: the row territory_in_viewport returns (cells = 0: nothing claimed under it,
-- never returned). exact: cell is the pipeline's boundary (else the hull of its finer cells).
-- cell_geojson: cell as GeoJSON, made once. children, grandchildren: its claimed cells one and
-- two resolutions finer (territory_in_viewport's bounds; 0 where there is no such resolution).
create table if not exists territory_zoom (h3 bigint primary key, hex_id text not null, resolution smallint not null,
  cells integer not null default 0, owner_user_id uuid, owner_cells integer not null default 0,
  last_run_id uuid, claimed_at timestamptz, cell geometry(Polygon, 4326), cell_geojson text, children integer not null default 0,
  exact boolean not null default false) with (fillfactor = 70);
alter table territory_zoom set (fillfactor = 70);
alter table territory_zoom add column if not exists grandchildren integer not null default 0;
create index if not exists idx_territory_zoom_cell on territory_zoom using gist (resolution, cell);

-- Each owner's cells and latest claim in each coarse cell `a` at resolution r, from the finer
-- level (r = 8: territory_hex; bulk: many cells, one pass over territory_hex).
create or replace function territory_zoom_gather(a bigint[], r integer, bulk boolean)
  returns table (h3 bigint, owner_user_id uuid, cells integer, last_run_id uuid, claimed_at timestamptz)
  language sql stable set search_path = public, extensions, pg_temp as $$
  select f.h3, f.owner_user_id, sum(f.cells)::integer,
         (array_agg(f.last_run_id order by f.claimed_at desc nulls last, f.last_run_id desc nulls last))[1], max(f.claimed_at)
  from (
    select x as h3, t.owner_user_id, 1 as cells, t.last_run_id, t.claimed_at
      from unnest(a) x join territory_hex t on t.hex_id = any(array(select territory_h3_hex(c) from unnest(territory_h3_children(x)) c))
     where r = 8 and not bulk and t.owner_user_id is not null
    union all
    select x, t.owner_user_id, 1, t.last_run_id, t.claimed_at
      from territory_hex t join unnest(a) x on territory_h3_parent(territory_h3(t.hex_id), 8) = x
     where r = 8 and bulk and t.owner_user_id is not null
    union all
    select x, o.owner_user_id, o.cells, o.last_run_id, o.claimed_at
      from unnest(a) x join territory_zoom_owner o on o.h3 = any(territory_h3_children(x))
     where r < 8) f
  group by f.h3, f.owner_user_id $$;

-- Brings the coarse cells over the resolution-8 cells `a` (and every coarser cell above them) up
-- to date with territory_hex, finest first. everything: also every coarse cell stored (the
-- night's repair). Returns the coarse cells made or changed.
create or replace function territory_zoom_refresh_pass(a bigint[], everything boolean) returns integer
  language plpgsql security definer set search_path = public, extensions, pg_temp as $$
declare
  r integer; n integer; changed integer := 0; bulk boolean; fresh bigint[]; held bigint[]; drawn bigint[];
begin
  for r in reverse 8..0 loop
    if everything then
      a := array(select x from unnest(a) x union select z.h3 from territory_zoom z where z.resolution = r);
    end if;
    a := array(select distinct x from unnest(a) x where x is not null order by x);
    if cardinality(a) = 0 then return changed; end if;
    bulk := r = 8 and cardinality(a) > 20000;
    -- Cells new to territory_zoom: made, in H3 order, with their owners as this statement sees
    -- the finer level (another writer making the same cell waits for this one's commit, then
    -- finds it made and brings it up to date below).
    with g as materialized (select * from territory_zoom_gather(a, r, bulk)),
    m as (
      select distinct on (g.h3) g.h3, g.owner_user_id, g.cells, g.last_run_id, g.claimed_at, sum(g.cells) over (partition by g.h3) as total
        from g order by g.h3, g.cells desc, g.claimed_at desc nulls last, g.last_run_id desc nulls last, g.owner_user_id),
    made as (
      insert into territory_zoom (h3, hex_id, resolution, cells, owner_user_id, owner_cells, last_run_id, claimed_at, cell, cell_geojson, exact,
                                  children, grandchildren)
        select x, territory_h3_hex(x), r, coalesce(m.total, 0), m.owner_user_id, coalesce(m.cells, 0), m.last_run_id, m.claimed_at,
               s.cell, st_asgeojson(s.cell), s.cell is not null, coalesce(k.n, m.total, 0), coalesce(k.g, 0)
          from unnest(a) x left join m on m.h3 = x left join territory_zoom_shape s on s.h3 = x
          left join lateral (select count(*)::integer as n, coalesce(sum(c.children), 0)::integer as g from territory_zoom c
                              where r < 8 and c.h3 = any(territory_h3_children(x)) and c.cells > 0) k on r < 8
         order by x
        on conflict do nothing
        returning territory_zoom.h3),
    gone as (delete from territory_zoom_owner o where o.h3 in (select made.h3 from made)
               and not exists (select 1 from g where g.h3 = o.h3 and g.owner_user_id = o.owner_user_id)),
    owners as (insert into territory_zoom_owner as o select g.* from g where g.h3 in (select made.h3 from made) order by g.h3, g.owner_user_id
                 on conflict (h3, owner_user_id) do update set cells = excluded.cells, last_run_id = excluded.last_run_id, claimed_at = excluded.claimed_at)
    select array(select made.h3 from made order by 1) into fresh;
    changed := changed + cardinality(fresh);
    -- Cells already there: locked in H3 order (one deleted meanwhile is made again), then
    -- brought up to date from the finer level as it is once they are held.
    held := array(select x from unnest(a) x except select y from unnest(fresh) y order by 1);
    if cardinality(held) > 0 then
      loop
        select count(*) into n from (select 1 from territory_zoom z where z.h3 = any(held) order by z.h3 for update) l;
        exit when n = cardinality(held);
        insert into territory_zoom (h3, hex_id, resolution, cell, cell_geojson, exact)
          select x, territory_h3_hex(x), r, s.cell, st_asgeojson(s.cell), s.cell is not null
          from unnest(held) x left join territory_zoom_shape s on s.h3 = x order by x
          on conflict do nothing;
      end loop;
      -- Pipeline boundaries written since a cell got its stand-in.
      update territory_zoom z set cell = s.cell, cell_geojson = st_asgeojson(s.cell), exact = true
        from territory_zoom_shape s where z.h3 = any(held) and not z.exact and s.h3 = z.h3;
      with g as materialized (select * from territory_zoom_gather(held, r, r = 8 and cardinality(held) > 20000)),
      u as (
        insert into territory_zoom_owner as o select * from g order by h3, owner_user_id
          on conflict (h3, owner_user_id) do update set cells = excluded.cells, last_run_id = excluded.last_run_id, claimed_at = excluded.claimed_at
          where (o.cells, o.last_run_id, o.claimed_at) is distinct from (excluded.cells, excluded.last_run_id, excluded.claimed_at)
        returning 1)
      delete from territory_zoom_owner o where o.h3 = any(held)
        and not exists (select 1 from g where g.h3 = o.h3 and g.owner_user_id = o.owner_user_id);
      -- Each cell's majority owner (a tie: the latest claim) and counts; no owner: nothing claimed.
      update territory_zoom z set cells = coalesce(m.total, 0), owner_user_id = m.owner_user_id, owner_cells = coalesce(m.cells, 0),
             last_run_id = m.last_run_id, claimed_at = m.claimed_at, children = coalesce(k.n, m.total, 0), grandchildren = coalesce(k.g, 0)
        from unnest(held) x left join lateral (
          select o.owner_user_id, o.cells, o.last_run_id, o.claimed_at, sum(o.cells) over () as total
          from territory_zoom_owner o where o.h3 = x
          order by o.cells desc, o.claimed_at desc nulls last, o.last_run_id desc nulls last, o.owner_user_id limit 1) m on true
        left join lateral (
          select count(*)::integer as n, coalesce(sum(c.children), 0)::integer as g from territory_zoom c
           where r < 8 and c.h3 = any(territory_h3_children(x)) and c.cells > 0) k on r < 8
        where z.h3 = x and (z.cells, z.owner_user_id, z.owner_cells, z.last_run_id, z.claimed_at, z.children, z.grandchildren)
                   is distinct from (coalesce(m.total, 0), m.owner_user_id, coalesce(m.cells, 0), m.last_run_id, m.claimed_at, coalesce(k.n, m.total, 0), coalesce(k.g, 0));
      get diagnostics n = row_count;
      changed := changed + n;
    end if;
    -- Cells without the pipeline's boundary: the hull of their finer cells until the night.
    drawn := array(select z.h3 from territory_zoom z where z.h3 = any(a) and not z.exact order by 1);
    if cardinality(drawn) > 0 then
      update territory_zoom z set cell = h.cell, cell_geojson = st_asgeojson(h.cell)
        from (select x, (select case when geometrytype(g) = 'POLYGON' then g end
                         from (select case when st_xmax(c) - st_xmin(c) > 180 then st_convexhull(st_shiftlongitude(c)) else st_convexhull(c) end g
                               from (select st_collect(f.cell) c from (
                                       select t.cell from territory_hex t where r = 8
                                          and t.hex_id = any(array(select territory_h3_hex(c) from unnest(territory_h3_children(x)) c))
                                       union all
                                       select k.cell from territory_zoom k where r < 8 and k.h3 = any(territory_h3_children(x)) and k.cells > 0) f) u) v) as cell
              from unnest(drawn) x) h
        where z.h3 = h.x and z.cell is distinct from h.cell;
    end if;
    a := array(select territory_h3_parent(x, r - 1) from unnest(a) x where r > 0);
  end loop;
  return changed;
end $$;

-- The pass above, again when it was chosen to end a deadlock: an upsert fires the insert and
-- then the update trigger, two passes each locking finest first, and a writer with several
-- statements in a transaction does the same; the deadlock's victim gives up this pass's locks
-- (its subtransaction), the other writer goes on, and the victim tries again.
create or replace function territory_zoom_refresh(a bigint[], everything boolean default false) returns integer
  language plpgsql security definer set search_path = public, extensions, pg_temp as $$
declare tries integer := 0;
begin
  loop
    begin
      return territory_zoom_refresh_pass(a, everything);
    exception when deadlock_detected then
      tries := tries + 1;
      if tries >= 5 then raise; end if;
    end;
  end loop;
end $$;

-- The trigger: the resolution-8 parents of the resolution-9 rows whose claim a statement changed.
create or replace function territory_zoom_after_write() returns trigger
  language plpgsql security definer set search_path = public, extensions, pg_temp as $$
declare a bigint[];
begin
  if tg_op = 'INSERT' then
    a := array(select territory_h3_parent(h, 8) from (select territory_h3(n.hex_id) h from zoom_new n where n.owner_user_id is not null) s
               where (h >> 52) & 15 = 9);
  elsif tg_op = 'DELETE' then
    a := array(select territory_h3_parent(h, 8) from (select territory_h3(o.hex_id) h from zoom_old o where o.owner_user_id is not null) s
               where (h >> 52) & 15 = 9);
  else
    a := array(select territory_h3_parent(h, 8) from (
                 select territory_h3(coalesce(n.hex_id, o.hex_id)) h from zoom_new n full join zoom_old o on o.hex_id = n.hex_id
                  where (n.hex_id, n.owner_user_id, n.last_run_id, n.claimed_at) is distinct from (o.hex_id, o.owner_user_id, o.last_run_id, o.claimed_at)
) s
               where (h >> 52) & 15 = 9);
  end if;
  perform territory_zoom_refresh(a);
  return null;
end $$;
create or replace function territory_zoom_after_truncate() returns trigger
  language plpgsql security definer set search_path = public, extensions, pg_temp as $$
begin
  delete from territory_zoom_owner;
  delete from territory_zoom;
  return null;
end $$;
drop trigger if exists territory_zoom_insert on territory_hex;
drop trigger if exists territory_zoom_update on territory_hex;
drop trigger if exists territory_zoom_delete on territory_hex;
drop trigger if exists territory_zoom_truncate on territory_hex;
create trigger territory_zoom_insert after insert on territory_hex referencing new table as zoom_new
  for each statement execute function territory_zoom_after_write();
create trigger territory_zoom_update after update on territory_hex referencing old table as zoom_old new table as zoom_new
  for each statement execute function territory_zoom_after_write();
create trigger territory_zoom_delete after delete on territory_hex referencing old table as zoom_old
  for each statement execute function territory_zoom_after_write();
create trigger territory_zoom_truncate after truncate on territory_hex
  for each statement execute function territory_zoom_after_truncate();

-- The night's check and repair: boundaries the pipeline wrote for cells drawn as a stand-in;
-- then per resolution and owner, the cells and the latest claim against territory_hex, per
-- resolution the cells' totals against their owners', and each cell's children and
-- grandchildren against the finer cells; anything wrong: every coarse cell rebuilt
-- (writers of territory_hex wait meanwhile). Returns what it did.
create or replace function territory_zoom_repair() returns text
  language plpgsql security definer set search_path = public, extensions, pg_temp as $$
declare shaped integer; wrong integer; rebuilt integer;
begin
  with l as (select z.h3 from territory_zoom z join territory_zoom_shape s on s.h3 = z.h3 where not z.exact order by z.h3 for update of z)
  update territory_zoom z set cell = s.cell, cell_geojson = st_asgeojson(s.cell), exact = true
    from territory_zoom_shape s where s.h3 = z.h3 and z.h3 in (select h3 from l);
  get diagnostics shaped = row_count;
  with want as (
    select t.owner_user_id, count(*)::bigint as cells, max(t.claimed_at) as claimed_at from territory_hex t
     where t.owner_user_id is not null and (territory_h3(t.hex_id) >> 52) & 15 = 9 group by t.owner_user_id),
  have as (
    select (o.h3 >> 52) & 15 as r, o.owner_user_id, sum(o.cells)::bigint as cells, max(o.claimed_at) as claimed_at
      from territory_zoom_owner o group by 1, 2),
  per_owner as (
    select r, w.owner_user_id from generate_series(0, 8) r cross join want w
     where not exists (select 1 from have h where h.r = r and h.owner_user_id = w.owner_user_id
                                               and h.cells = w.cells and h.claimed_at is not distinct from w.claimed_at)
    union all
    select h.r, h.owner_user_id from have h where not exists (select 1 from want w where w.owner_user_id = h.owner_user_id)),
  per_cell as (
    select z.h3 from territory_zoom z left join (select o.h3, sum(o.cells) as cells from territory_zoom_owner o group by o.h3) o on o.h3 = z.h3
     where z.cells <> coalesce(o.cells, 0)
    union all
    select o.h3 from territory_zoom_owner o where not exists (select 1 from territory_zoom z where z.h3 = o.h3)
    union all
    -- children and grandchildren, territory_in_viewport's bounds, against the finer cells
    select p.h3 from territory_zoom p left join (
        select territory_h3_parent(c.h3, c.resolution - 1) as h3, count(*) as n, sum(c.children) as g
          from territory_zoom c where c.resolution > 0 and c.cells > 0 group by 1) k on k.h3 = p.h3
     where (p.children, p.grandchildren) <> (case when p.resolution = 8 then p.cells else coalesce(k.n, 0) end,
                                             case when p.resolution = 8 then 0 else coalesce(k.g, 0) end))
  select (select count(*) from per_owner) + (select count(*) from per_cell) into wrong;
  if wrong = 0 then
    return format('the map at every zoom agrees with territory_hex%s',
                  case when shaped > 0 then format(' (%s cells'' boundaries filled)', shaped) else '' end);
  end if;
  lock table territory_hex in share row exclusive mode;
  rebuilt := territory_zoom_refresh(array(select distinct territory_h3_parent(territory_h3(t.hex_id), 8) from territory_hex t
                                          where (territory_h3(t.hex_id) >> 52) & 15 = 9), true);
  return format('the map at every zoom disagreed with territory_hex (%s differences): rebuilt, %s coarse cells changed', wrong, rebuilt);
end $$;

-- Rows of territory_hex the coarse cells do not count (no owner, or a hex_id that is not a
-- resolution-9 cell as the pipeline writes it): territory_in_viewport adds those near a box
-- to its upper bound of the box's resolution-9 rows.
create index if not exists idx_territory_hex_uncounted on territory_hex using gist (cell)
  where owner_user_id is null or hex_id !~ '^89[0-9a-f]{13}$';

-- GET /territoryInViewport at every zoom (see the header).
drop function if exists territory_in_viewport(double precision, double precision, double precision, double precision, integer);
create function territory_in_viewport(min_lon double precision, min_lat double precision,
    max_lon double precision, max_lat double precision, max_cells integer default 5000)
  returns table (hex_id text, owner_user_id uuid, last_run_id uuid, claimed_at timestamptz, cell_geojson text,
                 resolution integer, cells integer, owner_cells integer)
  -- No JIT or parallel workers for a query of milliseconds; bitmap scans (each heap page read
  -- once) except where a count stops at max_cells + 1 (see `capped`). Parallel unsafe (the
  -- default): set_config cannot run in a parallel query.
  language plpgsql stable
  set enable_bitmapscan = on set jit = off set max_parallel_workers_per_gather = 0 as $$
#variable_conflict use_column
declare
  lo double precision; w double precision; la double precision; ha double precision; far double precision;
  b1 geometry; b2 geometry; b3 geometry; n1 geometry; n2 geometry; n3 geometry; w1 geometry; w2 geometry; w3 geometry;
  my double precision; mx double precision;
  lim bigint := max_cells::bigint + 1; r integer := 0; n bigint; best integer := -1; up bigint; finer bigint; finer2 bigint; capped boolean := false;
begin
  if coalesce(max_cells, 0) <= 0 then return; end if;
  if not coalesce(min_lon between -1e6 and 1e6 and max_lon between -1e6 and 1e6
                  and min_lat between -1e6 and 1e6 and max_lat between -1e6 and 1e6, false) or min_lat > max_lat then
    raise exception using errcode = '22023',
      message = format('territory_in_viewport: (%s, %s, %s, %s) is not a box (finite degrees, min_lat <= max_lat)',
                       min_lon, min_lat, max_lon, max_lat);
  end if;
  la := greatest(min_lat, -90); ha := least(max_lat, 90);
  w := case when min_lon > max_lon then max_lon + 360 - min_lon else max_lon - min_lon end;
  if w >= 360 then lo := -180; w := 360;
  else lo := min_lon - 360 * floor((min_lon + 180) / 360); end if;
  -- The box where it lies and a turn east and west: cells across ±180° are stored past 180.
  b1 := st_makeenvelope(lo, la, lo + w, ha, 4326);
  b2 := st_makeenvelope(lo - 360, la, lo + w - 360, ha, 4326);
  b3 := st_makeenvelope(lo + 360, la, lo + w + 360, ha, 4326);
  -- The walk, resolution 0 up: count(r) = the box's claimed cells at r (at 9: its territory_hex
  -- rows); `best`, the finest r so far with count(r) <= max_cells. Each resolution's query also
  -- gives bounds for the finer ones from H3's hierarchy. The margin: three average edges of
  -- resolution r + 1; a cell's descendants at every finer resolution lie within its bounds
  -- grown by 0.67 of one (the overhangs of children beyond their parents' bounds, summed over
  -- the resolutions; measured with h3-py at every resolution, pentagons' neighbours included).
  -- - up: the children of every cell whose bounds meet w1 (the box grown by the margin, in
  --   longitude as at its latitude farthest from the equator; every longitude within the margin
  --   of a pole) or its turns w2, w3: a cell at r + 1 meeting the box has its parent there, so
  --   up >= count(r + 1);
  -- - finer, finer2: the children (grandchildren) of every cell whose bounds lie in n1 (the box
  --   shrunk by the margin, cut to ±79°) or its turns n2, n3: each is claimed, so has a distinct
  --   claimed descendant at every finer resolution, in the box: finer <= count(r') for every
  --   r' > r, finer2 for every r' > r + 1.
  -- finer > max_cells: no finer resolution fits, the walk ends. up <= max_cells and finer2 >
  -- max_cells: r + 1 fits and nothing finer does, the walk ends without counting r + 1.
  -- Otherwise on to r + 1, even when count(r) does not fit (a coarse cell reaching in at the
  -- box's edge, where its finer cells do not, can make a count larger than a finer one).
  -- A count whose upper bound exceeds 4 × max_cells (or is unknown) is `capped`: plain index
  -- scans that stop at max_cells + 1 cells per frame (finer, finer2 over those: still lower
  -- bounds; no up).
  loop
    if r = 9 then
      -- The box's territory_hex rows, as the function before this migration returned them.
      if capped then
        select count(*) into n from (
          (select t.hex_id from territory_hex t where t.cell && b1 and (t.cell @ b1 or st_intersects(t.cell, b1)) limit lim)
          union (select t.hex_id from territory_hex t where t.cell && b2 and (t.cell @ b2 or st_intersects(t.cell, b2)) limit lim)
          union (select t.hex_id from territory_hex t where t.cell && b3 and (t.cell @ b3 or st_intersects(t.cell, b3)) limit lim)) s;
      else
        select count(*) into n from (select t.cell from territory_hex t where t.cell && b1 or t.cell && b2 or t.cell && b3 offset 0) t
         where t.cell @ b1 or t.cell @ b2 or t.cell @ b3 or st_intersects(t.cell, b1) or st_intersects(t.cell, b2) or st_intersects(t.cell, b3);
      end if;
      if n <= max_cells then best := 9; end if;
      exit;
    end if;
    my := 3 * (array[483.057, 182.513, 68.979, 26.072, 9.854, 3.725, 1.406, 0.531, 0.201])[r + 1] / 111.32;
    far := greatest(abs(greatest(la + my, -79)), abs(least(ha - my, 79))) + my;
    mx := case when far < 89 then my / cosd(far) end;
    n1 := case when greatest(la + my, -79) < least(ha - my, 79) and 2 * mx < w
               then st_makeenvelope(lo + mx, greatest(la + my, -79), lo + w - mx, least(ha - my, 79), 4326) end;
    n2 := st_translate(n1, -360, 0); n3 := st_translate(n1, 360, 0);
    far := greatest(abs(la), abs(ha)) + my;
    w1 := case when far >= 89 or w + 2 * my / cosd(far) >= 360
               then st_makeenvelope(-180, greatest(la - my, -90), 180, least(ha + my, 90), 4326)
               else st_makeenvelope(lo - my / cosd(far), greatest(la - my, -90), lo + w + my / cosd(far), least(ha + my, 90), 4326) end;
    w2 := st_translate(w1, -360, 0); w3 := st_translate(w1, 360, 0);
    if not capped then
      select count(*) filter (where (z.cell && b1 and (z.cell @ b1 or st_intersects(z.cell, b1))) or (z.cell && b2 and (z.cell @ b2 or st_intersects(z.cell, b2)))
                                    or (z.cell && b3 and (z.cell @ b3 or st_intersects(z.cell, b3)))),
             coalesce(sum(z.children), 0), coalesce(sum(z.children) filter (where (z.cell @ n1 or z.cell @ n2 or z.cell @ n3)), 0),
             coalesce(sum(z.grandchildren) filter (where (z.cell @ n1 or z.cell @ n2 or z.cell @ n3)), 0)
        into n, up, finer, finer2
        from territory_zoom z where z.resolution = r::smallint and z.cells > 0
         and (z.cell && w1 or z.cell && w2 or z.cell && w3);
    else
      select count(*), coalesce(sum(s.k), 0), coalesce(sum(s.g), 0), null into n, finer, finer2, up from (
        (select z.h3, case when (z.cell @ n1 or z.cell @ n2 or z.cell @ n3) then z.children else 0 end as k, case when (z.cell @ n1 or z.cell @ n2 or z.cell @ n3) then z.grandchildren else 0 end as g
           from territory_zoom z where z.resolution = r::smallint and (z.cell && b1 and (z.cell @ b1 or st_intersects(z.cell, b1))) and z.cells > 0 limit lim)
        union (select z.h3, case when (z.cell @ n1 or z.cell @ n2 or z.cell @ n3) then z.children else 0 end, case when (z.cell @ n1 or z.cell @ n2 or z.cell @ n3) then z.grandchildren else 0 end
           from territory_zoom z where z.resolution = r::smallint and (z.cell && b2 and (z.cell @ b2 or st_intersects(z.cell, b2))) and z.cells > 0 limit lim)
        union (select z.h3, case when (z.cell @ n1 or z.cell @ n2 or z.cell @ n3) then z.children else 0 end, case when (z.cell @ n1 or z.cell @ n2 or z.cell @ n3) then z.grandchildren else 0 end
           from territory_zoom z where z.resolution = r::smallint and (z.cell && b3 and (z.cell @ b3 or st_intersects(z.cell, b3))) and z.cells > 0 limit lim)) s;
    end if;
    if n <= max_cells then best := r; end if;
    exit when finer > max_cells;
    if r = 8 and up is not null then
      -- The rows the coarse cells do not count, near the box.
      up := up + (select count(*) from territory_hex t where (t.owner_user_id is null or t.hex_id !~ '^89[0-9a-f]{13}$')
                    and (t.cell && w1 or t.cell && w2 or t.cell && w3));
    end if;
    if up <= max_cells and (r = 8 or finer2 > max_cells) then best := r + 1; exit; end if;
    if not capped and (up is null or up > 4::bigint * max_cells) then
      capped := true;
      perform set_config('enable_bitmapscan', 'off', true);
    end if;
    r := r + 1;
  end loop;
  -- The answer: at most max_cells rows known to be there, read by one bitmap scan on the boxes'
  -- bounds (the subquery keeps the planner from a second index scan for st_intersects). Rows
  -- come as the scan finds them: sorting them (wide rows: a cell_geojson or a cell each) would
  -- be a quarter of a zoomed-out call and an eighth of a city's.
  perform set_config('enable_bitmapscan', 'on', true);
  if best = 9 then
    return query select t.hex_id, t.owner_user_id, t.last_run_id, t.claimed_at, st_asgeojson(t.cell), 9,
                        (t.owner_user_id is not null)::integer, (t.owner_user_id is not null)::integer
      from (select * from territory_hex t where t.cell && b1 or t.cell && b2 or t.cell && b3 offset 0) t
      where t.cell @ b1 or t.cell @ b2 or t.cell @ b3 or st_intersects(t.cell, b1) or st_intersects(t.cell, b2) or st_intersects(t.cell, b3)
      limit max_cells;
  elsif best >= 0 then
    return query select z.hex_id, z.owner_user_id, z.last_run_id, z.claimed_at, z.cell_geojson, best, z.cells, z.owner_cells
      from (select * from territory_zoom z where z.resolution = best::smallint and z.cells > 0
              and (z.cell && b1 or z.cell && b2 or z.cell && b3) offset 0) z
      where z.cell @ b1 or z.cell @ b2 or z.cell @ b3 or st_intersects(z.cell, b1) or st_intersects(z.cell, b2) or st_intersects(z.cell, b3)
      limit max_cells;
  else
    -- No resolution fits: the max_cells resolution-0 cells holding the most.
    return query select z.hex_id, z.owner_user_id, z.last_run_id, z.claimed_at, z.cell_geojson, 0, z.cells, z.owner_cells
      from (select * from territory_zoom z where z.resolution = 0::smallint and z.cells > 0
              and (z.cell && b1 or z.cell && b2 or z.cell && b3) offset 0) z
      where z.cell @ b1 or z.cell @ b2 or z.cell @ b3 or st_intersects(z.cell, b1) or st_intersects(z.cell, b2) or st_intersects(z.cell, b3)
      order by z.cells desc, z.h3 limit max_cells;
  end if;
end $$;

-- Row-level security and grants: signed-in users read the coarse cells (through the function);
-- only the service role and the trigger (as the migration's owner) write.
alter table territory_zoom enable row level security;
alter table territory_zoom_owner enable row level security;
alter table territory_zoom_shape enable row level security;
drop policy if exists territory_zoom_read on territory_zoom;
create policy territory_zoom_read on territory_zoom for select to authenticated using (true);
revoke all on territory_zoom, territory_zoom_owner, territory_zoom_shape from anon, authenticated;
grant select on territory_zoom to authenticated;
grant select, insert, update, delete on territory_zoom, territory_zoom_owner, territory_zoom_shape to service_role;
revoke all on function territory_in_viewport(double precision, double precision, double precision,
  double precision, integer) from public, anon;
grant execute on function territory_in_viewport(double precision, double precision, double precision,
  double precision, integer) to authenticated, service_role;
revoke all on function territory_zoom_refresh(bigint[], boolean), territory_zoom_refresh_pass(bigint[], boolean),
  territory_zoom_gather(bigint[], integer, boolean), territory_zoom_repair(),
  territory_zoom_after_write(), territory_zoom_after_truncate() from public, anon, authenticated;
grant execute on function territory_zoom_refresh(bigint[], boolean), territory_zoom_repair() to service_role;
-- A territory stored before this migration: its coarse cells made now (drawn as stand-ins until
-- the night writes their boundaries); otherwise only checked.
select territory_zoom_repair();
commit;