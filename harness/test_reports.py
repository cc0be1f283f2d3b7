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


def test_expectations_include_for_a_node(tmp_path, expect):
    """A media board keeps one driver's list once: include: FILE for NODE."""
    p = tmp_path / "m.expect"
    p.write_text("media: /dev/media0\ninclude: b.expect for camera\n")
    m = Expectations(p)
    assert m.expected("camera/getset/out-of-range/gain", "fail")[0] == "SC-6"
    assert m.expected("getset/out-of-range/gain", "fail") is None
    assert m.expected("camera/getset/off-step/x", "warn")[0] == "SC-7"
    for bad in ("include: b.expect\n", "include: nothing.expect for camera\n"):
        p.write_text(bad)
        with pytest.raises(BadInput, match=r"m.expect|nothing.expect"):
            Expectations(p)


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
    assert junit.schema_errors(out) is None, junit.schema_errors(out)


# JUnit documents reports/junit.xsd must refuse: a writer's mistake shows in
# make test, not as a CI server's silent drop.
BAD_JUNIT = {
    "case without a name": '<testsuites><testsuite name="s" tests="1"><testcase classname="c"/></testsuite></testsuites>',
    "time not a number": '<testsuites><testsuite name="s" tests="1"><testcase name="t" time="1,5s"/></testsuite></testsuites>',
    "negative count": '<testsuites><testsuite name="s" tests="1" failures="-1"><testcase name="t"/></testsuite></testsuites>',
    "unknown outcome": '<testsuites><testsuite name="s" tests="1"><testcase name="t"><flaky/></testcase></testsuite></testsuites>',
    "case outside a suite": '<testsuites><testcase name="t"/></testsuites>',
    "suite without tests": '<testsuites><testsuite name="s"/></testsuites>',
    "properties after cases": '<testsuites><testsuite name="s" tests="1"><testcase name="t"/><properties/></testsuite></testsuites>',
}


@pytest.mark.parametrize("why", BAD_JUNIT)
def test_junit_schema_refuses(tmp_path, why):
    p = tmp_path / "bad.xml"
    p.write_text(BAD_JUNIT[why])
    assert junit.schema_errors(p), f"{why}: accepted by reports/junit.xsd"


def test_junit_schema_accepts_the_usual_forms(tmp_path):
    """What Jenkins and Ant write: errors, system-err, timestamps, a bare testsuite."""
    p = tmp_path / "ok.xml"
    for doc in ('<testsuites name="n" tests="2" failures="0" errors="1" time="0.5"><testsuite name="s" tests="2" '
                'errors="1" skipped="0" timestamp="2026-12-04T19:00:00" hostname="h"><properties><property name="a" '
                'value="b"/></properties><testcase name="t" classname="c" time="0.25"><error message="m" type="E">'
                'trace</error><system-err>x</system-err></testcase><testcase name="u"><skipped/></testcase>'
                '<system-out>o</system-out></testsuite></testsuites>',
                '<testsuite name="s" tests="0"/>'):
        p.write_text(doc)
        assert junit.schema_errors(p) is None, junit.schema_errors(p)


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


# ---------- hostile strings (issue 14): every report stays valid ----------

# What a driver's 32 raw name bytes and a hand-edited results.json can hold.
HOSTILE = ["N" * 32, "nul\x00inside", "esc\x1b[31mred\x07\x7f\x85", "lone \udcff surrogate",
           "<script>alert(1)</script>", "]]><![CDATA[x", "\"double\" 'single' &amp; `back`", "../../x",
           "# SKIP not really", "line\nbreak\r\nnot ok 99 - injected", "sep\u2028para\u2029", "non\ufffe\uffffchar",
           "\u00ff\u00fe latin", "emoji \U0001f600 ok"]


def hostile_results():
    recs = []
    for i, h in enumerate(HOSTILE):
        for v in ("pass", "fail", "warn", "skip"):
            r = rec(f"enum/query/{h}-{i}-{v}", v, rule=h, msg=f"expected {h}, got {h}")
            r.update(ctrl_id=0x982900 + i, ctrl_id_hex=f"0x{0x982900 + i:08x}", ctrl_name=h, summary=h,
                     suite=h if i % 2 else "enum", measurements=[{"name": h, "value": 1.5, "unit": h}],
                     series={h: [[0, 1], [1, 2]]}, artifacts=[h, "artifacts/../../etc/passwd",
                                                             "javascript:alert(1)", "/etc/passwd"])
            recs.append(r)
    data = results(*recs)
    data["run"].update(card=HOSTILE[4], driver=HOSTILE[1], kernel=HOSTILE[9], device=HOSTILE[7])
    return data


@pytest.fixture
def hostile_json(tmp_path):
    p = tmp_path / "results.json"
    # ensure_ascii: NUL and lone surrogates travel as \u escapes, as in a real file.
    p.write_text(json.dumps(hostile_results()))
    return p


def test_printable_escapes_what_reports_cannot_carry():
    from results import printable
    assert printable("a\x00b\x1b\x7f\x85\udcff\ufffe\tc\nd") == "a\\x00b\\x1b\\x7f\\x85\\udcff\\ufffe\tc\nd"
    assert printable("<ok> \u00e9 \U0001f600") == "<ok> \u00e9 \U0001f600"
    assert printable(printable("\x00\udcff")) == printable("\x00\udcff")


def test_junit_hostile_valid_xml(tmp_path, hostile_json):
    import subprocess
    out = tmp_path / "j.xml"
    assert junit.main([str(hostile_json), str(out)]) == 0
    r = subprocess.run(["xmllint", "--noout", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert junit.schema_errors(out) is None, junit.schema_errors(out)
    cases = [c for s in ET.parse(out).getroot() for c in s if c.tag == "testcase"]
    assert len(cases) == 4 * len(HOSTILE)
    assert sum(c.find("failure") is not None for c in cases) == len(HOSTILE)
    assert any(c.get("name") == "enum/query/<script>alert(1)</script>-4-fail" for c in cases)


def test_tap_hostile_parses(tmp_path, hostile_json):
    import subprocess
    import tap
    out = tmp_path / "r.tap"
    assert tap.main([str(hostile_json), str(out)]) == 0
    # Perl's TAP::Parser (what prove uses): the plan holds and each verdict survives.
    r = subprocess.run(["perl", "-MTAP::Parser", "-e",
                        'local $/; my $p = TAP::Parser->new({ tap => scalar <STDIN> }); 1 while $p->next;'
                        'printf "%d %d %d %d %s\\n", scalar $p->tests_run, scalar $p->failed, scalar $p->skipped,'
                        ' scalar $p->parse_errors, $p->is_good_plan ? "plan" : "badplan"; print "$_\\n" for $p->parse_errors'],
                       input=out.read_bytes(), capture_output=True)
    n = len(HOSTILE)
    assert r.stdout.decode().splitlines()[0] == f"{4 * n} {n} {n} 0 plan", r.stdout.decode()


def test_html_hostile_escaped(tmp_path, hostile_json):
    import html_report
    from html.parser import HTMLParser
    out = tmp_path / "r.html"
    (tmp_path / "etc").mkdir()
    assert html_report.main([str(hostile_json), str(out), "--spec", "/nonexistent"]) == 0
    page = out.read_text(encoding="utf-8")

    class Tags(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags, self.attrs, self.rows = set(), [], 0

        def handle_starttag(self, tag, attrs):
            self.tags.add(tag)
            self.attrs += attrs
            self.rows += tag == "tr"
    t = Tags()
    t.feed(page)
    assert t.tags <= {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "b", "table", "tr", "th",
                      "td", "span", "svg", "text", "polyline", "circle"}, t.tags
    assert not [a for a in t.attrs if a[0].startswith("on") or "javascript:" in (a[1] or "")]
    assert not any(ch in page for ch in "\x00\x1b\x7f\ufffe")
    # No artifact outside artifacts/ is opened: /etc/passwd is not embedded.
    assert "root:" not in page and "(not a file name in artifacts/: not shown)" in page


def test_results_reader_rejects_malformed(tmp_path):
    from results import load_results
    p = tmp_path / "r.json"
    for bad, why in ((b'{"run": {}, "results": [{"name": "x", "suite": "s", "verdict": "maybe"}]}', "results\\[0\\]: 'verdict'"),
                     (b'{"run": {}, "results": [{"name": "x", "suite": "s", "verdict": "pass", "series": {"s": [[1]]}}]}',
                      "'series'"),
                     (b'{"run": {}, "results": [{"name": "x", "suite": "s", "verdict": "pass", "duration_s": 1e999}]}',
                      "'duration_s'"),
                     (b'{"run": [], "results": []}', "'run' is not an object"),
                     (b'{"run": {}, "results": [], "summary": {"fail": "1"}}', "'summary'"),
                     (b'{"run": {"card": "\xff"}, "results": []}', "not UTF-8 \\(byte 0xff"),
                     (b"[" * 100000, "nested too deeply|not valid JSON")):
        p.write_bytes(bad)
        with pytest.raises(BadInput, match=why):
            load_results(p)
    p.write_bytes(b'{"run": {"card": "a\\u0000b"}, "results": [{"name": "x\\ud800", "suite": "s", "verdict": "pass",'
                  b' "measurements": [{"name": "m", "value": null}]}]}')
    data = load_results(p)
    assert data["run"]["card"] == "a\\x00b" and data["results"][0]["name"] == "x\\ud800"


def test_expectations_bad_regex_and_bytes(tmp_path):
    p = tmp_path / "b.expect"
    p.write_text("kernel-allow: (unclosed\n")
    with pytest.raises(BadInput, match=r"b.expect:1: kernel-allow"):
        Expectations(p)
    p.write_bytes(b"fail a/b SC-1 \xff\n")
    with pytest.raises(BadInput, match="not UTF-8"):
        Expectations(p)


def test_kernel_failure_on_the_allow_list_is_expected(tmp_path):
    p = tmp_path / "b.expect"
    p.write_text("kernel-allow: WARNING: .* at drivers/media/test-drivers/vivid/\n")
    e = Expectations(p)
    allowed = rec("getset/roundtrip/gain", "fail",
                  msg="kernel: WARNING: CPU: 0 PID: 9 at drivers/media/test-drivers/vivid/x.c:1 f+0x1/0x2 [vivid]")
    other = rec("getset/roundtrip/hue", "fail", msg="kernel: BUG: kernel NULL pointer dereference in f [vivid]")
    c = compare(results(allowed, other), e)
    assert [r["name"] for r in c["expected"]] == ["getset/roundtrip/gain"]
    assert [r["name"] for r in c["regressions"]] == ["getset/roundtrip/hue"]


def test_html_hostile_in_chromium(tmp_path, hostile_json):
    """In a real browser (Debian's headless Chromium): the page the DOM
    ends up as holds no script, no element with an event handler, and every
    table row of the report; a script that ran would have changed it.
    Never skipped: make test installs chromium (tools/deps.sh browser)."""
    assert __import__("shutil").which("chromium"), "chromium is not installed: make test installs it (tools/deps.sh browser)"
    import re
    import subprocess
    import html_report
    out = tmp_path / "r.html"
    assert html_report.main([str(hostile_json), str(out), "--spec", "/nonexistent"]) == 0
    dom = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=2000",
                          "--dump-dom", out.as_uri()], capture_output=True, text=True, timeout=120).stdout
    assert "</html>" in dom
    assert "<script" not in dom and not re.search(r"<[a-z]+ [^>]*\bon[a-z]+=", dom)
    assert not re.search(r"(href|src)=\"javascript:", dom)
    assert dom.count("<tr") == out.read_text(encoding="utf-8").count("<tr") > 4 * len(HOSTILE)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom


def test_compare_sees_new_skips(expect):
    """Issue 21: a check that went from a verdict to skip is a change a lab
    must see (compare.py exits 1 on it with a baseline)."""
    data = results(rec("enum/query/x", "skip"), rec("enum/query/y", "skip"), rec("enum/query/z", "pass"))
    base = results(rec("enum/query/x", "pass"), rec("enum/query/y", "skip"), rec("enum/query/z", "fail"))
    c = compare(data, expect, base)
    assert [r["name"] for r in c["new_skips"]] == ["enum/query/x"]
    assert not c["regressions"]


def test_skips_by_class():
    from results import skips_by_class, skips_line
    data = results(rec("a/b", "skip"))
    data["skips"] = {"profile": 2, "inconclusive": 0, "device": 5}
    assert skips_by_class(data) == {"profile": 2, "inconclusive": 0, "device": 5}
    assert skips_line(data) == "7 skip: 5 device, 2 profile"
    old = results(rec("a/b", "skip"))
    old["summary"] = {"total": 1, "pass": 0, "fail": 0, "warn": 0, "skip": 1}
    assert skips_line(old) == "1 skip: 1 unclassified"
