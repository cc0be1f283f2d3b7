#!/bin/sh
# `make lava-server-check`: the nightly (nightly.sh) against a real
# lava-server, end to end, on this host. A throw-away LAVA instance
# (local-server.sh: PostgreSQL, lava-server, lava-worker, all on loopback)
# with the virtual board as a qemu device runs two nights of two boards,
# vboard-amd64 (vivid) and server-check/vboard-fixture.board (the fixture
# driver):
#   night 1  both boards clean: nightly.sh must exit 0, and every job's test
#            cases, as the server stored them (lavacli results), must agree
#            with the results.json the board printed;
#   night 2  the fixture driver with a bug (--bug, default range-not-enforced),
#            compared with night 1: nightly.sh must exit 1, compare.py must name
#            a check the bug's catalogue entry (bugs.tsv) says it breaks, and
#            vivid must not have regressed.
# The nights run every suite but the frame probes (their verdicts vary from
# run to run under TCG, see harness/test_lava.py).
# usage: server-check.sh [--out DIR] [--state DIR] [--keep] [--bug NAME]
#   --out DIR    the nights' files (default build/lava/server-check):
#                DIR/night-1/<board>/..., DIR/night-2/..., their outputs
#                DIR/night-N.txt, the server's logs DIR/server-log/
#   --state DIR  the server's state (default: a new directory in $TMPDIR),
#                removed at the end unless --keep or a failure
#   --bug NAME   the bug of night 2 (fixtures/drivers/v4l2c-fixture/bugs.tsv)
# Needs build/bin/v4l2-conform, build/vboard/ and the fixture driver
# (make all vboard fixture-driver) and tools/deps.sh lava-server lavacli.
# Exit status: 0 both nights as expected, 1 otherwise, 2 bad usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
py=/usr/bin/python3
out=$top/build/lava/server-check state="" keep=0 bug=range-not-enforced
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=$2; shift 2 ;;
        --state) state=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --bug) bug=$2; shift 2 ;;
        *) echo "server-check: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
say() { echo "server-check: $*"; }
fail() { say "FAIL: $*"; exit 1; }

bin=$top/build/bin/v4l2-conform vb=$top/build/vboard
ko=$top/fixtures/drivers/v4l2c-fixture/v4l2c_fixture.ko
fixture_board=$here/server-check/vboard-fixture.board
for f in "$bin" "$vb/vmlinuz" "$vb/initramfs.cpio.gz" "$ko"; do
    [ -f "$f" ] || { echo "server-check: $f is missing (make all vboard fixture-driver)" >&2; exit 2; }
done
bug_checks=$(awk -F'\t' -v b="$bug" '$1 == b { print $4 }' "$top/fixtures/drivers/v4l2c-fixture/bugs.tsv")
[ -n "$bug_checks" ] || { echo "server-check: no bug '$bug' in bugs.tsv" >&2; exit 2; }

t_all=$(date +%s)
[ -n "$state" ] || state=$(mktemp -d "${TMPDIR:-/tmp}/lava-server-check.XXXXXX")
ok=0 child=""
# bounded CMD...: a long step in the background, waited for, so that a
# signal reaches the trap at once (sh runs traps only between commands);
# CMD starts with timeout, which passes the signal on to its process group.
bounded() { "$@" & child=$!; wait "$child"; st=$?; child=""; return $st; }
cleanup() {
    [ -n "$child" ] && kill -TERM "$child" 2>/dev/null && wait "$child" 2>/dev/null
    "$here/local-server.sh" stop "$state"
    mkdir -p "$out/server-log"
    cp -r "$state/log/." "$out/server-log/" 2>/dev/null
    if [ "$ok" = 1 ] && [ "$keep" = 0 ]; then rm -rf "$state"
    else say "the server's state is kept in $state"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

rm -rf "$out/night-1" "$out/night-2" "$out/server-log"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# the bundles the boards' jobs lay over the ramdisk
"$here/mkbundle.sh" "$bin" "$top/build/lava/amd64/v4l2-conform-bundle.tar.gz" || fail "no suite bundle"
"$here/mkbundle.sh" "$bin" "$top/build/lava/amd64/v4l2-conform-fixture-bundle.tar.gz" \
    "$ko:/usr/lib/v4l2-conform/v4l2c_fixture.ko" || fail "no fixture bundle"
# every suite but the frame probes
only=$("$bin" --list | awk -F/ 'NF > 1 { s = $1; gsub(/ /, "", s); if (s != "probe" && !(s in seen)) { seen[s] = 1; o = o (o ? "," : "") s "/*" } } END { print o }')
[ -n "$only" ] || fail "v4l2-conform --list gave no suite"

say "starting the server in $state"
t0=$(date +%s)
bounded timeout -k 30 1200 "$here/local-server.sh" start "$state" \
    --device "vboard-amd64-01:qemu:$here/devices/vboard-amd64.jinja2" || fail "the server did not start (logs: $state/log/)"
t_setup=$(( $(date +%s) - t0 ))
say "server set up in $t_setup s"
. "$state/env"
export XDG_CONFIG_HOME

# night NUMBER EXPECTED_STATUS NIGHTLY_ARGS...
night() {
    n=$1 want=$2; shift 2
    say "night $n: nightly.sh -i $LAVA_IDENTITY -b 'vboard-amd64 $fixture_board' $*"
    t0=$(date +%s)
    st=0
    bounded timeout -k 30 5400 "$here/nightly.sh" -i "$LAVA_IDENTITY" -o "$out/night-$n" --timeout 1800 \
        -b "vboard-amd64 $fixture_board" --set "only=$only" "$@" > "$out/night-$n.txt" 2>&1 || st=$?
    sed 's/^/  | /' "$out/night-$n.txt"
    say "night $n: exit status $st after $(( $(date +%s) - t0 )) s"
    [ "$st" = 124 ] && fail "night $n: nightly.sh timed out"
    [ "$st" = "$want" ] || fail "night $n: nightly.sh exit status $st, expected $want"
    # both boards: the server's test cases agree with the board's results.json
    [ "$(grep -c "the server's test cases agree with results.json" "$out/night-$n.txt")" = 2 ] ||
        fail "night $n: the server's test cases do not agree with results.json on every board"
}

night 1 0
night 2 1 --baseline "$out/night-1" --set "fixture_bug=$bug"

# night 2: the regression is the bug's, named by compare.py; vivid is clean
"$py" - "$out/night-2" "$out/night-2.txt" "$bug" "$bug_checks" <<'EOF' || fail "night 2 is not the seeded regression"
import fnmatch, json, sys
d, text, bug, patterns = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3], sys.argv[4]
pats = [p.lstrip("?") for p in patterns.split(",")]
fx = json.load(open(d + "/vboard-fixture/compare.json"))
vivid = json.load(open(d + "/vboard-amd64/compare.json"))
named = [n for n in fx["regressions"] if any(fnmatch.fnmatchcase(n, p) for p in pats)]
shown = [n for n in named if "  " + n + " [" in text]
print("server-check: night 2: vboard-fixture (bug=%s): %d regressions, %d of them checks bugs.tsv names, "
      "%d named in compare.py's output; vboard-amd64: %d regressions"
      % (bug, len(fx["regressions"]), len(named), len(shown), len(vivid["regressions"])))
ok = "REGRESSIONS (unexpected failures)" in text and shown and not vivid["regressions"]
for n in vivid["regressions"]:
    print("server-check: vivid regressed between the nights: " + n)
sys.exit(0 if ok else 1)
EOF
ok=1
say "PASS in $(( $(date +%s) - t_all )) s: server set-up $t_setup s, jobs as above (queued, ran)"
