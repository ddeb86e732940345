#if canImport(Glibc)
import Glibc
#endif

/// glibc's allocator settings (`mallopt`, which Swift's Glibc module does not export), for the
/// fronts whose stages allocate in a pattern glibc's adaptive defaults handle badly. A no-op
/// where the C library is not glibc.
public enum Allocator {
    public enum Setting: Int32 {
        /// Free memory at the top of the heap above this many bytes is given back to the kernel.
        case trimThreshold = -1
        /// Extra bytes asked from the kernel each time the heap grows.
        case topPad = -2
        /// Blocks of at least this many bytes are mapped on their own and unmapped when freed
        /// (setting it also stops glibc from raising it after each large free).
        case mmapThreshold = -3
    }

    /// For a stage that frees and reallocates tens of MB a step (GeoJSON trees, GEOS geometries,
    /// a night's rows): with glibc's defaults the heap's top is given back to the kernel and
    /// faulted in again each time. Keeps up to 256 MB and grows by 64 MB (ingest and world: CPU
    /// −3 %, system CPU down by up to a third, peak +3 to +7 MB on the 1:10m input).
    public static func keepHeapTop() {
        set(.trimThreshold, 256 << 20)
        set(.topPad, 64 << 20)
    }

    public static func set(_ setting: Setting, _ bytes: Int32) {
        #if canImport(Glibc)
        guard let f = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
        let mallopt = unsafeBitCast(f, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(setting.rawValue, bytes)
        #endif
    }
}
