-- submit_run (20261126120000_submit_run.sql): each refusal of its header with its SQLSTATE and
-- nothing stored; a run stored once, pending, as its caller's; the same id and body again
-- stores nothing.
begin;
select plan(26);

insert into users (id, username) values
  ('00000000-0000-4000-8000-00000000000a', 'pgtap-a'), ('00000000-0000-4000-8000-00000000000b', 'pgtap-b');
-- The runs the tests submit: a loop of 5 fixes around 100 m of Hyde Park, a minute apart, and
-- the same with one thing wrong each.
create temp table bodies (name text primary key, body jsonb not null);
grant select on bodies to authenticated, anon;
insert into bodies values ('ok', '{"type": "Feature", "id": "10000000-0000-4000-8000-000000000001",
  "geometry": {"type": "LineString", "coordinates": [[-0.1650, 51.5060], [-0.1636, 51.5060], [-0.1636, 51.5069], [-0.1650, 51.5069], [-0.1650, 51.5060]]},
  "properties": {"times": ["2026-11-21T07:00:00Z", "2026-11-21T07:01:00Z", "2026-11-21T07:02:00Z", "2026-11-21T07:03:00Z", "2026-11-21T07:04:00Z"],
                 "accuracy_m": [5, 5, 5, 5, 5]}}');
insert into bodies select v.name, v.body from bodies b, lateral (values
    ('other_body', jsonb_set(b.body, '{geometry,coordinates}',
       '[[-0.1750, 51.5160], [-0.1736, 51.5160], [-0.1736, 51.5169], [-0.1750, 51.5169], [-0.1750, 51.5160]]')),
    ('not_feature', jsonb_set(b.body, '{type}', '"FeatureCollection"')),
    ('no_id', b.body - 'id'),
    ('id_not_uuid', jsonb_set(b.body, '{id}', '"run-1"')),
    ('point', jsonb_set(b.body, '{geometry}', '{"type": "Point", "coordinates": [-0.165, 51.506]}')),
    ('no_times', b.body #- '{properties,times}'),
    ('no_accuracy', b.body #- '{properties,accuracy_m}'),
    ('times_count', b.body #- '{properties,times,4}'),
    ('bad_time', jsonb_set(b.body, '{properties,times,2}', '"yesterday"')),
    ('backwards', jsonb_set(b.body, '{properties,times,2}', '"2026-11-21T06:00:00Z"')),
    ('over_24h', jsonb_set(b.body, '{properties,times,4}', '"2026-11-22T08:00:00Z"')),
    ('outside', jsonb_set(b.body, '{geometry,coordinates,1}', '[200, 51.5]')),
    ('negative_accuracy', jsonb_set(b.body, '{properties,accuracy_m,3}', '-1')),
    ('string_number', jsonb_set(b.body, '{geometry,coordinates,1,0}', '"-0.1636"')),
    ('too_many_fixes', jsonb_set(jsonb_set(jsonb_set(b.body, '{geometry,coordinates}',
        (select jsonb_agg(jsonb_build_array(-0.165, 51.506)) from generate_series(0, 20000))),
        '{properties,times}', (select jsonb_agg('2026-11-21T07:00:00Z'::text) from generate_series(0, 20000))),
        '{properties,accuracy_m}', (select jsonb_agg(5) from generate_series(0, 20000)))),
    ('other_runner', jsonb_set(b.body, '{properties,user_id}', '"00000000-0000-4000-8000-00000000000b"'))
  ) v(name, body) where b.name = 'ok';
insert into bodies select 'ok_b', jsonb_set(body, '{id}', '"10000000-0000-4000-8000-000000000002"') from bodies where name = 'other_body';

-- No one signed in, and anon.
select throws_ok($$select submit_run(body) from bodies where name = 'ok'$$, '42501', null,
  'no signed-in runner (auth.uid() null): refused, 42501');
set local role anon;
select throws_ok($$select submit_run(body) from bodies where name = 'ok'$$, '42501', null,
  'anon may not call submit_run');
reset role;

-- Runner a signs in.
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-00000000000a", "role": "authenticated"}', true);
select throws_ok(format('select submit_run(body) from bodies where name = %L', n), '22023', null,
                 format('a run the night would quarantine (%s): refused, 22023', n))
  from unnest(array['not_feature', 'no_id', 'id_not_uuid', 'point', 'no_times', 'no_accuracy', 'times_count',
                    'bad_time', 'outside', 'negative_accuracy', 'string_number']) n;
select throws_ok(format('select submit_run(body) from bodies where name = %L', n), '22023', null,
                 format('a run over submit_run''s limits (%s): refused, 22023', n))
  from unnest(array['backwards', 'over_24h', 'too_many_fixes']) n;
select throws_ok($$select submit_run(body) from bodies where name = 'other_runner'$$, '42501', null,
  'properties.user_id another runner: refused, 42501');
reset role;
select is((select count(*) from runs where id in ('10000000-0000-4000-8000-000000000001', '10000000-0000-4000-8000-000000000002')),
  0::bigint, 'nothing stored by any refusal');

set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-00000000000a", "role": "authenticated"}', true);
select is((select submit_run(body) from bodies where name = 'ok'), '10000000-0000-4000-8000-000000000001'::uuid,
  'a well-formed run is stored: submit_run returns its id');
reset role;
select results_eq($$select user_id, judged_at is null, started_at, ended_at, submission #>> '{properties,user_id}', st_npoints(path)
                      from runs where id = '10000000-0000-4000-8000-000000000001'$$,
  $$values ('00000000-0000-4000-8000-00000000000a'::uuid, true, '2026-11-21T07:00:00Z'::timestamptz, '2026-11-21T07:04:00Z'::timestamptz,
            '00000000-0000-4000-8000-00000000000a', 5)$$,
  'stored pending as the caller''s: judged_at null, times from the fixes, the runner named in submission, the path from the coordinates');
create temp table stored as select xmin::text as version from runs where id = '10000000-0000-4000-8000-000000000001';

set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-00000000000a", "role": "authenticated"}', true);
select is((select submit_run(body) from bodies where name = 'ok'), '10000000-0000-4000-8000-000000000001'::uuid,
  'the same id and body again returns the id');
select throws_ok($$select submit_run(jsonb_set(body, '{id}', '"10000000-0000-4000-8000-000000000001"')) from bodies where name = 'other_body'$$,
  '23505', null, 'the id already stored with another body: refused, 23505');
-- Runner b's run under runner a's id.
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-00000000000b", "role": "authenticated"}', true);
select throws_ok($$select submit_run(body) from bodies where name = 'ok'$$, '23505', null,
  'another runner resending a stored id: refused, 23505');
-- A runner without a users row.
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-0000000000ff", "role": "authenticated"}', true);
select throws_ok($$select submit_run(body) from bodies where name = 'ok_b'$$, '23503', null,
  'a runner without a users row: refused, 23503');
reset role;
select results_eq($$select xmin::text from runs where id = '10000000-0000-4000-8000-000000000001'$$,
  $$select version from stored$$, 'the resend and the refusals left the stored run as it was (same row version)');
select is((select count(*) from runs where id = '10000000-0000-4000-8000-000000000002'), 0::bigint,
  'the refused run is not stored');

select * from finish();
rollback;
