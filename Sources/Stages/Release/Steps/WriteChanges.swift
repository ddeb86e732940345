import GeoModel

extension ReleaseStage {
    /// changes.json and CHANGES.md against the previous release (with `previous`); a quiz
    /// change before the release's day is an error (players have answered those days).
    static func writeChanges(_ o: Options, _ current: ReleaseSnapshot, products productList: [String: FileRecord], staging: String,
                             log: StageLog) throws -> Changes? {
        let day = o.day!
        var changes: Changes?
        if let prev = o.previous {
            let previous = try log.step("read the previous release \(prev)") { try ReleaseSnapshot(root: prev, label: prev) }
            let c = try log.step("compare") {
                try Changes.compare(previous, current, previousProducts: try ReleaseFiles.previousProducts(prev),
                                    products: productList, day: day, probePoints: o.probePoints, log: log)
            }
            changes = c
        }
        let json = Changes.json(changes, day: day)
        try FileIO.writeAtomically(json, to: staging + "/changes.json")
        try FileIO.writeAtomically(ChangesMarkdown.render(changes, current: current, day: day, commit: o.commit), to: staging + "/CHANGES.md")
        if let c = changes, !c.quiz.pastChanged.isEmpty {
            throw StageError("the quiz changes \(c.quiz.pastChanged.count) day(s) before the release's day \(day.iso) (\(c.quiz.pastChanged.prefix(5).map(\.date).joined(separator: ", "))): players have answered them, so the release is not written")
        }
        return changes
    }
}
