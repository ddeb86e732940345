import GeoModel
import StageContract

extension WorldStage {
    /// How far the coverage is simplified: decided once, when the options are read.
    public enum Simplification: Sendable, Equatable {
        /// Every vertex stays, collinear ones included (`--target-vertices 0` or `--tolerance-km 0`).
        case keepAll
        /// A fixed Douglas–Peucker tolerance, km on the ground (> 0).
        case toleranceKm(Double)
        /// Total positions in the output: polygons' vertices, closing points included, plus one
        /// per point country (> 0). The tolerance is found to meet it.
        case vertexBudget(Int)

        /// The command line's reading: a tolerance, when given, wins over the budget; 0 for either
        /// keeps every vertex. Throws `OptionsError` for a negative value.
        public init(targetVertices: Int, toleranceKm: Double?) throws {
            guard targetVertices >= 0 else { throw OptionsError("--target-vertices must be 0 or more") }
            if let t = toleranceKm { guard t >= 0 else { throw OptionsError("--tolerance-km must be 0 or more") } }
            self.init(reading: targetVertices, toleranceKm)
        }

        /// The same reading without the checks (`Options.validate()` makes them).
        init(reading targetVertices: Int, _ toleranceKm: Double?) {
            if let t = toleranceKm {
                self = t == 0 ? .keepAll : .toleranceKm(t)
            } else {
                self = targetVertices == 0 ? .keepAll : .vertexBudget(targetVertices)
            }
        }

        /// The budget, when one drives the run.
        public var vertexBudget: Int? { if case .vertexBudget(let n) = self { return n } else { return nil } }
        /// The fixed tolerance, when one drives the run.
        public var toleranceKm: Double? { if case .toleranceKm(let t) = self { return t } else { return nil } }

        /// The same mode once `positions` of the budget are spent elsewhere (the point countries):
        /// what the arcs may use.
        func spending(_ positions: Int) -> Simplification {
            if case .vertexBudget(let n) = self { return .vertexBudget(n - positions) }
            return self
        }
    }
}
