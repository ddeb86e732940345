// data/routes.tsv and data/rewards.tsv, read with line numbers so that every problem names
// the file, the line, the route and the location.

import Foundation
import GeoModel

public struct RouteLocation: Sendable, Equatable {
    public var line: Int
    public var route: String, routeName: String, country: String
    public var order: Int
    public var name: String
    public var latitude: Double, longitude: Double
    public var minutes: Int
    public var tags: [String]
    public var description: String, source: String
    /// Cumulative geodesic distance from the route's start, km (set by the stage).
    public var distanceKm = 0.0
    public var label: String { "\(route) #\(order) \(name)" }
}

public struct Route: Sendable {
    public var id: String, name: String, country: String
    public var locations: [RouteLocation]
}

public struct Reward: Sendable, Equatable {
    public var hours: Int, id: String, title: String, description: String
}

enum Tables {
    static let routeColumns = ["route", "route_name", "country", "order", "location", "lat", "lon", "minutes", "tags", "description", "source"]
    static let rewardColumns = ["hours", "id", "title", "description"]

    /// Rows of a TSV with a header (`#` and blank lines are comments): (line number, cells by column).
    static func read(_ path: String, columns: [String]) throws -> [(Int, [String: String])] {
        let table = try TSVTable.read(path, required: columns, trim: true)
        return table.rows.map { row in (row.line, Dictionary(uniqueKeysWithValues: columns.map { ($0, table[row, $0]) })) }
    }

    static func routes(_ path: String) throws -> [Route] {
        var routes: [Route] = []
        for (line, r) in try read(path, columns: routeColumns) {
            let where_ = "line \(line) (\(r["route"]!) #\(r["order"]!) \(r["location"]!))"
            func fail(_ why: String) -> InputError { InputError(file: path, "\(where_): \(why)") }
            for c in routeColumns where c != "tags" && r[c]!.isEmpty { throw fail("the \(c) is empty") }
            guard let lat = Double(r["lat"]!), lat.isFinite else { throw fail("latitude \"\(r["lat"]!)\" is not a number") }
            guard let lon = Double(r["lon"]!), lon.isFinite else { throw fail("longitude \"\(r["lon"]!)\" is not a number") }
            guard abs(lat) <= 90 else { throw fail("latitude \(r["lat"]!) is outside -90…90") }
            guard abs(lon) <= 180 else { throw fail("longitude \(r["lon"]!) is outside -180…180") }
            guard let order = Int(r["order"]!), order >= 1 else { throw fail("order \"\(r["order"]!)\" is not a whole number ≥ 1") }
            guard let minutes = Int(r["minutes"]!), minutes >= 0 else { throw fail("minutes \"\(r["minutes"]!)\" is not a whole number ≥ 0") }
            guard CountryID.isValid(r["country"]!) else { throw fail("country \"\(r["country"]!)\" is not two upper-case letters") }
            let tags = r["tags"]!.isEmpty ? [] : r["tags"]!.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if tags.contains(where: \.isEmpty) { throw fail("tags \"\(r["tags"]!)\" has an empty tag") }
            if Set(tags).count != tags.count { throw fail("tags \"\(r["tags"]!)\" repeat a tag") }
            let loc = RouteLocation(line: line, route: r["route"]!, routeName: r["route_name"]!, country: r["country"]!, order: order,
                                    name: r["location"]!, latitude: lat, longitude: lon, minutes: minutes, tags: tags,
                                    description: r["description"]!, source: r["source"]!)
            if let last = routes.last, last.id == loc.route {
                guard loc.routeName == last.name, loc.country == last.country else {
                    throw fail("route \(loc.route) was \"\(last.name)\" in \(last.country) above, here \"\(loc.routeName)\" in \(loc.country)")
                }
                guard order == last.locations.count + 1 else { throw fail("order \(order) follows \(last.locations.count); a route's orders run 1, 2, 3, …") }
                routes[routes.count - 1].locations.append(loc)
            } else {
                guard !routes.contains(where: { $0.id == loc.route }) else { throw fail("route \(loc.route) appears again after other routes; keep a route's rows together") }
                guard order == 1 else { throw fail("a route starts at order 1, not \(order)") }
                routes.append(Route(id: loc.route, name: loc.routeName, country: loc.country, locations: [loc]))
            }
        }
        guard !routes.isEmpty else { throw InputError(file: path, "has no routes") }
        for r in routes where r.locations.count < 2 {
            throw InputError(file: path, "route \(r.id) has \(r.locations.count) location; a route needs at least 2")
        }
        return routes
    }

    /// The hours the app's rewards unlock at (CONTRACTS §7).
    static let rewardHours = [1, 10, 20, 50, 200]

    static func rewards(_ path: String) throws -> [Reward] {
        var out: [Reward] = []
        var lineOfID: [String: Int] = [:]
        for (line, r) in try read(path, columns: rewardColumns) {
            for c in rewardColumns where r[c]!.isEmpty { throw InputError(file: path, "line \(line): the \(c) is empty") }
            guard let h = Int(r["hours"]!), h > 0 else { throw InputError(file: path, "line \(line): hours \"\(r["hours"]!)\" is not a whole number > 0") }
            let id = r["id"]!
            if let first = lineOfID[id] { throw InputError(file: path, "line \(line): repeats the reward id \"\(id)\" of line \(first)") }
            lineOfID[id] = line
            out.append(Reward(hours: h, id: id, title: r["title"]!, description: r["description"]!))
        }
        guard out.map(\.hours) == rewardHours else {
            throw InputError(file: path, "rewards are at \(out.map { String($0.hours) }.joined(separator: ", ")) hours; the app expects \(rewardHours.map(String.init).joined(separator: ", ")) in that order")
        }
        return out
    }
}
