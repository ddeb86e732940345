-- Cities and countries for the city-ranking app (CONTRACTS §7), written by geo-cities.
-- Contains data from GeoNames (www.geonames.org), CC BY 4.0.
-- Safe to apply more than once. The rows come from seed.sql.
--
-- Search: search_cities(q, n) folds the query like the stored keys (lower case, no diacritics,
-- punctuation as spaces), then ranks exact name (the name or another name), name prefix,
-- other-name prefix, word prefix, anywhere; then population. Queries of 3 characters or more
-- use the trigram index on search_keys; shorter ones the prefix index on name_key. Cities that
-- left the source (retired_at set) stay in the table for the users who point at them, but are
-- no longer offered by the search.

create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;
create extension if not exists unaccent with schema extensions;

-- unaccent() is only stable (its dictionary could change), so it cannot sit in an index or a
-- generated column; this wrapper names the dictionary explicitly and is declared immutable,
-- the usual trick. unaccent runs before lower() and lower() uses the "C" collation, so the
-- key is the same whatever the database's collation; what is neither a letter nor a digit
-- (ASCII punctuation, symbols, general punctuation, modifier letters) becomes one space.
-- The extension's schema is looked up, since a database may have installed it elsewhere
-- (Supabase keeps extensions in the schema "extensions") before this migration ran.
-- name_key and search_keys are stored: a later migration that changes city_fold or city_keys
-- must also recompute them (update public.cities set plain_name = plain_name).
do $migration$
declare s text;
begin
  select n.nspname into s from pg_extension e join pg_namespace n on n.oid = e.extnamespace
   where e.extname = 'unaccent';
  execute format($f$
    create or replace function public.city_fold(t text) returns text
    language sql immutable parallel safe strict
    as $b$ select btrim(regexp_replace(lower(%I.unaccent(%L::regdictionary, t) collate "C"),
      '[^0-9a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02b8\u0300-\u1fff\u2070-\U0010ffff]+', ' ', 'g')) $b$
  $f$, s, quote_ident(s) || '.unaccent');
  -- Every key of a city between bars, folded as above: '|sao paulo|sampa|san paolo|'.
  -- alt_names is '|'-separated. One expression (no subquery), so PostgreSQL inlines it.
  execute format($f$
    create or replace function public.city_keys(plain_name text, alt_names text) returns text
    language sql immutable parallel safe
    as $b$ select regexp_replace('|' || regexp_replace(
        lower(%I.unaccent(%L::regdictionary, plain_name || coalesce('|' || nullif(alt_names, ''), '')) collate "C"),
        '[^0-9a-z|\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02b8\u0300-\u1fff\u2070-\U0010ffff]+', ' ', 'g') || '|',
      ' *[|]( *[|])* *', '|', 'g') $b$
  $f$, s, quote_ident(s) || '.unaccent');
  -- The client roles call city_fold through search_cities.
  execute format('grant usage on schema %I to anon, authenticated', s);
end
$migration$;

create table if not exists public.countries (
  id bigint primary key,                     -- GeoNames id of the country
  name text not null,
  country_code text not null unique check (country_code ~ '^[A-Z]{2}$'),
  capital text,
  continent text not null,
  population bigint,
  in_source boolean not null default true    -- false: no longer in the app's country set
);

create table if not exists public.cities (
  id bigint primary key,                     -- GeoNames id, stable across reloads
  display_name text not null,                -- 'São Paulo, São Paulo, Brazil'
  plain_name text not null,                  -- the city's name without diacritics
  admin text,                                -- first-level administrative division, if known
  country text not null,                     -- name of the country (countries.name)
  country_id bigint not null references public.countries(id),
  population bigint,
  latitude double precision not null check (latitude between -90 and 90),
  longitude double precision not null check (longitude between -180 and 180),
  created_at timestamptz not null default now(),
  alt_names text,                            -- other names (Latin script), '|'-separated
  retired_at timestamptz,                    -- set when the city left the source; never deleted
  name_key text collate "C" generated always as (public.city_fold(plain_name)) stored,
  search_keys text generated always as (public.city_keys(plain_name, alt_names)) stored
);

create index if not exists cities_search_keys_trgm on public.cities
  using gin (search_keys extensions.gin_trgm_ops);
create index if not exists cities_name_key on public.cities (name_key);
create index if not exists cities_country_id on public.cities (country_id);

-- The app's users' rows (CONTRACTS §7), created only where the app has not made the table yet.
-- A table made here is closed to the client roles (row-level security) until the app adds its
-- policies; where Supabase's auth.uid() exists, each signed-in user reads and writes their own.
do $user_city$
begin
  if to_regclass('public.user_city') is null then
    create table public.user_city (
      id bigint generated by default as identity primary key,
      user_id uuid not null,
      city_id bigint not null references public.cities(id),
      visited boolean not null default false,
      rating real,
      notes text,
      created_at timestamptz not null default now()
    );
    create index user_city_city_id on public.user_city (city_id);
    alter table public.user_city enable row level security;
    if to_regprocedure('auth.uid()') is not null then
      create policy user_city_own on public.user_city for all to authenticated
        using (user_id = auth.uid()) with check (user_id = auth.uid());
    end if;
  end if;
end
$user_city$;

-- An SQL function without SET or STRICT, so PostgreSQL inlines it into the caller's query and
-- plans it with the query's value. The folded query is a scalar subquery: computed once, it can
-- drive an index even in a generic plan. Each branch runs only for its query length (a one-time
-- filter) and keeps the ids of its n best (narrow rows: the wide alt_names and search_keys are
-- not carried through the sort), joined back to their rows at the end: a short query walks the
-- name_key prefix range (B-tree, "C" collation) and ranks by exact name then population; a
-- longer one uses the trigram index and ranks an exact name (the name or another name: "mexico"
-- finds Mexico City before Mexico, Pampanga), start of the name, start of another name, start
-- of a word, anywhere; then population. city_fold leaves letters,
-- digits and single spaces, so the key needs no LIKE escaping.
create or replace function public.search_cities(q text, n int default 10)
returns setof public.cities
language sql stable parallel safe
as $$
  select c.*
    from ((select id, case when name_key = (select public.city_fold(q)) then 0 else 2 end as r, population
             from public.cities
            where length((select public.city_fold(q))) between 1 and 2
              and name_key >= (select public.city_fold(q))
              and name_key < (select public.city_fold(q) || chr(1114111))
              and retired_at is null
            order by 2, population desc nulls last, id
            limit greatest(coalesce(n, 10), 0))
          union all
          (select id, case
                        when position((select '|' || public.city_fold(q) || '|') in search_keys) > 0 then 0
                        when starts_with(name_key, (select public.city_fold(q))) then 2
                        when position((select '|' || public.city_fold(q)) in search_keys) > 0 then 3
                        when position((select ' ' || public.city_fold(q)) in search_keys) > 0 then 4
                        else 5
                      end, population
             from public.cities
            where length((select public.city_fold(q))) >= 3
              and search_keys like (select '%' || public.city_fold(q) || '%')
              and retired_at is null
            order by 2, population desc nulls last, id
            limit greatest(coalesce(n, 10), 0))) as best
    join public.cities c on c.id = best.id
   order by best.r, best.population desc nulls last, best.id
$$;

-- Readable by everyone, writable by no client role: only the owner (the seed) writes.
alter table public.countries enable row level security;
alter table public.cities enable row level security;
drop policy if exists countries_read on public.countries;
create policy countries_read on public.countries for select using (true);
drop policy if exists cities_read on public.cities;
create policy cities_read on public.cities for select using (true);
revoke insert, update, delete, truncate on public.countries, public.cities from anon, authenticated;
grant select on public.countries, public.cities to anon, authenticated;
grant execute on function public.search_cities(text, int) to anon, authenticated;