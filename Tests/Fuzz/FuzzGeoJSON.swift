// libFuzzer entry point for the GeoJSON reader (make fuzz). Any input must either decode or
// throw a typed error; a crash, hang or sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let features = try GeoJSON.decode(bytes, file: "fuzz")
        // Whatever decodes must also write and read back to the same features.
        let again = try GeoJSON.decode(GeoJSON.encode(features, decimals: 15), file: "fuzz-roundtrip")
        precondition(again.count == features.count, "round trip changed the feature count")
    } catch is InputError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
