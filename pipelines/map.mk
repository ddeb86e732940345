# map: dist/world.geojson → dist/map/ (projected GeoJSON, SVG world map, PNG render)
#
# MAP_PROJECTION takes an EPSG/ESRI code or a PROJ string: Equal Earth by default; e.g.
#   make map MAP_PROJECTION='+proj=robin +lon_0=150'   (Pacific-centred Robinson)
#   make map MAP_PROJECTION=EPSG:3857                  (Web Mercator, clipped to ±85.05°)
# The PNG is rendered from the SVG by rsvg-convert (Debian librsvg2-bin).
# The stage's parameters default in the stage (MapStage.Options, shown by `geo-map --help`:
# Equal Earth, 2000 px wide, 0.4 px borders): a variable left empty passes no flag.

MAP_PROJECTION ?=
MAP_WIDTH ?=
MAP_BORDER_WIDTH ?=
MAP_PNG_WIDTH ?= 2000
MAP_DIR := $(DIST)/map
MAP_GEOJSON := $(MAP_DIR)/world-projected.geojson
MAP_SVG := $(MAP_DIR)/world.svg
MAP_PNG := $(MAP_DIR)/world.png
MAP_SIZE_FLAGS := $(call flag,--width,$(MAP_WIDTH)) $(call flag,--border-width,$(MAP_BORDER_WIDTH))

.PHONY: map
map: $(MAP_GEOJSON) $(MAP_SVG) $(MAP_PNG)

# One run writes both files (a grouped target, GNU make ≥ 4.3).
$(MAP_SVG) $(MAP_GEOJSON) &: $(WORLD_OUT) $(BIN)/geo-map $(call params,map,$(WORLD_OUT) $(call flag,--projection,$(MAP_PROJECTION)) $(MAP_SIZE_FLAGS)) pipelines/map.mk
	$(STAGE) $(BIN)/geo-map $(WORLD_OUT) --geojson $(MAP_GEOJSON) --svg $(MAP_SVG) \
	  $(if $(strip $(MAP_PROJECTION)),--projection '$(MAP_PROJECTION)') $(MAP_SIZE_FLAGS)

$(MAP_PNG): $(MAP_SVG) $(call params,map-png,$(MAP_PNG_WIDTH)) pipelines/map.mk
	$(RSVG) -w $(MAP_PNG_WIDTH) -f png -o $@.tmp $< && mv $@.tmp $@

ALL_PRODUCTS += $(MAP_GEOJSON) $(MAP_SVG) $(MAP_PNG)
