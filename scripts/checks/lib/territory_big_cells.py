# check_territory.sh: CSV — the 30,301 real H3 cells within 100 rings of central London, as
# territory_hex rows (hex_id, owner, last run, claimed_at, cell as EWKT) for \copy.
import sys, h3
with open(sys.argv[1], "w") as f:
    for i, c in enumerate(h3.grid_disk(h3.latlng_to_cell(51.51, -0.12, 9), 100)):
        ring = [(lng, lat) for lat, lng in h3.cell_to_boundary(c)]
        ring.append(ring[0])
        wkt = "SRID=4326;POLYGON((" + ",".join(f"{x:.9f} {y:.9f}" for x, y in ring) + "))"
        f.write(f"{c},00000000-0000-4000-8000-{i % 500:012d},00000000-0000-4000-8000-000000000001,2026-11-21 07:00:00+00,\"{wkt}\"\n")
