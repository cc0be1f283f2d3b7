# LAVA jobs, static and arm64 builds (included by the top Makefile).
#   make lava-check     run the virtual board's LAVA job end to end with lava-run
#                       and check LAVA's test cases against the suite's results.json
#   make lava-validate  generate every board job (fixtures/boards/*.board), check
#                       it with LAVA's job schema and build its LAVA pipeline
#                       against a device dictionary of its device type
#   make static-check   the suite binaries are static (no interpreter, no .so)
#   make arm64          cross-build build-arm64/bin/v4l2-conform (gcc-aarch64-linux-gnu)
#   make arm64-check    run it on the arm64 virtual board (qemu-system-aarch64, vivid)
#   make lava-jobs      write every board job to build/lava/jobs/<board>.yaml
#   make lava-server-check  the nightly against a throw-away lava-server on
#                       this host (PostgreSQL, lava-server, lava-worker on
#                       loopback): two nights, the second with a seeded
#                       regression (lava-jobs/server-check.sh); part of test-full
# Packages: tools/deps.sh (lava, arm64, lavacli, lava-server).

ARM64_BUILD ?= build-arm64
ARM64_CC    ?= aarch64-linux-gnu-gcc
# pkg-config for the arm64 libraries (Debian multiarch, static .a included).
ARM64_PKG_CONFIG_LIBDIR ?= /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig
ARM64_CONFORM := $(ARM64_BUILD)/bin/v4l2-conform
LAVA_OUT    ?= $(BUILD)/lava

.PHONY: lava-server-check lava-deps lava-check lava-validate lava-jobs static-check arm64 arm64-deps arm64-board arm64-check

lava-deps:
	@tools/deps.sh lava

arm64-deps:
	@tools/deps.sh arm64

# The virtual board's job, with lava-run (about 10 s plus the suite).
lava-check: vboard lava-deps
	lava-jobs/run-local.sh --out $(LAVA_OUT)/amd64/run $(if $(ONLY),--only '$(ONLY)')

lava-jobs: lava-deps
	/usr/bin/python3 lava-jobs/gen-job.py --all -d $(LAVA_OUT)/jobs

lava-validate: lava-deps
	lava-jobs/validate-all.sh $(LAVA_OUT)

static-check: $(CONFORM)
	lava-jobs/static-check.sh $(CONFORM) $(wildcard $(ARM64_CONFORM))

# The top Makefile with another BUILD, CC and pkg-config search path.
arm64: arm64-deps
	PKG_CONFIG_LIBDIR=$(ARM64_PKG_CONFIG_LIBDIR) $(MAKE) --no-print-directory \
		BUILD=$(ARM64_BUILD) CC=$(ARM64_CC) $(ARM64_CONFORM)
	lava-jobs/static-check.sh $(ARM64_CONFORM)

arm64-board: arm64
	@tools/deps.sh vboard test
	lava-jobs/arm64-board.sh build

arm64-check: arm64-board
	lava-jobs/arm64-check.sh

# The nightly end to end against a real lava-server (13-25 min on 2 shared cores).
lava-server-check: vboard fixture-driver
	@tools/deps.sh lava lava-server lavacli test
	lava-jobs/server-check.sh --out $(LAVA_OUT)/server-check

test-full: lava-server-check
