// A cell drawn on a map from its id: what the game's app needs to draw the map's cells from
// their ids alone (territory_cells_in_viewport answers ids and counts, no geometry).

extension H3 {
    /// The boundary of the cell `id` (hexadecimal, as h3 and the game's `hex_id` write it) as a
    /// map draws a polygon: (longitude, latitude) in degrees, h3's vertices in h3's order
    /// (counter-clockwise), closed (the first vertex repeated last), longitudes continuous: each
    /// within 180° of the one before, so a cell across ±180° has longitudes past it (as the
    /// game's database stores `cell`). A cell around a pole (its boundary turns once around it)
    /// is closed over the pole: after its last vertex, the first one a turn on, then the pole at
    /// both longitudes. nil when `id` is not a valid cell.
    public static func mapRing(_ id: String) -> [(lng: Double, lat: Double)]? {
        guard let h = H3Index(string: id), isValidCell(h), let vertices = try? cellToBoundary(h) else { return nil }
        var ring: [(lng: Double, lat: Double)] = []
        ring.reserveCapacity(vertices.count + 4)
        for v in vertices {
            ring.append((lng: near(v.lngDegrees, ring.last?.lng ?? v.lngDegrees), lat: v.latDegrees))
        }
        let again = near(ring[0].lng, ring[ring.count - 1].lng)
        if abs(again - ring[0].lng) > 180 {
            let pole: Double = vertices.reduce(0) { $0 + $1.lat } > 0 ? 90 : -90
            ring.append((lng: again, lat: ring[0].lat))
            ring.append((lng: again, lat: pole))
            ring.append((lng: ring[0].lng, lat: pole))
        }
        ring.append(ring[0])
        return ring
    }

    /// `lng` moved by whole turns to within 180° of `to`.
    static func near(_ lng: Double, _ to: Double) -> Double {
        var x = lng
        while x - to > 180 { x -= 360 }
        while x - to < -180 { x += 360 }
        return x
    }
}
