// The routes stage: the focus app's curated routes (data/routes.tsv) and rewards
// (data/rewards.tsv) → dist/routes/routes.geojson (each route drawn along great circles, each
// location's cumulative geodesic distance) and dist/routes/content.sqlite3 (the app's bundled
// content: routes, locations in order, tags, rewards). Every location must lie in its route's
// country by the offline lookup (dist/lookup/lookup.bin), the same answer the apps get.

import Foundation
import GeoLookup
import GeoModel
import GeoPROJ
import GeoSQLite

public enum RoutesStage: PipelineStage {
    public static let name = "routes"

    public struct Options: DeclaredOptions {
        public var input = "data/routes.tsv"
        public var rewards = "data/rewards.tsv"
        public var index = "dist/lookup/lookup.bin"
        public var outputDir = "dist/routes"
        /// The line is densified along the great circle so a flat map draws it curved.
        public var stepDegrees = 0.25
        public init() {}

        public static let declared: [StageOption<Options>] = [
            .argument("routes", \.input, help: "The routes table (TSV)."),
            .option("rewards", \.rewards, help: "The rewards table (TSV)."),
            .option("index", \.index, help: "The lookup index (make lookup)."),
            .option("output-dir", short: "o", aliases: ["out-dir"], \.outputDir, help: "Output directory."),
            .option("step-degrees", \.stepDegrees, .within(0.01...10), help: "Longest straight piece of a drawn route, in degrees of arc."),
        ]
    }

    public struct Report: StageReport {
        public var routes: [Route] = []
        public var rewards = 0
        public var linePoints = 0
        public var sqliteBytes = 0
        public var outputDir = ""
        public var summary: String {
            let lengths = routes.map { "\($0.id) \(String(format: "%.0f", $0.locations.last!.distanceKm)) km" }.joined(separator: ", ")
            return "\(routes.count) routes, \(routes.reduce(0) { $0 + $1.locations.count }) locations (each in its country by the lookup), \(rewards) rewards → "
                + "\(outputDir)/routes.geojson (\(linePoints) line points; \(lengths)), content.sqlite3 (\(formatCount(sqliteBytes)) bytes)"
        }
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        var routes = try Tables.routes(o.input)
        let rewards = try Tables.rewards(o.rewards)
        let lookup: GeoLookup
        let indexBytes = try FileIO.readBytes(o.index)
        do { lookup = try GeoLookup(data: Data(indexBytes)) } catch let e as LookupIndexError { throw InputError(file: o.index, e.message) }
        for r in routes {
            for l in r.locations {
                let found = lookup.country(at: l.latitude, l.longitude)
                guard found == r.country else {
                    throw InputError(file: o.input, "line \(l.line) (\(l.label) at \(l.latitude), \(l.longitude)): the lookup puts it \(found.map { "in \($0)" } ?? "at sea"), not in the route's country \(r.country)")
                }
            }
        }
        log.info("\(routes.count) routes: every location lies in its route's country")
        // cumulative geodesic distances (WGS84, Karney through PROJ)
        let geod = Geodesic.wgs84
        for ri in routes.indices {
            var total = 0.0
            for li in routes[ri].locations.indices where li > 0 {
                let a = routes[ri].locations[li - 1], b = routes[ri].locations[li]
                total += geod.distance(Point(a.longitude, a.latitude), Point(b.longitude, b.latitude)) / 1000
                routes[ri].locations[li].distanceKm = total
            }
        }
        var report = Report(routes: routes, rewards: rewards.count, outputDir: o.outputDir)
        let (geojson, points) = routesGeoJSON(routes, stepDegrees: o.stepDegrees)
        report.linePoints = points

        // Build the database beside its final name, then publish both files.
        try FileManager.default.createDirectory(atPath: o.outputDir, withIntermediateDirectories: true)
        let dbPath = o.outputDir + "/content.sqlite3"
        let tmp = o.outputDir + "/.content.sqlite3.tmp-\(getpid())"
        unlink(tmp)
        do {
            try log.step("write content.sqlite3") { try writeDatabase(tmp, routes: routes, rewards: rewards) }
            report.sqliteBytes = Int((try? FileManager.default.attributesOfItem(atPath: tmp)[.size] as? Int) ?? 0)
            try FileIO.writeAtomically(geojson, to: o.outputDir + "/routes.geojson")
            guard rename(tmp, dbPath) == 0 else { throw StageError("\(dbPath): cannot move the finished database into place: \(String(cString: strerror(errno)))") }
        } catch {
            unlink(tmp)
            throw error
        }
        return report
    }

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

    static let schema = """
        PRAGMA foreign_keys = ON;
        CREATE TABLE routes (
          id TEXT PRIMARY KEY,
          position INTEGER NOT NULL UNIQUE,      -- the order the app lists the routes in
          name TEXT NOT NULL,
          country_code TEXT NOT NULL,            -- ISO 3166-1 alpha-2
          length_km REAL NOT NULL                -- geodesic (WGS84) length through every location
        );
        CREATE TABLE locations (
          id INTEGER PRIMARY KEY,
          route_id TEXT NOT NULL REFERENCES routes(id),
          position INTEGER NOT NULL,             -- 1, 2, 3, … along the route
          name TEXT NOT NULL,
          latitude REAL NOT NULL,
          longitude REAL NOT NULL,
          minutes_to_unlock INTEGER NOT NULL,    -- focus minutes from the previous location (0 at the start)
          cumulative_minutes INTEGER NOT NULL,   -- focus minutes from the route's start
          distance_km REAL NOT NULL,             -- geodesic distance from the route's start
          description TEXT NOT NULL,
          source TEXT NOT NULL,
          UNIQUE (route_id, position)
        );
        CREATE TABLE tags (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE
        );
        CREATE TABLE location_tags (
          location_id INTEGER NOT NULL REFERENCES locations(id),
          tag_id INTEGER NOT NULL REFERENCES tags(id),
          position INTEGER NOT NULL,             -- the tag's place in the location's list
          PRIMARY KEY (location_id, tag_id)
        );
        CREATE TABLE rewards (
          hours INTEGER PRIMARY KEY,             -- total focus hours that unlock it
          id TEXT NOT NULL UNIQUE,
          title TEXT NOT NULL,
          description TEXT NOT NULL
        );
        """

    static func writeDatabase(_ path: String, routes: [Route], rewards: [Reward]) throws {
        let db = try SQLiteDatabase(path: path)
        try db.execute(schema)
        try db.execute("BEGIN")
        try db.run("INSERT INTO routes VALUES (?1, ?2, ?3, ?4, ?5)", rows: routes.enumerated().map { i, r in
            [.text(r.id), .integer(Int64(i + 1)), .text(r.name), .text(r.country), .real(rounded(r.locations.last!.distanceKm))]
        })
        var locRows: [[SQLiteValue]] = [], tagRows: [[SQLiteValue]] = [], linkRows: [[SQLiteValue]] = []
        var tagIDs: [String: Int64] = [:]
        var id: Int64 = 0
        for r in routes {
            var minutes = 0
            for l in r.locations {
                id += 1
                minutes += l.minutes
                locRows.append([.integer(id), .text(r.id), .integer(Int64(l.order)), .text(l.name), .real(l.latitude), .real(l.longitude),
                                .integer(Int64(l.minutes)), .integer(Int64(minutes)), .real(rounded(l.distanceKm)), .text(l.description), .text(l.source)])
                for (k, t) in l.tags.enumerated() {
                    let tid: Int64
                    if let known = tagIDs[t] { tid = known } else { tid = Int64(tagIDs.count + 1); tagIDs[t] = tid; tagRows.append([.integer(tid), .text(t)]) }
                    linkRows.append([.integer(id), .integer(tid), .integer(Int64(k + 1))])
                }
            }
        }
        try db.run("INSERT INTO locations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)", rows: locRows)
        try db.run("INSERT INTO tags VALUES (?1, ?2)", rows: tagRows)
        try db.run("INSERT INTO location_tags VALUES (?1, ?2, ?3)", rows: linkRows)
        try db.run("INSERT INTO rewards VALUES (?1, ?2, ?3, ?4)", rows: rewards.map { [.integer(Int64($0.hours)), .text($0.id), .text($0.title), .text($0.description)] })
        try db.execute("COMMIT")
        // read back what the app will read: the foreign keys hold
        let broken = try db.query("PRAGMA foreign_key_check")
        guard broken.isEmpty else { throw StageError("\(path): foreign key check found \(broken.count) rows") }
        try db.close()
    }
}
