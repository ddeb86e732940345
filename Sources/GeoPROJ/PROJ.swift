import CPROJ
import GeoModel
import Geodesy

/// An error raised by PROJ, with PROJ's own message text.
public struct PROJError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var message: String
    public var description: String { "PROJ \(operation) failed: \(message)" }
}

private final class PROJMessageSink {
    var last: String?
}

/// One PROJ context. Like GEOS contexts, one per thread.
public final class PROJContext {
    let handle: OpaquePointer
    private let sink = PROJMessageSink()

    public init() {
        handle = proj_context_create()
        let userdata = Unmanaged.passUnretained(sink).toOpaque()
        proj_log_func(handle, userdata) { userdata, level, message in
            guard let userdata, let message else { return }
            // Keep the most recent error text; PROJ logs errors at level 1.
            if level <= 1 { Unmanaged<PROJMessageSink>.fromOpaque(userdata).takeUnretainedValue().last = String(cString: message) }
        }
    }

    deinit { proj_context_destroy(handle) }

    func fail(_ operation: String) -> PROJError {
        defer { sink.last = nil }
        let errno = proj_context_errno(handle)
        var message = sink.last ?? ""
        if errno != 0, let s = proj_context_errno_string(handle, errno) {
            let text = String(cString: s)
            message = message.isEmpty ? text : "\(message) (\(text))"
        }
        return PROJError(operation: operation, message: message.isEmpty ? "no message from PROJ" : message)
    }

    public static var version: String {
        let info = proj_info()
        return String(cString: info.version)
    }
}

/// A coordinate operation from one CRS to another, normalised so that geographic
/// coordinates are always longitude, latitude (x, y) as in GeoJSON.
public final class Transformation {
    public let context: PROJContext
    let pj: OpaquePointer
    public let source: String
    public let target: String

    /// `source` and `target` are anything PROJ understands: "EPSG:4326", "EPSG:8857",
    /// "+proj=laea +lat_0=52 +lon_0=10 +ellps=WGS84".
    public init(context: PROJContext, from source: String, to target: String) throws {
        self.context = context
        self.source = source
        self.target = target
        let raw: OpaquePointer?
        if target.hasPrefix("+proj") || target.hasPrefix("proj=") {
            // A bare projection string: treat it as a conversion from geographic lon/lat.
            raw = proj_create_crs_to_crs(context.handle, source, target + (target.contains("+type=crs") ? "" : " +type=crs"), nil)
        } else {
            raw = proj_create_crs_to_crs(context.handle, source, target, nil)
        }
        guard let raw else { throw context.fail("creating the operation \(source) → \(target)") }
        defer { proj_destroy(raw) }
        guard let norm = proj_normalize_for_visualization(context.handle, raw) else {
            throw context.fail("normalising the operation \(source) → \(target)")
        }
        pj = norm
    }

    deinit { proj_destroy(pj) }

    /// Transforms points in place. Points PROJ cannot transform become infinite;
    /// the count of such points is returned.
    @discardableResult
    public func transform(_ points: inout [Point], inverse: Bool = false) throws -> Int {
        guard !points.isEmpty else { return 0 }
        let n = points.count
        let stride = MemoryLayout<Point>.stride
        let done = points.withUnsafeMutableBytes { raw -> Int in
            let base = raw.baseAddress!.assumingMemoryBound(to: Double.self)
            return proj_trans_generic(pj, inverse ? PJ_INV : PJ_FWD,
                                      base, stride, n,
                                      base + 1, stride, n,
                                      nil, 0, 0, nil, 0, 0)
        }
        guard done == n else { throw context.fail("transforming \(n) points") }
        var failed = 0
        for p in points where !p.x.isFinite || !p.y.isFinite { failed += 1 }
        return failed
    }

    public func transform(_ p: Point, inverse: Bool = false) throws -> Point {
        var pts = [p]
        try transform(&pts, inverse: inverse)
        return pts[0]
    }
}
