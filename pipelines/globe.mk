# globe: dist/world.geojson → dist/globe.glb (glTF 2.0 binary, CONTRACTS §2–3), its manifest
# and preview pictures. Every parameter below is overridable (make globe GLOBE_MAX_EDGE=2);
# a change reruns the stage through the params file.

WORLD_OUT ?= $(DIST)/world.geojson

GLOBE_MAX_EDGE ?= 2.5
GLOBE_MAX_LON_STEP ?= 10
GLOBE_OCEAN_RADIUS ?= 1.0
GLOBE_FILL_RADIUS ?= 1.003
GLOBE_OUTLINE_RADIUS ?= 1.004
GLOBE_POINT_RADIUS ?= 1.005
GLOBE_DISC_RADIUS ?= 0.012
GLOBE_RIM_RADIUS ?= 0.014
GLOBE_CAPITAL_RADIUS ?= 1.006
GLOBE_STAR_SIZE ?= 0.006
GLOBE_ATMOSPHERE_RADIUS ?= 1.08
GLOBE_SPHERE_MAX_EDGE ?= 2.5
GLOBE_PREVIEW_SIZE ?= 720
GLOBE_THREADS ?= 2
GLOBE_EXTRA_FLAGS ?=

GLOBE_FLAGS := --max-edge $(GLOBE_MAX_EDGE) --max-lon-step $(GLOBE_MAX_LON_STEP) \
  --ocean-radius $(GLOBE_OCEAN_RADIUS) --fill-radius $(GLOBE_FILL_RADIUS) \
  --outline-radius $(GLOBE_OUTLINE_RADIUS) --point-radius $(GLOBE_POINT_RADIUS) \
  --disc-radius $(GLOBE_DISC_RADIUS) --rim-radius $(GLOBE_RIM_RADIUS) \
  --capital-radius $(GLOBE_CAPITAL_RADIUS) --star-size $(GLOBE_STAR_SIZE) \
  --atmosphere-radius $(GLOBE_ATMOSPHERE_RADIUS) --sphere-max-edge $(GLOBE_SPHERE_MAX_EDGE) \
  --preview-size $(GLOBE_PREVIEW_SIZE) --threads $(GLOBE_THREADS) $(GLOBE_EXTRA_FLAGS)

GLOBE_OUT := $(DIST)/globe.glb
GLOBE_MANIFEST := $(DIST)/globe.manifest.json
GLOBE_PREVIEW_DIR := $(DIST)/preview
GLOBE_PREVIEWS := $(addprefix $(GLOBE_PREVIEW_DIR)/,atlantic.png pacific.png south_pole.png)

.PHONY: globe
globe: $(GLOBE_OUT)

# One run writes the .glb, the manifest and the previews; the .glb is the rule's target and the
# others are written before it is renamed into place.
$(GLOBE_OUT): $(WORLD_OUT) $(BIN)/geo-globe $(call params,globe,$(WORLD_OUT) $(GLOBE_FLAGS)) pipelines/globe.mk
	$(STAGE) $(BIN)/geo-globe $(WORLD_OUT) -o $@ --manifest $(GLOBE_MANIFEST) --preview-dir $(GLOBE_PREVIEW_DIR) $(GLOBE_FLAGS)

$(GLOBE_MANIFEST) $(GLOBE_PREVIEWS): $(GLOBE_OUT) ;

ALL_PRODUCTS += $(GLOBE_OUT) $(GLOBE_MANIFEST) $(GLOBE_PREVIEWS)
