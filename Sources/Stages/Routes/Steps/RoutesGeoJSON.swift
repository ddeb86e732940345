import Foundation
import GeoLookup
import GeoModel
import Geodesy

extension RoutesStage {
    /// One LineString per route (along great circles, a point at least every `stepDegrees`),
    /// then one Point per location; coordinates to 6 decimals.
    static func routesGeoJSON(_ routes: [Route], stepDegrees: Double) -> ([UInt8], Int) {
        var w = JSONWriter(coordinateDecimals: 6)
        var points = 0
        w.raw("{\"type\":\"FeatureCollection\",\n\"features\":[\n")
        var first = true
        func sep() { if !first { w.raw(",\n") }; first = false }
        for r in routes {
            var line: [Point] = [Point(r.locations[0].longitude, r.locations[0].latitude)]
            for i in 1..<r.locations.count {
                let a = Coordinate(latitude: r.locations[i - 1].latitude, longitude: r.locations[i - 1].longitude)
                let b = Coordinate(latitude: r.locations[i].latitude, longitude: r.locations[i].longitude)
                let arc = Sphere.distanceKm(a, b) / Sphere.earthRadiusKm * 180 / .pi
                let n = max(1, Int((arc / stepDegrees).rounded(.up)))
                for k in 1...n {
                    let p = Sphere.position(from: a, to: b, fraction: Double(k) / Double(n))
                    line.append(Point(p.longitude, p.latitude))
                }
            }
            points += line.count
            sep()
            var props = JSONObject()
            props["route"] = .string(r.id)
            props["name"] = .string(r.name)
            props["country"] = .string(r.country)
            props["length_km"] = .number(rounded(r.locations.last!.distanceKm))
            props["locations"] = .array(r.locations.map { .string($0.name) })
            props["location_km"] = .array(r.locations.map { .number(rounded($0.distanceKm)) })
            w.raw("{\"type\":\"Feature\",\"id\":"); w.string(r.id)
            w.raw(",\"properties\":"); w.value(.object(props))
            w.raw(",\"geometry\":{\"type\":\"LineString\",\"coordinates\":"); w.ring(line); w.raw("}}")
        }
        for r in routes {
            var minutes = 0
            for l in r.locations {
                minutes += l.minutes
                sep()
                var props = JSONObject()
                props["route"] = .string(r.id)
                props["order"] = .number(Double(l.order))
                props["name"] = .string(l.name)
                props["minutes"] = .number(Double(l.minutes))
                props["cumulative_minutes"] = .number(Double(minutes))
                props["distance_km"] = .number(rounded(l.distanceKm))
                props["tags"] = .array(l.tags.map { .string($0) })
                props["description"] = .string(l.description)
                w.raw("{\"type\":\"Feature\",\"id\":"); w.string("\(r.id)-\(l.order)")
                w.raw(",\"properties\":"); w.value(.object(props))
                w.raw(",\"geometry\":"); w.geometry(.point(Point(l.longitude, l.latitude))); w.raw("}")
            }
        }
        w.raw("\n]}\n")
        return (w.bytes, points)
    }

    /// Metres are enough: km to 3 decimals.
    static func rounded(_ km: Double) -> Double { (km * 1000).rounded() / 1000 }
}
