import CPROJ
import GeoModel
import Geodesy

/// A PROJ operation made straight from a PROJ string (`+proj=pipeline …`), without the CRS
/// database look-up that `proj_create_crs_to_crs` does: creating one costs microseconds, so a
/// stage can afford one per country (a Lambert azimuthal equal-area centred on each).
/// Input and output are lon/lat degrees → projected metres (x east, y north).
public final class PROJPipeline {
    public let context: PROJContext
    let pj: OpaquePointer
    public let definition: String

    public init(context: PROJContext, definition: String) throws {
        self.context = context
        self.definition = definition
        guard let p = proj_create(context.handle, definition) else {
            throw context.fail("creating the operation \"\(definition)\"")
        }
        pj = p
    }

    deinit { proj_destroy(pj) }

    /// Lambert azimuthal equal-area on the WGS84 ellipsoid centred on `centre` (lon, lat degrees).
    public static func lambertAzimuthalEqualArea(context: PROJContext, centre: Point) throws -> PROJPipeline {
        let lon = DecimalText.fixed(centre.x, decimals: 6), lat = DecimalText.fixed(centre.y, decimals: 6)
        return try PROJPipeline(context: context, definition:
            "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=laea +lat_0=\(lat) +lon_0=\(lon) +ellps=WGS84")
    }

    /// Projects points in place; returns how many could not be projected (they become infinite).
    @discardableResult
    public func forward(_ points: inout [Point]) throws -> Int {
        guard !points.isEmpty else { return 0 }
        let n = points.count
        let stride = MemoryLayout<Point>.stride
        let done = points.withUnsafeMutableBytes { raw -> Int in
            let base = raw.baseAddress!.assumingMemoryBound(to: Double.self)
            return proj_trans_generic(pj, PJ_FWD, base, stride, n, base + 1, stride, n, nil, 0, 0, nil, 0, 0)
        }
        guard done == n else { throw context.fail("transforming \(n) points with \"\(definition)\"") }
        var failed = 0
        for p in points where !p.x.isFinite || !p.y.isFinite || abs(p.x) > 1e30 || abs(p.y) > 1e30 { failed += 1 }
        return failed
    }
}

public enum ProjectionInfo {
    /// The central meridian (degrees) of a projected CRS given as "EPSG:nnnn", "ESRI:nnnn" or a
    /// "+proj=…" string: the conversion's "Longitude of natural origin" (or of origin, false
    /// origin, projection centre). 0 when the conversion has no such parameter.
    public static func centralMeridian(of crs: String, context: PROJContext) throws -> Double {
        let def = (crs.hasPrefix("+proj") || crs.hasPrefix("proj=")) && !crs.contains("+type=crs") ? crs + " +type=crs" : crs
        guard var obj = proj_create(context.handle, def) else { throw context.fail("reading the projection \"\(crs)\"") }
        defer { proj_destroy(obj) }
        if proj_get_type(obj) == PJ_TYPE_BOUND_CRS, let base = proj_get_source_crs(context.handle, obj) {
            proj_destroy(obj); obj = base
        }
        guard proj_get_type(obj) == PJ_TYPE_PROJECTED_CRS else {
            throw PROJError(operation: "reading the projection \"\(crs)\"", message: "it is not a projected coordinate reference system")
        }
        guard let op = proj_crs_get_coordoperation(context.handle, obj) else { return 0 }
        defer { proj_destroy(op) }
        let codes: Set<String> = ["8802", "8812", "8822", "8833"]
        for i in 0..<proj_coordoperation_get_param_count(context.handle, op) {
            var name: UnsafePointer<CChar>? = nil, auth: UnsafePointer<CChar>? = nil, code: UnsafePointer<CChar>? = nil
            var value = 0.0, factor = 0.0
            var valueString: UnsafePointer<CChar>? = nil, unitName: UnsafePointer<CChar>? = nil
            var unitAuth: UnsafePointer<CChar>? = nil, unitCode: UnsafePointer<CChar>? = nil, unitCategory: UnsafePointer<CChar>? = nil
            guard proj_coordoperation_get_param(context.handle, op, i, &name, &auth, &code, &value, &valueString,
                                                &factor, &unitName, &unitAuth, &unitCode, &unitCategory) != 0 else { continue }
            let c = code.map { String(cString: $0) } ?? ""
            let n = name.map { String(cString: $0) } ?? ""
            if codes.contains(c) || (n.hasPrefix("Longitude of") && !n.contains("point")) {
                let radians = value * (factor > 0 ? factor : .pi / 180)
                return radians * 180 / .pi
            }
        }
        return 0
    }
}
