import Foundation
import GeoLookup
import GeoModel

/// geo-lookup's command line before ArgumentParser sees it.
extension LookupStage {
    /// `geo-lookup -q build …` (flags first, as the bad-input harness calls every stage) becomes
    /// `geo-lookup build -q …`; and since coordinates may be negative, which ArgumentParser
    /// would read as options ("-33.87"), a "--" goes before the first number that is not the
    /// value of `valuedOptions`.
    public static func normalisedArguments(_ arguments: [String], valuedOptions: Set<String> = ["--index", "--city-km"]) -> [String] {
        var args = arguments
        if let b = args.firstIndex(of: "build"), b > 0, args[..<b].allSatisfy({ $0 == "-q" || $0 == "--quiet" }) {
            args.remove(at: b)
            args.insert("build", at: 0)
        }
        if !args.contains("--"), args.first != "build", args.first != "bench" {
            var i = 0
            while i < args.count {
                if valuedOptions.contains(args[i]) { i += 2; continue }
                if Double(args[i]) != nil { args.insert("--", at: i); break }
                i += 1
            }
        }
        return args
    }
}

extension LookupStage {
    /// The index at `path`, read and checked; a bad file is an error naming it.
    public static func openIndex(_ path: String) throws -> GeoLookup {
        let bytes = try FileIO.readBytes(path)
        do { return try GeoLookup(data: Data(bytes)) } catch let e as LookupIndexError { throw InputError(file: path, e.message) }
    }
}
