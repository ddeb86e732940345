# globe: dist/world.geojson → dist/globe.glb (glTF 2.0 binary, CONTRACTS §2–3), dist/globe.usdz (the same scene as USD) and its
# manifest (geo-globe), then dist/preview/*.png rendered from that .glb (geo-preview).
# Every parameter below is overridable (make globe GLOBE_MAX_EDGE=2); a change reruns the
# stage it belongs to through its params file.


# The defaults live in the stage (GlobeStage.Options, shown by `geo-globe --help`): a variable
# left empty passes no flag, so the stage's own default applies. Set one to override it.
GLOBE_MAX_EDGE ?=
GLOBE_MAX_LON_STEP ?=
GLOBE_OCEAN_RADIUS ?=
GLOBE_FILL_RADIUS ?=
GLOBE_OUTLINE_RADIUS ?=
GLOBE_POINT_RADIUS ?=
GLOBE_DISC_RADIUS ?=
GLOBE_RIM_RADIUS ?=
GLOBE_CAPITAL_RADIUS ?=
GLOBE_STAR_SIZE ?=
GLOBE_ATMOSPHERE_RADIUS ?=
GLOBE_SPHERE_MAX_EDGE ?=
GLOBE_THREADS ?=
GLOBE_EXTRA_FLAGS ?=

GLOBE_FLAGS := $(call flag,--max-edge,$(GLOBE_MAX_EDGE)) $(call flag,--max-lon-step,$(GLOBE_MAX_LON_STEP)) \
  $(call flag,--ocean-radius,$(GLOBE_OCEAN_RADIUS)) $(call flag,--fill-radius,$(GLOBE_FILL_RADIUS)) \
  $(call flag,--outline-radius,$(GLOBE_OUTLINE_RADIUS)) $(call flag,--point-radius,$(GLOBE_POINT_RADIUS)) \
  $(call flag,--disc-radius,$(GLOBE_DISC_RADIUS)) $(call flag,--rim-radius,$(GLOBE_RIM_RADIUS)) \
  $(call flag,--capital-radius,$(GLOBE_CAPITAL_RADIUS)) $(call flag,--star-size,$(GLOBE_STAR_SIZE)) \
  $(call flag,--atmosphere-radius,$(GLOBE_ATMOSPHERE_RADIUS)) $(call flag,--sphere-max-edge,$(GLOBE_SPHERE_MAX_EDGE)) \
  $(call flag,--threads,$(GLOBE_THREADS)) $(GLOBE_EXTRA_FLAGS)

GLOBE_OUT := $(DIST)/globe.glb
GLOBE_MANIFEST := $(DIST)/globe.manifest.json
# The same scene as USD for the iOS app (SceneKit/RealityKit load it with no importer).
GLOBE_USDZ := $(DIST)/globe.usdz

# Previews: pictures of the written .glb (what the app loads), one thread a view. The
# defaults live in the stage (PreviewStage.Options, shown by `geo-preview --help`).
GLOBE_PREVIEW_SIZE ?=
GLOBE_PREVIEW_SUPERSAMPLE ?=
GLOBE_PREVIEW_OUTLINE_WIDTH ?=
GLOBE_PREVIEW_THREADS ?=
GLOBE_PREVIEW_FLAGS := $(call flag,--size,$(GLOBE_PREVIEW_SIZE)) $(call flag,--supersample,$(GLOBE_PREVIEW_SUPERSAMPLE)) \
  $(call flag,--outline-width,$(GLOBE_PREVIEW_OUTLINE_WIDTH)) $(call flag,--threads,$(GLOBE_PREVIEW_THREADS))
GLOBE_PREVIEW_DIR := $(DIST)/preview
GLOBE_PREVIEWS := $(addprefix $(GLOBE_PREVIEW_DIR)/,atlantic.png pacific.png south_pole.png)

.PHONY: globe
globe: $(GLOBE_OUT) $(GLOBE_MANIFEST) $(GLOBE_USDZ) $(GLOBE_PREVIEWS)

# One run writes the manifest, the .usdz and then the .glb (grouped targets: any missing reruns it).
$(GLOBE_OUT) $(GLOBE_MANIFEST) $(GLOBE_USDZ): private STAGE_PRODUCT := $(GLOBE_OUT)
$(GLOBE_OUT) $(GLOBE_MANIFEST) $(GLOBE_USDZ) &: $(WORLD_OUT) $(BIN)/geo-globe $(call params,globe,$(WORLD_OUT) $(GLOBE_FLAGS)) pipelines/globe.mk
	$(STAGE) $(BIN)/geo-globe $(WORLD_OUT) -o $(GLOBE_OUT) --manifest $(GLOBE_MANIFEST) --usdz $(GLOBE_USDZ) $(GLOBE_FLAGS)

# One run renders the three views from the .glb.
$(GLOBE_PREVIEWS) &: $(GLOBE_OUT) $(BIN)/geo-preview $(call params,globe-preview,$(GLOBE_OUT) $(GLOBE_PREVIEW_FLAGS)) pipelines/globe.mk
	$(STAGE) $(BIN)/geo-preview $(GLOBE_OUT) --output-dir $(GLOBE_PREVIEW_DIR) $(GLOBE_PREVIEW_FLAGS)

ALL_PRODUCTS += $(GLOBE_OUT) $(GLOBE_MANIFEST) $(GLOBE_USDZ) $(GLOBE_PREVIEWS)
