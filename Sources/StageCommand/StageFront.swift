import StageContract

/// A stage's command-line front: the `Command` over the stage's declared options whose work is
/// `Stage.execute` (validate → run → the one-line summary).
public struct StageFront<Stage: PipelineStage>: Front where Stage.Options: DeclaredOptions {
    public typealias Options = Stage.Options
    public var command: Command<Options>

    public init(name: String, abstract: String, discussion: String,
                environment: @escaping (inout Options, [String: String]) -> Void = { _, _ in },
                beforeRun: @escaping () -> Void = {}) {
        command = Command(name: name, abstract: abstract, discussion: discussion, environment: environment, beforeRun: beforeRun,
                          run: { _ = try Stage.execute($0, quiet: $1) })
    }

    public var name: String {
        get { command.name }
        set { command.name = newValue }
    }
    public var abstract: String { command.abstract }
    public var listed: Bool { command.listed }
    public var help: String { command.help }
    public var usage: String { command.usage }
    public func parse(_ arguments: [String]) -> Command<Options>.Outcome { command.parse(arguments) }
    public func main() -> Never { command.main() }
    public func main(_ arguments: [String]) -> Never { command.main(arguments) }
}
