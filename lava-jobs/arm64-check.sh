#!/bin/sh
# Run the arm64 suite binary on the arm64 virtual board (vivid) and compare
# the results with the board's expectations (reports/compare.py): `make arm64-check`.
# usage: arm64-check.sh [SHARE_DIR] [TIMEOUT_S] [ONLY]
#   SHARE_DIR  where the run is kept (default build-arm64/vboard/run): the
#              suite's out/ (results.json), console.log, dmesg.txt, conform.exit,
#              and v4l2-compliance's (Debian 13's) compliance.txt beside it
#   ONLY       a v4l2-conform --only glob list (default: every check)
# Exit status: 0 the suite ran to the end with no unexpected failure.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
share=${1:-$top/build-arm64/vboard/run}
tmo=${2:-900}
only=${3:-}
expect=$top/fixtures/boards/vivid.expect
setting() { sed -n "s/^$1:[[:space:]]*//p" "$expect" | head -n1; }
setup=$(setting setup) dev=$(setting device) args=$(setting run-args)
[ -n "$only" ] && args="$args --only '$only'"
rm -rf "$share"; mkdir -p "$share"
cat > "$share/job.sh" <<JOB
uname -m
$setup || { echo 'job: driver set-up failed'; exit 3; }
i=0; while [ ! -e ${dev:-/dev/video0} ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i+1)); done
t0=\$(cut -d' ' -f1 /proc/uptime)
v4l2-conform -d ${dev:-/dev/video0} --out /share/out $args
st=\$?
t1=\$(cut -d' ' -f1 /proc/uptime)
echo "\$st" > /share/conform.exit
echo "\$t0 \$t1" > /share/conform.time
# Side by side: Debian 13's v4l2-compliance on the same node, same boot
# (no stdbuf on this board: the host's is amd64).
if [ -x /usr/bin/v4l2-compliance ]; then
  a=\$(cut -d' ' -f1 /proc/uptime)
  v4l2-compliance -d ${dev:-/dev/video0} > /share/compliance.txt 2>&1
  echo "\$a \$(cut -d' ' -f1 /proc/uptime)" > /share/compliance.time
fi
exit \$st
JOB
set +e
VBOARD_QUIET=1 "$here/arm64-board.sh" run "$share" "$tmo" | grep -v '^  PASS '
set -e
st=$(cat "$share/conform.exit" 2>/dev/null || echo none)
case "$st" in
    0|1) ;;
    *) echo "arm64-check: the suite did not finish on the arm64 board (exit $st); see $share/console.log" >&2
       exit 1 ;;
esac
grep -q '^aarch64$' "$share/console.log" || { echo "arm64-check: the board is not aarch64?" >&2; exit 1; }
echo "arm64-check: suite time in the guest: $(awk '{printf "%.1f s", $2 - $1}' "$share/conform.time")"
if [ -f "$share/compliance.time" ]; then
    echo "arm64-check: beside it, $(sed -n 's/^\(v4l2-compliance [0-9.]*\).*/\1/p' "$share/compliance.txt" | head -n1):" \
         "$(grep '^Total for' "$share/compliance.txt" | tail -n1 | sed 's/^Total for [^:]*: //'), " \
         "$(awk '{printf "%.1f s", $2 - $1}' "$share/compliance.time") in the guest"
fi
/usr/bin/python3 "$top/reports/compare.py" "$share/out/results.json" --expect "$expect"
