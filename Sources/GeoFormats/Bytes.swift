extension Array where Element == UInt8 {
    /// Appends `v` in little-endian byte order, as glb, usdc and zip all store integers: the one
    /// integer writer of the binary formats (give the width by the type: `UInt32(n)`).
    mutating func appendLE<T: FixedWidthInteger>(_ v: T) {
        var x = v.littleEndian
        Swift.withUnsafeBytes(of: &x) { append(contentsOf: $0) }
    }
}
