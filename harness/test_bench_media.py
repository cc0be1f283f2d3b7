"""make bench's table of the media boards (bench/bench_media.py) on stored
summary.json files of real board runs (bench/testdata/: vicodec on 6.1 and
visl on 6.12, each v4l2-conform -m beside v4l2-compliance -m on one boot).
Host only: the bench itself boots four boards and is not run here."""
import json
import sys

import vboard

sys.path.insert(0, str(vboard.TOP / "bench"))
import bench_board  # noqa: E402
import bench_media  # noqa: E402

DATA = vboard.TOP / "bench" / "testdata"


def stored(name):
    return json.loads((DATA / name).read_text())


def cells(row):
    return [c.strip() for c in row.strip().strip("|").split("|")]


def test_a_row_sets_our_figures_beside_compliance():
    s = stored("summary-vicodec-6.1.json")
    row = cells(bench_media.side_by_side_row(s))
    ours, theirs = s["side_by_side"]["v4l2_conform"], s["side_by_side"]["v4l2_compliance"]
    assert row[:4] == ["vicodec", "6.1.0-57-amd64", str(ours["checks"]), str(ours["fail"])]
    assert row[4] == f"{ours['seconds']:.1f} s"
    assert row[5:8] == [str(theirs["tests"]), str(theirs["failed"]), f"{theirs['seconds']:.1f} s"]
    assert row[8] == f"{ours['seconds'] / theirs['seconds']:.1f}x"


def test_the_table_has_one_row_a_board_in_order():
    t = bench_media.side_by_side_table([(stored("summary-vicodec-6.1.json"), ""),
                                        (stored("summary-visl-6.12.json"), "")])
    assert t[:2] == bench_media.HEADER
    assert [cells(r)[:2] for r in t[2:]] == [["vicodec", "6.1.0-57-amd64"], ["visl", "6.12.118+deb12-amd64"]]
    assert all(len(cells(r)) == len(cells(t[0])) for r in t)


def test_a_board_without_compliance_figures_says_so():
    s = stored("summary-visl-6.12.json")
    del s["side_by_side"]
    s.pop("kernel")
    row = cells(bench_media.side_by_side_row(s, "6.12.118+deb12-amd64"))
    assert row[:4] == ["visl", "6.12.118+deb12-amd64", str(s["total"]["total"]), str(s["total"]["fail"])]
    assert row[5].startswith("no figures")


def test_a_board_that_left_no_summary_is_a_row_too(tmp_path):
    s = bench_media.read_summary(tmp_path / "uvc-media")
    row = cells(bench_media.side_by_side_row(s))
    assert row[0] == "uvc-media" and row[5].startswith("no figures")


def test_every_media_board_is_a_media_board():
    for board, kernel in bench_media.MEDIA_BOARDS:
        text = (vboard.TOP / "fixtures" / "boards" / f"{board}.expect").read_text()
        assert "\nmedia: /dev/media" in text, board


def test_the_table_goes_into_the_bench_block(tmp_path):
    t = bench_media.side_by_side_table([(stored("summary-visl-6.12.json"), "")])
    blocks = bench_board.bench_blocks(["x"], [("a", "b")], t)
    assert blocks["media-boards"] == "\n".join(t)
    assert "media-boards" not in bench_board.bench_blocks(["x"], [("a", "b")])


def test_make_test_row_needs_a_cold_cache_to_meet_the_goal(tmp_path):
    """The goals table's make test row: the Makefile's build/make-test.time,
    judged against 10 minutes only when the board cache was empty at the
    start (a clean clone, as CI); missing, it says so."""
    assert bench_board.make_test_time(tmp_path) is None
    assert bench_board.make_test_row(None)[3] == "n/a"
    (tmp_path / "make-test.time").write_text("590 cold abc123 2026-12-06T04:00:00Z\n")
    mt = bench_board.make_test_time(tmp_path)
    assert mt == (590.0, "cold", "abc123") and bench_board.make_test_row(mt)[3] == "yes"
    assert bench_board.make_test_row((610.0, "cold", "x"))[3] == "**no**"
    assert bench_board.make_test_row((300.0, "warm", "x"))[3].startswith("n/a")
