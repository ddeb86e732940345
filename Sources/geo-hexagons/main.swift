// geo-hexagons: command-line front of the pure-Swift H3 library (debugging and scripts); the
// work is the Hexagons library's.
//
//   geo-hexagons cell --res R            lat,lon lines (degrees) on stdin → one cell id per line
//   geo-hexagons polyfill --res R F.json cells of the file's (Multi)Polygon features, sorted
//   geo-hexagons boundary                cell ids on stdin → GeoJSON FeatureCollection
//   geo-hexagons disk --k K ID           cells within grid distance K, sorted
//   geo-hexagons check-dump              batch protocol used by scripts/checks/check_h3.py
//   geo-hexagons bench                   in-process timings (bench/h3.py)

import ArgumentParser
import Foundation
import H3
import Hexagons

struct GeoHexagons: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo-hexagons",
        abstract: "Uber H3 hexagon grid (pure Swift, equal to h3 4.5.0) for scripts and debugging.",
        subcommands: [Cell.self, Polyfill.self, Boundary.self, Disk.self, CheckDump.self, Bench.self])
}

struct Cell: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "lat,lon lines (degrees) on stdin → one cell id per line.")
    @Option(help: "H3 resolution 0...15") var res: Int

    func run() throws {
        var out = LineWriter()
        try Hexagons.cells(res: res, lines: { readLine() }, out: &out)
    }
}

struct Polyfill: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Cells (centre inside) of a GeoJSON file's (Multi)Polygon features, sorted.",
        discussion: "Refuses, before any work, an answer h3's maxPolygonToCellsSize puts above --max-cells.")
    @Option(help: "H3 resolution 0...15") var res: Int
    @Option(help: "Largest number of cells answered (h3's estimate, checked first).") var maxCells: Int = Hexagons.defaultMaxCells
    @Argument(help: "GeoJSON file") var file: String

    func validate() throws {
        guard maxCells >= 1 else { throw ValidationError("--max-cells must be at least 1") }
    }

    func run() throws {
        guard (0...15).contains(res) else { throw H3Error.invalidResolution(res) }
        let cells = try Hexagons.polyfill(try PolygonFile.polygons(path: file), res: res, maxCells: maxCells, file: file)
        var out = LineWriter()
        for c in cells { out.line(c.description) }
        out.flush()
    }
}

struct Boundary: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Cell ids on stdin → GeoJSON FeatureCollection of their boundaries.")

    func run() throws {
        let lines = try BoundaryGeoJSON.collection(try Hexagons.cellList(lines: { readLine() }))
        var out = LineWriter()
        for l in lines { out.line(l) }
        out.flush()
    }
}

struct Disk: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Cells within grid distance K of a cell, sorted.")
    @Option(help: "grid distance ≥ 0") var k: Int
    @Argument(help: "cell id (hex)") var id: String

    func run() throws {
        var out = LineWriter()
        for c in try H3.gridDisk(try Hexagons.cell(id), k: k).sorted() { out.line(c.description) }
        out.flush()
    }
}

struct CheckDump: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check-dump", abstract: "Batch protocol for scripts/checks/check_h3.py.", shouldDisplay: false)

    func run() throws {
        var out = LineWriter()
        while let raw = readLine() { if let a = CheckDumpProtocol.answer(raw) { out.line(a) } }
        out.flush()
    }
}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "In-process timings of the H3 library (one core).", shouldDisplay: false)
    @Option(help: "points for latLngToCell") var points = 2_000_000
    @Option(help: "cells for cellToBoundary") var cells = 1_000_000

    func run() throws {
        for line in try Hexagons.bench(points: points, cells: cells) { print(line) }
    }
}

// `geo-hexagons -q polyfill …` (flags first, as the bad-input harness calls every tool): the
// tool prints no progress, so a leading -q is accepted and dropped.
GeoHexagons.main(Array(CommandLine.arguments.dropFirst().drop { $0 == "-q" || $0 == "--quiet" }))
