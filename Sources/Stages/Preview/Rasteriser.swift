import Foundation
import GeoModel
import GeoFormats

/// The preview's software rasteriser.
///
/// Every mesh of the default scene is drawn with its world transform and its material's
/// colour (unlit: the sRGB of baseColorFactor), orthographic projection towards the view
/// centre, back faces culled unless the material is double-sided, a depth buffer, blended
/// materials (the atmosphere) composited in linear light after the opaque ones. Outline
/// ribbons (primitives with _MITER) are widened the way the contract tells a renderer to:
/// position + miter × miterScale × half width, at a constant width in pixels. Rasterisation
/// is in fixed point with a consistent tie rule, so shared edges leave neither cracks nor
/// double cover; `supersample`² samples a pixel, averaged in linear light.
///
/// The output is a pure function of the .glb and the options: each view is rendered by one
/// thread, so thread count and scheduling do not change a byte.
extension PreviewStage {
    // MARK: colour

    /// sRGB byte → linear.
    static let toLinear: [Float] = (0..<256).map { Float(GLTFBuilder.srgbToLinear(Double($0) / 255)) }
    /// Linear in 1/65535 steps → sRGB byte.
    static let toSRGB: [UInt8] = (0...65535).map { i in
        UInt8((GLBDocument.linearToSRGB(Double(i) / 65535) * 255).rounded())
    }
    @inline(__always) static func encode(_ lin: Float) -> UInt8 {
        // (lin × 65535).rounded(), clamped to 0…65535, without libm's roundf: below 2^23 a
        // Float's fraction is exact, so truncating and comparing it with ½ rounds half away
        // from zero as `rounded()` does.
        let x = lin * 65535
        guard x > 0 else { return toSRGB[0] }
        guard x < 65535 else { return toSRGB[65535] }
        let t = Int(x)
        return toSRGB[x - Float(t) >= 0.5 ? t + 1 : t]
    }

    // MARK: rendering

    /// Renders one view.
    public static func render(_ scene: Scene, view: View, options o: Options) -> RGBImage {
        let ss = max(1, o.supersample)
        let w = o.size * ss
        let scale = Double(w) * o.fill / 2 / scene.radius      // samples per world unit
        let c = Double(w) / 2
        let f = GlobeShapes.frame(view.center)
        let bg = UInt32(o.background.0) << 16 | UInt32(o.background.1) << 8 | UInt32(o.background.2)
        var color = [UInt32](repeating: bg, count: w * w)
        var depth = [Float](repeating: -.infinity, count: w * w)
        let sub = 256.0       // fixed point: 8 fractional bits
        let (ex, ey, ez) = (Float(f.east.x), Float(f.east.y), Float(f.east.z))
        let (nx, ny, nz) = (Float(f.north.x), Float(f.north.y), Float(f.north.z))
        let (ux, uy, uz) = (Float(f.up.x), Float(f.up.y), Float(f.up.z))
        let fs = Float(scale), fc = Float(c)

        color.withUnsafeMutableBufferPointer { colorBuf in
        depth.withUnsafeMutableBufferPointer { depthBuf in
            let cb = colorBuf.baseAddress!, db = depthBuf.baseAddress!
            var xs: [Int] = [], ys: [Int] = [], zs: [Float] = []
            for b in scene.batches {
                let n = b.positions.count / 3
                xs = [Int](repeating: 0, count: n); ys = xs; zs = [Float](repeating: 0, count: n)
                b.positions.withUnsafeBufferPointer { p in
                    for v in 0..<n {
                        let x = p[3 * v], y = p[3 * v + 1], z = p[3 * v + 2]
                        let sx = fc + fs * (x * ex + y * ey + z * ez)
                        let sy = fc - fs * (x * nx + y * ny + z * nz)
                        xs[v] = Int((Double(sx) * sub).rounded())
                        ys[v] = Int((Double(sy) * sub).rounded())
                        zs[v] = x * ux + y * uy + z * uz
                    }
                }
                let src = b.color
                let srcPacked = UInt32(src.0) << 16 | UInt32(src.1) << 8 | UInt32(src.2)
                let alpha = b.alpha
                let srcLin = (toLinear[Int(src.0)] * alpha, toLinear[Int(src.1)] * alpha, toLinear[Int(src.2)] * alpha)
                // A blended batch (the atmosphere) covers large runs of one colour: the last
                // sample's blend is reused while the colour under it is the same (no colour
                // has the top byte set, so the first sample always computes).
                var blendedFrom: UInt32 = .max, blendedTo: UInt32 = 0
                xs.withUnsafeBufferPointer { xp in
                ys.withUnsafeBufferPointer { yp in
                zs.withUnsafeBufferPointer { zp in
                b.triangles.withUnsafeBufferPointer { tp in
                    var t = 0
                    while t < tp.count {
                        let i0 = Int(tp[t]), i1 = Int(tp[t + 1]), i2 = Int(tp[t + 2])
                        t += 3
                        let ax = xp[i0], ay = yp[i0]
                        var bx = xp[i1], by = yp[i1], cx = xp[i2], cy = yp[i2]
                        var zb = zp[i1], zc = zp[i2]
                        let za = zp[i0]
                        // Facing: clockwise on screen (y down) is counter-clockwise seen from outside.
                        let cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
                        if cross == 0 { continue }
                        if cross > 0 {
                            if b.cull { continue }
                            swap(&bx, &cx); swap(&by, &cy); swap(&zb, &zc)
                        }
                        let half = 128
                        let minX = max(0, (min(ax, bx, cx) - half + 255) >> 8)
                        let maxX = min(w - 1, (max(ax, bx, cx) - half) >> 8)
                        let minY = max(0, (min(ay, by, cy) - half + 255) >> 8)
                        let maxY = min(w - 1, (max(ay, by, cy) - half) >> 8)
                        if minX > maxX || minY > maxY { continue }
                        // Edge functions, positive inside; ties go to edges pointing down (or right
                        // when horizontal), so a shared edge is drawn by exactly one of its triangles.
                        @inline(__always) func bias(_ dx: Int, _ dy: Int) -> Int { (dy > 0 || (dy == 0 && dx > 0)) ? 0 : -1 }
                        let d0x = bx - ax, d0y = by - ay     // edge a→b
                        let d1x = cx - bx, d1y = cy - by     // edge b→c
                        let d2x = ax - cx, d2y = ay - cy     // edge c→a
                        let px0 = minX * 256 + half, py0 = minY * 256 + half
                        var r0 = (px0 - ax) * d0y - (py0 - ay) * d0x + bias(d0x, d0y)
                        var r1 = (px0 - bx) * d1y - (py0 - by) * d1x + bias(d1x, d1y)
                        var r2 = (px0 - cx) * d2y - (py0 - cy) * d2x + bias(d2x, d2y)
                        let s0x = 256 * d0y, s1x = 256 * d1y, s2x = 256 * d2y
                        let s0y = -256 * d0x, s1y = -256 * d1x, s2y = -256 * d2x
                        // Depth plane over sample coordinates.
                        let fax = Float(ax) / 256, fay = Float(ay) / 256
                        let e1x = Float(bx) / 256 - fax, e1y = Float(by) / 256 - fay
                        let e2x = Float(cx) / 256 - fax, e2y = Float(cy) / 256 - fay
                        let det = e1x * e2y - e2x * e1y
                        if det == 0 { continue }
                        let dzdx = ((zb - za) * e2y - (zc - za) * e1y) / det
                        let dzdy = (e1x * (zc - za) - e2x * (zb - za)) / det
                        var zrow = za + dzdx * (Float(px0) / 256 - fax) + dzdy * (Float(py0) / 256 - fay)
                        for y in minY...maxY {
                            var e0 = r0, e1 = r1, e2 = r2
                            var z = zrow
                            let rowBase = y * w
                            for x in minX...maxX {
                                if (e0 | e1 | e2) >= 0 {
                                    let k = rowBase + x
                                    if z > db[k] {
                                        if b.blend {
                                            let d = cb[k]
                                            if d != blendedFrom {
                                                let keep = 1 - alpha
                                                let r = encode(toLinear[Int(d >> 16)] * keep + srcLin.0)
                                                let g = encode(toLinear[Int((d >> 8) & 0xFF)] * keep + srcLin.1)
                                                let bb = encode(toLinear[Int(d & 0xFF)] * keep + srcLin.2)
                                                blendedFrom = d
                                                blendedTo = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(bb)
                                            }
                                            cb[k] = blendedTo
                                        } else {
                                            cb[k] = srcPacked
                                            db[k] = z
                                        }
                                    }
                                }
                                e0 += s0x; e1 += s1x; e2 += s2x
                                z += dzdx
                            }
                            r0 += s0y; r1 += s1y; r2 += s2y
                            zrow += dzdy
                        }
                    }
                }
                }
                }
                }
            }
        }
        }
        // Down-sample: the mean of each pixel's samples in linear light.
        var pixels = [UInt8](repeating: 0, count: o.size * o.size * 3)
        let inv = 1 / Float(ss * ss)
        color.withUnsafeBufferPointer { cb in
            pixels.withUnsafeMutableBufferPointer { out in
                for py in 0..<o.size {
                    for px in 0..<o.size {
                        let first = cb[(py * ss) * w + px * ss]
                        var same = true
                        var r: Float = 0, g: Float = 0, bl: Float = 0
                        for sy in 0..<ss {
                            for sx in 0..<ss {
                                let s = cb[(py * ss + sy) * w + px * ss + sx]
                                if s != first { same = false }
                                r += toLinear[Int(s >> 16)]; g += toLinear[Int((s >> 8) & 0xFF)]; bl += toLinear[Int(s & 0xFF)]
                            }
                        }
                        let o3 = 3 * (py * o.size + px)
                        if same {
                            out[o3] = UInt8(first >> 16); out[o3 + 1] = UInt8((first >> 8) & 0xFF); out[o3 + 2] = UInt8(first & 0xFF)
                        } else {
                            out[o3] = encode(r * inv); out[o3 + 1] = encode(g * inv); out[o3 + 2] = encode(bl * inv)
                        }
                    }
                }
            }
        }
        return RGBImage(width: o.size, height: o.size, pixels: pixels)
    }
}
