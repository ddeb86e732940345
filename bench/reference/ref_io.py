"""What the reference's steps share: JSON and GeoJSON in and out, TSV tables.

As a competent Python developer would read and write them: each input is parsed once with
orjson (C, about twice as fast as the standard library's `json`, which in `json.dump` also
falls back to its pure-Python encoder); geometries are built from numpy arrays a ring at a time
(shapely's `shape()` converts every coordinate in Python) and written by GEOS
(`shapely.to_geojson` over the whole array at once, embedded with `orjson.Fragment`). Files are
written to a temporary name and renamed.
"""
import os

import orjson


def load_json(path):
    with open(path, "rb") as f:
        return orjson.loads(f.read())


def features(path):
    return load_json(path)["features"]


def write_bytes(path, data):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def write_text(path, text):
    write_bytes(path, text.encode())


def write_json(path, obj, indent=False, sort_keys=False):
    opt = orjson.OPT_SERIALIZE_NUMPY | (orjson.OPT_INDENT_2 if indent else 0) | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    write_bytes(path, orjson.dumps(obj, option=opt) + (b"\n" if indent else b""))


def geometry(g):
    """A shapely geometry from a GeoJSON geometry dict, one numpy array per ring."""
    import numpy as np
    import shapely
    from shapely.geometry import shape

    def polygon(rings):
        return shapely.Polygon(np.asarray(rings[0], dtype=float), [np.asarray(r, dtype=float) for r in rings[1:]])
    kind = g["type"]
    if kind == "Polygon":
        return polygon(g["coordinates"])
    if kind == "MultiPolygon":
        return shapely.MultiPolygon([polygon(p) for p in g["coordinates"]])
    if kind == "Point":
        return shapely.Point(g["coordinates"])
    return shape(g)


def geometries(feats):
    import numpy as np
    return np.array([geometry(ft["geometry"]) for ft in feats], dtype=object)


def write_features(path, feats, geoms):
    """A FeatureCollection: each feature dict (its "geometry" replaced) with the geometry at the
    same index, serialised by GEOS in one vectorised call."""
    import shapely
    texts = shapely.to_geojson(geoms)
    out = [{**ft, "geometry": orjson.Fragment(t)} for ft, t in zip(feats, texts)]
    write_bytes(path, orjson.dumps({"type": "FeatureCollection", "features": out}))


def read_tsv(path, key):
    rows, header = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if header is None:
                header = cells
                continue
            row = dict(zip(header, cells))
            rows[row[key]] = row
    return rows


def polygons(geom):
    if geom.geom_type == "Polygon":
        return [geom]
    if geom.geom_type in ("MultiPolygon", "GeometryCollection"):
        return [p for g in geom.geoms for p in polygons(g)]
    return []
