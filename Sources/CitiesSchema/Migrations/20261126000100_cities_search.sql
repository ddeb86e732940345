-- City search that ranks what people mean (issue #33), written by geo-cities; after
-- 20261122000100_cities.sql. Contains data from GeoNames (www.geonames.org), CC BY 4.0.
-- Safe to apply more than once; keeps the row-level security and grants of the first migration.
--
-- The keys of a city (folded like the query: lower case, no diacritics, punctuation as spaces):
--   own name      name_key: GeoNames' name of the city.
--   common names  common_keys: the other names people use. GeoNames marks them (preferred and
--                 short names) only in alternateNamesV2, which the pipeline's data lacks; an
--                 other name Natural Earth's populated places also give the city (its atlas,
--                 English, German, Spanish, French and Portuguese names) stands for them.
--   other names   search_keys: every other name. Code-like ones (airport codes, all-capital
--                 abbreviations: "MUN", "NYC") are no names: the stage leaves them out.
-- GeoNames entries that are one place listed twice (same name, same country and first-level
-- division, within a few km) carry same_as, the id of the entry the search offers instead; both
-- stay in the table (a user_city row may point at either).
--
-- Score = match bonus + log10(population); the best score first, then the lower id.
--   own name exact        3.0        common name exact     2.5
--   own name prefix       2.0        common name prefix    1.5
--   other name exact      1.0        a word of own name    1.0   ("york" → New York)
--   other name prefix     0.5        a word of other name  0.0
--   anywhere else        -1.0        trigram (typo)        8·s - 5.5   (s in 0.15…1)
-- So one kind of match is worth a factor of 10^bonus in population: "new delhi" finds New
-- Delhi (own, 0.3 M) before Delhi (other name, 11 M: 2 points = 100×); "tor" Toronto (own
-- prefix, 2.6 M) before Slovyansk (old name Tor, 0.1 M: 1 point = 10×); "ath" Athens (own prefix,
-- 0.66 M) before Ath, Belgium (own exact, 27 k: 1 point, 25×); "mexico" Mexico City (common name
-- exact, 12 M) before Mexico, Pampanga (own exact, 44 k: 0.5 point = 3×).
--
-- Queries of 1 or 2 characters walk the name_key prefix range (B-tree): own names only. Longer
-- ones take every key that holds the query (trigram GIN on search_keys). When nothing holds the
-- query or the best match is weak (scores under 8: less than the start of the own name of a
-- city of a million) and the query has 5 characters or more (a name of 6 letters with one
-- missing), typos are forgiven: city_near finds, through the trigram GIN on fuzzy_keys (own and
-- common names), the entries near the query by pg_trgm's word_similarity ≥ 0.35 (one wrong,
-- missing or extra letter in a name of 6 letters keeps 4 of its 7 trigrams: 0.4) or holding
-- the query with two neighbouring letters swapped back (a swap in the middle of a 6-letter
-- name keeps only 2 trigrams, as many as any name with the same first two letters: no
-- threshold tells them apart, the swapped-back query does). Each is scored by s, the greater
-- of its best similarity to one whole name and its word_similarity - 0.2 (a typo in one word
-- of a longer name). One wrong, missing, extra or swapped letter in a name of 6 letters or
-- more finds the city.

alter table public.cities add column if not exists common_names text;   -- '|'-separated
alter table public.cities add column if not exists same_as bigint;      -- offered as this id instead
alter table public.cities add column if not exists common_keys text
  generated always as (public.city_keys('', common_names)) stored;
alter table public.cities add column if not exists fuzzy_keys text
  generated always as (public.city_keys(plain_name, common_names)) stored;
create index if not exists cities_fuzzy_keys_trgm on public.cities
  using gin (fuzzy_keys extensions.gin_trgm_ops);

-- Not inlined (it has its own threshold), so planned with k as a parameter: both conditions
-- are trigram GIN scans for any k (a bitmap OR). k is folded: no LIKE wildcard in it. Reads
-- public.cities as the caller (row-level security applies).
create or replace function public.city_near(k text)
returns table (id bigint, similarity real, population bigint)
language sql stable parallel safe rows 50
set pg_trgm.word_similarity_threshold = 0.35
as $$
  select id, greatest((select max(extensions.similarity(k, key))
                         from unnest(string_to_array(btrim(fuzzy_keys, '|'), '|')) key),
                      extensions.word_similarity(k, fuzzy_keys) - 0.2)::real, population
    from public.cities
   where (k operator(extensions.<%) fuzzy_keys
          or fuzzy_keys like any (array(select '%' || overlay(k placing substr(k, i + 1, 1) || substr(k, i, 1) from i for 2) || '%'
                                          from generate_series(1, length(k) - 1) i)))
     and retired_at is null and same_as is null
$$;

-- An SQL function without SET or STRICT, so PostgreSQL inlines it into the caller's query and
-- plans it with the query's value; the query is folded once (k) and read through scalar
-- subqueries (each an InitPlan: it can drive an index even in a generic plan). Each branch runs only when its one-time filter holds
-- and keeps its n best ids (narrow rows), joined back to their rows at the end.
create or replace function public.search_cities(q text, n int default 10)
returns setof public.cities
language sql stable parallel safe
as $$
  with k as (select public.city_fold(q) as k), best as (
    (select id, case when name_key = (select k from k) then 3.0 else 2.0 end as bonus, population
       from public.cities
      where length((select k from k)) between 1 and 2
        and name_key >= (select k from k)
        and name_key < (select k || chr(1114111) from k)
        and retired_at is null and same_as is null
      order by case when name_key = (select k from k) then 3.0 else 2.0 end
               + log(greatest(population, 1)) desc, id
      limit greatest(coalesce(n, 10), 0))
    union all
    (select id, bonus, population from (
       select id, case
                    when name_key = (select k from k) then 3.0
                    when position((select '|' || k || '|' from k) in common_keys) > 0 then 2.5
                    when starts_with(name_key, (select k from k)) then 2.0
                    when position((select '|' || k from k) in common_keys) > 0 then 1.5
                    when position((select '|' || k || '|' from k) in search_keys) > 0 then 1.0
                    when position((select ' ' || k from k) in name_key) > 0 then 1.0
                    when position((select '|' || k from k) in search_keys) > 0 then 0.5
                    when position((select ' ' || k from k) in search_keys) > 0 then 0.0
                    else -1.0
                  end as bonus, population
         from public.cities
        where length((select k from k)) >= 3
          and search_keys like (select '%' || k || '%' from k)
          and retired_at is null and same_as is null) m
      order by bonus + log(greatest(population, 1)) desc, id
      limit greatest(coalesce(n, 10), 0))
  ), near as (
    select id, 8.0 * similarity - 5.5 as bonus, population
      from public.city_near((select k from k))
     where length((select k from k)) >= 5
       and not exists (select 1 from best where bonus + log(greatest(population, 1)) >= 8.0)
  ), ranked as (
    select id, max(bonus + log(greatest(population, 1))) as score
      from (select * from best union all select * from near) s
     group by id
  )
  select c.* from ranked r join public.cities c on c.id = r.id
   order by r.score desc, r.id
   limit greatest(coalesce(n, 10), 0)
$$;

grant execute on function public.city_near(text) to anon, authenticated;
grant execute on function public.search_cities(text, int) to anon, authenticated;