-- City search for what people type anywhere (issue #40), written by geo-cities; after
-- 20261126000100_cities_search.sql. Contains data from GeoNames (www.geonames.org), CC BY 4.0.
-- Safe to apply more than once; keeps the row-level security and grants of the first migrations.
-- The functions made here have a fixed, empty search_path: every name is written with its
-- schema (the extensions are reached through city_fold and city_near, which find them).
--
-- What search_cities(q, n) reads, besides the keys of 20261126000100_cities_search.sql:
--   script_names   the city's GeoNames names in other scripts (Москва, 東京, القاهرة, 서울),
--                  '|'-separated; their keys are rows of city_names (kind 's').
--   abbreviations  what people write for the city (NYC, L.A., SF, DC, KL): a GeoNames alternate
--                  name without a lower-case letter whose letters (2 to 5; dots and spaces
--                  dropped) are the initials of two or more consecutive capitalised words of the
--                  city's own name or a common name ("New York City" → NYC, "Washington D. C."
--                  → DC). Every other such name (airport codes LAX, SFO, MUN; other codes) is
--                  dropped by the stage, as before. Keys in city_names (kind 'a').
--   city_qualifiers  what may follow a city: countries (ISO code, the app's name and the names
--                  of world.geojson's aliases: CZ, Czechia, Czech Republic, GB, UK, United
--                  Kingdom, Great Britain), first-level divisions (GeoNames' name, the ISO
--                  3166-2 code and name: SC, South Carolina; NSW; ON, Ontario; BY, Bayern,
--                  Bavaria) and territories (their code and name, with their sovereign's id).
--
-- Folding: the Latin keys as before (public.city_fold); the stage adds the forms people write
-- for Mount, Saint, Sainte and Fort ("Mt Pleasant") to the other names. Names in other scripts
-- and the query for them (city_fold_script): compatibility decomposition (NFKD: full-width
-- forms become ASCII, Hangul syllables their jamo, so a syllable being composed is a prefix:
-- 서우 → 서울), the marks dropped where they are accents or vowel points (Latin, Greek and
-- Cyrillic accents: Ё → Е, ά → α; Hebrew points; Arabic harakat, hamza on its carrier,
-- tatweel; the joiners), kept where they are letters (Devanagari, Thai, Bengali… vowel signs;
-- kana voicing), Unicode lower case (Cyrillic, Greek, Armenian, Georgian; final sigma σ),
-- Arabic and Persian letter forms made one (ٱ → ا, ی ى ې → ي, ک → ك, ة → ه, ہ ھ → ه, Eastern
-- digits → 0-9), punctuation of every script one space. CJK needs no folding: a character
-- typed is a prefix (東 → 東京).
--
-- Score = match bonus + log10(population), the best first, then the lower id. The bonuses of
-- 20261126000100_cities_search.sql stay (own name exact 3.0 … typo 8·s - 5.5), and:
--   name in another script exact  3.0     prefix  2.0    (the name in the user's script is
--                                                       their own name of the city)
--   abbreviation exact            2.0, or 3.0 typed as one (capitals, or letters with dots:
--                                 "LA", "L.A."); "la" stays Lagos (9 M) before Los Angeles
--                                 (3.8 M), "sf", "nyc", "kl", "dc" find theirs
--   qualifier                     + 3.0 for each part after the city that names the city's
--                                 country, division or territory (+ 2.0 when the last part
--                                 is only the start of one: "toledo, sp")
-- So a matching qualifier is worth a factor of 1000 in population: "toledo, spain" finds
-- Toledo, Spain (74 k) before Toledo, Ohio (270 k); "paris, tx" Paris, Texas. Two parts that
-- both match (Springfield, IL, USA) beat one.
--
-- Reading the query. "City, qualifier[, qualifier]": the part before the first comma is
-- searched as before, alone (every city it finds is offered: a qualifier that matches nothing
-- never empties the answer) and, in the cities its qualifiers name, again with the bonus.
-- Without a comma, "city region country": while the query has words left, its last one to
-- four words are peeled off as a qualifier when they are one exactly, of two letters or more
-- (a one-letter code, La Pampa's L, would fire while a name is typed: "santa cruz de l"; it
-- counts after a comma), at most two; the head
-- left must then be a whole name of the city (own, common or other name exact: "san juan
-- puerto rico", "durham gb", "springfield illinois usa"), and the whole query is searched as
-- before too. A query with a letter of another script looks up city_names (prefix, B-tree:
-- any script, any database collation; the Latin keys are not searched). A query of single
-- letters ("L.A.", "n y c") is read as one word ("la", "nyc"); one of 2 to 5 letters also looks
-- up the abbreviations.
--
-- Stable while typing: as a name grows letter by letter, its city keeps or gains bonus (own
-- prefix 2.0, then exact 3.0) while the other matches only thin out, so a city first stays
-- first, unless another city's name met on the way matches better: exactly ("buda" on the way
-- to Budapest, "tanger" = Tangier on the way to Tangerang) or as a common name ("nov": Nova
-- Iorque, New York). Of the 300 most populous cities 6 lose first place so on some prefix,
-- as before this migration. No qualifier is peeled off a query without a comma unless it is
-- a whole one of two letters or more and the head a whole name: a name being typed does not
-- trip one; the probes' typing sequences hold each city first once it is.
--
-- Speed: PL/pgSQL reads the query (a few microseconds), then one statement holding only the
-- branches this query needs is planned with its values (EXECUTE … USING: a one-off plan, as
-- the inlined SQL function before it was planned on every call).

alter table public.cities add column if not exists script_names text;    -- '|'-separated
alter table public.cities add column if not exists abbreviations text;   -- '|'-separated

-- The fold of names in other scripts, in two halves: low(t) decomposes, drops the marks and
-- lowers the case, fin(s) makes Arabic letter forms one and punctuation one space. Lower case
-- by the ICU root collation where PostgreSQL has ICU, else glibc's C.UTF-8 (Unicode's case
-- mapping, the same for every script this data has; final sigma made σ), picked when this
-- migration is applied. city_fold_script (the query) and the trigger that keys city_names
-- (written out, no function call a name: 127,000 names load in a second or two) are made from
-- the same text.
do $migration$
declare
  coll text;
  low text;
  fin text;
begin
  select quote_ident(collname) into coll from pg_collation
   where collname in ('und-x-icu', 'C.utf8', 'C.UTF-8') and collencoding in (-1, 6)
   order by collname = 'und-x-icu' desc, collname limit 1;
  if coll is null then
    raise exception 'city_fold_script needs the collation "und-x-icu" (ICU) or "C.utf8" (glibc) for Unicode lower case';
  end if;
  low := format($e$lower(regexp_replace(normalize(%%1$s, NFKD),
      '[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u0640\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed\u200b-\u200f\u2060\ufeff]+', '', 'g')
      collate pg_catalog.%s)$e$, coll);
  fin := format($e$btrim(regexp_replace(replace(case when %%1$s ~ '[\u0600-\u06ff]' then translate(%%1$s, %L, %L) else %%1$s end, 'ς', 'σ'),
      '[\u0000-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u00bf\u00d7\u00f7\u02b9-\u02ff\u037e\u0387\u055a-\u055f\u0589\u058a\u05be\u05c0\u05c3\u05c6\u05f3\u05f4\u060c\u061b\u061f\u066a-\u066d\u06d4\u0964\u0965\u0e4f\u0e5a\u0e5b\u0f04-\u0f14\u104a\u104b\u1360-\u1368\u2000-\u206f\u2190-\u2bff\u3000-\u3003\u3008-\u3011\u3014-\u301f\u30fb\ufe10-\ufe6f]+', ' ', 'g'))$e$,
    'ٱیىېۍےکةەہھ٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', 'ايييييكهههه01234567890123456789');
  execute format($f$
    create or replace function public.city_fold_script(t text) returns text
    language sql immutable parallel safe strict
    set search_path = ''
    as $b$ select %s from (select %s as s) f $b$
  $f$, format(fin, 's'), format(low, 't'));
  -- The keys of a changed city's names (cities.script_names, cities.abbreviations): statement
  -- triggers below, so a reload that changes no city writes no key.
  execute format($f$
    create or replace function public.city_names_sync() returns trigger
    language plpgsql
    set search_path = ''
    as $b$
    begin
      delete from public.city_names n using changed c where n.city_id = c.id;
      insert into public.city_names (kind, key, city_id, population)
      select distinct n.kind, case when n.kind = 'a' then replace(f.key, ' ', '') else f.key end, n.id, n.population
        from (select 's'::"char" as kind, x, c.id, c.population from changed c, unnest(string_to_array(c.script_names, '|')) x
              union all
              select 'a'::"char", x, c.id, c.population from changed c, unnest(string_to_array(c.abbreviations, '|')) x) n,
             lateral (select %1$s as key from (select %2$s as s offset 0) l offset 0) f
       where f.key <> '';
      return null;
    end
    $b$
  $f$, format(fin, 'l.s'), format(low, 'x'));
end
$migration$;

-- The keys of names in other scripts and of abbreviations, one row per key and city, kept by
-- the triggers below from cities.script_names and cities.abbreviations (a reload that changes
-- no city writes no row here either). The B-tree on (kind, key) answers a prefix in any script.
create table if not exists public.city_names (
  kind "char" not null,                 -- 's' a name in another script, 'a' an abbreviation
  key text collate "C" not null,        -- city_fold_script(name); an abbreviation without spaces
  city_id bigint not null,              -- public.cities(id): cities are never deleted
  population bigint,
  primary key (kind, key, city_id)
);



drop trigger if exists cities_names_insert on public.cities;
create trigger cities_names_insert after insert on public.cities
  referencing new table as changed for each statement execute function public.city_names_sync();
drop trigger if exists cities_names_update on public.cities;
create trigger cities_names_update after update on public.cities
  referencing new table as changed for each statement execute function public.city_names_sync();

-- What may follow a city in a query (the seed writes the rows; see the header).
create table if not exists public.city_qualifiers (
  name text not null,                   -- 'Czech Republic', 'SC', 'New South Wales'
  country_id bigint not null,           -- public.countries(id)
  admin text not null default '',       -- the cities' admin it names; '' the whole country
  key text collate "C" generated always as (
    case when public.city_fold(name) ~ '^[a-z]( [a-z])+$' then replace(public.city_fold(name), ' ', '')
         else public.city_fold(name) end) stored,
  primary key (name, country_id, admin)
);
create index if not exists city_qualifiers_key on public.city_qualifiers (key);

alter table public.city_names enable row level security;
alter table public.city_qualifiers enable row level security;
drop policy if exists city_names_read on public.city_names;
create policy city_names_read on public.city_names for select using (true);
drop policy if exists city_qualifiers_read on public.city_qualifiers;
create policy city_qualifiers_read on public.city_qualifiers for select using (true);
revoke insert, update, delete, truncate on public.city_names, public.city_qualifiers from anon, authenticated;
grant select on public.city_names, public.city_qualifiers to anon, authenticated;

-- Rows of cities loaded before this migration: their keys (the update trigger writes them).
update public.cities set script_names = script_names
 where (script_names is not null or abbreviations is not null)
   and not exists (select 1 from public.city_names n where n.city_id = cities.id);

-- The search (rules and weights in the header). PL/pgSQL: the query is read first (its parts,
-- the qualifiers peeled off), then one statement holding only the branches this query needs
-- is planned with its values (EXECUTE … USING: a one-off plan, as the inlined SQL function
-- before it was planned on every call). Parameters: $1 the city part (Latin keys), $2 the same
-- folded for other scripts, $3 the head left by qualifiers, $4 the qualifiers, $5 whether the
-- last one may be the start of one, $6 the abbreviation key, $7 its bonus, $8 n.
create or replace function public.search_cities(q text, n int default 10)
returns setof public.cities
language plpgsql stable parallel safe
set search_path = ''
as $f$
declare
  lim int := greatest(coalesce(n, 10), 0);
  parts text[];
  k text;
  ks text;
  head text;
  quals text[] := '{}'::text[];
  last_prefix boolean := false;
  words text[];
  w int;
  tail text;
  peeled boolean;
  ak text;
  abbr_bonus numeric;
  latin boolean;
  bonus constant text := $b$case
      when name_key = $X then 3.0
      when position('|' || $X || '|' in common_keys) > 0 then 2.5
      when starts_with(name_key, $X) then 2.0
      when position('|' || $X in common_keys) > 0 then 1.5
      when position('|' || $X || '|' in search_keys) > 0 then 1.0
      when position(' ' || $X in name_key) > 0 then 1.0
      when position('|' || $X in search_keys) > 0 then 0.5
      when position(' ' || $X in search_keys) > 0 then 0.0
      else -1.0
    end$b$;
  latin_best text[] := '{}'::text[];
  other text[] := '{}'::text[];
  stmt text;
begin
  if lim = 0 or q is null then return; end if;
  parts := string_to_array(q, ',');
  k := public.city_fold(parts[1]);
  ks := public.city_fold_script(parts[1]);
  latin := ks !~ '[^\u0001-\u024f ]';
  if cardinality(parts) > 1 then
    -- "city, qualifier[, qualifier]": the last part may still be being typed.
    for i in 2 .. cardinality(parts) loop
      tail := public.city_fold(parts[i]);
      if tail ~ '^[a-z]( [a-z])+$' then tail := replace(tail, ' ', ''); end if;
      if tail <> '' then quals := quals || tail; last_prefix := true; else last_prefix := false; end if;
    end loop;
    head := k;
  elsif latin and position(' ' in k) > 0 then
    -- "city region country": peel whole qualifiers off the end, longest first, at most two.
    words := string_to_array(k, ' ');
    w := cardinality(words);
    for pass in 1 .. 2 loop
      peeled := false;
      for j in reverse least(4, w - 1) .. 1 loop
        tail := array_to_string(words[w - j + 1 : w], ' ');
        if tail ~ '^[a-z]( [a-z])+$' then tail := replace(tail, ' ', ''); end if;
        if length(tail) >= 2 and exists (select 1 from public.city_qualifiers cq where cq.key = tail) then
          quals := quals || tail; w := w - j; peeled := true;
          exit;
        end if;
      end loop;
      exit when not peeled;
    end loop;
    if cardinality(quals) > 0 then head := array_to_string(words[1 : w], ' '); end if;
  end if;
  -- Single letters ("L.A.", "n y c") are read as one word, an abbreviation or a name's start.
  if k ~ '^[a-z]( [a-z])+$' then k := replace(k, ' ', ''); end if;
  ak := k;
  abbr_bonus := case when q ~ '^\s*[A-Z]{2,5}\s*$' or q ~ '^\s*([A-Za-z]\.\s*)+[A-Za-z]\.?\s*$' then 3.0 else 2.0 end;

  if latin and length(k) between 1 and 2 then
    latin_best := latin_best || array[$s$(select id, case when name_key = $1 then 3.0 else 2.0 end as bonus, population
       from public.cities
      where name_key >= $1 and name_key < $1 || chr(1114111) and retired_at is null and same_as is null
      order by case when name_key = $1 then 3.0 else 2.0 end + log(greatest(population, 1)) desc, id
      limit $8)$s$];
  elsif latin and length(k) >= 3 then
    latin_best := latin_best || format($s$(select id, bonus, population from (
       select id, %s as bonus, population
         from public.cities
        where search_keys like '%%' || $1 || '%%' and retired_at is null and same_as is null) m
      order by bonus + log(greatest(population, 1)) desc, id
      limit $8)$s$, replace(bonus, '$X', '$1'));
  end if;
  if latin and ak ~ '^[a-z]{2,5}$' then
    other := other || array[$s$(select city_id as id, $7 as bonus, population from public.city_names
      where kind = 'a' and key = $6)$s$];
  end if;
  if not latin and ks <> '' then
    other := other || array[$s$(select id, bonus, population from (
       select city_id as id, max(case when key = $2 then 3.0 else 2.0 end) as bonus, max(population) as population
         from public.city_names
        where kind = 's' and key >= $2 and key < $2 || chr(1114111)
        group by city_id) m
      order by bonus + log(greatest(population, 1)) desc, id
      limit $8 * 4)$s$];
  end if;
  if cardinality(quals) > 0 and coalesce(head, '') <> '' then
    -- The cities the qualifiers name, with their bonus. Without a comma the head must be a
    -- whole name of the city.
    latin_best := latin_best || format($s$(select id, max(bonus) + sum(w) as bonus, max(population) as population from (
       select m.id, m.bonus, m.population, r.i, max(r.w) as w from (
         select id, country_id, admin, %s as bonus, population
           from public.cities
          where %s and retired_at is null and same_as is null
            and country_id in (select country_id from qrows) %s) m
         join qrows r on r.country_id = m.country_id and (r.admin = '' or r.admin = m.admin)
        group by m.id, m.bonus, m.population, r.i) x
      group by id
      order by max(bonus) + sum(w) + log(greatest(max(population), 1)) desc, id
      limit $8)$s$,
      replace(bonus, '$X', '$3'),
      case when length(head) >= 3 then $c$search_keys like '%' || $3 || '%'$c$
           else $c$name_key >= $3 and name_key < $3 || chr(1114111)$c$ end,
      case when cardinality(parts) > 1 then '' else $c$and position('|' || $3 || '|' in search_keys) > 0$c$ end);
  end if;
  if cardinality(latin_best) = 0 and cardinality(other) = 0 then return; end if;

  stmt := 'with qrows as (
      select u.i, cq.country_id, cq.admin, max(case when cq.key = u.qk then 3.0 else 2.0 end) as w
        from unnest($4::text[]) with ordinality u(qk, i)
        join public.city_qualifiers cq on cq.key >= u.qk and cq.key < u.qk || chr(1114111)
       where cq.key = u.qk or (u.i = cardinality($4::text[]) and $5)
       group by 1, 2, 3)';
  if cardinality(latin_best) > 0 then
    stmt := stmt || ', best as (' || array_to_string(latin_best, ' union all ') || ')';
    if length(k) >= 5 then
      other := other || array[$s$(select id, 8.0 * similarity - 5.5 as bonus, population
         from public.city_near($1)
        where not exists (select 1 from best where bonus + log(greatest(population, 1)) >= 8.0))$s$];
    end if;
    other := other || 'table best'::text;
  end if;
  stmt := stmt || ', ranked as (select id, max(bonus + log(greatest(population, 1))) as score from ('
    || array_to_string(other, ' union all ') || ') s group by id)
    select c.* from ranked r join public.cities c on c.id = r.id
     where c.retired_at is null and c.same_as is null
     order by r.score desc, r.id limit $8';
  return query execute stmt using k, ks, head, quals, last_prefix, ak, abbr_bonus, lim;
end
$f$;

grant execute on function public.search_cities(text, int) to anon, authenticated;
grant execute on function public.city_fold_script(text) to anon, authenticated;
