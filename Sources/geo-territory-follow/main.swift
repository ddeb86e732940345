import StageCommand
import TerritoryFollowStage

StageFront<TerritoryFollowStage>(
    name: "geo-territory-follow",
    abstract: "Judges the game's submitted runs as they come and claims their cells (CONTRACTS §8b).",
    discussion: """
    The database comes from the environment, never from the command line (where a password
    would show in `ps`): GAME_DATABASE_URL, else DATABASE_URL (libpq URI or conninfo). Errors
    and log lines name host, port, database and user, never the password.

    Stays connected and LISTENs on territory_runs (submit_run notifies each run), polling every
    --poll seconds as a safety net. Each batch (one transaction) claims up to --batch pending
    runs with FOR NO KEY UPDATE SKIP LOCKED, judges them with the night's code and rules, writes
    their judged columns and judged_at, and claims their cells (a later claim wins: the run's end capped at
    its submission; ties go to the later arrival). Any number of followers and a night may run at once; a follower killed
    at any moment leaves its batch pending for the others. A run that cannot be judged is
    quarantined alone (geodata.quarantined_runs); any other failure is logged and tried again:
    the follower stops only on SIGTERM or SIGINT (the batch finishes, exit 0). --heartbeat FILE:
    touched at every turn of the loop, for a liveness probe on its age. A lost connection is made again with a doubling back-off (--max-backoff).
    One log line per batch. See docs/GAME.md and docs/SCALING.md.

    Example:
      GAME_DATABASE_URL=postgresql://postgres@db.example/postgres geo-territory-follow --batch 200
    """,
    environment: { options, env in options.readDatabaseURL(from: env) }).main()
