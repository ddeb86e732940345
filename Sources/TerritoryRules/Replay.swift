import Foundation
import Geodesy

/// Replays (CONTRACTS §8c): a run whose path repeats a stored run's, whatever its times and
/// whoever stored it, is not a run.
///
/// The rule. A replay is made from a stored run's fixes (its loop read back, a file sent again
/// with new times): its fixes are the stored run's sampled points, in the stored run's order.
/// A runner who runs the same loop again samples other points (another pace, other seconds)
/// with fresh GPS error (metres, slowly wandering). So: the run is a replay of a stored run
/// when at least `Rules.replayShare` (80 %) of its kept fixes pair, one to one and in order
/// (forwards or backwards, from any starting fix of a loop), with a fix of the stored run at most
/// `Rules.replayPairDistance` (2 m) away. Honest reruns of a generated park loop pair under half
/// of their fixes (TerritoryRulesFairPlayTests); scripts/checks/check_fair_play.sh refuses none
/// of its generated honest runs.
///
/// Which stored runs are compared (the candidates) is `Signature`'s: the database keeps each
/// stored run's signature in an index, so that a submission costs a few index probes and at
/// most `Signature.candidates` matchings, however many runs are stored.
public enum Replay {
    /// Metres per degree on the sphere of Geodesy's WGS84 equatorial radius (the local plane
    /// below): 111,319.49079327357, the figure the SQL mirror writes out.
    public static let metresPerDegree = Earth.wgs84EquatorialRadius * radians
    /// Radians per degree (0.017453292519943295, as the SQL mirror writes it).
    static let radians = Double.pi / 180

    /// How many of the run's fixes (`lon`, `lat`: its kept fixes, in order) pair one to one, in
    /// order, with the stored run's fixes (`storedLon`, `storedLat`: all of them) within
    /// `within` metres: the longest such chain forwards or backwards along the stored run, which
    /// may start at any of its fixes (the stored run is read twice round, as a loop). Distances
    /// are taken in the plane x = lon·cos(φ₀)·m, y = lat·m around the run's first fix (φ₀), m =
    /// `metresPerDegree`: a few millimetres off the geodesic over a park.
    public static func pairs(lon: [Double], lat: [Double], storedLon: [Double], storedLat: [Double], within: Double) -> Int {
        let n = lon.count, m = storedLon.count
        guard n > 0, m > 0 else { return 0 }
        let kx = cos(lat[0] * radians) * metresPerDegree, ky = metresPerDegree
        let limit = within * within
        // The stored fixes by grid cell (side `within`): a pair lies in neighbouring cells.
        var grid: [Int64: [Int32]] = [:]
        @inline(__always) func cell(_ x: Double, _ y: Double) -> (Int64, Int64) { (Int64((x / within).rounded(.down)), Int64((y / within).rounded(.down))) }
        @inline(__always) func key(_ cx: Int64, _ cy: Int64) -> Int64 { cx &* 0x1_0000_0001 &+ cy }
        var sx = [Double](repeating: 0, count: m), sy = sx
        for j in 0..<m {
            sx[j] = storedLon[j] * kx; sy[j] = storedLat[j] * ky
            let (cx, cy) = cell(sx[j], sy[j])
            grid[key(cx, cy), default: []].append(Int32(j))
        }
        // Every pair (i, j) within the distance; each is a step of a chain forwards (key j or
        // j + m) and backwards (key m − 1 − j or 2m − 1 − j).
        var forward: [Int] = [], backward: [Int] = []
        var found: [Int] = []
        for i in 0..<n {
            let x = lon[i] * kx, y = lat[i] * ky
            let (cx, cy) = cell(x, y)
            found.removeAll(keepingCapacity: true)
            for dx in -1...1 { for dy in -1...1 {
                guard let js = grid[key(cx + Int64(dx), cy + Int64(dy))] else { continue }
                for j in js {
                    let ex = sx[Int(j)] - x, ey = sy[Int(j)] - y
                    if ex * ex + ey * ey <= limit { found.append(Int(j)) }
                }
            } }
            guard !found.isEmpty else { continue }
            // Within one fix of the run: keys decreasing, so that a strictly increasing chain
            // takes at most one of them.
            found.sort()
            forward.append(-1)  // separator: a new fix of the run
            for j in found.reversed() { forward.append(j + m) }
            for j in found.reversed() { forward.append(j) }
            backward.append(-1)
            for j in found { backward.append(2 * m - 1 - j) }
            for j in found { backward.append(m - 1 - j) }
        }
        return max(longestChain(forward), longestChain(backward))
    }

    /// The longest strictly increasing subsequence of the keys (−1 separates the fixes of the
    /// run and is skipped), by patience sorting: O(P log P).
    static func longestChain(_ keys: [Int]) -> Int {
        var tails: [Int] = []
        for k in keys where k >= 0 {
            var a = 0, b = tails.count
            while a < b { let mid = (a + b) / 2; if tails[mid] < k { a = mid + 1 } else { b = mid } }
            if a == tails.count { tails.append(k) } else { tails[a] = k }
        }
        return tails.count
    }

    /// Whether `pairs` fixes of a run of `kept` kept fixes make it a replay (`Rules.replayShare`).
    public static func isReplay(pairs: Int, kept: Int, rules: Rules) -> Bool {
        kept > 0 && Double(pairs) >= rules.replayShare * Double(kept)
    }

    /// The reason for a replay of `stored` (its run id), with the figures.
    public static func reason(pairs: Int, kept: Int, stored: String, rules: Rules) -> Reason {
        Reason(code: .replay, detail: "\(pairs) of \(kept) kept fixes repeat, one to one and in order within \(Int(rules.replayPairDistance)) m, the fixes of stored run \(stored)")
    }

    /// A run's signature: the `size` smallest hashes of the grid cells (`cellDegrees` on a side)
    /// its kept fixes fall in. A replay keeps most of the stored run's cells, so the two share
    /// most of their smallest hashes; an honest rerun, sampling other points with other errors,
    /// shares few cells. The stored runs compared with a run are those whose signature shares at
    /// least `minShared` hashes with its own: the `candidates` sharing most (ties: the one stored
    /// first). The SQL mirror computes the same hashes (bigint arithmetic, no overflow).
    public enum Signature {
        public static let cellDegrees = 2e-5
        public static let size = 8
        public static let minShared = 2
        public static let candidates = 8
        static let prime: Int64 = 2_147_483_647

        /// The hash of the cell holding (lon, lat): the cell's row and column as one number
        /// (under 2⁴⁸), mixed by two rounds of a linear congruential step modulo 2³¹ − 1.
        @inline(__always) public static func hash(lon: Double, lat: Double) -> Int64 {
            let row = Int64((lat / cellDegrees).rounded(.down)) + 5_000_000
            let col = Int64((lon / cellDegrees).rounded(.down)) + 10_000_000
            var h = (row * 20_000_000 + col) % prime
            h = (h * 1_103_515_245 + 12_345) % prime
            h = (h * 48_271 + 11) % prime
            return h
        }

        /// The signature of fixes (a run's kept fixes): its `size` smallest distinct hashes, ascending.
        public static func of(lon: [Double], lat: [Double]) -> [Int64] {
            var hs = Set<Int64>()
            for i in lon.indices { hs.insert(hash(lon: lon[i], lat: lat[i])) }
            return Array(hs.sorted().prefix(size))
        }
    }
}

/// Replays among runs in order (a night's file: each run against the runs before it that were
/// not refused), as submit_run finds them among the runs stored before: the same signatures,
/// the same candidates, the same matching.
public struct ReplayIndex: Sendable {
    struct Stored: Sendable { var id: String; var lon: [Double]; var lat: [Double] }
    var stored: [Stored] = []
    var byHash: [Int64: [Int32]] = [:]

    public init() {}

    /// The replay reason for a run with kept fixes `kept` (nil: not a replay of a run added before).
    public func check(_ run: Run, kept: [Int], rules: Rules) -> Reason? {
        guard !kept.isEmpty else { return nil }
        let lon = kept.map { run.lon[$0] }, lat = kept.map { run.lat[$0] }
        var shared: [Int32: Int] = [:]
        for h in Replay.Signature.of(lon: lon, lat: lat) {
            for s in byHash[h] ?? [] { shared[s, default: 0] += 1 }
        }
        let ranked = shared.filter { $0.value >= Replay.Signature.minShared && stored[Int($0.key)].id != run.id }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(Replay.Signature.candidates)
        for (s, _) in ranked {
            let other = stored[Int(s)]
            let p = Replay.pairs(lon: lon, lat: lat, storedLon: other.lon, storedLat: other.lat, within: rules.replayPairDistance)
            if Replay.isReplay(pairs: p, kept: kept.count, rules: rules) { return Replay.reason(pairs: p, kept: kept.count, stored: other.id, rules: rules) }
        }
        return nil
    }

    /// Adds a stored run (all its fixes; its signature from its kept fixes).
    public mutating func add(_ run: Run, kept: [Int]) {
        let s = Int32(stored.count)
        stored.append(Stored(id: run.id, lon: run.lon, lat: run.lat))
        for h in Replay.Signature.of(lon: kept.map { run.lon[$0] }, lat: kept.map { run.lat[$0] }) { byHash[h, default: []].append(s) }
    }
}
