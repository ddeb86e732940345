# routes: data/routes.tsv + data/rewards.tsv → dist/routes/routes.geojson, content.sqlite3
#
# The focus-timer app's content (CONTRACTS §7): routes drawn along great circles with each
# location's geodesic distance, and the bundled SQLite database. Every location is checked
# against the lookup index (it must lie in its route's country).

# Longest straight piece of a drawn route, in degrees of arc; empty: the stage's default
# (RoutesStage.Options, 0.25°; `geo-routes --help`).
ROUTES_STEP_DEGREES ?=

ROUTES_SOURCE := $(DATA)/routes.tsv
ROUTES_REWARDS := $(DATA)/rewards.tsv
ROUTES_OUT := $(DIST)/routes/content.sqlite3
ROUTES_GEOJSON := $(DIST)/routes/routes.geojson
ROUTES_FLAGS := $(call flag,--step-degrees,$(ROUTES_STEP_DEGREES))

.PHONY: routes
routes: $(ROUTES_OUT) $(ROUTES_GEOJSON)

# One rule writes both files (the GeoJSON first, the database last); either one missing or
# stale reruns it.
$(ROUTES_OUT) $(ROUTES_GEOJSON): private STAGE_PRODUCT := $(ROUTES_OUT)
$(ROUTES_OUT) $(ROUTES_GEOJSON) &: $(ROUTES_SOURCE) $(ROUTES_REWARDS) $(LOOKUP_OUT) $(BIN)/geo-routes $(call params,routes,$(ROUTES_SOURCE) $(ROUTES_REWARDS) $(LOOKUP_OUT) $(ROUTES_FLAGS)) pipelines/routes.mk
	$(STAGE) $(BIN)/geo-routes $(ROUTES_SOURCE) --rewards $(ROUTES_REWARDS) --index $(LOOKUP_OUT) --output-dir $(@D) $(ROUTES_FLAGS)

ALL_PRODUCTS += $(ROUTES_OUT) $(ROUTES_GEOJSON)
