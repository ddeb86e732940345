"""ingest: Natural Earth map units → one feature per app country, and the compacted places.

What it does, as a Python developer would: reads the map units and the 16 MB populated places
(one orjson parse each); map units to the app's ids (id_remaps.tsv, ISO_A2_EH, the country
set); builds only the geometries of the units it keeps; capitals from capitals.tsv or the
populated places (at 1:110m, a country found only in --points-from sits at its capital or
Natural Earth's label point); dissolves each country of several units (coverage_union_all,
falling back to unary_union of make_valid); orients every polygon and writes countries.geojson
(GEOS's GeoJSON writer over the whole array) and the places compacted to the fields later steps
read (as ours). What it does not do compared with geo-ingest: no cross-check of the capitals
against GeoNames, no capital or name aliases, no error naming the file and feature.
"""
import numpy as np
import shapely

from ref_io import features, geometry, read_tsv, write_features, write_json


def main(args):
    d = args.data_dir
    codes = {l.strip() for l in open(f"{d}/app_country_codes.txt") if l.strip() and not l.startswith("#")}
    remaps = read_tsv(f"{d}/id_remaps.tsv", "su_a3")
    names = read_tsv(f"{d}/names.tsv", "id")
    continents = read_tsv(f"{d}/continents.tsv", "id")
    capitals = read_tsv(f"{d}/capitals.tsv", "id")
    groups = {}
    for u in features(args.units):
        p = u["properties"]
        su = p["SU_A3"]
        uid = remaps[su]["id"] if su in remaps else p.get("ISO_A2_EH", "-99")
        if uid in codes:
            g = geometry(u["geometry"])
            groups.setdefault(uid, []).append((g.area, p, g))
    missing = codes - set(groups)
    if missing and args.points_from:
        for u in features(args.points_from):
            p = u["properties"]
            uid = remaps[p["SU_A3"]]["id"] if p["SU_A3"] in remaps else p.get("ISO_A2_EH")
            if uid in missing and uid not in groups:
                groups[uid] = [(0.0, p, None)]
    places = features(f"{d}/natural-earth/ne_10m_populated_places.geojson")
    caps, by_name = {}, {}
    for pl in places:
        pp = pl["properties"]
        if pp.get("FEATURECLA") == "Admin-0 capital":
            caps.setdefault(pp.get("ISO_A2"), []).append(pl)
        by_name.setdefault(pp["NAME"], []).append(pl)
    out, geoms = [], []
    for uid in sorted(groups):
        group = sorted(groups[uid], key=lambda t: -t[0])
        main_props = group[0][1]
        cap = None
        row = capitals.get(uid)
        if row and row["capital"] != "-":
            if row.get("lat"):
                cap = (row["capital"], float(row["lon"]), float(row["lat"]))
            else:
                cands = [c for c in by_name.get(row["capital"], []) if c["properties"].get("ISO_A2") == uid] or by_name.get(row["capital"], [])
                if cands:
                    cap = (row["capital"], *cands[0]["geometry"]["coordinates"])
        elif not row and caps.get(uid):
            c = caps[uid][0]
            cap = (c["properties"]["NAME"], *c["geometry"]["coordinates"])
        parts = [g for _, _, g in group if g is not None]
        if not parts:
            geom = shapely.Point(cap[1], cap[2]) if cap else (shapely.Point(main_props["LABEL_X"], main_props["LABEL_Y"]) if "LABEL_X" in main_props else None)
        elif len(parts) == 1:
            geom = parts[0]
        else:
            try:
                geom = shapely.coverage_union_all(parts)
                if not geom.is_valid:
                    raise ValueError("invalid")
            except Exception:
                geom = shapely.unary_union([shapely.make_valid(g) for g in parts])
        if geom is None:
            continue
        props = {
            "name": names[uid]["name"] if uid in names else main_props.get("NAME_LONG") or main_props.get("NAME"),
            "continent": continents[uid]["continent"] if uid in continents else main_props.get("CONTINENT"),
        }
        if cap:
            props.update(capital=cap[0], capitalLat=cap[2], capitalLon=cap[1])
        props["neUnits"] = sorted(p["SU_A3"] for _, p, _ in group)
        out.append({"type": "Feature", "id": uid, "properties": props})
        geoms.append(geom)
    write_features(args.out, out, shapely.orient_polygons(np.array(geoms, dtype=object)))
    if args.places_out:  # the places with the fields later steps read, as our ingest writes them
        keep = ("NAME", "NAMEASCII", "FEATURECLA", "ISO_A2", "ADM0NAME", "POP_MAX")
        write_json(args.places_out, {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {k: pl["properties"].get(k) for k in keep}, "geometry": pl["geometry"]} for pl in places]})


def add_parser(sub):
    a = sub.add_parser("ingest", help="map units → countries.geojson")
    a.add_argument("units"); a.add_argument("out"); a.add_argument("--places-out")
    a.add_argument("--data-dir", default="data"); a.add_argument("--points-from")
    a.set_defaults(run=main)
