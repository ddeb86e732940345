"""A small PNG reader for the consumer checks (no Pillow here): decodes 8-bit RGBA or RGB,
non-interlaced PNGs such as rsvg-convert writes, with zlib, struct and numpy."""
import struct
import zlib

import numpy as np


def read_png(path):
    """Returns an (height, width, channels) uint8 array."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if zlib.crc32(kind + body) & 0xFFFFFFFF != struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]:
            raise ValueError(f"{path}: CRC error in chunk {kind!r}")
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace != 0:
        raise ValueError(f"{path}: only 8-bit RGB/RGBA non-interlaced PNGs are supported (got depth {depth}, colour type {ctype}, interlace {interlace})")
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    out = np.zeros((h, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int32)
        if f == 0:
            cur = line
        elif f == 1:  # Sub: running sum per channel
            cur = np.cumsum(line.reshape(w, bpp), axis=0).reshape(-1) & 0xFF
        elif f == 2:  # Up
            cur = (line + prev) & 0xFF
        elif f in (3, 4):  # Average, Paeth: sequential along the row
            cur = np.zeros(stride, dtype=np.int32)
            lv, pv = line.tolist(), prev.tolist()
            c = [0] * stride
            for i in range(stride):
                a = c[i - bpp] if i >= bpp else 0
                b = pv[i]
                if f == 3:
                    c[i] = (lv[i] + ((a + b) >> 1)) & 0xFF
                else:
                    cc = pv[i - bpp] if i >= bpp else 0
                    p = a + b - cc
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - cc)
                    pred = a if (pa <= pb and pa <= pc) else (b if pb <= pc else cc)
                    c[i] = (lv[i] + pred) & 0xFF
            cur = np.array(c, dtype=np.int32)
        else:
            raise ValueError(f"{path}: bad filter type {f} in row {y}")
        out[y] = cur
        prev = cur
    return out.reshape(h, w, bpp)


def filled_mask(path, threshold=128):
    """Pixels whose alpha is at least `threshold` (opaque ink on a transparent background)."""
    img = read_png(path)
    if img.shape[2] != 4:
        raise ValueError(f"{path}: expected RGBA")
    return img[:, :, 3] >= threshold
