import Foundation

/// A line of a batch query that is not `lat,lon` in range: its 1-based number and the problem.
public struct QueryLineError: Error, CustomStringConvertible, Sendable {
    public var line: Int
    public var message: String
    public var description: String { message }
}

/// The query loop of `geo-lookup`, here so that an app (or a script through the front) asks
/// the index the same way: `lat,lon` lines in, `lat,lon,country,city` lines out.
extension GeoLookup {
    /// One answer line: the coordinates as given, the ISO code (empty at sea), and the nearest
    /// city within `cityWithinKm` (empty when none; quoted as in CSV when the name holds a
    /// comma or a quote).
    public func answer(latText: ArraySlice<UInt8>, lonText: ArraySlice<UInt8>, latitude: Double, longitude: Double,
                       cityWithinKm: Double, into out: inout [UInt8]) {
        out += latText; out.append(0x2C); out += lonText; out.append(0x2C)
        if let c = country(at: latitude, longitude) { out.append(contentsOf: c.utf8) }
        out.append(0x2C)
        if let city = nearestCity(to: latitude, longitude, within: cityWithinKm) {
            if city.name.contains(",") || city.name.contains("\"") {
                out.append(0x22); out.append(contentsOf: city.name.replacingOccurrences(of: "\"", with: "\"\"").utf8); out.append(0x22)
            } else {
                out.append(contentsOf: city.name.utf8)
            }
        }
        out.append(0x0A)
    }

    /// Answers every `lat,lon` line of `input` in order, handing the answers to `write` in
    /// blocks. A bad line (empty, not two numbers, out of range) stops the batch: the answers
    /// of the lines before it are written first, then `QueryLineError` names it.
    public func answerBatch(_ input: [UInt8], cityWithinKm: Double, write: ([UInt8]) -> Void) throws {
        var out: [UInt8] = []
        out.reserveCapacity(min(input.count * 2, 1 << 21))
        defer { if !out.isEmpty { write(out) } }
        var lineNo = 0, start = 0
        while start < input.count {
            var end = start
            while end < input.count && input[end] != 0x0A { end += 1 }
            lineNo += 1
            var line = input[start..<end]
            start = end + 1
            if line.last == 0x0D { line = line.dropLast() }
            func fail(_ m: String) -> QueryLineError { QueryLineError(line: lineNo, message: m) }
            if line.isEmpty { throw fail("line \(lineNo) is empty; expected lat,lon") }
            guard let comma = line.firstIndex(of: 0x2C) else {
                throw fail("line \(lineNo): expected lat,lon, got \(String(decoding: line.prefix(60), as: UTF8.self).debugDescription)")
            }
            let a = Self.trim(line[line.startIndex..<comma]), b = Self.trim(line[(comma + 1)...])
            guard let lat = Double(String(decoding: a, as: UTF8.self)), let lon = Double(String(decoding: b, as: UTF8.self)) else {
                throw fail("line \(lineNo): expected two numbers lat,lon, got \(String(decoding: line.prefix(60), as: UTF8.self).debugDescription)")
            }
            guard abs(lat) <= 90, abs(lon) <= 180 else {
                throw fail("line \(lineNo): \(lat),\(lon) is outside latitude -90…90 / longitude -180…180")
            }
            answer(latText: a, lonText: b, latitude: lat, longitude: lon, cityWithinKm: cityWithinKm, into: &out)
            if out.count > 1 << 20 { write(out); out.removeAll(keepingCapacity: true) }
        }
    }

    static func trim(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = s
        while let f = s.first, f == 0x20 || f == 0x09 { s = s.dropFirst() }
        while let l = s.last, l == 0x20 || l == 0x09 { s = s.dropLast() }
        return s
    }
}
