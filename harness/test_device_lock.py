"""One run per device (issue 14, lib/dev/devlock.c), on the virtual board with
vivid: while a run holds /dev/video0, a second run exits 2 naming the pid
that holds it, and a run with --wait starts once the first has ended."""
import re

import pytest

import vboard

SLOW = "getset/*"          # long enough (several seconds) to be overlapped
QUICK = "enum/query/brightness"
ARGS = "--exclude-control disconnect"


@pytest.fixture(scope="module")
def board(built):
    script = "\n".join([
        "set -u", "modprobe vivid n_devs=1 || exit 3",
        "i=0; while [ ! -e /dev/video0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done",
        f"v4l2-conform -d /dev/video0 --out /share/first --only '{SLOW}' {ARGS} > /share/first.log 2>&1 &",
        "first=$!; echo $first > /share/first.pid",
        # The lock file names the holder once it holds the device.
        "i=0; until grep -qs . /run/v4l2-conform/*.lock /tmp/v4l2-conform/*.lock; do",
        "  sleep 0.1; i=$((i+1)); [ $i -lt 300 ] || break; done",
        # The holder is paused while the others try, so that no run's speed
        # decides the outcome (getset/* takes about a second).
        "kill -STOP $first",
        f"v4l2-conform -d /dev/video0 --out /share/second --only '{QUICK}' > /share/second.log 2>&1",
        "echo $? > /share/second.exit",
        f"(v4l2-conform -d /dev/video0 --out /share/third --only '{QUICK}' --wait > /share/third.log 2>&1;",
        " echo $? > /share/third.exit) &",
        "third=$!",
        "i=0; until grep -qs waiting /share/third.log; do sleep 0.1; i=$((i+1)); [ $i -lt 300 ] || break; done",
        "kill -CONT $first",
        "wait $third",
        "wait $first; echo $? > /share/first.exit",
        "ls -l /share/first/results.json --full-time > /share/first.mtime 2>&1",
    ]) + "\n"
    run = vboard.run_job(script, vboard.BUILD / "vboard" / "pytest-devlock", timeout=600)
    assert not run.hung, "the virtual board hung"
    return run


def text(board, name):
    return (board.share / name).read_text(errors="replace").strip()


def test_second_run_refused_naming_the_holder(board):
    assert text(board, "second.exit") == "2", text(board, "second.log")
    pid = text(board, "first.pid")
    assert re.search(rf"/dev/video0: device in use by pid {pid}\b", text(board, "second.log")), \
        text(board, "second.log")
    assert not (board.share / "second" / "results.json").exists()


def test_wait_runs_after_the_holder(board):
    assert text(board, "third.exit") == "0", text(board, "third.log")
    assert f"device in use by pid {text(board, 'first.pid')}, waiting" in text(board, "third.log")
    assert text(board, "first.exit") in ("0", "1"), text(board, "first.log")
    assert (board.share / "third" / "results.json").exists()
