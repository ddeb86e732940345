import Foundation
import GeoModel
import PopulatedPlaces

extension IngestStage {
    /// Each country's attributes (cheap, sequential, first error wins): its units share a
    /// sovereign, its name, continent, capital and the answers a player may type.
    static func countryJobs(_ o: Options, _ groups: [String: [Unit]], pointUnits: [String: Unit], _ tables: Tables, places: Places,
                            report: inout Report) throws -> [CountryJob] {
        let (names, continents, capitals, geonames) = (tables.names, tables.continents, tables.capitals, tables.geonames)
        let (nameAliases, capitalAliases) = (tables.nameAliases, tables.capitalAliases)
        var jobs: [CountryJob] = []
        for id in groups.keys.sorted() {
            let group = groups[id]!.sorted { ($0.area, $1.suA3) > ($1.area, $0.suA3) }
            let main = group[0]
            // Units sharing an id must share a sovereign, unless the remap table folds them in.
            let native = group.filter { !$0.remapped }
            if let first = native.first, let other = native.first(where: { $0.sovA3 != first.sovA3 }) {
                throw InputError(file: o.input, feature: other.ref,
                                 "maps to \(id) like \(first.ref), but belongs to sovereign \(other.sovA3), not \(first.sovA3); add a row to \(o.remapsPath) if this is a dissolve")
            }
            if group.count > 1 { report.dissolved.append((id, group.map(\.suA3).sorted())) }
            let name = names[id]?["name"] ?? main.feature.string("NAME_LONG") ?? main.feature.string("NAME") ?? id
            let continent = try resolveContinent(id: id, main: main, continents: continents, file: o.input)
            let capital = try resolveCapital(id: id, table: capitals, places: places, tablePath: o.capitalsPath, strict: !o.allUnits,
                                             geonames: geonames[id])
            compareCapitals(id: id, name: name, table: capitals, places: places, geonames: geonames[id],
                            hasGeonames: o.geonamesPath != nil, report: &report, tablePath: o.capitalsPath)
            if capital == nil && capitals[id] == nil { report.warnings.append("\(id) (\(name)): no capital found; add a row to \(o.capitalsPath)") }
            if pointUnits[id] != nil && capital == nil {
                throw InputError(file: o.capitalsPath, "\(id) (\(name)) has no polygon in \(o.input) and no capital to place its point at")
            }
            // With a name override on a country of several units the largest unit is a part
            // (England), so only its ADMIN speaks for the whole country.
            let partNamed = names[id] != nil && group.filter { !$0.remapped }.count > 1
            var explicitNames = aliases(name: name, main: main, overridden: partNamed)
            if let g = geonames[id]?["name"], !g.isEmpty { explicitNames.append(g) }
            explicitNames += nameAliases[id, default: []]
            let nameAnswers = Answers.aliases(main: name, explicit: explicitNames)
            var capitalAnswers: [String] = []
            if let c = capital {
                let ownKeys = Set(([name] + nameAnswers).map(Answers.key))
                for a in Answers.aliases(main: c.name, explicit: (c.placeName.map { [$0] } ?? []) + capitalAliases[id, default: []]) {
                    if ownKeys.contains(Answers.key(a)) {
                        report.droppedAliases.append("\(id): capital alias \"\(a)\" is the country's name, so it would give the answer away")
                    } else {
                        capitalAnswers.append(a)
                    }
                }
            }
            jobs.append(CountryJob(id: id, group: group, name: name, continent: continent, capital: capital, isPoint: pointUnits[id] != nil,
                            aliases: nameAnswers, capitalAliases: capitalAnswers))
        }
        return jobs
    }
}
