import Foundation
import GeoModel
import GeoSQLite

extension RoutesStage {
    /// The focus app's content database (SQL/content_schema.sql, SQLite).
    static let schema = EmbeddedFiles.content_schema_sql

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
