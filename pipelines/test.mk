# make test: unit tests (swift test) and the consumer checks of scripts/checks/ on real outputs.

.PHONY: test
test: | $(SETUP_STAMP)
	bash scripts/setup.sh --test
	swift build -c release
	swift test
	$(MAKE) --no-print-directory all
	bash scripts/checks/run-all.sh

# make bench: our pipeline against the Python reference (bench/reference/, installed and run
# only here; scripts/bench/compare.sh prints the ratio), then per-stage wall time, CPU time and
# peak memory on the real data (scripts/bench.sh), then the territory night into PostgreSQL
# against the territory stage's compute alone (bench/nightly_territory.sh). make bench-growth: how every stage grows
# with its input, up to 2.2 M vertices (scripts/bench/growth.sh; a few minutes).
.PHONY: bench bench-growth verify
bench: | $(SETUP_STAMP)
	bash scripts/bench/compare.sh
	bash scripts/bench.sh
	bash bench/nightly_territory.sh
bench-growth: | $(SETUP_STAMP)
	bash scripts/bench/growth.sh

# make verify: the contract checks on the products in dist/ (usable by hand, and nightly).
verify: all
	bash scripts/setup.sh --test
	bash scripts/checks/run-all.sh
