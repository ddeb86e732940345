-- Who reads and writes the cities app's tables (20261122000100_cities.sql), per role: anon and
-- authenticated read countries and cities and write neither; a signed-in user reads and writes
-- its own user_city rows only; anon none; service_role everything.
begin;
select plan(20);

insert into public.countries (id, name, country_code, continent) values (909, 'France', 'FR', 'EU');
insert into public.cities (id, display_name, plain_name, country, country_id, population, latitude, longitude) values
  (10, 'Paris, Île-de-France, France', 'Paris', 'France', 909, 2138551, 48.85, 2.35),
  (14, 'Lyon, Auvergne-Rhône-Alpes, France', 'Lyon', 'France', 909, 522969, 45.75, 4.85);
insert into public.user_city (user_id, city_id, visited) values
  ('00000000-0000-4000-8000-00000000000a', 10, true), ('00000000-0000-4000-8000-00000000000b', 14, true);

set local role anon;
select is((select count(*) from public.cities where id in (10, 14)), 2::bigint, 'anon reads the cities');
select is((select count(*) from public.countries where id = 909), 1::bigint, 'anon reads the countries');
select throws_ok($$insert into public.cities (id, display_name, plain_name, country, country_id, latitude, longitude)
                   values (99, 'X', 'X', 'France', 909, 0, 0)$$, '42501', null, 'anon inserts no city');
select throws_ok('update public.cities set population = 0', '42501', null, 'anon updates no city');
select throws_ok('delete from public.countries', '42501', null, 'anon deletes no country');
select is_empty('select * from public.user_city', 'anon reads no user_city row');
select throws_ok($$insert into public.user_city (user_id, city_id) values ('00000000-0000-4000-8000-00000000000a', 14)$$,
  '42501', null, 'anon writes no user_city row');
reset role;

set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-00000000000a", "role": "authenticated"}', true);
select is((select count(*) from public.cities where id in (10, 14)), 2::bigint, 'authenticated reads the cities');
select throws_ok('update public.cities set population = 0', '42501', null, 'authenticated updates no city');
select throws_ok('delete from public.cities', '42501', null, 'authenticated deletes no city');
select throws_ok($$insert into public.countries (id, name, country_code, continent) values (998, 'X', 'XX', 'EU')$$,
  '42501', null, 'authenticated inserts no country');
select results_eq('select city_id from public.user_city', array[10]::bigint[], 'user a reads its own user_city rows only');
select lives_ok($$insert into public.user_city (user_id, city_id) values ('00000000-0000-4000-8000-00000000000a', 14)$$,
  'user a adds a city to its own list');
select throws_ok($$insert into public.user_city (user_id, city_id) values ('00000000-0000-4000-8000-00000000000b', 10)$$,
  '42501', null, 'user a writes no row for user b');
select is_empty($$update public.user_city set rating = 1 where user_id = '00000000-0000-4000-8000-00000000000b' returning 1$$,
  'user a changes none of user b''s rows');
select is_empty($$delete from public.user_city where user_id = '00000000-0000-4000-8000-00000000000b' returning 1$$,
  'user a deletes none of user b''s rows');
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-00000000000b", "role": "authenticated"}', true);
select results_eq($$select city_id, rating from public.user_city$$, $$values (14::bigint, null::real)$$,
  'user b reads its own row only, unchanged');
reset role;

set local role service_role;
select is((select count(*) from public.user_city), 3::bigint, 'service_role reads every user_city row');
select lives_ok('update public.cities set population = population + 1 where id = 10', 'service_role writes the cities');
select lives_ok($$delete from public.user_city where user_id = '00000000-0000-4000-8000-00000000000b'$$, 'service_role writes user_city');
reset role;

select * from finish();
rollback;
