# cities: GeoNames cities ≥ 15,000 (data/geonames/) + dist/world.geojson → the city-ranking app's
# Supabase tables (CONTRACTS §7, issue #15): dist/supabase/cities/migrations/<timestamp>_cities.sql
# (tables, search_cities, trigram index, row-level security), …_cities_search.sql (the ranking, issue #33), …_cities_every_script.sql
# (names in every script, abbreviations, qualified queries, issue #40) and dist/supabase/cities/seed.sql
# (idempotent upserts; cities that left the source are marked, never deleted).
# Report: build/cities/report.tsv (every city whose country polygons and GeoNames disagree on).


# The defaults live in the stage (CitiesStage.Options, shown by `geo-cities --help`): a variable
# left empty passes no flag, so the stage's own default applies. Set one to override it.
# Another country's polygon holds the city but GeoNames' country is this close (km): kept (10).
CITIES_BORDER_KM ?=
# A city in no polygon (outside the simplified coast) goes to a country this close (km) (30).
CITIES_COASTAL_KM ?=
# A city GeoNames puts in a point country stays in it within this distance (km) of its point (50).
CITIES_POINT_RADIUS_KM ?=
# Entries of the same name in the same division this close (km) are one place, offered once by the search (10).
CITIES_DUPLICATE_KM ?=

CITIES_SOURCES := $(DATA)/geonames/cities15000.tsv $(DATA)/geonames/admin1_names.tsv $(DATA)/geonames/country_population.tsv $(DATA)/geonames/common_names.tsv $(DATA)/geonames/script_names.tsv $(DATA)/region_codes.tsv $(DATA)/territories.tsv
CITIES_DIR := $(DIST)/supabase/cities
CITIES_SEED := $(CITIES_DIR)/seed.sql
CITIES_REPORT := $(BUILD)/cities/report.tsv
CITIES_FLAGS := $(call flag,--border-tolerance,$(CITIES_BORDER_KM)) $(call flag,--coastal-tolerance,$(CITIES_COASTAL_KM)) \
  $(call flag,--point-radius,$(CITIES_POINT_RADIUS_KM)) \
  $(call flag,--duplicate-km,$(CITIES_DUPLICATE_KM))

.PHONY: cities
cities: $(CITIES_SEED)

# One run writes the migration, the seed and the report; the seed stands for all three.
$(CITIES_SEED): $(CITIES_SOURCES) $(WORLD_OUT) $(BIN)/geo-cities $(call params,cities,$(CITIES_SOURCES) $(WORLD_OUT) $(CITIES_FLAGS)) pipelines/cities.mk
	$(STAGE) $(BIN)/geo-cities --cities $(DATA)/geonames/cities15000.tsv --admin1 $(DATA)/geonames/admin1_names.tsv --common-names $(DATA)/geonames/common_names.tsv \
	  --script-names $(DATA)/geonames/script_names.tsv --region-codes $(DATA)/region_codes.tsv \
	  --country-table $(DATA)/geonames/country_population.tsv --territories $(DATA)/territories.tsv --world $(WORLD_OUT) \
	  --output-dir $(CITIES_DIR) --report $(CITIES_REPORT) $(CITIES_FLAGS)

ALL_PRODUCTS += $(CITIES_SEED)
