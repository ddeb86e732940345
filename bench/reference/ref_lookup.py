"""lookup: the offline point → country index, a quadtree over the full-detail countries.

What it does, as a Python developer would with shapely 2's vectorised functions: reads the
ingest's full-detail countries and the compact populated places; takes every country's
boundary (shapely.boundary); on 1° root cells (360 × 180) finds the boundaries crossing each
cell with one STRtree query and clips them to it (shapely.intersection, vectorised), then
level by level splits every cell holding more than 32 border edges into four (down to 10
levels, 1/1024°), clipping the parent's pieces to the children; a cell with no border is
inside the country holding its centre (one STRtree point query a level, prepared polygons),
or sea: sea cells are classified by the 12-nautical-mile rule from the geodesic distance
(pyproj Geod) between the cell's centre and the nearest coast piece (STRtree query_nearest
over the 1° pieces), ± the cell's half-diagonal, as open sea, one country's waters, or split
(down to 3 levels, 1/8°) and else left "mixed"; border leaves keep their clipped edges
(micro-degrees) per country and the country at their centre. Writes one binary file: header,
nodes (kind, payload), edges, the 7,000+ places (name, country, position, population).
`Index(path).country_at(lon, lat)` reads it back for the routes step (crossing parity from
the leaf's centre; at sea in a border leaf, the nearest edge's country within the buffer). What it does not do compared with geo-lookup: no exact integer predicates
(shapely's floating-point clipping), no nearest-city grid (cities are a flat list), mixed
sea leaves keep no coast edges (a query there answers no country, where ours measures the
distance to the coast), no size limit or load check.
"""
import math
import os
import struct
import sys

import numpy as np
import pyproj
import shapely

from ref_io import features, geometries

GEOD = pyproj.Geod(ellps="WGS84")
MAGIC = b"REFLOOK1"
SPLIT, COUNTRY, SEA, WATERS, BORDER, MIXED = range(6)


def edge_count(pieces):
    return shapely.get_num_coordinates(pieces) - shapely.get_num_geometries(pieces)


def covering(tree, polys, points):
    """(point index, polygon index) pairs of points inside polygons: the tree's bounding-box
    candidates, then the prepared polygons' contains (the query's own predicate would prepare
    the points, not the polygons)."""
    pi, gi = tree.query(points)
    inside = shapely.contains(polys[gi], points[pi])
    return pi[inside], gi[inside]


def build(o):
    feats = [ft for ft in features(o.countries) if ft["geometry"]["type"] in ("Polygon", "MultiPolygon")]
    codes = [ft["id"] for ft in feats]
    polys = geometries(feats)
    shapely.prepare(polys)
    poly_tree = shapely.STRtree(polys)
    bounds = shapely.boundary(polys)
    bound_tree = shapely.STRtree(bounds)
    buffer_m = o.coast_buffer_km * 1000

    # level 0: the 1° roots, row-major from (-180, -90)
    ys, xs = np.divmod(np.arange(360 * 180), 360)
    cx0, cy0, size = xs.astype(float) - 180, ys.astype(float) - 90, 1.0
    kinds_by_level, payload_by_level = [], []
    leaf_tables, edge_blocks, edge_total, leaf_total = [], [], 0, 0  # border leaves: (centre country, first edge, count); edges (x0, y0, x1, y1, country)
    coast_tree = coast_pieces = coast_country = None
    depth = 0
    cell_x, cell_y = cx0, cy0
    piece_cell = piece_country = piece_geom = None
    sea_depth = np.zeros(len(cell_x), dtype=np.int64)  # levels of sea splitting so far
    while len(cell_x):
        n = len(cell_x)
        boxes = shapely.box(cell_x, cell_y, cell_x + size, cell_y + size)
        if piece_cell is None:  # roots: the boundaries clipped to 10° blocks, then to the 1° cells
            bx, by = np.meshgrid(np.arange(-180, 180, 10.0), np.arange(-90, 90, 10.0))
            blocks = shapely.box(bx.ravel(), by.ravel(), bx.ravel() + 10, by.ravel() + 10)
            bi, gi = bound_tree.query(blocks, predicate="intersects")
            block_pieces = shapely.intersection(bounds[gi], blocks[bi])
            sub = np.arange(100)
            root = ((by.ravel()[bi][:, None] + 90 + sub[None, :] // 10) * 360 + (bx.ravel()[bi][:, None] + 180 + sub[None, :] % 10)).astype(np.int64)
            ci, pj = root.ravel(), np.repeat(np.arange(len(bi)), 100)
            hit = shapely.intersects(block_pieces[pj], boxes[ci])
            ci, pj = ci[hit], pj[hit]
            piece_geom = shapely.intersection(block_pieces[pj], boxes[ci])
            piece_cell, piece_country = ci, gi[pj]
        else:
            piece_geom = shapely.intersection(piece_geom, boxes[piece_cell])
        keep = ~shapely.is_empty(piece_geom) & (edge_count(piece_geom) > 0)
        piece_cell, piece_country, piece_geom = piece_cell[keep], piece_country[keep], piece_geom[keep]
        if depth == 0:  # the coast pieces for the sea rule: every root's clipped boundaries
            coast_pieces, coast_country = piece_geom, piece_country
            coast_tree = shapely.STRtree(coast_pieces)
        edges = np.bincount(piece_cell, weights=edge_count(piece_geom), minlength=n)
        kind = np.full(n, -1, dtype=np.int64)
        payload = np.zeros(n, dtype=np.int64)
        split = (edges > o.max_edges) & (depth < o.max_depth)
        has = edges > 0
        # cells without border: the country at their centre, else sea
        centres = shapely.points(cell_x + size / 2, cell_y + size / 2)
        empty = np.nonzero(~has)[0]
        pi, gi = covering(poly_tree, polys, centres[empty])
        kind[empty] = SEA
        kind[empty[pi]] = COUNTRY
        payload[empty[pi]] = gi
        # sea cells: the 12-nautical-mile rule from the nearest coast piece
        sea = np.nonzero(kind == SEA)[0]
        if len(sea):
            si, ni = coast_tree.query_nearest(centres[sea], max_distance=3.0, all_matches=False)
            near = np.full(len(sea), -1)
            near[si] = ni
            found = near >= 0
            lines = shapely.shortest_line(centres[sea[found]], coast_pieces[near[found]])
            c = shapely.get_coordinates(lines).reshape(-1, 2, 2)
            dist = np.full(len(sea), np.inf)
            dist[found] = GEOD.inv(c[:, 0, 0], c[:, 0, 1], c[:, 1, 0], c[:, 1, 1])[2]
            cxs, cys = cell_x[sea] + size / 2, cell_y[sea] + size / 2
            half = GEOD.inv(cxs, cys, cell_x[sea], np.where(cys < 0, cell_y[sea], cell_y[sea] + size))[2]
            waters = dist + half <= buffer_m
            kind[sea[waters]] = WATERS
            payload[sea[waters]] = coast_country[near[waters]]
            undecided = ~waters & (dist - half < buffer_m)
            can_split = sea_depth[sea] < o.sea_depth
            split[sea[undecided & can_split]] = True
            kind[sea[undecided & ~can_split]] = MIXED
        # border leaves: their edges and the country at their centre
        leaf = has & ~split
        kind[leaf] = BORDER
        leaf_cells = np.nonzero(leaf)[0]
        if len(leaf_cells):
            sel = leaf[piece_cell]
            lc, lco = piece_cell[sel], piece_country[sel]
            parts, pidx = shapely.get_parts(piece_geom[sel], return_index=True)
            coords, cidx = shapely.get_coordinates(parts, return_index=True)
            same = cidx[1:] == cidx[:-1]
            seg_piece = pidx[cidx[:-1][same]]
            seg_cell = lc[seg_piece]
            order = np.argsort(seg_cell, kind="stable")
            segs = np.column_stack([np.round(coords[:-1][same] * 1e6), np.round(coords[1:][same] * 1e6), lco[seg_piece]])[order]
            seg_cell = seg_cell[order]
            starts, ends = np.searchsorted(seg_cell, leaf_cells, "left"), np.searchsorted(seg_cell, leaf_cells, "right")
            pi, gi = covering(poly_tree, polys, centres[leaf_cells])
            centre_country = np.full(len(leaf_cells), -1)
            centre_country[pi] = gi
            leaf_tables.append(np.column_stack([centre_country, starts + edge_total, ends - starts]))
            edge_blocks.append(segs.astype(np.int32))
            edge_total += len(segs)
            payload[leaf_cells] = leaf_total + np.arange(len(leaf_cells))
            leaf_total += len(leaf_cells)
        kind[split] = SPLIT
        kinds_by_level.append(kind)
        payload_by_level.append(payload)
        # children of the split cells, four each (SW, SE, NW, NE)
        parents = np.nonzero(split)[0]
        h = size / 2
        cell_x = np.repeat(cell_x[parents], 4) + np.tile([0, h, 0, h], len(parents))
        cell_y = np.repeat(cell_y[parents], 4) + np.tile([0, 0, h, h], len(parents))
        was_sea = np.repeat(~has[parents], 4)
        sea_depth = np.where(was_sea, np.repeat(sea_depth[parents], 4) + 1, 0)
        child_of = np.full(n, -1)
        child_of[parents] = np.arange(len(parents)) * 4
        keep = child_of[piece_cell] >= 0
        pc, pco, pg = piece_cell[keep], piece_country[keep], piece_geom[keep]
        piece_cell = (np.repeat(child_of[pc], 4) + np.tile(np.arange(4), len(pc)))
        piece_country, piece_geom = np.repeat(pco, 4), np.repeat(pg, 4)
        payload_by_level[-1][parents] = np.arange(len(parents)) * 4  # child offset within the next level
        size = h
        depth += 1
    # flatten: node index = level offset + index within the level
    offsets = np.cumsum([0] + [len(k) for k in kinds_by_level])
    kinds = np.concatenate(kinds_by_level).astype(np.uint8)
    payloads = np.concatenate([np.where(k == SPLIT, p + offsets[i + 1], p) for i, (k, p) in enumerate(zip(kinds_by_level, payload_by_level))])
    leaf_table = np.concatenate(leaf_tables).astype(np.int32) if leaf_tables else np.zeros((0, 3), np.int32)
    edges = np.concatenate(edge_blocks) if edge_blocks else np.zeros((0, 5), np.int32)
    return codes, kinds, payloads.astype(np.uint32), leaf_table, edges


def write(o, codes, kinds, payloads, leaf_table, edges):
    places = features(o.places)
    code_index = {c: i for i, c in enumerate(codes)}
    out = bytearray(MAGIC)
    out += struct.pack("<IIIId", len(codes), len(kinds), len(leaf_table), len(edges), o.coast_buffer_km)
    out += b"".join(c.encode("ascii")[:2].ljust(2) for c in codes)
    out += kinds.tobytes() + payloads.tobytes()
    out += leaf_table.tobytes() + edges.tobytes()
    city_bytes = bytearray()
    for pl in sorted(places, key=lambda p: -(p["properties"].get("POP_MAX") or 0)):
        p = pl["properties"]
        name = (p["NAME"] or "").encode("utf-8")
        lon, lat = pl["geometry"]["coordinates"]
        city_bytes += struct.pack("<hiiqH", code_index.get(p.get("ISO_A2"), -1), round(lon * 1e6), round(lat * 1e6), int(p.get("POP_MAX") or 0), len(name)) + name
    out += struct.pack("<II", len(places), len(city_bytes)) + city_bytes
    os.makedirs(os.path.dirname(o.out) or ".", exist_ok=True)
    with open(o.out + ".tmp", "wb") as f:
        f.write(out)
    os.replace(o.out + ".tmp", o.out)
    return len(out), len(places)


class Index:
    """Reads the file back; country_at(lon, lat) → ISO code or None."""

    def __init__(self, path):
        data = open(path, "rb").read()
        assert data[:8] == MAGIC, f"{path}: not a reference lookup index"
        nc, nn, nl, ne, self.buffer_km = struct.unpack_from("<IIIId", data, 8)
        p = 8 + struct.calcsize("<IIIId")
        self.codes = [data[p + 2 * i:p + 2 * i + 2].decode() for i in range(nc)]
        p += 2 * nc
        self.kinds = np.frombuffer(data, np.uint8, nn, p); p += nn
        self.payloads = np.frombuffer(data, np.uint32, nn, p); p += 4 * nn
        self.leaves = np.frombuffer(data, np.int32, 3 * nl, p).reshape(nl, 3); p += 12 * nl
        self.edges = np.frombuffer(data, np.int32, 5 * ne, p).reshape(ne, 5)

    def country_at(self, lon, lat):
        x, y = min(int(math.floor(lon)), 179), min(int(math.floor(lat)), 89)
        node, cx, cy, size = (y + 90) * 360 + (x + 180), float(x), float(y), 1.0
        while self.kinds[node] == SPLIT:
            size /= 2
            i = (1 if lon >= cx + size else 0) + (2 if lat >= cy + size else 0)
            cx += size * (i & 1)
            cy += size * (i >> 1)
            node = int(self.payloads[node]) + i
        kind, payload = self.kinds[node], int(self.payloads[node])
        if kind in (COUNTRY, WATERS):
            return self.codes[payload]
        if kind != BORDER:
            return None
        centre_country, off, count = self.leaves[payload]
        e = self.edges[off:off + count].astype(np.float64)
        ox, oy, px, py = (cx + size / 2) * 1e6, (cy + size / 2) * 1e6, lon * 1e6, lat * 1e6
        # segment centre → p against every edge: proper crossings per country
        d1 = (e[:, 2] - e[:, 0]) * (oy - e[:, 1]) - (e[:, 3] - e[:, 1]) * (ox - e[:, 0])
        d2 = (e[:, 2] - e[:, 0]) * (py - e[:, 1]) - (e[:, 3] - e[:, 1]) * (px - e[:, 0])
        d3 = (px - ox) * (e[:, 1] - oy) - (py - oy) * (e[:, 0] - ox)
        d4 = (px - ox) * (e[:, 3] - oy) - (py - oy) * (e[:, 2] - ox)
        cross = ((d1 > 0) != (d2 > 0)) & ((d3 > 0) != (d4 > 0))
        flips = np.bincount(e[cross, 4].astype(np.int64), minlength=len(self.codes)) % 2
        inside = set(np.nonzero(flips)[0].tolist()) ^ ({int(centre_country)} if centre_country >= 0 else set())
        if inside:
            return self.codes[min(inside)]
        # at sea inside a border cell: the country of the nearest edge within the coast buffer
        ax, ay, bx, by = e[:, 0] / 1e6, e[:, 1] / 1e6, e[:, 2] / 1e6, e[:, 3] / 1e6
        k = math.cos(math.radians(lat))
        dx, dy = (bx - ax) * k, by - ay
        t = np.clip(((lon - ax) * k * dx + (lat - ay) * dy) / np.maximum(dx * dx + dy * dy, 1e-18), 0, 1)
        qx, qy = ax + t * (bx - ax), ay + t * (by - ay)
        i = int(np.argmin(np.hypot((qx - lon) * k, qy - lat)))
        km = GEOD.inv(lon, lat, qx[i], qy[i])[2] / 1000
        return self.codes[int(e[i, 4])] if km <= self.buffer_km else None


def main(o):
    codes, kinds, payloads, leaf_table, edges = build(o)
    size, cities = write(o, codes, kinds, payloads, leaf_table, edges)
    print(f"lookup: {len(codes)} countries, {cities} cities → {o.out} ({size} bytes; {len(kinds)} cells, {len(leaf_table)} with borders, {len(edges)} edges)",
          file=sys.stderr)


def add_parser(sub):
    a = sub.add_parser("lookup", help="point → country quadtree index")
    a.add_argument("countries"); a.add_argument("--places", required=True); a.add_argument("-o", "--out", required=True)
    a.add_argument("--max-edges", type=int, default=32); a.add_argument("--max-depth", type=int, default=10)
    a.add_argument("--sea-depth", type=int, default=3); a.add_argument("--coast-buffer-km", type=float, default=22.224)
    a.set_defaults(run=main)
