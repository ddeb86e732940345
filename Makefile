# The geodata pipeline. Each product is a chain of stages; every stage is its own executable
# (Sources/geo-*), every rule depends on its inputs, its stage's binary and its parameters,
# so `make` rebuilds exactly what changed. Pipelines and their parameters: pipelines/*.mk.
#
#   make globe         dist/globe.glb          (the main job)
#   make test          unit tests + consumer checks (GeoJSON, glTF, SVG, SQL readers)
#   make SCALE=110m …  pick the Natural Earth input: 10m (default), 50m, 110m

SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c

# One make at a time in a checkout: the make you type takes an exclusive lock (.make.lock,
# flock) and runs the real build as its child; a second make started meanwhile refuses at
# once with a clear message instead of interleaving writes. The child and everything it
# starts (bench and determinism runs included) see GEO_MAKE_LOCK_HELD and do not lock again.
ifeq ($(GEO_MAKE_LOCK_HELD),)
LOCKED_GOALS := $(or $(MAKECMDGOALS),globe)
ifeq ($(LOCKED_GOALS),territory-follow)
# A follower runs for days: `make territory-follow` holds the lock only while it brings its
# binary up to date, then runs the follower without it (-o: the binary is not looked at again),
# so that any number of followers and a scheduler's `make nightly` run from one checkout. With
# the lock held by another make, the binary built before runs.
FOLLOW_BINARY := .build/release/geo-territory-follow
.PHONY: territory-follow
territory-follow:
	@GEO_MAKE_LOCK_HELD=1 flock -n -E 75 .make.lock $(MAKE) --no-print-directory $(FOLLOW_BINARY) || { rc=$$?; \
	  if [ $$rc -eq 75 ] && [ -x $(FOLLOW_BINARY) ]; then echo "make: another make holds .make.lock: the follower runs the binary built before" >&2; \
	  else [ $$rc -ne 75 ] || echo "make: another make is running in this checkout (it holds .make.lock) and the follower is not built; wait for it to finish" >&2; exit $$rc; fi; }
	@GEO_MAKE_LOCK_HELD=1 exec $(MAKE) --no-print-directory -o $(FOLLOW_BINARY) territory-follow
else
.PHONY: $(LOCKED_GOALS)
$(firstword $(LOCKED_GOALS)):
	@GEO_MAKE_LOCK_HELD=1 flock -n -E 75 .make.lock $(MAKE) --no-print-directory $(MAKECMDGOALS) || { rc=$$?; \
	  if [ $$rc -eq 75 ]; then echo "make: another make is running in this checkout (it holds .make.lock); wait for it to finish" >&2; fi; exit $$rc; }
$(wordlist 2,$(words $(LOCKED_GOALS)),$(LOCKED_GOALS)):
	@:
endif
else
export GEO_MAKE_LOCK_HELD
.DELETE_ON_ERROR:
.SUFFIXES:
.SECONDEXPANSION:

SCALE ?= 10m
# Independent stages run side by side on the machine's two cores (make JOBS=1 for serial).
JOBS ?= 2
MAKEFLAGS += -j$(JOBS) --output-sync=line
BUILD := build
DIST := dist
BIN := .build/release
DATA := data
NE := $(DATA)/natural-earth
NE_PLACES := $(NE)/ne_10m_populated_places.geojson
# The products one pipeline reads from another, defined here so that no pipelines/*.mk names
# another's variables while it is read (prerequisites, :=): only its own and these; another's
# only where make expands them later (recipes, = variables, $$(…) prerequisites). So the order
# in which they are included does not matter (scripts/checks/check_include_order.sh).
# The ingest's countries (geo-ingest writes them, geo-world and geo-lookup read them).
INGEST_OUT := $(BUILD)/ingest/countries.geojson
# The same places compacted to the fields the stages read (a tenth of the 16 MB), written
# by the ingest stage: later stages read this, so the big file is parsed once a run.
INGEST_PLACES := $(BUILD)/ingest/places.geojson
# The app's country file: the world stage writes it, every later stage reads it.
WORLD_OUT ?= $(DIST)/world.geojson
# The offline lookup index (geo-lookup writes it, geo-routes checks every location with it).
LOOKUP_OUT := $(DIST)/lookup/lookup.bin
RSVG ?= rsvg-convert
PYTHON ?= python3

# Every stage runs as `$(STAGE) BINARY ARGS…`: scripts/stage.sh logs its time and peak memory
# under this run's id and the rule's product, $@ — or, for a rule with several targets, the
# one its pipeline names in STAGE_PRODUCT (set as `TARGETS: private STAGE_PRODUCT := …`, so
# that prerequisites do not inherit it). The product targets end with a table of what this
# run rebuilt.
ifndef MAKE_RUN_ID
MAKE_RUN_ID := $(shell date +%s%N)
endif
export MAKE_RUN_ID
STAGE = scripts/stage.sh $(or $(STAGE_PRODUCT),$@)

ifeq ($(filter $(SCALE),10m 50m 110m),)
  $(error SCALE must be 10m, 50m or 110m (got '$(SCALE)'))
endif

# A file holding the value of some parameters, rewritten only when the value changes, so
# that rules depending on it rerun exactly when a parameter (or SCALE) changes. A pipeline's
# value holds its flags and the paths of its inputs: pointing make at another copy of the
# inputs (`make world DATA=other/data`) reruns what reads them even when those files are
# older than the outputs. $(call params,NAME,VALUE) expands to the file's path.
# Make's own file function reads and writes it (no shell: make reads every pipeline's
# parameters at each run); the file holds VALUE and a newline, as printf '%s\n' wrote it.
# Equal strings: each contains the other.
params = $(if $(wildcard $(BUILD)/params/.),,$(shell mkdir -p $(BUILD)/params))$(call params_write,$(BUILD)/params/$(1),$(2),$(file <$(BUILD)/params/$(1)))$(BUILD)/params/$(1)
params_write = $(if $(and $(findstring $(2),$(3)),$(findstring $(3),$(2))),,$(file >$(1),$(2)))

# $(call flag,--name,VALUE) expands to "--name VALUE", or to nothing when VALUE is empty, so
# that a parameter left empty in pipelines/*.mk leaves the stage's own default in force.
flag = $(if $(strip $(2)),$(1) $(2))

# --- set-up and the Swift build ---------------------------------------------------------
SETUP_STAMP := $(BUILD)/.setup
$(SETUP_STAMP): scripts/setup.sh
	bash scripts/setup.sh
	@mkdir -p $(@D) && touch $@

# A stage binary depends on the sources of exactly the targets its product is built from, as
# Package.swift lists them (scripts/target-deps.py writes SOURCES_geo-NAME into .build/, next to
# the binaries, remade when Package.swift changes): editing H3 rebuilds geo-territory and
# geo-hexagons, not geo-ingest. Should that file be missing, every binary depends on all of
# Sources/. (`swift build` itself is incremental; this only decides whether it is asked.)
TARGET_DEPS := .build/target-deps.mk
$(TARGET_DEPS): Package.swift scripts/target-deps.py
	@mkdir -p $(@D) && python3 scripts/target-deps.py > $@.tmp && mv $@.tmp $@
-include $(TARGET_DEPS)

# The files under Sources/ (the .sql and .html the EmbedFiles plugin compiles in among them) and
# Plugins/, listed by one `find` when the Makefile is read (a find per binary was a fork each on
# every run). Not on first use, through an $(eval) inside the binaries' secondary expansion: with
# two more files, GNU make 4.3 expanded some binaries' prerequisites to nothing that way, in one
# include order and not the other (check_include_order).
# (binary_sources holds the pattern: a % in the rule's own text would be taken for its stem.)
SOURCE_FILES := $(sort $(shell find Sources Plugins -type f))
binary_sources = $(filter $(addsuffix /%,$(or $(SOURCES_geo-$(1)),Sources)),$(SOURCE_FILES))
$(BIN)/geo-%: Package.swift $$(call binary_sources,$$*) | $(SETUP_STAMP)
	scripts/swift-release.sh build --product geo-$*
	@touch $@

.PHONY: all build setup
setup: $(SETUP_STAMP)
build: | $(SETUP_STAMP)
	scripts/swift-release.sh build

# Every pipeline; the order does not matter (see INGEST_OUT above). PIPELINES is a variable
# so that scripts/checks/check_include_order.sh can include them the other way round.
PIPELINES ?= $(sort $(wildcard pipelines/*.mk))
include $(PIPELINES)

PRODUCT_TARGETS := ingest world globe map silhouettes highlights challenges cities lookup routes territory all
.PHONY: $(PRODUCT_TARGETS)
all: $(ALL_PRODUCTS)
# The table is printed once, by the last product named on the command line, after the others
# (or by the one product make was asked for, the default goal included).
PRODUCT_GOALS := $(filter $(PRODUCT_TARGETS),$(MAKECMDGOALS))
LAST_PRODUCT_GOAL := $(lastword $(PRODUCT_GOALS))
ifneq ($(LAST_PRODUCT_GOAL),)
$(LAST_PRODUCT_GOAL): $(filter-out $(LAST_PRODUCT_GOAL),$(PRODUCT_GOALS))
endif
$(PRODUCT_TARGETS):
	@$(if $(filter $@,$(or $(LAST_PRODUCT_GOAL),$@)),bash scripts/rebuilt.sh $(MAKE_RUN_ID),:)
.DEFAULT_GOAL := globe

endif
