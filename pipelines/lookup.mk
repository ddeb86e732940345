# lookup: full-detail country polygons + Natural Earth populated places → dist/lookup/lookup.bin
#
# The offline "where is this?" index (issue #16, CONTRACTS §7) that the GeoLookup library
# (Sources/GeoLookup, pure Swift, embedded by the apps) reads: country at a point (12 nmi of
# sea count for the nearest coast's country), nearest city. Format: IndexFormat.swift.

# The defaults live in the stage (LookupStage.Options, shown by `geo-lookup build --help`):
# a variable left empty passes no flag. LOOKUP_MAX_EDGES: split a cell holding more border
# edges (fewer: faster lookups, a bigger file; 32); LOOKUP_SEA_DEPTH: deepest split below the
# 1° cells of open sea where the buffer's edge passes (3 → 1/8°); LOOKUP_MAX_BYTES: the stage
# fails past this size (the apps bundle the index; 5000000); LOOKUP_THREADS: root rows built at
# once (2; the bytes do not depend on it).
LOOKUP_MAX_EDGES ?=
LOOKUP_SEA_DEPTH ?=
LOOKUP_MAX_BYTES ?=
LOOKUP_THREADS ?=

# LOOKUP_OUT (Makefile: geo-routes reads it too) is the index.
LOOKUP_FLAGS := $(call flag,--max-edges,$(LOOKUP_MAX_EDGES)) $(call flag,--sea-depth,$(LOOKUP_SEA_DEPTH)) \
  $(call flag,--max-bytes,$(LOOKUP_MAX_BYTES)) $(call flag,--threads,$(LOOKUP_THREADS))

.PHONY: lookup
lookup: $(LOOKUP_OUT)

$(LOOKUP_OUT): $(INGEST_OUT) $(INGEST_PLACES) $(BIN)/geo-lookup $(call params,lookup,$(INGEST_OUT) $(INGEST_PLACES) $(LOOKUP_FLAGS)) pipelines/lookup.mk
	$(STAGE) $(BIN)/geo-lookup build $(INGEST_OUT) --places $(INGEST_PLACES) -o $@ $(LOOKUP_FLAGS)

ALL_PRODUCTS += $(LOOKUP_OUT)
