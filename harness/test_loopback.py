"""v4l2loopback on the virtual board (issue 17 item 5), in one boot: Debian's
v4l2loopback-dkms 0.12.7 built against the board kernel's headers, first
with loopback-producer feeding its output side and every suite on the
capture side (board loopback), then reloaded with no producer (board
loopback-idle: the state right after modprobe); on 6.1 and on the newest
Debian build (6.12 too in make test-full). Each must give exactly its
expectations: no failure they do not list, and every deviation they list
still showing (a fixed one is noticed, as run_board.py does for every board).
"""
import fcntl
import fnmatch

import pytest

import vboard
from conftest import parse_v4l2ctl
from results import Expectations, compare, kernel_release, load_results
from run_board import board_files

BOARDS = vboard.TOP / "fixtures" / "boards"
MAIN = BOARDS / "loopback.expect"
IDLE = BOARDS / "loopback-idle.expect"
DEVICE = "/dev/video0"
# Result dir in the share of each board's run.
RUNS = {"loopback": ("out", MAIN), "loopback-idle": ("idle", IDLE)}


# make test: the board's 6.1 and the newest build Debian has (issue 33);
# make test-full adds the newest 6.12 (it adds no kind here).
KERNELS = vboard.board_kernels()


@pytest.fixture(scope="module", params=[k for _, k in KERNELS], ids=[i for i, _ in KERNELS])
def board(request, built):
    with vboard.on_kernel(request.param):
        return _boot(request.param or "default")


def _boot(kernel_name):
    main, idle = Expectations(MAIN), Expectations(IDLE)
    # The module build may install kernel headers (apt-get): one builder at a
    # time with the other test processes (vboard.ensure_built's lock).
    with open(vboard.BUILD / ".ensure-built.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        files = sorted(set(board_files(main, MAIN) + board_files(idle, IDLE)))
    script = vboard.conform_script(device=main.settings["device"], setup=main.settings["setup"],
                                   args=main.settings.get("run-args", ""))
    # The same boot, then: stop the producer, reload the module, the idle board.
    script = script.replace("exit $st\n", "")
    script += "\n".join([
        "kill $(pidof loopback-producer)",
        "i=0; while pidof loopback-producer > /dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done",
        "rmmod v4l2loopback || { echo 'job: rmmod v4l2loopback failed'; exit 4; }",
        f"{idle.settings['setup']} || {{ echo 'job: idle set-up failed'; exit 3; }}",
        "i=0; while [ ! -e %s ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done" % idle.settings["device"],
        f"v4l2-conform -d {idle.settings['device']} --out /share/idle {idle.settings.get('run-args', '')}",
        "echo $? > /share/idle.exit",
        "exit $st",
    ]) + "\n"
    run = vboard.run_job(script, vboard.BUILD / "vboard" / f"pytest-loopback-{kernel_name}", timeout=600, files=files)
    print(f"\nloopback boards: one boot, {run.wall_s:.1f} s wall")
    assert not run.hung, "the virtual board hung"
    return run


@pytest.fixture(scope="module")
def results(board):
    return {name: load_results(board.share / out / "results.json") for name, (out, _) in RUNS.items()}


def test_runs_complete(board, results):
    assert (board.share / "conform.exit").read_text().strip() in ("0", "1")
    assert (board.share / "idle.exit").read_text().strip() in ("0", "1")
    for data in results.values():
        assert data["run"]["driver"] == "v4l2 loopback"
    allow = Expectations(MAIN).kernel_allow + Expectations(IDLE).kernel_allow
    complaints = board.kernel_complaints(allow)
    assert not complaints, complaints


@pytest.mark.parametrize("name", list(RUNS))
def test_exactly_the_listed_deviations(results, name):
    data, exp = results[name], Expectations(RUNS[name][1])
    c = compare(data, exp)
    assert not c["regressions"], "\n".join(f"{r['name']} [{r['rule']}]: {r['message']}" for r in c["regressions"])
    assert not c["fixed"], f"listed in {RUNS[name][1].name} but no longer failing: " + \
        ", ".join(r["name"] for r in c["fixed"])
    kernel = kernel_release(data)
    warned = [r["name"] for r in data["results"] if r["verdict"] == "warn"]
    gone = [glob for v, glob, _, _, kglob in exp.known
            if v == "warn" and exp.applies(kglob, kernel) and not fnmatch.filter(warned, glob)]
    assert not gone, f"warnings listed in {RUNS[name][1].name} that no longer show: {gone}"


def test_probes_saw_frames_and_demand_no_effect(results):
    """The producer's frames reached the probes, and v4l2loopback's controls
    (driver-private: keep_format, sustain_framerate, timeout, timeout_image_io)
    are not required to change the picture (issue 17 item 4)."""
    probes = [r for r in results["loopback"]["results"] if r["name"].startswith("probe/visible-effect/")]
    assert len(probes) == 4, [r["name"] for r in probes]
    for r in probes:
        assert r["verdict"] == "skip" and "capture YUYV 320x240" in r["message"], (r["name"], r["message"])


def test_device_left_as_found(board, results):
    assert {r["name"]: r for r in results["loopback"]["results"]}["run/restore"]["verdict"] == "pass"
    before = parse_v4l2ctl((board.share / "ctrls-before.txt").read_text())
    after = parse_v4l2ctl((board.share / "ctrls-after.txt").read_text())
    assert before and before.keys() == after.keys()
    for cid, c in before.items():
        assert after[cid]["value"] == c["value"], f"{c['name']}: {c['value']} -> {after[cid]['value']}"
