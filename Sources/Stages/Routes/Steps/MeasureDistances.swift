import Foundation
import GeoModel
import Geodesy
import GeoPROJ

extension RoutesStage {
    /// Each location's cumulative geodesic distance from its route's start (WGS84, Karney through PROJ).
    static func measureDistances(_ routes: inout [Route]) {
        let geod = Geodesic.wgs84
        for ri in routes.indices {
            var total = 0.0
            for li in routes[ri].locations.indices where li > 0 {
                let a = routes[ri].locations[li - 1], b = routes[ri].locations[li]
                total += geod.distance(Point(a.longitude, a.latitude), Point(b.longitude, b.latitude)) / 1000
                routes[ri].locations[li].distanceKm = total
            }
        }
    }
}
