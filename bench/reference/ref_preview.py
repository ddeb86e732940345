"""preview: three PNG views of the globe .glb, rendered on the CPU.

What it does, as a Python developer would: reads the .glb's two chunks itself (the JSON
header with orjson, the buffer as numpy views: pygltflib's dataclass decoding of 500 nodes
costs more than the rest of the read); for each view (atlantic: centred on 30°W 20°N,
pacific: 180° 0°, south_pole) rotates the scene to the view (numpy), projects it
orthographically to a 720 px image supersampled 2× (1440 px), culls back faces, and paints
layer by layer (ocean, rims, fills, outlines, capitals; painter's algorithm) with OpenCV:
each node's front-facing triangles in one `cv2.fillPoly` call (one colour per node, so their
order within it does not matter), its line primitives in one `cv2.polylines` call (1 px);
the atmosphere is blended over the result; downsampled by pixel averaging (INTER_AREA) and saved as PNG.
What it does not do compared with geo-preview: no z-buffer (painter's order per layer),
no lighting, outlines are 1 px GL lines rather than our miter-widened strips, and the views
are rendered one after another (ours: one thread per view).
"""
import math
import os
import struct

import cv2
import numpy as np
import orjson

VIEWS = [("atlantic", -30.0, 20.0), ("pacific", 180.0, 0.0), ("south_pole", 0.0, -90.0)]
LAYER = {"ocean": 0, "land": 2, "border": 3, "capital": 4, "atmosphere": 5}
LINES = 1  # glTF primitive mode


def linear_to_srgb8(c):
    return tuple(int(round(255 * (12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055))) for x in c[:3])


def read_scene(path):
    """Every mesh node of a .glb: (layer, name, mode, colour, positions, indices)."""
    with open(path, "rb") as f:
        data = f.read()
    json_len, = struct.unpack_from("<I", data, 12)
    gltf = orjson.loads(data[20:20 + json_len])
    blob = memoryview(data)[20 + json_len + 8:]

    def accessor(i, dtype, width):
        a = gltf["accessors"][i]
        v = gltf["bufferViews"][a["bufferView"]]
        start = v.get("byteOffset", 0) + a.get("byteOffset", 0)
        arr = np.frombuffer(blob, dtype=dtype, count=a["count"] * width, offset=start)
        return arr.reshape(a["count"], width) if width > 1 else arr
    items = []
    for node in gltf["nodes"]:
        if "mesh" not in node:
            continue
        for prim in gltf["meshes"][node["mesh"]]["primitives"]:
            mat = gltf["materials"][prim["material"]]
            pos = accessor(prim["attributes"]["POSITION"], np.float32, 3).astype(np.float64)
            idx = accessor(prim["indices"], np.uint32, 1).astype(np.int64)
            layer = LAYER.get(mat["name"], 1)
            if node["name"].endswith("_rim"):
                layer = 1  # the rim under its disc
            items.append((layer, node["name"], prim.get("mode", 4), mat["pbrMetallicRoughness"]["baseColorFactor"], pos, idx))
    return items


def rotation(lon, lat):
    """Rotation that brings (lon, lat) to the viewer (+z towards the camera, y up)."""
    # the contract's frame: x = cos(lat)cos(-lon), y = sin(lat), z = cos(lat)sin(-lon)
    a = math.radians(lon)
    ry = np.array([[math.cos(a), 0, -math.sin(a)], [0, 1, 0], [math.sin(a), 0, math.cos(a)]])  # brings lon to +x
    to_z = np.array([[0, 0, -1], [0, 1, 0], [1, 0, 0]], dtype=float)  # +x → +z
    b = math.radians(lat)
    rx = np.array([[1, 0, 0], [0, math.cos(b), -math.sin(b)], [0, math.sin(b), math.cos(b)]])  # tilt lat down to the equator
    return rx @ to_z @ ry


SHIFT = 4  # OpenCV's sub-pixel bits: vertices at 1/16 px


def render(items, lon, lat, size, supersample):
    n = size * supersample
    scale = n / 2 / 1.1
    img = np.zeros((n, n, 3), np.uint8)
    rot = rotation(lon, lat)
    atmosphere = None
    for layer, name, mode, colour, pos, idx in sorted(items, key=lambda t: t[0]):
        if layer == LAYER["atmosphere"]:
            atmosphere = colour
            continue
        p = pos @ rot.T
        xy = np.round(np.stack([n / 2 + p[:, 0] * scale, n / 2 - p[:, 1] * scale], axis=1) * (1 << SHIFT)).astype(np.int32)
        bgr = linear_to_srgb8(colour)[::-1]
        if mode == LINES:
            seg = idx.reshape(-1, 2)
            front = (p[seg[:, 0], 2] > 0) & (p[seg[:, 1], 2] > 0)
            if front.any():
                cv2.polylines(img, list(xy[seg[front]]), False, bgr, 1, cv2.LINE_8, SHIFT)
            continue
        tri = idx.reshape(-1, 3)
        a, b, c = p[tri[:, 0]], p[tri[:, 1]], p[tri[:, 2]]
        normal_z = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
        front = normal_z > 0  # counter-clockwise on screen: facing the camera
        if front.any():
            cv2.fillPoly(img, list(xy[tri[front]]), bgr, cv2.LINE_8, SHIFT)
    if atmosphere is not None:  # translucent shell: a disc blended over the globe
        mask = np.zeros((n, n), np.uint8)
        r = 1.08 * scale
        cv2.circle(mask, (round(n / 2 * 16), round(n / 2 * 16)), round(r * 16), 255, -1, cv2.LINE_8, SHIFT)
        alpha = (mask.astype(np.float32) * atmosphere[3] / 255)[:, :, None]
        img = (img * (1 - alpha) + np.array(linear_to_srgb8(atmosphere)[::-1], np.float32) * alpha + 0.5).astype(np.uint8)
    return cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)


def main(args):
    items = read_scene(args.input)
    os.makedirs(args.out_dir, exist_ok=True)
    for name, lon, lat in VIEWS:
        img = render(items, lon, lat, args.size, args.supersample)
        tmp = os.path.join(args.out_dir, f".{name}.tmp.png")
        cv2.imwrite(tmp, img)
        os.replace(tmp, os.path.join(args.out_dir, f"{name}.png"))


def add_parser(sub):
    a = sub.add_parser("preview", help="three PNG views of a .glb")
    a.add_argument("input"); a.add_argument("--out-dir", required=True)
    a.add_argument("--size", type=int, default=720); a.add_argument("--supersample", type=int, default=2)
    a.set_defaults(run=main)
