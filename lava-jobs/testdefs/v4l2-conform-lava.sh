#!/bin/sh
# v4l2-conform-lava: run the v4l2-conform suite on the device under test and
# report every check to LAVA as its own test case. POSIX sh + awk only: it
# runs on busybox (no Python on the device).
#
# usage: v4l2-conform-lava [-d DEVICE] [--setup CMD] [--only GLOB]
#                          [--out DIR] [--bin PATH] [--wait SECONDS] [-- ARGS...]
#        v4l2-conform-lava --convert RESULTS.json [EXIT_STATUS]
#   -d DEVICE     video node to test (default /dev/video0)
#   --setup CMD   shell command that readies the device first (the 'setup:'
#                 of the board's expectations, e.g. "modprobe vivid n_devs=1");
#                 the node is then waited for up to --wait seconds (default 20)
#   --only GLOB   run a subset of the checks (v4l2-conform --only)
#   --out DIR     where results.json and the logs go (default /tmp/v4l2-conform)
#   --bin PATH    the suite binary (default: v4l2-conform next to this
#                 script, else on PATH)
#   ARGS          passed to v4l2-conform as they are
#   --no-dump     do not print results.json into the log (see below)
#   --convert     only turn an existing results.json into LAVA results
#                 (replays, tests); EXIT_STATUS is the suite's exit status
#                 to report (default: 1 when a check failed, else 0)
#
# What LAVA gets:
#   - one test set per suite (lava-test-set start/stop), and in it one test
#     case per check, named after the check with '/' turned into '.'
#     (getset/out-of-range/brightness -> getset.out-of-range.brightness)
#     and any character outside [A-Za-z0-9._-] turned into '_';
#   - verdicts: pass -> pass, fail -> fail, skip -> skip, warn -> pass, with
#     the warning printed as a note ("v4l2-conform: WARN <check>: <message>")
#     and counted in the summary;
#   - each measurement of a check as its own test case <check>.<measurement>
#     (result pass) with --measurement VALUE --units UNIT;
#   - a test set "summary": cases completed (pass when the suite ran to the
#     end and wrote results.json) and checks-pass/-fail/-warn/-skip with the
#     counts as measurements (units: checks);
#   - the script exits with the suite's own exit status (0 all passed,
#     1 a check failed, 2 unusable device or bad usage), so LAVA marks the
#     test definition run (lava.<n>_v4l2-conform) failed when the suite failed.
#   - results.json itself, each line prefixed with "v4l2-conform-json: ",
#     between "v4l2-conform: results.json begin" and "... end" lines, so that
#     the host gets the full results from the job log alone
#     (lava-jobs/lava-results.py --results-json).
# Kernel messages would corrupt the signals on the serial console: the
# console log level is lowered (dmesg -n 1) for the run and restored after;
# warnings the kernel logged meanwhile are printed once all results are out.
# Outside LAVA (no lava-test-case on PATH) the same signal lines are printed.

set -u
dev=/dev/video0 setup="" only="" out=/tmp/v4l2-conform bin="" wait_s=20 convert="" dump=1
status=""
while [ $# -gt 0 ]; do
    case "$1" in
        -d|--device) dev=$2; shift 2 ;;
        --setup) setup=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --bin) bin=$2; shift 2 ;;
        --wait) wait_s=$2; shift 2 ;;
        --no-dump) dump=0; shift ;;
        --convert) convert=$2; shift 2
                   case "${1:-}" in [0-9]*) status=$1; shift ;; esac ;;
        --) shift; break ;;
        -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "v4l2-conform-lava: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

note() { echo "v4l2-conform: $*"; }

# LAVA's helpers when the test shell put them on PATH; otherwise the very
# lines they would print.
if command -v lava-test-case >/dev/null 2>&1; then
    tc() { lava-test-case "$@"; }
    tset() { lava-test-set "$@"; }
else
    tc() {
        id=$1; shift; data=""
        while [ $# -gt 1 ]; do
            case "$1" in
                --result) data="$data RESULT=$2" ;;
                --measurement) data="$data MEASUREMENT=$2" ;;
                --units) data="$data UNITS=$2" ;;
            esac
            shift 2
        done
        echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$id$data>"
    }
    tset() {
        if [ "$1" = start ]; then echo "<LAVA_SIGNAL_TESTSET START $2>"
        else echo "<LAVA_SIGNAL_TESTSET STOP>"; fi
    }
fi

# results.json -> one instruction per line, tab-separated:
#   S <set>            start a test set (the previous one is stopped)
#   C <case> <result> [<measurement> <units>]
#   N <text>           a note for the log
#   T <pass> <fail> <warn> <skip>   the counts
# The JSON comes from v4l2-conform's writer: one result object per line.
# The parser below reads any JSON value on such a line, but needs each
# result on a line of its own.
to_instructions() {
    awk '
    function err(m) { perr = m; P = length(S) + 1 }
    function ws() { while (P <= length(S) && index(" \t\r\n", substr(S, P, 1))) P++ }
    function pstr(   r, s, i, c, o, h) {
        # S[P] is the opening quote
        if (!match(substr(S, P), /^"([^"\\]|\\.)*"/)) { err("bad string"); return "" }
        r = substr(S, P + 1, RLENGTH - 2); P += RLENGTH
        if (index(r, "\\") == 0) return r
        o = ""
        for (i = 1; i <= length(r); i++) {
            c = substr(r, i, 1)
            if (c != "\\") { o = o c; continue }
            c = substr(r, ++i, 1)
            if (c == "n") o = o "\n"; else if (c == "t") o = o "\t"
            else if (c == "r") o = o "\r"; else if (c == "b" || c == "f") o = o " "
            else if (c == "u") { h = substr(r, i + 1, 4); i += 4
                o = o (h ~ /^00[2-7][0-9a-fA-F]$/ ? sprintf("%c", hex(h)) : "?") }
            else o = o c
        }
        return o
    }
    function hex(h,   i, v) { v = 0; h = tolower(h)
        for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
        return v }
    # Parse one value at P into J[path] (scalars), J[path ".#"] (array sizes).
    function pval(path,   c, k, n) {
        ws(); c = substr(S, P, 1)
        if (c == "\"") { J[path] = pstr(); return }
        if (c == "{") {
            P++; ws()
            if (substr(S, P, 1) == "}") { P++; return }
            while (P <= length(S)) {
                ws(); if (substr(S, P, 1) != "\"") { err("bad key"); return }
                k = pstr(); ws()
                if (substr(S, P, 1) != ":") { err("no colon"); return }
                P++; pval(path == "" ? k : path "." k); ws()
                c = substr(S, P++, 1)
                if (c == "}") return
                if (c != ",") { err("bad object"); return }
            }
            return
        }
        if (c == "[") {
            P++; ws(); n = 0
            if (substr(S, P, 1) == "]") { P++; J[path ".#"] = 0; return }
            while (P <= length(S)) {
                pval(path "." n); n++; ws()
                c = substr(S, P++, 1)
                if (c == "]") { J[path ".#"] = n; return }
                if (c != ",") { err("bad array"); return }
            }
            return
        }
        if (match(substr(S, P), /^(-?[0-9.eE+-]+|true|false|null)/)) {
            J[path] = substr(S, P, RLENGTH); P += RLENGTH; return
        }
        err("bad value")
    }
    function parse(line) {
        split("", J); perr = ""
        S = line; sub(/^[ \t]*/, "", S); sub(/[ \t\r]*,?[ \t\r]*$/, "", S)
        P = 1; pval(""); ws()
        if (perr == "" && P <= length(S)) perr = "trailing text"
        return perr == ""
    }
    function id(s) { gsub(/\//, ".", s); gsub(/[^A-Za-z0-9._-]/, "_", s); return s }
    function flat(s) { gsub(/[\t\r\n]+/, " ", s); return s }
    BEGIN { nsuite = 0; np = nf = nw = ns = 0; nres = 0 }
    /^[ \t]*"run":/ {
        line = $0; sub(/^[ \t]*"run":[ \t]*/, "", line)
        if (parse(line))
            printf "N\tdevice %s (%s, %s), kernel %s, suite %s\n", J["device"], J["driver"], J["card"], J["kernel"], J["suite_version"]
        next
    }
    /^[ \t]*\{.*"verdict"/ {
        if (!parse($0)) { printf "N\tresults.json line %d not understood (%s)\n", NR, perr; bad++; next }
        nres++
        su = J["suite"] != "" ? J["suite"] : J["name"]; sub(/\/.*/, "", su)
        if (!(su in seen)) { seen[su] = 1; order[++nsuite] = su; cnt[su] = 0 }
        k = ++cnt[su]; v = J["verdict"]; nm = id(J["name"])
        res = v == "pass" || v == "warn" ? "pass" : v == "fail" ? "fail" : v == "skip" ? "skip" : "unknown"
        if (v == "pass") np++; else if (v == "warn") nw++; else if (v == "skip") ns++; else nf++
        out = "C\t" nm "\t" res
        if (v == "warn") out = out "\nN\tWARN " J["name"] ": " flat(J["message"])
        if (v == "fail") out = out "\nN\tFAIL " J["name"] " [" J["rule"] "]: " flat(J["message"])
        if (res == "unknown") out = out "\nN\tunknown verdict \"" v "\" for " J["name"]
        for (m = 0; m < J["measurements.#"] + 0; m++) {
            val = J["measurements." m ".value"]
            if (val !~ /^-?[0-9]/) continue
            u = id(J["measurements." m ".unit"])
            out = out "\nC\t" nm "." id(J["measurements." m ".name"]) "\tpass\t" val "\t" u
        }
        rec[su, k] = out
        next
    }
    END {
        for (i = 1; i <= nsuite; i++) {
            su = order[i]
            printf "S\t%s\n", id(su)
            for (k = 1; k <= cnt[su]; k++) print rec[su, k]
        }
        if (bad) printf "N\t%d result lines of results.json were not understood\n", bad
        printf "T\t%d\t%d\t%d\t%d\t%d\n", np, nf, nw, ns, bad
    }' "$1"
}

report() {   # report RESULTS.json EXIT_STATUS
    json=$1 st=$2 insets=0 counts=""
    if [ -s "$json" ]; then
        tab=$(printf '\t')
        ins=$(mktemp "${TMPDIR:-/tmp}/v4l2-conform-lava.XXXXXX")
        to_instructions "$json" > "$ins" || true
        while IFS="$tab" read -r kind a b c d e; do
            case "$kind" in
                S) [ "$insets" = 1 ] && tset stop
                   tset start "$a"; insets=1 ;;
                C) if [ -n "${c:-}" ]; then
                       if [ -n "${d:-}" ]; then tc "$a" --result "$b" --measurement "$c" --units "$d"
                       else tc "$a" --result "$b" --measurement "$c"; fi
                   else tc "$a" --result "$b"; fi ;;
                N) note "$a" ;;
                T) counts="$a $b $c $d ${e:-0}" ;;
            esac
        done < "$ins"
        rm -f "$ins"
        [ "$insets" = 1 ] && tset stop
    fi
    tset start summary
    if [ -n "$counts" ] && [ "$st" -le 1 ]; then
        set -- $counts
        tc completed --result pass
        tc checks-pass --result pass --measurement "$1" --units checks
        tc checks-fail --result pass --measurement "$2" --units checks
        tc checks-warn --result pass --measurement "$3" --units checks
        tc checks-skip --result pass --measurement "$4" --units checks
        note "$1 passed, $2 failed, $3 warned, $4 skipped; exit status $st"
        # A results.json with no result in it, or lines we could not read,
        # must not look like a clean run.
        if [ $(($1 + $2 + $3 + $4)) -eq 0 ] || [ "$5" -gt 0 ]; then
            [ "$st" -eq 0 ] && st=1
        fi
    else
        tc completed --result fail
        [ -s "$json" ] || note "no results.json: the suite did not finish (exit status $st)"
        [ "$st" -eq 0 ] && st=1
    fi
    tset stop
    if [ "$dump" = 1 ] && [ -s "$json" ]; then
        note "results.json begin"
        sed 's/^/v4l2-conform-json: /' "$json"
        note "results.json end"
    fi
    return "$st"
}

if [ -n "$convert" ]; then
    if [ -z "$status" ]; then
        status=0
        grep -q '"verdict": *"fail"' "$convert" 2>/dev/null && status=1
    fi
    report "$convert" "$status"
    exit $?
fi

if [ -z "$bin" ]; then
    here=$(cd "$(dirname "$0")" && pwd)
    if [ -x "$here/v4l2-conform" ]; then bin=$here/v4l2-conform
    else bin=$(command -v v4l2-conform || echo v4l2-conform); fi
fi
mkdir -p "$out"
rm -f "$out/results.json"

# Keep kernel messages off the console while the signals go out.
oldlevel=$(cut -f1 /proc/sys/kernel/printk 2>/dev/null || echo 7)
dmesg -n 1 2>/dev/null || note "cannot lower the console log level (dmesg -n 1)"
klines=$(dmesg 2>/dev/null | wc -l)

if [ -n "$setup" ]; then
    note "setup: $setup"
    eval "$setup" || note "setup failed (exit status $?)"
    i=0
    while [ ! -e "$dev" ] && [ "$i" -lt $((wait_s * 5)) ]; do sleep 0.2; i=$((i + 1)); done
fi
[ -e "$dev" ] || note "$dev does not exist"

note "kernel $(uname -r), $bin -d $dev${only:+ --only $only}"
# The suite's progress goes to the console live and to run.log.
set -- -d "$dev" --out "$out" ${only:+--only "$only"} "$@"
{ "$bin" "$@" 2>&1; echo $? > "$out/exit"; } | tee "$out/run.log"
status=$(cat "$out/exit" 2>/dev/null || echo 125)

report "$out/results.json" "$status"
final=$?

# Kernel warnings logged during the run, once the results are out.
dmesg 2>/dev/null > "$out/dmesg.txt"
if [ "$(wc -l < "$out/dmesg.txt")" -gt "$klines" ]; then
    tail -n +$((klines + 1)) "$out/dmesg.txt" |
        grep -i 'warn\|error\|bug\|oops\|call trace' | head -n 40 |
        sed 's/^/v4l2-conform: kernel: /'
fi
dmesg -n "$oldlevel" 2>/dev/null
exit "$final"
