# territory: the running game's runs → validated loops → claimed H3 cells (CONTRACTS §7–8)
#
#   make territory                                   the sample runs in data/territory/
#   make territory TERRITORY_RUNS=tonight.geojson TERRITORY_EXISTING=territory_hex.csv
#   make territory TERRITORY_SHARD=0/4               one shard of four (docs/SCALING.md)
#
# Outputs in dist/territory/: territory_hex.sql (idempotent upsert for the game's PostgreSQL),
# territory.geojson (owned cells), runs.tsv (figures and reasons per run), rejects.tsv (malformed
# runs quarantined, with the field at fault), users.tsv (cells and
# km² per runner), preview.svg, and loops.geojson (every valid loop with its cells, which the
# consumer check recomputes with h3-py; TERRITORY_LOOPS= leaves it out, as a nightly job does:
# it is a third of a night's bytes and no reader in the contract needs it). The rules are the game's (CONTRACTS §8)
# and live in Sources/TerritoryRules/, not here.

TERRITORY_RUNS ?= $(DATA)/territory/runs.geojson
# The current territory as `psql \copy territory_hex to … with (format csv, header)` writes it
# (empty: recompute from the runs alone).
TERRITORY_EXISTING ?=
# i/n: only shard i of n (empty: everything).
TERRITORY_SHARD ?=
# 1: also write loops.geojson (--loops-geojson); empty: not.
TERRITORY_LOOPS ?= 1
# Malformed runs are quarantined in rejects.tsv; more than this stops the night, writing
# nothing (empty: the stage's default, shown by `geo-territory --help`).
TERRITORY_MAX_REJECTS ?=
TERRITORY_DIR ?= $(DIST)/territory
# The game's migrations: territory_hex.cell, territory_in_viewport, RLS (CONTRACTS §8a); then
# submit_run, pending runs, my_runs (§8b); then the map at every zoom (coarse cells kept by a
# trigger, territory_in_viewport at any zoom; issue 29). Their names are their files' in
# Sources/TerritoryGame/Migrations/, which geo-territory embeds.
TERRITORY_MIGRATION_DIR := $(DIST)/supabase/game/migrations
TERRITORY_MIGRATIONS := $(addprefix $(TERRITORY_MIGRATION_DIR)/,$(notdir $(sort $(wildcard Sources/TerritoryGame/Migrations/*.sql))))
TERRITORY_OUT := $(TERRITORY_MIGRATIONS) $(addprefix $(TERRITORY_DIR)/,territory_hex.sql territory.geojson runs.tsv rejects.tsv users.tsv preview.svg $(if $(strip $(TERRITORY_LOOPS)),loops.geojson))
TERRITORY_FLAGS = $(call flag,--existing,$(TERRITORY_EXISTING)) $(call flag,--shard,$(TERRITORY_SHARD)) $(call flag,--max-rejects,$(TERRITORY_MAX_REJECTS)) --migration-dir $(TERRITORY_MIGRATION_DIR) $(if $(strip $(TERRITORY_LOOPS)),--loops-geojson)

.PHONY: territory
territory: $(TERRITORY_OUT)

$(TERRITORY_OUT): private STAGE_PRODUCT := $(TERRITORY_DIR)/territory_hex.sql
$(TERRITORY_OUT) &: $(TERRITORY_RUNS) $(TERRITORY_EXISTING) $(BIN)/geo-territory $(call params,territory,$(TERRITORY_RUNS) $(TERRITORY_FLAGS)) pipelines/territory.mk
	$(STAGE) $(BIN)/geo-territory $(TERRITORY_RUNS) --output-dir $(TERRITORY_DIR) $(TERRITORY_FLAGS)

ALL_PRODUCTS += $(TERRITORY_OUT)
