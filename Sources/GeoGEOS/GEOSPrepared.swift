import CGEOS
import GeoModel
import Geodesy

/// A GEOS prepared geometry: an indexed form of a polygon for fast repeated point-in-polygon
/// tests. It keeps its base geometry alive and frees itself on deinit.
public final class GEOSPreparedGeometry {
    public let base: GEOSGeometry
    private let prepared: OpaquePointer

    public init(_ base: GEOSGeometry) throws {
        guard let p = GEOSPrepare_r(base.context.handle, base.pointer) else { throw base.context.fail("prepare") }
        self.base = base
        self.prepared = p
    }

    deinit { GEOSPreparedGeom_destroy_r(base.context.handle, prepared) }

    public func contains(_ other: GEOSGeometry) throws -> Bool {
        let r = GEOSPreparedContains_r(base.context.handle, prepared, other.pointer)
        if r == 2 { throw base.context.fail("prepared contains") }
        return r == 1
    }
}

extension GEOSGeometry {
    /// The points of this geometry and of `other` that are nearest each other (planar).
    public func nearestPoints(_ other: GEOSGeometry) throws -> (Point, Point) {
        guard let seq = GEOSNearestPoints_r(h, pointer, other.pointer) else { throw context.fail("nearest points") }
        defer { GEOSCoordSeq_destroy_r(h, seq) }
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        guard GEOSCoordSeq_getXY_r(h, seq, 0, &x0, &y0) != 0, GEOSCoordSeq_getXY_r(h, seq, 1, &x1, &y1) != 0 else {
            throw context.fail("nearest points")
        }
        return (Point(x0, y0), Point(x1, y1))
    }
}
