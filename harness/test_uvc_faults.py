"""Firmware faults of the emulated UVC camera (issue 12): each fault in
fixtures/cameras/uvc/faults.tsv, injected with --fault NAME, is driven by the
stock uvcvideo on the virtual board. A 'caught' fault must make v4l2-conform
fail a check its catalogue row names (new relative to the well-behaved
camera); 'uncaught' ones are strict xfails (uvcvideo hides them, or no check
looks there: the catalogue says which). The well-behaved camera must give
exactly the board's known uvcvideo deviations (fixtures/boards/uvc.expect),
and an unplug in the middle of a run must end in verdicts, not a hang.
In make test each fault runs only the check families its catalogue's
required (not '?') patterns name (the fixture self-test runs the optional
ones' too; 'detach' names '*', so it runs every
check and unplugs in the middle of them) and the well-behaved camera runs
every check. V4L2C_TEST_FULL=1 (make test-full) or V4L2C_UVC_FAULTS=1 (make
uvc-faults) runs every check on every fault with v4l2-compliance beside it
and writes the side-by-side table (v4l2-conform vs v4l2-compliance) to
reports/out/uvc-fault-detection.{md,json}.
"""
import fnmatch
import json
import os
import sys

import pytest

import board_batches as bb
import fixture_bugs as fb
import uvc_faults as uf
import vboard

sys.path.insert(0, str(vboard.TOP / "reports"))
from results import Expectations, compare  # noqa: E402

CATALOGUE = uf.read_catalogue()
FULL = os.environ.get("V4L2C_TEST_FULL") == "1" or os.environ.get("V4L2C_UVC_FAULTS") == "1"


def _param(row):
    return fb.catalogue_param(row, "not noticed through uvcvideo (faults.tsv)")


def test_catalogue_format():
    header = uf.CATALOGUE.read_text().splitlines()[0].split("\t")
    assert header == fb.COLUMNS
    assert len(CATALOGUE) >= 15
    names = [r["bug"] for r in CATALOGUE]
    assert len(names) == len(set(names))
    for r in CATALOGUE:
        assert r["kind"] in fb.KINDS and r["status"] in fb.STATUSES, r["bug"]
        assert r["patterns"] and r["description"].strip(), r["bug"]


def test_catalogue_rules_exist(spec_rules):
    for r in CATALOGUE:
        unknown = [x for x in r["rules"] if x not in spec_rules]
        assert not unknown, f"{r['bug']}: unknown rule(s) {unknown}"


def test_catalogue_matches_the_camera():
    assert set(uf.camera_fault_names()) == {r["bug"] for r in CATALOGUE}


@pytest.fixture(scope="module")
def runs(built):
    """The well-behaved camera (every check) and every fault (its families
    only, unless FULL), in two parallel boots. V4L2C_UVC_REUSE=1 re-judges
    the last boots' results without booting."""
    root = vboard.BUILD / "vboard" / "pytest-uvc-faults"
    faults = [fb.BASELINE] + [r["bug"] for r in CATALOGUE] + list(uf.CAMERA_RUNS)
    if os.environ.get("V4L2C_UVC_REUSE") == "1":
        dirs = fb.last_dirs(root, faults)
    else:
        # Quick: the families that must fail only (slow-answer's optional
        # ones cost 5.5 s a zoom access: 171 s of the 255 s this took).
        only = None if FULL else fb.only_args(faults, CATALOGUE, optional=False)
        dirs, boots = uf.run_batches(faults, root, n=2, only=only, compliance=FULL,
                                     costs=None if FULL else bb.read_costs("uvc"))
        for b in boots:
            assert not b.hung, f"a board hung: {b.share}/console.log"
    runs = {f: fb.BugRun(f, d) for f, d in dirs.items()}
    if FULL and runs[fb.BASELINE].ran:
        _, summary = uf.write_detection(CATALOGUE, runs, vboard.TOP / "reports" / "out")
        print(f"\nuvc fault detection: {summary}")
    return runs


def _regressions(run):
    """The failures of a run of the well-behaved camera that uvc.expect
    does not list."""
    exp = Expectations(vboard.TOP / "fixtures" / "boards" / "uvc.expect")
    return [r["name"] for r in compare({"results": list(run.verdicts().values())}, exp)["regressions"]]


def test_well_behaved_camera(runs):
    """Only the known uvcvideo deviations, in every boot."""
    for d in runs[fb.BASELINE].path.parent.parent.parent.glob("batch*/res/none"):
        base = fb.BugRun(fb.BASELINE, d)
        assert base.ran, f"{d}: no results"
        regressions = _regressions(base)
        assert not regressions, f"{d}: " + ", ".join(regressions)


@pytest.mark.parametrize("row", [_param(r) for r in CATALOGUE])
def test_fault_noticed(runs, row):
    run, base = runs[row["bug"]], runs[fb.BASELINE]
    assert run.ran and base.ran, f"{row['bug']}: no results ({run.path})"
    failed = fb.names_with(run.verdicts(), "fail") - fb.names_with(base.verdicts(), "fail")
    hits = [n for n in failed if any(fnmatch.fnmatchcase(n, p.lstrip("?")) for p in row["patterns"])]
    assert hits, f"fault={row['bug']}: none of {row['patterns']} failed; new failures: {sorted(failed)[:10]}"


def test_iso_streaming(runs):
    """The well-behaved camera over isochronous alternate settings: the
    checks that stream give only the board's known deviations."""
    run = runs["iso"]
    assert run.ran, f"no results over iso ({run.path})"
    regressions = _regressions(run)
    assert not regressions, ", ".join(regressions)
    assert any(n.startswith("probe/") and r["verdict"] == "pass" for n, r in run.verdicts().items())


def test_slow_focus_motor(runs):
    """A camera whose asynchronous focus completes 400 ms after SET_CUR
    (UVC bounds no motor's travel): the late completions of earlier writes
    reach later checks' handles, and the event and cluster checks still
    give only the board's known deviations."""
    run = runs["slow-focus"]
    assert run.ran, f"no results with the slow focus motor ({run.path})"
    regressions = _regressions(run)
    assert not regressions, ", ".join(regressions)
    assert any(n.startswith("events/subscribe/") and r["verdict"] == "pass" for n, r in run.verdicts().items())


def test_media_graph(runs):
    """-m /dev/media0 on uvcvideo (issue 26 item 7: the uvc-media board, in
    this boot): the graph's checks pass, every interface node has its own
    results dir named by its entity, and each node gives only what
    uvc-media.expect (uvc.expect's deviations for the camera's video node)
    allows."""
    conform = runs["media"].path / "conform"
    status = vboard.nodes_status(conform)
    assert "graph" in status and len(status) >= 3, f"{conform}: {status}"
    exp = Expectations(vboard.TOP / "fixtures" / "boards" / "uvc-media.expect")
    for node, (st, _) in status.items():
        data = json.loads((conform / node / "results.json").read_text())
        assert st in (0, 1), f"{node}: exit {st}"
        named = {"results": [dict(r, name=f"{node}/{r['name']}") for r in data["results"]]}
        c = compare(named, exp)
        assert not c["regressions"], f"{node}: " + ", ".join(r["name"] for r in c["regressions"])
        if node == "graph":
            assert data["results"] and all(r["verdict"] == "pass" for r in data["results"]), data["results"]
    video = "v4l2-conform-uvc-camera-v4l2-c"
    assert video in status, sorted(status)
    names = {r["name"] for r in json.loads((conform / video / "results.json").read_text())["results"]}
    assert "ext/count-zero" in names, "the video node's ext family did not run"


def test_unplug_mid_run_ends_with_verdicts(runs):
    """The camera unplugs itself during the run: v4l2-conform must finish
    (no timeout kill) with results and a failing exit status."""
    run = runs["detach"]
    exit_status = (run.path / "conform.exit").read_text().strip()
    assert exit_status not in ("124", "137"), f"v4l2-conform was killed after the unplug (exit {exit_status})"
    assert run.ran, "no results.json after the unplug"
    assert exit_status == "1"


@pytest.mark.parametrize("args,text,why", [
    (["--check"], "control brightness min=5 max=1\n", "brightness: min 5 > max 1"),
    (["--check"], "size = 320\n", "size must be"),
    (["--check", "--fault", "bogus"], "", "unknown fault 'bogus'"),
    (["--check", "--bogus"], "", "unknown option '--bogus'"),
    (["--check", "--streaming", "usb"], "", "--streaming must be bulk or iso"),
    (["--check"], "streaming = usb\n", "streaming must be bulk or iso"),
])
def test_camera_bad_input(built, tmp_path, args, text, why):
    """A malformed description or usage: one line naming it, exit 2."""
    import subprocess
    conf = tmp_path / "cam.conf"
    conf.write_text(text)
    p = subprocess.run([str(vboard.BUILD / "bin" / "uvc-camera"), "-c", str(conf), *args],
                       capture_output=True, text=True)
    assert p.returncode == 2
    assert why in p.stderr and p.stderr.count("\n") == 1, p.stderr
