import Foundation
import GeoModel

extension SilhouettesStage {
    /// Silhouettes of countries no longer in the input would linger from an earlier run.
    static func removeStale(_ dir: String, report: inout Report) {
        let current = Set(report.drawn.map { $0.id + ".svg" })
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        for name in existing.sorted() where name.count == 6 && name.hasSuffix(".svg") && CountryID.isValid(String(name.prefix(2))) && !current.contains(name) {
            try? FileManager.default.removeItem(atPath: dir + "/" + name)
            report.removedStale.append(name)
        }
    }
}
