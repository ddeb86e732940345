import GeoModel
import GeoPostgres

/// One app's part of the night. `apply` runs inside the app's transaction, after its advisory
/// lock is taken; it reads the live tables, refuses them when they break the contract
/// (throwing, so nothing is changed), writes the changes and returns the summary line.
public protocol AppNight {
    /// The files the night reads (their SHA-256 goes into geodata.nights).
    var inputs: [String] { get }
    mutating func apply(_ db: PostgresConnection, dryRun: Bool, log: StageLog) throws -> String
}

/// A live table that breaks the contract: refused, with the offending rows named.
public struct ContractError: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message + "; nothing was changed" }
}

extension PostgresConnection {
    /// `select`'s rows as the stages' readers of a CSV export read them: `copy (…) to stdout
    /// with (format csv, header)`, one line each, without its newline.
    public func csvLines(_ select: String) throws -> [Substring] {
        var lines: [Substring] = []
        try copyOut("copy (\(select)) to stdout with (format csv, header)") { lines.append(Substring(String(decoding: $0, as: UTF8.self))) }
        return lines
    }
}
