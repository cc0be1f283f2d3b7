#!/bin/sh
# Check every board job (fixtures/boards/*.board) the two ways LAVA would:
#  1. LAVA's job schema (lava_common.schemas.validate, strict), on the jobs as
#     the nightly submits them: gen-job.py --all -> OUT/jobs/<board>.yaml;
#  2. LAVA's pipeline (what `lava-run --validate` builds on a worker), on the
#     same jobs with their URLs turned into local stand-in files, against a
#     device dictionary of the board's device type rendered from lava-server's
#     template: lava-jobs/devices/<board>.yaml, else lab-<device_type>.yaml.
# usage: validate-all.sh [OUT]   (default build/lava)   `make lava-validate`
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${1:-$top/build/lava}
mkdir -p "$out"
out=$(cd "$out" && pwd)
py=/usr/bin/python3

"$py" "$here/gen-job.py" --all -d "$out/jobs" >/dev/null
echo "validate-all: every job in $out/jobs passes LAVA's job schemas (lava-dispatcher's and lava-server's)"

art=$out/stand-in
rm -rf "$art"; mkdir -p "$art/modules/lib/modules" "$art/ramdisk/bin"
printf 'kernel\n' > "$art/Image"
printf 'dtb\n' > "$art/board.dtb"
tar -C "$art/modules" -cJf "$art/modules.tar.xz" lib
(cd "$art/ramdisk" && find . | cpio -o -H newc --quiet | gzip) > "$art/initramfs.cpio.gz"
printf '#!/bin/sh\nexit 2\n' > "$art/v4l2-conform"; chmod +x "$art/v4l2-conform"
"$here/mkbundle.sh" "$art/v4l2-conform" "$art/bundle.tar.gz"

st=0
mkdir -p "$out/pipeline"
for prof in "$top"/fixtures/boards/*.board; do
    b=$(basename "$prof" .board)
    dt=$(sed -n 's/^device_type=//p' "$prof" | head -n1)
    dev=$here/devices/$b.yaml
    [ -f "$dev" ] || dev=$here/devices/lab-$dt.yaml
    if [ ! -f "$dev" ]; then
        echo "validate-all: $b: no device dictionary for $dt in lava-jobs/devices" >&2
        st=1; continue
    fi
    "$py" "$here/gen-job.py" "$prof" -o "$out/pipeline/$b.yaml" \
        --set "kernel_url=file://$art/Image" --set "dtb_url=file://$art/board.dtb" \
        --set "modules_url=file://$art/modules.tar.xz" --set "ramdisk_url=file://$art/initramfs.cpio.gz" \
        --set "bundle_url=file://$art/bundle.tar.gz"
    "$py" "$here/validate-pipeline.py" "$out/pipeline/$b.yaml" "$dev" 2>"$out/pipeline/$b.log" || st=1
done
exit $st
