"""silhouettes: one SVG per polygon country for the quiz, a contact sheet, an index and a manifest.

What it does, as a Python developer would: reads world.geojson; for each polygon country
projects it to a Lambert azimuthal equal-area projection centred on its bounding box on the
ellipsoid (a `pyproj.Proj` per country: building a CRS-to-CRS transformer per country costs
more than projecting; longitudes unwrapped around the centre so 180°-crossing countries stay
whole); drops parts under 0.05 % of the country's area and parts under 2 % farther than
1 × √area from the major ones (shapely areas, one vectorised `dwithin` for the distances); scales to a 1000-unit square with 40 units of
padding; simplifies (shapely.simplify, preserving topology) at 0.7 units, rounds to 0
decimals, drops rings under 2 square units, and doubles the tolerance until the file is
under 10,000 bytes; writes <ISO>.svg (evenodd path), contact-sheet.svg (every silhouette in
a grid with its code), index.html and manifest.json. The Makefile renders the contact sheet
to PNG with rsvg-convert. What it does not do compared with geo-silhouettes: no check of the
simplified rings (self-intersection, collapsed parts), no per-country choice of centre beyond
the bounding box, one process (ours: two threads).
"""
import math
import os
import sys

import numpy as np
import pyproj
import shapely

from ref_io import features, geometry, write_json, write_text


def parts(g):
    return list(g.geoms) if g.geom_type == "MultiPolygon" else [g]


def unwrap(g, lon0):
    return shapely.transform(g, lambda c: np.stack([((c[:, 0] - lon0 + 180) % 360) - 180 + lon0, c[:, 1]], axis=1))


def silhouette(ft, o):
    g = geometry(ft["geometry"])
    # centre: the bounding box's middle, with longitudes taken around the largest part
    big = max(parts(g), key=lambda p: p.area)
    lon0 = big.centroid.x
    g = unwrap(g, lon0)
    minx, miny, maxx, maxy = g.bounds
    proj = pyproj.Proj(f"+proj=laea +lat_0={(miny + maxy) / 2} +lon_0={(minx + maxx) / 2} +ellps=WGS84")
    p = shapely.transform(g, lambda c: np.stack(proj(c[:, 0], c[:, 1]), axis=1))
    ps = parts(p)
    areas = shapely.area(ps)
    total = areas.sum()
    kept = [i for i in range(len(ps)) if areas[i] >= o.min_part_share * total or i == areas.argmax()]
    majors = [i for i in kept if i == areas.argmax() or areas[i] >= o.remote_share * total]
    limit = o.remote_distance * math.sqrt(total)
    major_geom = shapely.union_all([ps[i] for i in majors])
    near = shapely.dwithin(np.array(ps, dtype=object), major_geom, limit)
    kept = [i for i in kept if i in majors or near[i]]
    p = shapely.MultiPolygon([ps[i] for i in kept]) if len(kept) > 1 else ps[kept[0]]
    minx, miny, maxx, maxy = p.bounds
    inner = o.size - 2 * o.padding
    s = inner / max(maxx - minx, maxy - miny)
    ox = o.padding + (inner - (maxx - minx) * s) / 2
    oy = o.padding + (inner - (maxy - miny) * s) / 2
    fitted = shapely.transform(p, lambda c: np.stack([ox + (c[:, 0] - minx) * s, oy + (maxy - c[:, 1]) * s], axis=1))
    tol = o.tolerance
    while True:
        simple = shapely.simplify(fitted, tol, preserve_topology=True)
        d, vertices = [], 0
        for q in parts(simple):
            for ring in [q.exterior, *q.interiors]:
                r = shapely.Polygon(np.round(np.asarray(ring.coords), o.decimals))
                if abs(r.area) < o.min_ring_area:
                    continue
                c = np.asarray(r.exterior.coords)[:-1]
                keep = np.ones(len(c), dtype=bool)
                keep[1:] = np.any(np.diff(c, axis=0) != 0, axis=1)
                c = c[keep]
                vertices += len(c)
                pair = f"%.{o.decimals}f %.{o.decimals}f"  # one %-format per ring, not two per vertex
                d.append("M" + "L".join([pair] * len(c)) % tuple(c.ravel().tolist()) + "Z")
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {o.size} {o.size}">'
               f'<path fill-rule="evenodd" d="{"".join(d)}"/></svg>\n')
        if len(svg.encode()) <= o.max_bytes or tol > o.size:
            return svg, "".join(d), vertices
        tol *= 2


def main(o):
    feats = features(o.input)
    os.makedirs(o.out_dir, exist_ok=True)
    manifest, cells = {}, []
    feats = sorted((f for f in feats if f["geometry"]["type"] != "Point"), key=lambda f: f["id"])
    cols = 16
    for n, ft in enumerate(feats):
        iso = ft["id"]
        svg, d, vertices = silhouette(ft, o)
        write_text(os.path.join(o.out_dir, f"{iso}.svg"), svg)
        manifest[iso] = {"file": f"{iso}.svg", "name": ft["properties"].get("name"), "vertices": vertices, "bytes": len(svg.encode())}
        x, y = (n % cols) * o.size, (n // cols) * (o.size + 200)
        cells.append(f'<g transform="translate({x} {y})"><path fill-rule="evenodd" d="{d}"/>'
                     f'<text x="{o.size / 2}" y="{o.size + 120}" font-size="120" text-anchor="middle">{iso}</text></g>')
    rows = math.ceil(len(feats) / cols)
    sheet = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * 100}" height="{rows * 120}" viewBox="0 0 {cols * o.size} {rows * (o.size + 200)}">'
             '<rect width="100%" height="100%" fill="#fff"/>' + "".join(cells) + "</svg>\n")
    html = ("<!doctype html><meta charset=utf-8><title>Silhouettes</title><style>figure{display:inline-block;width:120px;margin:4px}"
            "img{width:120px;height:120px}</style>\n" + "\n".join(
                f'<figure><img src="{iso}.svg" alt="{m["name"]}"><figcaption>{iso} {m["name"]}</figcaption></figure>' for iso, m in manifest.items()) + "\n")
    write_text(os.path.join(o.out_dir, "contact-sheet.svg"), sheet)
    write_json(os.path.join(o.out_dir, "manifest.json"), manifest, indent=True)
    write_text(os.path.join(o.out_dir, "index.html"), html)
    print(f"silhouettes: {len(manifest)} silhouettes, {sum(m['vertices'] for m in manifest.values())} vertices, "
          f"{sum(m['bytes'] for m in manifest.values())} bytes", file=sys.stderr)


def add_parser(sub):
    a = sub.add_parser("silhouettes", help="per-country SVG silhouettes")
    a.add_argument("input"); a.add_argument("-o", "--out-dir", required=True)
    for name, default in (("size", 1000.0), ("padding", 40.0), ("min-part-share", 0.0005), ("remote-share", 0.02), ("remote-distance", 1.0),
                          ("tolerance", 0.7), ("min-ring-area", 2.0)):
        a.add_argument(f"--{name}", type=float, default=default)
    a.add_argument("--decimals", type=int, default=0); a.add_argument("--max-bytes", type=int, default=10000)
    a.set_defaults(run=main)
