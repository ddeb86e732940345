// geo-hexagons: command-line front of the pure-Swift H3 library (debugging and scripts); the
// work is the Hexagons library's.
//
//   geo-hexagons cell --res R            lat,lon lines (degrees) on stdin → one cell id per line
//   geo-hexagons polyfill --res R F.json cells of the file's (Multi)Polygon features, sorted
//   geo-hexagons boundary                cell ids on stdin → GeoJSON FeatureCollection
//   geo-hexagons disk --k K ID           cells within grid distance K, sorted
//   geo-hexagons check-dump              batch protocol used by scripts/checks/check_h3.py
//   geo-hexagons bench                   in-process timings (bench/h3.py)

import GeoModel
import H3
import Hexagons
import StageCommand
import StageContract

struct NoOptions: DeclaredOptions {
    static let declared: [StageOption<NoOptions>] = []
}

/// A resolution out of 0…15 is the library's error ("invalid resolution 16"), as h3's is.
struct CellOptions: DeclaredOptions {
    var res = 0
    static let declared: [StageOption<CellOptions>] = [.required("res", \.res, help: "H3 resolution 0...15")]
}

struct PolyfillOptions: DeclaredOptions {
    var res = 0
    var maxCells = Hexagons.defaultMaxCells
    var file = ""
    static let declared: [StageOption<PolyfillOptions>] = [
        .required("res", \.res, help: "H3 resolution 0...15"),
        .option("max-cells", \.maxCells, .atLeast(1), help: "Largest number of cells answered (h3's estimate, checked first)."),
        .argument("file", \.file, required: true, help: "GeoJSON file"),
    ]
}

struct DiskOptions: DeclaredOptions {
    var k = 0
    var id = ""
    static let declared: [StageOption<DiskOptions>] = [
        .required("k", \.k, help: "grid distance ≥ 0"),
        .argument("id", \.id, required: true, help: "cell id (hex)"),
    ]
}

struct BenchOptions: DeclaredOptions {
    var points = 2_000_000
    var cells = 1_000_000
    static let declared: [StageOption<BenchOptions>] = [
        .option("points", \.points, .atLeast(1), help: "points for latLngToCell"),
        .option("cells", \.cells, .atLeast(1), help: "cells for cellToBoundary"),
    ]
}

CommandGroup(
    name: "geo-hexagons",
    abstract: "Uber H3 hexagon grid (pure Swift, equal to h3 4.5.0) for scripts and debugging.",
    subcommands: [
        Command<CellOptions>(name: "cell", abstract: "lat,lon lines (degrees) on stdin → one cell id per line.") { o, _ in
            var out = LineWriter()
            try Hexagons.cells(res: o.res, lines: { readLine() }, out: &out)
        },
        Command<PolyfillOptions>(
            name: "polyfill", abstract: "Cells (centre inside) of a GeoJSON file's (Multi)Polygon features, sorted.",
            discussion: "Refuses, before any work, an answer h3's maxPolygonToCellsSize puts above --max-cells.") { o, _ in
            guard (0...15).contains(o.res) else { throw H3Error.invalidResolution(o.res) }
            let cells = try Hexagons.polyfill(try PolygonFile.polygons(path: o.file), res: o.res, maxCells: o.maxCells, file: o.file)
            var out = LineWriter()
            for c in cells { out.line(c.description) }
            out.flush()
        },
        Command<NoOptions>(name: "boundary", abstract: "Cell ids on stdin → GeoJSON FeatureCollection of their boundaries.") { _, _ in
            let lines = try BoundaryGeoJSON.collection(try Hexagons.cellList(lines: { readLine() }))
            var out = LineWriter()
            for l in lines { out.line(l) }
            out.flush()
        },
        Command<DiskOptions>(name: "disk", abstract: "Cells within grid distance K of a cell, sorted.") { o, _ in
            var out = LineWriter()
            for c in try H3.gridDisk(try Hexagons.cell(o.id), k: o.k).sorted() { out.line(c.description) }
            out.flush()
        },
        Command<NoOptions>(name: "check-dump", abstract: "Batch protocol for scripts/checks/check_h3.py.", listed: false) { _, _ in
            var out = LineWriter()
            while let raw = readLine() { if let a = CheckDumpProtocol.answer(raw) { out.line(a) } }
            out.flush()
        },
        Command<BenchOptions>(name: "bench", abstract: "In-process timings of the H3 library (one core).", listed: false) { o, _ in
            for line in try Hexagons.bench(points: o.points, cells: o.cells) { print(line) }
        },
    ]).main()
