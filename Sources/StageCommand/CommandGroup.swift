import Foundation

/// What a `CommandGroup` holds: a `Command` or a `StageFront`.
public protocol Front {
    /// The name usage lines and errors show (`geo-hexagons cell` once in a group).
    var name: String { get set }
    var abstract: String { get }
    var listed: Bool { get }
    var help: String { get }
    func main(_ arguments: [String]) -> Never
}

/// A tool with subcommands (`geo-lookup build|query|bench`, `geo-hexagons cell|polyfill|…`).
/// The first argument names the subcommand, which reads the rest; with a default subcommand,
/// anything else goes to it whole (`geo-lookup 48.85 2.35`). `-q`/`--quiet` before the
/// subcommand's name is passed on to it (the bad-input harness calls every tool `TOOL -q …`).
/// `TOOL`, `TOOL --help` and `TOOL help` print the group's help, `TOOL help SUB` a subcommand's.
public struct CommandGroup {
    public let name: String
    public let abstract: String
    public let discussion: String
    public let subcommands: [any Front]
    public let defaultSubcommand: String?

    /// `subcommands` are named by their own word (`cell`); the group prefixes its name.
    public init(name: String, abstract: String, discussion: String = "", subcommands: [any Front], defaultSubcommand: String? = nil) {
        self.name = name; self.abstract = abstract; self.discussion = discussion; self.defaultSubcommand = defaultSubcommand
        self.subcommands = subcommands.map { var s = $0; s.name = name + " " + s.name; return s }
    }

    func subcommand(_ word: String) -> (any Front)? { subcommands.first { $0.name == name + " " + word } }

    public func main() -> Never { main(Array(CommandLine.arguments.dropFirst())) }

    public func main(_ arguments: [String]) -> Never {
        let quiet = arguments.prefix { $0 == "-q" || $0 == "--quiet" }
        let rest = Array(arguments.dropFirst(quiet.count))
        let first = rest.first ?? ""
        if let sub = subcommand(first) { sub.main(Array(quiet) + rest.dropFirst()) }
        if first == "help" || first == "-h" || first == "--help" || (rest.isEmpty && defaultSubcommand == nil) {
            if first == "help", rest.count > 1 {
                guard let sub = subcommand(rest[1]) else { fail("Unknown subcommand '\(rest[1])'") }
                print(sub.help)
            } else {
                print(help)
            }
            exit(0)
        }
        guard let sub = defaultSubcommand.flatMap(subcommand) else { fail("Unknown subcommand '\(first)'") }
        sub.main(arguments)
    }

    func fail(_ message: String) -> Never {
        let text = "Error: \(message)\nUsage: \(name) <subcommand>\n  See '\(name) --help' for more information.\n"
        FileHandle.standardError.write(Data(text.utf8))
        exit(64)
    }

    public var help: String {
        var out = HelpLayout.overview(abstract, discussion) + "USAGE: \(name) <subcommand>\n\nOPTIONS:\n"
        out += HelpLayout.entry("-q, --quiet", "No progress lines (passed on to the subcommand).")
        out += HelpLayout.entry("-h, --help", "Show help information.") + "\nSUBCOMMANDS:\n"
        for sub in subcommands where sub.listed {
            let word = String(sub.name.dropFirst(name.count + 1))
            out += HelpLayout.entry(word == defaultSubcommand ? word + " (default)" : word, sub.abstract)
        }
        out += "\n  See '\(name) help <subcommand>' for detailed help."
        return out
    }
}
