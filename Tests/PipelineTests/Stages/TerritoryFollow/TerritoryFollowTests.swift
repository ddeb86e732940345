import StageContract
import Testing
import GeoModel
import GeoPostgres
@testable import TerritoryFollowStage

/// The follower's options and its reading of errors (its loop against a real server:
/// scripts/checks/check_follow.sh).
@Suite struct TerritoryFollowTests {
    @Test func theDatabaseComesFromTheEnvironmentGameFirst() throws {
        var o = TerritoryFollowStage.Options()
        #expect(throws: OptionsError.self) { try o.validate() }
        o.readDatabaseURL(from: ["DATABASE_URL": "host=a", "GAME_DATABASE_URL": "host=g"])
        #expect(o.databaseURL == "host=g")
        o.readDatabaseURL(from: ["DATABASE_URL": "host=a", "GAME_DATABASE_URL": ""])
        #expect(o.databaseURL == "host=a")
        try o.validate()
        o.batch = 0
        #expect(throws: OptionsError.self) { try o.validate() }
    }

    @Test func connectionLossesAreToldFromOtherErrors() {
        #expect(Follower.isConnectionLoss(kind: .query, sqlState: "57P01"))    // the server shutting down
        #expect(Follower.isConnectionLoss(kind: .query, sqlState: "08006"))    // a connection failure
        #expect(Follower.isConnectionLoss(kind: .connect, sqlState: nil))
        #expect(!Follower.isConnectionLoss(kind: .query, sqlState: "42703"))   // a missing column: a real error
        #expect(!Follower.isConnectionLoss(kind: .query, sqlState: nil))
    }
}
