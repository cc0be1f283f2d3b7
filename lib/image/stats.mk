# bench-stats: frame statistics against memcpy (bench/bench_stats.c), run by
# `make bench`. Static like the suite binary, so it also runs on the virtual
# board. (Included by the top-level Makefile.)
$(BUILD)/bin/bench-stats: bench/bench_stats.c $(BUILD)/libv4l2c.a lib/image/frame.h lib/image/stats.h | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -static -o $@ $< $(BUILD)/libv4l2c.a -lm

all: $(BUILD)/bin/bench-stats
