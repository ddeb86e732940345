import GeoModel

/// SQL files written for psql or the Supabase CLI carry their own `begin;` … `commit;`. The night
/// runs them inside the app's ONE transaction, where a `commit` would end it halfway: so their
/// transaction lines come out first.
public enum SQLScript {
    /// `text` without its one `begin;` line and its one `commit;` line (leading white space
    /// allowed); a text with neither is returned as it is; anything else is refused, naming `source`.
    public static func withoutTransaction(_ text: String, source: String) throws -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func find(_ s: String) -> [Int] { lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces) == s } }
        let begins = find("begin;"), commits = find("commit;")
        if begins.isEmpty && commits.isEmpty { return text }
        guard begins.count == 1, commits.count == 1, begins[0] < commits[0] else {
            throw InputError(file: source, "has \(begins.count) \"begin;\" and \(commits.count) \"commit;\" lines; expected one of each around its statements (was it written by the pipeline? run make)")
        }
        lines.remove(at: commits[0])
        lines.remove(at: begins[0])
        return lines.joined(separator: "\n")
    }
}
