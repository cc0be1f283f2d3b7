#!/bin/sh
# The nightly: submit one v4l2-conform job per board to a lava-server with
# lavacli, wait for them, collect what each board reported, and show the
# regressions against each board's expectations (reports/compare.py).
# usage: nightly.sh -i IDENTITY [-o OUT] [-b "BOARD..."] [--baseline DIR] [--set KEY=VALUE]...
#   -i IDENTITY   a lavacli identity (lavacli identities add ... IDENTITY)
#   -o OUT        where each board's files go (default nightly/<date>)
#   -b BOARDS     profiles: names in fixtures/boards, or paths of .board
#                 files (default: the lab boards, every
#                 fixtures/boards/*.board but vboard-amd64)
#   --baseline D  a previous OUT: compare.py --baseline D/<board>/results.json
#   --set K=V     passed to gen-job.py (e.g. artifacts=https://...)
#   --timeout S   how long to wait for each job (default 7200)
# Per board, OUT/<board>/: job.yaml, job-id, job.txt (lavacli jobs show),
# lava.log (the raw job log), lava-cases.json (lavacli results --json),
# cases.json and results.json (lava-results.py), compare.txt/.json.
# Exit status: 0 no regression on any board, 1 a regression, a job that
# did not complete, or test cases (in the log or in the server) that
# disagree with the board's results.json, 2 bad usage.
# Every lavacli call has a timeout (LAVACLI_TIMEOUT seconds, default 300;
# the wait: --timeout) and a failed one names the board and the call.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
py=/usr/bin/python3
ident="" out=nightly/$(date +%F) boards="" baseline="" tmo=7200
ltmo=${LAVACLI_TIMEOUT:-300}
sets=""
while [ $# -gt 0 ]; do
    case "$1" in
        -i) ident=$2; shift 2 ;;
        -o) out=$2; shift 2 ;;
        -b) boards=$2; shift 2 ;;
        --baseline) baseline=$2; shift 2 ;;
        --timeout) tmo=$2; shift 2 ;;
        --set) sets="$sets
$2"; shift 2 ;;
        *) echo "nightly: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
[ -n "$ident" ] || { echo "nightly: -i IDENTITY is required (lavacli identities add ...)" >&2; exit 2; }
command -v lavacli >/dev/null || { echo "nightly: lavacli is not installed (tools/deps.sh lavacli)" >&2; exit 2; }
if [ -z "$boards" ]; then
    for p in "$top"/fixtures/boards/*.board; do
        b=$(basename "$p" .board)
        [ "$b" = vboard-amd64 ] || boards="$boards $b"
    done
fi
mkdir -p "$out"

# profile BOARD: the profile file of a board name or path
profile() {
    case "$1" in
        */*|*.board) echo "$1" ;;
        *) echo "$top/fixtures/boards/$1.board" ;;
    esac
}
# lava CALL...: lavacli with the identity and a timeout
lava() { timeout -k 10 "$ltmo" lavacli -i "$ident" "$@"; }
# seconds FROM TO: the time between two of lavacli's times (20261204T16:18:07)
seconds() {
    "$py" -c 'import sys, datetime as d
f = lambda s: d.datetime.strptime(s, "%Y%m%dT%H:%M:%S")
print(int((f(sys.argv[2]) - f(sys.argv[1])).total_seconds()))' "$1" "$2" 2>/dev/null || echo "?"
}

# 1. generate and submit
for p in $boards; do
    b=$(basename "$p" .board) prof=$(profile "$p")
    [ -f "$prof" ] || { echo "nightly: $b: no profile $prof" >&2; exit 2; }
    d=$out/$b; mkdir -p "$d"
    set --
    old_ifs=$IFS; IFS='
'
    for kv in $sets; do set -- "$@" --set "$kv"; done
    IFS=$old_ifs
    if ! "$py" "$here/gen-job.py" "$prof" "$@" -o "$d/job.yaml"; then
        echo "nightly: $b: no job" >&2; continue
    fi
    id=$(lava jobs submit "$d/job.yaml" 2>&1)
    case "$id" in
        ''|*[!0-9]*) echo "nightly: $b: submission failed: $id" >&2; continue ;;
    esac
    echo "$id" > "$d/job-id"
    echo "nightly: $b: job $id"
done

# 2. wait, collect, compare
st=0
for p in $boards; do
    b=$(basename "$p" .board) prof=$(profile "$p")
    d=$out/$b
    [ -f "$d/job-id" ] || { st=1; continue; }
    id=$(cat "$d/job-id")
    timeout -k 10 $((tmo + 60)) lavacli -i "$ident" jobs wait "$id" --timeout "$tmo" >/dev/null ||
        { echo "nightly: $b: job $id not finished after $tmo s (or lavacli failed)" >&2; st=1; continue; }
    for call in "jobs show $id:job.txt" "jobs logs --raw --no-follow $id:lava.log" "results $id --json:lava-cases.json"; do
        # shellcheck disable=SC2086
        lava ${call%:*} > "$d/${call##*:}" ||
            { echo "nightly: $b: lavacli ${call%:*} failed (exit status $?)" >&2; st=1; }
    done
    t_sub=$(sed -n 's/^submit time *: *//p' "$d/job.txt") t_start=$(sed -n 's/^start time *: *//p' "$d/job.txt")
    t_end=$(sed -n 's/^end time *: *//p' "$d/job.txt")
    echo "== $b (job $id, $(sed -n 's/^Health *: *//p' "$d/job.txt"); queued $(seconds "$t_sub" "$t_start") s, ran $(seconds "$t_start" "$t_end") s)"
    # LAVA's test cases, from the job log and from the server, against the
    # results.json the board printed into the log
    "$py" "$here/lava-results.py" "$d/lava.log" --cases "$d/cases.json" \
        --results-json "$d/results.json" --server-cases "$d/lava-cases.json" --check || st=1
    [ -f "$d/results.json" ] || { echo "nightly: $b: no results"; st=1; continue; }
    exp=$(sed -n 's/^expectations=//p' "$prof" | head -n1)
    set -- "$d/results.json" --json "$d/compare.json"
    if [ -n "$exp" ] && [ -f "$top/$exp" ]; then set -- "$@" --expect "$top/$exp"
    else echo "nightly: $b: no expectations file${exp:+ $exp}: every failure counts"; fi
    [ -n "$baseline" ] && [ -f "$baseline/$b/results.json" ] && set -- "$@" --baseline "$baseline/$b/results.json"
    "$py" "$top/reports/compare.py" "$@" > "$d/compare.txt" 2>&1
    cst=$?
    cat "$d/compare.txt"
    [ "$cst" -eq 0 ] || st=1
done
exit $st
