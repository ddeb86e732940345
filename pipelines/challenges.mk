# challenges: dist/world.geojson → dist/supabase/migrations/<version>_daily_challenges_….sql + seed.sql
# (the daily quiz, CONTRACTS §6; the Supabase CLI's layout, so dist/supabase drops into the app's
# supabase/ folder)
#
# A deterministic schedule: the same parameters give the same bytes, and a larger
# CHALLENGE_DAYS keeps every earlier row (day k depends only on the seed and days before k).
# The human report (changes, type counts, repeat gaps, continents) goes to build/challenges/report.txt.
#
# Continuing the live table (issue #12): export it with
#   psql … -c "\copy (select date, is_guess_country, is_guess_capital, is_guess_flag, answer from daily_challenges order by date) to 'live.csv' csv header"
# then `make challenges CHALLENGE_EXISTING=live.csv` (`make challenges-dry-run …` first to see what
# would change). No row dated before CHALLENGE_FROM is ever written; by default no existing row
# changes at all (only days without a question are filled); CHALLENGE_REPLAN=yes re-plans the
# existing days from CHALLENGE_FROM on.

# The schedule's defaults live in the stage (ChallengesStage.Options, shown by
# `geo-challenges --help`): a variable left empty passes no flag, so the stage's own default
# applies. Set one to override it. Days to schedule (365).
CHALLENGE_DAYS ?=
# The live table's export (see above); empty: a schedule from nothing.
CHALLENGE_EXISTING ?=
# First day to schedule. Never the clock, so that make stays byte-identical run to run: empty
# with CHALLENGE_EXISTING means the day after its last date (the stage derives it from the
# file); without an existing schedule, a fixed date.
CHALLENGE_FROM ?= $(if $(CHALLENGE_EXISTING),,2026-01-01)
# yes: re-plan existing days from CHALLENGE_FROM on (never before it).
CHALLENGE_REPLAN ?= no
# The schedule's seed (20260101).
CHALLENGE_SEED ?=
# Minimum days between two uses of one answer, capped to what the pools allow (60).
CHALLENGE_WINDOW ?=
# Silhouette questions only on polygon countries of at least this area in km² (10000).
CHALLENGE_MIN_SILHOUETTE_KM2 ?=
# Point countries and countries under this area in km² are small: never two in a row (20000).
CHALLENGE_SMALL_KM2 ?=

ifeq ($(filter $(CHALLENGE_REPLAN),yes no),)
  $(error CHALLENGE_REPLAN must be yes or no (got '$(CHALLENGE_REPLAN)'))
endif

CHALLENGES_DIR := $(DIST)/supabase
# The migration's name is fixed, not taken from the clock: its file's in Sources/DailyChallenges/Migrations/,
# which geo-challenges embeds.
CHALLENGES_MIGRATION := $(addprefix $(CHALLENGES_DIR)/migrations/,$(notdir $(wildcard Sources/DailyChallenges/Migrations/*.sql)))
CHALLENGES_OUT := $(CHALLENGES_MIGRATION) $(CHALLENGES_DIR)/seed.sql
CHALLENGES_REPORT := $(BUILD)/challenges/report.txt
CHALLENGES_FLAGS = $(call flag,--days,$(CHALLENGE_DAYS)) $(call flag,--seed,$(CHALLENGE_SEED)) \
  $(call flag,--window,$(CHALLENGE_WINDOW)) $(call flag,--min-silhouette-area,$(CHALLENGE_MIN_SILHOUETTE_KM2)) \
  $(call flag,--small-area,$(CHALLENGE_SMALL_KM2)) $(call flag,--from,$(CHALLENGE_FROM)) $(call flag,--existing,$(CHALLENGE_EXISTING)) \
  $(if $(filter yes,$(CHALLENGE_REPLAN)),--replan-future)

.PHONY: challenges challenges-dry-run
challenges: $(CHALLENGES_OUT)

# One run writes both files (grouped target).
$(CHALLENGES_OUT) &: $(WORLD_OUT) $(CHALLENGE_EXISTING) $(BIN)/geo-challenges $(call params,challenges,$(WORLD_OUT) $(CHALLENGES_FLAGS)) pipelines/challenges.mk
	$(STAGE) $(BIN)/geo-challenges $(WORLD_OUT) --output-dir $(CHALLENGES_DIR) --report $(CHALLENGES_REPORT) $(CHALLENGES_FLAGS)

# What loading the seed would change (days added, days replanned, past rows touched); writes nothing.
challenges-dry-run: $(WORLD_OUT) $(CHALLENGE_EXISTING) $(BIN)/geo-challenges
	$(BIN)/geo-challenges $(WORLD_OUT) --output-dir $(CHALLENGES_DIR) --dry-run $(CHALLENGES_FLAGS)

ALL_PRODUCTS += $(CHALLENGES_OUT)
