import Foundation
import GeoModel
import H3

/// What `geo-hexagons` does, as a library over H3 the apps and scripts can call too: cells of
/// points, polygon filling with a bound on its size, cell boundaries, disks.
public enum Hexagons {
    /// The most cells `polyfill` answers with: about 80 MB of ids (and a few times that while
    /// they are sorted). A France-sized box at resolution 15 would be some 10¹¹ cells.
    public static let defaultMaxCells = 10_000_000

    /// A cell id as h3 writes it, checked.
    public static func cell(_ s: String) throws -> H3Index {
        guard let h = H3Index(string: s), H3.isValidCell(h) else { throw H3Error.invalidCell(s) }
        return h
    }

    /// The cells (centre inside) of all `polygons` at `res`, sorted and without repeats. Refuses
    /// before any work when h3's own bound on the answer (`H3.maxPolygonToCellsSize`, summed
    /// over the polygons) exceeds `maxCells`, with that estimate in the message.
    public static func polyfill(_ polygons: [GeoPolygon], res: Int, maxCells: Int = defaultMaxCells, file: String) throws -> [H3Index] {
        guard (0...15).contains(res) else { throw H3Error.invalidResolution(res) }
        var estimate = 0
        for p in polygons {
            do { estimate = estimate.addingReportingOverflow(try H3.maxPolygonToCellsSize(p, res: res)).partialValue } catch { throw HexagonsError("\(file): \(error)") }
        }
        guard estimate <= maxCells else {
            throw HexagonsError("\(file): filling at resolution \(res) would give up to \(formatCount(estimate)) cells (h3's maxPolygonToCellsSize estimate), more than the limit of \(formatCount(maxCells)) (--max-cells); choose a coarser --res or a smaller area")
        }
        var cells = Set<H3Index>()
        for p in polygons {
            do { cells.formUnion(try H3.polygonToCells(p, res: res)) } catch { throw HexagonsError("\(file): \(error)") }
        }
        return cells.sorted()
    }

    /// `lat,lon` lines (degrees) → one cell id per line; a bad line stops it, naming the line,
    /// after the answers before it.
    public static func cells(res: Int, lines next: () -> String?, out: inout LineWriter) throws {
        guard (0...15).contains(res) else { throw H3Error.invalidResolution(res) }
        var n = 0
        defer { out.flush() }
        while let raw = next() {
            n += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            let parts = line.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2,
                  let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                  let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)) else {
                throw HexagonsError("stdin line \(n): expected \"lat,lon\" in degrees, got \"\(raw)\"")
            }
            guard lat.isFinite && lon.isFinite else {
                throw HexagonsError("stdin line \(n): latitude and longitude must be finite numbers, got \"\(raw)\"")
            }
            do {
                out.line(try H3.latLngToCell(LatLng(latDegrees: lat, lngDegrees: lon), res: res).description)
            } catch {
                throw HexagonsError("stdin line \(n): \(error)")
            }
        }
    }

    /// Cell id lines → the cells, checked (empty lines skipped); a bad id names its line.
    public static func cellList(lines next: () -> String?) throws -> [H3Index] {
        var cells: [H3Index] = []
        var n = 0
        while let raw = next() {
            n += 1
            let s = raw.trimmingCharacters(in: .whitespaces)
            if s.isEmpty { continue }
            do { cells.append(try cell(s)) } catch { throw HexagonsError("stdin line \(n): \(error)") }
        }
        return cells
    }
}

/// A problem with geo-hexagons' input, said in full (file or line, and what is wrong).
public struct HexagonsError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ d: String) { description = d }
}
