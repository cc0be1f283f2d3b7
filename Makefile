# v4l2-conform — the single entry point.
#   make            build everything (suite binary, host unit tests)
#   make run        build, boot the virtual board, run every suite on vivid
#   make run BOARD=uvc   the same on uvcvideo with the emulated USB camera
#   make run DEVICE=/dev/videoN   run every suite on a real device instead
#   make run ONLY='getset/roundtrip/brightness'   rerun one check (glob) on the board
#   make test       host unit tests + the pytest harness end to end on the virtual board
#   make bench      benchmarks (speed targets are measured here, never asserted in tests)
# Each target installs the Debian packages it needs (tools/deps.sh).

CC       ?= gcc
BUILD    ?= build
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers -Ilib
PYTEST   ?= /usr/bin/python3 -m pytest
VERSION  := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CFLAGS   += -DV4L2C_VERSION='"$(VERSION)"'
# Static: the same binary runs in the virtual board's initramfs and on lab
# boards with a minimal root filesystem (libv4l2 plugins are then off).
STATIC_LIBS = $(shell pkg-config --static --libs check libv4l2 2>/dev/null)
HOST_LIBS   = $(shell pkg-config --libs check 2>/dev/null)

LIB_SRCS   := $(sort $(wildcard lib/*.c))
SUITE_SRCS := $(sort $(wildcard suites/*.c))
UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJS   := $(LIB_SRCS:%.c=$(BUILD)/%.o)
SUITE_OBJS := $(SUITE_SRCS:%.c=$(BUILD)/%.o)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
CONFORM    := $(BUILD)/bin/v4l2-conform

.PHONY: all deps run test unit e2e bench vboard clean list
all: deps $(CONFORM) $(UNIT_BINS)

deps:
	@tools/deps.sh build

$(BUILD)/%.o: %.c $(wildcard lib/*.h suites/*.h)
	@mkdir -p $(dir $@)
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
	$(PYTEST) -v harness

bench: all
	@set -e; for b in $(wildcard $(BUILD)/bin/bench-*); do $$b; done

clean:
	rm -rf $(BUILD)

-include $(wildcard */*.mk fixtures/*/*.mk)
