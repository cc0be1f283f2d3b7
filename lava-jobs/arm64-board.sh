#!/bin/sh
# The arm64 virtual board: qemu-system-aarch64 (-M virt, -cpu max, TCG) with
# Debian's arm64 kernel (linux-image-arm64's dependency, resolved at build
# time), arm64 busybox-static and vivid, reusing fixtures/vboard's scripts;
# Debian 13's arm64 v4l2-compliance rides along (v4l-utils-1.30.sh).
#   arm64-board.sh build [FILE[:DEST]...]   fetch (cached) and build the initramfs
#                                           with build-arm64/bin/* and FILEs in it
#   arm64-board.sh run SHARE_DIR [TIMEOUT]  boot once and run SHARE_DIR/job.sh
# Artifacts: $VBOARD_OUT (default build-arm64/vboard)/{vmlinuz,initramfs.cpio.gz,kernel.release}
# VBOARD_KERNEL=REL (e.g. 7.3.4+deb13-arm64) boots that Debian 12 or 13 build;
# Debian 13's packages come through fetch-kernel.sh's private apt state, which
# needs no `dpkg --add-architecture arm64` (tools/deps.sh arm64 adds it for the
# cross build and Debian 12's kernel).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
vb=$top/fixtures/vboard
cache=${VBOARD_CACHE:-$vb/cache}
out=${VBOARD_OUT:-$top/build-arm64/vboard}
bins=${ARM64_BINS:-$top/build-arm64/bin}
cmd=${1:-}; [ $# -gt 0 ] && shift
export VBOARD_ARCH=arm64

busybox_arm64() {
    d=$cache/busybox-arm64
    # bookworm's package has bin/busybox, trixie's (merged /usr) usr/bin/busybox.
    if [ ! -x "$d/root/bin/busybox" ] && [ ! -x "$d/root/usr/bin/busybox" ]; then
        echo "arm64-board: downloading busybox-static:arm64" >&2
        rm -rf "$d"; mkdir -p "$d"
        # The host's apt when dpkg has arm64 (tools/deps.sh arm64), else
        # Debian 13's through the private state (a static binary either way).
        A=$(VBOARD_CACHE=$cache "$vb/apt-debian13.sh" for busybox-static:arm64) ||
            { echo "arm64-board: no installable busybox-static:arm64" >&2; exit 2; }
        # shellcheck disable=SC2086
        (cd "$d" && apt-get $A download -q busybox-static:arm64 >&2 2>/dev/null) ||
            (cd "$d" && apt-get $A download busybox-static:arm64 >&2)
        dpkg-deb -x "$d"/busybox-static_*.deb "$d/root"
        rm -f "$d"/*.deb
    fi
    if [ -x "$d/root/bin/busybox" ]; then echo "$d/root/bin/busybox"; else echo "$d/root/usr/bin/busybox"; fi
}

case "$cmd" in
build)
    rel=$("$vb/fetch-kernel.sh" "$cache")
    kroot=$cache/kernel-$rel/root
    mkdir -p "$out"
    cp "$kroot/boot/vmlinuz-$rel" "$out/vmlinuz"
    echo "$rel" > "$out/kernel.release"
    extras=""
    for f in "$bins"/*; do [ -f "$f" ] && [ -x "$f" ] && extras="$extras $f"; done
    # Debian 13's arm64 v4l2-compliance (fixtures/vboard/v4l-utils-1.30.sh),
    # its own loader and libraries, for the side-by-side run of arm64-check.sh.
    if v4lu=$("$vb/v4l-utils-1.30.sh" fetch "$cache" arm64); then
        extras="$extras $v4lu/board:/usr/lib/v4l2-conform/v4l-utils $v4lu/board-wrapper:/usr/bin/v4l2-compliance"
    else
        echo "arm64-board: no Debian 13 v4l2-compliance on this board" >&2
    fi
    # shellcheck disable=SC2086
    VBOARD_BUSYBOX=$(busybox_arm64) "$vb/mkinitramfs.sh" "$kroot" "$rel" "$out/initramfs.cpio.gz" $extras "$@"
    echo "arm64-board: kernel $rel, initramfs $(du -h "$out/initramfs.cpio.gz" | cut -f1)" >&2
    ;;
run)
    [ -f "$out/initramfs.cpio.gz" ] || { echo "arm64-board: not built; run '$0 build' first" >&2; exit 2; }
    # pauth-impdef: the architected pointer-authentication algorithm costs
    # a lot under TCG; the implementation-defined one is much faster.
    VBOARD_QEMU=qemu-system-aarch64 VBOARD_MACHINE="-M virt" \
    VBOARD_CPU=${VBOARD_CPU:-max,pauth-impdef=on} VBOARD_CONSOLE=ttyAMA0 \
        exec "$vb/run-vm.sh" "$out/vmlinuz" "$out/initramfs.cpio.gz" "$@"
    ;;
*)
    echo "usage: arm64-board.sh build [FILE[:DEST]...] | run SHARE_DIR [TIMEOUT_S]" >&2
    exit 2
    ;;
esac
