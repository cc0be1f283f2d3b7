"""Self-test of the suite against the fixture driver (issue 3): every bug in
fixtures/drivers/v4l2c-fixture/bugs.tsv, injected with bug=NAME, must make
v4l2-conform fail exactly the checks the catalogue names, and bug=none must
pass with zero failures. Bugs marked 'uncaught' are strict xfails (they show
in the output, and turn into errors once the suite catches them); 'warn'
bugs must give warnings only. Also writes the side-by-side detection table
(v4l2-conform vs Debian 13's v4l2-compliance, its version in the header) to
reports/out/fixture-detection.{md,json}.
"""
import json
import os
import re

import pytest

import fixture_bugs as fb
import vboard
from board_batches import read_costs

CATALOGUE = fb.read_catalogue()
FULL = os.environ.get("V4L2C_TEST_FULL") == "1"
SPEC = vboard.TOP / "spec" / "controls-checklist.md"
SPEC_COLUMNS = fb.COLUMNS


def _param(row):
    return fb.catalogue_param(row, "not caught by the suite yet (bugs.tsv)")


# -- the catalogue itself (no board needed) ---------------------------------

def test_catalogue_format():
    header = fb.CATALOGUE.read_text().splitlines()[0].split("\t")
    assert header == SPEC_COLUMNS
    assert len(CATALOGUE) >= 24
    names = [r["bug"] for r in CATALOGUE]
    assert len(names) == len(set(names)), "duplicate bug names"
    assert fb.BASELINE not in names, "bug=none is the baseline, not a catalogue entry"
    for r in CATALOGUE:
        assert r["kind"] in fb.KINDS, r["bug"]
        assert r["status"] in fb.STATUSES, r["bug"]
        assert r["patterns"], f"{r['bug']}: no expected_checks"
        assert r["description"].strip(), r["bug"]
    assert {r["kind"] for r in CATALOGUE} == set(fb.KINDS), "both kinds of bug are needed"


def test_catalogue_matches_the_driver():
    """bugs.tsv and the module's bug= names (fx_bugs.h) are the same set."""
    in_driver = set(fb.driver_bug_names()) - {fb.BASELINE}
    assert in_driver == {r["bug"] for r in CATALOGUE}


def test_catalogue_rules_exist(spec_rules):
    """Rule ids of the spec; image bugs cite its section 18 ('S18'), as the
    frame probes do."""
    sections = {f"S{n}" for n in re.findall(r"^## (\d+)\.", SPEC.read_text(), re.M)}
    for r in CATALOGUE:
        unknown = [x for x in r["rules"] if x not in spec_rules | sections]
        assert not unknown, f"{r['bug']}: unknown rule(s) {unknown}"


# -- on the virtual board ----------------------------------------------------

@pytest.fixture(scope="module")
def runs(built):
    """Every bug plus the baseline (every check), in parallel boots.
    V4L2C_FIXTURE_REUSE=1 re-judges the last boots' results without booting
    (for editing bugs.tsv)."""
    root = vboard.BUILD / "vboard" / "pytest-fixture"
    bugs = [fb.BASELINE] + list(fb.PERSONALITIES) + [r["bug"] for r in CATALOGUE] + [fb.BASELINE_SUBDEV]
    if os.environ.get("V4L2C_FIXTURE_REUSE") == "1":
        dirs = fb.last_dirs(root, bugs)
    else:
        fb.build_module()
        only = None if FULL else fb.only_args(bugs, CATALOGUE)
        # The quick runs' measured costs share the bugs out; the full
        # sweep's runs all cost about the same. Four boots for the quick
        # runs: they mostly wait (hangs, event timeouts, wedges), measured
        # on a quiet machine 80 and 57 s of host CPU in boots of 320 and
        # 353 s; a boot and its baseline cost about 20 s of CPU more.
        dirs, boots = fb.run_batches(bugs, root, n=2 if FULL else 4, only=only, compliance=FULL,
                                     subdev=fb.subdev_bugs(CATALOGUE),
                                     costs=None if FULL else read_costs("fixture"))
        for b in boots:
            assert not b.hung, f"a board hung: {b.share}/console.log"
    runs = {bug: fb.BugRun(bug, d) for bug, d in dirs.items()}
    if FULL and runs[fb.BASELINE].ran:
        rows = fb.detection_table(CATALOGUE, runs)
        summary = fb.write_detection(rows, vboard.TOP / "reports" / "out", version=fb.compliance_version_of(runs))
        print(f"\nfixture detection: {summary}")
    return runs


def _usable(run):
    problems = run.problems()
    assert not problems, f"bug={run.bug}: " + "; ".join(problems)


def test_baseline_is_clean(runs):
    """bug=none: the module loads and unloads cleanly and the suite finds
    nothing to fail. Every boot's own baseline too."""
    base = runs[fb.BASELINE]
    _usable(base)
    failed = sorted(fb.names_with(base.verdicts(), "fail"))
    assert not failed, "bug=none fails: " + ", ".join(failed)
    for d in base.path.parent.parent.parent.glob("batch*/res/none"):
        other = fb.BugRun(fb.BASELINE, d)
        _usable(other)
        assert not fb.names_with(other.verdicts(), "fail"), d


def test_subdev_board_is_clean(runs):
    """The sub-device personality with bug=none (subdev=1, -m /dev/media0:
    the video node, the sensor and ISP sub-device nodes, the graph) is the
    fixture-subdev board, run in the same boot as the bugs: no failure,
    nothing its expectations (fixtures/boards/fixture-subdev.expect) do not
    allow, a result set for every node of the graph."""
    from results import Expectations
    base = runs[fb.BASELINE_SUBDEV]
    _usable(base)
    v = base.verdicts()
    nodes = {n.split("/", 1)[0] for n in v}
    assert nodes >= {"graph", "v4l2c-fixture", "fx-sensor", "fx-isp"}, sorted(nodes)
    exp = Expectations(fb.SUBDEV_BOARD)
    failed = sorted(n for n in fb.names_with(v, "fail") if not exp.expected(n, "fail"))
    assert not failed, "bug=none subdev=1 fails: " + ", ".join(failed)
    shared = [n for n in v if "/subdev/shared/" in n]
    assert len(shared) >= 9, shared
    t0, t1 = (float(base._text(x)) for x in ("t0", "t1"))
    print(f"\nfixture-subdev: {len(v)} checks, {len(fb.names_with(v, 'pass'))} pass, "
          f"{len(fb.names_with(v, 'fail'))} fail, {len(fb.names_with(v, 'warn'))} warn, "
          f"{len(fb.names_with(v, 'skip'))} skip, {t1 - t0:.1f} s in the guest")


@pytest.mark.parametrize("name", list(fb.PERSONALITIES))
def test_personality_baseline_is_clean(runs, name):
    """bug=none in the driver's other personalities (m2m=1: a converter
    node, a context per handle): loads, unloads, and nothing fails. The
    fixture-m2m board (fixtures/boards/fixture-m2m.expect), in the bugs'
    boots."""
    base = runs[name]
    _usable(base)
    failed = sorted(fb.names_with(base.verdicts(), "fail"))
    assert not failed, f"{name} fails: " + ", ".join(failed)


def test_no_negative_case_list_is_well_formed(built):
    """Every entry names an existing check and says why."""
    templates = set(fb.check_templates())
    for check, reason in fb.read_no_negative().items():
        assert check in templates, f"{fb.NO_NEGATIVE.name}: no such check {check}"
        assert len(reason) > 20, f"{check}: say why the fixture cannot make it fail"


def test_every_check_can_fail(runs):
    """A check that cannot fail is a defect: every check of the suite is
    made to fail by some fixture bug, or is listed with the reason in
    no-negative-case.tsv. The list may not go stale either: a listed check
    that a bug now catches must leave the list."""
    series = runs[fb.BASELINE].series
    templates = [t for t in fb.check_templates() if fb.check_applies(t, series)]
    caught = fb.caught_templates(CATALOGUE, runs, templates)
    listed = fb.read_no_negative()
    never = [t for t in templates if t not in caught and t not in listed]
    stale = sorted(set(listed) & caught)
    assert not never, "checks no fixture bug makes fail (add a bug, or list them with the reason): " + ", ".join(never)
    assert not stale, f"caught now, remove from {fb.NO_NEGATIVE.name}: " + ", ".join(stale)


@pytest.mark.parametrize("row", [_param(r) for r in CATALOGUE])
def test_bug_is_detected(runs, row):
    """The suite fails (or, for 'warn' bugs, warns about) exactly the checks
    the catalogue names: every new failure is explained by a pattern, and
    every pattern explains at least one failure."""
    run, base = runs[row["bug"]], runs[fb.baseline_of(row["bug"], CATALOGUE)]
    if not fb.bug_applies(row["bug"], base.series):
        pytest.skip(f"bug={row['bug']}: the module for kernel {base.series} has no such code (fx_compat.h)")
    _usable(run)
    _usable(base)
    v, b = run.verdicts(), base.verdicts()
    failed = fb.names_with(v, "fail") - fb.names_with(b, "fail")
    if row["status"] == "warn":
        assert not failed, f"expected warnings only, got failures: {sorted(failed)}"
        hits = fb.new_warnings(run, base, row["patterns"])
    else:
        hits = failed
    assert hits, f"bug={row['bug']} not detected"
    stray, idle = fb.match(hits, row["patterns"])
    msgs = [f"{n}: {v[n]['message']}" for n in stray]
    assert not stray, "collateral, not in expected_checks:\n  " + "\n  ".join(msgs)
    assert not idle, f"expected_checks that matched nothing: {idle}; got {sorted(hits)}"


# -- reports of the runs that end badly ---------------------------------------

def _write_reports(run, out):
    """Every report writer on a bug's results.json; the JUnit XML must pass
    reports/junit.xsd."""
    import html_report
    import junit
    import tap
    res = run.path / "conform" / "results.json"
    assert junit.main([str(res), str(out / "junit.xml")]) == 0
    assert tap.main([str(res), str(out / "results.tap")]) == 0
    assert html_report.main([str(res), str(out / "report.html")]) == 0
    errors = junit.schema_errors(out / "junit.xml")
    assert errors is None, f"bug={run.bug}: junit.xml against reports/junit.xsd: {errors}"


def test_hostile_names_reports_valid(runs, tmp_path):
    """Control and menu names with NULs, control characters, bytes that are
    not UTF-8, <script>, ]]> and quotes (bug=hostile-names): every report
    is written and junit.xml is JUnit XML by the schema."""
    run = runs["hostile-names"]
    _usable(run)
    _write_reports(run, tmp_path)


# How long a run that wedges for good may take in the guest: the checks
# before the wedge (a few seconds), two check timeouts (the check that
# wedged, the bounded wait for its process), the 5 s probe, and slack for a
# loaded two-core host. Without the bounded waits it never ends (900 s).
WEDGE_RUN_BOUND_S = 2 * fb.LAST_IN_BOOT_TIMEOUT_S + 5 + 30


@pytest.mark.parametrize("bug", fb.LAST_IN_BOOT)
def test_wedged_for_good_ends_in_bounded_time(runs, bug, tmp_path):
    """A test process asleep in the kernel for good (bug=g-ctrl-null-deref:
    an Oops with the lock held; bug=s-ctrl-sleeps-forever: an msleep loop
    in the last check of the run) costs its check and ends the run: exit 1
    in bounded time, run/device-wedged naming the check and the ioctl, the
    stuck process left behind, every report written."""
    run = runs[bug]
    _usable(run)
    assert run._text("conform.exit") == "1", f"v4l2-conform exit {run._text('conform.exit')}"
    took = float(run._text("t1")) - float(run._text("t0"))
    print(f"\nbug={bug}: the run took {took:.1f} s in the guest")
    assert took < WEDGE_RUN_BOUND_S, f"the run took {took:.1f} s"
    v = run.verdicts()
    wedged = v.get("run/device-wedged")
    assert wedged and wedged["verdict"] == "fail", "no run/device-wedged failure"
    culprit = {"g-ctrl-null-deref": ("getset/get-in-range/test-integer", "VIDIOC_G_CTRL"),
               "s-ctrl-sleeps-forever": ("getset/roundtrip/test-pattern", "VIDIOC_S_CTRL")}[bug]
    assert f"{culprit[0]} ended inside {culprit[1]}" in wedged["message"], wedged["message"]
    check = v[culprit[0]]
    assert check["verdict"] == "fail", check
    assert "left behind" in check["message"], check["message"]
    assert "left behind" in (run._text("conform.log") or "")
    names = [n for n in v if n not in ("run/device-wedged",) and not n.startswith("kernel/")]
    if bug == "g-ctrl-null-deref":
        # The Oops fails the check that caused it, with its faulting function,
        # and the checks after it are skipped, not waited for.
        assert "kernel: BUG: kernel NULL pointer dereference" in check["message"], check["message"]
        assert "fx_wedge_g_ctrl" in check["message"], check["message"]
        after = names[names.index(culprit[0]) + 1:]
        assert after and all(v[n]["verdict"] == "skip" and "device stopped answering" in v[n]["message"]
                             for n in after), after
    else:
        # The wedging check is the run's last: only the end of the run can
        # find the device wedged (no check comes after it to ask).
        assert names[-1] == culprit[0], names[-5:]
    _write_reports(run, tmp_path)


def test_slow_query_costs_one_timeout(runs):
    """bug=brightness-sleeps (issue 21 item 5): QUERYCTRL of Brightness sleeps
    (interruptibly) longer than a check's timeout. The run pays for it at
    most twice: run/hang/brightness names the ioctl and the control, the
    checks that need Brightness are skipped with reason class 'hang', no
    check times out, and the run goes on to its restore."""
    run = runs["brightness-sleeps"]
    _usable(run)
    v = run.verdicts()
    hang = v.get("run/hang/brightness")
    assert hang and hang["verdict"] == "fail", hang
    assert "VIDIOC_QUERYCTRL of 0x00980900 'Brightness' did not return in" in hang["message"], hang["message"]
    # Each bounded wait and each check timeout is one failure message part.
    waits = sum((r.get("message") or "").count("did not return in") + (r.get("message") or "").count("Test timeout")
                for r in v.values() if r["verdict"] == "fail")
    assert waits <= 2, f"more than two timeouts: {waits}"
    skipped = [n for n, r in v.items() if n.endswith("/brightness") and r["verdict"] == "skip"]
    assert skipped, "no check of Brightness skipped"
    for n in skipped:
        assert "hangs" in v[n]["message"], f"{n}: {v[n]['message']}"
    data = json.loads((run.path / "conform" / "results.json").read_text())
    assert data["skips"]["hang"] >= len(skipped), data["skips"]
    assert v["run/restore"]["verdict"] == "pass", v["run/restore"]


def test_hang_in_a_call_of_several_controls_is_pinned(runs):
    """bug=contrast-try-sleeps (issue 21 item 5): the first call to sleep is
    ext/set-all's TRY_EXT_CTRLS of every settable control. The runner asks
    each of them alone and names Contrast in the timed-out check's failure:
    two bounded waits, the control recorded, the run goes on to its
    restore."""
    run = runs["contrast-try-sleeps"]
    _usable(run)
    v = run.verdicts()
    r = v["ext/set-all"]
    assert r["verdict"] == "fail", r
    msg = r["message"]
    assert msg.startswith("VIDIOC_TRY_EXT_CTRLS of 0x"), msg
    assert "asked alone, VIDIOC_TRY_EXT_CTRLS of 0x00980901 'Contrast' did not return" in msg, msg
    assert "skipped (hang)" in msg, msg
    waits = sum((x.get("message") or "").count("did not return in") + (x.get("message") or "").count("Test timeout")
                for x in v.values() if x["verdict"] == "fail")
    assert waits <= 2, f"more than two timeouts: {waits}"
    assert v["run/restore"]["verdict"] == "pass", v["run/restore"]
