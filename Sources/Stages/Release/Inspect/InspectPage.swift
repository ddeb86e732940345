/// The inspection page itself: HTML, style and the script that draws `window.INSPECT` (data.js)
/// with Leaflet. Fixed text: everything that varies is in data.js.
enum InspectPage {
    static let html = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Inspect the products</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="leaflet/leaflet.css">
<style>
  html, body { margin: 0; height: 100%; font: 13px/1.35 system-ui, sans-serif; }
  #map { position: absolute; top: 0; bottom: 0; left: 0; right: 0; background: #2F86A6; }
  #banner { position: absolute; z-index: 1000; left: 50px; top: 10px; max-width: 60%; background: rgba(255,255,255,.92);
            padding: 6px 10px; border-radius: 4px; box-shadow: 0 1px 4px rgba(0,0,0,.3); }
  #banner b { color: #b3261e; }
  .popup table { border-collapse: collapse; margin-top: 4px; }
  .popup td { padding: 0 6px 0 0; vertical-align: top; }
  .popup td:first-child { color: #555; white-space: nowrap; }
  .popup .change { background: #fdecea; padding: 3px 5px; margin: 4px 0; border-left: 3px solid #e4572e; }
  .popup img { width: 120px; height: 120px; float: right; margin-left: 8px; }
  .silhouette { background: rgba(255,255,255,.9); border: 1px solid #555; border-radius: 3px; }
  .legend { background: rgba(255,255,255,.9); padding: 4px 8px; border-radius: 4px; }
  .legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: middle; }
</style>
</head>
<body>
<div id="map"></div>
<div id="banner"></div>
<script>
  // A file the page could not load (a silhouette, a Leaflet image) is an error worth a console line.
  window.addEventListener("error", e => { if (e.target && e.target !== window) console.error("inspect: could not load " + (e.target.src || e.target.href)); }, true);
</script>
<script src="leaflet/leaflet.js"></script>
<script src="data.js"></script>
<script>
"use strict";
(function () {
  const D = window.INSPECT;
  const LAND = "#34BE82", CHANGED = "#e4572e", POINT = "#F2F013";
  const changes = D.changes || null;
  const changed = (changes && changes.countries) || {};
  const esc = s => String(s == null ? "—" : s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c]));
  const hue = s => { let h = 0; for (const ch of String(s)) h = (h * 31 + ch.charCodeAt(0)) >>> 0; return h % 360; };
  const all = /(^|[#&])layers=all\b/.test(location.hash);

  const map = L.map("map", { worldCopyJump: false, minZoom: 1, maxZoom: 14, zoomSnap: 0.25 });
  map.fitBounds([[-60, -170], [80, 175]]);
  const canvas = L.canvas({ padding: 0.2 });

  function changeText(c) {
    const parts = [];
    if (c.status) parts.push(c.status);
    if (c.geometry_km != null) parts.push("border moved up to " + c.geometry_km + " km");
    if (c.area_pct != null) parts.push("area " + (c.area_pct >= 0 ? "+" : "") + c.area_pct + " %");
    for (const [k, v] of Object.entries(c.fields || {})) parts.push(k + ": " + JSON.stringify(v[0]) + " → " + JSON.stringify(v[1]));
    return parts.join("; ");
  }

  function popup(f) {
    const p = f.properties, r = p.report || {};
    let h = '<div class="popup">';
    if (p.silhouette) h += '<img alt="silhouette" src="' + esc(p.silhouette) + '">';
    h += "<b>" + esc(p.name) + "</b> (" + esc(f.id) + ")";
    if (p.change) h += '<div class="change">changed: ' + esc(changeText(p.change)) + "</div>";
    h += "<table>";
    const row = (k, v) => { h += "<tr><td>" + esc(k) + "</td><td>" + esc(v) + "</td></tr>"; };
    row("capital", p.capital);
    row("aliases", (p.aliases || []).join(", "));
    row("capital aliases", (p.capitalAliases || []).join(", "));
    row("continent", p.continent);
    row("drawn as", p.renderAs || "polygon");
    row("vertices in → out", (r.vertices_before || "?") + " → " + (r.vertices_after || "?"));
    row("Hausdorff (km)", r.hausdorff_km);
    row("p95 distance (km)", r.p95_distance_km);
    row("area (km²)", r.drawable_km2);
    if (+r.dropped_parts || +r.dropped_holes) row("dropped", r.dropped_parts + " parts (" + r.dropped_area_km2 + " km²), " + r.dropped_holes + " holes");
    if (r.gap_filled_into) row("area given to", r.gap_filled_into);
    if (r.gap_received_from) row("area received from", r.gap_received_from);
    row("repairs", (p.repairs || []).join("; ") || "none");
    return h + "</table></div>";
  }

  function tagged(layer) {
    const el = layer.getElement && layer.getElement();
    if (el && layer.feature) el.setAttribute("data-iso", layer.feature.id);
  }

  const polygons = { type: "FeatureCollection", features: D.countries.features.filter(f => f.geometry.type !== "Point") };
  const points = { type: "FeatureCollection", features: D.countries.features.filter(f => f.geometry.type === "Point") };
  const countries = L.geoJSON(polygons, {
    style: f => ({ color: "#000", weight: 0.6, fillColor: changed[f.id] ? CHANGED : LAND, fillOpacity: 0.85 }),
    onEachFeature: (f, l) => l.bindPopup(() => popup(f), { maxWidth: 420 })
  });
  const pointCountries = L.geoJSON(points, {
    pointToLayer: (f, ll) => L.circleMarker(ll, { radius: 5, color: "#000", weight: 1, fillColor: changed[f.id] ? CHANGED : POINT, fillOpacity: 1 }),
    onEachFeature: (f, l) => l.bindPopup(() => popup(f), { maxWidth: 420 })
  });
  const capitals = L.layerGroup(D.countries.features.filter(f => f.properties.capitalLat != null).map(f =>
    L.circleMarker([f.properties.capitalLat, f.properties.capitalLon], { renderer: canvas, radius: 2.5, color: "#222", weight: 1, fillColor: "#fff", fillOpacity: 1 })
      .bindTooltip(esc(f.properties.capital) + " (" + esc(f.id) + ")")));
  const silhouettes = L.layerGroup();
  const cities = L.layerGroup(D.cities.map(c => L.circleMarker([c[3], c[4]], {
    renderer: canvas, radius: Math.max(1.5, Math.sqrt(c[2] / 1e6) * 2.5), stroke: false, fillColor: "#7a1fa2", fillOpacity: 0.7
  }).bindTooltip(esc(c[0]) + " (" + esc(c[1]) + "), " + c[2].toLocaleString("en"))));
  const routes = L.geoJSON(D.routes, {
    style: { color: "#d81b60", weight: 3 },
    pointToLayer: (f, ll) => L.circleMarker(ll, { radius: 4, color: "#d81b60", fillColor: "#fff", fillOpacity: 1, weight: 2 }),
    onEachFeature: (f, l) => l.bindTooltip(esc(f.properties.name || f.properties.location || f.properties.route || ""))
  });
  const territory = L.geoJSON(D.territory, {
    style: f => ({ color: "hsl(" + hue(f.properties.owner_user_id) + ",80%,35%)", weight: 1,
                   fillColor: "hsl(" + hue(f.properties.owner_user_id) + ",80%,55%)", fillOpacity: 0.6 }),
    onEachFeature: (f, l) => l.bindTooltip("cell " + esc(f.properties.hex_id) + ", owner " + esc(f.properties.owner_user_id))
  });
  const probeChanged = new Set(((changes && changes.lookup && changes.lookup.examples) || []).map(e => e.lat + "," + e.lon));
  const probe = L.layerGroup(D.probe.filter(p => p[2] != null).map(p => L.circleMarker([p[0], p[1]], {
    renderer: canvas, radius: 1.6, stroke: false, fillColor: "hsl(" + hue(p[2]) + ",70%,40%)", fillOpacity: 0.9
  }).bindTooltip("lookup: " + esc(p[2]))));
  for (const e of ((changes && changes.lookup && changes.lookup.examples) || [])) {
    L.circleMarker([e.lat, e.lon], { radius: 6, color: CHANGED, weight: 2, fill: false })
      .bindTooltip("lookup answer changed: " + esc(e.old || "sea") + " → " + esc(e.new || "sea")).addTo(probe);
  }

  countries.addTo(map); pointCountries.addTo(map); capitals.addTo(map);
  countries.eachLayer(tagged); pointCountries.eachLayer(tagged);
  map.on("overlayadd", () => { countries.eachLayer(tagged); pointCountries.eachLayer(tagged); });
  countries.eachLayer(l => {
    const s = l.feature.properties.silhouette;
    if (!s) return;
    // At the centre of the country's largest part (by vertices): Russia's or the US's extent spans the map.
    const g = l.feature.geometry, parts = g.type === "MultiPolygon" ? g.coordinates : [g.coordinates];
    const largest = parts.reduce((a, b) => b[0].length > a[0].length ? b : a);
    const at = L.latLngBounds(largest[0].map(c => [c[1], c[0]])).getCenter();
    L.marker(at, { icon: L.icon({ iconUrl: s, iconSize: [28, 28], className: "silhouette" }), interactive: false }).addTo(silhouettes);
  });
  const overlays = {
    "Countries (click one)": countries, "Point countries": pointCountries, "Capitals": capitals, "Silhouettes": silhouettes,
    ["Cities (largest " + D.cities.length + ")"]: cities, "Routes": routes, "Territory cells by owner": territory, "Lookup probe": probe
  };
  if (all) for (const l of Object.values(overlays)) l.addTo(map);
  L.control.layers(null, overlays, { collapsed: false }).addTo(map);
  L.control.scale().addTo(map);

  const legend = L.control({ position: "bottomleft" });
  legend.onAdd = () => { const d = L.DomUtil.create("div", "legend");
    d.innerHTML = '<i style="background:' + LAND + '"></i>country <i style="background:' + POINT + '"></i>point country' +
      (changes ? ' <i style="background:' + CHANGED + '"></i>changed' : ""); return d; };
  legend.addTo(map);

  const banner = document.getElementById("banner");
  const n = D.countries.features.length, nChanged = Object.keys(changed).length;
  if (changes && changes.previous) {
    banner.innerHTML = "<b>Changes against " + esc(changes.previous) + ":</b> " + esc(changes.headline) +
      (nChanged ? "<br>" + Object.entries(changed).map(([k, c]) => esc(k) + ": " + esc(changeText(c))).join("<br>") : "");
  } else {
    banner.textContent = n + " countries, " + D.cities.length + " cities, " + D.probe.length + " lookup probe points. Click a country.";
  }
  const drawn = new Set(Array.from(document.querySelectorAll("[data-iso]"), e => e.getAttribute("data-iso")));
  document.body.setAttribute("data-countries-drawn", String(drawn.size));
  console.log("inspect: drew " + drawn.size + " of " + n + " countries, " + nChanged + " changed");
})();
</script>
</body>
</html>
"""#
}
