// What `geo-nightly` needs of the cities stage: the seed's statements without the seed's own
// `begin;`/`commit;`, so that the night runs migration, seed and its record in ONE transaction
// (a `commit` inside would end it halfway).

import GeoModel

extension CitiesStage {
    /// `seed.sql`'s text (as `seed(countries:cities:header:)` writes it) without its transaction
    /// lines. A text without exactly one `begin;` and one `commit;` line did not come from this
    /// stage and is refused, naming `source`.
    public static func seedStatements(_ text: String, source: String) throws -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let begins = lines.indices.filter { lines[$0] == "begin;" }, commits = lines.indices.filter { lines[$0] == "commit;" }
        guard begins.count == 1, commits.count == 1, begins[0] < commits[0] else {
            throw InputError(file: source, "is not a seed written by geo-cities (expected one \"begin;\" line and one \"commit;\" line; run make cities)")
        }
        lines.remove(at: commits[0])
        lines.remove(at: begins[0])
        return lines.joined(separator: "\n")
    }
}
