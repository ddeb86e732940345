import Foundation
import GeoModel

/// A file written under a temporary name beside its target and renamed into place by
/// `commit` (or removed by `discard`). A target that is a symlink, a FIFO or a device is
/// written at `commit` instead, through `FileIO.writeAtomically`'s own handling.
final class StagedFile {
    let target: String
    let path: String
    private let direct: Bool
    private var done = false

    init(dir: String, name: String) {
        target = "\(dir)/\(name)"
        var st = stat()
        direct = lstat(target, &st) == 0 && st.st_mode & S_IFMT != S_IFREG
        path = direct ? target : "\(dir)/.\(name).staged-\(getpid())"
    }

    func commit() throws {
        guard !direct else { done = true; return }
        try FileIO.moveIntoPlace(path, target, named: target)
        done = true
    }

    func discard() { if !done && !direct { unlink(path) } }
}
