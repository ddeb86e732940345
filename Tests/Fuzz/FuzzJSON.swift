// libFuzzer entry point for the JSON tokenizer (make fuzz), through both of its users: the
// tree (`JSONValue.parse`) and the streaming readers (`GeoJSON.decode` over `FeatureStream.each`,
// and a typed decoder over `FeatureStream.read` and `each`). Any input must either be read or
// refused with a typed error; a crash, a hang, a sanitizer report or a broken invariant
// (below) is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    fuzzTree(bytes)
    fuzzGeoJSON(bytes)
    fuzzTypedDecoder(bytes)
    return 0
}

/// The tree: what it reads, written and read again, writes the same bytes.
func fuzzTree(_ bytes: [UInt8]) {
    do {
        let v = try JSONValue.parse(bytes, file: "fuzz")
        guard !hasShortPosition(v) else { return }  // such coordinates have no JSON to write
        var w = JSONWriter(coordinateDecimals: 17)
        w.value(v)
        let again = try JSONValue.parse(w.bytes, file: "fuzz-written")
        var w2 = JSONWriter(coordinateDecimals: 17)
        w2.value(again)
        precondition(w.bytes == w2.bytes, "the tree written and read again writes otherwise")
    } catch is InputError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
}

func hasShortPosition(_ v: JSONValue) -> Bool {
    switch v {
    case .coordinates(let t): return t.shortPositionIndex != nil
    case .array(let a): return a.contains(where: hasShortPosition)
    case .object(let o): return o.entries.contains { hasShortPosition($0.value) }
    default: return false
    }
}

/// GeoJSON: whatever decodes writes and reads back to as many features.
func fuzzGeoJSON(_ bytes: [UInt8]) {
    do {
        let features = try GeoJSON.decode(bytes, file: "fuzz")
        let again = try GeoJSON.decode(GeoJSON.encode(features, decimals: 15), file: "fuzz-roundtrip")
        precondition(again.count == features.count, "round trip changed the feature count")
    } catch is InputError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
}

/// A typed decoder (a feature's id and the sum of its coordinates, as a stage's decoder reads
/// runs): the streaming reader (`each`, on two workers) gives what the plain reader gives,
/// features, quarantined features and errors alike.
func fuzzTypedDecoder(_ bytes: [UInt8]) {
    func decode(_ c: inout JSONCursor, _ index: Int) throws -> Double {
        var sum = 0.0
        try c.object { c, key in
            switch key {
            case "id": if try c.peek() == 0x22 { c.featureID = try c.string() } else { try c.skip() }
            case "geometry":
                guard try c.peek() == 0x7B else { try c.skip(); return }
                try c.object { c, key in
                    guard key == "coordinates" else { try c.skip(); return }
                    try c.array { c in try c.array { c in sum += try c.number("coordinate") } }
                }
            default: try c.skip()
            }
        }
        return sum
    }
    func outcome(_ body: () throws -> FeatureStream.Read<Double>) -> String {
        do {
            let r = try body()
            return "\(r.features.map { "\($0.index):\($0.value.bitPattern)" }) \(r.rejected)"
        } catch let e as InputError {
            return "\(e)"
        } catch {
            fatalError("unexpected error type: \(error)")
        }
    }
    bytes.withUnsafeBufferPointer { buf in
        let plain = outcome { try FeatureStream.read(buf, file: "fuzz", workers: 1, decode) }
        let streamed = outcome { try FeatureStream.each(buf, file: "fuzz", workers: 2, makeState: { () }) { c, i, _ in try decode(&c, i) } }
        precondition(plain == streamed, "each gave \(streamed), read gave \(plain)")
    }
}
