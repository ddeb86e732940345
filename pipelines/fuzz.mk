# make fuzz: libFuzzer (with AddressSanitizer) on the GeoJSON reader for FUZZ_SECONDS.
# Seeds: the bad-input corpus. A crash leaves its input in build/fuzz/ (crash-*) and fails.
FUZZ_SECONDS ?= 180
# The reader lives in the model layer, which imports no C library: the fuzz target is compiled
# from the fuzz entry point and the whole GeoModel target.
FUZZ_SOURCES := Tests/Fuzz/FuzzGeoJSON.swift $(filter Sources/GeoModel/%.swift,$(SOURCE_FILES))

$(BUILD)/fuzz/fuzz-geojson: $(FUZZ_SOURCES) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name FuzzGeoJSON $(FUZZ_SOURCES) -o $@ 2> $@.log \
	  || { grep -v 'Cannot export local symbol' $@.log; exit 1; }

.PHONY: fuzz
fuzz: $(BUILD)/fuzz/fuzz-geojson
	@mkdir -p $(BUILD)/fuzz/corpus
	cp Tests/BadInputs/ingest/*.geojson $(BUILD)/fuzz/corpus/
	cd $(BUILD)/fuzz && ./fuzz-geojson corpus -max_total_time=$(FUZZ_SECONDS) -max_len=8192 \
	  -dict=../../Tests/Fuzz/geojson.dict -print_final_stats=1 2>&1 | tail -n 25
