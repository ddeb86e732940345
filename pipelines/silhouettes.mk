# silhouettes: dist/world.geojson → dist/silhouettes/<ISO>.svg (one per polygon country),
# index.html, manifest.json, contact-sheet.svg and contact-sheet.png (rsvg-convert).
#
# index.html is the rule's target (there are many SVGs); the stage rewrites every file.
# Parameters (defaults in the stage, SilhouettesStage.Options, shown by `geo-silhouettes --help`;
# a variable left empty passes no flag):
#   SIL_SIZE           side of the square viewBox            SIL_PADDING     margin, viewBox units
#   SIL_MIN_PART_SHARE drop parts under this area share      SIL_TOLERANCE   simplification, units
#   SIL_DECIMALS       coordinate decimals                   SIL_MAX_BYTES   byte budget per file
#   SIL_REMOTE_SHARE / SIL_REMOTE_DISTANCE  drop small parts far from the rest (Canaries for ES)
#   SIL_MIN_RING_AREA  drop rings smaller than this          SIL_THREADS     worker threads

SIL_SIZE ?=
SIL_PADDING ?=
SIL_MIN_PART_SHARE ?=
SIL_REMOTE_SHARE ?=
SIL_REMOTE_DISTANCE ?=
SIL_TOLERANCE ?=
SIL_DECIMALS ?=
SIL_MIN_RING_AREA ?=
SIL_MAX_BYTES ?=
SIL_THREADS ?=
SIL_DIR := $(DIST)/silhouettes
SIL_INDEX := $(SIL_DIR)/index.html
SIL_SHEET_PNG := $(SIL_DIR)/contact-sheet.png
SIL_FLAGS := $(call flag,--size,$(SIL_SIZE)) $(call flag,--padding,$(SIL_PADDING)) \
  $(call flag,--min-part-share,$(SIL_MIN_PART_SHARE)) $(call flag,--remote-share,$(SIL_REMOTE_SHARE)) \
  $(call flag,--remote-distance,$(SIL_REMOTE_DISTANCE)) $(call flag,--tolerance,$(SIL_TOLERANCE)) \
  $(call flag,--decimals,$(SIL_DECIMALS)) $(call flag,--min-ring-area,$(SIL_MIN_RING_AREA)) \
  $(call flag,--max-bytes,$(SIL_MAX_BYTES)) $(call flag,--threads,$(SIL_THREADS))

.PHONY: silhouettes
silhouettes: $(SIL_INDEX) $(SIL_SHEET_PNG)

$(SIL_INDEX): $(WORLD_OUT) $(BIN)/geo-silhouettes $(call params,silhouettes,$(WORLD_OUT) $(SIL_FLAGS)) pipelines/silhouettes.mk
	$(STAGE) $(BIN)/geo-silhouettes $(WORLD_OUT) --output-dir $(SIL_DIR) $(SIL_FLAGS)

$(SIL_SHEET_PNG): $(SIL_INDEX)
	$(RSVG) -f png -o $@.tmp $(SIL_DIR)/contact-sheet.svg && mv $@.tmp $@

ALL_PRODUCTS += $(SIL_INDEX) $(SIL_SHEET_PNG)
