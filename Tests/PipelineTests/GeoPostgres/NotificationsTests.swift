import Testing
@testable import GeoPostgres

/// LISTEN's channel is an identifier: quoted, so that any name (upper case, a quote) is the
/// channel NOTIFY names. Notifications themselves are checked against a real server by
/// scripts/checks/check_follow.sh (a follower hears each submitted run).
@Suite struct NotificationsTests {
    @Test func channelNamesAreQuotedIdentifiers() {
        #expect(PostgresConnection.quoteIdentifier("territory_runs") == "\"territory_runs\"")
        #expect(PostgresConnection.quoteIdentifier("Runs") == "\"Runs\"")
        #expect(PostgresConnection.quoteIdentifier("a\"b") == "\"a\"\"b\"")
    }
}
