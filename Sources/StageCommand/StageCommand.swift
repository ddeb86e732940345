import ArgumentParser
import GeoModel

/// What every stage's command-line front does once its arguments are parsed, written once:
/// the options are checked while parsing (an `OptionsError` becomes a usage error, printed with
/// the usage line), then the stage runs and its one-line summary is printed. A front declares
/// its arguments, maps them to `options` and conforms; it has no `validate()` or `run()` of its
/// own unless it has something front-specific to add (a deprecated spelling, say).
public protocol StageCommand: ParsableCommand {
    associatedtype Stage: PipelineStage
    /// The parsed arguments as the stage's options (throws for a value no option can hold).
    var options: Stage.Options { get throws }
    /// `-q`: no progress lines.
    var quiet: Bool { get }
}

extension StageCommand {
    public func validate() throws {
        do { try options.validate() } catch let e as OptionsError { throw ValidationError(e.message) }
    }

    public func run() throws {
        try Stage.execute(options, quiet: quiet)
    }
}
