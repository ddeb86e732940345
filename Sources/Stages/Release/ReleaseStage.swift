import CalendarDay
import Foundation
import GeoModel
import StageContract

/// The release stage (CONTRACTS §10): the built products → a release directory with the
/// products, `manifest.json`, `changes.json` + `CHANGES.md` against a previous release, and the
/// inspection page (InspectStage). Written into `<out>.partial` and renamed at the end, so a
/// failed release leaves no directory that looks finished.
public enum ReleaseStage: PipelineStage {
    public static let name = "release"

    public struct Options: DeclaredOptions {
        /// The release directory to write (replaced if it exists).
        public var out = ""
        /// The release to compare with.
        public var previous: String?
        /// The release's day: quiz days before it must not change.
        public var day: Day?
        /// The pipeline's git commit.
        public var commit = "unknown"
        /// The products, as `make all` leaves them (every file under it is copied, `inspect/` aside).
        public var dist = "dist"
        /// The world stage's report: the tolerance the budget decided, the page's rows.
        public var worldReport = "build/world/report.tsv"
        /// The data directory the products were made from (inputs, with its README's provenance).
        public var data = "data"
        /// make's parameter files (build/params/<stage>: that stage's flags), all recorded.
        public var params = "build/params"
        /// The Natural Earth scale (recorded: a next release reuses the tolerance only at the same scale).
        public var scale = "10m"
        /// Points of the worldwide lookup probe (a Fibonacci lattice: deterministic, even).
        public var probePoints = 100_000
        /// Where Debian's libjs-leaflet puts Leaflet (copied next to the page).
        public var leaflet = InspectStage.Options().leaflet
        public init() {}

        public static let declared: [StageOption<Options>] = [
            .option("out", \.out, help: "The release directory to write (replaced, through OUT.partial)."),
            .option("previous", \.previous, help: "The previous release, to compare with."),
            .option("day", \.day, help: "The release's day (YYYY-MM-DD): quiz days before it must not change."),
            .option("commit", \.commit, help: "The pipeline's git commit."),
            .option("dist", \.dist, help: "The products' folder."),
            .option("world-report", \.worldReport, help: "The world stage's report (TSV)."),
            .option("data", \.data, help: "The data directory the products were made from."),
            .option("params", \.params, help: "make's parameter files (one per stage)."),
            .option("scale", \.scale, help: "The Natural Earth scale (recorded)."),
            .option("probe-points", \.probePoints, .atLeast(1), help: "Points of the worldwide lookup probe."),
            .option("leaflet", \.leaflet, help: "Debian's libjs-leaflet folder (copied next to the page)."),
        ]

        public func validateRules() throws {
            guard !out.isEmpty else { throw OptionsError("--out is required (the release directory)") }
            guard day != nil else { throw OptionsError("--day is required (the release's day, YYYY-MM-DD)") }
            if let p = previous, URL(fileURLWithPath: p).standardizedFileURL == URL(fileURLWithPath: out).standardizedFileURL {
                throw OptionsError("--previous and --out are the same directory (\(out))")
            }
        }
    }

    public struct Report: StageReport {
        public var out: String
        public var files = 0
        public var bytes = 0
        public var changes: Changes?
        public var summary: String {
            let what = changes.map { "; against \($0.previousLabel): \($0.headline)" } ?? "; first release (nothing to compare)"
            return "\(files) files, \(formatCount(bytes)) bytes\(what) → \(out)"
        }
    }

    /// Copies the products into a staging folder, compares them with the previous release,
    /// writes the changes, the inspection page and the manifest, then publishes the folder
    /// (steps in Steps/). Any error removes the staging folder.
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        let staging = o.out + ".partial"
        let fm = FileManager.default
        try? fm.removeItem(atPath: staging)
        do {
            var report = Report(out: o.out)
            let (current, productList) = try stageProducts(o, staging: staging, log: log)
            report.changes = try writeChanges(o, current, products: productList, staging: staging, log: log)
            try writeInspectPage(o, current, staging: staging, log: log)
            try writeManifest(o, current, products: productList, staging: staging, report: &report, log: log)
            try publish(staging, o)
            return report
        } catch {
            try? fm.removeItem(atPath: staging)
            throw error
        }
    }

    /// The file a staged copy came from (an error names what the user can open and fix; the
    /// staging directory is gone by the time it is printed).
    static func sourceOf(_ path: String, staging: String, _ o: Options) -> String {
        guard path.hasPrefix(staging + "/") else { return path }
        let rel = String(path.dropFirst(staging.count + 1))
        return rel == ReleaseFiles.worldReportPath ? o.worldReport : o.dist + "/" + rel
    }
}
