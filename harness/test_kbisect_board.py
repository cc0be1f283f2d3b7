"""tools/kbisect on the virtual board with real Debian builds. vivid's
verdicts are the same on every build measured (6.1.0-47 and -57, 6.12.100
and .118: make matrix, 0 checks differ within a series), so there is no real
regression to find on vivid: there, --verify boots the two endpoints and must
say that the 'bad' one is good. The regression kbisect must find is the
issue's stand-in: board fixture-regress loads the fixture driver (built for
each build) with bug range-not-enforced from 6.12.117 on; from 6.12.113 to
6.12.118 the search boots 6.12.115 (good) and 6.12.117 (bad) and names
6.12.117. A clean clone downloads those two kernels and their headers once
(into the kernel cache). The search with skipped builds is tested on the
host (test_kbisect.py)."""
import json
import subprocess

import pytest

import vboard

# The builds the stand-in test downloads anyway; not make matrix's, whose
# boards (build/vboard-RELEASE/run-vivid) a test file running beside this one may be using.
GOOD, BAD = "6.12.115+deb12-amd64", "6.12.117+deb12-amd64"
ONLY = "getset/roundtrip/brightness"


# make test-full: --verify is the same search's endpoint boots (the stand-in
# test below boots both endpoints' builds too); 90 s of make test.
@pytest.mark.skipif(not vboard.FULL, reason="make test-full: the stand-in regression covers kbisect's boots")
def test_kbisect_verify_boots_both_endpoints_and_finds_no_regression(built):
    out = vboard.BUILD / "kbisect-test"
    p = subprocess.run([str(vboard.TOP / "tools" / "kbisect"), "--good", GOOD, "--bad", BAD, "--only", ONLY,
                        "--verify", "--out", str(out)], capture_output=True, text=True, timeout=1200)
    print(p.stdout[-3000:], p.stderr[-2000:])
    assert p.returncode == 1, p.stderr
    s = json.loads((out / "summary.json").read_text())
    assert [(st["release"], st["verdict"]) for st in s["steps"]] == [(GOOD, "good"), (BAD, "good")]
    assert s["first_bad"] is None and f"{BAD} was given as bad but is good" in s["problem"]
    for i, st in enumerate(s["steps"], 1):
        log = (out / f"{i}-{st['release']}.log").read_text()
        assert f"{st['release']} is good (exit 0)" in log and "1 checks: 1 pass" in log
    assert "no answer" in (out / "summary.txt").read_text()


def test_kbisect_names_the_first_bad_build_of_the_stand_in_regression(built):
    out = vboard.BUILD / "kbisect-test-regress"
    p = subprocess.run([str(vboard.TOP / "tools" / "kbisect"), "--good", "6.12.113+deb12-amd64", "--bad", "6.12.118+deb12-amd64",
                        "--only", "getset/out-of-range/*", "--board", "fixture-regress", "--out", str(out)],
                       capture_output=True, text=True, timeout=1800)
    print(p.stdout[-3000:], p.stderr[-2000:])
    assert p.returncode == 0, p.stderr
    s = json.loads((out / "summary.json").read_text())
    # Which build the search boots first depends on how many builds apt
    # lists in the range (Debian 13's 6.12.117+deb13 now sits beside
    # 6.12.117+deb12): the same two boots, in either order.
    assert sorted((st["release"], st["verdict"]) for st in s["steps"]) == [
        ("6.12.115+deb12-amd64", "good"), ("6.12.117+deb12-amd64", "bad")]
    assert s["first_bad"] == "6.12.117+deb12-amd64"
    log = next(out.glob("*-6.12.117+deb12-amd64.log"))
    assert "FAIL getset/out-of-range/brightness [SC-6]" in log.read_text()
    assert "first bad build: 6.12.117+deb12-amd64" in (out / "summary.txt").read_text()


def test_kbisect_bad_input_is_one_line_exit_2():
    for args in (["--good", GOOD, "--bad", BAD],                                  # no --only
                 ["--good", "6.1.0-999-amd64", "--bad", BAD, "--only", ONLY],     # unknown build
                 ["--good", BAD, "--bad", GOOD, "--only", ONLY]):                 # good not older
        p = subprocess.run([str(vboard.TOP / "tools" / "kbisect"), *args], capture_output=True, text=True)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("kbisect: ")
