import Foundation
import SeededRandom
import Testing
@testable import GeoModel
@testable import WorldStage

/// The report's percentiles come from a selection, not a sort: the same value the sorted
/// array's nearest rank gives, duplicates and small arrays included.
@Suite struct WorldMetricsTests {
    @Test func percentileIsTheSortedArraysNearestRank() {
        var r = SplitMix64(state: 31)
        for n in [1, 2, 3, 5, 10, 17, 100, 1_000, 20_000] {
            for _ in 0..<20 {
                let spread = [2, 10, 1_000_000][r.below(3)]
                let values = (0..<n).map { _ in Float(r.below(spread)) / 7 }
                for p in [0.0, 1, 50, 95, 99.9, 100] {
                    let sorted = values.sorted()
                    let rank = Int((p / 100 * Double(n)).rounded(.up))
                    #expect(Metrics.percentile(values, p) == sorted[min(max(rank, 1), n) - 1], "n \(n), p \(p)")
                }
            }
        }
        #expect(Metrics.percentile([Double](), 95) == 0)
    }
}
