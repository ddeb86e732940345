import ReleaseStage
import StageCommand

StageFront<InspectStage>(
    name: "geo-inspect",
    abstract: "Write the static inspection page (Leaflet, no network) of the products.",
    discussion: """
    Writes OUT/index.html, OUT/data.js (the data, embedded as a script: pages opened from
    the file system cannot fetch) and OUT/leaflet/ (copied from Debian's libjs-leaflet).
    Open OUT/index.html in a browser and click a country; `#layers=all` at the end of the
    address turns every layer on. A release (geo-release) writes its own page, with the
    countries it changed highlighted.

    Example:
      geo-inspect --out dist/inspect
      geo-inspect --changes releases/2026-11-25/changes.json
    """).main()
