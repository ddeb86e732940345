-- Fair play (CONTRACTS §8c, issue 38), written by geo-territory. Safe to apply twice. Needs the
-- submit_run migration before it (submit_run_read, runs.submission) and PostGIS.
--
-- What is a run, beyond §8's rules. The phone (TerritoryRules), submit_run, the night and the
-- followers give the same verdict and the same reason (code and words) for each:
--   faster_than_record  a stretch of kept fixes (accuracy ≤ 50 m) covering one of the distances
--                       below in less than the men's world record for it (World Athletics; the
--                       lower where track and road differ): 1 km 131.96 s (Ngeny 1999), 1 mile
--                       223.13 s (El Guerrouj 1999), 2 km 283.13 s (Ingebrigtsen 2023), 3 km
--                       437.55 s (Ingebrigtsen 2024), 5 km 755.36 s (Cheptegei 2020), 10 km 1571 s
--                       (Cheptegei 2020), half marathon 3402 s (Kiplimo 2025), marathon 7235 s
--                       (Kiptum 2023), 100 km 21941 s (Sorokin 2022). The stretch is the
--                       shortest run of consecutive kept fixes ending at a fix that covers the
--                       distance (geodesic, WGS 84); the reason names it (fixes i…j, metres,
--                       seconds) and the first window, then the first stretch, that fails.
--   over_cap            the loop (kept fixes closed back to the first) encloses more than
--                       8129.1 km²: the most a loop of the 24-hour record's length (319.614 km,
--                       Sorokin 2022) can enclose, 319.614² / 4π (area on the authalic sphere).
--   simulated_fix       properties.simulated (optional: an array of booleans, one per fix, from iOS
--                       CLLocationSourceInformation.isSimulatedBySoftware) has a true.
--   replay              at least 80 % of the run's kept fixes pair, one to one and in order
--                       (forwards or backwards, from any fix of the loop), with the kept fixes of
--                       a stored run (any runner's, any times; not the same id) at most 2 m away.
--                       The stored runs compared: those whose signature (the 8 smallest hashes of
--                       the 2e-5° grid cells their kept fixes fall in) shares at least 2 hashes
--                       with the run's, the 8 sharing most (ties: stored first). A real rerun of
--                       the same loop samples other points with fresh GPS error and pairs few
--                       fixes; a replay (a stored run's fixes with new times, some left out, the
--                       start moved, reversed) pairs them all. A replay with over ~1 m of noise
--                       added to every fix is not found (the honest rerun's noise).
-- submit_run refuses a run with any of these (SQLSTATE 22023, message "code (detail)", nothing
-- stored): submit_run_rules(run, lon, lat, times) returns the first such reason, in the order above,
-- or null. The other rules' reasons (too short, not closed…) stay "stored and judged invalid later".
-- Cost of the replay search: 8 probes of run_signatures' primary key and at most 8 matchings of
-- ~2,000 fixes (docs/GAME.md: measured at 1,000,000 stored runs).
begin;
do $$ begin perform pg_advisory_xact_lock(hashtext('game migration fair_play')); end $$;

-- The signatures of stored runs (8 rows a run), written by submit_run with each run it stores.
-- No client role reads it (row-level security on, no policy).
create table if not exists public.run_signatures (
  hash bigint not null,
  run_id uuid not null references public.runs(id) on delete cascade,
  stored bigint not null,
  primary key (hash, run_id));
create index if not exists idx_run_signatures_run on public.run_signatures (run_id);
create sequence if not exists public.run_signatures_stored;
alter table public.run_signatures enable row level security;
revoke all on public.run_signatures from public, anon, authenticated;
revoke all on sequence public.run_signatures_stored from public, anon, authenticated;

-- The hash of the 2e-5° grid cell holding (lon, lat), as TerritoryRules' Replay.Signature.hash.
create or replace function public.fair_play_hash(lon double precision, lat double precision) returns bigint
  language sql immutable parallel safe strict set search_path = '' as $f$
  select ((((floor(lat / 2e-5::double precision)::bigint + 5000000) * 20000000
            + floor(lon / 2e-5::double precision)::bigint + 10000000) % 2147483647
          * 1103515245 + 12345) % 2147483647 * 48271 + 11) % 2147483647
$f$;

-- A run's signature: the 8 smallest distinct hashes of its fixes' cells, ascending.
create or replace function public.fair_play_signature(lon double precision[], lat double precision[]) returns bigint[]
  language sql immutable parallel safe set search_path = '' as $f$
  select coalesce(array_agg(h order by h), '{}') from (
    select distinct public.fair_play_hash(x, y) as h from unnest(lon, lat) as u(x, y) order by 1 limit 8) s
$f$;

-- How many of the fixes (lon, lat) pair one to one and in order with the stored fixes (slon,
-- slat) within `within` metres, forwards or backwards, the stored fixes read twice round
-- (TerritoryRules' Replay.pairs, the same plane and the same chains). Returns at most the number of
-- fixes with any stored fix that near when that is under `atLeast` (the chains are not needed).
create or replace function public.fair_play_pairs(lon double precision[], lat double precision[],
    slon double precision[], slat double precision[], within double precision, at_least integer) returns integer
  language plpgsql immutable parallel safe set search_path = '' as $f$
declare
  kx double precision := cos(lat[1] * 0.017453292519943295) * 111319.49079327357;
  ky constant double precision := 111319.49079327357;
  m integer := cardinality(slon);
  fwd integer[];
  bwd integer[];
  near integer;
  best integer := 0;
  keys integer[];
  tails integer[];
  len integer;
  a integer; b integer; mid integer; k integer;
begin
  if cardinality(lon) = 0 or m = 0 then return 0; end if;
  with s as (
    select j - 1 as j, x * kx as sx, y * ky as sy,
           floor(x * kx / within)::bigint as cx, floor(y * ky / within)::bigint as cy
      from unnest(slon, slat) with ordinality as u(x, y, j)),
  r as (
    select i, x * kx as rx, y * ky as ry,
           floor(x * kx / within)::bigint as cx, floor(y * ky / within)::bigint as cy
      from unnest(lon, lat) with ordinality as u(x, y, i)),
  p as (
    select r.i, s.j
      from r cross join (values (-1), (0), (1)) as dx(d) cross join (values (-1), (0), (1)) as dy(d)
      join s on s.cx = r.cx + dx.d and s.cy = r.cy + dy.d
     where (s.sx - r.rx) * (s.sx - r.rx) + (s.sy - r.ry) * (s.sy - r.ry) <= within * within)
  select count(distinct i),
         array_agg(k1 order by i, k1 desc),
         array_agg(k2 order by i, k2 desc)
    into near, fwd, bwd
    from p cross join lateral (values (j + m, 2 * m - 1 - j), (j, m - 1 - j)) as kk(k1, k2);
  if near < at_least then return near; end if;
  for pass in 1..2 loop
    keys := case when pass = 1 then fwd else bwd end;
    tails := '{}'; len := 0;
    foreach k in array keys loop
      a := 1; b := len + 1;
      while a < b loop
        mid := (a + b) / 2;
        if tails[mid] < k then a := mid + 1; else b := mid; end if;
      end loop;
      tails[a] := k;
      if a > len then len := a; end if;
    end loop;
    best := greatest(best, len);
  end loop;
  return best;
end
$f$;

-- A run's kept fixes (accuracy ≤ 50 m) from its Feature (well-formed): 0-based fix numbers, positions.
create or replace function public.fair_play_kept(run jsonb, out fix integer[], out lon double precision[],
    out lat double precision[])
  language sql immutable parallel safe set search_path = '' as $f$
  select coalesce(array_agg(k::integer - 1 order by k), '{}'),
         coalesce(array_agg(public.submit_run_double(c -> 0) order by k), '{}'),
         coalesce(array_agg(public.submit_run_double(c -> 1) order by k), '{}')
    from rows from (jsonb_array_elements(run -> 'geometry' -> 'coordinates'),
                    jsonb_array_elements(run -> 'properties' -> 'accuracy_m')) with ordinality as e(c, a, k)
   where public.submit_run_double(a) <= 50
$f$;

-- The first reason of CONTRACTS §8c a well-formed run (submit_run_read's problem null) has, as
-- TerritoryRules words it ("code (detail)"), in the order faster_than_record, over_cap,
-- simulated_fix, replay; null when it has none. `id`: the run's (a stored run with the same id is
-- no replay of it); `times`: its times as submit_run_read parsed them.
create or replace function public.submit_run_rules(run jsonb, id uuid, times timestamptz[]) returns text
  language plpgsql stable set search_path = public, pg_temp as $f$
declare
  k record;
  n integer;
  along double precision[];
  names constant text[] := array['1 km', '1 mile', '2 km', '3 km', '5 km', '10 km', 'half marathon', 'marathon', '100 km'];
  metres constant double precision[] := array[1000, 1609.344, 2000, 3000, 5000, 10000, 21097.5, 42195, 100000];
  record_micros constant bigint[] := array[131960000, 223130000, 283130000, 437550000, 755360000, 1571000000, 3402000000, 7235000000, 21941000000];
  record_text constant text[] := array['131.96', '223.13', '283.13', '437.55', '755.36', '1571.00', '3402.00', '7235.00', '21941.00'];
  i integer;
  dt bigint;
  micros bigint[];
  glitched boolean;
  rlon double precision[];
  rlat double precision[];
  area double precision;
  turn double precision;
  sim jsonb := run -> 'properties' -> 'simulated';
  first_sim integer;
  sims integer;
  sig bigint[];
  c record;
  s record;
  p integer;
begin
  k := public.fair_play_kept(run);
  n := cardinality(k.fix);
  select array_agg((extract(epoch from times[f + 1]) * 1000000)::bigint order by o) into micros
    from unnest(k.fix) with ordinality as u(f, o);
  -- faster_than_record: two pointers per window over the path's length to each kept fix; not for a
  -- run with a speed spike (over 43 km/h between kept fixes) or a teleport (a step over 1000 m),
  -- whose glitch is not a pace (it is judged invalid for those, stored).
  if n >= 2 then
    select array_agg(a order by j), bool_or(glitch) into along, glitched from (
      select j, coalesce(sum(d) over (order by j), 0) as a,
             j > 1 and (d > 1000 or case when step_us > 0 then d * 3.6e6 > 43 * step_us::double precision else d > 0 end) as glitch
        from (select j, micros[j] - micros[greatest(j - 1, 1)] as step_us,
                     case when j = 1 then 0 else
                       st_distance(st_setsrid(st_makepoint(k.lon[j - 1], k.lat[j - 1]), 4326)::geography,
                                   st_setsrid(st_makepoint(k.lon[j], k.lat[j]), 4326)::geography) end as d
                from generate_series(1, n) as g(j)) q) q2;
  end if;
  if n >= 2 and not glitched then
    for w in 1..9 loop
      continue when along[n] < metres[w];
      i := 1;
      for j in 2..n loop
        continue when along[j] < metres[w];
        while along[j] - along[i + 1] >= metres[w] loop i := i + 1; end loop;
        dt := micros[j] - micros[i];
        if dt < record_micros[w] then
          return format('faster_than_record (fixes %s…%s cover %s m in %s s, faster than the men''s world record for %s (%s s))',
                        k.fix[i], k.fix[j], public.fair_play_tenths(along[j] - along[i]),
                        ((dt + 50000) / 100000) / 10 || '.' || ((dt + 50000) / 100000) % 10, names[w], record_text[w]);
        end if;
      end loop;
    end loop;
  end if;
  -- over_cap: the kept fixes closed back to the first, on the authalic sphere (vertex form).
  rlon := k.lon; rlat := k.lat;
  if n >= 1 and (rlon[n] <> rlon[1] or rlat[n] <> rlat[1]) then rlon := rlon || rlon[1]; rlat := rlat || rlat[1]; end if;
  if cardinality(rlon) >= 4 then
    select abs(sum(dl * pi() / 180 * sin(rlat[v] * pi() / 180) order by v))
           * ((6371.007180918475::double precision * 1000) * (6371.007180918475::double precision * 1000)) / 2
      into area
      from (select v, case when d > 180 then d - 360 when d < -180 then d + 360 else d end as dl
              from (select v, rlon[v + 1] - rlon[case when v = 1 then cardinality(rlon) - 1 else v - 1 end] as d
                      from generate_series(1, cardinality(rlon) - 1) as g(v)) q) q2;
    -- A loop around a pole: the cap on the pole's side.
    select sum(case when d > 180 then d - 360 when d < -180 then d + 360 else d end order by v) into turn
      from (select v, rlon[v] - rlon[v - 1] as d from generate_series(2, cardinality(rlon)) as g(v)) q;
    if abs(turn) > 180 then
      area := abs(2 * pi() * ((6371.007180918475::double precision * 1000) * (6371.007180918475::double precision * 1000)) - area);
    end if;
    if area > 319614.0::double precision * 319614.0::double precision / (4 * pi()) then
      return format('over_cap (the loop encloses %s km², more than the 8129.1 km² a loop of the 24-hour record''s length (319.614 km) can)',
                    public.fair_play_tenths(area / 1e6::double precision));
    end if;
  end if;
  -- simulated_fix.
  if jsonb_typeof(sim) = 'array' then
    select min(j) - 1, count(*) into first_sim, sims
      from jsonb_array_elements(sim) with ordinality as e(x, j) where x = 'true'::jsonb;
    if sims > 0 then
      return format('simulated_fix (fix %s is marked simulated (properties.simulated), %s of %s fixes)',
                    first_sim, sims, jsonb_array_length(sim));
    end if;
  end if;
  -- replay: the candidates by signature, each matched.
  if n > 0 then
    sig := public.fair_play_signature(k.lon, k.lat);
    for c in
      select g.run_id, count(*) as shared, min(g.stored) as stored
        from public.run_signatures g
       where g.hash = any(sig) and g.run_id <> submit_run_rules.id
       group by g.run_id having count(*) >= 2
       order by count(*) desc, min(g.stored) limit 8
    loop
      select * into s from public.fair_play_kept((select r.submission from public.runs r where r.id = c.run_id));
      p := public.fair_play_pairs(k.lon, k.lat, s.lon, s.lat, 2, floor(0.8 * n)::integer);
      if p::double precision >= 0.8::double precision * n then
        return format('replay (%s of %s kept fixes repeat, one to one and in order within 2 m, the fixes of stored run %s)', p, n, c.run_id);
      end if;
    end loop;
  end if;
  return null;
end
$f$;

-- A figure ≥ 0 to a tenth, halves up, as TerritoryRules' Rules.tenths writes it.
create or replace function public.fair_play_tenths(x double precision) returns text
  language sql immutable parallel safe set search_path = '' as $f$
  select (t / 10)::text || '.' || (t % 10)::text from (select floor(x * 10 + 0.5)::bigint as t) q
$f$;

-- Keeps the signature of a run submit_run has just stored.
create or replace function public.fair_play_store_signature(id uuid, run jsonb) returns void
  language sql volatile set search_path = '' as $f$
  insert into public.run_signatures (hash, run_id, stored)
  select h, id, q.stored
    from unnest((select public.fair_play_signature(k.lon, k.lat) from public.fair_play_kept(run) k)) as h
         cross join (select nextval('public.run_signatures_stored') as stored) q
  on conflict do nothing
$f$;

-- submit_run_rules' search_path: PostGIS's schema (public here, `extensions` on some Supabase
-- projects) and pg_temp; the game's objects are named with their schema.
do $$ begin
  execute format('alter function public.submit_run_rules(jsonb, uuid, timestamptz[]) set search_path = %I, pg_temp',
                 (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'postgis'));
end $$;

revoke all on function public.fair_play_hash(double precision, double precision),
  public.fair_play_signature(double precision[], double precision[]),
  public.fair_play_pairs(double precision[], double precision[], double precision[], double precision[], double precision, integer),
  public.fair_play_kept(jsonb), public.submit_run_rules(jsonb, uuid, timestamptz[]), public.fair_play_tenths(double precision),
  public.fair_play_store_signature(uuid, jsonb) from public, anon, authenticated;
commit;
