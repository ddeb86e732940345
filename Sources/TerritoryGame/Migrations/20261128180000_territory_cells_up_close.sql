-- The game's map from the phone, up close in one read (CONTRACTS §8a, issue 41 §1), written by
-- geo-territory after the game's other migrations. Safe to apply twice (one transaction, behind an
-- advisory lock). Changes no answer: the contract stays the territory_at_every_zoom migration's
-- header.
--
-- territory_cells_in_viewport (the app's call) gets the up-close read territory_in_viewport got in
-- the territory_map_speed migration: a box too small to hold 4 × max_cells resolution-9 cells of
-- average size (territory_zoom_pick's test), asked for its whole answer (no `since`), is answered
-- from one read of its territory_hex rows, at most max_cells + 1 of them: from 1 to max_cells
-- rows are the answer at resolution 9 (the zoom rule's, with or without the walk), returned as
-- the walk's resolution-9 answer is ('all' with resolution 9 and the next number, then a 'cells'
-- row per owner). An empty box, or one with more rows, goes on to the walk as before, as does
-- every call with `since`. The count territory_zoom_pick made first (a second read of the same
-- rows) and its call are gone from the street and city boxes.
begin;
do $$ begin perform pg_advisory_xact_lock(hashtext('game migration territory_cells_up_close')); end $$;

create or replace function public.territory_cells_in_viewport(min_lon double precision, min_lat double precision,
    max_lon double precision, max_lat double precision, max_cells integer default 5000, since bigint default null)
  returns table (kind text, resolution integer, owner_user_id uuid, hex_ids text[], cells integer[], owner_cells integer[], next bigint)
  language plpgsql stable security definer
  set enable_bitmapscan = on set jit = off set max_parallel_workers_per_gather = 0 set plan_cache_mode = force_generic_plan
  set search_path = public, extensions, pg_temp as $$
#variable_conflict use_column
declare
  p record; mark bigint; s bigint; prev integer; r integer; dirty bigint[]; b geometry;
  lo double precision; w double precision; la double precision; ha double precision; my double precision; far double precision; g geometry;
  b2 geometry; b3 geometry; cap integer; hx text[]; ow uuid[];
begin
  if coalesce(max_cells, 0) <= 0 then return; end if;
  -- Every transaction below `mark` has ended: what it wrote is all in this call's snapshot.
  mark := pg_snapshot_xmin(pg_current_snapshot())::text::bigint;
  if since is not null then
    s := since >> 4; prev := (since & 15)::integer - 1;
    b := public.territory_zoom_box(min_lon, min_lat, max_lon, max_lat);
    if since < 0 or prev not between 0 and 9 or s < (select e.reset from public.territory_zoom_epoch e) or b is null then since := null; end if;
  end if;
  if since is not null then
    -- The coarse cells changed since s whose bounds meet the box grown by the margin of the walk
    -- (a cell's descendants lie within its bounds grown by it), resolution 0 down to the answer's
    -- (8 for an answer at 9), each level among the children of the one before: none, nothing the
    -- answer shows changed (its resolution neither).
    lo := st_xmin(b); w := st_xmax(b) - lo; la := st_ymin(b); ha := st_ymax(b);
    for r in 0..least(prev, 8) loop
      my := 3 * (array[483.057, 182.513, 68.979, 26.072, 9.854, 3.725, 1.406, 0.531, 0.201])[r + 1] / 111.32;
      far := greatest(abs(la), abs(ha)) + my;
      g := case when far >= 89 or w + 2 * my / cosd(far) >= 360
                then st_makeenvelope(-180, greatest(la - my, -90), 180, least(ha + my, 90), 4326)
                else st_makeenvelope(lo - my / cosd(far), greatest(la - my, -90), lo + w + my / cosd(far), least(ha + my, 90), 4326) end;
      if r = 0 then
        dirty := array(select z.h3 from public.territory_zoom z where z.resolution = 0::smallint and z.change >= s
                    and (z.cell && g or z.cell && st_translate(g, -360, 0) or z.cell && st_translate(g, 360, 0)));
      else
        dirty := array(select z.h3 from public.territory_zoom z
                    where z.h3 = any(array(select unnest(public.territory_h3_children(x)) from unnest(dirty) x)) and z.change >= s
                      and (z.cell && g or z.cell && st_translate(g, -360, 0) or z.cell && st_translate(g, 360, 0)));
      end if;
      if cardinality(dirty) = 0 then
        return query select 'since', prev, null::uuid, null::text[], null::integer[], null::integer[], mark * 16 + prev + 1;
        return;
      end if;
    end loop;
  end if;
  -- Up close, the whole answer (territory_in_viewport's test, the territory_map_speed migration):
  -- the box's rows read once, at most cap + 1; from 1 to cap of them: the answer at resolution 9.
  -- None or more than cap: the walk below decides.
  if since is null then
    b := public.territory_zoom_box(min_lon, min_lat, max_lon, max_lat);
    if b is not null then
      cap := least(max_cells, 10000);
      w := st_xmax(b) - st_xmin(b); la := st_ymin(b); ha := st_ymax(b);
      if w * (ha - la) * 12392 * (case when la <= 0 and ha >= 0 then 1 else cosd(least(abs(la), abs(ha))) end) <= 4 * 0.1053 * cap then
        b2 := st_translate(b, -360, 0); b3 := st_translate(b, 360, 0);
        select array_agg(t.hex_id), array_agg(t.owner_user_id) into hx, ow from (
          select t.hex_id, t.owner_user_id
            from (select * from public.territory_hex t where t.cell && b or t.cell && b2 or t.cell && b3 offset 0) t
           where t.cell @ b or t.cell @ b2 or t.cell @ b3 or st_intersects(t.cell, b) or st_intersects(t.cell, b2) or st_intersects(t.cell, b3)
           limit cap + 1) t;
        if cardinality(hx) between 1 and cap then
          return query select 'all', 9, null::uuid, null::text[], null::integer[], null::integer[], mark * 16 + 10;
          return query select 'cells', 9, u.o, array_agg(u.h), array_agg(u.n), array_agg(u.n), null::bigint
            from (select u.h, u.o, (u.o is not null)::integer as n from unnest(hx, ow) u(h, o)) u group by u.o;
          return;
        end if;
      end if;
    end if;
  end if;
  select * into p from public.territory_zoom_pick('territory_cells_in_viewport', min_lon, min_lat, max_lon, max_lat, max_cells);
  if since is null or p.best <> prev then
    -- The whole answer: the rows of territory_in_viewport, one per owner.
    return query select 'all', greatest(p.best, 0), null::uuid, null::text[], null::integer[], null::integer[], mark * 16 + p.best + 1;
    if p.best = 9 then
      return query select 'cells', 9, t.owner_user_id, array_agg(t.hex_id), array_agg(t.n), array_agg(t.n), null::bigint from (
        select t.hex_id, t.owner_user_id, (t.owner_user_id is not null)::integer as n
          from (select * from public.territory_hex t where t.cell && p.b1 or t.cell && p.b2 or t.cell && p.b3 offset 0) t
         where t.cell @ p.b1 or t.cell @ p.b2 or t.cell @ p.b3 or st_intersects(t.cell, p.b1) or st_intersects(t.cell, p.b2) or st_intersects(t.cell, p.b3)
         limit p.cap) t group by t.owner_user_id;
    elsif p.best >= 0 then
      return query select 'cells', p.best, z.owner_user_id, array_agg(z.hex_id), array_agg(z.cells), array_agg(z.owner_cells), null::bigint from (
        select z.hex_id, z.owner_user_id, z.cells, z.owner_cells
          from (select * from public.territory_zoom z where z.resolution = p.best::smallint and z.cells > 0
                  and (z.cell && p.b1 or z.cell && p.b2 or z.cell && p.b3) offset 0) z
         where z.cell @ p.b1 or z.cell @ p.b2 or z.cell @ p.b3 or st_intersects(z.cell, p.b1) or st_intersects(z.cell, p.b2) or st_intersects(z.cell, p.b3)
         limit p.cap) z group by z.owner_user_id;
    else
      return query select 'cells', 0, z.owner_user_id, array_agg(z.hex_id order by z.cells desc, z.h3), array_agg(z.cells order by z.cells desc, z.h3),
                          array_agg(z.owner_cells order by z.cells desc, z.h3), null::bigint from (
        select z.h3, z.hex_id, z.owner_user_id, z.cells, z.owner_cells
          from (select * from public.territory_zoom z where z.resolution = 0::smallint and z.cells > 0
                  and (z.cell && p.b1 or z.cell && p.b2 or z.cell && p.b3) offset 0) z
         where z.cell @ p.b1 or z.cell @ p.b2 or z.cell @ p.b3 or st_intersects(z.cell, p.b1) or st_intersects(z.cell, p.b2) or st_intersects(z.cell, p.b3)
         order by z.cells desc, z.h3 limit p.cap) z group by z.owner_user_id;
    end if;
    return;
  end if;
  -- What changed: the client drops what it drew under the cells `dirty` (at resolution 9: every cell
  -- whose parent is one of them; coarser: those cells), then adds the rows.
  return query select 'since', prev, null::uuid, array(select public.territory_h3_hex(x) from unnest(dirty) x order by x), null::integer[], null::integer[],
                      mark * 16 + prev + 1;
  if prev = 9 then
    return query select 'cells', 9, t.owner_user_id, array_agg(t.hex_id), array_agg(t.n), array_agg(t.n), null::bigint from (
      select t.hex_id, t.owner_user_id, (t.owner_user_id is not null)::integer as n from public.territory_hex t
       where t.hex_id = any(array(select public.territory_h3_hex(c) from unnest(dirty) x, unnest(public.territory_h3_children(x)) c))
         and (t.cell @ p.b1 or t.cell @ p.b2 or t.cell @ p.b3 or st_intersects(t.cell, p.b1) or st_intersects(t.cell, p.b2) or st_intersects(t.cell, p.b3))) t
     group by t.owner_user_id;
  else
    return query select 'cells', prev, z.owner_user_id, array_agg(z.hex_id), array_agg(z.cells), array_agg(z.owner_cells), null::bigint
      from public.territory_zoom z where z.h3 = any(dirty) and z.cells > 0
       and (z.cell @ p.b1 or z.cell @ p.b2 or z.cell @ p.b3 or st_intersects(z.cell, p.b1) or st_intersects(z.cell, p.b2) or st_intersects(z.cell, p.b3))
     group by z.owner_user_id;
  end if;
end $$;
comment on function public.territory_cells_in_viewport(double precision, double precision, double precision, double precision, integer, bigint) is
  'The territory of a box at any zoom as H3 ids and counts, and what changed since (the territory_at_every_zoom migration''s header); up close, one read (territory_cells_up_close).';

-- The search_path: the schema PostGIS is in, then pg_temp (as the zoom migration fixes it).
do $$ begin
  execute format('alter function public.territory_cells_in_viewport(float8, float8, float8, float8, integer, bigint) set search_path = %I, pg_temp',
                 (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'postgis'));
end $$;
revoke all on function public.territory_cells_in_viewport(double precision, double precision, double precision,
  double precision, integer, bigint) from public, anon;
grant execute on function public.territory_cells_in_viewport(double precision, double precision, double precision,
  double precision, integer, bigint) to authenticated, service_role;
commit;
