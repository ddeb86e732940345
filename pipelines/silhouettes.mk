# silhouettes: dist/world.geojson → dist/silhouettes/<ISO>.svg (one per polygon country),
# index.html, manifest.json, contact-sheet.svg and contact-sheet.png (rsvg-convert).
#
# index.html is the rule's target (there are many SVGs); the stage rewrites every file.
# Parameters (see `geo-silhouettes --help`):
#   SIL_SIZE           side of the square viewBox            SIL_PADDING     margin, viewBox units
#   SIL_MIN_PART_SHARE drop parts under this area share      SIL_TOLERANCE   simplification, units
#   SIL_DECIMALS       coordinate decimals                   SIL_MAX_BYTES   byte budget per file
#   SIL_REMOTE_SHARE / SIL_REMOTE_DISTANCE  drop small parts far from the rest (Canaries for ES)

SIL_SIZE ?= 1000
SIL_PADDING ?= 40
SIL_MIN_PART_SHARE ?= 0.0005
SIL_REMOTE_SHARE ?= 0.02
SIL_REMOTE_DISTANCE ?= 1.0
SIL_TOLERANCE ?= 0.7
SIL_DECIMALS ?= 0
SIL_MIN_RING_AREA ?= 2
SIL_MAX_BYTES ?= 10000
SIL_THREADS ?= 2
SIL_DIR := $(DIST)/silhouettes
SIL_INDEX := $(SIL_DIR)/index.html
SIL_SHEET_PNG := $(SIL_DIR)/contact-sheet.png
SIL_FLAGS := --size $(SIL_SIZE) --padding $(SIL_PADDING) --min-part-share $(SIL_MIN_PART_SHARE) \
  --remote-share $(SIL_REMOTE_SHARE) --remote-distance $(SIL_REMOTE_DISTANCE) --tolerance $(SIL_TOLERANCE) \
  --decimals $(SIL_DECIMALS) --min-ring-area $(SIL_MIN_RING_AREA) --max-bytes $(SIL_MAX_BYTES)

.PHONY: silhouettes
silhouettes: $(SIL_INDEX) $(SIL_SHEET_PNG)

$(SIL_INDEX): $(WORLD_OUT) $(BIN)/geo-silhouettes $(call params,silhouettes,$(WORLD_OUT) $(SIL_FLAGS)) pipelines/silhouettes.mk
	$(STAGE) $(BIN)/geo-silhouettes $(WORLD_OUT) -o $(SIL_DIR) $(SIL_FLAGS) --threads $(SIL_THREADS)

$(SIL_SHEET_PNG): $(SIL_INDEX)
	$(RSVG) -f png -o $@.tmp $(SIL_DIR)/contact-sheet.svg
	mv $@.tmp $@

ALL_PRODUCTS += $(SIL_INDEX) $(SIL_SHEET_PNG)
