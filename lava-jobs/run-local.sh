#!/bin/sh
# Run the virtual board's LAVA job end to end with lava-run (Debian's
# lava-dispatcher; no lava-server): `make lava-check`.
# usage: run-local.sh [--only GLOB] [--out DIR] [--bin PATH]
#   --only GLOB  run a subset of the checks (default: all)
#   --out DIR    where the job, lava-run's log and the results go
#                (default build/lava/amd64/run)
#   --bin PATH   the suite binary for the bundle (default build/bin/v4l2-conform)
# Needs build/vboard/{vmlinuz,initramfs.cpio.gz} (fixtures/vboard/vboard build).
# Writes OUT/job.yaml, OUT/lava.log (lava-run's YAML log), OUT/lava-results.json
# (the test cases LAVA recorded, per test set) and OUT/results.json (the
# suite's own results.json, as the device printed it into the log).
# Exit status: 0 when the LAVA job completed and its results agree with the
# suite's own results.json; 1 otherwise. The suite's verdict is printed
# (lava.0_v4l2-conform: pass/fail) but does not decide the exit status.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
only="" out=$top/build/lava/amd64/run bin=$top/build/bin/v4l2-conform
while [ $# -gt 0 ]; do
    case "$1" in
        --only) only=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --bin) bin=$2; shift 2 ;;
        *) echo "run-local: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
command -v lava-run >/dev/null || { echo "run-local: lava-run missing (tools/deps.sh lava)" >&2; exit 2; }
vb=${VBOARD_OUT:-$top/build/vboard}
[ -f "$vb/initramfs.cpio.gz" ] || { echo "run-local: $vb not built (fixtures/vboard/vboard build)" >&2; exit 2; }
[ -x "$bin" ] || { echo "run-local: no suite binary $bin" >&2; exit 2; }

bundle=$top/build/lava/amd64/v4l2-conform-bundle.tar.gz
"$here/mkbundle.sh" "$bin" "$bundle"

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/lava-run" "$out/lava.log" "$out/results.json" "$out/lava-results.json"
/usr/bin/python3 "$here/gen-job.py" "$top/fixtures/boards/vboard-amd64.board" \
    --set "kernel_url=file://$vb/vmlinuz" --set "ramdisk_url=file://$vb/initramfs.cpio.gz" \
    --set "bundle_url=file://$bundle" ${only:+--set "only=$only"} -o "$out/job.yaml"

echo "run-local: lava-run $out/job.yaml (log: $out/lava.log)" >&2
start=$(date +%s)
set +e
lava-run --job-id "${LAVA_JOB_ID:-1}" --output-dir "$out/lava-run" \
    --device "$here/devices/vboard-amd64.yaml" "$out/job.yaml" > "$out/lava.log" 2>&1
rc=$?
set -e
echo "run-local: lava-run exit $rc after $(( $(date +%s) - start )) s" >&2
/usr/bin/python3 "$here/lava-results.py" "$out/lava.log" --cases "$out/lava-results.json" \
    --results-json "$out/results.json" --check
