# lookup: full-detail country polygons + Natural Earth populated places → dist/lookup/lookup.bin
#
# The offline "where is this?" index (issue #16, CONTRACTS §7) that the GeoLookup library
# (Sources/GeoLookup, pure Swift, embedded by the apps) reads: country at a point (12 nmi of
# sea count for the nearest coast's country), nearest city. Format: IndexFormat.swift.

# Split a cell holding more border edges than this (fewer: faster lookups, a bigger file).
LOOKUP_MAX_EDGES ?= 32
# Deepest split below the 1° cells of open sea where the buffer's edge passes (3 → 1/8°).
LOOKUP_SEA_DEPTH ?= 3
# The apps bundle the index: the stage fails past this size.
LOOKUP_MAX_BYTES ?= 5000000

LOOKUP_OUT := $(DIST)/lookup/lookup.bin
LOOKUP_FLAGS = --max-edges $(LOOKUP_MAX_EDGES) --sea-depth $(LOOKUP_SEA_DEPTH) --max-bytes $(LOOKUP_MAX_BYTES)

.PHONY: lookup
lookup: $(LOOKUP_OUT)

$(LOOKUP_OUT): $(INGEST_OUT) $(NE_PLACES) $(BIN)/geo-lookup $(call params,lookup,$(LOOKUP_FLAGS)) pipelines/lookup.mk
	$(STAGE) $(BIN)/geo-lookup build $(INGEST_OUT) --places $(NE_PLACES) -o $@ $(LOOKUP_FLAGS)

ALL_PRODUCTS += $(LOOKUP_OUT)
