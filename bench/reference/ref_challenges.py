"""challenges: the daily quiz schedule as a Supabase migration and seed (CONTRACTS §6).

What it does, as a Python developer would: reads world.geojson (orjson); each country's
geodesic area (pyproj Geod over the rings' coordinate lists as read: no shapely, no numpy);
pools: silhouette questions for polygon countries of at least 10,000 km², capital questions for
countries with a capital, flag questions for all; 365 days from 2026-01-01 with
random.Random(20260101): the three types in a shuffled rotation, the answer drawn from the
type's pool among those not used in the last 60 days (the window is relaxed when nothing is
left), never two small countries (points or under 20,000 km²) in a row; ids are uuid5 of (seed,
date); writes the migration (table, unique date, one-type check) and the seed (insert … on
conflict (date) do nothing), and a short report.
What it does not do compared with geo-challenges: no continuation of a live table (--existing,
--replan-future, dry run), no guarantee that day k depends only on earlier days when the length
changes, no per-continent balance in the report.
"""
import datetime
import os
import random
import sys
import uuid

import pyproj

from ref_io import features, write_text

GEOD = pyproj.Geod(ellps="WGS84")


def area_km2(geometry):
    """Geodesic area of a Polygon or MultiPolygon (exterior minus holes), 0 for a point."""
    kind, coords = geometry["type"], geometry["coordinates"]
    polys = [coords] if kind == "Polygon" else coords if kind == "MultiPolygon" else []
    total = 0.0
    for rings in polys:
        for k, ring in enumerate(rings):
            lons, lats = zip(*ring)
            a = abs(GEOD.polygon_area_perimeter(lons, lats)[0])
            total += a if k == 0 else -a
    return total / 1e6

MIGRATION = """-- daily_challenges: one quiz question per day (CONTRACTS §6), written by reference.py challenges.
create table if not exists public.daily_challenges (
  id uuid primary key default gen_random_uuid(),
  date date not null,
  is_guess_country boolean default false,
  is_guess_capital boolean default false,
  is_guess_flag    boolean default false,
  answer text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
do $$ begin
  if not exists (select 1 from pg_constraint where conname = 'daily_challenges_date_key') then
    alter table public.daily_challenges add constraint daily_challenges_date_key unique (date);
  end if;
  if not exists (select 1 from pg_constraint where conname = 'daily_challenges_one_type') then
    alter table public.daily_challenges add constraint daily_challenges_one_type check (
      (coalesce(is_guess_country, false)::int + coalesce(is_guess_capital, false)::int + coalesce(is_guess_flag, false)::int) = 1);
  end if;
  if not exists (select 1 from pg_constraint where conname = 'daily_challenges_answer_iso') then
    alter table public.daily_challenges add constraint daily_challenges_answer_iso check (answer ~ '^[A-Z]{2}$');
  end if;
end $$;
"""


def sql(s):
    return "'" + s.replace("'", "''") + "'"


def main(o):
    countries = {}
    for ft in features(o.world):
        point = ft["geometry"]["type"] == "Point"
        countries[ft["id"]] = {"name": ft["properties"].get("name", ft["id"]), "capital": ft["properties"].get("capital"),
                               "point": point, "area": 0.0 if point else area_km2(ft["geometry"])}
    ids = sorted(countries)
    pools = {"silhouette": [i for i in ids if not countries[i]["point"] and countries[i]["area"] >= o.min_silhouette_area],
             "capital": [i for i in ids if countries[i]["capital"]], "flag": ids}
    small = {i for i in ids if countries[i]["point"] or countries[i]["area"] < o.small_area}
    rng = random.Random(o.seed)
    start = datetime.date.fromisoformat(o.start)
    last_used, days, relaxed = {}, [], 0
    rotation = []
    prev_small = False
    for k in range(o.days):
        if not rotation:
            rotation = ["silhouette", "capital", "flag"]
            rng.shuffle(rotation)
        kind = rotation.pop()
        fresh = [i for i in pools[kind] if k - last_used.get(i, -10 ** 9) > o.window and not (prev_small and i in small)]
        if not fresh:
            relaxed += 1
            fresh = sorted(pools[kind], key=lambda i: last_used.get(i, -10 ** 9))[:10]
        answer = rng.choice(fresh)
        last_used[answer] = k
        prev_small = answer in small
        days.append((start + datetime.timedelta(days=k), kind, answer))
    rows = []
    for date, kind, answer in days:
        rid = uuid.uuid5(uuid.NAMESPACE_URL, f"daily-challenge/{o.seed}/{date.isoformat()}")
        rows.append(f"  ({sql(str(rid))}::uuid, date '{date.isoformat()}', {str(kind == 'silhouette').lower()}, "
                    f"{str(kind == 'capital').lower()}, {str(kind == 'flag').lower()}, {sql(answer)}),  -- {kind}: {countries[answer]['name']}")
    rows[-1] = rows[-1].replace("),  --", ")  --")
    seed = (f"-- daily_challenges seed, written by reference.py challenges: {o.days} days from {o.start} (seed {o.seed}, window {o.window}).\n"
            "insert into public.daily_challenges (id, date, is_guess_country, is_guess_capital, is_guess_flag, answer) values\n"
            + "\n".join(rows) + "\non conflict (date) do nothing;\n")
    mig = os.path.join(o.out_dir, "migrations", "20261122000000_daily_challenges_one_row_per_date.sql")
    for path, text in ((mig, MIGRATION), (os.path.join(o.out_dir, "seed.sql"), seed),
                       (o.report, f"{len(countries)} countries, {o.days} days, {relaxed} relaxed\n" +
                        "".join(f"{t}: {sum(1 for d in days if d[1] == t)}\n" for t in pools))):
        write_text(path, text)
    print(f"challenges: {len(countries)} countries → {o.days} days, {relaxed} relaxed", file=sys.stderr)


def add_parser(sub):
    a = sub.add_parser("challenges", help="daily quiz schedule (SQL)")
    a.add_argument("world"); a.add_argument("--out-dir", required=True); a.add_argument("--report", required=True)
    a.add_argument("--days", type=int, default=365); a.add_argument("--seed", type=int, default=20260101)
    a.add_argument("--window", type=int, default=60); a.add_argument("--min-silhouette-area", type=float, default=10000)
    a.add_argument("--small-area", type=float, default=20000); a.add_argument("--from", dest="start", default="2026-01-01")
    a.set_defaults(run=main)
