import Foundation
import GeoModel

extension RoutesStage {
    /// Writes routes.geojson and content.sqlite3: the database is built beside its final name,
    /// then both files are published. Returns the database's size in bytes.
    static func writeOutputs(_ o: Options, geojson: [UInt8], routes: [Route], rewards: [Reward], log: StageLog) throws -> Int {
        var sqliteBytes = 0
        try FileManager.default.createDirectory(atPath: o.outputDir, withIntermediateDirectories: true)
        let dbPath = o.outputDir + "/content.sqlite3"
        let tmp = o.outputDir + "/.content.sqlite3.tmp-\(getpid())"
        unlink(tmp)
        do {
            try log.step("write content.sqlite3") { try writeDatabase(tmp, routes: routes, rewards: rewards) }
            sqliteBytes = Int((try? FileManager.default.attributesOfItem(atPath: tmp)[.size] as? Int) ?? 0)
            try FileIO.writeAtomically(geojson, to: o.outputDir + "/routes.geojson")
            try FileIO.moveIntoPlace(tmp, dbPath, named: dbPath)
        } catch {
            unlink(tmp)
            throw error
        }
        return sqliteBytes
    }
}
