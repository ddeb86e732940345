# challenges: dist/world.geojson → dist/supabase/schema.sql + seed.sql (the daily quiz, CONTRACTS §6)
#
# A deterministic schedule: the same parameters give the same bytes, and a larger
# CHALLENGE_DAYS keeps every earlier row (day k depends only on the seed and days before k).
# The human report (type counts, repeat gaps, continents) goes to build/challenges/report.txt.


CHALLENGE_DAYS ?= 365
CHALLENGE_START ?= 2026-01-01
CHALLENGE_SEED ?= 20260101
# Minimum days between two uses of one answer (capped to what the pools allow).
CHALLENGE_WINDOW ?= 60
# Silhouette questions only on polygon countries of at least this area (km²).
CHALLENGE_MIN_SILHOUETTE_KM2 ?= 10000
# Point countries and countries under this area (km²) are small: never two in a row.
CHALLENGE_SMALL_KM2 ?= 20000

CHALLENGES_DIR := $(DIST)/supabase
CHALLENGES_OUT := $(CHALLENGES_DIR)/schema.sql $(CHALLENGES_DIR)/seed.sql
CHALLENGES_REPORT := $(BUILD)/challenges/report.txt
CHALLENGES_FLAGS = --days $(CHALLENGE_DAYS) --start $(CHALLENGE_START) --seed $(CHALLENGE_SEED) \
  --window $(CHALLENGE_WINDOW) --min-silhouette-area $(CHALLENGE_MIN_SILHOUETTE_KM2) --small-area $(CHALLENGE_SMALL_KM2)

.PHONY: challenges
challenges: $(CHALLENGES_OUT)

# One run writes both files (grouped target).
$(CHALLENGES_OUT) &: $(WORLD_OUT) $(BIN)/geo-challenges $(call params,challenges,$(WORLD_OUT) $(CHALLENGES_FLAGS)) pipelines/challenges.mk
	$(STAGE) $(BIN)/geo-challenges $(WORLD_OUT) --out-dir $(CHALLENGES_DIR) --report $(CHALLENGES_REPORT) $(CHALLENGES_FLAGS)

ALL_PRODUCTS += $(CHALLENGES_OUT)
