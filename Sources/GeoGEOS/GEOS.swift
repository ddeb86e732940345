import CGEOS
import GeoModel
import Geodesy

/// An error raised by GEOS, with GEOS's own message text.
public struct GEOSError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var message: String
    public var description: String { "GEOS \(operation) failed: \(message)" }
}

/// Receives GEOS's error messages for one context (GEOS calls back with a C function
/// pointer, so the message is parked here and read after the failed call).
private final class GEOSMessageSink {
    var last: String?
}

/// One GEOS context. GEOS's reentrant API is safe when each thread uses its own context:
/// create one per thread (or per worker) and never share it across threads.
public final class GEOSContext {
    let handle: GEOSContextHandle_t
    private let sink = GEOSMessageSink()

    public init() {
        guard let h = GEOS_init_r() else { fatalError("GEOS_init_r returned no context (out of memory)") }
        handle = h
        let userdata = Unmanaged.passUnretained(sink).toOpaque()
        _ = GEOSContext_setErrorMessageHandler_r(handle, { message, userdata in
            guard let userdata, let message else { return }
            Unmanaged<GEOSMessageSink>.fromOpaque(userdata).takeUnretainedValue().last = String(cString: message)
        }, userdata)
    }

    deinit { GEOS_finish_r(handle) }

    public static var version: String { String(cString: GEOSversion()) }

    func fail(_ operation: String) -> GEOSError {
        defer { sink.last = nil }
        return GEOSError(operation: operation, message: sink.last ?? "no message from GEOS")
    }

    func wrap(_ ptr: OpaquePointer?, _ operation: String) throws -> GEOSGeometry {
        guard let ptr else { throw fail(operation) }
        return GEOSGeometry(context: self, owning: ptr)
    }

    // MARK: model → GEOS

    func coordinateSequence(_ points: [Point]) throws -> OpaquePointer {
        let seq: OpaquePointer? = points.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return GEOSCoordSeq_create_r(handle, 0, 2) }
            return GEOSCoordSeq_copyFromBuffer_r(handle, base.assumingMemoryBound(to: Double.self), UInt32(points.count), 0, 0)
        }
        guard let seq else { throw fail("coordinate sequence") }
        return seq
    }

    func linearRing(_ ring: Ring) throws -> OpaquePointer {
        let seq = try coordinateSequence(ring)
        guard let r = GEOSGeom_createLinearRing_r(handle, seq) else { throw fail("linear ring") }
        return r
    }

    /// A GEOS polygon from the model. Rings must be closed with at least 4 points.
    public func polygon(_ polygon: Polygon) throws -> GEOSGeometry {
        let shell = try linearRing(polygon.exterior)
        var holes: [OpaquePointer?] = []
        do {
            for h in polygon.holes { holes.append(try linearRing(h)) }
        } catch {
            GEOSGeom_destroy_r(handle, shell)
            for h in holes { GEOSGeom_destroy_r(handle, h) }
            throw error
        }
        let ptr = holes.withUnsafeMutableBufferPointer { hb in
            GEOSGeom_createPolygon_r(handle, shell, hb.baseAddress, UInt32(hb.count))
        }
        return try wrap(ptr, "polygon")
    }

    public func point(_ p: Point) throws -> GEOSGeometry {
        try wrap(GEOSGeom_createPointFromXY_r(handle, p.x, p.y), "point")
    }

    /// A collection of the given type holding copies of the members (GEOS owns what goes
    /// into a collection; copying keeps the callers' geometries valid and freed exactly once).
    public func collection(_ type: GEOSGeomTypes, _ members: [GEOSGeometry]) throws -> GEOSGeometry {
        var ptrs: [OpaquePointer?] = try members.map { m in
            precondition(m.context === self, "a geometry from another GEOS context")
            return try m.clone().release()
        }
        let ptr = ptrs.withUnsafeMutableBufferPointer { GEOSGeom_createCollection_r(handle, Int32(type.rawValue), $0.baseAddress, UInt32($0.count)) }
        return try wrap(ptr, "collection")
    }

    public func multiPolygon(_ polygons: [Polygon]) throws -> GEOSGeometry {
        try collection(GEOS_MULTIPOLYGON, polygons.map { try polygon($0) })
    }

    /// Point, Polygon or MultiPolygon from the model.
    public func geometry(_ g: Geometry) throws -> GEOSGeometry {
        switch g {
        case .point(let p): return try point(p)
        case .polygon(let p): return try polygon(p)
        case .multiPolygon(let ps): return try multiPolygon(ps)
        }
    }

    public func geometryCollection(_ members: [GEOSGeometry]) throws -> GEOSGeometry {
        try collection(GEOS_GEOMETRYCOLLECTION, members)
    }

    // MARK: operations over several geometries

    /// Union of polygons that form a coverage (no overlaps; shared edges match exactly).
    /// Much faster than a general union and removes the shared edges.
    public func coverageUnion(_ polygons: [GEOSGeometry]) throws -> GEOSGeometry {
        let coll = try geometryCollection(polygons)
        return try wrap(GEOSCoverageUnion_r(handle, coll.pointer), "coverage union")
    }

    public func unaryUnion(_ geometries: [GEOSGeometry]) throws -> GEOSGeometry {
        let coll = try geometryCollection(geometries)
        return try wrap(GEOSUnaryUnion_r(handle, coll.pointer), "union")
    }
}

/// An owned GEOS geometry; freed when the Swift value goes away.
public final class GEOSGeometry {
    public let context: GEOSContext
    private(set) var pointer: OpaquePointer
    private var owned = true

    init(context: GEOSContext, owning pointer: OpaquePointer) {
        self.context = context
        self.pointer = pointer
    }

    deinit { if owned { GEOSGeom_destroy_r(context.handle, pointer) } }

    /// Hands the pointer to GEOS (for example into a collection); this value no longer frees it.
    func release() -> OpaquePointer { owned = false; return pointer }

    var h: GEOSContextHandle_t { context.handle }

    public var typeName: String {
        guard let c = GEOSGeomType_r(h, pointer) else { return "unknown" }
        defer { GEOSFree_r(h, c) }
        return String(cString: c)
    }

    public var isEmpty: Bool { GEOSisEmpty_r(h, pointer) == 1 }

    public func isValid() throws -> Bool {
        let r = GEOSisValid_r(h, pointer)
        if r == 2 { throw context.fail("validity check") }
        return r == 1
    }

    /// GEOS's reason for invalidity, e.g. "Ring Self-intersection[35.62 23.14]"; "Valid Geometry" when valid.
    public func validityReason() -> String {
        guard let c = GEOSisValidReason_r(h, pointer) else { return "unknown" }
        defer { GEOSFree_r(h, c) }
        return String(cString: c)
    }

    /// GEOS make-valid with the structure method, which keeps polygons polygonal
    /// (collapsed parts are dropped).
    public func makeValid() throws -> GEOSGeometry {
        guard let params = GEOSMakeValidParams_create_r(h) else { throw context.fail("make-valid parameters") }
        defer { GEOSMakeValidParams_destroy_r(h, params) }
        _ = GEOSMakeValidParams_setMethod_r(h, params, GEOS_MAKE_VALID_STRUCTURE)
        _ = GEOSMakeValidParams_setKeepCollapsed_r(h, params, 0)
        return try context.wrap(GEOSMakeValidWithParams_r(h, pointer, params), "make-valid")
    }

    /// A zero-width buffer (GEOS's `buffer(0)`, the first half of the structure method's
    /// repair of a ring: the regions the ring winds around in its own sense).
    public func zeroBuffer() throws -> GEOSGeometry {
        try context.wrap(GEOSBuffer_r(h, pointer, 0, 8), "buffer(0)")
    }

    public func area() throws -> Double {
        var a = 0.0
        if GEOSArea_r(h, pointer, &a) == 0 { throw context.fail("area") }
        return a
    }

    public func intersection(_ other: GEOSGeometry) throws -> GEOSGeometry {
        try context.wrap(GEOSIntersection_r(h, pointer, other.pointer), "intersection")
    }

    /// The part of this geometry inside the axis-aligned rectangle (GEOS's fast rectangle
    /// clip: input vertices on or inside the rectangle are kept bit for bit).
    public func clipped(minX: Double, minY: Double, maxX: Double, maxY: Double) throws -> GEOSGeometry {
        try context.wrap(GEOSClipByRect_r(h, pointer, minX, minY, maxX, maxY), "clip by rectangle")
    }

    public func difference(_ other: GEOSGeometry) throws -> GEOSGeometry {
        try context.wrap(GEOSDifference_r(h, pointer, other.pointer), "difference")
    }

    public func intersects(_ other: GEOSGeometry) throws -> Bool {
        let r = GEOSIntersects_r(h, pointer, other.pointer)
        if r == 2 { throw context.fail("intersects") }
        return r == 1
    }

    public func contains(_ other: GEOSGeometry) throws -> Bool {
        let r = GEOSContains_r(h, pointer, other.pointer)
        if r == 2 { throw context.fail("contains") }
        return r == 1
    }

    public func distance(_ other: GEOSGeometry) throws -> Double {
        var d = 0.0
        if GEOSDistance_r(h, pointer, other.pointer, &d) == 0 { throw context.fail("distance") }
        return d
    }

    public func pointOnSurface() throws -> Point {
        let p = try context.wrap(GEOSPointOnSurface_r(h, pointer), "point on surface")
        return try p.firstPoint()
    }

    func firstPoint() throws -> Point {
        var x = 0.0, y = 0.0
        if GEOSGeomGetX_r(h, pointer, &x) == 0 || GEOSGeomGetY_r(h, pointer, &y) == 0 { throw context.fail("point coordinates") }
        return Point(x, y)
    }

    public func clone() throws -> GEOSGeometry { try context.wrap(GEOSGeom_clone_r(h, pointer), "clone") }

    /// GEOS's constrained Delaunay triangulation of a polygonal geometry (a collection of triangles).
    public func constrainedDelaunayTriangulation() throws -> GEOSGeometry {
        try context.wrap(GEOSConstrainedDelaunayTriangulation_r(h, pointer), "constrained Delaunay triangulation")
    }

    // MARK: GEOS → model

    func coordinates(of ring: OpaquePointer) throws -> [Point] {
        guard let seq = GEOSGeom_getCoordSeq_r(h, ring) else { throw context.fail("coordinates") }
        var n: UInt32 = 0
        _ = GEOSCoordSeq_getSize_r(h, seq, &n)
        var points = [Point](repeating: Point(0, 0), count: Int(n))
        if n > 0 {
            let ok = points.withUnsafeMutableBytes { raw in
                GEOSCoordSeq_copyToBuffer_r(h, seq, raw.baseAddress!.assumingMemoryBound(to: Double.self), 0, 0)
            }
            if ok == 0 { throw context.fail("copy coordinates") }
        }
        return points
    }

    func polygonModel(_ p: OpaquePointer) throws -> Polygon {
        guard let shell = GEOSGetExteriorRing_r(h, p) else { throw context.fail("exterior ring") }
        var rings = [try coordinates(of: shell)]
        let nHoles = GEOSGetNumInteriorRings_r(h, p)
        if nHoles > 0 {
            for i in 0..<nHoles {
                guard let hole = GEOSGetInteriorRingN_r(h, p, i) else { throw context.fail("interior ring") }
                rings.append(try coordinates(of: hole))
            }
        }
        return Polygon(rings: rings)
    }

    /// Every non-empty polygon in this geometry, descending into collections
    /// (make-valid can return a GeometryCollection; lines and points in it are dropped).
    public func polygons() throws -> [Polygon] {
        var out: [Polygon] = []
        func visit(_ g: OpaquePointer) throws {
            let type = GEOSGeomTypes(rawValue: UInt32(max(0, GEOSGeomTypeId_r(h, g))))
            switch type {
            case GEOS_POLYGON:
                if GEOSisEmpty_r(h, g) == 0 { out.append(try polygonModel(g)) }
            case GEOS_MULTIPOLYGON, GEOS_GEOMETRYCOLLECTION:
                let n = GEOSGetNumGeometries_r(h, g)
                for i in 0..<max(n, 0) { if let sub = GEOSGetGeometryN_r(h, g, i) { try visit(sub) } }
            default: break
            }
        }
        try visit(pointer)
        return out
    }

}
