"""A guest kernel that crashes in the middle of a board run leaves the
partial results the runner had written and no dmesg.txt: run_board must fail
the run on the console's word, not pass what it got (it once passed the
fixture-requests board with 193 of its 247 checks after an Oops). No board:
run_job is replaced by one that leaves what a crashed boot leaves."""
import json
import shutil

import run_board
import vboard

SMALL = vboard.TOP / "tests" / "fuzz" / "corpus" / "results" / "small.json"
OOPS = ("[    7.5] BUG: kernel NULL pointer dereference, address: 0000000000000000\n"
        "[    7.6] Kernel panic - not syncing: Fatal exception\n")


def _crashed_boot(script, share, timeout=600, files=(), **kw):
    if share.exists():
        shutil.rmtree(share)
    (share / "out").mkdir(parents=True)
    data = json.loads(SMALL.read_text())  # every check passed, as far as it got
    for r in data["results"]:
        r["verdict"], r["message"] = "pass", None
    data["summary"] = {"total": len(data["results"]), "pass": len(data["results"]), "fail": 0, "warn": 0, "skip": 0}
    (share / "out" / "results.json").write_text(json.dumps(data))
    (share / "console.log").write_text(OOPS)
    return vboard.BoardRun(share, vboard.CRASHED, 1.0)


def test_crashed_guest_fails_the_run(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(vboard, "run_job", _crashed_boot)
    monkeypatch.setenv("VBOARD_OUT", str(tmp_path / "vboard"))
    (tmp_path / "vboard").mkdir()
    (tmp_path / "vboard" / "kernel.release").write_text("6.1.0-57-amd64\n")
    rc = run_board.main(["--board", "vivid", "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert rc == 1, out[-2000:]
    assert "KERNEL the guest kernel crashed before the job finished: [    7.5] BUG: kernel NULL pointer" in out
