#!/usr/bin/env python3
"""make bench: the suite's speed figures, measured in one bench run, written
to bench/RESULTS.md as ratios (never asserted in tests).

  1. one boot of the virtual board: v4l2-compliance (its best of two runs)
     and the ioctl suites of v4l2-conform on the same vivid node, timed in
     the guest; then the probes alone, their frames per sweep point from
     results.json;
  2. `make run` warm (boot, suites, reports), wall;
  3. a bisect step (`make run ONLY=...`), wall;
  4. bench-stats: the image statistics against a memcpy of the frame;
  5. the media boards (vimc, vicodec, visl, uvc-media; bench_media.py): one
     boot each, v4l2-conform -m beside v4l2-compliance -m (--no-media: not).

The figures in the documentation (the README's example `make run` output,
docs/speed.md's table) are rewritten from the same run, between their
<!-- bench:NAME:begin/end --> markers, in whichever of the --docs files holds
each block (DOCS below); a block found in none of them is an error.

usage: bench_board.py [--out bench/RESULTS.md] [--stats-md FILE] [--docs FILE...] [--no-media]
"""
import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOP / "harness"))
sys.path.insert(0, str(TOP / "reports"))
import bench_media  # noqa: E402
import media_board  # noqa: E402
import vboard  # noqa: E402
from results import Expectations, skips_line, time_by_family, time_by_suite  # noqa: E402

IOCTL_SUITES = ("enum", "menu", "getset", "persist", "ext", "payload", "events", "cluster", "prio")
BISECT_CHECK = "getset/roundtrip/brightness"
# The goals of issue 24, each shown beside its figure (never asserted).
GOAL_IOCTL_RATIO = 1.0      # ioctl suites / v4l2-compliance, guest time
GOAL_FRAMES_PER_POINT = 3.0  # probes, settling included
GOAL_RUN_BOARD_S = 30.0     # make run warm, board time (boot + suites)
GOAL_BISECT_S = 5.0         # make run ONLY=one check, wall
GOAL_MAKE_TEST_S = 600.0    # make test on a clean clone (empty board cache), wall


def guest_job(args):
    only_ioctl = ",".join(f"{s}/*" for s in IOCTL_SUITES)
    return "\n".join([
        "set -u",
        "modprobe vivid n_devs=1 || exit 3",
        "i=0; while [ ! -e /dev/video0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done",
        "up() { cut -d' ' -f1 /proc/uptime; }",
        "for k in 1 2; do a=$(up); stdbuf -oL v4l2-compliance -d /dev/video0 > /share/compliance.txt 2>&1;"
        " b=$(up); echo \"compliance $a $b\" >> /share/times; done",
        f"a=$(up); v4l2-conform -d /dev/video0 {args} --only '{only_ioctl}' --out /share/ioctl > /share/ioctl.log 2>&1;"
        " b=$(up); echo \"ioctl $a $b\" >> /share/times",
        f"a=$(up); v4l2-conform -d /dev/video0 {args} --only 'probe/*' --out /share/probe > /share/probe.log 2>&1;"
        " b=$(up); echo \"probe $a $b\" >> /share/times",
        "exit 0",
    ]) + "\n"


def read_times(path):
    t = {}
    for line in path.read_text().split("\n"):
        if line.strip():
            k, a, b = line.split()
            t.setdefault(k, []).append(float(b) - float(a))
    return t


def wall(cmd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return time.monotonic() - t0, p


def frames_per_point(results):
    """Per sweep probe (a probe with measured points): (name, frames, frames
    per point, seconds, the node's latency and noise frames). The node's
    first probe measures its latency and noise once for the probes after it
    (lib/image/probe_node.h): those frames are counted apart."""
    out = []
    for r in results["results"]:
        m = {x["name"]: x["value"] for x in r.get("measurements", [])}
        if "frames per point" in m and not r["name"].startswith("probe/visible-effect"):
            out.append((r["name"], m["frames"], m["frames per point"], r.get("duration_s") or 0,
                        m.get("node latency and noise frames", 0)))
    return out


def node_frames(results):
    """Frames the run spent measuring the node's latency and noise (once per
    node and scene), over every probe."""
    return sum(next((x["value"] for x in r.get("measurements", []) if x["name"] == "node latency and noise frames"), 0)
               for r in results["results"])


def visible_effect_cost(results):
    runs = [r for r in results["results"] if r["name"].startswith("probe/visible-effect/")
            and any(x["name"] == "frames" for x in r.get("measurements", []))]
    if not runs:
        return None
    fr = [next(x["value"] for x in r["measurements"] if x["name"] == "frames") for r in runs]
    return len(runs), statistics.mean(fr), statistics.mean(r.get("duration_s") or 0 for r in runs)


def make_run_excerpt(stdout):
    """The lines of make run's output a newcomer should expect: the header,
    the first family lines, the summary and the board's closing lines."""
    lines = [l for l in stdout.splitlines() if not l.startswith("[")]
    head = next((i for i, l in enumerate(lines) if l.startswith("v4l2-conform ")), 0)
    fams = [l for l in lines[head + 1:] if re.match(r"^[a-z]+/\S+ +\d+ checks:", l)]
    tail = [l for l in lines if l.startswith(("summary:", "== vivid:", "== time", "== costliest"))]
    return [lines[head]] + fams[:3] + ["..."] + tail


def replace_block(text, name, body):
    begin, end = f"<!-- bench:{name}:begin -->", f"<!-- bench:{name}:end -->"
    a, b = text.index(begin) + len(begin), text.index(end)
    return text[:a] + "\n" + body.strip("\n") + "\n" + text[b:]


# The documents whose bench blocks make bench rewrites.
DOCS = [TOP / "README.md", TOP / "docs" / "speed.md", TOP / "docs" / "requests-and-codecs.md"]


def update_docs(paths, blocks):
    """Rewrite every block {name: body} in the file that holds its markers."""
    texts = {Path(p): Path(p).read_text() for p in paths}
    for name, body in blocks.items():
        holders = [p for p, t in texts.items() if f"<!-- bench:{name}:begin -->" in t]
        if not holders:
            raise SystemExit(f"bench: no file of {[str(p) for p in texts]} holds the bench block '{name}'")
        for p in holders:
            texts[p] = replace_block(texts[p], name, body)
    for p, t in texts.items():
        p.write_text(t)


def make_test_time(build=TOP / "build"):
    """(seconds, 'cold'|'warm', version) of the last make test that passed in
    this checkout (the Makefile writes build/make-test.time), or None. make
    bench does not run make test itself (10 minutes): run it first, on a
    clean clone, for the figure the goal is about."""
    try:
        secs, cache, version = (build / "make-test.time").read_text().split()[:3]
        return float(secs), cache, version
    except (OSError, ValueError):
        return None


def make_test_row(mt):
    if mt is None:
        return ("`make test` on a clean clone, wall", f"<= {GOAL_MAKE_TEST_S / 60:.0f} min",
                "not measured here (run `make test` before `make bench`)", "n/a")
    secs, cache, version = mt
    what = f"{secs:.0f} s ({secs / 60:.1f} min; {version}, board cache {cache} at the start)"
    ok = ("yes" if secs <= GOAL_MAKE_TEST_S else "**no**") if cache == "cold" else "n/a (warm cache)"
    return ("`make test` on a clean clone, wall", f"<= {GOAL_MAKE_TEST_S / 60:.0f} min", what, ok)


def goal_rows(ioctl_ratio, worst_fpp, run_board, run_wall, bisect_wall, mt=None):
    """(figure, goal, measured, met) for the goals table."""
    def met(v, goal):
        return "n/a" if v is None else ("yes" if v <= goal else "**no**")
    return [("ioctl suites / v4l2-compliance, guest time, same boot", f"<= {GOAL_IOCTL_RATIO:.1f}x",
             f"{ioctl_ratio:.2f}x", met(ioctl_ratio, GOAL_IOCTL_RATIO)),
            ("probes: most frames per sweep point (settling included; the node's latency and noise, "
             "measured once, apart)", f"<= {GOAL_FRAMES_PER_POINT:.0f}",
             f"{worst_fpp:.1f}", met(worst_fpp, GOAL_FRAMES_PER_POINT)),
            ("`make run` warm: board time (boot + suites)", f"<= {GOAL_RUN_BOARD_S:.0f} s",
             "?" if run_board is None else f"{run_board:.1f} s (wall {run_wall:.1f} s)",
             met(run_board, GOAL_RUN_BOARD_S)),
            (f"bisect step (`make run ONLY={BISECT_CHECK}`), wall", f"<= {GOAL_BISECT_S:.0f} s",
             f"{bisect_wall:.1f} s", met(bisect_wall, GOAL_BISECT_S)),
            make_test_row(mt)]


def board_seconds(suite_line):
    """'board 27.3 s' of make run's '== time:' line, or None."""
    m = re.search(r"board ([0-9.]+) s", suite_line)
    return float(m.group(1)) if m else None


def bench_blocks(excerpt, speed_rows, media_table=None):
    """The documents' blocks; media_table (bench_media.side_by_side_table's
    lines) only when the media boards ran."""
    table = ["| figure | measured |", "|---|---:|"] + [f"| {k} | {v} |" for k, v in speed_rows]
    blocks = {"make-run": "```\n" + "\n".join(excerpt) + "\n```", "speed": "\n".join(table)}
    if media_table:
        blocks["media-boards"] = "\n".join(media_table)
    return blocks


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(TOP / "bench" / "RESULTS.md"))
    ap.add_argument("--stats-md", help="bench-stats output (markdown table) to include")
    ap.add_argument("--docs", nargs="*", default=[str(d) for d in DOCS],
                    help="documents whose bench blocks to rewrite (none: --docs with no file)")
    ap.add_argument("--no-media", action="store_true", help="leave out the media boards (four boots)")
    a = ap.parse_args(argv)
    exp = Expectations(TOP / "fixtures" / "boards" / "vivid.expect")
    share = vboard.BUILD / "bench" / "board"
    print("bench: the ioctl suites and the probes beside v4l2-compliance, one boot", flush=True)
    run = vboard.run_job(guest_job(exp.settings.get("run-args", "")), share, timeout=900, echo=False)
    if run.hung or not (share / "times").exists():
        print(f"bench: the board run failed; see {share}/console.log", file=sys.stderr)
        return 1
    t = read_times(share / "times")
    # Debian 13's, whatever version trixie offers when the board is built.
    comp_ver = vboard.compliance_version(share / "compliance.txt") or "(version not printed)"
    comp, ioctl, probe = min(t["compliance"]), t["ioctl"][0], t["probe"][0]
    ioctl_res = json.loads((share / "ioctl" / "results.json").read_text())
    probe_res = json.loads((share / "probe" / "results.json").read_text())
    # Through make, as a user types it: the no-op build, the package check
    # and the up-to-date initramfs are part of the figure.
    print("bench: make run warm (board + reports), wall", flush=True)
    run_wall, p = wall(["make", "-s", "run"])
    full = json.loads((TOP / "reports" / "out" / "results.json").read_text())
    suite_line = next((l for l in p.stdout.splitlines() if l.startswith("== time:")), "")
    print(f"bench: a bisect step ({BISECT_CHECK}), wall", flush=True)
    bisect_wall, _ = wall(["make", "-s", "run", f"ONLY={BISECT_CHECK}"])
    fpp = frames_per_point(probe_res)
    vis = visible_effect_cost(probe_res)
    worst = max((x[2] for x in fpp), default=0)
    run_board = board_seconds(suite_line)
    mt = make_test_time()
    goals = goal_rows(ioctl / comp, worst, run_board, run_wall, bisect_wall, mt)
    md = ["# Benchmarks", "",
          f"Written by `make bench` on {time.strftime('%Y-%m-%d')} (bench/bench_board.py, bench/bench_stats.c): every",
          "figure below comes from this one bench run on this machine (2 cores, shared; the virtual board",
          "is QEMU TCG with one vCPU), so compare the ratios, not the seconds, with other machines.", "",
          "## Goals (issue 24; shown, never asserted)", "",
          "| figure | goal | measured | met |", "|---|---:|---:|:---:|"]
    md += [f"| {f} | {g} | {m} | {ok} |" for f, g, m, ok in goals]
    md += ["", "Where the boot time went and what was cut: docs/speed.md.", "",
          "## The suite against v4l2-compliance (same boot, same vivid node, guest time)", "",
          "| what | guest time | ratio |", "|---|---:|---:|",
          f"| v4l2-compliance {comp_ver}, all its tests (best of two) | {comp:.2f} s | 1.00 |",
          f"| v4l2-conform ioctl suites ({', '.join(IOCTL_SUITES)}): "
          f"{ioctl_res['summary']['total']} verdicts | {ioctl:.2f} s | **{ioctl / comp:.2f}x** |",
          f"| v4l2-conform probes: {probe_res['summary']['total']} verdicts | {probe:.2f} s | {probe / comp:.2f}x |",
          "", "## Probes: frames per sweep point (settling included)", "",
          "The node's latency and noise are measured once, by its first probe (and once more for a probe",
          "with a scene of its own), and reused by the probes after it: those frames are a column of their",
          "own, left out of the frames per point.", "",
          "| probe | frames | of them the node's latency and noise | frames per point | time |",
          "|---|---:|---:|---:|---:|"]
    for name, fr, per, dur, nf in fpp:
        md.append(f"| {name} | {fr:.0f} | {nf:.0f} | {per:.1f} | {dur:.1f} s |")
    if fpp:
        md.append(f"| **most per point** | | | **{max(x[2] for x in fpp):.1f}** | |")
    md += ["", f"The node's latency and noise, over the whole probe run: {node_frames(probe_res):.0f} frames."]
    if vis:
        md += ["", f"probe/visible-effect: {vis[0]} controls measured, {vis[1]:.0f} frames and {vis[2]:.1f} s each "
               f"(3 points: the original value, the other, back; {vis[1] / 3:.1f} frames per point)."]
    md += ["", "## make run and a bisect step (host wall time, warm: kernel and initramfs built)", "",
           "| what | wall |", "|---|---:|",
           f"| `make run` (boot, every suite on vivid, reports): {full['summary']['total']} verdicts | {run_wall:.1f} s |",
           # Skips next to the checks (issue 21): fewer checks judged is a change too.
           f"| skips in that run (by reason): {skips_line(full)} | |",
           f"| bisect step (`make run ONLY={BISECT_CHECK}`) | {bisect_wall:.1f} s |",
           "", f"`make run` said: `{suite_line}`", "",
           "## Where the time went (the `make run` above, by suite and the costliest families)", "",
           "| suite | time |", "|---|---:|"]
    for s, v in time_by_suite(full).items():
        md.append(f"| {s} | {v:.1f} s |")
    md += ["", "| family | checks | time |", "|---|---:|---:|"]
    for f, n, v in time_by_family(full)[:12]:
        md.append(f"| {f} | {n} | {v:.1f} s |")
    media_table = None
    if not a.no_media:
        media_table = bench_media.side_by_side_table(
            bench_media.run_media_boards(vboard.BUILD / "bench" / "media", media_board.boot))
        md += ["", "## Media boards: v4l2-conform -m beside v4l2-compliance -m (same boot, guest time)", "",
               "Each board booted once (`make run BOARD=NAME`): the suite on every node of the graph, then",
               f"v4l2-compliance {comp_ver} -m on the same graph. Each tool's failures as it counts them: ours include",
               "a board's expected deviations (its .expect), v4l2-compliance's its own.", ""] + media_table
    if a.stats_md and Path(a.stats_md).exists():
        md += ["", "## Image statistics against a memcpy of the frame (bench-stats, host)", "",
               "ratio = time of the operation / time of a memcpy of the same YUYV frame; the per-frame",
               "statistics a probe computes are `stats_frame, centre patch`.", "",
               Path(a.stats_md).read_text().strip()]
    md += ["", "Reproduce: `make bench`."]
    Path(a.out).write_text("\n".join(md) + "\n")
    if a.docs:
        rows = [("ioctl suites / v4l2-compliance, guest time, same boot",
                 f"**{ioctl / comp:.2f}x** ({ioctl:.1f} s / {comp:.1f} s)"),
                ("probes: most frames per sweep point (settling included)", f"**{worst:.1f}**"),
                ("probes: the node's latency and noise, measured once per node and scene",
                 f"{node_frames(probe_res):.0f} frames"),
                ("`make run` warm, wall (boot, every suite, reports)", f"**{run_wall:.0f} s**"),
                (f"bisect step (`make run ONLY={BISECT_CHECK}`), wall", f"**{bisect_wall:.1f} s**")]
        if mt is not None:
            rows.append(("`make test` (this checkout's last, board cache " + mt[1] + " at the start), wall",
                         f"**{mt[0] / 60:.1f} min**"))
        if vis:
            rows.append(("probe/visible-effect per control measured", f"{vis[2]:.1f} s, {vis[1]:.0f} frames"))
        update_docs(a.docs, bench_blocks(make_run_excerpt(p.stdout), rows, media_table))
    print(f"bench: ioctl suites {ioctl / comp:.2f}x v4l2-compliance {comp_ver} (goal {GOAL_IOCTL_RATIO:.1f}x); make run "
          f"{run_wall:.1f} s, board {run_board if run_board is not None else '?'} s (goal {GOAL_RUN_BOARD_S:.0f} s); "
          f"bisect step {bisect_wall:.1f} s (goal {GOAL_BISECT_S:.0f} s); most frames per sweep point {worst:.1f} "
          f"(goal {GOAL_FRAMES_PER_POINT:.0f}; the node's latency and noise {node_frames(probe_res):.0f} frames once); "
          f"written to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
