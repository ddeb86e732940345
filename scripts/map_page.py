#!/usr/bin/env python3
"""The game's map drawn from the cells-only answer (issue 41): one self-contained HTML page.

  map_page.py TITLE ANSWER.csv BOUNDARIES.geojson OUT.html [TITLE ANSWER.csv BOUNDARIES.geojson]...

ANSWER.csv: territory_cells_in_viewport's rows as `psql -At -F,` prints them with its arrays
space-separated (kind, resolution, owner, hex_ids, cells, owner_cells, next). BOUNDARIES.geojson:
`geo-hexagons boundary` of the answer's hex_ids (the project's own H3: the database sends no
geometry). The page draws each answer as an SVG panel, one polygon per cell filled by its
owner (no owner: grey; opacity by owner_cells / cells), with the answer's resolution, cells and
owners; it logs "map: drew N cells" once done. No network, no library."""
import csv, html, json, sys

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>The game's map, from cells</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 16px; background: #f6f6f2; color: #222; }
.panels { display: flex; gap: 16px; flex-wrap: wrap; }
figure { margin: 0; background: #fff; border: 1px solid #ccc; padding: 8px; }
figcaption { margin-bottom: 6px; }
svg { display: block; background: #e8eef3; }
polygon { stroke: #333; stroke-width: 0.6; vector-effect: non-scaling-stroke; }
</style></head><body>
<h1>The game's map, drawn from <code>territory_cells_in_viewport</code></h1>
<p>Cells from the database as H3 ids, owners and counts; boundaries from the project's own H3 (geo-hexagons).</p>
<div class="panels" id="panels"></div>
<script>
const MAP = __DATA__;
const NS = "http://www.w3.org/2000/svg";
function colour(owner) {
  if (!owner) return "#9a9a9a";
  let h = 2166136261;  // FNV-1a, then one of 12 hues
  for (const c of owner) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return `hsl(${(h % 12) * 30}, 65%, 50%)`;
}
let drawn = 0;
for (const panel of MAP) {
  const shapes = new Map(panel.boundaries.features.map(f => [f.properties.h3 || f.id, f.geometry]));
  const rings = [];
  for (const row of panel.rows) {
    const g = shapes.get(row.hex_id);
    if (!g) throw new Error("no boundary for " + row.hex_id);
    const polys = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
    for (const p of polys) rings.push({ row, ring: p[0] });
  }
  // Across ±180° (geo-hexagons splits a cell there): the western side drawn a turn east.
  const xs = rings.flatMap(({ ring }) => ring.map(([x]) => x));
  if (Math.max(...xs) - Math.min(...xs) > 180) {
    for (const r of rings) r.ring = r.ring.map(([x, y]) => [x < 0 ? x + 360 : x, y]);
  }
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const { ring } of rings) for (const [x, y] of ring) {
    x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
  }
  const k = Math.cos(((y0 + y1) / 2) * Math.PI / 180);
  const w = 400, h = Math.max(120, Math.min(400, w * (y1 - y0) / Math.max((x1 - x0) * k, 1e-9)));
  const fig = document.createElement("figure");
  const cap = document.createElement("figcaption");
  const owners = new Set(panel.rows.map(r => r.owner));
  cap.textContent = `${panel.title}: ${panel.rows.length} cells at resolution ${panel.resolution}, ${owners.size} owners`;
  fig.appendChild(cap);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("width", w); svg.setAttribute("height", h);
  svg.setAttribute("viewBox", `${x0 * k} ${-y1} ${(x1 - x0) * k} ${y1 - y0}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  for (const { row, ring } of rings) {
    const poly = document.createElementNS(NS, "polygon");
    poly.setAttribute("points", ring.map(([x, y]) => `${x * k},${-y}`).join(" "));
    poly.setAttribute("fill", colour(row.owner));
    poly.setAttribute("fill-opacity", row.cells ? (0.35 + 0.65 * row.owner_cells / row.cells).toFixed(2) : "0.5");
    poly.setAttribute("data-h3", row.hex_id);
    const t = document.createElementNS(NS, "title");
    t.textContent = `${row.hex_id} r${panel.resolution}: ${row.owner || "no owner"}, ${row.owner_cells}/${row.cells} cells`;
    poly.appendChild(t);
    svg.appendChild(poly);
  }
  fig.appendChild(svg);
  document.getElementById("panels").appendChild(fig);
  drawn += panel.rows.length;
}
console.log(`map: drew ${drawn} cells`);
</script></body></html>
"""


def panel(title, answer, boundaries):
    rows, resolution = [], None
    for kind, res, owner, ids, cells, owned, _next in csv.reader(open(answer)):
        if kind in ("all", "since"):
            resolution = int(res)
            continue
        for h, c, o in zip(ids.split(), cells.split(), owned.split()):
            rows.append({"hex_id": h, "owner": owner or None, "cells": int(c), "owner_cells": int(o)})
    return {"title": title, "resolution": resolution, "rows": rows, "boundaries": json.load(open(boundaries))}


def main(argv):
    out = argv[3]
    specs = [argv[0:3]] + [argv[i:i + 3] for i in range(4, len(argv), 3)]
    data = [panel(*s) for s in specs]
    text = PAGE.replace("__DATA__", json.dumps(data, separators=(",", ":")).replace("</", "<\\/"))
    open(out, "w", encoding="utf-8").write(text)
    print(f"map_page: {sum(len(p['rows']) for p in data)} cells in {len(data)} panels → {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
