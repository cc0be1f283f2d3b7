"""vimc, the kernel's virtual camera pipeline, as a board (issue 26): built
from Debian's linux-source for the board's kernel, tested with
v4l2-conform -m /dev/media0, one boot per kernel (6.1 and 6.12). Zero
unexpected failures; the sub-device nodes really get the control checks;
what does not apply is a skip with the reason the node kind gives; the graph
agrees with its nodes; v4l2-compliance -m ran beside it (media_board.py)."""
import pytest

import media_board

KERNELS = ["", "6.12.118+deb12-amd64"]
SENSORS = ("sensor-a", "sensor-b")
CAPTURES = ("raw-capture-0", "raw-capture-1", "rgb-yuv-capture")


@pytest.fixture(scope="module", params=KERNELS, ids=["6.1", "6.12"])
def vimc(request, built, tmp_path_factory):
    return media_board.boot("vimc", request.param, tmp_path_factory.mktemp("vimc"))


def test_no_unexpected_failure(vimc):
    media_board.assert_no_unexpected_failure(vimc)
    assert vimc.summary["total"]["fail"] == 0   # vimc.expect lists no deviation


def test_graph_agrees_with_every_node(vimc):
    media_board.assert_graph_agrees(vimc, 11)   # 8 sub-devices, 3 capture nodes


def test_sensor_subdev_controls_are_checked(vimc):
    for node in SENSORS:
        r = vimc.results(node)
        passed = {x["name"] for x in r if x["verdict"] == "pass"}
        assert "getset/out-of-range/brightness" in passed and "events/ch-value/contrast" in passed, node
        # SD-3, and the request checks: a sub-device node has no buffer queue
        # to take a request (request/no-support runs)
        skips = {x["message"] for x in r if x["verdict"] == "skip"}
        assert all(s.startswith(("a sub-device node", "the node does not support requests")) for s in skips), skips
        assert {x["name"]: x["verdict"] for x in r}["request/no-support"] == "pass", node


def test_capture_nodes_without_controls_skip_with_the_reason(vimc):
    for node in CAPTURES:
        r = vimc.results(node)
        by = {x["name"]: x for x in r}
        for name in ("getset/nonexistent/device", "ext/count-zero/device", "enum/next-ctrl-walk/device",
                     "events/unknown-id/device"):
            assert by[name]["verdict"] == "skip" and "no control ioctls" in by[name]["message"], (node, name)
        assert not any(x["verdict"] == "fail" for x in r)


def test_side_by_side_with_compliance(vimc):
    media_board.assert_side_by_side(vimc, 500)
