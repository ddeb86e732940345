-- Runner stats (20261128120000_territory_privacy.sql, 20261128150000_runner_runs.sql): a run
-- stored counts in territory_runner_runs, pending or not; judging it writes the judged figures
-- (territory_runner_totals) and no new row version of the runner's count, so a submission never
-- waits for a judging transaction; territory_runner_stats adds both, as before.
begin;
select plan(8);

insert into users (id, username) values ('00000000-0000-4000-8000-0000000000c1', 'pgtap-runs');
insert into runs (id, user_id, started_at, ended_at) values
  ('31000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000c1', '2026-11-21T07:00:00Z', '2026-11-21T07:30:00Z'),
  ('31000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-0000000000c1', '2026-11-21T08:00:00Z', '2026-11-21T08:30:00Z');

select is((select runs from territory_runner_runs where user_id = '00000000-0000-4000-8000-0000000000c1'), 2::bigint,
  'two pending runs stored: the runner''s count is 2');
select is((select count(*) from territory_runner_totals where user_id = '00000000-0000-4000-8000-0000000000c1'), 0::bigint,
  'pending runs write no judged figures');
select is((select (runs, valid_runs, km_run) from territory_runner_stats where user_id = '00000000-0000-4000-8000-0000000000c1'),
  row(2::bigint, 0::bigint, 0::double precision), 'the stats: 2 runs, none valid, 0 km');

create temp table count_version as
  select xmin::text as v from territory_runner_runs where user_id = '00000000-0000-4000-8000-0000000000c1';
update runs set valid_loop = true, distance_m = 4200 where id = '31000000-0000-4000-8000-0000000000c1';
update runs set valid_loop = false, distance_m = 800 where id = '31000000-0000-4000-8000-0000000000c2';
select is((select xmin::text from territory_runner_runs where user_id = '00000000-0000-4000-8000-0000000000c1'), (select v from count_version),
  'judging the runs writes no row version of the runner''s count');
select is((select (runs, valid_runs, distance_m) from territory_runner_totals where user_id = '00000000-0000-4000-8000-0000000000c1'),
  row(0::bigint, 1::bigint, 5000::double precision), 'the judged figures: 1 valid run, 5,000 m (the count stays in territory_runner_runs)');
select is((select (runs, valid_runs, km_run) from territory_runner_stats where user_id = '00000000-0000-4000-8000-0000000000c1'),
  row(2::bigint, 1::bigint, 5::double precision), 'the stats: 2 runs, 1 valid, 5 km');

delete from runs where user_id = '00000000-0000-4000-8000-0000000000c1';
select is((select (runs, valid_runs, km_run) from territory_runner_stats where user_id = '00000000-0000-4000-8000-0000000000c1'),
  row(0::bigint, 0::bigint, 0::double precision), 'both runs deleted: 0 runs, 0 valid, 0 km');
select is(territory_runner_totals_rebuild(), 0::bigint, 'territory_runner_totals_rebuild() then changes nothing');

select * from finish();
rollback;
