import Foundation
import GeoDigest
import GeoModel
import Parallelism

/// SHA-256 of the night's inputs (GeoDigest's SHA256), computed in the background while the
/// night works (a night's runs are 500 MB): one file, its hash; several, the hash of
/// "<sha256>  <path>" lines (sha256sum's form). Each file must be readable, checked at once.
func inputsDigest(_ files: [String]) throws -> Background<String> {
    for f in files where !FileManager.default.isReadableFile(atPath: f) {
        throw InputError(file: f, "cannot be read (is it built? run make)")
    }
    return Background {
        let sums = try files.map { try SHA256.hex(ofFile: $0) }
        return sums.count == 1 ? sums[0] : SHA256.hex(of: Array(zip(sums, files).map { "\($0)  \($1)\n" }.joined().utf8))
    }
}
