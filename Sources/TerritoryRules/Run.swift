// The running game's rules (CONTRACTS §8) in pure Swift — Foundation, H3 and Geodesy only, no
// GEOS, no PROJ — so the app shows a run's verdict and cells offline, and the night judges with
// the very same code.

/// One submitted run (CONTRACTS §8), as read: every fix, in order.
public struct Run: Sendable {
    /// 0-based position of the feature in its file.
    public var index: Int
    /// The run's id and its runner's, canonical lower-case UUIDs.
    public var id: String
    public var userID: String
    public var lon: [Double]
    public var lat: [Double]
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var time: [Int64]
    public var accuracy: [Double]
    /// `properties.simulated` (CONTRACTS §8c): per fix, whether the phone marked it as simulated
    /// by software (iOS `CLLocationSourceInformation.isSimulatedBySoftware`); empty when the run
    /// has no such property (as if every fix were false).
    public var simulated: [Bool]
    public var fixCount: Int { lon.count }

    public init(index: Int, id: String, userID: String, lon: [Double], lat: [Double], time: [Int64], accuracy: [Double], simulated: [Bool] = []) {
        self.index = index; self.id = id; self.userID = userID
        self.lon = lon; self.lat = lat; self.time = time; self.accuracy = accuracy; self.simulated = simulated
    }
    /// When the run was submitted as ending: its last fix's time, whatever the rules keep.
    public var endedAt: Int64 { time.last ?? 0 }
    public var startedAt: Int64 { time.first ?? 0 }
}
