// swift-tools-version:6.0
import PackageDescription

// One core library (GeoCore) over the system GEOS and PROJ C libraries, and one thin
// executable per pipeline stage. The Makefile chains the stages through build/ and dist/.
let package = Package(
    name: "GeoPipeline",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "GeoCore", targets: ["GeoCore"]),
        .executable(name: "geo-ingest", targets: ["geo-ingest"]),
        .executable(name: "geo-world", targets: ["geo-world"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CPROJ", pkgConfig: "proj", providers: [.apt(["libproj-dev"])]),
        .target(name: "GeoCore", dependencies: ["CGEOS", "CPROJ"]),
        .executableTarget(name: "geo-ingest", dependencies: [
            "GeoCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "geo-world", dependencies: [
            "GeoCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore"]),
    ],
    swiftLanguageModes: [.v5]
)
