import StageCommand
import MapStage

StageFront<MapStage>(
    name: "geo-map",
    abstract: "world.geojson → a flat world map through PROJ: projected GeoJSON and an SVG in the app's palette.",
    discussion: """
    Reads dist/world.geojson (CONTRACTS §1) and writes, in the Makefile, to dist/map/:
      • world-projected.geojson: the same features in map metres (foreign members
        "projection", "centralMeridian" and "extent" say how), RFC 7946 winding in the plane;
      • world.svg: the map in CONTRACTS §3 colours (ocean #2F86A6 inside the projected
        globe's outline, land #34BE82, black borders, point countries as dots), one element
        per country with id = ISO code and a <title> with its name. (`make map` renders
        world.png from it with rsvg-convert.)
    --projection takes an EPSG/ESRI code or a PROJ string: Equal Earth (EPSG:8857, default),
    Robinson (ESRI:54030 or "+proj=robin"), Natural Earth ("+proj=natearth"), Web Mercator
    (EPSG:3857; latitudes are clipped to ±85.0511° because the poles do not project).
    When the projection's central meridian is not 0°, rings are cut at its antimeridian
    (the map's edge) so no polygon is smeared across the map, and the parts that Natural
    Earth split at ±180° (Fiji, Chukotka) are joined again. Long edges are densified to 1°
    so they follow the projection's curves. Ids must be two upper-case letters.

    Example:
      geo-project dist/world.geojson --projection "+proj=robin +lon_0=150" \\
        --geojson /tmp/pacific.geojson --svg /tmp/pacific.svg
    """).main()
