import GeoModel

/// The contract every pipeline stage follows (docs/ARCHITECTURE.md):
/// - `Options` holds every parameter with its default, written once here in Swift, and
///   declares each option once (`DeclaredOptions`, StageOption.swift): the command-line front
///   and its `--help` are derived from that; `pipelines/<name>.mk` passes only overrides.
/// - `Options.validate()` refuses values the stage cannot use, before any input is read.
/// - `run(_:log:)` does the work, reports progress on `log`, writes its outputs atomically and
///   returns a `Report` whose `summary` is the stage's one-line summary.
public protocol PipelineStage {
    associatedtype Options: StageOptions
    associatedtype Report: StageReport
    /// The name in progress lines: `[name  1.23s] …`.
    static var name: String { get }
    static func run(_ options: Options, log: StageLog) throws -> Report
}

public protocol StageOptions: Sendable {
    /// Throws `OptionsError` naming the option (as the command line spells it) and the rule.
    func validate() throws
}

public protocol StageReport {
    /// The one line printed when the stage is done.
    var summary: String { get }
}

/// An option value the stage cannot use: says which option, as the command line spells it.
public struct OptionsError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension PipelineStage {
    /// Validates, runs and prints the summary: what every front does after parsing.
    @discardableResult
    public static func execute(_ options: Options, quiet: Bool) throws -> Report {
        try options.validate()
        let log = StageLog(stage: name, quiet: quiet)
        let report = try run(options, log: log)
        log.summary(report.summary)
        return report
    }
}
