#!/usr/bin/env python3
"""Changes since, as a client applies them (check_zoom.sh; the *_territory_at_every_zoom migration's
header is the contract).

  zoom_since.py take STATE.json ALL.csv                 a client's drawing from whole answers
  zoom_since.py tokens STATE.json                        "box number" per box, for the next call
  zoom_since.py apply STATE.json SINCE.csv ALL.csv LABEL the changes applied = the whole answer now

CSV rows (territory_cells_in_viewport, one box each): box index, kind, resolution, owner, hex_ids,
cells, owner_cells, next (arrays space-separated). A client keeps per box the resolution, the number
`next` and its cells (hex_id → owner, cells, owner_cells). A 'since' answer drops every cell under
the header's hex_ids (at resolution 9 the cells whose resolution-8 parent is one of them; coarser,
those cells), then adds its rows; an 'all' answer replaces the drawing. apply prints one line per
box and exits 1 when a drawing differs from the whole answer, or a 'since' answer did not change
the number's resolution part when it should."""
import collections, csv, json, sys
import h3

def read(path):
    boxes = collections.defaultdict(lambda: {"kind": None, "res": None, "next": None, "drop": [], "cells": {}, "rows": 0})
    for i, kind, res, owner, ids, cells, owned, nxt in csv.reader(open(path)):
        b = boxes[int(i)]
        if kind in ("all", "since"):
            b["kind"], b["res"], b["next"], b["drop"] = kind, int(res), int(nxt), ids.split()
        else:
            ids, cells, owned = ids.split(), cells.split(), owned.split()
            assert len(ids) == len(cells) == len(owned), (i, owner)
            for h, c, o in zip(ids, cells, owned):
                b["cells"][h] = [owner, int(c), int(o)]
                b["rows"] += 1
    return boxes

def main():
    mode, state = sys.argv[1], sys.argv[2]
    if mode == "take":
        drawn = {i: {"res": b["res"], "next": b["next"], "cells": b["cells"]} for i, b in read(sys.argv[3]).items()}
        json.dump(drawn, open(state, "w"))
        return 0
    drawn = json.load(open(state))
    if mode == "tokens":
        for i, d in sorted(drawn.items(), key=lambda kv: int(kv[0])):
            print(i, d["next"])
        return 0
    since, whole, label = read(sys.argv[3]), read(sys.argv[4]), sys.argv[5]
    bad = 0
    for i, d in sorted(drawn.items(), key=lambda kv: int(kv[0])):
        s, w = since[int(i)], whole[int(i)]
        if s["kind"] == "all":
            d["cells"] = dict(s["cells"])
            how = f"a whole answer ({s['rows']} cells at resolution {s['res']}, the resolution was {d['res']})"
            if s["res"] == d["res"]:
                bad += 1; print(f"  FAIL box {i} {label}: a whole answer though the resolution stayed {s['res']}")
        else:
            drop = set(s["drop"])
            if drop:
                d["cells"] = {h: v for h, v in d["cells"].items()
                              if (h3.cell_to_parent(h, 8) if h3.get_resolution(h) == 9 else h) not in drop}
            d["cells"].update(s["cells"])
            how = f"{len(drop)} cells dropped, {s['rows']} drawn" if drop or s["rows"] else "nothing changed"
        d["res"], d["next"] = s["res"], s["next"]
        if d["cells"] == w["cells"] and d["res"] == w["res"]:
            print(f"  ok   box {i} {label}: {how}; the drawing = the whole answer ({len(w['cells'])} cells)")
        else:
            bad += 1
            extra = sorted(set(d["cells"].items() and d["cells"]) - set(w["cells"]))[:3]
            missing = sorted(set(w["cells"]) - set(d["cells"]))[:3]
            wrong = sorted(h for h in set(d["cells"]) & set(w["cells"]) if d["cells"][h] != w["cells"][h])[:3]
            print(f"  FAIL box {i} {label}: {how}; the drawing differs from the whole answer (resolution {d['res']} vs {w['res']};"
                  f" extra {extra}, missing {missing}, wrong {wrong})")
    json.dump(drawn, open(state, "w"))
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
