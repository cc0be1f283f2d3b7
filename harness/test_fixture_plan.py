"""The fixture self-test's plan over kernels (fixture_bugs): which bugs exist
in the module for a kernel series (since/until), the series conditions of
expected checks, which bugs make test runs on which kernel. Host only."""
import re

import fixture_bugs as fb

CATALOGUE = fb.read_catalogue()
OLD, NEW = (6, 1), (7, 3)


def test_old_ops_bugs_are_the_drivers():
    """UNTIL_BUGS is fx_bugs.h's FX_OLD_OPS_BUGS (the module refuses those
    names from 6.15), and each lives only in fx_ctrl_ioctl.c's legacy ops
    or the hooks only they call."""
    h = fb.BUGS_H.read_text()
    cnames = dict(re.findall(r'^\s*X\((\w+),\s*"([^"]+)"\)', h, re.M))
    block = re.search(r"#define FX_OLD_OPS_BUGS\(X\)(.*?)\n\n", h, re.S).group(1)
    assert {cnames[c] for c in re.findall(r"X\((\w+)\)", block)} == set(fb.UNTIL_BUGS)
    others = [p for p in fb.DRIVER_DIR.glob("*.c") if p.name not in ("fx_ctrl_ioctl.c", "fx_wedge.c", "fx_ctrls.c")]
    for c in re.findall(r"X\((\w+)\)", block):
        users = [p.name for p in others if f"FXB_{c}" in p.read_text()]
        assert not users, f"FXB_{c} is used outside the legacy ops too: {users}"


def test_why_not():
    assert fb.why_not("int64-g-ctrl", OLD) is None and fb.why_not("minmax-swapped", NEW) is None
    assert "6.15" in fb.why_not("int64-g-ctrl", NEW) and "v4l2-ioctl.c" in fb.why_not("int64-g-ctrl", NEW)
    assert "FX_MINMAX" in fb.why_not("minmax-swapped", OLD)
    assert fb.why_not("range-not-enforced", OLD) is None and fb.why_not("range-not-enforced", NEW) is None


def test_series_conditions():
    row = {"patterns": ["a/*", "b/*", "c/*"], "conditions": {"b/*": ("<", (6, 15)), "c/*": (">=", (6, 15))}}
    assert fb.expected(row, OLD) == ["a/*", "b/*"]
    assert fb.expected(row, NEW) == ["a/*", "c/*"]
    assert fb.expected(row, None) == row["patterns"]
    cz = next(r for r in CATALOGUE if r["bug"] == "count-zero-any-class")
    assert "ext/min-max-which" in fb.expected(cz, OLD) and "ext/min-max-which" not in fb.expected(cz, NEW)
    assert "ext/min-max-which" in fb.families(cz["patterns"])


def test_make_test_runs_each_bug_once_and_the_series_dependent_twice():
    plan = fb.plan_kernels(CATALOGUE, [("6.1", OLD), ("newest", NEW)])
    names = {r["bug"] for r in CATALOGUE}
    assert set(plan["6.1"]) | set(plan["newest"]) == names
    twice = set(plan["6.1"]) & set(plan["newest"])
    assert twice == {r["bug"] for r in CATALOGUE if fb.series_dependent(r)}, twice
    assert set(fb.UNTIL_BUGS) <= set(plan["6.1"]) and not set(fb.UNTIL_BUGS) & set(plan["newest"])
    assert not any(b.startswith("minmax-") for b in plan["6.1"])
    full = fb.plan_kernels(CATALOGUE, [("6.1", OLD), ("newest", NEW)], full=True)
    assert set(full["newest"]) == names - set(fb.UNTIL_BUGS)
    assert set(full["6.1"]) == {b for b in names if not b.startswith("minmax-")}


def test_one_refused_load_per_reason():
    assert fb.absent_probes(CATALOGUE, NEW) == ["unknown-id-accepted"]
    assert fb.absent_probes(CATALOGUE, OLD) == ["minmax-read-refused"]


def test_a_later_boots_baseline_runs_its_bugs_families():
    only = {"a": "--only 'getset/x,getset/x/*'", "b": "--only 'ext/y,ext/y/*,getset/x'", "c": ""}
    assert fb.baseline_only([fb.BASELINE, "a", "b"], only) == "--only 'getset/x,getset/x/*,ext/y,ext/y/*'"
    # a bug that runs every check: so does the baseline beside it
    assert fb.baseline_only([fb.BASELINE, "a", "c"], only) is None
    assert fb.baseline_only([fb.BASELINE], only) is None
