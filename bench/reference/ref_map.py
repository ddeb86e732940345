"""map: world.geojson → Equal Earth (EPSG:8857) projected GeoJSON and an SVG world map.

What it does, as a Python developer would: reads world.geojson; projects every coordinate
with one pyproj Transformer (EPSG:4326 → EPSG:8857, numpy arrays); writes the projected
GeoJSON (metres, rounded to the metre); scales to a 2000 px wide SVG (y down), rounds to
0.1 px and drops repeated points, draws one evenodd path per country with 0.4 px borders,
point countries as circles, and the projection's outline (the ±180° meridians) as the sea.
The PNG is rendered from the SVG by rsvg-convert, as the Makefile does (bench/reference/Makefile).
What it does not do compared with geo-map: no antimeridian cutting for other central
meridians or clipping for Mercator (world.geojson is already cut at ±180°), no
validation of the projected rings, no choice of projection beyond what pyproj takes.
"""
import os

import numpy as np
import orjson
import pyproj

from ref_io import features


def rings_of(geom):
    if geom["type"] == "Polygon":
        return [geom["coordinates"]]
    if geom["type"] == "MultiPolygon":
        return geom["coordinates"]
    return []


def main(args):
    feats = features(args.input)
    tr = pyproj.Transformer.from_crs("EPSG:4326", args.projection, always_xy=True)
    # the map's extent: the projected ±180° meridians
    lat = np.linspace(-90, 90, 181)
    ex, ey = tr.transform(np.concatenate([np.full(181, 180.0), np.full(181, -180.0)]), np.concatenate([lat, lat[::-1]]))
    xmin, xmax, ymin, ymax = ex.min(), ex.max(), ey.min(), ey.max()
    k = args.width / (xmax - xmin)
    height = (ymax - ymin) * k

    def px(x, y):
        return np.round((x - xmin) * k, 1), np.round((ymax - y) * k, 1)
    out_feats, paths = [], []
    vin = vout = 0
    for ft in feats:
        g = ft["geometry"]
        if g["type"] == "Point":
            x, y = tr.transform(*g["coordinates"])
            out_feats.append({**ft, "geometry": {"type": "Point", "coordinates": [round(x), round(y)]}})
            sx, sy = px(x, y)
            paths.append(f'<circle id="{ft["id"]}" class="point" cx="{sx}" cy="{sy}" r="2"/>')
            continue
        polys, d = [], []
        for poly in rings_of(g):
            prings = []
            for ring in poly:
                a = np.asarray(ring, dtype=np.float64)
                vin += len(a) - 1
                x, y = tr.transform(a[:, 0], a[:, 1])
                prings.append(np.stack([np.round(x), np.round(y)], axis=1).tolist())
                sx, sy = px(x, y)
                keep = np.ones(len(sx), dtype=bool)
                keep[1:] = (np.diff(sx) != 0) | (np.diff(sy) != 0)
                sx, sy = sx[keep], sy[keep]
                if len(sx) < 4:
                    continue
                vout += len(sx) - 1
                d.append("M" + "L".join(f"{a:g} {b:g}" for a, b in zip(sx[:-1], sy[:-1])) + "Z")
            polys.append(prings)
        out_feats.append({**ft, "geometry": {"type": "MultiPolygon", "coordinates": polys}})
        paths.append(f'<path id="{ft["id"]}" d="{"".join(d)}"/>')
    sx, sy = px(ex, ey)
    outline = "M" + "L".join(f"{a:g} {b:g}" for a, b in zip(sx, sy)) + "Z"
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{args.width}" height="{height:.0f}" viewBox="0 0 {args.width} {height:.1f}">\n'
           f'<style>path{{fill:#34BE82;fill-rule:evenodd;stroke:#000;stroke-width:{args.border_width};stroke-linejoin:round}}'
           f'.point{{fill:#34BE82;stroke:#000;stroke-width:{args.border_width}}}</style>\n'
           f'<path d="{outline}" style="fill:#2F86A6;stroke:none"/>\n' + "\n".join(paths) + "\n</svg>\n")
    for path, text in ((args.geojson, orjson.dumps({"type": "FeatureCollection", "crs": args.projection, "features": out_feats}, option=orjson.OPT_SERIALIZE_NUMPY).decode()),
                       (args.svg, svg)):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    print(f"map: {len(feats)} countries, {vin} vertices → {args.projection}, SVG {args.width}×{height:.0f} ({vout} vertices)", file=__import__("sys").stderr)


def add_parser(sub):
    a = sub.add_parser("map", help="projected GeoJSON and SVG world map")
    a.add_argument("input"); a.add_argument("--projection", default="EPSG:8857"); a.add_argument("--width", type=int, default=2000)
    a.add_argument("--border-width", type=float, default=0.4); a.add_argument("--geojson", required=True); a.add_argument("--svg", required=True)
    a.set_defaults(run=main)
