-- The map's box, inlined (CONTRACTS §8a; issue 41 §1, §3), written by geo-territory after the
-- game's other migrations. Safe to apply twice (one transaction, behind an advisory lock).
-- Changes no answer.
--
-- territory_zoom_box (the territory_at_every_zoom migration) was meant to be one expression that
-- PostgreSQL inlines into its callers, but its body read its two figures (the box's width and
-- its west edge) from subqueries in FROM, and a SQL function with a FROM is not inlined: each call
-- of territory_in_viewport and territory_cells_in_viewport planned and ran it as a query of its
-- own, about 0.13 ms of server CPU, a third of a street box's call. The same figures, written out
-- in one expression without FROM: the same box for every input (200,012 boxes compared on the
-- bench's database, ±180°, whole-world, NaN and infinite bounds among them).
begin;
do $$ begin perform pg_advisory_xact_lock(hashtext('game migration territory_box_inline')); end $$;

-- w: the box's width in degrees (min_lon > max_lon crosses ±180°); l: its west edge, taken modulo
-- 360 (-180 when w ≥ 360: the whole world).
create or replace function public.territory_zoom_box(min_lon double precision, min_lat double precision,
    max_lon double precision, max_lat double precision) returns geometry
  language sql immutable parallel safe as $$
  select case when min_lon between -1e6 and 1e6 and max_lon between -1e6 and 1e6 and min_lat between -1e6 and 1e6
                   and max_lat between -1e6 and 1e6 and min_lat <= max_lat then
    st_makeenvelope(
      case when (case when min_lon > max_lon then max_lon + 360 - min_lon else max_lon - min_lon end) >= 360 then -180
           else min_lon - 360 * floor((min_lon + 180) / 360) end,
      greatest(min_lat, -90),
      case when (case when min_lon > max_lon then max_lon + 360 - min_lon else max_lon - min_lon end) >= 360 then -180
           else min_lon - 360 * floor((min_lon + 180) / 360) end
        + least(case when min_lon > max_lon then max_lon + 360 - min_lon else max_lon - min_lon end, 360),
      least(max_lat, 90), 4326) end $$;
commit;
