import GeoModel
import Geodesy
import GeoPROJ

extension MapStage {
    /// The frame: the projected globe's outline, or the data's extent when the edge does not project.
    static func frame(_ map: MapProjection, _ projected: [Feature]) throws -> (outline: [Point]?, frame: BoundingBox) {
        let outline = map.outline()
        var frame = BoundingBox.empty
        if let outline { for p in outline { frame.extend(p) } }
        else { for f in projected { if let b = f.geometry.boundingBox { frame.extend(b) } } }
        guard !frame.isEmpty, frame.width > 0, frame.height > 0 else { throw StageError("the projected map has an empty extent") }
        return (outline, frame)
    }
}
