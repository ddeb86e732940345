// The only code that imports CLibPQ (Debian's libpq): a connection owned by a Swift type and
// closed in deinit, parameterised queries, COPY in and out, transactions and advisory locks,
// and errors that say which server, database and user failed — never the password.

import CLibPQ
import Foundation

/// Where a connection goes, as libpq resolved it (URI or conninfo, then PG* variables and
/// defaults). The password is kept only to scrub it from messages; it is never printed.
public struct PostgresTarget: Sendable, CustomStringConvertible {
    public var host: String
    public var port: String
    public var database: String
    public var user: String
    fileprivate var password: String?

    /// "user@host:port/database", the form every error and log line uses.
    public var description: String { "\(user)@\(host):\(port)/\(database)" }

    /// `text` with every occurrence of the password replaced (a malformed conninfo can make
    /// libpq quote part of it back).
    public func scrub(_ text: String) -> String {
        guard let p = password, !p.isEmpty else { return text }
        return text.replacingOccurrences(of: p, with: "********")
    }
}

public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable { case connect, query, copy, busy }
    public var kind: Kind
    public var target: PostgresTarget
    /// What was being done: "connect", "exec <first words of the statement>", "copy into …".
    public var operation: String
    /// The server's or libpq's message, with the password scrubbed.
    public var message: String
    /// SQLSTATE when the server sent one (e.g. 3D000 missing database, 28P01 wrong password).
    public var sqlState: String?

    public var description: String {
        "PostgreSQL \(target): \(operation) failed: \(message)" + (sqlState.map { " [SQLSTATE \($0)]" } ?? "")
    }
}

/// A query's result, copied out of libpq (the PGresult is freed at once): text values, nil for NULL.
public struct PostgresRows: Sendable {
    public var columns: [String]
    public var rows: [[String?]]
    /// Rows the command touched (INSERT/UPDATE/DELETE/COPY), or returned for a SELECT.
    public var affected: Int
    public var first: [String?]? { rows.first }
    /// The first column of the first row (nil for no row or NULL).
    public var scalar: String? { rows.first?.first ?? nil }
}

public final class PostgresConnection {
    private var conn: OpaquePointer?
    public let target: PostgresTarget

    /// Connects to `conninfo` (a `postgresql://` URI or `key=value …`; empty: the PG*
    /// environment). A server that does not answer in `connectTimeout` seconds is an error.
    public init(_ conninfo: String, applicationName: String = "geo-nightly", connectTimeout: Int = 10) throws {
        let password = Self.password(in: conninfo)
        // libpq's message for a string it cannot parse may quote it (a URI whole), password and all.
        let hidesPassword = password == nil && Self.mayCarryPassword(conninfo)
        // Defaults first, then the caller's string, which overrides them (expand_dbname).
        let keys = ["connect_timeout", "application_name", "dbname"]
        let values = ["\(connectTimeout)", applicationName, conninfo]
        let c = Self.withCStrings(keys) { k in Self.withCStrings(values) { v in PQconnectdbParams(k, v, 1) } }
        func text(_ f: (OpaquePointer?) -> UnsafeMutablePointer<CChar>?) -> String? { f(c).map { String(cString: $0) } }
        var t = PostgresTarget(host: text(PQhost) ?? "?", port: text(PQport) ?? "?", database: text(PQdb) ?? "?",
                               user: text(PQuser) ?? "?", password: password)
        if t.host.isEmpty { t.host = "localhost" }
        if t.port.isEmpty { t.port = "5432" }
        target = t
        guard let c, PQstatus(c) == CONNECTION_OK else {
            let raw = c.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(c)
            let message = hidesPassword
                ? "the connection string is not a valid libpq URI or conninfo (libpq's message is not shown: it would quote the password)"
                : t.scrub(Self.tidy(raw))
            throw PostgresError(kind: .connect, target: t, operation: "connect", message: message,
                                sqlState: Self.connectState(raw))
        }
        conn = c
        PQsetNoticeProcessor(c, { _, _ in }, nil)   // notices (e.g. "already exists, skipping") are noise here
    }

    deinit { PQfinish(conn) }

    /// The libpq handle, for this module's other files (notifications); never leaves it.
    var handle: OpaquePointer? { conn }

    /// The password a conninfo or URI carries, only to scrub it from messages.
    static func password(in conninfo: String) -> String? {
        var err: UnsafeMutablePointer<CChar>?
        guard let opts = PQconninfoParse(conninfo, &err) else { PQfreemem(err); return nil }
        defer { PQconninfoFree(opts) }
        var p = opts
        while let k = p.pointee.keyword {
            if String(cString: k) == "password", let v = p.pointee.val { return String(cString: v) }
            p += 1
        }
        return nil
    }

    /// For a string libpq cannot parse (so `password(in:)` found none): whether it looks like it
    /// carries one anyway — a URI with "user:password@", or a "password" key.
    static func mayCarryPassword(_ conninfo: String) -> Bool {
        if let scheme = conninfo.range(of: "://") {
            let authority = conninfo[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
            if let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") { return true }
        }
        return conninfo.range(of: "password", options: .caseInsensitive) != nil
    }

    /// libpq's connection failures carry no SQLSTATE; these are the ones a person must tell apart.
    static func connectState(_ raw: String) -> String? {
        if raw.contains("password authentication failed") || raw.contains("no password supplied") { return "28P01" }
        if raw.contains("does not exist") && raw.contains("database") { return "3D000" }
        return nil
    }

    static func tidy(_ s: String) -> String {
        s.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let dup = strings.map { strdup($0) }
        defer { dup.forEach { free($0) } }
        var ptrs: [UnsafePointer<CChar>?] = dup.map { UnsafePointer($0) }
        ptrs.append(nil)
        return ptrs.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private func fail(_ kind: PostgresError.Kind, _ operation: String, result: OpaquePointer?) -> PostgresError {
        var msg = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
        if msg.isEmpty { msg = String(cString: PQerrorMessage(conn)) }
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
        return PostgresError(kind: kind, target: target, operation: operation, message: target.scrub(Self.tidy(msg)), sqlState: state)
    }

    private static func label(_ sql: String) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(6).joined(separator: " ")
        return words.count > 70 ? String(words.prefix(70)) + "…" : words
    }

    private func collect(_ r: OpaquePointer) -> PostgresRows {
        let nr = Int(PQntuples(r)), nc = Int(PQnfields(r))
        let cols = (0..<nc).map { String(cString: PQfname(r, Int32($0))) }
        var rows: [[String?]] = []
        rows.reserveCapacity(nr)
        for i in 0..<nr {
            rows.append((0..<nc).map { j in
                PQgetisnull(r, Int32(i), Int32(j)) == 1 ? nil : String(cString: PQgetvalue(r, Int32(i), Int32(j)))
            })
        }
        let tuples = String(cString: PQcmdTuples(r))
        return PostgresRows(columns: cols, rows: rows, affected: Int(tuples) ?? nr)
    }

    /// One statement with `$1, $2, …` bound to `params` as text (nil: NULL).
    @discardableResult
    public func query(_ sql: String, _ params: [String?] = []) throws -> PostgresRows {
        let dup = params.map { $0.map { strdup($0) } ?? nil }
        defer { dup.forEach { free($0) } }
        let ptrs: [UnsafePointer<CChar>?] = dup.map { $0.map { UnsafePointer($0) } }
        let r = ptrs.withUnsafeBufferPointer { PQexecParams(conn, sql, Int32(params.count), nil, $0.baseAddress, nil, nil, 0) }
        defer { PQclear(r) }
        switch PQresultStatus(r) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return collect(r!)
        default: throw fail(.query, "query \(Self.label(sql))", result: r)
        }
    }

    /// A script of statements without parameters (a migration file), run as libpq's simple
    /// query: the statements of one call run in one implicit transaction unless inside ours.
    public func execute(_ script: String, name: String) throws {
        let r = PQexec(conn, script)
        defer { PQclear(r) }
        switch PQresultStatus(r) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default: throw fail(.query, "run \(name)", result: r)
        }
    }

    /// `COPY … FROM STDIN`: `body` hands rows to the writer, which sends them in chunks as they
    /// come (nothing is held beyond one chunk). Text rows by default; with `binary`, the SQL gets
    /// `with (format binary)`, the rows are binary tuples (GeoFormats' CopyBinaryRow) and the
    /// writer adds the format's signature and end mark. Returns the rows copied. An error from
    /// `body` aborts the COPY (the server discards it) and is rethrown.
    @discardableResult
    public func copyIn(_ sql: String, binary: Bool = false, _ body: (inout CopyWriter) throws -> Void) throws -> Int {
        let op = "copy \(Self.label(sql))"
        let start = PQexec(conn, binary ? sql + " with (format binary)" : sql)
        let status = PQresultStatus(start)
        guard status == PGRES_COPY_IN else {
            defer { PQclear(start) }
            throw fail(.copy, op, result: start)
        }
        PQclear(start)
        var writer = CopyWriter(connection: self)
        var bodyError: Error? = nil
        do {
            if binary { writer.raw(Self.binaryCopyHeader) }
            try body(&writer)
            if binary { writer.raw(Self.binaryCopyTrailer) }
            try writer.flush()
        } catch { bodyError = error }
        let end = bodyError == nil ? PQputCopyEnd(conn, nil) : PQputCopyEnd(conn, "aborted by the client")
        // The body's own error first (it says what was wrong with the rows; libpq's, that the
        // connection went with it).
        guard end == 1 else { throw bodyError ?? fail(.copy, op, result: nil) }
        var failure: PostgresError? = nil
        var copied = 0
        while let r = PQgetResult(conn) {
            if PQresultStatus(r) != PGRES_COMMAND_OK, failure == nil { failure = fail(.copy, op, result: r) }
            else { copied = Int(String(cString: PQcmdTuples(r))) ?? 0 }
            PQclear(r)
        }
        if let bodyError { throw bodyError }
        if let failure { throw failure }
        return copied
    }

    /// The binary COPY signature, flags (no OIDs) and an empty header extension; the end mark,
    /// a field count of -1.
    static let binaryCopyHeader: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    static let binaryCopyTrailer: [UInt8] = [0xFF, 0xFF]

    fileprivate func putCopyData(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        let rc = PQputCopyData(conn, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        guard rc == 1 else { throw fail(.copy, "copy data", result: nil) }
    }

    /// `COPY (…) TO STDOUT`: each line (without its newline) is handed to `line` as bytes.
    public func copyOut(_ sql: String, _ line: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let op = "copy \(Self.label(sql))"
        let start = PQexec(conn, sql)
        guard PQresultStatus(start) == PGRES_COPY_OUT else {
            defer { PQclear(start) }
            throw fail(.copy, op, result: start)
        }
        PQclear(start)
        var lineError: Error? = nil
        while true {
            var buf: UnsafeMutablePointer<CChar>? = nil
            let n = PQgetCopyData(conn, &buf, 0)
            if n == -1 { break }
            if n == -2 { throw fail(.copy, op, result: nil) }
            if let buf, lineError == nil {
                var len = Int(n)
                if len > 0 && buf[len - 1] == 0x0A { len -= 1 }
                do { try buf.withMemoryRebound(to: UInt8.self, capacity: len) { try line(UnsafeBufferPointer(start: $0, count: len)) } }
                catch { lineError = error }
            }
            PQfreemem(buf)
        }
        var failure: PostgresError? = nil
        while let r = PQgetResult(conn) {
            if PQresultStatus(r) != PGRES_COMMAND_OK, failure == nil { failure = fail(.copy, op, result: r) }
            PQclear(r)
        }
        if let lineError { throw lineError }
        if let failure { throw failure }
    }

    /// `body` in one transaction: committed when it returns (rolled back instead when not
    /// `commit`: a dry run), rolled back when it throws (or when the process dies: the server
    /// rolls back a transaction whose client is gone).
    public func transaction<R>(commit: Bool = true, _ body: () throws -> R) throws -> R {
        try query("begin")
        do {
            let r = try body()
            try query(commit ? "commit" : "rollback")
            return r
        } catch {
            _ = try? query("rollback")
            throw error
        }
    }

    /// Takes the transaction-scoped advisory lock `key` (released at commit or rollback, or when
    /// the connection dies). When another session holds it: `onBusy` is told the holder's
    /// pid, then this waits for it (`wait`), or throws a `.busy` error at once.
    public func advisoryXactLock(_ key: Int64, wait: Bool, onBusy: (String) -> Void = { _ in }) throws {
        if try query("select pg_try_advisory_xact_lock($1)", [String(key)]).scalar == "t" { return }
        let holder = try query("""
            select coalesce(string_agg(pid::text || coalesce(' (' || nullif(application_name, '') || ')', ''), ', '), 'unknown')
              from pg_locks join pg_stat_activity using (pid)
             where locktype = 'advisory' and granted and ((classid::bigint << 32) | objid::bigint) = $1
            """, [String(key)]).scalar ?? "unknown"
        onBusy(holder)
        guard wait else {
            throw PostgresError(kind: .busy, target: target, operation: "advisory lock \(key)",
                                message: "held by server process \(holder)", sqlState: nil)
        }
        try query("select pg_advisory_xact_lock($1)", [String(key)])
    }

}

/// Buffers COPY rows (text, or binary tuples) and sends them in 256 KiB chunks.
public struct CopyWriter {
    fileprivate let connection: PostgresConnection
    private var buffer: [UInt8] = []
    public private(set) var rows = 0
    static let chunk = 1 << 18

    fileprivate init(connection: PostgresConnection) {
        self.connection = connection
        buffer.reserveCapacity(Self.chunk + 4096)
    }

    /// One row, already in the COPY's format: text ending with "\n", or a binary tuple.
    public mutating func row(_ bytes: [UInt8]) throws {
        try row(bytes[...])
    }

    /// One row given as pieces (a binary tuple with a field left out and put back, say).
    public mutating func row(_ bytes: ArraySlice<UInt8>, _ more: ArraySlice<UInt8>...) throws {
        buffer.append(contentsOf: bytes)
        for m in more { buffer.append(contentsOf: m) }
        rows += 1
        if buffer.count >= Self.chunk { try flush() }
    }

    /// Bytes that are not a row (the binary format's signature and end mark).
    fileprivate mutating func raw(_ bytes: [UInt8]) { buffer.append(contentsOf: bytes) }

    /// One row from fields: tab-separated, NULL as \N, text escaped as COPY wants.
    public mutating func row(fields: [String?]) throws {
        for (i, f) in fields.enumerated() {
            if i > 0 { buffer.append(0x09) }
            guard let f else { buffer.append(0x5C); buffer.append(0x4E); continue }
            for b in f.utf8 {
                switch b {
                case 0x5C: buffer.append(0x5C); buffer.append(0x5C)
                case 0x09: buffer.append(0x5C); buffer.append(0x74)
                case 0x0A: buffer.append(0x5C); buffer.append(0x6E)
                case 0x0D: buffer.append(0x5C); buffer.append(0x72)
                default: buffer.append(b)
                }
            }
        }
        buffer.append(0x0A)
        rows += 1
        if buffer.count >= Self.chunk { try flush() }
    }

    public mutating func flush() throws {
        try buffer.withUnsafeBytes { try connection.putCopyData($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
