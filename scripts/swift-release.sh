#!/usr/bin/env bash
# The package's one Swift build: release, compiled so that the tests can `@testable import` it.
#   scripts/swift-release.sh build [swift build args…]   the binaries (make, the benches)
#   scripts/swift-release.sh test  [swift test args…]    the unit tests, against those same objects
# `make test` then compiles the package once, not twice (release for the stages, debug for the
# tests), and the suites that run the real stages on the real data run optimized.
# The flags must be the same text in both: SwiftPM recompiles every module whose command line
# changed, and `swift test` would add its own -enable-testing beside ours.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-}; shift || true
case "$what" in
  build) exec swift build -c release -Xswiftc -enable-testing "$@" ;;
  test)  exec swift test -c release --disable-testable-imports -Xswiftc -enable-testing "$@" ;;
  *) echo "usage: scripts/swift-release.sh build|test [swift's own arguments…]" >&2; exit 2 ;;
esac
