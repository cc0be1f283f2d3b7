# v4l2-conform — the single entry point.
#   make            build everything (suite binary, host unit tests)
#   make run        build, boot the virtual board, run every suite on vivid
#   make run BOARD=uvc   the same on uvcvideo with the emulated USB camera
#   make run BOARD=vivid-all   every vivid node (video, VBI, radio, SDR, metadata, touch), one boot
#   make run BOARD=loopback   the same on v4l2loopback fed by a producer (fixtures/drivers/v4l2loopback.mk)
#   make run DEVICE=/dev/videoN   run every suite on a real device instead
#   make run ONLY='getset/roundtrip/brightness'   rerun one check (glob) on the board
#   make test       host unit tests + the pytest harness end to end on the virtual board
#                   (the fixture self-test runs each bug's own check families)
#   make test-full  the same with the full sweeps: every check on every fixture bug, with
#                   v4l2-compliance beside it (reports/out/fixture-detection.md); what a nightly runs
#   make bench      benchmarks (speed targets are measured here, never asserted in tests)
# Each target installs the Debian packages it needs (tools/deps.sh).

CC       ?= gcc
BUILD    ?= build
# KERNEL=6.12.118+deb12-amd64: boot that Debian kernel build on the virtual board
# (default: the current linux-image-amd64); artifacts in build/vboard-KERNEL.
ifneq ($(KERNEL),)
export VBOARD_KERNEL := $(KERNEL)
endif
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers -Ilib
PYTEST   ?= /usr/bin/python3 -m pytest
# Two test files at a time (pytest-xdist): most of them boot one single-CPU
# board, and the machine has two cores. Everything is built before pytest
# starts, so the workers only ever find it up to date.
PYTEST_PAR ?= -n 2 --dist loadfile
VERSION  := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CFLAGS   += -DV4L2C_VERSION='"$(VERSION)"'
# The version is compiled into the runner: rebuild it when the version
# changes (a commit), not only when runner.c does.
VERSION_FILE := $(BUILD)/version.txt
$(shell mkdir -p $(BUILD); echo '$(VERSION)' | cmp -s - $(VERSION_FILE) 2>/dev/null || echo '$(VERSION)' > $(VERSION_FILE))
# Static: the same binary runs in the virtual board's initramfs and on lab
# boards with a minimal root filesystem (libv4l2 plugins are then off).
STATIC_LIBS = $(shell pkg-config --static --libs check libv4l2 2>/dev/null)
HOST_LIBS   = $(shell pkg-config --libs check 2>/dev/null)

LIB_SRCS   := $(sort $(wildcard lib/*/*.c))
SUITE_SRCS := $(sort $(wildcard suites/*.c))
UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJS   := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/gen/docrefs.o
SUITE_OBJS := $(SUITE_SRCS:%.c=$(BUILD)/%.o)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
CONFORM    := $(BUILD)/bin/v4l2-conform

.PHONY: all deps run test test-full unit e2e bench vboard clean list matrix kbisect
all: deps $(CONFORM) $(UNIT_BINS)

deps:
	@tools/deps.sh build

$(BUILD)/%.o: %.c $(wildcard lib/*/*.h suites/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/lib/run/runner.o: $(VERSION_FILE)

# Rule id -> documentation line, for --list (spec/coverage.tsv, issue 23).
$(BUILD)/gen/docrefs.c: spec/coverage.tsv tools/docrefs.sh
	@mkdir -p $(dir $@)
	tools/docrefs.sh spec/coverage.tsv > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/docrefs.o: $(BUILD)/gen/docrefs.c lib/check/docref.h
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libv4l2c.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(CONFORM): $(SUITE_OBJS) $(BUILD)/libv4l2c.a
	@mkdir -p $(dir $@)
	$(CC) -static -o $@ $(SUITE_OBJS) $(BUILD)/libv4l2c.a $(STATIC_LIBS)

$(BUILD)/tests/%: tests/unit/%.c tests/unit/unit_run.c tests/unit/unit.h $(BUILD)/libv4l2c.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< tests/unit/unit_run.c $(BUILD)/libv4l2c.a $(STATIC_LIBS)

list: all
	$(CONFORM) --list

vboard: all
	@tools/deps.sh vboard
	fixtures/vboard/vboard build

# DEVICE unset: the virtual board with vivid. DEVICE=/dev/videoN: that device.
run: all
ifeq ($(DEVICE),)
	@tools/deps.sh vboard test
	fixtures/vboard/vboard build
	/usr/bin/python3 harness/run_board.py --board $(or $(BOARD),vivid) --out reports/out $(if $(ONLY),--only '$(ONLY)')
else
	@mkdir -p reports/out
	$(CONFORM) -d $(DEVICE) --out reports/out $(if $(ONLY),--only '$(ONLY)'); st=$$?; \
	/usr/bin/python3 reports/junit.py reports/out/results.json reports/out/junit.xml; exit $$st
endif

unit: all
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

e2e: vboard
	@tools/deps.sh test
	$(PYTEST) -v harness

test: unit
	@tools/deps.sh vboard test
	fixtures/vboard/vboard build
	$(PYTEST) -v $(PYTEST_PAR) --durations=15 harness

test-full: unit
	@tools/deps.sh vboard test
	fixtures/vboard/vboard build
	V4L2C_TEST_FULL=1 $(PYTEST) -v $(PYTEST_PAR) --durations=15 harness

# The suite on several Debian kernel builds and the verdicts that differ
# (reports/out/matrix.md, .json): KERNELS=REL,REL (default: the newest 6.1 and
# 6.12), MATRIX_ARGS=--all for every build. About 45 s a kernel (90 s for two, warm).
matrix: all
	@tools/deps.sh vboard test
	/usr/bin/python3 harness/matrix.py $(if $(KERNELS),--kernels '$(KERNELS)') $(if $(ONLY),--only '$(ONLY)') $(MATRIX_ARGS)

# The first Debian kernel build on which a check goes bad: make kbisect GOOD=REL BAD=REL ONLY=CHECK
# (tools/kbisect; logs and summary in reports/out/kbisect/).
kbisect: all
	@tools/deps.sh vboard test
	tools/kbisect --good '$(GOOD)' --bad '$(BAD)' --only '$(ONLY)' $(if $(BOARD),--board $(BOARD)) $(KBISECT_ARGS)

bench: all
	@tools/deps.sh vboard test
	fixtures/vboard/vboard build
	$(BUILD)/bin/bench-stats > $(BUILD)/bench-stats.md
	/usr/bin/python3 bench/bench_board.py --stats-md $(BUILD)/bench-stats.md

clean:
	rm -rf $(BUILD)

-include $(wildcard */*.mk lib/*/*.mk fixtures/*/*.mk)
