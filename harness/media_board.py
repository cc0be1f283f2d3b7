"""A media board in make test (vimc, vicodec, visl): one boot of
`run_board.py --board NAME` for one kernel, the suite run with
`v4l2-conform -m /dev/media0` and v4l2-compliance -m beside it on the same
boot; what the tests of those boards read from what the boot left (the
combined summary.json, each node's results.json)."""
import json
import subprocess
import sys
from pathlib import Path

import vboard

# device_caps bits (videodev2.h): a memory-to-memory node, either API.
V4L2_CAP_VIDEO_M2M_MPLANE = 0x00004000
V4L2_CAP_VIDEO_M2M = 0x00008000


class MediaBoot:
    """What one media board boot left: run_board's process, its out
    directory and summary.json."""

    def __init__(self, proc, out: Path):
        self.proc = proc
        self.out = out
        p = out / "summary.json"
        self.summary = json.loads(p.read_text()) if p.exists() else {}

    def results(self, node):
        """The verdicts of one node's run ('graph' for the graph's own checks)."""
        return json.loads((self.out / node / "results.json").read_text())["results"]

    def run_info(self, node):
        return json.loads((self.out / node / "results.json").read_text())["run"]

    def by_name(self, node):
        return {r["name"]: r for r in self.results(node)}

    def is_m2m(self, node):
        """The node's own QUERYCAP device caps say memory-to-memory."""
        caps = int(self.run_info(node).get("device_caps") or "0", 16)
        return bool(caps & (V4L2_CAP_VIDEO_M2M | V4L2_CAP_VIDEO_M2M_MPLANE))

    def tail(self):
        return self.proc.stdout[-3000:] + self.proc.stderr[-1000:]


def boot(board, kernel, out: Path, only=None) -> MediaBoot:
    """Boot `board` on `kernel` ("" for the default 6.1 build) once; its
    reports in `out`; `only`: run_board's --only (every check when None).
    The kernel's initramfs is built first (cached)."""
    env = vboard.board_env(kernel)
    vboard.build_board(kernel)
    p = subprocess.run([sys.executable, str(vboard.TOP / "harness" / "run_board.py"), "--board", board,
                        "--out", str(out), *(["--only", only] if only else [])], env=env, capture_output=True,
                       text=True)
    return MediaBoot(p, out)


def assert_no_unexpected_failure(b: MediaBoot):
    """run_board's exit 0 (no unexpected failure, no kernel complaint) and
    a combined summary that agrees."""
    assert b.proc.returncode == 0, b.tail()
    assert b.summary["regressions"] == 0 and not b.summary["kernel_complaints"], b.summary


def assert_graph_agrees(b: MediaBoot, interfaces):
    """MC-1 and MC-2 passed for each of the graph's `interfaces` nodes."""
    r = b.results("graph")
    assert len(r) == 2 * interfaces and all(x["verdict"] == "pass" for x in r), r


def assert_side_by_side(b: MediaBoot, min_tests):
    """v4l2-compliance -m ran on the same boot and its figures are in the
    summary beside ours."""
    s = b.summary.get("side_by_side")
    assert s, b.summary
    assert s["v4l2_compliance"]["tests"] >= min_tests and s["v4l2_compliance"]["seconds"] > 0, s
    assert s["v4l2_conform"]["checks"] == b.summary["total"]["total"], s


def assert_m2m_contexts(b: MediaBoot, node):
    """A memory-to-memory node is one: its device caps say so, and the suite
    took each handle for its own context (PE-2): events/ch-value checked, on
    every type of control, that contexts do not hear of each other's
    changes, and the event checks that watch a change arrive ran on the
    context's own handle (ALLOW_FEEDBACK) instead of skipping; none skips
    for being on an M2M node, and none fails."""
    assert b.is_m2m(node), b.run_info(node)
    by = b.by_name(node)
    for name in ("events/poll", "events/per-handle", "events/merge", "events/sequence", "events/resubscribe",
                 "conc/different-controls"):
        r = by[name]
        assert r["verdict"] != "fail", (name, r)
        assert not (r["verdict"] == "skip" and r["message"].startswith("M2M node")), (name, r)
    ch = {n: r for n, r in by.items() if n.startswith("events/ch-value/")}
    assert any(r["verdict"] == "pass" for r in ch.values()), ch
    assert not any(r["verdict"] == "fail" or (r["verdict"] == "skip" and "M2M" in (r["message"] or ""))
                   for r in ch.values()), ch


def assert_request_checks_ran(b: MediaBoot, node, expected_failures=()):
    """A node with requests (a stateless decoder) got the request checks:
    a bad request_fd, values deferred into a request, a queued request;
    not the check of a node without requests. `expected_failures`: those
    of them the board's expectations list as failing on this kernel (they
    ran: a failure is a verdict)."""
    by = b.by_name(node)
    assert by["request/no-support"]["verdict"] == "skip", by["request/no-support"]
    for name in ("request/bad-fd", "request/deferred", "request/queued"):
        ok = ("pass", "warn", "fail") if name in expected_failures else ("pass", "warn")
        assert by[name]["verdict"] in ok, by[name]
