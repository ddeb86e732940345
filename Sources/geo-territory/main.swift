import StageCommand
import TerritoryRules
import TerritoryStage

/// The rules and resolution --help states: the stage's own (TerritoryRules' `Rules()`).
let defaults = TerritoryStage.Options()
let rules = defaults.rules
func figure(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }

StageFront<TerritoryStage>(
    name: "geo-territory",
    abstract: "Runs → validated loops → claimed H3 cells: the running game's nightly territory (CONTRACTS §8).",
    discussion: """
    Reads the night's runs (a GeoJSON FeatureCollection, one LineString Feature per run with
    properties user_id, times and accuracy_m per fix) and, for an incremental night, the
    current territory as `psql \\copy territory_hex to … with (format csv, header)` writes it.

    Rules (TerritoryRules): fixes with accuracy over \(figure(rules.maxAccuracy)) m are ignored; a run is a
    valid loop when what remains is ≥ \(figure(rules.minDistance)) m long (PROJ's geodesic on WGS 84),
    lasts ≥ \(figure(rules.minDuration)) s, has ≥ \(rules.minFixes) fixes, starts and ends within \(figure(rules.maxClosure)) m, has no step
    faster than \(figure(rules.maxSpeedKmh)) km/h and no teleport (a jump over \(figure(rules.maxJump)) m between consecutive
    fixes, whatever the time); and (CONTRACTS §8c) no stretch faster than the men's world
    record for its distance (1 km to 100 km), a loop of at most \(Rules.tenths(rules.maxLoopArea / 1e6)) km², no fix marked
    simulated, no replay of an earlier run of the file. A rejected run gets every reason. The loop is the path
    closed back to its start, made valid by GEOS (a figure-eight is two lobes); it claims
    the resolution-\(defaults.resolution) H3 cells whose centre it contains. Each cell goes to the valid run
    with the latest end time (ties: the later in the file, CONTRACTS §8c); yesterday's table plus
    tonight's runs gives exactly the full recompute.

    Writes in --output-dir: territory_hex.sql (idempotent upsert of users, runs, territory_hex
    for the game's PostgreSQL/PostGIS schema), territory.geojson (owned cells), runs.tsv
    (figures and reasons per run), rejects.tsv (malformed runs quarantined: feature, id,
    the field at fault), users.tsv (cells and km² per runner), preview.svg (one
    city's territory by owner, with the runs' paths); with --loops-geojson also
    loops.geojson (each valid loop, all its lobes, and its cells).

    Example:
      geo-territory data/territory/runs.geojson --output-dir dist/territory
      geo-territory tonight.geojson --existing territory_hex.csv --shard 0/4
    """,
    beforeRun: {
        // A night allocates and frees millions of short-lived blocks (GEOS's noding, each run's
        // rows) on two threads: without this, glibc hands memory back to the kernel and faults
        // it in again all night long (a few % of the CPU, in the kernel).
        Allocator.keepHeapTop()
        Allocator.set(.mmapThreshold, 32 << 20)  // its maximum; also stops it from moving
    }).main()
