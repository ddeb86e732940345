# make fuzz: libFuzzer (with AddressSanitizer) on the JSON tokenizer through both of its users,
# the tree and the streaming readers (Tests/Fuzz/FuzzJSON.swift), for FUZZ_SECONDS. make test
# runs it for 30 s. Seeds: the bad-input corpus's JSON. A crash leaves its input in build/fuzz/
# (crash-*) and fails.
FUZZ_SECONDS ?= 180
# The tokenizer lives in GeoModel, which imports no C library and depends on Geodesy and
# Parallelism only: the fuzz target is those two compiled as modules of their own, then the fuzz entry point with the whole
# GeoModel target (a few minutes of one core, instead of the package under the sanitizers).
FUZZ_FLAGS := -O -sanitize=fuzzer,address -parse-as-library
GEODESY_SOURCES := $(filter Sources/Geodesy/%.swift,$(SOURCE_FILES))
PARALLELISM_SOURCES := $(filter Sources/Parallelism/%.swift,$(SOURCE_FILES))
FUZZ_SOURCES := $(wildcard Tests/Fuzz/*.swift) $(filter Sources/GeoModel/%.swift,$(SOURCE_FILES))

$(BUILD)/fuzz/Geodesy.o: $(GEODESY_SOURCES) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	swiftc $(FUZZ_FLAGS) -wmo -module-name Geodesy -emit-module -emit-module-path $(@D)/Geodesy.swiftmodule \
	  -c $(GEODESY_SOURCES) -o $@

# GeoModel's own dependency, Parallelism, as a module of its own too.
$(BUILD)/fuzz/Parallelism.o: $(PARALLELISM_SOURCES) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	swiftc $(FUZZ_FLAGS) -wmo -module-name Parallelism -emit-module -emit-module-path $(@D)/Parallelism.swiftmodule \
	  -c $(PARALLELISM_SOURCES) -o $@

$(BUILD)/fuzz/fuzz-json: $(FUZZ_SOURCES) $(BUILD)/fuzz/Geodesy.o $(BUILD)/fuzz/Parallelism.o
	swiftc $(FUZZ_FLAGS) -module-name FuzzJSON -I $(@D) $(FUZZ_SOURCES) $(@D)/Geodesy.o $(@D)/Parallelism.o -o $@ 2> $@.log \
	  || { grep -v 'Cannot export local symbol' $@.log; exit 1; }

.PHONY: fuzz
fuzz: $(BUILD)/fuzz/fuzz-json
	@mkdir -p $(BUILD)/fuzz/corpus
	find Tests/BadInputs -name '*.geojson' -size -8k -exec cp {} $(BUILD)/fuzz/corpus/ \;
	find Tests/BadInputs -name '*.json' -size -8k -exec cp {} $(BUILD)/fuzz/corpus/ \;
	cd $(BUILD)/fuzz && ./fuzz-json corpus -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=20 \
	  -dict=../../Tests/Fuzz/geojson.dict -print_final_stats=1 2>&1 | tail -n 25
