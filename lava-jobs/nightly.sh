#!/bin/sh
# The nightly: submit one v4l2-conform job per board to a lava-server with
# lavacli, wait for them, collect what each board reported, and show the
# regressions against each board's expectations (reports/compare.py).
# usage: nightly.sh -i IDENTITY [-o OUT] [-b "BOARD..."] [--baseline DIR] [--set KEY=VALUE]...
#   -i IDENTITY   a lavacli identity (lavacli identities add ... IDENTITY)
#   -o OUT        where each board's files go (default nightly/<date>)
#   -b BOARDS     profiles in fixtures/boards (default: the lab boards,
#                 every *.board but vboard-amd64)
#   --baseline D  a previous OUT: compare.py --baseline D/<board>/results.json
#   --set K=V     passed to gen-job.py (e.g. artifacts=https://...)
#   --timeout S   how long to wait for each job (default 7200)
# Per board, OUT/<board>/: job.yaml, job-id, job.txt (lavacli jobs show),
# lava.log (the raw job log), lava-cases.json (lavacli results --json),
# cases.json and results.json (lava-results.py), compare.txt/.json.
# Exit status: 0 no regression on any board, 1 a regression or a job that
# did not complete, 2 bad usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
py=/usr/bin/python3
ident="" out=nightly/$(date +%F) boards="" baseline="" tmo=7200
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

# 1. generate and submit
for b in $boards; do
    d=$out/$b; mkdir -p "$d"
    set --
    old_ifs=$IFS; IFS='
'
    for kv in $sets; do set -- "$@" --set "$kv"; done
    IFS=$old_ifs
    if ! "$py" "$here/gen-job.py" "$top/fixtures/boards/$b.board" "$@" -o "$d/job.yaml"; then
        echo "nightly: $b: no job" >&2; continue
    fi
    id=$(lavacli -i "$ident" jobs submit "$d/job.yaml" 2>&1)
    case "$id" in
        ''|*[!0-9]*) echo "nightly: $b: submission failed: $id" >&2; continue ;;
    esac
    echo "$id" > "$d/job-id"
    echo "nightly: $b: job $id"
done

# 2. wait, collect, compare
st=0
for b in $boards; do
    d=$out/$b
    [ -f "$d/job-id" ] || { st=1; continue; }
    id=$(cat "$d/job-id")
    lavacli -i "$ident" jobs wait "$id" --timeout "$tmo" >/dev/null || { echo "nightly: $b: job $id still not finished" >&2; st=1; continue; }
    lavacli -i "$ident" jobs show "$id" > "$d/job.txt"
    lavacli -i "$ident" jobs logs --raw --no-follow "$id" > "$d/lava.log"
    lavacli -i "$ident" results "$id" --json > "$d/lava-cases.json"
    echo "== $b (job $id, $(sed -n 's/^Health *: *//p' "$d/job.txt"))"
    "$py" "$here/lava-results.py" "$d/lava.log" --cases "$d/cases.json" \
        --results-json "$d/results.json" --check || st=1
    [ -f "$d/results.json" ] || { echo "nightly: $b: no results"; st=1; continue; }
    exp=$(sed -n 's/^expectations=//p' "$top/fixtures/boards/$b.board" | head -n1)
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
