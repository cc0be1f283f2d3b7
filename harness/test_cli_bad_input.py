"""Bad input gets one line naming the problem and exit status 2 (on the host:
none of these reaches a driver)."""
import subprocess

import pytest

import vboard

CONFORM = str(vboard.BUILD / "bin" / "v4l2-conform")


def run(*args):
    return subprocess.run([CONFORM, *args], capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("args,needle", [
    (["-d", "/dev/does-not-exist"], "/dev/does-not-exist"),
    (["-d", "/dev/null"], "not a V4L2 device"),
    (["-d", "/tmp"], "is a directory"),
    (["-d", "/etc/passwd"], "not a character device"),
    (["--bogus"], "unknown option '--bogus'"),
    (["-d"], "needs an argument"),
    (["--timeout", "abc", "-d", "/dev/null"], "--timeout"),
    ([], "no device given"),
    (["-d", "/dev/null", "extra"], "unexpected argument 'extra'"),
])
def test_bad_input_exit_2(built, args, needle):
    p = run(*args)
    assert p.returncode == 2, (p.returncode, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], p.stderr


def test_bisect_maps_untestable_to_125(built):
    assert run("--bisect", "-d", "/dev/null").returncode == 125


def test_list_without_device(built):
    p = run("--list")
    assert p.returncode == 0
    assert "getset/out-of-range/<control>" in p.stdout
    for fam in ("enum/", "menu/", "getset/", "persist/"):
        assert fam in p.stdout
