-- The map at every zoom (20261126130000_territory_at_every_zoom.sql) on a small hand-made
-- territory in Hyde Park: 11 resolution-9 cells (their H3 boundaries, from h3-py), the 7
-- children of 88195da4bbfffff and 4 of 88195da4b1fffff, both under 87195da4bffffff.
--   88195da4bbfffff: runner a 5 cells, runner b 2;   88195da4b1fffff: b 2, a 1, one with no owner.
-- When the box's resolution-9 cells fit in max_cells, territory_in_viewport is exactly the rows
-- whose cell intersects the box (ST_Intersects); when not, the finest coarser resolution that
-- fits, each coarse cell with its claimed cells, majority owner and that owner's cells.
begin;
select plan(32);

insert into users (id, username) values
  ('00000000-0000-4000-8000-00000000000a', 'pgtap-a'), ('00000000-0000-4000-8000-00000000000b', 'pgtap-b');
insert into runs (id, user_id, started_at, ended_at, valid_loop, judged_at) values
  ('30000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000a', '2026-11-21T07:00:00Z', '2026-11-21T07:30:00Z', true, now()),
  ('30000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000b', '2026-11-21T08:00:00Z', '2026-11-21T08:30:00Z', true, now());
insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell)
select h, case o when 'a' then '00000000-0000-4000-8000-00000000000a'::uuid when 'b' then '00000000-0000-4000-8000-00000000000b'::uuid end,
       case o when 'a' then '30000000-0000-4000-8000-00000000000a'::uuid when 'b' then '30000000-0000-4000-8000-00000000000b'::uuid end,
       case o when 'a' then '2026-11-21T07:30:00Z'::timestamptz when 'b' then '2026-11-21T08:30:00Z'::timestamptz end,
       st_geomfromtext(w, 4326)
from (values
  ('89195da4ba3ffff', 'a', 'POLYGON((-0.1630822 51.5078755,-0.1651737 51.5068944,-0.1647387 51.5051471,-0.1622124 51.5043809,-0.1601210 51.5053620,-0.1605558 51.5071093,-0.1630822 51.5078755))'),
  ('89195da4ba7ffff', 'a', 'POLYGON((-0.1601210 51.5053620,-0.1622124 51.5043809,-0.1617775 51.5026336,-0.1592514 51.5018674,-0.1571601 51.5028485,-0.1575948 51.5045958,-0.1601210 51.5053620))'),
  ('89195da4babffff', 'a', 'POLYGON((-0.1677003 51.5076605,-0.1697918 51.5066793,-0.1693566 51.5049320,-0.1668301 51.5041659,-0.1647387 51.5051471,-0.1651737 51.5068944,-0.1677003 51.5076605))'),
  ('89195da4bafffff', 'a', 'POLYGON((-0.1647387 51.5051471,-0.1668301 51.5041659,-0.1663951 51.5024186,-0.1638688 51.5016525,-0.1617775 51.5026336,-0.1622124 51.5043809,-0.1647387 51.5051471))'),
  ('89195da4bb3ffff', 'a', 'POLYGON((-0.1614256 51.5106037,-0.1635172 51.5096227,-0.1630822 51.5078755,-0.1605558 51.5071093,-0.1584643 51.5080903,-0.1588991 51.5098375,-0.1614256 51.5106037))'),
  ('89195da4bb7ffff', 'b', 'POLYGON((-0.1584643 51.5080903,-0.1605558 51.5071093,-0.1601210 51.5053620,-0.1575948 51.5045958,-0.1555034 51.5055768,-0.1559381 51.5073240,-0.1584643 51.5080903))'),
  ('89195da4bbbffff', 'b', 'POLYGON((-0.1660438 51.5103889,-0.1681354 51.5094077,-0.1677003 51.5076605,-0.1651737 51.5068944,-0.1630822 51.5078755,-0.1635172 51.5096227,-0.1660438 51.5103889))'),
  ('89195da4b03ffff', 'b', 'POLYGON((-0.1752807 51.5099586,-0.1773722 51.5089772,-0.1769368 51.5072299,-0.1744100 51.5064640,-0.1723185 51.5074453,-0.1727537 51.5091926,-0.1752807 51.5099586))'),
  ('89195da4b07ffff', 'b', 'POLYGON((-0.1723185 51.5074453,-0.1744100 51.5064640,-0.1739746 51.5047167,-0.1714480 51.5039507,-0.1693566 51.5049320,-0.1697918 51.5066793,-0.1723185 51.5074453))'),
  ('89195da4b0bffff', 'a', 'POLYGON((-0.1798993 51.5097431,-0.1819909 51.5087617,-0.1815553 51.5070144,-0.1790283 51.5062485,-0.1769368 51.5072299,-0.1773722 51.5089772,-0.1798993 51.5097431))'),
  ('89195da4b0fffff', null, 'POLYGON((-0.1769368 51.5072299,-0.1790283 51.5062485,-0.1785928 51.5045012,-0.1760660 51.5037353,-0.1739746 51.5047167,-0.1744100 51.5064640,-0.1769368 51.5072299))')
) v(h, o, w);

-- The hierarchy the coarse cells are counted with (H3's, as h3-py gives it).
select is(territory_h3_hex(territory_h3_parent(territory_h3('89195da4ba3ffff'), 8)), '88195da4bbfffff', 'territory_h3_parent: a cell''s resolution-8 parent');
select is(territory_h3_hex(territory_h3_parent(territory_h3('89195da4b0bffff'), 7)), '87195da4bffffff', 'territory_h3_parent: a cell''s resolution-7 parent');
select set_eq($$select territory_h3_hex(c) from unnest(territory_h3_children(territory_h3('88195da4bbfffff'))) c$$,
  array['89195da4ba3ffff', '89195da4ba7ffff', '89195da4babffff', '89195da4bafffff', '89195da4bb3ffff', '89195da4bb7ffff', '89195da4bbbffff'],
  'territory_h3_children: the 7 children');

-- The boxes, and the rows whose cell intersects each (read here, as the table's owner).
create temp table boxes (what text, x0 float8, y0 float8, x1 float8, y1 float8);
insert into boxes values ('every cell', -0.19, 51.50, -0.15, 51.52), ('the box''s west half', -0.19, 51.50, -0.17, 51.52),
  ('a band across both parents', -0.178, 51.506, -0.160, 51.507), ('inside one cell', -0.1640, 51.5050, -0.1639, 51.5051),
  ('one shared edge''s corner', -0.16013, 51.50535, -0.16011, 51.50537), ('next to the territory', -0.15, 51.50, -0.14, 51.52);
create temp table intersecting as
  select b.what, t.hex_id, (t.owner_user_id is not null)::integer as claimed from boxes b join territory_hex t
      on t.hex_id like '89195da4%' and st_intersects(t.cell, st_makeenvelope(b.x0, b.y0, b.x1, b.y1, 4326));
grant select on boxes, intersecting to authenticated;
select results_eq('select what, count(i.hex_id)::integer from boxes b left join intersecting i using (what) group by what order by what',
  $$values ('a band across both parents', 8), ('every cell', 11), ('inside one cell', 1), ('next to the territory', 0),
           ('one shared edge''s corner', 3), ('the box''s west half', 4)$$, 'the boxes meet 8, 11, 1, 0, 3 and 4 cells');

-- Function calls counted in this transaction (the up-close read below makes no walk).
set local track_functions = 'all';
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-00000000000a", "role": "authenticated"}', true);
-- Resolution 9: exactly ST_Intersects, for boxes over all, a part, one cell's inside, a corner, nothing.
select set_eq(format('select hex_id, resolution, cells, owner_cells from territory_in_viewport(%s, %s, %s, %s)', x0, y0, x1, y1),
              format('select hex_id, 9 as r, claimed as c, claimed as o from intersecting where what = %L', what),
              format('resolution 9 = ST_Intersects: %s', what))
  from boxes;
select is((select count(*) from territory_in_viewport(-0.19, 51.50, -0.15, 51.52)), 11::bigint, 'every cell, the one without an owner too');
-- The app's call, cells only (territory_cells_up_close): the same cells, up close in one read,
-- with no walk (territory_zoom_pick not called); an empty box still goes to the walk.
select set_eq(format('select u.h, v.resolution, u.c, u.o from territory_cells_in_viewport(%s, %s, %s, %s) v, unnest(v.hex_ids, v.cells, v.owner_cells) u(h, c, o) where v.kind = %L',
                     x0, y0, x1, y1, 'cells'),
              format('select hex_id, 9 as r, claimed as c, claimed as o from intersecting where what = %L', what),
              format('cells only, resolution 9 = ST_Intersects: %s', what))
  from boxes;
\set pick_calls 'coalesce(pg_stat_get_xact_function_calls(''territory_zoom_pick(text, float8, float8, float8, float8, integer)''::regprocedure), 0)'
select :pick_calls as picks \gset
select results_eq($$select kind, resolution from territory_cells_in_viewport(-0.19, 51.50, -0.15, 51.52) where kind = 'all'$$,
  $$values ('all', 9)$$, 'cells only, up close: the whole answer at resolution 9');
select is(:pick_calls, :'picks'::bigint,
  'cells only, up close: answered without the walk (territory_zoom_pick not called)');
select results_eq($$select kind, resolution from territory_cells_in_viewport(-0.15, 51.50, -0.14, 51.52) where kind = 'all'$$,
  $$values ('all', 9)$$, 'cells only, an empty box: the walk''s answer, resolution 9');
select is(:pick_calls, :'picks'::bigint + 1,
  'cells only, an empty box: the walk decides (territory_zoom_pick called once)');
select is((select count(*) from territory_in_viewport(-0.19, 51.50, -0.15, 51.52, 11)), 11::bigint, 'max_cells = the count: still resolution 9');

-- Coarser answers.
select set_eq($$select hex_id, resolution, cells, owner_user_id, owner_cells from territory_in_viewport(-0.19, 51.50, -0.15, 51.52, 2)$$,
  $$values ('88195da4bbfffff', 8, 7, '00000000-0000-4000-8000-00000000000a'::uuid, 5),
           ('88195da4b1fffff', 8, 3, '00000000-0000-4000-8000-00000000000b'::uuid, 2)$$,
  'max_cells 2: the two resolution-8 cells, their claimed cells, majority owner and its cells');
select set_eq($$select hex_id, resolution, cells, owner_user_id, owner_cells from territory_in_viewport(-0.19, 51.50, -0.15, 51.52, 1)$$,
  $$values ('87195da4bffffff', 7, 10, '00000000-0000-4000-8000-00000000000a'::uuid, 6)$$,
  'max_cells 1: the resolution-7 cell, 10 claimed cells, runner a''s 6');
select results_eq($$select last_run_id from territory_in_viewport(-0.19, 51.50, -0.15, 51.52, 2) where hex_id = '88195da4b1fffff'$$,
  $$values ('30000000-0000-4000-8000-00000000000b'::uuid)$$, 'a coarse cell''s last run: its owner''s latest claim there');
select is_empty('select * from territory_in_viewport(-0.19, 51.50, -0.15, 51.52, 0)', 'max_cells 0: no rows');
select throws_ok('select * from territory_in_viewport(null, 51.50, -0.15, 51.52)', '22023', null, 'a null bound is refused (22023)');
select throws_ok('select * from territory_in_viewport(-0.19, 51.52, -0.15, 51.50)', '22023', null, 'min_lat > max_lat is refused (22023)');
reset role;

-- The coarse cells' pass deferred to the end of the writer's transaction (territory.zoom_defer,
-- territory_zoom_flush: as the followers write) leaves them as the pass in the writer's own
-- statement does, change numbers included (one transaction: one number).
\set upsert 'insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at) values (''89195da4ba3ffff'', ''00000000-0000-4000-8000-00000000000b'', ''30000000-0000-4000-8000-00000000000b'', ''2026-11-21T09:00:00Z''), (''89195da4b13ffff'', ''00000000-0000-4000-8000-00000000000a'', ''30000000-0000-4000-8000-00000000000a'', ''2026-11-21T09:00:00Z'') on conflict (hex_id) do update set owner_user_id = excluded.owner_user_id, last_run_id = excluded.last_run_id, claimed_at = excluded.claimed_at'
\set zoom 'select md5(string_agg(concat_ws(''|'', h3, cells, owner_user_id, owner_cells, last_run_id, claimed_at, children, grandchildren, change), '','' order by h3)) from territory_zoom'
select (:zoom) as written_before \gset
savepoint in_statement;
:upsert;
select (:zoom) as in_statement \gset
rollback to savepoint in_statement;
select set_config('territory.zoom_defer', 'on', true);
:upsert;
select is((:zoom), :'written_before', 'deferred: the coarse cells unchanged until the flush');
select territory_zoom_flush();
select is((:zoom), :'in_statement', 'territory_zoom_flush: the coarse cells as the pass in the upsert''s statement leaves them');
select is(current_setting('territory.zoom_defer', true), 'off', 'territory_zoom_flush ends the deferral');

-- The box (territory_box_inline): one expression PostgreSQL inlines into its callers, not a query
-- planned and run on every call of the viewport functions.
create function pg_temp.plan_of(q text) returns text language plpgsql as $$
declare r text; o text := '';
begin
  for r in execute 'explain (verbose, costs off) ' || q loop o := o || r || E'\n'; end loop;
  return o;
end $$;
select unalike(pg_temp.plan_of($q$select territory_zoom_box(x, 51.5, x + 0.01, 51.51) from generate_series(1, 2) x$q$), '%territory_zoom_box%',
  'territory_zoom_box is inlined into its caller');

select * from finish();
rollback;
