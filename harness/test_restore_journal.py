"""Journalled restore (issue 14, lib/run/journal.c), on the virtual board with
vivid: a run killed with SIGKILL (runner and checks, during the probes, which
stream) leaves controls changed; `v4l2-conform --restore` puts every writable
control back from the journal, and a new run on a device with a left-over
journal restores it first and says so. In the same boot, the journal's media
pipeline part on the fixture's sensor sub-device (journal_pipe_board.py)."""
import re

import pytest

import journal_pipe_board as jp
import vboard
from conftest import parse_v4l2ctl
from results import Expectations

EXPECT = vboard.TOP / "fixtures" / "boards" / "vivid.expect"
# Seconds into the probe run, which lasts about 15 s on vivid (13 s of it
# frames at 25 a second, whatever the host's speed): every kill lands while
# a probe streams with controls changed.
KILL_AT = (3, 6, 9)
RECOVER_AT = 5            # killed, then a new run recovers


@pytest.fixture(scope="module")
def board(built):
    exp = Expectations(EXPECT)
    args = exp.settings["run-args"]
    lines = ["set -u", f"{exp.settings['setup']} || exit 3",
             "i=0; while [ ! -e /dev/video0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done",
             "v4l2-ctl -d /dev/video0 --list-ctrls > /share/before.txt 2>&1",
             "kill_run() {  # $1: seconds; the runner in its own process group, killed with its checks",
             "  t=$1",
             f"  setsid v4l2-conform -d /dev/video0 --out /share/k$t --only 'probe/*' {args} > /share/k$t.log 2>&1 &",
             # Check runs each check in a process group of its own: kill the
             # whole session (runner and checks), as a board timeout would.
             "  p=$!; sleep $t",
             "  for f in /proc/[0-9]*/stat; do read -r l < $f 2>/dev/null || continue; set -- $l;"
             " [ \"$6\" = \"$p\" ] && kill -9 $1; done",
             "  wait $p 2>/dev/null",
             "  sleep 0.5; v4l2-ctl -d /dev/video0 --list-ctrls > /share/killed-$t.txt 2>&1",
             "  ls /run/v4l2-conform /tmp/v4l2-conform > /share/journal-$t.txt 2>&1",
             "}"]
    for t in KILL_AT:
        lines += [f"kill_run {t}",
                  f"v4l2-conform -d /dev/video0 --restore --wait > /share/restore-{t}.log 2>&1; "
                  f"echo $? > /share/restore-{t}.exit",
                  f"v4l2-ctl -d /dev/video0 --list-ctrls > /share/restored-{t}.txt 2>&1"]
    lines += [f"kill_run {RECOVER_AT}",
              f"v4l2-conform -d /dev/video0 --out /share/next --only 'enum/query/brightness' {args} "
              "> /share/next.log 2>&1; echo $? > /share/next.exit",
              "v4l2-ctl -d /dev/video0 --list-ctrls > /share/after-next.txt 2>&1",
              "v4l2-conform -d /dev/video0 --restore > /share/restore-none.log 2>&1; "
              "echo $? > /share/restore-none.exit"]
    lines += jp.job_lines()
    run = vboard.run_job("\n".join(lines) + "\n", vboard.BUILD / "vboard" / "pytest-journal", timeout=900,
                         files=jp.job_files())
    assert not run.hung, "the virtual board hung"
    return run


def text(board, name):
    return (board.share / name).read_text(errors="replace")


def writable_values(board, name):
    """Values of the controls a run may change (not read-only, volatile or write-only)."""
    return {i: c["value"] for i, c in parse_v4l2ctl(text(board, name)).items()
            if c["value"] is not None and not {"read-only", "volatile", "write-only"} & set(c["flags"])}


def differing(a, b):
    return sorted(i for i in a if a[i] != b.get(i))


@pytest.mark.parametrize("t", KILL_AT)
def test_restore_after_sigkill(board, t):
    before = writable_values(board, "before.txt")
    assert len(before) > 30
    assert "journal" in text(board, f"journal-{t}.txt"), text(board, f"journal-{t}.txt")
    assert text(board, f"restore-{t}.exit").strip() == "0", text(board, f"restore-{t}.log")
    assert re.search(r"restored \d+ controls from the journal of an interrupted run", text(board, f"restore-{t}.log"))
    assert differing(before, writable_values(board, f"restored-{t}.txt")) == []


def test_some_kill_left_the_device_changed(board):
    """Without the journal these would stay changed (the issue's measurement)."""
    before = writable_values(board, "before.txt")
    changed = {t: differing(before, writable_values(board, f"killed-{t}.txt")) for t in KILL_AT + (RECOVER_AT,)}
    assert any(changed.values()), changed


def test_next_run_recovers_first(board):
    assert text(board, "next.exit").strip() == "0", text(board, "next.log")
    assert re.search(r"/dev/video0: restored \d+ controls from the journal of an interrupted run \(pid \d+",
                     text(board, "next.log")), text(board, "next.log")
    assert differing(writable_values(board, "before.txt"), writable_values(board, "after-next.txt")) == []
    # The finished run deleted its journal: nothing left to restore.
    assert text(board, "restore-none.exit").strip() == "0"
    assert "no restore journal" in text(board, "restore-none.log")


def test_pipeline_kill_left_it_changed(board):
    jp.check_kill_left_the_pipeline_changed(board)


def test_pipeline_restore_sets_it_back(board):
    """--restore on the sensor's node sets the journal's pipeline back."""
    jp.check_restore_sets_the_pipeline_back(board)


def test_pipeline_next_run_restores_it_first(board):
    jp.check_next_run_restores_the_pipeline_first(board)
