# make fuzz: the profile reader (libFuzzer, Debian's clang), the expectations
# and results readers (tests/fuzz/fuzz_readers.py), FUZZ_SECONDS each.
# Corpora in tests/fuzz/corpus/<target>/ (new finds merged in, minimised);
# a crash stops the target and is left in build/fuzz/crashes/: make it a
# unit test (tests/fuzz/regressions/<target>/ for the Python readers,
# tests/unit/test_profile.c for the profile).
FUZZ_SECONDS ?= 600
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -g -O1 -std=c11 -D_GNU_SOURCE -Ilib -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

.PHONY: fuzz fuzz-build fuzz-profile fuzz-results fuzz-expect
fuzz: fuzz-profile fuzz-expect fuzz-results

fuzz-build: $(BUILD)/fuzz/fuzz_profile

$(BUILD)/fuzz/fuzz_profile: tests/fuzz/fuzz_profile.c lib/image/profile.c lib/image/stats.c lib/image/frame.c lib/image/profile.h lib/image/stats.h lib/image/frame.h
	@tools/deps.sh fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_profile.c lib/image/profile.c lib/image/stats.c lib/image/frame.c -lm

fuzz-profile: $(BUILD)/fuzz/fuzz_profile
	@rm -rf $(BUILD)/fuzz/new-profile && mkdir -p $(BUILD)/fuzz/new-profile $(BUILD)/fuzz/crashes
	$(BUILD)/fuzz/fuzz_profile -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		-dict=tests/fuzz/profile.dict -artifact_prefix=$(BUILD)/fuzz/crashes/profile- \
		$(BUILD)/fuzz/new-profile tests/fuzz/corpus/profile
	$(BUILD)/fuzz/fuzz_profile -merge=1 tests/fuzz/corpus/profile $(BUILD)/fuzz/new-profile 2>&1 | tail -1

fuzz-results fuzz-expect: fuzz-%:
	@tools/deps.sh test
	/usr/bin/python3 tests/fuzz/fuzz_readers.py $* $(FUZZ_SECONDS) --out tests/fuzz/corpus/$* \
		--crashes $(BUILD)/fuzz/crashes
