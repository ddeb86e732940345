// The pipeline's own geometry model: plain Swift values in lon/lat degrees (WGS84),
// independent of GEOS so that stages can read, test and write geometry without C handles.

// The coordinate and vector types and the Earth's radius are Geodesy's, seen through GeoModel.
import Geodesy

/// A closed ring: the first point is repeated as the last (GeoJSON's convention).
public typealias Ring = [Point]

/// Outer ring first, then holes.
public struct Polygon: Hashable, Sendable {
    public var rings: [Ring]
    public init(rings: [Ring]) { self.rings = rings }
    public var exterior: Ring { rings[0] }
    public var holes: ArraySlice<Ring> { rings.dropFirst() }
    public var vertexCount: Int { rings.reduce(0) { $0 + $1.count } }
}

public enum Geometry: Hashable, Sendable {
    case point(Point)
    case polygon(Polygon)
    case multiPolygon([Polygon])

    /// Every polygon of a Polygon or MultiPolygon; empty for a Point.
    public var polygons: [Polygon] {
        switch self {
        case .point: return []
        case .polygon(let p): return [p]
        case .multiPolygon(let ps): return ps
        }
    }

    public var typeName: String {
        switch self {
        case .point: return "Point"
        case .polygon: return "Polygon"
        case .multiPolygon: return "MultiPolygon"
        }
    }

    /// Polygon for one part, MultiPolygon for several (what RFC 7946 readers expect).
    public static func areal(_ polygons: [Polygon]) -> Geometry {
        polygons.count == 1 ? .polygon(polygons[0]) : .multiPolygon(polygons)
    }

    public var vertexCount: Int {
        switch self {
        case .point: return 1
        case .polygon(let p): return p.vertexCount
        case .multiPolygon(let ps): return ps.reduce(0) { $0 + $1.vertexCount }
        }
    }

    public var boundingBox: BoundingBox? {
        var box = BoundingBox.empty
        switch self {
        case .point(let p): box.extend(p)
        case .polygon, .multiPolygon:
            for poly in polygons { for ring in poly.rings { for p in ring { box.extend(p) } } }
        }
        return box.isEmpty ? nil : box
    }
}

public struct BoundingBox: Hashable, Sendable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double
    public static let empty = BoundingBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
    public var isEmpty: Bool { minX > maxX }
    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public mutating func extend(_ p: Point) {
        if p.x < minX { minX = p.x }
        if p.x > maxX { maxX = p.x }
        if p.y < minY { minY = p.y }
        if p.y > maxY { maxY = p.y }
    }
    public mutating func extend(_ b: BoundingBox) {
        minX = min(minX, b.minX); minY = min(minY, b.minY)
        maxX = max(maxX, b.maxX); maxY = max(maxY, b.maxY)
    }
    public func intersects(_ o: BoundingBox) -> Bool {
        !(o.minX > maxX || o.maxX < minX || o.minY > maxY || o.maxY < minY)
    }
}

// MARK: - Planar ring measures (in the ring's own coordinate units)

public enum RingMath {
    /// Shoelace signed area: positive for counter-clockwise rings.
    public static func signedArea(_ ring: Ring) -> Double {
        guard ring.count >= 4 else { return 0 }
        var sum = 0.0
        ring.withUnsafeBufferPointer { r in
            let x0 = r[0].x, y0 = r[0].y
            for i in 1..<(r.count - 1) {
                sum += (r[i].x - x0) * (r[i + 1].y - y0) - (r[i + 1].x - x0) * (r[i].y - y0)
            }
        }
        return sum / 2
    }

    public static func isCounterClockwise(_ ring: Ring) -> Bool { signedArea(ring) > 0 }

    /// RFC 7946 winding: exterior counter-clockwise, holes clockwise.
    public static func orientedForRFC7946(_ polygon: Polygon) -> Polygon {
        var rings = polygon.rings
        for i in rings.indices {
            let ccw = isCounterClockwise(rings[i])
            if (i == 0) != ccw { rings[i].reverse() }
        }
        return Polygon(rings: rings)
    }

    /// Even-odd point in ring test (ray casting), in planar coordinates.
    public static func contains(_ ring: Ring, _ p: Point) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.y > p.y) != (b.y > p.y) {
                let x = (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x
                if p.x < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    public static func contains(_ polygon: Polygon, _ p: Point) -> Bool {
        guard contains(polygon.exterior, p) else { return false }
        return !polygon.holes.contains { contains($0, p) }
    }
}
