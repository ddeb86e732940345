// Local ijk coordinates around an origin cell and the grid distance built on them
// (H3 C 4.5.0 localij.c semantics: the same pentagon unfolding and the same refusals).

// Rotation and failure tables of localij.c (H3 4.5.0, Copyright Uber Technologies, Inc.,
// Apache License 2.0), [leadingDigit * 7 + direction].
private let pentagonRotations: [Int] = [
    0, -1, 0, 0, 0, 0, 0,
    -1, -1, -1, -1, -1, -1, -1,
    0, -1, 0, 0, 0, 1, 0,
    0, -1, 0, 0, 1, 1, 0,
    0, -1, 0, 5, 0, 0, 0,
    0, -1, 5, 5, 0, 0, 0,
    0, -1, 0, 0, 0, 0, 0,
]
private let failedDirections: [Bool] = [
    false, false, false, false, false, false, false,
    false, false, false, false, false, false, false,
    false, false, false, false, true, true, false,
    false, false, false, false, true, false, true,
    false, false, true, true, false, false, false,
    false, false, true, false, false, false, true,
    false, false, false, true, false, true, false,
]

/// Direction from one base cell to a neighbouring one (7 if they are not neighbours).
func baseCellDirection(_ from: Int, _ to: Int) -> Int {
    for d in 0..<7 where Int(H3Tables.baseCellNeighbors[from * 7 + d]) == to { return d }
    return 7
}

/// Digits of h applied to ijk (0,0,0) in its base cell's coordinate system.
private func digitsToIjk(_ h: UInt64) -> CoordIJK {
    var c = CoordIJK(0, 0, 0)
    let res = h.h3Res
    var r = 1
    while r <= res {
        if isClassIII(r) { c.downAp7() } else { c.downAp7r() }
        c.neighbor(h.h3Digit(r))
        r += 1
    }
    return c
}

enum LocalIJKError: Error { case failed, invalid }

/// ijk of `cell` in the coordinate system anchored on `origin`'s base cell.
func cellToLocalIjk(_ origin: UInt64, _ cellIn: UInt64) throws -> CoordIJK {
    var h = cellIn
    let res = origin.h3Res
    let originBaseCell = origin.h3BaseCell
    let baseCell = h.h3BaseCell
    var dir = 0, revDir = 0
    if originBaseCell != baseCell {
        dir = baseCellDirection(originBaseCell, baseCell)
        if dir == 7 { throw LocalIJKError.failed }  // base cells not neighbours: cannot unfold
        revDir = baseCellDirection(baseCell, originBaseCell)
    }
    let originOnPent = isBaseCellPentagon(originBaseCell)
    let indexOnPent = isBaseCellPentagon(baseCell)
    if dir != 0 {
        let rots = Int(H3Tables.baseCellNeighbor60CCWRots[originBaseCell * 7 + dir])
        for _ in 0..<max(0, rots) {
            if indexOnPent {
                h = rotatePent60cw(h)
                revDir = rotateDigit60cw(revDir)
                if revDir == 1 { revDir = rotateDigit60cw(revDir) }
            } else {
                h = rotate60cw(h)
                revDir = rotateDigit60cw(revDir)
            }
        }
    }
    var ijk = digitsToIjk(h)
    if dir != 0 {
        var pentRots = 0, dirRots = 0
        if originOnPent {
            let lead = leadingNonZeroDigit(origin)
            if failedDirections[lead * 7 + dir] { throw LocalIJKError.failed }
            dirRots = pentagonRotations[lead * 7 + dir]
            pentRots = dirRots
        } else if indexOnPent {
            let lead = leadingNonZeroDigit(h)
            if failedDirections[lead * 7 + revDir] { throw LocalIJKError.failed }
            pentRots = pentagonRotations[revDir * 7 + lead]
        }
        if pentRots < 0 || dirRots < 0 { throw LocalIJKError.invalid }
        for _ in 0..<pentRots { ijk.rotate60cw() }
        var offset = CoordIJK(0, 0, 0)
        offset.neighbor(dir)
        var r = res - 1
        while r >= 0 {
            if isClassIII(r + 1) { offset.downAp7() } else { offset.downAp7r() }
            r -= 1
        }
        for _ in 0..<dirRots { offset.rotate60cw() }
        ijk = ijk + offset
        ijk.normalize()
    } else if originOnPent && indexOnPent {
        let ol = leadingNonZeroDigit(origin), il = leadingNonZeroDigit(h)
        if failedDirections[ol * 7 + il] { throw LocalIJKError.failed }
        let rots = pentagonRotations[ol * 7 + il]
        if rots < 0 { throw LocalIJKError.invalid }
        for _ in 0..<rots { ijk.rotate60cw() }
    }
    return ijk
}

extension H3 {
    /// Grid distance between two cells of the same resolution. Like h3, it fails when the
    /// cells are too far apart (base cells not neighbours) or pentagon distortion makes the
    /// local unfolding ambiguous.
    public static func gridDistance(_ a: H3Index, _ b: H3Index) throws -> Int {
        try checkCell(a)
        try checkCell(b)
        guard a.value.h3Res == b.value.h3Res else {
            throw H3Error.resolutionMismatch(cell: b.description, res: a.value.h3Res)
        }
        do {
            let o = try cellToLocalIjk(a.value, a.value)
            let d = try cellToLocalIjk(a.value, b.value)
            var diff = o - d
            diff.normalize()
            return max(abs(diff.i), max(abs(diff.j), abs(diff.k)))
        } catch {
            throw H3Error.failed("gridDistance(\(a), \(b)) is undefined: the cells are too far apart or separated by pentagon distortion")
        }
    }
}
