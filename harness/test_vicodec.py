"""vicodec, the kernel's virtual FWHT codec (issue 25), as a board: v4l2-mem2mem
and vicodec built from Debian's linux-source of the board kernel's series (6.1
and the newest build), tested with v4l2-conform -m /dev/media0 in one boot
per kernel, v4l2-compliance -m beside it.
Zero unexpected failures; its three nodes are memory-to-memory (each handle
its own context); the stateless decoder gets the request checks, the
stateful ones the check of a node without requests."""
import pytest

import media_board
import vboard

# Entity names of v4l2-mem2mem's source and sink ("NAME-source", "NAME-sink")
# share the video device's name, which names the node's results.
STATEFUL = ("stateful-encoder", "stateful-decoder")
STATELESS = "stateless-decoder"


# make test: the board's 6.1 and the newest build Debian has (issue 33);
# make test-full adds the newest 6.12 (it adds no kind here).
KERNELS = vboard.board_kernels()


@pytest.fixture(scope="module", params=[k for _, k in KERNELS], ids=[i for i, _ in KERNELS])
def vicodec(request, built, tmp_path_factory):
    return media_board.boot("vicodec", request.param, tmp_path_factory.mktemp("vicodec"))


def test_no_unexpected_failure(vicodec):
    media_board.assert_no_unexpected_failure(vicodec)
    # vicodec.expect lists no deviation before 7.x (its one is 7.3's, traced there)
    if not vicodec.summary["kernel"].startswith("7."):
        assert vicodec.summary["total"]["fail"] == 0


def test_graph_agrees_with_every_node(vicodec):
    media_board.assert_graph_agrees(vicodec, 3)


def test_every_node_is_m2m_with_contexts_of_its_own(vicodec):
    for node in STATEFUL + (STATELESS,):
        media_board.assert_m2m_contexts(vicodec, node)


def test_request_checks_ran_on_the_stateless_decoder(vicodec):
    # vicodec.expect: on 7.x the queued request's check fails (traced there)
    seven = vicodec.summary["kernel"].startswith("7.")
    media_board.assert_request_checks_ran(vicodec, STATELESS, ("request/queued",) if seven else ())
    for node in STATEFUL:
        assert vicodec.by_name(node)["request/no-support"]["verdict"] == "pass", node


def test_side_by_side_with_compliance(vicodec):
    media_board.assert_side_by_side(vicodec, 100)
