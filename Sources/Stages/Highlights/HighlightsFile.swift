// The highlights file: the curated country_highlights.json read and validated against the
// country set, and written back in a stable form (CONTRACTS §5).

import Foundation
import GeoModel

/// Every problem found in a highlights file, each naming the file, the country and the problem.
public struct HighlightsError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var problems: [String]
    public var description: String {
        "\(file): \(problems.count) problem\(problems.count == 1 ? "" : "s"):\n" + problems.map { "\(file): \($0)" }.joined(separator: "\n")
    }
}

extension HighlightsStage {
    public static let maxEntries = 5
    public static let lists = ["cities", "attractions"]

    public struct Entry: Sendable, Equatable {
        public var id: String
        public var cities: [String]
        public var attractions: [String]
        public init(id: String, cities: [String], attractions: [String]) { self.id = id; self.cities = cities; self.attractions = attractions }
    }

    // MARK: reading and validation

    /// Parses and validates a highlights file against the country set (`names`: id → display
    /// name). Collects every problem before failing.
    public static func load(bytes: [UInt8], file: String, names: [String: String]) throws -> [Entry] {
        let root = try JSONValue.parse(bytes, file: file)
        guard case .object(let obj) = root else { throw InputError(file: file, "must be a JSON object keyed by ISO code, not a \(root.kindName)") }
        var problems: [String] = []
        var entries: [Entry] = []
        var seen: Set<String> = []
        func label(_ id: String) -> String { names[id].map { "\(id) (\($0))" } ?? id }
        for (key, value) in obj {
            guard seen.insert(key).inserted else { problems.append("\(label(key)): the key appears twice"); continue }
            guard names[key] != nil else {
                problems.append("\(key): unknown key, not a country of the country set"); continue
            }
            guard case .object(let o) = value else { problems.append("\(label(key)): must be an object with \"cities\" and \"attractions\", not a \(value.kindName)"); continue }
            for extra in o.keys where !lists.contains(extra) { problems.append("\(label(key)): unexpected member \"\(extra)\" (only \"cities\" and \"attractions\")") }
            var values: [String: [String]] = [:]
            for list in lists {
                guard let v = o[list] else { problems.append("\(label(key)): \(list) is missing"); continue }
                guard case .array(let items) = v else { problems.append("\(label(key)): \(list) must be an array, not a \(v.kindName)"); continue }
                var strings: [String] = []
                for (i, item) in items.enumerated() {
                    guard case .string(let s) = item else { problems.append("\(label(key)): \(list)[\(i)] must be a string, not a \(item.kindName)"); continue }
                    strings.append(s)
                }
                problems += check(list: list, strings, label: label(key))
                values[list] = strings
            }
            entries.append(Entry(id: key, cities: values["cities"] ?? [], attractions: values["attractions"] ?? []))
        }
        for id in names.keys.sorted() where !seen.contains(id) { problems.append("\(label(id)): missing; every country of the country set needs an entry") }
        if !problems.isEmpty { throw HighlightsError(file: file, problems: problems) }
        return entries.sorted { $0.id < $1.id }
    }

    /// The problems of one list: its length, and each entry's text.
    static func check(list: String, _ items: [String], label: String) -> [String] {
        var out: [String] = []
        if items.isEmpty || items.count > maxEntries {
            out.append("\(label): \(list) has \(items.count) entries; 1 to \(maxEntries) are allowed")
        }
        var seen: [String: String] = [:]
        for s in items {
            // Most entries are printable ASCII: trimmed, already NFC, without control characters
            // when none of their bytes is white space or below 0x20 at the ends or anywhere.
            // Only the others go through Foundation's trimming and normalisation (slow).
            let plain = !s.isEmpty && s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } && s.utf8.first != 0x20 && s.utf8.last != 0x20
            let trimmed = plain ? s : s.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { out.append("\(label): \(list) has an empty entry \(s.debugDescription)"); continue }
            if s != trimmed { out.append("\(label): \(list) entry \(s.debugDescription) has leading or trailing white space") }
            if !plain && s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { out.append("\(label): \(list) entry \(s.debugDescription) contains a control character") }
            if s.contains("  ") { out.append("\(label): \(list) entry \(s.debugDescription) has a double space") }
            let nfc = plain ? s : s.precomposedStringWithCanonicalMapping
            if !plain && Array(s.utf8) != Array(nfc.utf8) {
                out.append("\(label): \(list) entry \(s.debugDescription) is not in Unicode NFC (write it precomposed: \(nfc.debugDescription))")
            }
            let key = nfc.lowercased()
            if let first = seen[key] { out.append("\(label): \(list) lists \(s.debugDescription) twice\(first == s ? "" : " (as \(first.debugDescription))")") } else { seen[key] = s }
        }
        return out
    }

    // MARK: writing

    /// The output: keys sorted by ISO code, "cities" then "attractions", two-space indent.
    public static func encode(_ entries: [Entry]) -> [UInt8] {
        var root = JSONObject()
        for e in entries.sorted(by: { $0.id < $1.id }) {
            var o = JSONObject()
            o["cities"] = .array(e.cities.map { .string($0) })
            o["attractions"] = .array(e.attractions.map { .string($0) })
            root[e.id] = .object(o)
        }
        var w = JSONWriter()
        w.value(.object(root), indent: 2)
        w.raw("\n")
        return w.bytes
    }
}
