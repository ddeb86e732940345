import Foundation
import StageContract

/// A command-line front derived from declared options (`DeclaredOptions`): parse the
/// arguments, validate (a bad value is a usage error: the message, the usage line, exit 64),
/// run (an error: `Error: …`, exit 1). Every command adds `-q, --quiet` and `-h, --help`.
/// The command line reads as swift-argument-parser's does: `--name value`, `--name=value`,
/// `-o value`, grouped short flags, `--` before arguments that start with a dash (a negative
/// number needs none); the last of a repeated option wins. A stage's front is a `StageFront`;
/// a tool's commands (`geo-hexagons cell`) are `Command`s, grouped by a `CommandGroup`.
public struct Command<Options: DeclaredOptions>: Front {
    public var name: String
    public let abstract: String
    public let discussion: String
    /// Listed in its group's help (false: a command for scripts, still runnable).
    public let listed: Bool
    /// What the options take from the environment rather than the command line (a database
    /// URL: a password on the command line would show in `ps`), before they are validated.
    public var environment: (inout Options, [String: String]) -> Void
    /// Front-specific set-up before the command runs (the allocator's settings, say).
    public var beforeRun: () -> Void
    /// The work, with the validated options and `--quiet`.
    public let run: (Options, _ quiet: Bool) throws -> Void

    public init(name: String, abstract: String, discussion: String = "", listed: Bool = true,
                environment: @escaping (inout Options, [String: String]) -> Void = { _, _ in },
                beforeRun: @escaping () -> Void = {},
                run: @escaping (Options, _ quiet: Bool) throws -> Void) {
        self.name = name; self.abstract = abstract; self.discussion = discussion; self.listed = listed
        self.environment = environment; self.beforeRun = beforeRun; self.run = run
    }

    /// Parses `CommandLine.arguments`, runs and exits.
    public func main() -> Never {
        main(Array(CommandLine.arguments.dropFirst()))
    }

    public func main(_ arguments: [String]) -> Never {
        let parsed: (options: Options, quiet: Bool)
        switch parse(arguments) {
        case .help:
            print(help)
            exit(0)
        case .usageError(let message, let optionHelp):
            fail(message, optionHelp: optionHelp)
        case .parsed(var options, let quiet, let notes):
            for note in notes { FileHandle.standardError.write(Data("\(name): \(note)\n".utf8)) }
            environment(&options, ProcessInfo.processInfo.environment)
            parsed = (options, quiet)
        }
        do { try parsed.options.validate() } catch let e as OptionsError { fail(e.message) } catch { fail("\(error)") }
        beforeRun()
        do {
            try run(parsed.options, parsed.quiet)
        } catch {
            let text = (error as? LocalizedError)?.errorDescription ?? String(describing: error)
            FileHandle.standardError.write(Data("Error: \(text)\n".utf8))
            exit(1)
        }
        exit(0)
    }

    /// A usage error: the message, the option's help when it names one, the usage line; exit 64.
    func fail(_ message: String, optionHelp: String? = nil) -> Never {
        var text = "Error: \(message)\n"
        if let optionHelp { text += "Help:  \(optionHelp)\n" }
        text += "Usage: \(usage)\n  See '\(name) --help' for more information.\n"
        FileHandle.standardError.write(Data(text.utf8))
        exit(64)
    }

    public enum Outcome {
        case help
        case usageError(String, optionHelp: String?)
        case parsed(Options, quiet: Bool, notes: [String])
    }

    /// The command line read against the declared options (no validation yet). Values are set
    /// in the order the options are declared, whatever their order on the command line, so an
    /// option whose setter depends on another's sees the same result either way.
    public func parse(_ arguments: [String]) -> Outcome {
        let declared = Options.declared
        let terminator = arguments.firstIndex(of: "--") ?? arguments.endIndex
        if arguments[..<terminator].contains(where: { $0 == "-h" || $0 == "--help" }) { return .help }

        var given = [Int: String]()          // declared index → text (the last occurrence wins)
        var spelled = [Int: Set<String>]()   // declared index → the spellings used (deprecation notes)
        var positionals = [String]()
        var quiet = false
        var i = 0
        func optionHelp(_ k: Int) -> String { "\(label(declared[k]))  \(declared[k].help)" }
        func value(for k: Int, inline: String?) -> String? {
            if let inline { return inline }
            guard i + 1 < arguments.count, !Self.looksLikeOption(arguments[i + 1]) else { return nil }
            i += 1
            return arguments[i]
        }

        while i < arguments.count {
            let a = arguments[i]
            if i >= terminator {
                if i > terminator { positionals.append(a) }
            } else if a.hasPrefix("--") {
                let body = a.dropFirst(2)
                let (key, inline) = Self.split(body)
                if key == "quiet" {
                    if let inline { return .usageError("The option '--quiet' does not take any value, but '\(inline)' was specified.", optionHelp: nil) }
                    quiet = true
                } else if let (k, isInverse) = lookUp(key) {
                    switch declared[k].kind {
                    case .flag:
                        if let inline { return .usageError("The option '\(a.prefix { $0 != "=" })' does not take any value, but '\(inline)' was specified.", optionHelp: nil) }
                        given[k] = isInverse ? "false" : "true"
                    case .option:
                        guard let v = value(for: k, inline: inline) else { return .usageError("Missing value for '\(label(declared[k], long: true))'", optionHelp: optionHelp(k)) }
                        given[k] = v
                        spelled[k, default: []].insert(String(key))
                    case .argument:
                        return .usageError("Unknown option '--\(key)'", optionHelp: nil)
                    }
                } else {
                    return .usageError("Unknown option '--\(key)'", optionHelp: nil)
                }
            } else if a.hasPrefix("-"), a.count > 1, !Self.isNumber(a) {
                let (letters, inline) = Self.split(a.dropFirst())
                for (n, c) in letters.enumerated() {
                    let last = n == letters.count - 1
                    if c == "q" { quiet = true; continue }
                    guard let k = declared.firstIndex(where: { $0.short == c }) else { return .usageError("Unknown option '-\(c)'", optionHelp: nil) }
                    switch declared[k].kind {
                    case .option:
                        guard last, let v = value(for: k, inline: inline) else { return .usageError("Missing value for '-\(c) <\(declared[k].name)>'", optionHelp: optionHelp(k)) }
                        given[k] = v
                    default:
                        given[k] = "true"
                    }
                }
            } else {
                positionals.append(a)
            }
            i += 1
        }

        // Positional arguments, in their declared order.
        let arguments = declared.indices.filter { if case .argument = declared[$0].kind { return true } else { return false } }
        if positionals.count > arguments.count { return .usageError("Unexpected argument '\(positionals[arguments.count])'", optionHelp: nil) }
        for (k, text) in zip(arguments, positionals) { given[k] = text }
        for k in arguments.dropFirst(positionals.count) {
            if case .argument(required: true) = declared[k].kind { return .usageError("Missing expected argument '<\(declared[k].name)>'", optionHelp: optionHelp(k)) }
        }
        if let k = declared.indices.first(where: { declared[$0].isRequired && given[$0] == nil }) {
            return .usageError("Missing expected argument '\(label(declared[k], long: true))'", optionHelp: optionHelp(k))
        }

        var notes = [String]()
        var options = Options()
        for k in declared.indices {
            guard let text = given[k] else { continue }
            let o = declared[k]
            let used = spelled[k] ?? []
            for old in o.deprecatedAliases where used.contains(old) {
                if used.contains(o.name) { return .usageError("give --\(o.name) only (--\(old) is its deprecated name)", optionHelp: nil) }
                notes.append("--\(old) is deprecated; use --\(o.name)")
            }
            guard o.apply(&options, text) else {
                if let invalid = o.invalid { return .usageError(invalid(text), optionHelp: nil) }
                return .usageError("The value '\(text)' is invalid for '\(label(o, long: true))'", optionHelp: optionHelp(k))
            }
        }
        return .parsed(options, quiet: quiet, notes: notes)
    }

    /// The declared option `key` names (its name, an alias, or `no-` + an invertible flag's name).
    func lookUp(_ key: Substring) -> (Int, inverse: Bool)? {
        let declared = Options.declared
        for (k, o) in declared.enumerated() {
            if case .argument = o.kind { continue }
            if o.name == key || o.aliases.contains(String(key)) || o.deprecatedAliases.contains(String(key)) { return (k, false) }
            if case .flag(inversion: true) = o.kind, key == "no-" + o.name { return (k, true) }
        }
        return nil
    }

    static func split(_ s: Substring) -> (Substring, String?) {
        guard let eq = s.firstIndex(of: "=") else { return (s, nil) }
        return (s[..<eq], String(s[s.index(after: eq)...]))
    }

    /// A negative number is a value, not an option.
    static func isNumber(_ s: String) -> Bool { s.count > 1 && Double(s) != nil }
    static func looksLikeOption(_ s: String) -> Bool { s.hasPrefix("-") && s.count > 1 && !isNumber(s) }
}
