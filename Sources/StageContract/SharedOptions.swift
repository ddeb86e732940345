/// Options a library declares once for every stage that takes them (the territory's runs,
/// shard, rejects and threads: `geo-territory` and `geo-nightly`). A stage holds the library's
/// options as one field and lists their declarations through it; no stage restates them.
extension StageOption {
    /// This option, declared over `Root`, as an option of `Outer`, which holds a `Root` at `path`:
    /// the same name, help, default, parsing and range.
    public func nested<Outer>(at path: WritableKeyPath<Outer, Root> & Sendable) -> StageOption<Outer> {
        let apply = self.apply, defaultText = self.defaultText, problem = self.problem, invalid = self.invalid
        let outerKind: StageOption<Outer>.Kind
        switch kind {
        case .argument(let required): outerKind = .argument(required: required)
        case .option: outerKind = .option
        case .flag(let inversion): outerKind = .flag(inversion: inversion)
        }
        return .init(name: name, short: short, aliases: aliases, deprecatedAliases: deprecatedAliases, help: help, kind: outerKind,
                     invalid: invalid, isRequired: isRequired,
                     apply: { outer, text in apply(&outer[keyPath: path], text) },
                     defaultText: { defaultText($0[keyPath: path]) },
                     problem: { problem($0[keyPath: path]) })
    }
}
