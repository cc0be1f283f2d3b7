#!/bin/sh
# Install, with apt-get, the Debian packages a target needs; packages already
# installed cost one dpkg query. usage: deps.sh GROUP...
#   build  compiler, Check, libv4l (static libraries included)
#   vboard QEMU, busybox-static, kmod, cpio (the virtual board)
#   test   pytest for the harness
#   driver kernel headers are handled by fetch-kernel.sh --headers
set -eu
pkgs=""
for g in "$@"; do
    case "$g" in
        build)  pkgs="$pkgs gcc make pkg-config check libsubunit-dev libv4l-dev libjpeg-dev" ;;
        vboard) pkgs="$pkgs qemu-system-x86 busybox-static kmod cpio gzip xz-utils zstd v4l-utils coreutils" ;;
        test)   pkgs="$pkgs python3 python3-pytest" ;;
        *) echo "deps.sh: unknown group '$g'" >&2; exit 2 ;;
    esac
done
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "deps.sh: missing packages:$missing (run as root, or install them)" >&2
    exit 2
fi
echo "deps: apt-get install$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2 || true
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >&2
