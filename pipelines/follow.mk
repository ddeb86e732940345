# territory-follow: the game's runs claimed within seconds of their submission (CONTRACTS §8b,
# issue #32; docs/GAME.md, docs/SCALING.md)
#
#   GAME_DATABASE_URL=postgresql://user:password@host:5432/postgres make territory-follow
# (in the environment: a URL on make's own command line shows, password and all, in `ps`)
#   make territory-follow FOLLOW_DRAIN=yes        judge what is pending, then stop
#
# Stays connected, hears submit_run's notifications (LISTEN territory_runs, a poll as a safety
# net), judges pending runs in batches (one transaction each) with the night's code and rules.
# Run as many as the load needs, beside the night; SIGTERM finishes the batch and exits 0.

# libpq URI or conninfo: GAME_DATABASE_URL, else DATABASE_URL. Passed in the environment only.
export GAME_DATABASE_URL DATABASE_URL
# The most runs one batch claims (empty: the stage's default).
FOLLOW_BATCH ?=
# Seconds between polls when no notification comes (empty: the stage's default).
FOLLOW_POLL ?=
# yes: stop once nothing is pending.
FOLLOW_DRAIN ?= no

ifeq ($(filter $(FOLLOW_DRAIN),yes no),)
  $(error FOLLOW_DRAIN must be yes or no (got '$(FOLLOW_DRAIN)'))
endif

FOLLOW_FLAGS = $(call flag,--batch,$(FOLLOW_BATCH)) $(call flag,--poll,$(FOLLOW_POLL)) $(if $(filter yes,$(FOLLOW_DRAIN)),--drain)

.PHONY: territory-follow
territory-follow: $(BIN)/geo-territory-follow
	$(STAGE) $(BIN)/geo-territory-follow $(FOLLOW_FLAGS)
