# inspect: the products → dist/inspect/index.html, a static page to look at them (issue 23)
#
# Opens from the file system with no network: Leaflet comes from Debian's libjs-leaflet
# (/usr/share/javascript/leaflet, copied next to the page), the data is embedded as a script
# (dist/inspect/data.js; browsers refuse fetch() on file:// pages). Layers: the app's countries
# (click one: name, capital, aliases, its row of build/world/report.tsv, repairs, silhouette),
# point countries, capitals, silhouettes, the largest cities, the routes, territory cells by
# owner, a lookup probe. INSPECT_CHANGES=<release>/changes.json highlights what a release
# changed (a release's own page, <release>/inspect/, always does). Append #layers=all to the
# page's address to turn every layer on.

# The defaults live in the stage (InspectStage.Options, `geo-inspect --help`): the
# largest cities drawn (1000), lookup probe points drawn (4000), Debian's libjs-leaflet folder.
INSPECT_CITIES ?=
INSPECT_PROBE_POINTS ?=
INSPECT_CHANGES ?=
INSPECT_LEAFLET ?=

INSPECT_DIR := $(DIST)/inspect
INSPECT_OUT := $(INSPECT_DIR)/index.html
INSPECT_FLAGS := $(call flag,--cities,$(INSPECT_CITIES)) $(call flag,--probe-points,$(INSPECT_PROBE_POINTS)) \
  $(call flag,--changes,$(INSPECT_CHANGES)) $(call flag,--leaflet,$(INSPECT_LEAFLET))

.PHONY: inspect
inspect: $(INSPECT_OUT)

# One run writes index.html, data.js and leaflet/ (index.html last).
# ($$: other pipelines' variables, expanded once every pipeline is read, so the include order does not matter.)
$(INSPECT_OUT): $(WORLD_OUT) $$(WORLD_REPORT) $$(CITIES_SEED) $$(ROUTES_OUT) $$(TERRITORY_OUT) $$(LOOKUP_OUT) $$(SIL_INDEX) $(INSPECT_CHANGES) \
    $(BIN)/geo-inspect $(call params,inspect,$(INSPECT_FLAGS)) pipelines/inspect.mk
	$(STAGE) $(BIN)/geo-inspect --world $(WORLD_OUT) --world-report $(WORLD_REPORT) --cities-seed $(CITIES_SEED) \
	  --routes $(DIST)/routes/routes.geojson --territory $(TERRITORY_DIR)/territory.geojson --lookup $(LOOKUP_OUT) \
	  --silhouettes $(SIL_DIR) --out $(INSPECT_DIR) $(INSPECT_FLAGS)

ALL_PRODUCTS += $(INSPECT_OUT)
