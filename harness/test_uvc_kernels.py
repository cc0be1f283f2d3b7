"""The uvc board on Debian's newest kernel (issue 33; 6.12 in make test-full,
issue 12): the well-behaved
emulated camera must give only the board's known uvcvideo deviations there
too (fixtures/boards/uvc.expect, with its @KERNEL entries); what changed
between 6.1 and 6.12 is in fixtures/boards/uvc-6.1-vs-6.12.md. One boot,
make run BOARD=uvc KERNEL=<that build> as a user types it, minus make.
"""
import os
import subprocess
import sys

import vboard

import pytest

# The builds are asked of apt when the tests are collected (kbuilds.py).
# make test: the newest 6.12. On the newest kernel (7.3.4 today) the emulated
# camera is disconnected 5 s into the run (uvcvideo 7.3: "Setting an async
# control with a pending operation", then vhci drops the device; not traced
# yet, issue 33): that run is make test-full's, where it fails until it is.
KERNELS = [("6.12", vboard.newest_kernel("6.12"))] + ([("newest", vboard.newest_kernel())] if vboard.FULL else [])


@pytest.mark.parametrize("kernel", [k for _, k in KERNELS], ids=[i for i, _ in KERNELS])
def test_well_behaved_camera(built, tmp_path, kernel):
    env = dict(os.environ, VBOARD_KERNEL=kernel)
    env.pop("VBOARD_OUT", None)
    subprocess.run([str(vboard.VBOARD), "build"], env=env, check=True, capture_output=True)
    p = subprocess.run([sys.executable, str(vboard.TOP / "harness" / "run_board.py"), "--board", "uvc",
                        "--out", str(tmp_path)], env=env, capture_output=True, text=True)
    assert f"kernel {kernel}" in p.stdout, p.stdout[-2000:]
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-1000:]
    assert "NOTE expected failure no longer fails" not in p.stdout, p.stdout[-3000:]
