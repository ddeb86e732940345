/// The game's map at every zoom (CONTRACTS §8a, issue 29, `territory_at_every_zoom`): coarse H3
/// cells kept right by a trigger on territory_hex, and `territory_in_viewport` answering any box
/// with at most `max_cells` rows. Applied after the other two.
public enum ZoomMigration {
    public static let name = EmbeddedFiles.migration("territory_at_every_zoom").name
    public static let sql = EmbeddedFiles.migration("territory_at_every_zoom").text
}
