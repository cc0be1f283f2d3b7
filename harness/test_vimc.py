"""vimc, the kernel's virtual camera pipeline, as a board (issue 26): built
from Debian's linux-source for the board's kernel, tested with
v4l2-conform -m /dev/media0, one boot per kernel (6.1 and 6.12). Zero
unexpected failures; the sub-device nodes really get the control checks;
what does not apply is a skip with the reason the node kind gives; the graph
agrees with its nodes; v4l2-compliance -m ran beside it."""
import json
import os
import subprocess
import sys

import pytest

import vboard

KERNELS = ["", "6.12.118+deb12-amd64"]
SENSORS = ("sensor-a", "sensor-b")
CAPTURES = ("raw-capture-0", "raw-capture-1", "rgb-yuv-capture")


@pytest.fixture(scope="module", params=KERNELS, ids=["6.1", "6.12"])
def vimc(request, built, tmp_path_factory):
    out = tmp_path_factory.mktemp("vimc")
    env = dict(os.environ)
    env.pop("VBOARD_OUT", None)
    if request.param:
        env["VBOARD_KERNEL"] = request.param
    subprocess.run([str(vboard.VBOARD), "build"], env=env, check=True, capture_output=True)
    p = subprocess.run([sys.executable, str(vboard.TOP / "harness" / "run_board.py"), "--board", "vimc",
                        "--out", str(out)], env=env, capture_output=True, text=True)
    return p, out, json.loads((out / "summary.json").read_text())


def results(out, node):
    return json.loads((out / node / "results.json").read_text())["results"]


def test_no_unexpected_failure(vimc):
    p, out, summary = vimc
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-1000:]
    assert summary["regressions"] == 0 and summary["total"]["fail"] == 0


def test_graph_agrees_with_every_node(vimc):
    p, out, summary = vimc
    r = results(out, "graph")
    assert len(r) == 22 and all(x["verdict"] == "pass" for x in r), r   # 11 interfaces, MC-1 and MC-2


def test_sensor_subdev_controls_are_checked(vimc):
    p, out, summary = vimc
    for node in SENSORS:
        r = results(out, node)
        passed = {x["name"] for x in r if x["verdict"] == "pass"}
        assert "getset/out-of-range/brightness" in passed and "events/ch-value/contrast" in passed, node
        skips = {x["message"] for x in r if x["verdict"] == "skip"}
        assert all(s.startswith("a sub-device node") for s in skips), skips


def test_capture_nodes_without_controls_skip_with_the_reason(vimc):
    p, out, summary = vimc
    for node in CAPTURES:
        r = results(out, node)
        by = {x["name"]: x for x in r}
        for name in ("getset/nonexistent/device", "ext/count-zero/device", "enum/next-ctrl-walk/device",
                     "events/unknown-id/device"):
            assert by[name]["verdict"] == "skip" and "no control ioctls" in by[name]["message"], (node, name)
        assert not any(x["verdict"] == "fail" for x in r)


def test_side_by_side_with_compliance(vimc):
    p, out, summary = vimc
    s = summary.get("side_by_side")
    assert s and s["v4l2_compliance"]["tests"] > 500, summary
