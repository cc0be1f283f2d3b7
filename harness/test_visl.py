"""visl, the kernel's virtual stateless decoder (issue 25), as a board on
the newest kernel: v4l2-mem2mem and visl built from Debian's linux-source of its series, tested with
v4l2-conform -m /dev/media0 in one boot, v4l2-compliance -m beside it.
Zero unexpected failures (the one deviation of visl.expect is the control
framework's); its node is memory-to-memory and gets the request checks; its
codec controls (H.264, HEVC, VP8, VP9, MPEG-2, AV1, FWHT) are enumerated."""
import pytest

import media_board
import vboard

# visl is not in 6.1's source: the newest build Debian has (7.x today, built
# from its linux-source); make test-full adds the newest 6.12.
KERNELS = [("newest", vboard.newest_kernel())] + ([("6.12", vboard.newest_kernel("6.12"))] if vboard.FULL else [])
NODE = "visl"   # its entities: "visl-source", "visl-proc", "visl-sink"


@pytest.fixture(scope="module", params=[k for _, k in KERNELS], ids=[i for i, _ in KERNELS])
def visl(request, built, tmp_path_factory):
    return media_board.boot("visl", request.param, tmp_path_factory.mktemp("visl"))


def test_no_unexpected_failure(visl):
    media_board.assert_no_unexpected_failure(visl)


def test_graph_agrees_with_every_node(visl):
    media_board.assert_graph_agrees(visl, 1)


def test_the_node_is_m2m_with_contexts_of_its_own(visl):
    media_board.assert_m2m_contexts(visl, NODE)


def test_request_checks_ran_on_the_decoder(visl):
    media_board.assert_request_checks_ran(visl, NODE)


def test_codec_controls_are_queried(visl):
    passed = {n for n, r in visl.by_name(NODE).items() if r["verdict"] == "pass"}
    for ctrl in ("h264-sequence-parameter-set", "hevc-sequence-parameter-set", "vp8-frame-parameters",
                 "mpeg-2-sequence-header", "fwht-stateless-parameters"):
        assert f"enum/query/{ctrl}" in passed, ctrl


def test_side_by_side_with_compliance(visl):
    media_board.assert_side_by_side(visl, 40)
