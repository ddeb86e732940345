# nightly: the night against the apps' live PostgreSQL (CONTRACTS §9, issue #21; docs/OPERATIONS.md)
#
#   DATABASE_URL=postgresql://user:password@host:5432/postgres make nightly
#   QUIZ_DATABASE_URL=… make nightly NIGHTLY_APPS=quiz NIGHTLY_TODAY=2026-11-25
# (in the environment: a URL on make's own command line shows, password and all, in `ps`)
#   make nightly … NIGHTLY_DRY_RUN=yes           what each app would change; changes nothing
#
# quiz: daily_challenges gets a row for each day of today … today + CHALLENGE_AHEAD that has
# none (no existing row changes); territory: the runs the app submitted that are still pending
# (CONTRACTS §8b; or a TERRITORY_RUNS file, §8: an import, a replay) judged over the live
# territory_hex, written to users, runs, territory_hex; cities: the cities migration and seed.
# One transaction per app behind an advisory lock, a row per app in geodata.nights.
#
# The target is phony: make's file caching never skips the database (the night always compares
# with it). It depends, as files, on what it loads: world.geojson, the runs, the cities seed.

# libpq URIs or conninfo strings. Passed to geo-nightly in its environment only: never on its
# command line (ps) nor in make's echo of the recipe.
DATABASE_URL ?=
QUIZ_DATABASE_URL ?=
GAME_DATABASE_URL ?=
CITIES_DATABASE_URL ?=
export DATABASE_URL QUIZ_DATABASE_URL GAME_DATABASE_URL CITIES_DATABASE_URL
NIGHTLY_APPS ?= quiz territory cities
# YYYY-MM-DD: replay that night (empty: today, UTC).
NIGHTLY_TODAY ?=
# yes: print what would change, change nothing.
NIGHTLY_DRY_RUN ?= no
# no: a second night of an app stops at once instead of waiting for the first.
NIGHTLY_WAIT ?= yes
# Days after today that must have a quiz question (the stage's default: 60).
CHALLENGE_AHEAD ?=

ifeq ($(filter $(NIGHTLY_DRY_RUN),yes no),)
  $(error NIGHTLY_DRY_RUN must be yes or no (got '$(NIGHTLY_DRY_RUN)'))
endif
ifeq ($(filter $(NIGHTLY_WAIT),yes no),)
  $(error NIGHTLY_WAIT must be yes or no (got '$(NIGHTLY_WAIT)'))
endif

# The game's runs: those the app submitted that are pending in its database; or, when
# TERRITORY_RUNS is given (command line or environment: an import, a replay), that file.
NIGHTLY_RUNS = $(if $(filter command environment override,$(firstword $(origin TERRITORY_RUNS))),$(TERRITORY_RUNS))
NIGHTLY_INPUTS = $(if $(filter quiz,$(NIGHTLY_APPS)),$(WORLD_OUT)) $(if $(filter territory,$(NIGHTLY_APPS)),$(NIGHTLY_RUNS)) \
  $(if $(filter cities,$(NIGHTLY_APPS)),$(CITIES_SEED))
NIGHTLY_FLAGS = --apps '$(NIGHTLY_APPS)' $(call flag,--today,$(NIGHTLY_TODAY)) $(call flag,--ahead,$(CHALLENGE_AHEAD)) \
  $(call flag,--shard,$(TERRITORY_SHARD)) $(call flag,--max-rejects,$(TERRITORY_MAX_REJECTS)) $(if $(filter yes,$(NIGHTLY_DRY_RUN)),--dry-run) $(if $(filter no,$(NIGHTLY_WAIT)),--no-wait) \
  --world $(WORLD_OUT) $(call flag,--runs,$(NIGHTLY_RUNS)) --cities-seed $(CITIES_SEED) \
  --pipeline-commit $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

# $$: the inputs are other pipelines' variables, expanded once every pipeline is read (so the
# order make includes pipelines/*.mk in does not matter; scripts/checks/check_include_order.sh).
.PHONY: nightly
nightly: $(BIN)/geo-nightly $$(NIGHTLY_INPUTS)
	$(STAGE) $(BIN)/geo-nightly $(NIGHTLY_FLAGS)
