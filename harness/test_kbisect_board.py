"""tools/kbisect on the virtual board with real Debian builds. vivid's
verdicts are the same on every build measured (6.1.0-47 and -57, 6.12.100
and .118: make matrix, 0 checks differ within a series), so there is no real
regression to find on vivid: there, --verify boots the two endpoints and must
say that the 'bad' one is good (make test-full). The regression kbisect must
find is the issue's stand-in: board fixture-regress loads the fixture driver
(built for each build) with bug range-not-enforced from 6.1.0-57 on, the
board's default build. make test: from 6.1.0-56 to 6.12.100 the one build
between is 6.1.0-57, whose kernel and fixture module make test has anyway
(the board's default build, the fixture tests' module): one boot, bad, and
kbisect names it. make test-full: from 6.1.0-54 the search boots 6.1.0-56
(good) and 6.1.0-57 (bad), a second build downloaded. The search's logic,
with skipped builds too, is tested on the host (test_kbisect.py)."""
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


def _stand_in(good, out):
    p = subprocess.run([str(vboard.TOP / "tools" / "kbisect"), "--good", good, "--bad", "6.12.100+deb12-amd64",
                        "--only", "getset/out-of-range/*", "--board", "fixture-regress", "--out", str(out)],
                       capture_output=True, text=True, timeout=1800)
    print(p.stdout[-3000:], p.stderr[-2000:])
    assert p.returncode == 0, p.stderr
    s = json.loads((out / "summary.json").read_text())
    assert s["first_bad"] == REGRESSED
    log = next(out.glob(f"*-{REGRESSED}.log"))
    assert "FAIL getset/out-of-range/brightness [SC-6]" in log.read_text()
    assert f"first bad build: {REGRESSED}" in (out / "summary.txt").read_text()
    return s


# The stand-in's first bad build (fixtures/boards/fixture-regress.expect).
REGRESSED = "6.1.0-57-amd64"


def test_kbisect_names_the_first_bad_build_of_the_stand_in_regression(built):
    """One build between the endpoints: the step must boot it, find it bad
    (the check fails there) and name it, not the bad endpoint."""
    s = _stand_in("6.1.0-56-amd64", vboard.BUILD / "kbisect-test-regress")
    assert [(st["release"], st["verdict"]) for st in s["steps"]] == [(REGRESSED, "bad")]


@pytest.mark.skipif(not vboard.FULL, reason="make test-full: make test's one-step search boots the same board")
def test_kbisect_narrows_two_steps_to_the_stand_in_regression(built):
    """Three builds between the endpoints: a good one and the bad one are
    booted, in whichever order the search picks them."""
    s = _stand_in("6.1.0-54-amd64", vboard.BUILD / "kbisect-test-regress-2")
    steps = sorted((st["release"], st["verdict"]) for st in s["steps"])
    assert (REGRESSED, "bad") in steps and len(steps) == 2, steps
    assert [v for r, v in steps if r != REGRESSED] == ["good"], steps


def test_kbisect_bad_input_is_one_line_exit_2():
    for args in (["--good", GOOD, "--bad", BAD],                                  # no --only
                 ["--good", "6.1.0-999-amd64", "--bad", BAD, "--only", ONLY],     # unknown build
                 ["--good", BAD, "--bad", GOOD, "--only", ONLY]):                 # good not older
        p = subprocess.run([str(vboard.TOP / "tools" / "kbisect"), *args], capture_output=True, text=True)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("kbisect: ")
