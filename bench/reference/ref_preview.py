"""preview: three PNG views of the globe .glb, rendered on the CPU.

What it does, as a Python developer would: reads the .glb with pygltflib (every node's
positions, indices, primitive mode and material colour); for each view (atlantic: centred
on 30°W 20°N, pacific: 180° 0°, south_pole) rotates the scene to the view (numpy), projects
it orthographically to a 720 px image supersampled 2× (1440 px), culls back faces, and paints
the triangles far to near, layer by layer (ocean, fills, rims, outlines, capitals) with
Pillow's ImageDraw (painter's algorithm; line primitives drawn as 1-px lines); the
atmosphere is blended over the result; downsampled with a Lanczos filter and saved as PNG.
What it does not do compared with geo-preview: no z-buffer (painter's order per layer),
no lighting, outlines are 1 px GL lines rather than our miter-widened strips, and the views
are rendered one after another (ours: one thread per view).
"""
import math
import os

import numpy as np
import pygltflib
from PIL import Image, ImageDraw

VIEWS = [("atlantic", -30.0, 20.0), ("pacific", 180.0, 0.0), ("south_pole", 0.0, -90.0)]
LAYER = {"ocean": 0, "land": 2, "border": 3, "capital": 4, "atmosphere": 5}


def linear_to_srgb8(c):
    return tuple(int(round(255 * (12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055))) for x in c[:3])


def read_scene(path):
    gltf = pygltflib.GLTF2().load(path)
    blob = gltf.binary_blob()

    def accessor(i, dtype, width):
        a = gltf.accessors[i]
        v = gltf.bufferViews[a.bufferView]
        start = (v.byteOffset or 0) + (a.byteOffset or 0)
        return np.frombuffer(blob, dtype=dtype, count=a.count * width, offset=start).reshape(a.count, width) if width > 1 \
            else np.frombuffer(blob, dtype=dtype, count=a.count, offset=start)
    items = []
    for node in gltf.nodes:
        if node.mesh is None:
            continue
        for prim in gltf.meshes[node.mesh].primitives:
            mat = gltf.materials[prim.material]
            pos = accessor(prim.attributes.POSITION, np.float32, 3).astype(np.float64)
            idx = accessor(prim.indices, np.uint32, 1).astype(np.int64)
            layer = LAYER.get(mat.name, 1)
            if node.name.endswith("_rim"):
                layer = 1  # the rim under its disc
            items.append((layer, node.name, prim.mode, mat.pbrMetallicRoughness.baseColorFactor, pos, idx))
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


def render(items, lon, lat, size, supersample):
    n = size * supersample
    scale = n / 2 / 1.1
    img = Image.new("RGB", (n, n), (0, 0, 0))
    draw = ImageDraw.Draw(img)
    rot = rotation(lon, lat)
    atmosphere = None
    for layer, name, mode, colour, pos, idx in sorted(items, key=lambda t: t[0]):
        p = pos @ rot.T
        if layer == LAYER["atmosphere"]:
            atmosphere = colour
            continue
        xy = np.stack([n / 2 + p[:, 0] * scale, n / 2 - p[:, 1] * scale], axis=1)
        rgb = linear_to_srgb8(colour)
        if mode == pygltflib.LINES:
            seg = idx.reshape(-1, 2)
            front = (p[seg[:, 0], 2] > 0) & (p[seg[:, 1], 2] > 0)
            for a, b in seg[front].tolist():
                draw.line([tuple(xy[a]), tuple(xy[b])], fill=rgb, width=1)
            continue
        tri = idx.reshape(-1, 3)
        a, b, c = p[tri[:, 0]], p[tri[:, 1]], p[tri[:, 2]]
        normal_z = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
        keep = np.nonzero(normal_z > 0)[0]  # counter-clockwise on screen: facing the camera
        if not len(keep):
            continue
        depth = (a[keep, 2] + b[keep, 2] + c[keep, 2])
        for t in tri[keep[np.argsort(depth)]].tolist():
            draw.polygon([tuple(xy[t[0]]), tuple(xy[t[1]]), tuple(xy[t[2]])], fill=rgb)
    if atmosphere is not None:  # translucent shell: a disc blended over the globe
        halo = Image.new("RGB", (n, n), linear_to_srgb8(atmosphere))
        mask = Image.new("L", (n, n), 0)
        r = 1.08 * scale
        ImageDraw.Draw(mask).ellipse([n / 2 - r, n / 2 - r, n / 2 + r, n / 2 + r], fill=int(255 * atmosphere[3]))
        img = Image.composite(halo, img, mask)
    return img.resize((size, size), Image.LANCZOS)


def main(args):
    items = read_scene(args.input)
    os.makedirs(args.out_dir, exist_ok=True)
    for name, lon, lat in VIEWS:
        img = render(items, lon, lat, args.size, args.supersample)
        tmp = os.path.join(args.out_dir, f".{name}.png.tmp")
        img.save(tmp, format="PNG", optimize=False)
        os.replace(tmp, os.path.join(args.out_dir, f"{name}.png"))


def add_parser(sub):
    a = sub.add_parser("preview", help="three PNG views of a .glb")
    a.add_argument("input"); a.add_argument("--out-dir", required=True)
    a.add_argument("--size", type=int, default=720); a.add_argument("--supersample", type=int, default=2)
    a.set_defaults(run=main)
