#!/usr/bin/env python3
"""tools/kbisect: the first Debian kernel build on which a check goes bad.

usage: kbisect --good KVER --bad KVER --only CHECK [--board vivid] [--out reports/out/kbisect] [--verify]
Orders Debian's builds from good to bad (apt-cache; harness/kbuilds.py, the
same series rules as make matrix), boots them on the virtual board in binary
search order and runs the suite with --only CHECK --bisect on each: 0 good,
1 bad, 125 skip (untestable, no such check, the board hung), a skipped build
is stepped over as git bisect does. Like git bisect the endpoints are taken
as given; --verify boots them first. Each step's output goes to
OUT/STEP-RELEASE.log, the steps and the answer to OUT/summary.txt and .json.
exit: 0 the first bad build was named, 1 it could not be (skipped builds in
the way, or --verify found an endpoint that disagrees), 2 bad input,
128 our own tooling failed on a step (the module did not build, a program is
missing, a download failed, QEMU did not start): the bisection stops there
with one line naming the cause, since the kernel is not to blame
(docs/bisecting.md). Only what is the kernel's (the check does not exist
there, the driver does not load, the board hung) is a skip.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reports"))
import kbuilds  # noqa: E402
import vboard  # noqa: E402
from results import Expectations  # noqa: E402

# A board whose set-up loads the fixture driver from here gets the module
# built for each build it boots (fixtures/boards/fixture-regress.expect).
FIXTURE_KO = "/usr/share/v4l2-conform/v4l2c_fixture.ko"
BUILD_MODULE = vboard.TOP / "fixtures" / "drivers" / "build-for-kernel.sh"

GOOD, BAD, SKIP = "good", "bad", "skip"
STATUS = {0: GOOD, 1: BAD}
TOOLING_FAILED = vboard.TOOLING_FAILED


class ToolingFailed(Exception):
    """A step failed in our own tooling, not in the kernel: stop the bisection."""


def cause(output, default):
    """The line of a failed tool's output that names the cause: the last
    one saying what is missing (a script's 'X is not installed', the
    shell's 'X: not found'), else the last line, else default."""
    lines = [l.strip() for l in output.splitlines() if l.strip()]
    named = [l for l in lines if "not installed" in l or "not found" in l or "failed" in l]
    return (named or lines or [default])[-1]


def narrowed(n, status):
    """n builds (0 good, n-1 bad), status {index: good|bad|skip} -> (lo, hi):
    the newest good before the oldest bad, and that bad."""
    hi = min([i for i, v in status.items() if v == BAD] + [n - 1])
    lo = max([i for i, v in status.items() if v == GOOD and i < hi] + [0])
    return lo, hi


def next_step(n, status):
    """The index to boot next, or None when the bisection is over: among the
    untested builds strictly between the last good and the first bad, the one
    nearest the middle (a skipped build is never retried; its neighbours are)."""
    lo, hi = narrowed(n, status)
    left = [i for i in range(lo + 1, hi) if i not in status]
    if not left:
        return None
    mid = (lo + hi) / 2
    return min(left, key=lambda i: (abs(i - mid), i))


def answer(n, status):
    """When next_step is None: (first_bad_index or None, candidate indices).
    Builds skipped between the last good and the first bad leave the first
    bad undecided among them and the bad one."""
    lo, hi = narrowed(n, status)
    skipped = [i for i in range(lo + 1, hi) if status.get(i) == SKIP]
    return (None if skipped else hi), skipped + [hi]


def bisect(builds, run_step, verify=False):
    """builds: releases oldest first (good ... bad). run_step(step, release)
    -> good|bad|skip. Returns (first bad release or None, candidates, steps
    [(release, verdict)], problem or None)."""
    n, status, steps = len(builds), {}, []

    def step(i):
        v = run_step(len(steps) + 1, builds[i])
        steps.append((builds[i], v))
        return v

    if verify:
        for i, want in ((0, GOOD), (n - 1, BAD)):
            got = step(i)
            if got != want:
                return None, [], steps, f"{builds[i]} was given as {want} but is {got}"
    while (i := next_step(n, status)) is not None:
        status[i] = step(i)
    first, cands = answer(n, status)
    return (builds[first] if first is not None else None), [builds[i] for i in cands], steps, None


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        print(f"kbisect: {message}", file=sys.stderr)
        sys.exit(2)


def board_step(board, only, out):
    """The step runner on the virtual board: fetch the build, build its
    initramfs, run the one check with --bisect; the output goes to the
    terminal and to OUT/STEP-RELEASE.log."""
    setup = Expectations(vboard.TOP / "fixtures" / "boards" / f"{board}.expect").settings.get("setup", "")
    needs_fixture = FIXTURE_KO in setup
    def run(step, rel):
        log = out / f"{step}-{rel}.log"
        env = dict(os.environ, VBOARD_KERNEL=rel)
        env.pop("VBOARD_OUT", None)
        t0 = time.monotonic()
        with open(log, "w") as f:
            def sh(cmd):
                p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     errors="replace")
                seen = []
                for line in p.stdout:
                    sys.stdout.write(line)
                    f.write(line)
                    seen.append(line)
                sh.output = "".join(seen[-200:])
                return p.wait()

            def tooling_failed(what, st):
                f.write(f"== kbisect step {step}: {rel}: our tooling failed ({what}, exit {st})\n")
                raise ToolingFailed(f"step {step} ({rel}): {cause(sh.output, f'{what} exited {st}')} "
                                    f"[{what}, exit {st}; log {log}]")
            head = f"== kbisect step {step}: {rel}, --only '{only}'\n"
            sys.stdout.write(head)
            f.write(head)
            extras = []
            # The module, the kernel's download and the initramfs are ours to
            # build: a failure there stops the bisection (never a skip).
            if needs_fixture:
                # The fixture tests' folder for that build (fixture_bugs.build_module):
                # a build they made is up to date, kbuild rebuilds nothing.
                ko = vboard.BUILD / "fixture-driver" / rel / "v4l2c_fixture.ko"
                st = sh([str(BUILD_MODULE), rel, str(ko.parent)])
                if st != 0:
                    tooling_failed("the fixture module's build (fixtures/drivers/build-for-kernel.sh)", st)
                extras = [f"{ko}:{FIXTURE_KO}"]
            st = sh([str(vboard.VBOARD), "build", *extras])
            if st != 0:
                tooling_failed("the board's build (fixtures/vboard/vboard build)", st)
            st = sh([sys.executable, str(Path(__file__).resolve().parent / "run_board.py"), "--board", board,
                     "--only", only, "--bisect", "--out", str(out / f"{step}-{rel}")])
            if st not in (0, 1, 125):
                tooling_failed("the board's run (harness/run_board.py)", st)
            verdict = STATUS.get(st, SKIP)
            tail = f"== kbisect step {step}: {rel} is {verdict} (exit {st}) in {time.monotonic() - t0:.1f} s\n"
            sys.stdout.write(tail)
            f.write(tail)
        times[rel] = time.monotonic() - t0
        return verdict
    times = {}
    run.times = times
    return run


def main(argv=None):
    ap = OneLineParser(description="the first Debian kernel build on which a check goes bad")
    ap.add_argument("--good", required=True, help="a build on which the check passes, e.g. 6.12.100+deb12-amd64")
    ap.add_argument("--bad", required=True, help="a newer build on which it fails")
    ap.add_argument("--only", required=True, help="the check (a glob) that tells good from bad")
    ap.add_argument("--board", default="vivid", help="fixtures/boards/BOARD.expect (default vivid)")
    ap.add_argument("--out", default=str(vboard.TOP / "reports" / "out" / "kbisect"))
    ap.add_argument("--verify", action="store_true", help="boot the good and bad builds first")
    a = ap.parse_args(argv)
    if not (vboard.TOP / "fixtures" / "boards" / f"{a.board}.expect").exists():
        ap.error(f"no board '{a.board}' (fixtures/boards/{a.board}.expect)")
    try:
        builds = kbuilds.between(kbuilds.available_builds(), a.good, a.bad)
    except kbuilds.UnknownBuild as e:
        ap.error(str(e))
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for old in list(out.glob("[0-9]*-*")) + [out / "summary.txt", out / "summary.json"]:
        shutil.rmtree(old) if old.is_dir() else old.unlink(missing_ok=True)  # the last bisection's steps
    print(f"== kbisect: {len(builds)} builds from {a.good} (good) to {a.bad} (bad), at most "
          f"{max(len(builds) - 2, 1).bit_length()} boots without skips: {' '.join(builds)}", flush=True)
    run = board_step(a.board, a.only, out)
    t0 = time.monotonic()
    try:
        first, cands, steps, problem = bisect(builds, run, a.verify)
    except ToolingFailed as e:
        line = f"our own tooling failed, not the kernel: {e}"
        (out / "summary.txt").write_text(f"kbisect --good {a.good} --bad {a.bad} --only '{a.only}' "
                                         f"--board {a.board}\nstopped: {line}\n")
        (out / "summary.json").write_text(json.dumps({
            "good": a.good, "bad": a.bad, "only": a.only, "board": a.board, "builds": builds,
            "first_bad": None, "candidates": [], "stopped": line}, indent=1) + "\n")
        print(f"kbisect: stopped: {line}", file=sys.stderr)
        return TOOLING_FAILED
    lines = [f"kbisect --good {a.good} --bad {a.bad} --only '{a.only}' --board {a.board}",
             f"builds: {' '.join(builds)}"]
    lines += [f"step {i}: {rel} {v} ({run.times.get(rel, 0):.1f} s, {i}-{rel}.log)" for i, (rel, v) in
              enumerate(steps, 1)]
    if problem:
        lines.append(f"no answer: {problem}")
    elif first:
        lines.append(f"first bad build: {first} (after {len(steps)} boots, {time.monotonic() - t0:.0f} s)")
    else:
        lines.append(f"first bad build is one of: {' '.join(cands)} (the others were skipped)")
    (out / "summary.txt").write_text("\n".join(lines) + "\n")
    (out / "summary.json").write_text(json.dumps({
        "good": a.good, "bad": a.bad, "only": a.only, "board": a.board, "builds": builds,
        "steps": [{"release": r, "verdict": v, "seconds": round(run.times.get(r, 0), 1)} for r, v in steps],
        "first_bad": first, "candidates": cands, "problem": problem}, indent=1) + "\n")
    print("\n".join("== kbisect: " + line for line in lines[2:]))
    print(f"== kbisect: {out}/summary.txt")
    return 0 if first and not problem else 1


if __name__ == "__main__":
    sys.exit(main())
