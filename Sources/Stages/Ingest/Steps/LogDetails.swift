import Foundation
import GeoModel

extension IngestStage {
    /// One progress line per dissolve, fallback, point, capital decision, dropped alias and warning.
    static func logDetails(_ report: Report, log: StageLog) {
        for (id, parts) in report.dissolved { log.info("dissolved \(id) from \(parts.joined(separator: "+"))") }
        for (id, reason) in report.unionFallbacks { log.info("\(id): coverage union not possible (\(reason)); used a general union") }
        if !report.pointsFromCapital.isEmpty {
            log.info("no polygon in the input, Point at the capital: \(report.pointsFromCapital.joined(separator: " "))")
        }
        for r in report.capitalsResolved { log.info("capital: \(r)") }
        for d in report.capitalDisagreements { log.info("warning: capital sources disagree: \(d)") }
        for d in report.droppedAliases { log.info("dropped: \(d)") }
        for w in report.warnings { log.info("warning: \(w)") }
    }
}
