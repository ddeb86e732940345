import Foundation
import Testing
@testable import GeoModel
@testable import IngestStage

/// Quiz answers (issue #12): what a player may type, and no answer shared by two countries.
@Suite struct AnswersTests {
    @Test(arguments: [("København", "Kobenhavn"), ("Chișinău", "Chisinau"), ("São Tomé and Príncipe", "Sao Tome and Principe"),
                      ("Reykjavík", "Reykjavik"), ("Nukuʻalofa", "Nuku'alofa"), ("Côte d’Ivoire", "Cote d'Ivoire"), ("Łódź", "Lodz"), ("plain", "plain")])
    func foldsDiacritics(_ pair: (String, String)) {
        #expect(Answers.asciiFold(pair.0) == pair.1)
    }

    @Test func keyIgnoresWhatAPlayerCannotTellApart() {
        #expect(Answers.key("St. John's") == Answers.key("Saint Johns"))
        #expect(Answers.key("Port-of-Spain") == Answers.key("port of spain"))
        #expect(Answers.key("Washington, D.C.") == Answers.key("washington, dc"))
        #expect(Answers.key("Kyiv") != Answers.key("Kiev"))
        #expect(Answers.key("Niger") != Answers.key("Nigeria"))
    }

    @Test func variantsAreWhatPlayersType() {
        #expect(Set(Answers.variants("St. John's")) == ["Saint John's", "St John's"])
        #expect(Answers.variants("Brasília") == ["Brasilia"])
        #expect(Set(Answers.variants("Port-of-Spain")) == ["Port of Spain"])
        #expect(Answers.variants("London").isEmpty)
        // A word that merely starts like Saint is left alone.
        #expect(Answers.variants("Stanley").isEmpty)
    }

    @Test func aliasesKeepOrderAndDropRepeats() {
        let a = Answers.aliases(main: "Copenhagen", explicit: ["København", "københavn", "Copenhagen"])
        #expect(a == ["København", "Kobenhavn"])
        let b = Answers.aliases(main: "São Tomé and Príncipe", explicit: ["Sao Tome and Principe"])
        #expect(b == ["Sao Tome and Principe"])
    }

    @Test func ingestGivesEnglishCapitalsAndTheirOtherForms() throws {
        let dir = temporaryDirectory()
        var o = IngestStage.Options.standard(dataDir: Repo.path("data"), units: try Slices.file(Repo.units10m, ["UKR", "DNK", "CZE"], in: dir))
        o.countrySetPath = writeFile(dir, "set.txt", "UA\nDK\nCZ\n")
        let (features, report) = try IngestStage.build(o, log: StageLog(stage: "test", quiet: true))
        let by = Dictionary(uniqueKeysWithValues: features.map { ($0.id!, $0) })
        func list(_ id: String, _ key: String) -> [String] { by[id]!.properties[key]!.arrayValue!.compactMap(\.stringValue) }
        #expect(by["UA"]!.string("capital") == "Kyiv" && list("UA", "capitalAliases").contains("Kiev"))
        #expect(by["DK"]!.string("capital") == "Copenhagen" && list("DK", "capitalAliases") == ["København", "Kobenhavn"])
        #expect(by["CZ"]!.string("name") == "Czechia" && list("CZ", "aliases").contains("Czech Republic"))
        #expect(report.capitalDisagreements.isEmpty)
        #expect(report.capitalsResolved.contains { $0.hasPrefix("UA (Ukraine): Natural Earth \"Kiev\", GeoNames \"Kyiv\"") })
    }

    @Test func anAliasOfTwoCountriesStopsIngest() throws {
        let dir = temporaryDirectory()
        var o = IngestStage.Options.standard(dataDir: Repo.path("data"), units: try Slices.file(Repo.units10m, ["CIV", "GHA"], in: dir))
        o.countrySetPath = writeFile(dir, "set.txt", "CI\nGH\n")
        o.nameAliasesPath = writeFile(dir, "name_aliases.tsv", "id\talias\treason\nGH\tivory-coast\ta mistake\n")
        let error = try #require(throws: StageError.self) { try IngestStage.build(o, log: StageLog(stage: "test", quiet: true)) }
        #expect("\(error)".contains("name answer \"ivory-coast\" of GH equals \"Ivory Coast\" of CI"), "\(error)")
    }

    @Test func anUndecidedDisagreementIsReported() throws {
        let dir = temporaryDirectory()
        var o = IngestStage.Options.standard(dataDir: Repo.path("data"), units: try Slices.file(Repo.units10m, ["UKR"], in: dir))
        o.countrySetPath = writeFile(dir, "set.txt", "UA\n")
        o.capitalsPath = writeFile(dir, "capitals.tsv", "id\tcapital\tplace\tlat\tlon\treason\n")
        let (features, report) = try IngestStage.build(o, log: StageLog(stage: "test", quiet: true))
        #expect(features[0].string("capital") == "Kiev")
        #expect(report.capitalDisagreements == ["UA (Ukraine): Natural Earth \"Kiev\", GeoNames \"Kyiv\"; no row in \(o.capitalsPath) decides"])
    }
}
