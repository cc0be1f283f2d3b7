#!/bin/sh
# Install, with apt-get, the Debian packages a target needs; packages already
# installed cost one dpkg query. usage: deps.sh GROUP...
#   build    compiler, Check, libv4l (static libraries included)
#   vboard   QEMU, busybox-static, kmod, cpio (the virtual board)
#   test     pytest for the harness (xdist: two test files at a time); xmllint and perl's TAP::Parser (the JUnit and TAP
#            reports are checked with them); man-db and groff-base (the man page is rendered with man -l)
#   modules  external kernel modules from Debian's sources (fixtures/drivers/linux-source):
#            (debootstrap: the private Debian 13 build root, gcc-14, that 7.x headers need: fixtures/drivers/build-root.sh)
#            kbuild's compiler, and pahole (dwarves) for the module BTF that Debian's 6.12
#            headers build
#   fuzz     clang with libFuzzer and the sanitizers (make fuzz)
#   browser  chromium: the HTML report is checked in a real browser (harness/test_reports.py)
#   lava     lava-dispatcher, lava-common (lava-run, the job schema), python3-django
#            (lava-server's submission schema, see lava-jobs/lava_schemas.py),
#            u-boot-tools and telnet (mkimage, and the serial console command
#            of the lab device dictionaries: LAVA checks for both)
#   arm64    the arm64 cross toolchain and libraries (Check, libv4l) and
#            qemu-system-aarch64; adds the arm64 architecture to dpkg
#   lavacli  lavacli, to submit jobs to a lava-server (the nightly)
#   lava-server  lava-server and PostgreSQL (make lava-server-check runs a
#            throw-away instance of its own). Installed without Recommends
#            (no apache2) and with the package scripts' service starts
#            refused (a policy-rc.d for the time of the install): this
#            machine gets no system-wide LAVA nor PostgreSQL running.
# Kernel headers for the module builds (the fixture driver, v4l2loopback, the media test
# drivers): downloaded and unpacked into the kernel cache by fixtures/drivers/kernel-headers.sh,
# never installed. v4l2loopback-dkms is downloaded (apt-get download, not installed: dkms would
# build it for the host) by fixtures/drivers/v4l2loopback/build.sh; it needs only those headers and dpkg-deb.
set -eu
pkgs="" need_arm64=0 no_start=0
for g in "$@"; do
    case "$g" in
        build)   pkgs="$pkgs gcc libc6-dev binutils make pkg-config check libsubunit-dev libv4l-dev libjpeg-dev" ;;
        vboard)  pkgs="$pkgs qemu-system-x86 busybox-static kmod cpio gzip xz-utils zstd v4l-utils coreutils file binutils" ;;
        test)    pkgs="$pkgs python3 python3-pytest python3-pytest-xdist libxml2-utils perl man-db groff-base" ;;
        modules) pkgs="$pkgs gcc libc6-dev binutils make dwarves xz-utils debootstrap" ;;
        fuzz)    pkgs="$pkgs clang libclang-rt-dev" ;;
        browser) pkgs="$pkgs chromium" ;;
        lava)    pkgs="$pkgs lava-dispatcher lava-common python3 python3-django u-boot-tools telnet" ;;
        arm64)   need_arm64=1
                 pkgs="$pkgs gcc-aarch64-linux-gnu libc6-dev-arm64-cross make qemu-system-arm pkg-config"
                 pkgs="$pkgs check:arm64 libsubunit-dev:arm64 libv4l-dev:arm64 libjpeg-dev:arm64" ;;
        lavacli) pkgs="$pkgs lavacli" ;;
        lava-server) pkgs="$pkgs lava-server postgresql lavacli procps"; no_start=1 ;;
        *) echo "deps.sh: unknown group '$g'" >&2; exit 2 ;;
    esac
done
# One dpkg-query for all of them: make run calls this every time.
# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${Package}:${Architecture} ${Status}\n' $pkgs 2>/dev/null |
            awk '$4 == "installed" {print $1}')
arch=$(dpkg --print-architecture)
missing=""
for p in $pkgs; do
    case "$p" in *:*) q=$p ;; *) q="$p:$arch" ;; esac
    case " $(echo $installed) " in *" $q "*|*" ${q%%:*}:all "*) ;; *) missing="$missing $p" ;; esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "deps.sh: missing packages:$missing (run as root, or install them)" >&2
    exit 2
fi
export DEBIAN_FRONTEND=noninteractive
if [ "$need_arm64" = 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    echo "deps: dpkg --add-architecture arm64" >&2
    dpkg --add-architecture arm64
fi
echo "deps: apt-get install$missing" >&2
# Two targets of one make test (pytest's workers) may install at the same
# time: the second waits for dpkg's lock instead of failing at once (seen: a
# fresh machine's arm64 install lost the lock to another apt-get).
lock="-o DPkg::Lock::Timeout=900"
# shellcheck disable=SC2086
apt-get $lock update -q >&2 || true
# Refuse service starts during the install (invoke-rc.d/deb-systemd-invoke
# ask policy-rc.d), unless the machine already has a policy of its own.
prc=/usr/sbin/policy-rc.d made_prc=0
if [ "$no_start" = 1 ] && [ ! -e "$prc" ]; then
    printf '#!/bin/sh\n# tools/deps.sh: no service starts during its install\nexit 101\n' > "$prc"
    chmod 755 "$prc"; made_prc=1
    trap 'rm -f "$prc"' EXIT
fi
# shellcheck disable=SC2086
apt-get $lock install -y -q --no-install-recommends $missing >&2
[ "$made_prc" = 1 ] && rm -f "$prc"
trap - EXIT
