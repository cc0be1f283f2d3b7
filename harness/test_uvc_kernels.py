"""The uvc board on Debian's 6.12 kernel (issue 12): the well-behaved
emulated camera must give only the board's known uvcvideo deviations there
too (fixtures/boards/uvc.expect, with its @KERNEL entries); what changed
between 6.1 and 6.12 is in fixtures/boards/uvc-6.1-vs-6.12.md. One boot,
make run BOARD=uvc KERNEL=6.12.118+deb12-amd64 as a user types it, minus make.
"""
import os
import subprocess
import sys

import vboard

KERNEL_612 = "6.12.118+deb12-amd64"


def test_well_behaved_camera_on_6_12(built, tmp_path):
    env = dict(os.environ, VBOARD_KERNEL=KERNEL_612)
    env.pop("VBOARD_OUT", None)
    subprocess.run([str(vboard.VBOARD), "build"], env=env, check=True, capture_output=True)
    p = subprocess.run([sys.executable, str(vboard.TOP / "harness" / "run_board.py"), "--board", "uvc",
                        "--out", str(tmp_path)], env=env, capture_output=True, text=True)
    assert f"kernel {KERNEL_612}" in p.stdout, p.stdout[-2000:]
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-1000:]
    assert "NOTE expected failure no longer fails" not in p.stdout, p.stdout[-3000:]
