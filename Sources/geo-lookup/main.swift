import LookupStage
import StageCommand

/// `geo-lookup build …` runs the stage; `geo-lookup LAT LON` and `--batch` ask the index; `bench` times it.
CommandGroup(
    name: "geo-lookup",
    abstract: "Offline \"where is this?\": build the lookup index, or ask it which country and city a point is in.",
    subcommands: [
        StageFront<LookupStage>(
            name: "build",
            abstract: "Full-detail country polygons + populated places → the lookup index (dist/lookup/lookup.bin).",
            discussion: """
            Writes the index the GeoLookup library reads (LookupStage): a 1° grid of quadtrees
            whose cells are one country, open sea or a few border edges; the coast edges give the
            12-nautical-mile rule. Fails if the index would exceed --max-bytes. Same inputs, same bytes.

            Example:
              geo-lookup build build/ingest/countries.geojson --places build/ingest/places.geojson -o dist/lookup/lookup.bin
            """),
        Command<LookupStage.QueryOptions>(
            name: "query",
            abstract: "Country and nearest city of one point, or of every line of standard input.",
            discussion: """
            Answers `lat,lon,country,city` lines (GeoLookup.answer): the country is empty at sea
            beyond 12 nautical miles of a coast, the city the nearest populated place within
            --city-km. --batch reads `lat,lon` lines on standard input and answers each in order;
            a bad line stops it with an error naming the line, after the answers before it.
            Negative coordinates need no "--": geo-lookup -33.87 151.21.

            Examples:
              geo-lookup 48.8566 2.3522
              printf '35.68,139.69\\n-33.87,151.21\\n' | geo-lookup --batch --index dist/lookup/lookup.bin
            """,
            run: { o, _ in try LookupStage.query(o) }),
        Command<LookupStage.BenchOptions>(
            name: "bench",
            abstract: "Size, load time and lookups per second of an index, on one core (make bench).",
            discussion: """
            Loads the index --loads times, then times country(at:) and nearestCity(within: 25 km)
            on one thread (LookupStage.bench). Prints one `name<TAB>value` line per measure.
            """,
            run: { o, _ in for m in try LookupStage.bench(index: o.index, points: o.points, loads: o.loads) { print("\(m.name)\t\(m.value)") } }),
    ],
    defaultSubcommand: "query").main()
