import StageContract

/// `--help` and the usage line, derived from the declared options, laid out as
/// swift-argument-parser lays them out (80 columns, help text from column 26: `HelpLayout`).
extension Command {
    /// `-o, --output <output>`, `--fill-point-gaps/--no-fill-point-gaps`, `<input>`; with
    /// `long`, the long form alone (`--output <output>`), as error messages name an option.
    func label(_ o: StageOption<Options>, long: Bool = false) -> String {
        switch o.kind {
        case .argument: return "<\(o.name)>"
        case .option: return (long || o.short == nil ? "" : "-\(o.short!), ") + "--\(o.name) <\(o.name)>"
        case .flag(let inversion):
            let flag = (long || o.short == nil ? "" : "-\(o.short!), ") + "--\(o.name)"
            return inversion ? "\(flag)/--no-\(o.name)" : flag
        }
    }

    /// Every option, or with more than 12 (`--x/--no-x` counts two, `--quiet` one) the
    /// arguments only, as swift-argument-parser does.
    public var usage: String {
        let declared = Options.declared
        let inversions = declared.filter { if case .flag(inversion: true) = $0.kind { return true } else { return false } }.count
        if declared.count + inversions + 1 > 12 {
            let arguments = declared.compactMap { o -> String? in
                guard case .argument(let required) = o.kind else { return nil }
                return required ? "<\(o.name)>" : "[<\(o.name)>]"
            }
            return arguments.isEmpty ? "\(name) <options>" : "\(name) [<options>] " + arguments.joined(separator: " ")
        }
        var parts = [name]
        for o in declared {
            switch o.kind {
            case .argument(let required): parts.append(required ? "<\(o.name)>" : "[<\(o.name)>]")
            case .option: parts.append(o.isRequired ? "--\(o.name) <\(o.name)>" : "[--\(o.name) <\(o.name)>]")
            case .flag(let inversion):
                parts.append("[--\(o.name)]")
                if inversion { parts.append("[--no-\(o.name)]") }
            }
        }
        parts.append("[--quiet]")
        return parts.joined(separator: " ")
    }

    public var help: String {
        let defaults = Options()
        var arguments = [String](), options = [String]()
        for o in Options.declared {
            var text = o.help
            if let d = o.defaultText(defaults) { text += " (default: \(d))" }
            if !o.aliases.isEmpty { text += " (also: \(o.aliases.map { "--" + $0 }.joined(separator: ", ")))" }
            let entry = HelpLayout.entry(label(o), text)
            if case .argument = o.kind { arguments.append(entry) } else { options.append(entry) }
        }
        options.append(HelpLayout.entry("-q, --quiet", "No progress lines."))
        options.append(HelpLayout.entry("-h, --help", "Show help information."))
        var out = HelpLayout.overview(abstract, discussion) + "USAGE: \(usage)\n\n"
        if !arguments.isEmpty { out += "ARGUMENTS:\n" + arguments.joined() + "\n" }
        out += "OPTIONS:\n" + options.joined()
        return out
    }
}

/// The layout every `--help` shares: 80 columns, an entry's help from column 26.
enum HelpLayout {
    static var width: Int { 80 }
    static var helpColumn: Int { 26 }

    /// `OVERVIEW: abstract` (wrapped), then the discussion as written.
    static func overview(_ abstract: String, _ discussion: String) -> String {
        var out = wrap("OVERVIEW: " + abstract, indent: 0).joined(separator: "\n") + "\n\n"
        if !discussion.isEmpty { out += discussion + "\n\n" }
        return out
    }

    /// One entry: the label at column 2, its help from column 26 (on the next line when the
    /// label is longer), wrapped at 80 columns.
    static func entry(_ label: String, _ text: String) -> String {
        let lines = wrap(text, indent: helpColumn)
        let head = "  " + label
        if head.count < helpColumn {
            let first = head.padding(toLength: helpColumn, withPad: " ", startingAt: 0) + lines[0].dropFirst(helpColumn)
            return ([first] + lines.dropFirst()).joined(separator: "\n") + "\n"
        }
        return ([head] + lines).joined(separator: "\n") + "\n"
    }

    /// Words of `text` in lines of at most `width` columns, each indented by `indent`; a word
    /// followed by another leaves room for the space after it (as swift-argument-parser wraps).
    static func wrap(_ text: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        var lines = [String](), line = ""
        for (i, word) in words.enumerated() {
            let room = i == words.count - 1 ? width : width - 1
            if !line.isEmpty, indent + line.count + 1 + word.count > room {
                lines.append(pad + line); line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(pad + line)
        return lines
    }
}
