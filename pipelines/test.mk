# make test: unit tests (swift test), 30 s of fuzzing the JSON tokenizer (pipelines/fuzz.mk) and
# the consumer checks of scripts/checks/ on real outputs.

.PHONY: test
# Each phase is timed (scripts/phase.sh, into build/test-phases.tsv); the checks, last, print
# the table of wall and CPU time per phase just before their closing line.
test: export PHASES = $(BUILD)/test-phases.tsv
test: | $(SETUP_STAMP)
	@rm -f $(PHASES)
	scripts/phase.sh setup bash scripts/setup.sh --test
	+scripts/phase.sh build scripts/swift-release.sh build
	@# The fuzzer (one core: its own build under the sanitizers, then 30 s) beside the unit tests,
	@# its output kept and shown after theirs.
	+scripts/phase.sh --beside fuzz $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=30 > $(BUILD)/fuzz-phase.log 2>&1 & fuzz=$$!; \
	  scripts/phase.sh swift-test scripts/swift-release.sh test; tests=$$?; \
	  wait $$fuzz; fuzzed=$$?; cat $(BUILD)/fuzz-phase.log; \
	  [ $$fuzzed -eq 0 ] || echo "make test: the fuzzer failed (its output above)"; [ $$tests -eq 0 ] && [ $$fuzzed -eq 0 ]
	scripts/phase.sh make-all $(MAKE) --no-print-directory all
	@# `+`: make's --output-sync holds a recipe line's output until it ends; these lines stream.
	+bash scripts/checks/run-all.sh

# make bench: our pipeline against the Python reference (bench/reference/, installed and run
# only here; bench/compare.sh prints the ratios), then per-stage wall time, CPU time and
# peak memory on the real data (bench/run.sh), then the territory night's CPU against the build
# before issue #22 (bench/territory_vs_old.sh, its binary built once) and the night into
# PostgreSQL against the territory stage's compute alone (bench/nightly_territory.sh), then the
# game's map at every zoom under 8 clients at 1,000,000 cells and its cost to the night (bench/territory_viewport.sh),
# and the game's followers: latency at 20 and 200 runs/s, drains of 10,000 and 50,000 pending runs (bench/follow.sh). make bench-growth: how every stage grows
# with its input, up to 2.2 M vertices (bench/growth.sh; a few minutes). All bench code is in bench/.
.PHONY: bench bench-growth verify
bench: | $(SETUP_STAMP)
	bash bench/compare.sh
	bash bench/run.sh
	bash bench/territory_vs_old.sh
	bash bench/nightly_territory.sh
	bash bench/territory_viewport.sh
	bash bench/follow.sh
bench-growth: | $(SETUP_STAMP)
	bash bench/growth.sh

# make verify: the contract checks on the products in dist/ (usable by hand, and nightly).
verify: all
	bash scripts/setup.sh --test
	@# `+`: make's --output-sync holds a recipe line's output until it ends; these lines stream.
	+bash scripts/checks/run-all.sh
