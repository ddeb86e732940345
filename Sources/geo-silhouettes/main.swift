import StageCommand
import SilhouettesStage

StageFront<SilhouettesStage>(
    name: "geo-silhouettes",
    abstract: "world.geojson → one SVG silhouette per polygon country for the quiz (CONTRACTS §4).",
    discussion: """
    Reads dist/world.geojson and writes to the output folder (dist/silhouettes/ in the Makefile):
      • <ISO>.svg for every polygon country (point countries get none): the country in a
        Lambert azimuthal equal-area projection (PROJ laea, WGS84) centred on the area-weighted
        mean direction of its parts on the sphere, so Fiji, Russia or New Zealand with the
        Chatham Islands stay one compact shape; fitted and centred in one square viewBox with
        padding; one even-odd path (holes such as Lesotho punched out); parts under
        --min-part-share of the country's area dropped (never the largest), and so are small
        remote parts (under --remote-share, farther than --remote-distance × √area from every
        larger part: the Canaries for Spain, Hawaii for the US); simplified with --tolerance
        (raised while a file exceeds --max-bytes) and rounded to --decimals viewBox units;
        rings smaller than --min-ring-area that vanish at this scale are dropped;
      • contact-sheet.svg (all silhouettes with code and name; `make silhouettes` renders
        contact-sheet.png from it), index.html, manifest.json (centre, drawn parts, sizes).
    Ids become file names, so only two upper-case letters are accepted. Silhouettes left over
    from an earlier run for ids no longer in the input are removed. Work is spread over
    --threads threads (one PROJ and GEOS context each); output does not depend on it.

    Example:
      geo-silhouettes dist/world.geojson -o /tmp/sil --size 512 --padding 16 --tolerance 0.5
    """).main()
