import CalendarDay
import Testing
import GeoModel
import Geodesy
@testable import ReleaseStage

/// The changelog's country section: every visible change, nothing for an unchanged country.
@Suite struct ChangesTests {
    static func country(_ id: String, capital: String, x: Double) -> Feature {
        Feature(id: id, properties: JSONObject([("name", .string(id + "land")), ("capital", .string(capital))]),
                geometry: .polygon(Polygon(rings: [[Point(x, 0), Point(x + 1, 0), Point(x + 1, 1), Point(x, 1), Point(x, 0)]])))
    }

    @Test func onlyChangedCountriesAppear() {
        let old = [Self.country("AA", capital: "A", x: 0), Self.country("BB", capital: "B", x: 5), Self.country("CC", capital: "C", x: 9)]
        var moved = Self.country("AA", capital: "A", x: 0)
        moved.geometry = .polygon(Polygon(rings: [[Point(0, 0), Point(1, 0), Point(1.02, 1), Point(0, 1), Point(0, 0)]]))
        let new = [moved, Self.country("BB", capital: "B2", x: 5), Self.country("DD", capital: "D", x: 20)]
        let c = Changes.compareCountries(old, new)
        #expect(c.map(\.id) == ["AA", "BB", "CC", "DD"])
        #expect(c[0].geometryKm.map { abs($0 - 2.22) < 0.05 } == true && c[0].fields.isEmpty && (c[0].areaPct ?? 0) > 0)
        #expect(c[1].geometryKm == nil && c[1].fields.map(\.0) == ["capital"] && c[1].fields[0].2 == .string("B2"))
        #expect(c[2].status == "removed" && c[3].status == "added")
    }

    @Test func quizDaysBeforeTheReleaseDayMustNotChange() {
        typealias Q = ReleaseSnapshot.QuizDay
        let old = ["2026-11-24": Q(type: "flag", answer: "FR"), "2026-11-25": Q(type: "capital", answer: "PT"), "2026-11-26": Q(type: "flag", answer: "ES")]
        var new = old
        new["2026-11-24"] = Q(type: "flag", answer: "DE")       // a past day: refused
        new["2026-11-26"] = Q(type: "country", answer: "ES")    // a coming day: reported
        new["2026-11-27"] = Q(type: "flag", answer: "IT")       // appended
        let pt = Changes.Country(id: "PT", name: "Portugal", status: "changed", geometryKm: 4)
        let q = Changes.compareQuiz(old, new, day: Day(iso: "2026-11-25")!, changed: ["PT": pt])
        #expect(q.pastChanged.map(\.date) == ["2026-11-24"])
        #expect(q.futureChanged.map(\.date) == ["2026-11-26"])
        #expect(q.added == ["2026-11-27"])
        #expect(q.answersChanged.map(\.date) == ["2026-11-25"] && q.answersChanged[0].what == ["geometry"])
    }

    @Test func probeIsEvenAndTheSameEveryRun() {
        let p = Changes.probePoints(1000)
        #expect(p == Changes.probePoints(1000))
        let north = p.filter { $0.latitude > 0 }.count
        #expect(north == 500)
        #expect(p.allSatisfy { abs($0.latitude) <= 90 && abs($0.longitude) <= 180 })
    }
}
