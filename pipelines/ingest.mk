# ingest: Natural Earth admin-0 → build/ingest/countries.geojson (one feature per app country)
#
# SCALE picks the input. 1:10m and 1:50m use the map units (France without its overseas
# departments, which the app draws as their own countries); 1:110m only exists as countries
# and lacks the app's microstates, which become Points at their capitals with attributes
# from the 1:50m map units.

INGEST_UNITS_10m  := $(NE)/ne_10m_admin_0_map_units.geojson
INGEST_UNITS_50m  := $(NE)/ne_50m_admin_0_map_units.geojson
INGEST_UNITS_110m := $(NE)/ne_110m_admin_0_countries.geojson
INGEST_UNITS := $(INGEST_UNITS_$(SCALE))

INGEST_FLAGS_110m := --points-from $(INGEST_UNITS_50m)
INGEST_EXTRA_INPUTS_110m := $(INGEST_UNITS_50m)
INGEST_FLAGS ?= $(INGEST_FLAGS_$(SCALE))
# Files the flags name (add yours when overriding INGEST_FLAGS with other files).
INGEST_EXTRA_INPUTS ?= $(INGEST_EXTRA_INPUTS_$(SCALE))

INGEST_TABLES := $(DATA)/app_country_codes.txt $(DATA)/id_remaps.tsv $(DATA)/continents.tsv \
                 $(DATA)/capitals.tsv $(DATA)/names.tsv $(NE_PLACES) \
                 $(DATA)/capital_aliases.tsv $(DATA)/name_aliases.tsv $(DATA)/geonames/countries.tsv
# INGEST_OUT and INGEST_PLACES (Makefile, later pipelines read them): the countries and the
# populated places compacted, written by one run.

.PHONY: ingest
ingest: $(INGEST_OUT) $(INGEST_PLACES)

# One run writes both (grouped targets). INGEST_OUT stays the name the stage is logged under.
$(INGEST_OUT) $(INGEST_PLACES): private STAGE_PRODUCT := $(INGEST_OUT)
$(INGEST_OUT) $(INGEST_PLACES) &: $(BIN)/geo-ingest $(INGEST_UNITS) $(INGEST_EXTRA_INPUTS) $(INGEST_TABLES) \
    $(call params,ingest,$(SCALE) $(DATA) $(INGEST_UNITS) $(INGEST_EXTRA_INPUTS) $(INGEST_TABLES) $(INGEST_FLAGS)) pipelines/ingest.mk
	$(STAGE) $(BIN)/geo-ingest $(INGEST_UNITS) -o $(INGEST_OUT) --places-out $(INGEST_PLACES) --data-dir $(DATA) $(INGEST_FLAGS)

ALL_PRODUCTS += $(INGEST_OUT) $(INGEST_PLACES)
