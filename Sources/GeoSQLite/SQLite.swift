// The only code that imports CSQLite (the system libsqlite3): a database handle owned by a
// Swift type, statements run with bound values, errors that say what failed.

import CSQLite
import Foundation

public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var message: String
    public var description: String { "SQLite \(operation) failed: \(message)" }
}

public enum SQLiteValue: Sendable, Equatable {
    case integer(Int64), real(Double), text(String), null
}

public final class SQLiteDatabase {
    private var db: OpaquePointer?
    public let path: String

    /// Opens (creating if needed) the database file at `path`.
    public init(path: String) throws {
        self.path = path
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard rc == SQLITE_OK else {
            let msg = db.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(rc)"
            sqlite3_close_v2(db); db = nil
            throw SQLiteError(operation: "open \(path)", message: msg)
        }
    }

    deinit { sqlite3_close_v2(db) }

    private func error(_ op: String) -> SQLiteError {
        SQLiteError(operation: op, message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")
    }

    /// Runs one or more statements without parameters.
    public func execute(_ sql: String) throws {
        var msg: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &msg) != SQLITE_OK {
            let text = msg.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(msg)
            throw SQLiteError(operation: "exec \(sql.prefix(60))", message: text)
        }
    }

    /// Runs one statement once per row of values (bound to ?1, ?2, …).
    public func run(_ sql: String, rows: [[SQLiteValue]]) throws {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { throw error("prepare \(sql.prefix(60))") }
        defer { sqlite3_finalize(stmt) }
        // SQLITE_TRANSIENT: SQLite copies the bound text before the Swift string goes away.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for row in rows {
            sqlite3_reset(stmt)
            sqlite3_clear_bindings(stmt)
            for (i, v) in row.enumerated() {
                let k = Int32(i + 1)
                let rc: Int32
                switch v {
                case .integer(let x): rc = sqlite3_bind_int64(stmt, k, x)
                case .real(let x): rc = sqlite3_bind_double(stmt, k, x)
                case .text(let s): rc = sqlite3_bind_text(stmt, k, s, -1, transient)
                case .null: rc = sqlite3_bind_null(stmt, k)
                }
                guard rc == SQLITE_OK else { throw error("bind \(k) of \(sql.prefix(60))") }
            }
            guard sqlite3_step(stmt) == SQLITE_DONE else { throw error("step \(sql.prefix(60))") }
        }
    }

    /// Every row of a query, as values.
    public func query(_ sql: String) throws -> [[SQLiteValue]] {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { throw error("prepare \(sql.prefix(60))") }
        defer { sqlite3_finalize(stmt) }
        var out: [[SQLiteValue]] = []
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw error("step \(sql.prefix(60))") }
            var row: [SQLiteValue] = []
            for c in 0..<sqlite3_column_count(stmt) {
                switch sqlite3_column_type(stmt, c) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(stmt, c)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(stmt, c)))
                case SQLITE_NULL: row.append(.null)
                default: row.append(.text(String(cString: sqlite3_column_text(stmt, c))))
                }
            }
            out.append(row)
        }
        return out
    }

    /// Closes the file (also done on deinit); errors if statements are still open.
    public func close() throws {
        guard let d = db else { return }
        guard sqlite3_close(d) == SQLITE_OK else { throw error("close") }
        db = nil
    }
}
