import ArgumentParser
import TerritoryStage
import StageCommand

struct TerritoryCommand: StageCommand {
    typealias Stage = TerritoryStage
    static let defaults = TerritoryStage.Options()
    static let configuration = CommandConfiguration(
        commandName: "geo-territory",
        abstract: "Runs → validated loops → claimed H3 cells: the running game's nightly territory (CONTRACTS §8).",
        discussion: """
        Reads the night's runs (a GeoJSON FeatureCollection, one LineString Feature per run with
        properties user_id, times and accuracy_m per fix) and, for an incremental night, the
        current territory as `psql \\copy territory_hex to … with (format csv, header)` writes it.

        Rules: fixes with accuracy over 50 m are ignored; a run is a valid loop when what remains
        is ≥ 100 m long (PROJ's geodesic on WGS 84), lasts ≥ 30 s, has ≥ 10 fixes, starts and
        ends within 50 m, has no step faster than 43 km/h and no teleport (a jump over 1 km
        between consecutive fixes, whatever the time). A rejected run gets every reason.
        The loop is the path closed back to its start, made valid by GEOS (a figure-eight is two
        lobes); it claims the resolution-9 H3 cells whose centre it contains. Each cell goes to
        the valid run with the latest end time (ties: the larger run id); yesterday's table plus
        tonight's runs gives exactly the full recompute.

        Writes in --out-dir: territory_hex.sql (idempotent upsert of users, runs, territory_hex
        for the game's PostgreSQL/PostGIS schema), territory.geojson (owned cells), runs.tsv
        (figures and reasons per run), rejects.tsv (malformed runs quarantined: feature, id,
        the field at fault), users.tsv (cells and km² per runner), preview.svg (one
        city's territory by owner, with the runs' paths); with --loops-geojson also
        loops.geojson (each valid loop, all its lobes, and its cells).

        Example:
          geo-territory data/territory/runs.geojson --out-dir dist/territory
          geo-territory tonight.geojson --existing territory_hex.csv --shard 0/4
        """)

    @Argument(help: "The runs (GeoJSON FeatureCollection, CONTRACTS §8).")
    var input: String = defaults.input

    @Option(help: "The current territory (CSV hex_id,owner_user_id,last_run_id,claimed_at) for an incremental night.")
    var existing: String?

    @Option(help: "Directory for the outputs.")
    var outDir: String = defaults.outDir

    @Option(help: "i/n: handle only shard i of n (runs split by the resolution-3 cell they start in).")
    var shard: String?

    @Option(help: "Worker threads.")
    var threads: Int = defaults.threads

    @Flag(help: "Also write loops.geojson (every valid loop and its cells; a third of a night's bytes).")
    var loopsGeojson = false

    @Option(help: "Malformed runs a night may quarantine in rejects.tsv before it stops (default: 10 or 1 % of the runs, whichever is larger).")
    var maxRejects: Int?

    @Option(help: "Also write the game's migration (territory_hex.cell, territory_in_viewport, RLS) into this directory.")
    var migrationDir: String?

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: TerritoryStage.Options {
        var o = TerritoryStage.Options()
        o.input = input; o.existing = existing; o.outDir = outDir; o.shard = shard; o.threads = threads
        o.loopsGeoJSON = loopsGeojson
        o.maxRejects = maxRejects
        o.migrationDir = migrationDir
        return o
    }
}

// A night allocates and frees millions of short-lived blocks (GEOS's noding, each run's rows)
// on two threads: without this, glibc hands memory back to the kernel and faults it in again
// all night long (a few % of the CPU, in the kernel).
Allocator.set(.trimThreshold, 256 << 20)
Allocator.set(.topPad, 64 << 20)
Allocator.set(.mmapThreshold, 32 << 20)  // its maximum; also stops it from moving

TerritoryCommand.main()
