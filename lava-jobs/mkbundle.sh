#!/bin/sh
# The suite bundle LAVA lays over a board's ramdisk: usr/bin/v4l2-conform (the
# static suite binary), usr/bin/v4l2-conform-lava (the LAVA wrapper) and the
# suite's board profiles (fixtures/boards/*.profile, for --profile) in
# usr/share/v4l2-conform/profiles/.
# usage: mkbundle.sh SUITE_BINARY OUT.tar.gz [FILE:DEST]...
#   FILE:DEST  more files, DEST a path under /usr on the board (e.g. the
#              fixture driver, v4l2c_fixture.ko:/usr/lib/v4l2-conform/v4l2c_fixture.ko);
#              a directory FILE is copied as a tree
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$1 out=$2
shift 2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/usr/bin" "$(dirname "$out")"
cp -L "$bin" "$stage/usr/bin/v4l2-conform"
cp "$here/testdefs/v4l2-conform-lava.sh" "$stage/usr/bin/v4l2-conform-lava"
chmod 755 "$stage/usr/bin/v4l2-conform" "$stage/usr/bin/v4l2-conform-lava"
mkdir -p "$stage/usr/share/v4l2-conform/profiles"
for f in "$here"/../fixtures/boards/*.profile; do
    [ -f "$f" ] && cp "$f" "$stage/usr/share/v4l2-conform/profiles/"
done
for spec in "$@"; do
    src=${spec%%:*} dest=${spec#*:}
    case "$dest" in /usr/*) ;; *) echo "mkbundle: '$spec': DEST must be a path under /usr" >&2; exit 2 ;; esac
    if [ -d "$src" ]; then
        # A tree as it is (e.g. Debian 13's arm64 v4l2-compliance with its
        # loader, fixtures/vboard/v4l-utils-1.30.sh: board:/usr/lib/v4l2-conform/v4l-utils).
        mkdir -p "$stage$dest"; cp -a "$src/." "$stage$dest/"; continue
    fi
    mkdir -p "$stage$(dirname "$dest")"
    cp -L "$src" "$stage$dest"
done
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$out.tmp" usr
mv "$out.tmp" "$out"
