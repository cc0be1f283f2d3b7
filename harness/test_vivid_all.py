"""Every node vivid creates (make run BOARD=vivid-all), in one boot: video,
VBI, radio, SDR, metadata and touch nodes, each with its own controls, on
6.1 and on the newest Debian build (6.12 too in make test-full). Zero
unexpected failures on each node, each node really tested, the frame probes
only where QUERYCAP says pictures can be captured.

make test runs every suite but the frame probes (video0's probes are
test_vivid_e2e's; about 70 s); make test-full (V4L2C_TEST_FULL=1) runs
everything (about 130 s)."""
import json
import os

import pytest

import run_board
import vboard
from conftest import parse_v4l2ctl
from results import load_results

FULL = os.environ.get("V4L2C_TEST_FULL") == "1"
QUICK_ONLY = "cluster/*,conc/*,effect/*,enum/*,events/*,excluded*,ext/*,getset/*,lifecycle/*,menu/*," \
             "payload/*,persist/*,prio/*,run/*,values/*"
# QUERYCAP device_caps bits (videodev2.h)
CAP = {"video-capture": 0x1, "video-output": 0x2, "video-capture-mplane": 0x1000, "video-output-mplane": 0x2000,
       "vbi-capture": 0x10, "vbi-output": 0x20,
       "tuner": 0x10000, "modulator": 0x80000, "radio": 0x40000, "sdr-capture": 0x100000,
       "meta-capture": 0x800000, "meta-output": 0x8000000, "touch": 0x10000000}
# Fewest checks a node must have had: each has vivid's ~20 shared test
# controls (vivid-ctrls.c, hdl_user_gen) times the per-control families.
MIN_CHECKS = 300


# make test: the board's 6.1 and the newest build Debian has (issue 33);
# make test-full adds the newest 6.12 (it adds no kind here).
KERNELS = vboard.board_kernels(FULL)


@pytest.fixture(scope="module", params=[k for _, k in KERNELS], ids=[i for i, _ in KERNELS])
def board(request, built, tmp_path_factory):
    out = tmp_path_factory.mktemp("vivid-all")
    args = ["--board", "vivid-all", "--out", str(out)] + ([] if FULL else ["--only", QUICK_ONLY])
    with vboard.on_kernel(request.param):
        rc = run_board.main(args)
    summary = json.loads((out / "summary.json").read_text())
    return rc, out, summary


def caps(summary, node):
    return int(summary["nodes"][node]["device_caps"], 16)


def test_no_unexpected_failure_on_any_node(board):
    rc, out, summary = board
    assert not summary["kernel_complaints"], summary["kernel_complaints"]
    bad = {n: v for n, v in summary["nodes"].items() if v.get("results") is False or v["regressions"]}
    assert not bad and summary["regressions"] == 0, bad
    assert rc == 0


def test_every_node_kind_was_tested(board):
    """One node of every kind vivid makes, found from its capabilities, each
    with results from the suite and enough checks to have really run."""
    rc, out, summary = board
    nodes = summary["nodes"]
    assert len(nodes) >= 12, sorted(nodes)
    for node, v in nodes.items():
        assert v.get("results") is not False, f"{node}: no results (exit {v['exit']})"
        assert v["exit"] in (0, 1), (node, v)
        assert v["summary"]["total"] >= MIN_CHECKS, (node, v["summary"])
        assert v["summary"]["pass"] >= MIN_CHECKS * 0.9, (node, v["summary"])
        data = load_results(out / node / "results.json")
        assert data["run"]["device"] == f"/dev/{node}" and data["run"]["driver"] == "vivid"
    for kind, bit in CAP.items():
        assert any(caps(summary, n) & bit for n in nodes), f"no {kind} node among {sorted(nodes)}"


def test_probes_only_where_pictures_can_be_captured(board):
    """The frame-capture checks are registered as 'skip' on every node that
    cannot capture pictures (output, VBI, radio, SDR, metadata, touch)."""
    rc, out, summary = board
    for node in summary["nodes"]:
        c = caps(summary, node)
        pictures = c & (CAP["video-capture"] | CAP["video-capture-mplane"]) and not c & CAP["touch"]
        stream = [r for r in load_results(out / node / "results.json")["results"]
                  if r["name"].startswith(("probe/", "lifecycle/streaming-set", "lifecycle/picture"))]
        if not pictures:
            assert stream and all(r["verdict"] == "skip" for r in stream), (node, [r["name"] for r in stream
                                                                                   if r["verdict"] != "skip"])
        elif FULL:
            assert sum(r["verdict"] == "pass" for r in stream) > 10, node


def test_every_node_left_as_found(board):
    rc, out, summary = board
    for node in summary["nodes"]:
        before = parse_v4l2ctl((out / node / "ctrls-before.txt").read_text())
        after = parse_v4l2ctl((out / node / "ctrls-after.txt").read_text())
        assert before and before.keys() == after.keys(), node
        for cid, c in before.items():
            if "volatile" in c["flags"] or "read-only" in c["flags"]:
                continue
            assert after[cid]["value"] == c["value"], f"{node}: {c['name']}: {c['value']} -> {after[cid]['value']}"
