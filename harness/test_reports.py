"""Report writers and the comparison with a board's expectations, on small
results made here (pure logic: runs on the host)."""
import json
import xml.etree.ElementTree as ET

import pytest

import compare as compare_cli
import junit
from results import BadInput, Expectations, compare


def rec(name, verdict, rule="SC-6", msg=""):
    return {"name": name, "suite": name.split("/")[0], "rule": rule, "verdict": verdict, "message": msg,
            "ctrl_id": 0, "ctrl_name": None, "summary": "", "duration_s": 0.01, "measurements": []}


def results(*recs):
    counts = {v: sum(r["verdict"] == v for r in recs) for v in ("pass", "fail", "warn", "skip")}
    return {"run": {"device": "/dev/video0", "driver": "x"}, "summary": dict(total=len(recs), **counts),
            "results": list(recs)}


@pytest.fixture
def expect(tmp_path):
    p = tmp_path / "b.expect"
    p.write_text("setup: modprobe vivid n_devs=1 # keep\nrun-args: -x disconnect\n"
                 "fail getset/out-of-range/gain SC-6 clamps wrong\nwarn getset/off-step/* SC-7 ERANGE\n")
    return Expectations(p)


def test_expectations_parse(expect):
    assert expect.settings["setup"] == "modprobe vivid n_devs=1 # keep"
    assert expect.settings["run-args"] == "-x disconnect"
    assert expect.expected("getset/out-of-range/gain", "fail")[0] == "SC-6"
    assert expect.expected("getset/out-of-range/brightness", "fail") is None


def test_malformed_expectations_named(tmp_path):
    p = tmp_path / "bad.expect"
    p.write_text("fail\n")
    with pytest.raises(BadInput, match=r"bad.expect:1"):
        Expectations(p)


def test_compare_classifies(expect):
    data = results(rec("getset/out-of-range/gain", "fail"), rec("getset/out-of-range/brightness", "fail"),
                   rec("getset/off-step/gain", "warn"), rec("menu/items/menu", "warn"))
    c = compare(data, expect)
    assert [r["name"] for r in c["regressions"]] == ["getset/out-of-range/brightness"]
    assert [r["name"] for r in c["expected"]] == ["getset/out-of-range/gain"]
    assert [r["name"] for r in c["new_warnings"]] == ["menu/items/menu"]


def test_compare_fixed_and_baseline(expect):
    data = results(rec("getset/out-of-range/gain", "pass"), rec("enum/query/x", "fail"))
    base = results(rec("enum/query/x", "pass"), rec("enum/query/gone", "pass"))
    c = compare(data, expect, base)
    assert [r["name"] for r in c["fixed"]] == ["getset/out-of-range/gain"]
    assert [r["name"] for r in c["regressions"]] == ["enum/query/x"]
    assert [r["name"] for r in c["missing"]] == ["enum/query/gone"]


def test_expectations_per_kernel(tmp_path):
    """fail@KERNEL-GLOB: a deviation known only on some kernel releases."""
    p = tmp_path / "k.expect"
    p.write_text("fail@6.12.* payload/x/* AR-1 only 6.12's vivid\nfail enum/y/* QC-1 every kernel\n")
    e = Expectations(p)
    assert e.expected("payload/x/a", "fail", "6.12.118+deb12-amd64")[0] == "AR-1"
    assert e.expected("payload/x/a", "fail", "6.1.0-57-amd64") is None
    assert e.expected("enum/y/a", "fail", "6.1.0-57-amd64")[0] == "QC-1"
    run612 = results(rec("payload/x/a", "fail"), rec("enum/y/a", "fail"))
    run612["run"]["kernel"] = "Linux 6.12.118+deb12-amd64 x86_64"
    c = compare(run612, e)
    assert not c["regressions"] and len(c["expected"]) == 2
    run61 = results(rec("payload/x/a", "fail"), rec("enum/y/a", "pass"))
    run61["run"]["kernel"] = "Linux 6.1.0-57-amd64 x86_64"
    c = compare(run61, e)
    assert [r["name"] for r in c["regressions"]] == ["payload/x/a"]
    # the 6.12-only entry is not 'fixed' on 6.1, the every-kernel one is
    assert [r["name"] for r in c["fixed"]] == ["enum/y/*"]
    bad = tmp_path / "bad.expect"
    bad.write_text("fail@ a/b QC-1 empty kernel\n")
    with pytest.raises(BadInput, match=r"bad.expect:1"):
        Expectations(bad)


def test_compare_cli_exit(tmp_path, expect, capsys):
    p = tmp_path / "r.json"
    p.write_text(json.dumps(results(rec("getset/out-of-range/gain", "fail"))))
    assert compare_cli.main([str(p), "--expect", str(expect.path)]) == 0
    p.write_text(json.dumps(results(rec("enum/query/x", "fail"))))
    assert compare_cli.main([str(p), "--expect", str(expect.path)]) == 1
    assert "REGRESSIONS" in capsys.readouterr().out
    (tmp_path / "junk.json").write_text("{")
    assert compare_cli.main([str(tmp_path / "junk.json")]) == 2


def test_junit(tmp_path):
    p = tmp_path / "r.json"
    p.write_text(json.dumps(results(rec("getset/a/b", "fail", msg="expected 1, got 2"), rec("getset/a/c", "skip", msg="n/a"),
                                    rec("enum/q/x", "warn", msg="legacy"), rec("enum/q/y", "pass"))))
    out = tmp_path / "j.xml"
    assert junit.main([str(p), str(out)]) == 0
    root = ET.parse(out).getroot()
    suites = {s.get("name"): s for s in root}
    assert suites["getset"].get("failures") == "1" and suites["getset"].get("skipped") == "1"
    cases = {c.get("name"): c for s in root for c in s}
    assert cases["getset/a/b"].find("failure").get("message") == "[SC-6] expected 1, got 2"
    assert cases["getset/a/c"].find("skipped") is not None
    assert "legacy" in cases["enum/q/x"].find("system-out").text
    assert len(cases["enum/q/y"]) == 0


def test_tap(tmp_path):
    import tap
    text = tap.to_tap(results(rec("a/b/c", "fail", msg="expected 1, got 2"), rec("a/b/d", "skip", msg="n/a"),
                              rec("a/b/e", "warn", msg="legacy"), rec("a/b/f", "pass")))
    lines = text.splitlines()
    assert lines[:2] == ["TAP version 13", "1..4"]
    assert lines[2] == "not ok 1 - a/b/c [SC-6]"
    assert "ok 2 - a/b/d [SC-6] # SKIP n/a" in lines
    assert "# warning: legacy" in lines
    assert "ok 4 - a/b/f [SC-6]" in lines


def test_html_report_shows_plots_frames_and_known_deviations(tmp_path, expect):
    import html_report
    import png
    (tmp_path / "artifacts").mkdir()
    (tmp_path / "artifacts" / "f.ppm").write_bytes(b"P6\n4 2\n255\n" + bytes(range(24)))
    r = rec("probe/brightness/brightness", "fail", rule="VA-1", msg="luma did not rise")
    r["series"] = {"luma": [[0, 16.0], [128, 120.5], [255, 235.0]]}
    r["artifacts"] = ["artifacts/f.ppm"]
    r["ctrl_id"], r["ctrl_id_hex"], r["ctrl_name"] = 0x980900, "0x00980900", "Brightness"
    k = rec("getset/out-of-range/gain", "fail")
    page = html_report.render(results(r, k, rec("enum/query/x", "pass")), tmp_path, expect,
                              {"VA-1": "integer clamp"})
    assert "Overall verdict: <b" in page and ">FAIL</b>" in page
    assert "<polyline" in page and "data:image/png;base64," in page
    assert "(known deviation)" in page and "integer clamp" in page and "Brightness (0x00980900)" in page
    w, h, ch, px = png.read_pnm((tmp_path / "artifacts" / "f.ppm").read_bytes())
    assert (w, h, ch, len(px)) == (4, 2, 3, 24)
    assert png.png_bytes(w, h, ch, px).startswith(b"\x89PNG")
    page = html_report.render(results(k), tmp_path, expect, {})
    assert "PASS with known deviations" in page


def test_kernel_complaints_skip_allowed_dumps(tmp_path):
    import vboard
    (tmp_path / "dmesg.txt").write_text(
        "[1.0] vivid-000: ok\n[2.0] schedule_timeout: wrong timeout value fffffffffffffff\n"
        "[2.0] CPU: 0 PID: 9\n[2.0] Call Trace:\n[2.0]  <TASK>\n[2.0]  dump_stack+0x1\n[2.0]  </TASK>\n"
        "[3.0] WARNING: CPU: 0 PID: 12 at drivers/media/x.c:10\n[3.0] Call Trace:\n")
    run = vboard.BoardRun(tmp_path, 0, 1.0)
    assert len(run.kernel_complaints()) == 3
    left = run.kernel_complaints([r"schedule_timeout: wrong timeout"])
    assert left == ["[3.0] WARNING: CPU: 0 PID: 12 at drivers/media/x.c:10", "[3.0] Call Trace:"]
