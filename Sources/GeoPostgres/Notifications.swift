// LISTEN/NOTIFY over libpq (PQsocket, PQconsumeInput, PQnotifies): a follower that stays
// connected hears each `pg_notify` as it is committed instead of polling the table.

import CLibPQ
import Foundation

/// One `NOTIFY`, copied out of libpq's PGnotify (which is freed at once).
public struct PostgresNotification: Sendable, Equatable {
    public var channel: String
    public var payload: String
    /// The server process that sent it.
    public var senderPID: Int32
}

extension PostgresConnection {
    /// `LISTEN channel` (the name quoted as an identifier): from now on the server queues this
    /// channel's notifications for this session.
    public func listen(_ channel: String) throws {
        try query("listen \(Self.quoteIdentifier(channel))")
    }

    /// The notifications the server has sent, waiting up to `timeout` seconds for the first
    /// when none has arrived yet (0: only those already here). [] when the wait ends with
    /// none, or a signal interrupts it. A lost connection throws (the caller reconnects).
    public func notifications(waitingUpTo timeout: Double) throws -> [PostgresNotification] {
        var out = try readNotifications()
        guard out.isEmpty, timeout > 0 else { return out }
        let fd = try socket()
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let rc = poll(&p, 1, Int32(min(timeout, 3600) * 1000))
        if rc < 0 {
            if errno == EINTR { return [] }
            throw connectionLost("wait for notifications", detail: String(cString: strerror(errno)))
        }
        if rc > 0 { out = try readNotifications() }
        return out
    }

    /// Whether libpq still holds a working connection (after an error: false when the server
    /// or the network went away, and the caller should make a new connection).
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The connection's socket, for poll.
    private func socket() throws -> Int32 {
        let fd = PQsocket(handle)
        guard fd >= 0 else { throw connectionLost("wait for notifications", detail: "the connection has no socket") }
        return fd
    }

    /// Reads what the server has sent (PQconsumeInput) and takes every queued notification.
    private func readNotifications() throws -> [PostgresNotification] {
        guard PQconsumeInput(handle) == 1 else {
            throw connectionLost("read notifications", detail: String(cString: PQerrorMessage(handle)))
        }
        var out: [PostgresNotification] = []
        while let n = PQnotifies(handle) {
            defer { PQfreemem(n) }
            out.append(PostgresNotification(channel: String(cString: n.pointee.relname),
                                            payload: n.pointee.extra.map { String(cString: $0) } ?? "",
                                            senderPID: n.pointee.be_pid))
        }
        return out
    }

    private func connectionLost(_ operation: String, detail: String) -> PostgresError {
        PostgresError(kind: .connect, target: target, operation: operation,
                      message: target.scrub(Self.tidy(detail)), sqlState: nil)
    }

    /// `name` as a quoted SQL identifier ("a""b").
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
