-- search_cities' ranking (20261126000100_cities_search.sql) on a few fixed rows: the examples its
-- header gives (own name before a bigger city's other name, own prefix before a small exact
-- name, common name exact), diacritics folded, a typo forgiven, a retired city and a duplicate
-- entry (same_as) never offered. Asked as anon, as the app asks.
begin;
select plan(10);

insert into public.countries (id, name, country_code, continent) values
  (901, 'India', 'IN', 'AS'), (902, 'Canada', 'CA', 'NA'), (903, 'Ukraine', 'UA', 'EU'), (904, 'Greece', 'GR', 'EU'),
  (905, 'Belgium', 'BE', 'EU'), (906, 'Mexico', 'MX', 'NA'), (907, 'Philippines', 'PH', 'AS'), (908, 'Brazil', 'BR', 'SA'),
  (909, 'France', 'FR', 'EU'), (910, 'United States', 'US', 'NA');
insert into public.cities (id, display_name, plain_name, admin, country, country_id, population, latitude, longitude, alt_names, common_names) values
  (1, 'New Delhi, Delhi, India', 'New Delhi', 'Delhi', 'India', 901, 317797, 28.61, 77.21, null, null),
  (2, 'Delhi, Delhi, India', 'Delhi', 'Delhi', 'India', 901, 11034555, 28.65, 77.23, 'New Delhi|Dilli', null),
  (3, 'Toronto, Ontario, Canada', 'Toronto', 'Ontario', 'Canada', 902, 2600000, 43.70, -79.42, null, null),
  (4, 'Slovyansk, Donetsk, Ukraine', 'Slovyansk', 'Donetsk', 'Ukraine', 903, 106972, 48.87, 37.62, 'Tor|Sloviansk', null),
  (5, 'Athens, Attica, Greece', 'Athens', 'Attica', 'Greece', 904, 664046, 37.98, 23.73, 'Athina|Athenes', null),
  (6, 'Ath, Wallonia, Belgium', 'Ath', 'Wallonia', 'Belgium', 905, 27000, 50.63, 3.78, null, null),
  (7, 'Mexico City, Mexico City, Mexico', 'Mexico City', 'Mexico City', 'Mexico', 906, 12294193, 19.43, -99.13, 'Ciudad de Mexico', 'Mexico'),
  (8, 'Mexico, Pampanga, Philippines', 'Mexico', 'Pampanga', 'Philippines', 907, 44000, 15.06, 120.72, null, null),
  (9, 'São Paulo, São Paulo, Brazil', 'Sao Paulo', 'Sao Paulo', 'Brazil', 908, 10021295, -23.55, -46.64, 'Sampa|São Paulo', null),
  (10, 'Paris, Île-de-France, France', 'Paris', 'Ile-de-France', 'France', 909, 2138551, 48.85, 2.35, null, null),
  (11, 'Paris, Texas, United States', 'Paris', 'Texas', 'United States', 910, 25171, 33.66, -95.56, null, null),
  (12, 'Toronto, Ontario, Canada', 'Toronto', 'Ontario', 'Canada', 902, 2500000, 43.71, -79.41, null, null),
  (13, 'Athens, Georgia, United States', 'Athens', 'Georgia', 'United States', 910, 127315, 33.96, -83.38, null, null);
update public.cities set same_as = 3 where id = 12;   -- GeoNames lists Toronto twice
update public.cities set retired_at = now() where id = 13;

set local role anon;
select results_eq($$select id from search_cities('new delhi', 2)$$, array[1, 2]::bigint[],
  '"new delhi": New Delhi (own name, 0.3 M) before Delhi (other name, 11 M)');
select results_eq($$select id from search_cities('tor', 2)$$, array[3, 4]::bigint[],
  '"tor": Toronto (own prefix, 2.6 M) before Slovyansk (old name Tor, 0.1 M)');
select results_eq($$select id from search_cities('ath', 2)$$, array[5, 6]::bigint[],
  '"ath": Athens (own prefix, 0.66 M) before Ath (own exact, 27 k)');
select results_eq($$select id from search_cities('mexico', 2)$$, array[7, 8]::bigint[],
  '"mexico": Mexico City (common name exact, 12 M) before Mexico, Pampanga (own exact, 44 k)');
select results_eq($$select id from search_cities('São Paulo', 1)$$, array[9]::bigint[], '"São Paulo": diacritics and case folded');
select results_eq($$select id from search_cities('SAO-PAULO', 1)$$, array[9]::bigint[], '"SAO-PAULO": punctuation folded to a space');
select results_eq($$select id from search_cities('paris', 5)$$, array[10, 11]::bigint[], '"paris": Paris, France before Paris, Texas');
select results_eq($$select id from search_cities('toronot', 1)$$, array[3]::bigint[], '"toronot": two letters swapped, Toronto still found');
select is_empty($$select 1 from search_cities('athens', 10) where id = 13$$, 'a retired city is not offered');
select results_eq($$select id from search_cities('toronto', 10)$$, array[3]::bigint[],
  'a place GeoNames lists twice is offered once (same_as)');
reset role;

select * from finish();
rollback;
