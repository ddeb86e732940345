#!/usr/bin/env python3
"""The map at every zoom, recomputed without the database (check_zoom.sh).

  zoom_reference.py HEX.csv VIEWPORT.csv BOXES     compare territory_in_viewport's answers
  zoom_reference.py --non-monotone HEX.csv         print a box whose counts are not monotone

HEX.csv: territory_hex (hex_id, owner_user_id, last_run_id, claimed_at), every row. VIEWPORT.csv:
territory_in_viewport's answers (box index, hex_id, resolution, cells, owner_user_id, owner_cells,
last_run_id, claimed_at). For each box (lo la hi ha max_cells) the answer is recomputed with h3-py:
the parents of every claimed cell, the cells whose boundary (shapely) meets the box, the
resolution the contract picks (9 when the box's territory_hex rows number at most max_cells, else
the finest coarser one whose claimed cells fit), and each coarse cell's majority owner, counts
and latest claim (its UTC day: the answer gives no time of day); their order too where one is promised (no
resolution fits: most cells first); max_cells clamped to the maximum (MAX_CELLS). Prints one line per box;
exit 1 on any difference.

--non-monotone finds, near the territory's edge, a small box and a max_cells for which a count
exceeds max_cells while a finer resolution's fits (so stopping at the first count over max_cells
would answer coarser than the contract), and prints "lo la hi ha max_cells resolution": the
resolution the contract picks; exit 1 when there is none."""
import collections, csv, math, sys
import h3
from shapely.geometry import Polygon, box as shbox
from shapely.strtree import STRtree

MAX_CELLS = 10000  # the migration's maximum max_cells (larger values are clamped)

def day(at):
    """A claim's time as the answer gives it: its UTC day (to_char's text, midnight)."""
    return at[:10] + " 00:00:00.000000" if at else at

def load(path):
    rows = [r for r in csv.reader(open(path))]
    claims = {}      # res-9 cell -> (owner, run, at) for claimed cells
    for hid, owner, run, at in rows:
        if owner and h3.is_valid_cell(hid) and h3.get_resolution(hid) == 9:
            claims[hid] = (owner, run, at)
    per = collections.defaultdict(lambda: collections.defaultdict(list))
    for c, (owner, run, at) in claims.items():
        for r in range(9):
            per[h3.cell_to_parent(c, r)][owner].append((at, run))
    return rows, claims, per

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

def windows(lo, la, hi, ha):
    la, ha = max(la, -90), min(ha, 90)
    w = hi + 360 - lo if lo > hi else hi - lo
    if w >= 360: lo, w = -180.0, 360.0
    else: lo -= 360 * math.floor((lo + 180) / 360)
    return [shbox(lo + s, la, lo + w + s, ha) for s in (-360, 0, 360)]

class Levels:
    """The cells of each resolution (9: every territory_hex row; coarser: the claimed parents)."""
    def __init__(self, rows, per):
        self.cells = {9: sorted({r[0] for r in rows if h3.is_valid_cell(r[0])})}
        for r in range(9):
            self.cells[r] = sorted(c for c in per if h3.get_resolution(c) == r)
        self.trees = {r: STRtree([shape(c) for c in cs]) for r, cs in self.cells.items()}
    def inside(self, r, wins):
        hit = set()
        for b in wins:
            for i in self.trees[r].query(b):
                c = self.cells[r][i]
                if shape(c).intersects(b): hit.add(c)
        return sorted(hit)

def pick(counts, mx):
    """The contract's resolution: 9 when its count fits, else the finest coarser one that fits; -1: none."""
    return max((r for r in range(10) if counts[r] <= mx), default=-1)

def compare(hexcsv, vpcsv, boxspec):
    rows, claims, per = load(hexcsv)
    stored = {r[0]: r for r in rows}
    levels = Levels(rows, per)
    got = collections.defaultdict(list)
    for r in csv.reader(open(vpcsv)):
        got[int(r[0])].append(r[1:])
    boxes = [b.split() for b in boxspec.split("|")]

    def summary(cell):
        owners = per[cell]
        latest = {o: max(v) for o, v in owners.items()}
        # most cells; a tie: the latest claim (claimed_at, then last_run_id); then the smaller uuid
        best = min(owners, key=lambda o: (-len(owners[o]), [-ord(ch) for ch in latest[o][0]], [-ord(ch) for ch in latest[o][1]], o))
        return [best, str(len(owners[best])), str(sum(len(v) for v in owners.values())), latest[best][1], latest[best][0]]

    bad = 0
    for i, (lo, la, hi, ha, mx) in enumerate(boxes):
        wins, mx = windows(float(lo), float(la), float(hi), float(ha)), min(int(mx), MAX_CELLS)
        expect, fit = [], None
        if mx > 0:
            found = {r: levels.inside(r, wins) for r in range(10)}
            fit = pick({r: len(found[r]) for r in range(10)}, mx)
            if fit == 9:
                for c in found[9]:
                    _, owner, run, at = stored[c]
                    n = "1" if owner else "0"
                    expect.append([c, "9", n, owner, n, run, day(at)])
            else:
                want = found[fit] if fit >= 0 else sorted(found[0], key=lambda c: (-sum(len(v) for v in per[c].values()), c))[:mx]
                for c in want:
                    s = summary(c)
                    expect.append([c, str(max(fit, 0)), s[2], s[0], s[1], s[3], day(s[4])])
        res = sorted({e[1] for e in expect})
        # the no-fit answer most cells first, then by hex_id; any other in no order
        if (sorted(got[i]) if fit is not None and fit >= 0 else got[i]) == expect:
            print(f"  ok   box {i} ({' '.join(boxes[i])}): {len(expect)} rows at resolution {','.join(res) or '-'} = h3-py's recount")
        else:
            bad += 1
            print(f"  FAIL box {i} ({' '.join(boxes[i])}): {len(got[i])} rows, h3-py's recount {len(expect)} at resolution {','.join(res) or '-'}")
            for a, b in list(zip(got[i], expect))[:3]:
                if a != b: print("       got ", a, "\n       want", b)
    return 1 if bad else 0

def non_monotone(hexcsv):
    rows, claims, per = load(hexcsv)
    levels = Levels(rows, per)
    edge = h3.average_hexagon_edge_length(9, unit="km") / 111.32
    # boxes around the claimed cells at the territory's edge (an unclaimed neighbour), in H3 order
    rim = [c for c in sorted(claims) if any(n not in claims for n in h3.grid_disk(c, 1))]
    for c in rim[::7]:
        lat, lng = h3.cell_to_latlng(c)
        for dy in (-2, 0, 2):
            for dx in (-2, 0, 2):
                for size in (0.5, 1, 2, 4):
                    y, x, s = lat + dy * edge, lng + dx * edge / math.cos(math.radians(lat)), size * edge
                    b = (round(x - s, 6), round(y - s, 6), round(x + s, 6), round(y + s, 6))
                    wins = windows(*b)
                    counts = {r: len(levels.inside(r, wins)) for r in range(10)}
                    for mx in range(1, 8):
                        fit = pick(counts, mx)
                        first = next((r for r in range(10) if counts[r] > mx), 10) - 1  # stopping at the first count over
                        if fit > first and fit >= 0 and counts[fit] > 0:
                            print(*b, mx, fit)
                            return 0
    return 1

if __name__ == "__main__":
    if sys.argv[1] == "--non-monotone":
        sys.exit(non_monotone(sys.argv[2]))
    sys.exit(compare(sys.argv[1], sys.argv[2], sys.argv[3]))
