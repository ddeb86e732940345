# check_territory.sh: PNG [SVG] — preview.png (rsvg-convert's rendering of preview.svg) decoded by hand:
# its size, its colours against the owners' fills in the SVG. Prints one ok/FAIL line; exits 1 on FAIL.
import re, struct, sys, zlib
png = open(sys.argv[1], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n"
w, h, depth, ctype = struct.unpack(">IIBB", png[16:26])
idat = b"".join(png[i + 8:i + 8 + struct.unpack(">I", png[i:i + 4])[0]] for i in [m.start() - 4 for m in re.finditer(b"IDAT", png)])
raw = zlib.decompress(idat)
bpp = {6: 4, 2: 3}[ctype]
stride = w * bpp
rows, prev = [], bytearray(stride)
pos = 0
for y in range(h):
    f = raw[pos]; line = bytearray(raw[pos + 1:pos + 1 + stride]); pos += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line)); prev = line
colours = {tuple(r[x:x + 3]) for r in rows for x in range(0, stride, bpp)}
fills = set(re.findall(r'<path id="h[0-9a-f]+" fill="#([0-9A-F]{6})"', open(sys.argv[2]).read()))
# cells are drawn at 60 % over the background: at least as many distinct tints as owners in view
print(f"  ok   preview.svg renders with rsvg-convert ({w}×{h} px, {len(colours)} colours, {len(fills)} owners' fills)" if w > 300 and h > 100 and len(fills) >= 2 and len(colours) > len(fills)
      else f"  FAIL preview.png {w}×{h}, {len(fills)} owners")
sys.exit(0 if w > 300 and h > 100 and len(fills) >= 2 else 1)
