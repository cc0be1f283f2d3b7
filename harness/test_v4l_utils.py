"""Debian 13's v4l2-compliance for the boards (fixtures/vboard/v4l-utils-1.30.sh):
the wrapper runs a tree through its own loader, bad input is one line and
exit 2, and the fetched tree (the board build fetches it) runs on this
Debian 12 host, under stdbuf too. Host only."""
import subprocess
from pathlib import Path

import vboard

SCRIPT = vboard.TOP / "fixtures" / "vboard" / "v4l-utils-1.30.sh"


def run(*args):
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True)


def test_wrapper_runs_the_tool_through_the_trees_loader():
    amd = run("wrapper", "/T", "amd64")
    assert amd.returncode == 0, amd.stderr
    assert ('exec "$D/usr/lib64/ld-linux-x86-64.so.2" --library-path "$D/usr/lib/x86_64-linux-gnu" '
            '"$D/usr/bin/${0##*/}" "$@"') in amd.stdout
    assert "D=/T\n" in amd.stdout
    arm = run("wrapper", "/T", "arm64")
    assert '"$D/usr/lib/ld-linux-aarch64.so.1" --library-path "$D/usr/lib/aarch64-linux-gnu"' in arm.stdout


def test_bad_input_is_one_line_and_exit_2():
    for args in (("wrapper", "/T", "mips"), ("fetch",), ("nonsense",)):
        p = run(*args)
        assert p.returncode == 2 and p.stdout == "", (args, p)
        assert len(p.stderr.strip().splitlines()) == 1, (args, p.stderr)


def test_fetched_tree_runs_on_the_host(built):
    p = run("fetch", str(vboard.TOP / "fixtures" / "vboard" / "cache"))
    assert p.returncode == 0, p.stderr
    tree = p.stdout.strip()
    assert "Debian 13 package" in p.stderr
    for cmd in ([f"{tree}/v4l2-compliance", "--version"], ["stdbuf", "-oL", f"{tree}/v4l2-compliance", "--version"]):
        v = subprocess.run(cmd, capture_output=True, text=True)
        assert v.returncode == 0 and v.stdout.startswith("v4l2-compliance 1."), (cmd, v)
    # The board's part: the tools and the library closure, the loader's link resolving inside.
    board = Path(tree) / "board"
    assert (board / "usr/bin/v4l2-compliance").is_file()
    assert (board / "usr/lib64/ld-linux-x86-64.so.2").resolve().is_file()
    assert (board / "usr/lib/x86_64-linux-gnu/libstdc++.so.6").is_file()
