"""cities: GeoNames cities ≥ 15,000 → countries by point-in-polygon → the city app's SQL seed.

What it does, as a Python developer would: reads data/geonames/cities15000.tsv (34,006 rows,
csv module), the admin-1 names, the country table and the territories table; puts every city
in a country with one shapely STRtree query over the world's (prepared) polygons
(bounding boxes, all points at once) and the prepared polygons' `contains`; resolves disagreements with GeoNames' country:
a point country's city stays within 50 km of its point, a territory folded into its sovereign
(territories.tsv) takes the sovereign, another polygon within 10 km of GeoNames' country keeps
GeoNames', a city in no polygon goes to the nearest country within 30 km (STRtree
query_nearest, pyproj Geod distance); builds display names (city, admin-1, country), plain
names (NFKD without marks) and Latin-script alternate names; writes the migration (tables,
trigram index, search function) and the seed (country upserts, then city upserts in batches
of 1,000 rows, retired cities marked), and a TSV report of the disagreements. What it does not
do compared with geo-cities: fewer resolution kinds (no source-only or continent checks),
no per-row validation messages, no check that the seed round-trips through PostgreSQL.
"""
import csv
import os
import sys
import unicodedata

import numpy as np
import pyproj
import shapely
import shapely.ops

from ref_io import features, geometries

GEOD = pyproj.Geod(ellps="WGS84")
CONTINENTS = {"AF": "Africa", "AN": "Antarctica", "AS": "Asia", "EU": "Europe", "NA": "North America", "OC": "Oceania", "SA": "South America"}

MIGRATION = """-- cities and countries for the city-ranking app (CONTRACTS §7), written by reference.py cities.
create extension if not exists pg_trgm;
create table if not exists public.countries (
  id bigint primary key, name text not null, country_code text not null unique check (country_code ~ '^[A-Z]{2}$'),
  capital text, continent text not null, population bigint, in_source boolean not null default true);
create table if not exists public.cities (
  id bigint primary key, display_name text not null, plain_name text not null, admin text, country text not null,
  country_id bigint not null references public.countries(id), population bigint,
  latitude double precision not null check (latitude between -90 and 90),
  longitude double precision not null check (longitude between -180 and 180),
  created_at timestamptz not null default now(), alt_names text, retired_at timestamptz);
create index if not exists cities_plain_name_trgm on public.cities using gin (plain_name gin_trgm_ops);
create index if not exists cities_country_id on public.cities (country_id);
create or replace function public.search_cities(q text, lim int default 20) returns setof public.cities
  language sql stable as $$
  select * from public.cities where retired_at is null and plain_name ilike '%' || q || '%'
  order by similarity(plain_name, q) desc, population desc nulls last limit lim $$;
alter table public.cities enable row level security;
alter table public.countries enable row level security;
"""


def plain(s):
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def latin(s):
    return all(ord(c) < 0x250 or not c.isalpha() for c in s)


def lit(v):
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return repr(v)
    return "'" + str(v).replace("'", "''") + "'"


def read_tsv(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t", quoting=csv.QUOTE_NONE))


def main(o):
    cities = read_tsv(o.cities)
    admin1 = {(r["country_code"], r["admin1_code"]): r["name"] for r in read_tsv(o.admin1)}
    table = {r["iso"]: r for r in read_tsv(o.country_table)}
    territories = {r["code"]: r["sovereign"] for r in read_tsv(o.territories)}
    world = features(o.world)
    ids = [ft["id"] for ft in world]
    names = {ft["id"]: ft["properties"].get("name", ft["id"]) for ft in world}
    geoms = geometries(world)
    shapely.prepare(geoms)
    is_point = np.array([g.geom_type == "Point" for g in geoms])
    polys = np.nonzero(~is_point)[0]
    tree = shapely.STRtree(geoms[polys])
    lon = np.array([float(c["longitude"]) for c in cities])
    lat = np.array([float(c["latitude"]) for c in cities])
    pts = shapely.points(lon, lat)
    pi, gi = tree.query(pts)
    hit = shapely.contains(geoms[polys][gi], pts[pi])
    pi, gi = pi[hit], gi[hit]
    inside = {}
    for a, b in zip(pi.tolist(), gi.tolist()):
        inside.setdefault(a, []).append(ids[polys[b]])
    index = {c: i for i, c in enumerate(ids)}
    # cities in no polygon: nearest polygon (planar, then geodesic distance checked)
    lonely = np.array([i for i in range(len(cities)) if i not in inside], dtype=np.int64)
    near_i, near_g = tree.query_nearest(pts[lonely], max_distance=1.0, all_matches=False)
    nearest = {int(lonely[a]): ids[polys[b]] for a, b in zip(near_i.tolist(), near_g.tolist())}

    def km_to(i, iso):
        g = geoms[index[iso]]
        p = g if g.geom_type == "Point" else shapely.ops.nearest_points(g, pts[i])[0]
        return GEOD.inv(lon[i], lat[i], p.x, p.y)[2] / 1000
    rows, report, kinds = [], [], {}
    for i, c in enumerate(cities):
        src = c["country_code"]
        src_app = territories.get(src, src) if src not in index else src
        got = inside.get(i, [])
        kind = "agree"
        if src in got:
            country = src
        elif src in index and is_point[index[src]] and km_to(i, src) <= o.point_radius:
            country, kind = src, "point-country"
        elif got:
            if src_app in got:
                country, kind = src_app, "territory"
            elif src_app in index and not is_point[index[src_app]] and km_to(i, src_app) <= o.border_tolerance:
                country, kind = src_app, "near-border"
            else:
                country, kind = got[0], "other-polygon"
        elif i in nearest and km_to(i, nearest[i]) <= o.coastal_tolerance:
            country, kind = nearest[i], "coast"
        elif src_app in index:
            country, kind = src_app, "source-only"
        else:
            kinds["dropped"] = kinds.get("dropped", 0) + 1
            continue
        kinds[kind] = kinds.get(kind, 0) + 1
        if kind != "agree":
            report.append(f"{c['geonameid']}\t{c['name']}\t{src}\t{','.join(got) or '-'}\t{country}\t{kind}")
        adm = admin1.get((src, c["admin1_code"]))
        alt = sorted({a for a in c["alternate_names"].split("|") if a and a != c["name"] and latin(a)}) if c["alternate_names"] else []
        rows.append((int(c["geonameid"]), ", ".join(x for x in (c["name"], adm, names[country]) if x), plain(c["name"]), adm,
                     names[country], country, int(c["population"] or 0), float(c["latitude"]), float(c["longitude"]), "|".join(alt) or None))
    gid = {iso: int(table[iso]["geonameid"]) for iso in ids if iso in table}
    out = ["-- cities seed, written by reference.py cities; load after the migration.", "begin;",
           "insert into public.countries as t (id, name, country_code, capital, continent, population) values"]
    crow = [f"({gid[iso]}, {lit(names[iso])}, {lit(iso)}, {lit(table[iso]['capital'] or None)}, {lit(CONTINENTS.get(table[iso]['continent_code'], 'Unknown'))}, "
            f"{int(table[iso]['population'] or 0)})" for iso in sorted(gid, key=gid.get)]
    out.append(",\n".join(crow))
    out.append("on conflict (id) do update set name = excluded.name, country_code = excluded.country_code, capital = excluded.capital, "
               "continent = excluded.continent, population = excluded.population, in_source = true;")
    cols = "id, display_name, plain_name, admin, country, country_id, population, latitude, longitude, alt_names"
    rows.sort()
    for b in range(0, len(rows), 1000):
        batch = rows[b:b + 1000]
        out.append(f"insert into public.cities as t ({cols}) values")
        out.append(",\n".join(f"({r[0]}, {lit(r[1])}, {lit(r[2])}, {lit(r[3])}, {lit(r[4])}, {gid.get(r[5], 0)}, {r[6]}, {r[7]!r}, {r[8]!r}, {lit(r[9])})" for r in batch))
        out.append("on conflict (id) do update set display_name = excluded.display_name, plain_name = excluded.plain_name, admin = excluded.admin, "
                   "country = excluded.country, country_id = excluded.country_id, population = excluded.population, latitude = excluded.latitude, "
                   "longitude = excluded.longitude, alt_names = excluded.alt_names, retired_at = null;")
    out.append("update public.cities set retired_at = now() where retired_at is null and id <> all ('{" + ",".join(str(r[0]) for r in rows) + "}'::bigint[]);")
    out.append("commit;")
    files = ((os.path.join(o.out_dir, "migrations", "20261122000100_cities.sql"), MIGRATION), (os.path.join(o.out_dir, "seed.sql"), "\n".join(out) + "\n"),
             (o.report, "geonameid\tname\tgeonames\tpolygons\tchosen\tresolution\n" + "\n".join(report) + "\n"))
    for path, text in files:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    print(f"cities: {len(rows)} cities in {len({r[5] for r in rows})} countries; {sum(v for k, v in kinds.items() if k != 'agree')} disagreements "
          f"({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()) if k != 'agree')})", file=sys.stderr)


def add_parser(sub):
    a = sub.add_parser("cities", help="GeoNames cities → SQL seed")
    for name in ("cities", "admin1", "country-table", "territories", "world", "out-dir", "report"):
        a.add_argument(f"--{name}", required=True)
    a.add_argument("--border-tolerance", type=float, default=10); a.add_argument("--coastal-tolerance", type=float, default=30)
    a.add_argument("--point-radius", type=float, default=50)
    a.set_defaults(run=main)
