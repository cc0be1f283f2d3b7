"""tools/kbisect on the virtual board with real Debian builds. vivid's
verdicts are the same on every build measured (6.1.0-47 and -57, 6.12.100
and .118: make matrix, 0 checks differ within a series), so there is no real
regression to find: this boots the two endpoints (--verify) and must say
that the 'bad' one is good, with each step's log (two short boots, the
builds make matrix also uses or one download). The search itself, with
skipped builds, is tested on the host (test_kbisect.py)."""
import json
import subprocess

import vboard

GOOD, BAD = "6.12.100+deb12-amd64", "6.12.118+deb12-amd64"
ONLY = "getset/roundtrip/brightness"


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


def test_kbisect_bad_input_is_one_line_exit_2():
    for args in (["--good", GOOD, "--bad", BAD],                                  # no --only
                 ["--good", "6.1.0-999-amd64", "--bad", BAD, "--only", ONLY],     # unknown build
                 ["--good", BAD, "--bad", GOOD, "--only", ONLY]):                 # good not older
        p = subprocess.run([str(vboard.TOP / "tools" / "kbisect"), *args], capture_output=True, text=True)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("kbisect: ")
