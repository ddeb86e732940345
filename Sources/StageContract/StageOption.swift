import CalendarDay

/// A stage's options declared once (the models: PDAL's `addArgs`, mapshaper's option registry).
///
/// Each entry names one field of the stage's `Options` by key path, with its command-line
/// spelling, its help and, for a number, the range it must lie in. The default is the field's
/// initial value in `Options()`, nowhere else. From this one list the front parses its
/// arguments and prints `--help` (target `StageCommand`), and `validate()` checks every
/// declared range before the stage's own rules between options:
///
/// ```swift
/// public struct Options: DeclaredOptions {
///     public var input = "build/ingest/countries.geojson"
///     public var threads = 2
///     public init() {}
///     public static let declared: [StageOption<Options>] = [
///         .argument("input", \.input, help: "The ingest stage's countries GeoJSON."),
///         .option("threads", \.threads, .atLeast(1), help: "Worker threads."),
///     ]
///     public func validateRules() throws { … }   // only rules between options
/// }
/// ```
public protocol DeclaredOptions: StageOptions {
    init()
    /// Every option the command line can set, in the order `--help` lists them.
    static var declared: [StageOption<Self>] { get }
    /// Rules that tie options together, checked after every declared range (default: none).
    func validateRules() throws
}

extension DeclaredOptions {
    public func validateRules() throws {}

    /// Every declared range, then the rules between options. Throws `OptionsError` naming the
    /// option as the command line spells it.
    public func validate() throws {
        for option in Self.declared {
            if let problem = option.problem(self) { throw OptionsError(problem) }
        }
        try validateRules()
    }
}

/// One declared option: see `DeclaredOptions`.
public struct StageOption<Root>: Sendable {
    public enum Kind: Sendable {
        /// A positional argument (`name` is its value's name: `<input>`).
        case argument(required: Bool)
        /// `--name <name>`.
        case option
        /// `--name` sets true; with `inversion`, `--no-name` sets false.
        case flag(inversion: Bool)
    }

    /// The long name without dashes (`target-vertices`).
    public let name: String
    public let short: Character?
    /// Older spellings still accepted, without dashes. A deprecated one prints a note when used.
    public let aliases: [String]
    public let deprecatedAliases: [String]
    public let help: String
    public let kind: Kind
    /// Sets the field from the command line's text ("true"/"false" for a flag); false when the
    /// text is no value of the field's type.
    public let apply: @Sendable (inout Root, String) -> Bool
    /// The default as `--help` shows it, read from `Options()`; nil shows none.
    public let defaultText: @Sendable (Root) -> String?
    /// What is wrong with the field's value, as the message a user reads; nil when it is fine.
    public let problem: @Sendable (Root) -> String?
    /// The message for command-line text that is no value of the field's type, given that text:
    /// `--day must be a date YYYY-MM-DD (got "x")` for a type that says what it expects (or
    /// the option's own words); nil: the usual "The value 'x' is invalid for '--name <name>'".
    public let invalid: (@Sendable (String) -> String)?
    /// An option the command line must give (`--res <res>`; its field's initial value is a placeholder).
    public let isRequired: Bool

    /// `--name`, or `<name>` for an argument.
    public var spelling: String {
        if case .argument = kind { return "<\(name)>" }
        return "--" + name
    }

    public init(name: String, short: Character? = nil, aliases: [String] = [], deprecatedAliases: [String] = [],
                help: String, kind: Kind, invalid: (@Sendable (String) -> String)? = nil, isRequired: Bool = false,
                apply: @escaping @Sendable (inout Root, String) -> Bool,
                defaultText: @escaping @Sendable (Root) -> String?, problem: @escaping @Sendable (Root) -> String? = { _ in nil }) {
        self.name = name; self.short = short; self.aliases = aliases; self.deprecatedAliases = deprecatedAliases
        self.help = help; self.kind = kind; self.invalid = invalid; self.isRequired = isRequired
        self.apply = apply; self.defaultText = defaultText; self.problem = problem
    }
}

extension StageOption {
    /// "SPELLING must be EXPECTED (got "text")": the message for a type that says what it expects.
    static func mustBe(_ spelling: String, _ expected: String?) -> (@Sendable (String) -> String)? {
        guard let expected else { return nil }
        return { text in "\(spelling) must be \(expected) (got \"\(text)\")" }
    }

    /// A positional argument; `required` ones show no default (the front insists on them).
    public static func argument(_ name: String, _ field: WritableKeyPath<Root, String> & Sendable, required: Bool = false, help: String) -> Self {
        .init(name: name, help: help, kind: .argument(required: required),
              apply: { $0[keyPath: field] = $1; return true },
              defaultText: { required ? nil : $0[keyPath: field] })
    }

    /// A positional argument of another type than text (`<latitude>`), nil unless given.
    public static func argument<V: OptionValue>(_ name: String, _ field: WritableKeyPath<Root, V?> & Sendable, help: String) -> Self {
        .init(name: name, help: help, kind: .argument(required: false), invalid: mustBe("<\(name)>", V.expected),
              apply: { root, text in guard let v = V(optionText: text) else { return false }; root[keyPath: field] = v; return true },
              defaultText: { _ in nil })
    }

    /// `--name <name>` the command line must give (no default; `field`'s initial value is never used).
    public static func required<V: OptionValue>(_ name: String, _ field: WritableKeyPath<Root, V> & Sendable, help: String) -> Self {
        .init(name: name, help: help, kind: .option, invalid: mustBe("--" + name, V.expected), isRequired: true,
              apply: { root, text in guard let v = V(optionText: text) else { return false }; root[keyPath: field] = v; return true },
              defaultText: { _ in nil })
    }

    /// `--name <name>` for a field with a default (shown in `--help`). `invalid`: the option's own
    /// message for text that does not parse (default: the type's, or the usual one).
    public static func option<V: OptionValue>(_ name: String, short: Character? = nil, aliases: [String] = [], deprecatedAliases: [String] = [],
                                              _ field: WritableKeyPath<Root, V> & Sendable, invalid: (@Sendable (String) -> String)? = nil, help: String) -> Self {
        .init(name: name, short: short, aliases: aliases, deprecatedAliases: deprecatedAliases, help: help, kind: .option,
              invalid: invalid ?? mustBe("--" + name, V.expected),
              apply: { root, text in guard let v = V(optionText: text) else { return false }; root[keyPath: field] = v; return true },
              defaultText: { $0[keyPath: field].optionText })
    }

    /// `--name <name>` for a number with a default, which must lie in `range`.
    public static func option<V: OptionValue & Comparable>(_ name: String, short: Character? = nil, aliases: [String] = [], deprecatedAliases: [String] = [],
                                                           _ field: WritableKeyPath<Root, V> & Sendable, _ range: OptionRange<V>, help: String) -> Self {
        let plain = option(name, short: short, aliases: aliases, deprecatedAliases: deprecatedAliases, field, help: help)
        return .init(name: name, short: short, aliases: aliases, deprecatedAliases: deprecatedAliases, help: help, kind: .option, invalid: plain.invalid,
                     apply: plain.apply, defaultText: plain.defaultText,
                     problem: { root in range.problem(root[keyPath: field], name: "--" + name) })
    }

    /// `--name <name>` for a field that is nil unless given (`invalid` as above).
    public static func option<V: OptionValue>(_ name: String, short: Character? = nil, aliases: [String] = [], deprecatedAliases: [String] = [],
                                              _ field: WritableKeyPath<Root, V?> & Sendable, invalid: (@Sendable (String) -> String)? = nil, help: String) -> Self {
        .init(name: name, short: short, aliases: aliases, deprecatedAliases: deprecatedAliases, help: help, kind: .option,
              invalid: invalid ?? mustBe("--" + name, V.expected),
              apply: { root, text in guard let v = V(optionText: text) else { return false }; root[keyPath: field] = v; return true },
              defaultText: { $0[keyPath: field]?.optionText })
    }

    /// `--name <name>` for a number that is nil unless given, and then must lie in `range`.
    public static func option<V: OptionValue & Comparable>(_ name: String, short: Character? = nil, aliases: [String] = [], deprecatedAliases: [String] = [],
                                                           _ field: WritableKeyPath<Root, V?> & Sendable, _ range: OptionRange<V>, help: String) -> Self {
        let plain = option(name, short: short, aliases: aliases, deprecatedAliases: deprecatedAliases, field, help: help)
        return .init(name: name, short: short, aliases: aliases, deprecatedAliases: deprecatedAliases, help: help, kind: .option, invalid: plain.invalid,
                     apply: plain.apply, defaultText: plain.defaultText,
                     problem: { root in root[keyPath: field].flatMap { range.problem($0, name: "--" + name) } })
    }

    /// `--name` (true); with `inversion`, also `--no-name` (false) and the default shown.
    public static func flag(_ name: String, short: Character? = nil, _ field: WritableKeyPath<Root, Bool> & Sendable, inversion: Bool = false, help: String) -> Self {
        .init(name: name, short: short, help: help, kind: .flag(inversion: inversion),
              apply: { $0[keyPath: field] = $1 == "true"; return true },
              defaultText: { inversion ? ($0[keyPath: field] ? "--" : "--no-") + name : nil })
    }
}

/// A value the command line can give: parsed from its text, shown as a default in `--help`.
public protocol OptionValue: Sendable {
    init?(optionText: String)
    var optionText: String { get }
    /// What the value must look like, for the message when it does not parse; nil: the usual
    /// "The value 'x' is invalid for '--name <name>'".
    static var expected: String? { get }
    /// False for a number that no range admits (NaN, ±infinity).
    var isUsableNumber: Bool { get }
}

extension OptionValue {
    public static var expected: String? { nil }
    public var isUsableNumber: Bool { true }
}

extension OptionValue where Self: LosslessStringConvertible {
    public init?(optionText: String) { self.init(optionText) }
    public var optionText: String { description }
}

extension String: OptionValue {}
extension Int: OptionValue {}
extension UInt64: OptionValue {}
extension Double: OptionValue {
    public var isUsableNumber: Bool { isFinite }
}

/// Every date option is a `Day`, parsed here once: `YYYY-MM-DD`, from year 0001 on (there is no
/// year 0 in the calendar or in PostgreSQL's dates).
extension Day: OptionValue {
    public init?(optionText: String) {
        guard let day = Day(iso: optionText), day.components.year >= 1 else { return nil }
        self = day
    }
    public var optionText: String { iso }
    public static var expected: String? { "a date YYYY-MM-DD" }
}

/// A list as one value, `--apps "quiz territory"`: words separated by spaces or commas, each a
/// value of `Element` (the text does not parse when one word does not); shown space-separated.
extension Array: OptionValue where Element: OptionValue {
    public init?(optionText: String) {
        var values: [Element] = []
        for word in optionText.split(whereSeparator: { $0 == " " || $0 == "," }) {
            guard let value = Element(optionText: String(word)) else { return nil }
            values.append(value)
        }
        self = values
    }
    public var optionText: String { map(\.optionText).joined(separator: " ") }
}

/// The values a numeric option admits; its message names the option as the command line spells it.
public struct OptionRange<V: Comparable> {
    public var lower: V?
    public var lowerOpen = false
    public var upper: V?
    public var upperOpen = false

    public static func atLeast(_ v: V) -> Self { .init(lower: v) }
    /// More than `v` (0 reads "a positive number").
    public static func above(_ v: V) -> Self { .init(lower: v, lowerOpen: true) }
    public static func within(_ r: ClosedRange<V>) -> Self { .init(lower: r.lowerBound, upper: r.upperBound) }
    public static func within(_ r: Range<V>) -> Self { .init(lower: r.lowerBound, upper: r.upperBound, upperOpen: true) }
    /// More than `lower`, at most `upper`: (lower, upper].
    public static func above(_ lower: V, atMost upper: V) -> Self { .init(lower: lower, lowerOpen: true, upper: upper) }

    public func contains(_ v: V) -> Bool {
        if let lower, lowerOpen ? !(v > lower) : !(v >= lower) { return false }
        if let upper, upperOpen ? !(v < upper) : !(v <= upper) { return false }
        return true
    }
}

extension OptionRange: Sendable where V: Sendable {}

extension OptionRange where V: OptionValue {
    /// "--name must be …", or nil when `v` lies in the range.
    func problem(_ v: V, name: String) -> String? {
        v.isUsableNumber && contains(v) ? nil : "\(name) must be \(phrase)"
    }

    var phrase: String {
        func text(_ v: V) -> String {
            if let d = v as? Double, d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
            return v.optionText
        }
        switch (lower, upper) {
        case let (lo?, nil) where lowerOpen && text(lo) == "0": return "a positive number"
        case let (lo?, nil) where lowerOpen: return "more than \(text(lo))"
        case let (lo?, nil) where text(lo) == "0": return "0 or more"
        case let (lo?, nil): return "at least \(text(lo))"
        case let (nil, hi?): return upperOpen ? "less than \(text(hi))" : "at most \(text(hi))"
        case let (lo?, hi?) where !lowerOpen && !upperOpen: return "in \(text(lo))…\(text(hi))"
        case let (lo?, hi?): return "in \(lowerOpen ? "(" : "[")\(text(lo)), \(text(hi))\(upperOpen ? ")" : "]")"
        case (nil, nil): return "a number"
        }
    }
}
