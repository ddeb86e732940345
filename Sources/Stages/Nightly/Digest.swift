import Foundation
import GeoDigest
import GeoModel

/// SHA-256 of the night's inputs (GeoDigest's SHA256), computed on a thread of its own while the
/// night works: a night's runs are 500 MB. `result` is guarded by the semaphore: the thread writes
/// it before it signals, and `wait()` reads it only after.
final class InputsDigest: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<String, Error> = .success("")

    /// Starts hashing `files` (each must be readable).
    init(_ files: [String]) throws {
        for f in files where !FileManager.default.isReadableFile(atPath: f) {
            throw InputError(file: f, "cannot be read (is it built? run make)")
        }
        Thread.detachNewThread { [self] in
            result = Result {
                let sums = try files.map { try SHA256.hex(ofFile: $0) }
                // One file: its hash; several: the hash of "<sha256>  <path>" lines (sha256sum's form).
                return sums.count == 1 ? sums[0] : SHA256.hex(of: Array(zip(sums, files).map { "\($0)  \($1)\n" }.joined().utf8))
            }
            done.signal()
        }
    }

    /// The digest, once the thread is done.
    func wait() throws -> String {
        done.wait()
        done.signal()   // a second wait returns at once
        return try result.get()
    }
}
