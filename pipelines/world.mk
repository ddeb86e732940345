# world: build/ingest/countries.geojson → dist/world.geojson (CONTRACTS §1)
#
# Repairs invalid countries (GEOS make-valid), drops islands and empty holes below
# WORLD_MIN_ISLAND_KM2 (a country keeps at least its largest part), turns countries whose
# largest drawable part is below WORLD_POINT_AREA_KM2 into renderAs "point" features at their
# capital, and simplifies the coverage through its shared arcs to WORLD_TARGET_VERTICES
# positions (0 keeps every vertex, collinear ones included; a budget the data cannot reach is
# warned about and reported as "# budget_unreachable"). With WORLD_FILL_POINT_GAPS=yes (default) a point country's
# parts that border drawn countries go to the neighbour with the longest shared border (at 1:10m
# Andorra to Spain, Monaco to France), so the land has no hole where it was; `no` leaves the hole.
# Per-country report: build/world/report.tsv.
# Override on the command line, e.g. `make world WORLD_TARGET_VERTICES=120000`. The defaults
# live in the stage (WorldStage.Options, shown by `geo-world --help`): a variable left empty
# passes no flag. Only the budgets of the coarser scales are make's own (the stage knows no scale).

WORLD_TARGET_VERTICES_50m  := 60000
WORLD_TARGET_VERTICES_110m := 0
WORLD_TARGET_VERTICES ?= $(WORLD_TARGET_VERTICES_$(SCALE))
WORLD_MIN_ISLAND_KM2 ?=
WORLD_POINT_AREA_KM2 ?=
# yes, no, or empty (the stage's default: yes).
WORLD_FILL_POINT_GAPS ?=
WORLD_THREADS ?=
# A fixed Douglas–Peucker tolerance (km) instead of the budget's. Empty: the budget decides (the
# report records what it decided, # tolerance_km_exact). With RELEASE_PREVIOUS (a command-line
# variable of `make release`) it is that release's (its manifest's world.tolerance_km, when made at
# this SCALE), so that arcs an edit does not touch come out identical.
# Read once (`:=`, as `?=` would but simply expanded): a recursive value would run the reader
# again at each use of WORLD_FLAGS (its parameters, its rule, its recipe).
ifeq ($(origin WORLD_TOLERANCE_KM),undefined)
  WORLD_TOLERANCE_KM := $(if $(strip $(RELEASE_PREVIOUS)),$(shell $(PYTHON) -c 'import json, sys; m = json.load(open(sys.argv[1])); \
    t = m.get("world", {}).get("tolerance_km"); print(repr(t) if t is not None and m["release"]["scale"] == sys.argv[2] else "")' \
    $(RELEASE_PREVIOUS)/manifest.json $(SCALE) 2>/dev/null))
endif
ifneq ($(strip $(RELEASE_PREVIOUS)),)
  ifeq ($(strip $(WORLD_TOLERANCE_KM)),)
    $(warning RELEASE_PREVIOUS=$(RELEASE_PREVIOUS) records no world tolerance at SCALE=$(SCALE): the vertex budget decides afresh)
  endif
endif

WORLD_REPORT := $(BUILD)/world/report.tsv
WORLD_FLAGS := $(call flag,--target-vertices,$(WORLD_TARGET_VERTICES)) $(call flag,--min-island-km2,$(WORLD_MIN_ISLAND_KM2)) \
               $(call flag,--point-area-km2,$(WORLD_POINT_AREA_KM2)) $(call flag,--threads,$(WORLD_THREADS)) \
               $(if $(filter yes,$(WORLD_FILL_POINT_GAPS)),--fill-point-gaps) $(if $(filter no,$(WORLD_FILL_POINT_GAPS)),--no-fill-point-gaps) \
               $(call flag,--tolerance-km,$(WORLD_TOLERANCE_KM))
ifeq ($(filter $(WORLD_FILL_POINT_GAPS),yes no),$(WORLD_FILL_POINT_GAPS))
else
  $(error WORLD_FILL_POINT_GAPS must be yes, no or empty (got '$(WORLD_FILL_POINT_GAPS)'))
endif

.PHONY: world
world: $(WORLD_OUT) $(WORLD_REPORT)

# One run writes the GeoJSON and then its report (grouped targets: either missing or stale reruns
# it; scripts/checks/check_world.py needs both). WORLD_OUT stays the product, and the name the
# stage's time is logged under.
$(WORLD_OUT) $(WORLD_REPORT): private STAGE_PRODUCT := $(WORLD_OUT)
$(WORLD_OUT) $(WORLD_REPORT) &: $(INGEST_OUT) $(BIN)/geo-world $(call params,world,$(SCALE) $(INGEST_OUT) $(WORLD_FLAGS)) pipelines/world.mk
	$(STAGE) $(BIN)/geo-world $(INGEST_OUT) -o $(WORLD_OUT) --report $(WORLD_REPORT) $(WORLD_FLAGS)

ALL_PRODUCTS += $(WORLD_OUT) $(WORLD_REPORT)

