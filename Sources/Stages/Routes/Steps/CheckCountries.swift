import Foundation
import GeoLookup
import GeoModel

extension RoutesStage {
    /// Every location must lie in its route's country by the offline lookup (o.index): the
    /// same answer the apps get.
    static func checkCountries(_ routes: [Route], _ o: Options, log: StageLog) throws {
        let lookup: GeoLookup
        let indexBytes = try FileIO.readBytes(o.index)
        do { lookup = try GeoLookup(data: Data(indexBytes)) } catch let e as LookupIndexError { throw InputError(file: o.index, e.message) }
        for r in routes {
            for l in r.locations {
                let found = lookup.country(at: l.latitude, l.longitude)
                guard found == r.country else {
                    throw InputError(file: o.input, "line \(l.line) (\(l.label) at \(l.latitude), \(l.longitude)): the lookup puts it \(found.map { "in \($0)" } ?? "at sea"), not in the route's country \(r.country)")
                }
            }
        }
        log.info("\(routes.count) routes: every location lies in its route's country")
    }
}
