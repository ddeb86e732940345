import GeoModel
import SeededRandom

/// The schema `geodata` in an app's database (CONTRACTS §9): the night's records, and the
/// follower's quarantined runs. Whoever finds one of its tables missing takes this advisory
/// lock (until its transaction ends) before making it, so that two first writers in a fresh
/// database — two apps' nights, a night and a follower — do not both create the schema.
public enum Geodata {
    public static let creationLock = Int64(bitPattern: SplitMix64.hash("geo-nightly/geodata"))
}
