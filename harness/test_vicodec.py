"""vicodec, the kernel's virtual FWHT codec (issue 25), as a board: v4l2-mem2mem
and vicodec built from Debian's linux-source-6.1, tested with
v4l2-conform -m /dev/media0 in one boot, v4l2-compliance -m beside it.
Zero unexpected failures; its three nodes are memory-to-memory (each handle
its own context); the stateless decoder gets the request checks, the
stateful ones the check of a node without requests."""
import pytest

import media_board

# Entity names of v4l2-mem2mem's source and sink ("NAME-source", "NAME-sink")
# share the video device's name, which names the node's results.
STATEFUL = ("stateful-encoder", "stateful-decoder")
STATELESS = "stateless-decoder"


@pytest.fixture(scope="module")
def vicodec(built, tmp_path_factory):
    return media_board.boot("vicodec", "", tmp_path_factory.mktemp("vicodec"))


def test_no_unexpected_failure(vicodec):
    media_board.assert_no_unexpected_failure(vicodec)
    assert vicodec.summary["total"]["fail"] == 0   # vicodec.expect lists no deviation


def test_graph_agrees_with_every_node(vicodec):
    media_board.assert_graph_agrees(vicodec, 3)


def test_every_node_is_m2m_with_contexts_of_its_own(vicodec):
    for node in STATEFUL + (STATELESS,):
        media_board.assert_m2m_contexts(vicodec, node)


def test_request_checks_ran_on_the_stateless_decoder(vicodec):
    media_board.assert_request_checks_ran(vicodec, STATELESS)
    for node in STATEFUL:
        assert vicodec.by_name(node)["request/no-support"]["verdict"] == "pass", node


def test_side_by_side_with_compliance(vicodec):
    media_board.assert_side_by_side(vicodec, 100)
