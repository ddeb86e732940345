// Typed errors that carry what a person needs to find the problem: the file, the feature
// (index and name) and what is wrong with it.

/// A problem with an input: `file`, then the feature (if any), then the problem.
public struct InputError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var feature: FeatureRef?
    public var problem: String

    public init(file: String, feature: FeatureRef? = nil, _ problem: String) {
        self.file = file; self.feature = feature; self.problem = problem
    }

    public var description: String {
        if let f = feature { return "\(file): \(f): \(problem)" }
        return "\(file): \(problem)"
    }
}

/// Which feature an error is about: its 0-based index in the input and what it is called.
public struct FeatureRef: CustomStringConvertible, Sendable {
    public var index: Int?
    public var name: String?
    public var id: String?
    public init(index: Int?, name: String?, id: String? = nil) { self.index = index; self.name = name; self.id = id }

    public var description: String {
        var parts: [String] = []
        if let i = index { parts.append("feature #\(i)") } else { parts.append("feature") }
        if let n = name { parts.append("\"\(n)\"") }
        if let id = id { parts.append("(id \(id))") }
        return parts.joined(separator: " ")
    }
}

/// Runs `body` for one feature: an error that does not already name a file (a GEOS, PROJ or
/// stage error from deep inside the work) comes out as an InputError naming the file and
/// the feature, so every stage reports failures the same way.
public func forFeature<T>(file: String, _ feature: FeatureRef?, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as InputError { throw e } catch {
        throw InputError(file: file, feature: feature, "\(error)")
    }
}

/// `forFeature` for work on a whole file (no single feature to name).
public func forFile<T>(_ file: String, _ body: () throws -> T) throws -> T { try forFeature(file: file, nil, body) }

/// An error from a stage's own logic that is not about one input feature.
public struct StageError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
