/// The running game's migration for runs submitted from the phone (CONTRACTS §8b,
/// `submit_run`): `submit_run(run jsonb)`, the pending runs (`runs.judged_at`, `runs.submission`),
/// a runner's own runs (`my_runs`). Applied after `GameMigration`'s first, which it needs. It
/// refuses a run the night would quarantine with the night's own words (`RunsReader`);
/// scripts/checks/check_follow.sh compares the two on the same malformed runs.
public enum SubmitMigration {
    public static let name = EmbeddedFiles.migration("submit_run").name
    public static let sql = EmbeddedFiles.migration("submit_run").text
}
