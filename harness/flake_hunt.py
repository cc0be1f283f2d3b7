#!/usr/bin/env python3
"""The flake hunt (issue 40): the fixture catalogue and the bug=none boards,
run ROUNDS times while the host is loaded, and every verdict that ever
differed between rounds.

A verdict that depends on how busy the host is, is a defect: every bug must
be detected in every round and every bug=none board (none, m2m-none,
none-subdev) clean in every round. The load is LOAD other virtual boards
booting in a loop beside the runs (each boot a few seconds of TCG at full
tilt, then power-off), bounded in count and time, and always killed at the
end. Each round is the make test shape (fixture_bugs.run_batches: each bug's
own check families, the baselines every check).

  harness/flake_hunt.py [--rounds 5] [--load 2] [--bugs NAME,...] [--full]
                        [--out reports/out/flake-hunt]
  harness/flake_hunt.py --load-only SECONDS [--load 2]   the load alone, beside
                        another run (a clean clone's make test)

Writes OUT.md (a bug or board that ever differed, its rate; each check whose
verdict differed and how often it was each) and OUT.json. Exit 0 when every
bug was detected and every baseline clean in every round, 1 otherwise, 128
when a board hung or left no results. `make flake-hunt` (test-full's
companion; not in make test: it adds no coverage, only repetition).
"""
import argparse
import collections
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reports"))
import fixture_bugs as fb  # noqa: E402
import vboard  # noqa: E402
from board_batches import read_costs  # noqa: E402

BASELINES = [fb.BASELINE, *fb.PERSONALITIES, fb.BASELINE_SUBDEV]
# One load boot: the board's own kernel and initramfs running a job that
# spins for a while (the boot itself is the heavy part under TCG).
LOAD_JOB = "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; exit 0\n"
LOAD_BOOT_TIMEOUT_S = 120


class Load:
    """`n` loops of board boots beside the hunt, each loop at most
    `max_boots` boots and `max_s` seconds; stop() ends them and kills a
    boot in progress (its whole process group)."""

    def __init__(self, n, root, max_boots=200, max_s=4 * 3600):
        self.n, self.root, self.max_boots, self.max_s = n, Path(root), max_boots, max_s
        self.stopping = threading.Event()
        self.procs = {}
        self.boots = 0
        self.threads = [threading.Thread(target=self._loop, args=(i,), daemon=True) for i in range(n)]

    def _loop(self, i):
        share = self.root / f"load{i}"
        t0 = time.monotonic()
        for _ in range(self.max_boots):
            if self.stopping.is_set() or time.monotonic() - t0 > self.max_s:
                return
            share.mkdir(parents=True, exist_ok=True)
            (share / "job.sh").write_text(LOAD_JOB)
            p = subprocess.Popen([str(vboard.VBOARD), "run", str(share), str(LOAD_BOOT_TIMEOUT_S)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                                 env=dict(os.environ, VBOARD_QUIET="1"))
            self.procs[i] = p
            p.wait()
            self.boots += 1

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        for p in list(self.procs.values()):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for p in list(self.procs.values()):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        for t in self.threads:
            t.join(timeout=30)


def judge_round(bugs, dirs, catalogue):
    """{name: outcome} for one round: a bug 'detected' or 'missed', a
    baseline 'clean' or 'dirty' ('broken' when the run is unusable); and
    {name: {check: verdict}} of every run, for the checks that differ."""
    rows = {r["bug"]: r for r in catalogue}
    runs = {b: fb.BugRun(b, d) for b, d in dirs.items()}
    out, verdicts = {}, {}
    for b in bugs:
        run = runs[b]
        if run.problems():
            out[b] = "broken"
            continue
        v = run.verdicts()
        verdicts[b] = {n: r["verdict"] for n, r in v.items()}
        if b in BASELINES:
            failed = fb.names_with(v, "fail")
            if b == fb.BASELINE_SUBDEV:
                from results import Expectations
                exp = Expectations(fb.SUBDEV_BOARD)
                failed = {n for n in failed if not exp.expected(n, "fail")}
            out[b] = "dirty" if failed else "clean"
            continue
        base = runs[fb.baseline_of(b, catalogue)]
        if base.problems():
            out[b] = "broken"
            continue
        bv = base.verdicts()
        failed = fb.names_with(v, "fail") - fb.names_with(bv, "fail")
        patterns = fb.expected(rows[b], base.series)
        hits = fb.new_warnings(run, base, patterns) if rows[b]["status"] == "warn" else failed
        stray, idle = fb.match(hits, patterns)
        if rows[b]["status"] == "uncaught":
            out[b] = "missed" if not hits else "detected"
        else:
            out[b] = "detected" if hits and not stray and not idle else "missed"
    return out, verdicts


def differing(rounds_verdicts):
    """{(run, check): Counter of verdicts} for the checks whose verdict was
    not the same in every round (a check missing from a round counts as
    'absent')."""
    out = {}
    names = {b for rv in rounds_verdicts for b in rv}
    for b in sorted(names):
        checks = set()
        for rv in rounds_verdicts:
            checks |= set(rv.get(b, {}))
        for c in sorted(checks):
            seen = collections.Counter(rv.get(b, {}).get(c, "absent") for rv in rounds_verdicts)
            if len(seen) > 1:
                out[(b, c)] = seen
    return out


def load_only(n, seconds):
    """n boards booting in a loop for `seconds`, and nothing else."""
    if n < 1 or seconds <= 0:
        print("flake_hunt: --load-only needs --load >= 1 and SECONDS > 0", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    vboard.ensure_built()
    t0 = time.monotonic()
    with Load(n, vboard.BUILD / "vboard" / "load-only", max_s=seconds) as load:
        try:
            time.sleep(seconds)
        except KeyboardInterrupt:
            pass
    print(f"flake_hunt: load only: {load.boots} boots of {n} boards in {time.monotonic() - t0:.0f} s")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--load", type=int, default=2, help="other boards booting in a loop beside the runs")
    ap.add_argument("--bugs", default="", help="comma-separated bugs (default: the whole catalogue)")
    ap.add_argument("--boots", type=int, default=4, help="boards per round, side by side")
    ap.add_argument("--full", action="store_true", help="every check on every bug (test-full's sweep)")
    ap.add_argument("--out", default=str(vboard.TOP / "reports" / "out" / "flake-hunt"))
    ap.add_argument("--load-only", type=float, metavar="SECONDS",
                    help="only the load: LOAD boards booting in a loop for SECONDS, beside another run "
                         "(a clean clone's make test: issue 40's 'CI stays green under load')")
    a = ap.parse_args(argv)
    if a.load_only is not None:
        return load_only(a.load, a.load_only)
    catalogue = fb.read_catalogue()
    known = {r["bug"] for r in catalogue}
    picked = [b for b in a.bugs.split(",") if b] or [r["bug"] for r in catalogue]
    unknown = [b for b in picked if b not in known and b not in BASELINES]
    if unknown or a.rounds < 1 or a.load < 0:
        print(f"flake_hunt: {'no such bug: ' + ','.join(unknown) if unknown else 'bad --rounds/--load'}",
              file=sys.stderr)
        return 2
    # The bugs this board's module has (fixture_bugs.why_not): the whole
    # catalogue leaves the others out; naming one is bad input.
    vboard.ensure_built()
    series = fb.kernel_series(vboard.build_board())
    absent = [b for b in picked if b in known and not fb.bug_applies(b, series)]
    if a.bugs and absent:
        print(f"flake_hunt: {fb.why_not(absent[0], series)}", file=sys.stderr)
        return 2
    picked = [b for b in picked if b not in absent]
    subdev = fb.subdev_bugs(catalogue)
    need = [fb.BASELINE] + [p for p in fb.PERSONALITIES if any(b.startswith(fb.PERSONALITIES[p][1]) for b in picked)]
    if any(b in subdev for b in picked) or not a.bugs:
        need.append(fb.BASELINE_SUBDEV)
    if not a.bugs:
        need = BASELINES[:]
    bugs = list(dict.fromkeys(need + picked))
    # A hunt that is killed still kills its load boards (Load.__exit__).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    fb.build_module()
    root = vboard.BUILD / "vboard" / "flake-hunt"
    only = None if a.full else fb.only_args(bugs, catalogue)
    outcomes, rounds_verdicts, times = [], [], []
    hung = False
    with Load(a.load, root) as load:
        for k in range(a.rounds):
            t0 = time.monotonic()
            dirs, boots = fb.run_batches(bugs, root / f"round{k}", n=a.boots, only=only, compliance=False,
                                         subdev=subdev, costs=None if a.full else read_costs("fixture"))
            hung |= any(b.hung for b in boots)
            o, v = judge_round(bugs, dirs, catalogue)
            outcomes.append(o)
            rounds_verdicts.append(v)
            times.append(time.monotonic() - t0)
            bad = sorted(b for b, x in o.items() if x not in ("detected", "clean"))
            print(f"flake_hunt: round {k + 1}/{a.rounds}: {time.monotonic() - t0:.0f} s, "
                  f"{len(o) - len(bad)}/{len(o)} as expected{': ' + ', '.join(bad) if bad else ''}", flush=True)
        load_boots = load.boots
    n = a.rounds
    want = {b: ("clean" if b in BASELINES else "detected") for b in bugs}
    rate = {b: sum(o.get(b) == want[b] for o in outcomes) for b in bugs}
    diff = differing(rounds_verdicts)
    md = ["# Flake hunt", "",
          f"{n} rounds of {len(bugs)} runs ({'every check' if a.full else 'each bug its own check families'}), "
          f"{a.load} other boards booting beside them ({load_boots} boots); rounds took "
          f"{', '.join(f'{t:.0f}' for t in times)} s.", "",
          "| bug or board | expected | as expected | outcomes |", "|---|---|---|---|"]
    for b in bugs:
        if rate[b] != n:
            seen = collections.Counter(o.get(b, "absent") for o in outcomes)
            md.append(f"| {b} | {want[b]} | {rate[b]}/{n} | {', '.join(f'{x} {c}' for x, c in seen.items())} |")
    if all(rate[b] == n for b in bugs):
        md.append(f"| (every one) | | {n}/{n} | |")
    md += ["", "Checks whose verdict differed between rounds:", "", "| run | check | verdicts |", "|---|---|---|"]
    md += [f"| {b} | {c} | {', '.join(f'{v} {k}/{n}' for v, k in seen.items())} |" for (b, c), seen in diff.items()]
    if not diff:
        md.append("| — | none | |")
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".md").write_text("\n".join(md) + "\n")
    out.with_suffix(".json").write_text(json.dumps({
        "rounds": n, "load": a.load, "load_boots": load_boots, "round_s": times, "full": a.full,
        "as_expected": rate, "outcomes": outcomes,
        "differing": [{"run": b, "check": c, "verdicts": dict(s)} for (b, c), s in diff.items()]}, indent=1))
    print("\n".join(md))
    if hung or any(o.get(b) == "broken" for o in outcomes for b in bugs):
        return 128
    return 0 if all(rate[b] == n for b in bugs) else 1


if __name__ == "__main__":
    sys.exit(main())
