# make test: unit tests (swift test) and the consumer checks of scripts/checks/ on real outputs.

.PHONY: test
test: | $(SETUP_STAMP)
	bash scripts/setup.sh --test
	swift build -c release
	swift test
	$(MAKE) --no-print-directory all
	bash scripts/checks/run-all.sh
