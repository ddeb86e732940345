import GeoModel

/// Planar point → unit vector on the sphere, by VertexTable id (no hashing of Points by SipHash).
struct PlanarUnits {
    private var ids: VertexTable
    private var units: [Vec3] = []
    init(capacity: Int) { ids = VertexTable(capacity: capacity); units.reserveCapacity(capacity) }
    var count: Int { units.count }
    /// Sets (or replaces) the unit vector of `q`.
    mutating func set(_ q: Point, _ u: Vec3) {
        let id = Int(ids.id(q))
        if id == units.count { units.append(u) } else { units[id] = u }
    }
    /// Sets the unit vector of `q` unless it has one.
    mutating func setIfAbsent(_ q: Point, _ u: () -> Vec3) {
        let id = Int(ids.id(q))
        if id == units.count { units.append(u()) }
    }
    /// The unit vector of `q`, which must have been set.
    subscript(_ q: Point) -> Vec3 { units[Int(ids.existing(q)!)] }
}
