-- A cities seed whose third city row lost a value (latitude and longitude run together):
-- the release must refuse it, naming the line, not skip the row.
insert into public.countries as t (id, name, country_code, capital, continent, population) values
(2110425, 'Nauru', 'NR', 'Yaren', 'Oceania', 12704);
insert into public.cities as t (id, display_name, plain_name, admin, country, country_id, population, latitude, longitude, alt_names) values
(2110257, 'Yaren', 'yaren', 'Yaren', 'NR', 2110425, 1100, -0.55085, 166.9252, ''),
(7626461, 'Denigomodu', 'denigomodu', 'Denigomodu', 'NR', 2110425, 2827, -0.52333, 166.91667, ''),
(7626499, 'Arijejen', 'arijejen', 'Anetan', 'NR', 2110425, 2000, -0.5111 166.9278, '');
