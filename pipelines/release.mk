# release: every product → RELEASE_DIR, with manifest.json, changes.json, CHANGES.md and the
# inspection page (CONTRACTS §10, issue 23)
#
#   make release RELEASE_DIR=releases/2026-11-25
#   make release RELEASE_DIR=releases/2026-11-26 RELEASE_PREVIOUS=releases/2026-11-25
#
# The manifest lists every file (bytes, sha256), every input of $(DATA) (sha256, source and version
# from $(DATA)/README.md), every stage's parameters (build/params/), the commit and the tolerance
# the world's vertex budget decided. With RELEASE_PREVIOUS the world stage reuses that release's
# tolerance (WORLD_TOLERANCE_KM, see pipelines/world.mk), so borders no edit touched come out identical and the changelog
# shows only what changed; without it the budget decides afresh. changes.json/CHANGES.md compare
# with RELEASE_PREVIOUS: countries (largest border move in km, area %, fields), quiz days, cities,
# a 100,000-point lookup probe, file sizes. A release that would change a quiz day before
# RELEASE_DAY fails and writes nothing.

RELEASE_DIR ?=
RELEASE_PREVIOUS ?=
# The release's day (quiz days before it must not change): today (UTC) unless given.
RELEASE_DAY ?= $(shell date -u +%F)
RELEASE_COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)$(if $(shell git status --porcelain --untracked-files=no 2>/dev/null | head -n 1),+modified)
# Points of the lookup probe; empty: the stage's default (100000).
RELEASE_PROBE_POINTS ?=

ifneq ($(filter release,$(MAKECMDGOALS)),)
  ifeq ($(strip $(RELEASE_DIR)),)
    $(error make release needs RELEASE_DIR=DIR (and RELEASE_PREVIOUS=DIR to compare with a previous release))
  endif
  ifneq ($(strip $(RELEASE_PREVIOUS)),)
    ifeq ($(wildcard $(RELEASE_PREVIOUS)/manifest.json),)
      $(error RELEASE_PREVIOUS=$(RELEASE_PREVIOUS) has no manifest.json: not a release directory)
    endif
  endif
endif

RELEASE_FLAGS = --day $(RELEASE_DAY) --commit $(RELEASE_COMMIT) --scale $(SCALE) --dist $(DIST) --world-report $(WORLD_REPORT) \
  --data $(DATA) --params $(BUILD)/params $(call flag,--leaflet,$(INSPECT_LEAFLET)) $(call flag,--previous,$(RELEASE_PREVIOUS)) \
  $(call flag,--probe-points,$(RELEASE_PROBE_POINTS))

.PHONY: release
# ($$: every pipeline's products, once all of pipelines/*.mk have been read.)
release: $$(ALL_PRODUCTS) $(BIN)/geo-release
	$(STAGE) $(BIN)/geo-release --out $(RELEASE_DIR) $(RELEASE_FLAGS)
	@bash scripts/rebuilt.sh $(MAKE_RUN_ID)
	@echo "release: $(RELEASE_DIR) (CHANGES.md, changes.json, manifest.json, inspect/index.html)"
