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
#                   Debian 13's v4l2-compliance beside it (reports/out/fixture-detection-<kernel>.md); what a nightly runs
#   make bench      benchmarks (speed targets are measured here, never asserted in tests)
#   make install    the binary and its man page under PREFIX (/usr/local), DESTDIR honoured
# Each target installs the Debian packages it needs (tools/deps.sh).

CC       ?= gcc
# make unit (and so make test) compiles on every core: nothing else can run
# before the suite, the unit tests and the tools are built. Only there: two
# targets that install packages side by side (make -j lava-check) would
# fight over dpkg's lock, while `all` installs once, in deps, before any
# compile (`| deps`).
NPROC    := $(shell nproc 2>/dev/null || echo 1)
BUILD    ?= build
# KERNEL=6.12.118+deb12-amd64: boot that Debian kernel build on the virtual board
# (default: the current linux-image-amd64); artifacts in build/vboard-KERNEL.
ifneq ($(KERNEL),)
export VBOARD_KERNEL := $(KERNEL)
endif
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers -Ilib
PYTEST   ?= /usr/bin/python3 -m pytest
# Five test files at a time (pytest-xdist) on CI's two cores: most of them
# boot single-CPU boards that spend most of their time waiting (the
# fixture's hang, wedge and event-timeout bugs, the camera's slow answers,
# v4l2-compliance's timeouts: a clean clone's boots used 404 s of host CPU
# in 1711 s of boot wall time), so more workers fill the waits: 661 s with
# two workers, 559 s with three (docs/speed.md); five since both kernels run
# every board kind (issue 33). Everything is built before pytest starts, so
# the workers only ever find it up to date. loadgroup: the groups are the
# test files (one per kernel where a file boots several), the costliest
# first (harness/conftest.py).
PYTEST_PAR ?= -n 5 --dist loadgroup
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
# A failed assertion in the shared test process is caught by the runner, not
# by Check's no-fork runner, whose per-test message file cost more than the
# checks (lib/run/assert_catch.h); elsewhere both go on to Check.
CK_WRAP     = -Wl,--wrap=_ck_assert_failed,--wrap=_mark_point

LIB_SRCS   := $(sort $(wildcard lib/*/*.c))
SUITE_SRCS := $(sort $(wildcard suites/*.c))
UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJS   := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/gen/docrefs.o
SUITE_OBJS := $(SUITE_SRCS:%.c=$(BUILD)/%.o)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
CONFORM    := $(BUILD)/bin/v4l2-conform
PREFIX     ?= /usr/local

.PHONY: all deps run test test-full unit e2e bench vboard clean list matrix kbisect install flake-hunt
all: $(CONFORM) $(UNIT_BINS)

# The compiler and the libraries come before anything is compiled: every
# rule that runs $(CC) has deps as an order-only prerequisite (`| deps`), so
# make -j never compiles beside the install (a prerequisite of `all` would
# run in parallel with the others). harness/test_deps.py checks each rule.
deps:
	@tools/deps.sh build

# What the README's `make test` runs needs: the virtual board, pytest, the
# module builds (gcc, make, pahole for 6.12's BTF), the browser check, the
# fuzzers, LAVA. harness/test_deps.py checks that every program a script
# calls is installed by these groups.
TEST_DEPS := vboard test modules browser fuzz lava
# make run/matrix/kbisect/bench: a board's `build:` may build a module.
RUN_DEPS  := vboard test modules

$(BUILD)/%.o: %.c $(wildcard lib/*/*.h suites/*.h) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/lib/run/runner.o $(BUILD)/lib/run/run_args.o: $(VERSION_FILE)

# Rule id -> documentation line, for --list (spec/coverage.tsv, issue 23).
$(BUILD)/gen/docrefs.c: spec/coverage.tsv tools/docrefs.sh
	@mkdir -p $(dir $@)
	tools/docrefs.sh spec/coverage.tsv > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/docrefs.o: $(BUILD)/gen/docrefs.c lib/check/docref.h | deps
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libv4l2c.a: $(LIB_OBJS) | deps
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(CONFORM): $(SUITE_OBJS) $(BUILD)/libv4l2c.a | deps
	@mkdir -p $(dir $@)
	$(CC) -static $(CK_WRAP) -o $@ $(SUITE_OBJS) $(BUILD)/libv4l2c.a $(STATIC_LIBS)

$(BUILD)/tests/%: tests/unit/%.c tests/unit/unit_run.c tests/unit/unit.h $(BUILD)/libv4l2c.a | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CK_WRAP) -Itests/unit -o $@ $< tests/unit/unit_run.c $(BUILD)/libv4l2c.a $(STATIC_LIBS)

list: all
	$(CONFORM) --list

vboard: all
	@tools/deps.sh vboard
	fixtures/vboard/vboard build

# DEVICE unset: the virtual board with vivid. DEVICE=/dev/videoN: that device.
run: all
ifeq ($(DEVICE),)
	@tools/deps.sh $(RUN_DEPS)
	fixtures/vboard/vboard build
	/usr/bin/python3 harness/run_board.py --board $(or $(BOARD),vivid) --out reports/out $(if $(ONLY),--only '$(ONLY)')
else
	@mkdir -p reports/out
	$(CONFORM) -d $(DEVICE) --out reports/out $(if $(ONLY),--only '$(ONLY)'); st=$$?; \
	/usr/bin/python3 reports/junit.py reports/out/results.json reports/out/junit.xml; exit $$st
endif

unit:
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

e2e: vboard
	@tools/deps.sh $(TEST_DEPS)
	$(PYTEST) -v harness

# make test's wall time, for make bench's goals table (issue 24: at most 10
# minutes on a clean clone): the clock starts when make reads this file, and
# "cold" means the board cache was empty then, as on CI's clean clone.
ifneq ($(filter test,$(MAKECMDGOALS)),)
TEST_T0   := $(shell date +%s)
TEST_COLD := $(if $(wildcard $(or $(VBOARD_CACHE),fixtures/vboard/cache)/*),warm,cold)
endif

test: unit
	@tools/deps.sh $(TEST_DEPS)
	fixtures/vboard/vboard build
	$(PYTEST) -v $(PYTEST_PAR) --durations=15 harness
	@echo "$$(( $$(date +%s) - $(TEST_T0) )) $(TEST_COLD) $(VERSION) $$(date -u +%FT%TZ)" > $(BUILD)/make-test.time
	@echo "make test: $$(cat $(BUILD)/make-test.time) (seconds, board cache at the start, version, end)"

test-full: unit
	@tools/deps.sh $(TEST_DEPS)
	fixtures/vboard/vboard build
	V4L2C_TEST_FULL=1 $(PYTEST) -v $(PYTEST_PAR) --durations=15 harness
	@# The nightly's flake hunt (issue 40): every bug 5 of 5 and every bug=none
	@# board clean 5 of 5 with two boards booting beside them.
	$(MAKE) --no-print-directory flake-hunt

# The flake hunt (issue 40): the fixture catalogue and the bug=none boards ROUNDS
# times (5) with LOAD (2) other boards booting beside them; reports/out/flake-hunt.md.
# Long (about 4 min a round on 2 shared cores): make test-full runs it, make test does not.
flake-hunt: all
	@tools/deps.sh $(RUN_DEPS)
	fixtures/vboard/vboard build
	/usr/bin/python3 harness/flake_hunt.py --rounds $(or $(ROUNDS),5) --load $(or $(LOAD),2)

# The suite on several Debian kernel builds and the verdicts that differ
# (reports/out/matrix.md, .json): KERNELS=REL,REL (default: the newest installable
# 6.1, 6.12 and 7.x backport, resolved at run time), MATRIX_ARGS=--all for every build. About 45 s a kernel (90 s for two, warm).
matrix: all
	@tools/deps.sh $(RUN_DEPS)
	/usr/bin/python3 harness/matrix.py $(if $(KERNELS),--kernels '$(KERNELS)') $(if $(ONLY),--only '$(ONLY)') $(MATRIX_ARGS)

# The first Debian kernel build on which a check goes bad: make kbisect GOOD=REL BAD=REL ONLY=CHECK
# (tools/kbisect; logs and summary in reports/out/kbisect/).
kbisect: all
	@tools/deps.sh $(RUN_DEPS)
	tools/kbisect --good '$(GOOD)' --bad '$(BAD)' --only '$(ONLY)' $(if $(BOARD),--board $(BOARD)) $(KBISECT_ARGS)

bench: all
	@tools/deps.sh $(RUN_DEPS)
	fixtures/vboard/vboard build
	$(BUILD)/bin/bench-stats > $(BUILD)/bench-stats.md
	/usr/bin/python3 bench/bench_board.py --stats-md $(BUILD)/bench-stats.md

# The static binary and man v4l2-conform (docs/v4l2-conform.1); packagers set DESTDIR.
install: deps $(CONFORM)
	install -D -m 0755 $(CONFORM) $(DESTDIR)$(PREFIX)/bin/v4l2-conform
	install -D -m 0644 docs/v4l2-conform.1 $(DESTDIR)$(PREFIX)/share/man/man1/v4l2-conform.1

clean:
	rm -rf $(BUILD)

-include $(wildcard */*.mk lib/*/*.mk fixtures/*/*.mk)
