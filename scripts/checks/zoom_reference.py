#!/usr/bin/env python3
"""The map at every zoom, recomputed without the database (check_zoom.sh): reads territory_hex
(CSV: hex_id, owner_user_id, last_run_id, claimed_at) and territory_in_viewport's answers (CSV:
box index, hex_id, resolution, cells, owner_user_id, owner_cells, last_run_id, claimed_at) and,
for each box (lo la hi ha max_cells), recomputes the answer with h3-py: the parents of every
claimed cell, the cells whose boundary (shapely) meets the box, the resolution the contract
picks (the walk from resolution 0 to 9), and each coarse cell's majority owner, counts and latest claim. Prints one line per box;
exit 1 on any difference."""
import collections, csv, math, sys
import h3
from shapely.geometry import Polygon, box as shbox

rows = [r for r in csv.reader(open(sys.argv[1]))]
got = collections.defaultdict(list)
for r in csv.reader(open(sys.argv[2])):
    got[int(r[0])].append(r[1:])
boxes = [b.split() for b in sys.argv[3].split("|")]

claims = {}          # res-9 cell -> (owner, run, at) for claimed cells
for hid, owner, run, at in rows:
    if owner and h3.is_valid_cell(hid) and h3.get_resolution(hid) == 9:
        claims[hid] = (owner, run, at)
per = collections.defaultdict(lambda: collections.defaultdict(list))
for c, (owner, run, at) in claims.items():
    for r in range(9):
        per[h3.cell_to_parent(c, r)][owner].append((at, run))

def summary(cell):
    if h3.get_resolution(cell) == 9:
        o, run, at = claims[cell]
        return [o, "1", "1", run, at, "1"]
    owners = per[cell]
    latest = {o: max(v) for o, v in owners.items()}
    # most cells; a tie: the latest claim (claimed_at, then last_run_id); then the smaller uuid
    best = min(owners, key=lambda o: (-len(owners[o]), [-ord(ch) for ch in latest[o][0]], [-ord(ch) for ch in latest[o][1]], o))
    return [best, str(len(owners[best])), str(sum(len(v) for v in owners.values())), latest[best][1], latest[best][0]]

shapes = {}
def shape(cell):
    if cell not in shapes:
        ring = [(lng, lat) for lat, lng in h3.cell_to_boundary(cell)]
        pole = next((p for p in (90, -90) if h3.latlng_to_cell(p, 0, h3.get_resolution(cell)) == cell), None)
        if pole is not None:  # a cap: every longitude from its lowest latitude to the pole
            lat = min(y for x, y in ring) if pole > 0 else max(y for x, y in ring)
            shapes[cell] = shbox(-180, min(lat, pole), 540, max(lat, pole))
        else:
            if max(x for x, y in ring) - min(x for x, y in ring) > 180:
                ring = [(x + 360 if x < 0 else x, y) for x, y in ring]
            shapes[cell] = Polygon(ring)
    return shapes[cell]

bad = 0
for i, (lo, la, hi, ha, mx) in enumerate(boxes):
    lo, la, hi, ha, mx = float(lo), max(float(la), -90), float(hi), min(float(ha), 90), int(mx)
    w = hi + 360 - lo if lo > hi else hi - lo
    if w >= 360: lo, w = -180.0, 360.0
    else: lo -= 360 * math.floor((lo + 180) / 360)
    windows = [shbox(lo + s, la, lo + w + s, ha) for s in (-360, 0, 360)]
    def inside(cells):
        return sorted(c for c in cells if any(shape(c).intersects(b) for b in windows))
    # the walk from resolution 0 to 9: the first count over max_cells ends it
    want, fit, levels = [], -1, {}
    if mx > 0:
        for r in range(10):
            levels[r] = inside(claims) if r == 9 else inside({c for c in per if h3.get_resolution(c) == r})
            if len(levels[r]) > mx: break
            fit = r
        if fit >= 0: want = [(c, fit) for c in levels[fit]]
        else: want = [(c, 0) for c in sorted(levels[0], key=lambda c: (-sum(len(v) for v in per[c].values()), c))[:mx]]
    expect = []
    for c, r in want:
        s = summary(c)
        if r == 9: expect.append([c, "9", "1", s[0], "1", s[3], s[4]])
        else: expect.append([c, str(r), s[2], s[0], s[1], s[3], s[4]])
    res = sorted({e[1] for e in expect})
    if got[i] == expect:
        print(f"  ok   box {i} ({' '.join(boxes[i])}): {len(expect)} rows at resolution {','.join(res) or '-'} = h3-py's recount")
    else:
        bad += 1
        print(f"  FAIL box {i} ({' '.join(boxes[i])}): {len(got[i])} rows, h3-py's recount {len(expect)} at resolution {','.join(res) or '-'}")
        for a, b in list(zip(got[i], expect))[:3]:
            if a != b: print("       got ", a, "\n       want", b)
sys.exit(1 if bad else 0)
