import CitiesSchema
import DailyChallenges
import Foundation
import NightDatabase
import Testing
import TerritoryGame
import TerritoryPostgres
@testable import NightlyStage
@testable import ReleaseStage
@testable import RoutesStage

/// The SQL and HTML compiled in by the EmbedFiles plugin (Package.swift) are their files' bytes,
/// and a target's migrations are its Migrations/ folder, in name order (issue #39).
@Suite struct EmbeddedFilesTests {
    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func expectFolder(_ folder: String, is migrations: [(name: String, sql: String)]) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(migrations.map(\.name) == names)
        for m in migrations { #expect(try bytes(folder + "/" + m.name) == Data(m.sql.utf8), "\(m.name)") }
    }

    @Test func migrationsAreTheirFolders() throws {
        try expectFolder("Sources/TerritoryGame/Migrations", is: GameMigration.all)
        try expectFolder("Sources/CitiesSchema/Migrations", is: CitiesSchema.migrations.map { ($0.name, $0.sql) })
        try expectFolder("Sources/DailyChallenges/Migrations", is: [(DailyChallenges.migrationName, DailyChallenges.schemaSQL())])
        // The named ones are the first three; the later migrations (privacy, fair play) follow them.
        #expect([GameMigration.name, SubmitMigration.name, ZoomMigration.name] == GameMigration.all.prefix(3).map(\.name))
        #expect(ZoomMigration.sql == GameMigration.all[2].sql)
    }

    @Test func otherFilesAreTheirBytes() throws {
        #expect(try bytes("Sources/NightDatabase/SQL/geodata_migrations.sql") == Data(Migrations.schema.utf8))
        #expect(try bytes("Sources/TerritoryPostgres/SQL/session_tables.sql") == Data(PendingRuns.sessionTables.utf8))
        #expect(try bytes("Sources/Stages/Nightly/SQL/geodata_nights.sql") == Data(NightsTable.schema.utf8))
        #expect(try bytes("Sources/Stages/Routes/SQL/content_schema.sql") == Data(RoutesStage.schema.utf8))
        #expect(try bytes("Sources/Stages/Release/Inspect/index.html") == Data(InspectPage.html.utf8))
    }

    /// The first night in a fresh database takes Geodata.creationLock, a number the SQL files write out.
    @Test func geodataSQLLocksTheCreationLock() {
        for sql in [PendingRuns.sessionTables, NightsTable.schema] {
            #expect(sql.contains("perform pg_advisory_xact_lock(\(Geodata.creationLock));"))
        }
    }

    /// The quiz's migration names its table as `DailyChallenges.table`, the seed's.
    @Test func quizMigrationNamesTheSeedsTable() {
        #expect(DailyChallenges.schemaSQL().contains("create table if not exists \(DailyChallenges.table) ("))
    }
}
