-- Who reads and writes the game's tables (20261125120000_territory_viewport.sql,
-- 20261126120000_submit_run.sql, 20261126130000_territory_at_every_zoom.sql,
-- 20261128120000_territory_privacy.sql), per role: anon nothing; authenticated its own runs whole
-- (runs, my_runs) and nothing of another's but the hex sheet, the territory without the claims'
-- time, and writes nothing; service_role everything.
begin;
select plan(29);

insert into users (id, username) values
  ('00000000-0000-4000-8000-00000000000a', 'pgtap-a'), ('00000000-0000-4000-8000-00000000000b', 'pgtap-b');
insert into runs (id, user_id, started_at, ended_at, distance_m, valid_loop, path, submission, judged_at) values
  ('20000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000a', '2026-11-21T07:00:00Z', '2026-11-21T07:30:00Z', 5000, true,
   'SRID=4326;LINESTRING(-0.165 51.506, -0.1636 51.506, -0.1636 51.5069, -0.165 51.506)', '{"type": "Feature"}', now()),
  ('20000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000b', '2026-11-21T08:00:00Z', '2026-11-21T08:30:00Z', 6000, true,
   'SRID=4326;LINESTRING(-0.175 51.516, -0.1736 51.516, -0.1736 51.5169, -0.175 51.516)', '{"type": "Feature"}', null);
insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell) values
  ('89195da4ba3ffff', '00000000-0000-4000-8000-00000000000a', '20000000-0000-4000-8000-00000000000a', '2026-11-21T07:30:00Z',
   'SRID=4326;POLYGON((-0.1630822 51.5078755,-0.1651737 51.5068944,-0.1647387 51.5051471,-0.1622124 51.5043809,-0.1601210 51.5053620,-0.1605558 51.5071093,-0.1630822 51.5078755))'),
  ('89195da4ba7ffff', '00000000-0000-4000-8000-00000000000b', '20000000-0000-4000-8000-00000000000b', '2026-11-21T08:30:00Z',
   'SRID=4326;POLYGON((-0.1601210 51.5053620,-0.1622124 51.5043809,-0.1617775 51.5026336,-0.1592514 51.5018674,-0.1571601 51.5028485,-0.1575948 51.5045958,-0.1601210 51.5053620))');
create temp table counts as select (select count(*) from runs) as runs, (select count(*) from territory_hex) as cells;
grant select on counts to anon, authenticated, service_role;

-- anon: nothing.
set local role anon;
select throws_ok('select count(*) from runs', '42501', null, 'anon reads no runs');
select throws_ok('select count(*) from territory_hex', '42501', null, 'anon reads no territory_hex');
select throws_ok('select count(*) from my_runs', '42501', null, 'anon reads no my_runs');
select throws_ok('select count(*) from territory_zoom', '42501', null, 'anon reads no territory_zoom');
select throws_ok('select count(*) from territory_in_viewport(-1, 51, 1, 52)', '42501', null, 'anon may not call territory_in_viewport');
select throws_ok($$insert into runs (id, user_id, started_at, ended_at) values (gen_random_uuid(), '00000000-0000-4000-8000-00000000000a', now(), now())$$,
  '42501', null, 'anon writes no runs');
reset role;

-- authenticated, as runner a.
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-00000000000a", "role": "authenticated"}', true);
select is((select count(*) from runs), 1::bigint, 'authenticated reads its own runs only');
select results_eq($$select id, distance_m, valid_loop, judged_at is null from runs where id::text like '20000000-%' order by id$$,
  $$values ('20000000-0000-4000-8000-00000000000a'::uuid, 5000::double precision, true, false)$$,
  'authenticated reads none of another runner''s runs');
select is((select count(*) from runs where path is not null and submission is not null), 1::bigint, 'authenticated reads its own run whole in runs');
select is_empty($$select * from runs where user_id <> '00000000-0000-4000-8000-00000000000a'$$, 'authenticated reads no other runner''s path, submission or times');
select throws_ok('select claimed_at from territory_hex', '42501', null, 'authenticated reads no claim''s time of day');
select results_eq($$select hex_id, owner_username, claimed_on, run_distance_m from territory_hex_sheet('89195da4ba7ffff')$$,
  $$values ('89195da4ba7ffff', 'pgtap-b', '2026-11-21'::date, 6000::double precision)$$, 'the hex sheet of another runner''s cell');
select results_eq($$select id, st_npoints(path), submission is not null from my_runs$$,
  $$values ('20000000-0000-4000-8000-00000000000a'::uuid, 4, true)$$, 'my_runs: runner a''s own runs only, whole (path, submission)');
select is((select count(*) from territory_hex), (select cells from counts), 'authenticated reads the territory');
select throws_ok($$insert into runs (id, user_id, started_at, ended_at) values (gen_random_uuid(), '00000000-0000-4000-8000-00000000000a', now(), now())$$,
  '42501', null, 'authenticated inserts no run (submit_run is the way)');
select throws_ok($$update runs set valid_loop = true where user_id = '00000000-0000-4000-8000-00000000000a'$$,
  '42501', null, 'authenticated updates no run, not even its own');
select throws_ok('delete from runs', '42501', null, 'authenticated deletes no run');
select throws_ok($$insert into territory_hex (hex_id) values ('89195da4bafffff')$$, '42501', null, 'authenticated inserts no cell');
select throws_ok($$update territory_hex set owner_user_id = '00000000-0000-4000-8000-00000000000a'$$, '42501', null,
  'authenticated takes no cell');
select throws_ok('delete from territory_hex', '42501', null, 'authenticated deletes no cell');
select throws_ok('delete from territory_zoom', '42501', null, 'authenticated writes no coarse cell');
select lives_ok('select count(*) from territory_in_viewport(-1, 51, 1, 52)', 'authenticated may call territory_in_viewport');

-- authenticated, as runner b; and a runner with no runs.
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-00000000000b", "role": "authenticated"}', true);
select results_eq($$select id, judged_at is null from my_runs$$,
  $$values ('20000000-0000-4000-8000-00000000000b'::uuid, true)$$, 'my_runs: runner b''s own runs only, its pending one included');
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-0000000000ff", "role": "authenticated"}', true);
select is_empty('select * from my_runs', 'my_runs: nothing for a runner with no runs');
select set_config('request.jwt.claims', '', true);
select is_empty('select * from my_runs', 'my_runs: nothing without a signed-in runner');
reset role;

-- service_role: reads and writes everything (row-level security bypassed).
set local role service_role;
select results_eq('select count(*) from runs', 'select runs from counts', 'service_role reads every run');
select is((select count(*) from runs where path is not null and submission is not null and id::text like '20000000-%'), 2::bigint,
  'service_role reads every run whole');
select lives_ok($$update territory_hex set owner_user_id = '00000000-0000-4000-8000-00000000000a', last_run_id = '20000000-0000-4000-8000-00000000000a'
                   where hex_id = '89195da4ba7ffff'$$, 'service_role writes the territory');
select lives_ok($$update runs set judged_at = now() where id = '20000000-0000-4000-8000-00000000000b'$$, 'service_role judges runs');
reset role;

select * from finish();
rollback;
