import ReleaseStage
import StageCommand

StageFront<ReleaseStage>(
    name: "geo-release",
    abstract: "Copy the products into a release directory with manifest.json, changes.json, CHANGES.md and inspect/.",
    discussion: """
    Reads the products (--dist, as `make all` leaves them), the world report, the data
    directory and make's parameter files; writes OUT (replaced, through OUT.partial) with
    the products, reports/world.tsv, manifest.json (every file's bytes and sha256, every
    input's sha256 with its source and version from DATA/README.md, every parameter, the
    commit, the tolerance the world's vertex budget decided), changes.json and CHANGES.md
    against --previous (countries' largest border move in km and area change, field
    changes, quiz days, cities, a lookup probe, file sizes), and the inspection page in
    OUT/inspect/. Fails, writing nothing, when a quiz day before --day would change.
    `make release RELEASE_DIR=… [RELEASE_PREVIOUS=…]` builds every product first, reusing
    the previous release's world tolerance.

    Example:
      geo-release --out releases/2026-11-25 --previous releases/2026-11-24 --day 2026-11-25 \\
        --commit $(git rev-parse HEAD)
    """).main()
