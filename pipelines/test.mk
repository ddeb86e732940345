# make test: unit tests (swift test) and the consumer checks of scripts/checks/ on real outputs.

.PHONY: test
test: | $(SETUP_STAMP)
	bash scripts/setup.sh --test
	swift build -c release
	swift test
	$(MAKE) --no-print-directory all
	bash scripts/checks/run-all.sh

# make bench: per-stage wall time and peak memory on the real data (see scripts/bench.sh).
.PHONY: bench verify
bench: | $(SETUP_STAMP)
	bash scripts/bench.sh

# make verify: the contract checks on the products in dist/ (usable by hand, and nightly).
verify: all
	bash scripts/setup.sh --test
	bash scripts/checks/run-all.sh
