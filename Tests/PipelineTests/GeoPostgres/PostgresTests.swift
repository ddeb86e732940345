import Foundation
import Testing
@testable import GeoPostgres

/// libpq for real, without a server: the failures a night meets first must name where it went
/// and never the password. (The server side is scripts/checks/check_nightly.sh, against a real
/// PostgreSQL 15.)
@Suite struct PostgresTests {
    @Test func unreachableServerNamesHostPortDatabaseUserNotPassword() {
        do {
            _ = try PostgresConnection("postgresql://night:pw-Secret-42@127.0.0.1:1/apps", connectTimeout: 2)
            Issue.record("connected to a closed port")
        } catch let e as PostgresError {
            #expect(e.kind == .connect)
            #expect(e.target.description == "night@127.0.0.1:1/apps")
            #expect(e.description.contains("night@127.0.0.1:1/apps: connect failed"))
            #expect(!e.description.contains("pw-Secret-42"))
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func conninfoFormToo() {
        do {
            _ = try PostgresConnection("host=127.0.0.1 port=1 dbname=quiz user=svc password='pw Secret' connect_timeout=2")
            Issue.record("connected to a closed port")
        } catch let e as PostgresError {
            #expect(e.target.description == "svc@127.0.0.1:1/quiz")
            #expect(!e.description.contains("pw Secret"))
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func aMalformedConninfoIsScrubbed() {
        // libpq quotes a malformed conninfo back; the password is replaced wherever it appears.
        let url = "postgresql://u:topsecret@127.0.0.1:notaport/db"
        do {
            _ = try PostgresConnection(url)
            Issue.record("accepted a malformed URI")
        } catch let e as PostgresError {
            #expect(!e.description.contains("topsecret"))
        } catch { Issue.record("unexpected \(error)") }
        #expect(PostgresConnection.password(in: "host=h password=abc") == "abc")
        #expect(PostgresConnection.password(in: "postgresql://u:p%40ss@h/db") == "p@ss")
        #expect(PostgresConnection.password(in: "host=h") == nil)
    }
}
