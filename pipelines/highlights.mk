# highlights: data/country_highlights.json (curated) → dist/country_highlights.json (CONTRACTS §5)
#
# Validated against the country set of world.geojson; each city is located in the Natural
# Earth populated places (data/highlight_places.tsv gives NE names for cities listed under
# another name) and checked against its country's polygon. Report: build/highlights/report.txt.

# The defaults live in the stage (HighlightsStage.Options, shown by `geo-highlights --help`): a
# variable left empty passes no flag, so the stage's own default applies. Set one to override it.
# A located city outside its country's simplified polygon still passes within this many km (25).
HIGHLIGHTS_COASTAL_KM ?=
# A city of a point country passes within this many km of the country's point (150).
HIGHLIGHTS_POINT_RADIUS_KM ?=

HIGHLIGHTS_SOURCE := $(DATA)/country_highlights.json
HIGHLIGHTS_ALIASES := $(DATA)/highlight_places.tsv
HIGHLIGHTS_OUT := $(DIST)/country_highlights.json
HIGHLIGHTS_REPORT := $(BUILD)/highlights/report.txt
HIGHLIGHTS_FLAGS = $(call flag,--coastal-tolerance,$(HIGHLIGHTS_COASTAL_KM)) $(call flag,--point-radius,$(HIGHLIGHTS_POINT_RADIUS_KM))

.PHONY: highlights
highlights: $(HIGHLIGHTS_OUT)

$(HIGHLIGHTS_OUT): $(HIGHLIGHTS_SOURCE) $(HIGHLIGHTS_ALIASES) $(WORLD_OUT) $(INGEST_PLACES) $(BIN)/geo-highlights $(call params,highlights,$(HIGHLIGHTS_SOURCE) $(HIGHLIGHTS_ALIASES) $(WORLD_OUT) $(INGEST_PLACES) $(HIGHLIGHTS_FLAGS)) pipelines/highlights.mk
	$(STAGE) $(BIN)/geo-highlights $(HIGHLIGHTS_SOURCE) --world $(WORLD_OUT) -o $@ --places $(INGEST_PLACES) \
	  --aliases $(HIGHLIGHTS_ALIASES) --report $(HIGHLIGHTS_REPORT) $(HIGHLIGHTS_FLAGS)

ALL_PRODUCTS += $(HIGHLIGHTS_OUT)
