"""make bench, the media boards (issues 25 and 26, item 6): each board whose
.expect has a `media:` key booted once with run_board.py, v4l2-conform -m and
v4l2-compliance -m on the same boot; the table sets each board's
summary.json `side_by_side` figures beside each other: our checks, failures
and guest time against v4l2-compliance's tests, failures and guest time.
Figures are shown, never asserted."""
import json
from pathlib import Path

# (board, kernel release; "" the default 6.1 build), in the table's order.
MEDIA_BOARDS = [("vimc", ""), ("vicodec", ""), ("visl", "6.12.118+deb12-amd64"), ("uvc-media", "")]

HEADER = ["| board | kernel | v4l2-conform checks | fail | guest time | v4l2-compliance -m tests | failed | guest time "
          "| time ratio |",
          "|---|---|---:|---:|---:|---:|---:|---:|---:|"]


def _s(v):
    return "?" if v is None else f"{v:.1f} s"


def side_by_side_row(summary, kernel=""):
    """One table row from a media board's summary.json (run_board.py); a
    board where v4l2-compliance gave no figures says so in its columns."""
    board = summary.get("board", "?")
    kernel = summary.get("kernel") or kernel or "?"
    sbs = summary.get("side_by_side")
    if not sbs:
        t = summary.get("total", {})
        return (f"| {board} | {kernel} | {t.get('total', '?')} | {t.get('fail', '?')} | ? "
                f"| no figures (v4l2-compliance -m did not run or gave no total) | | | |")
    ours, theirs = sbs["v4l2_conform"], sbs["v4l2_compliance"]
    ratio = (f"{ours['seconds'] / theirs['seconds']:.1f}x"
             if ours.get("seconds") and theirs.get("seconds") else "?")
    return (f"| {board} | {kernel} | {ours['checks']} | {ours['fail']} | {_s(ours.get('seconds'))} "
            f"| {theirs['tests']} | {theirs['failed']} | {_s(theirs.get('seconds'))} | {ratio} |")


def side_by_side_table(summaries):
    """[(summary dict, kernel)] -> the markdown table's lines."""
    return HEADER + [side_by_side_row(s, k) for s, k in summaries]


def read_summary(out: Path):
    """A board run's summary.json, or a stand-in naming the failure."""
    p = Path(out) / "summary.json"
    return json.loads(p.read_text()) if p.exists() else {"board": Path(out).name, "total": {}}


def run_media_boards(root: Path, boot):
    """Boot every media board once into root/BOARD (boot: media_board.boot);
    [(summary, kernel)] in MEDIA_BOARDS order."""
    out = []
    for board, kernel in MEDIA_BOARDS:
        print(f"bench: media board {board} {kernel or '(6.1)'}: v4l2-conform -m beside v4l2-compliance -m",
              flush=True)
        b = boot(board, kernel, Path(root) / board)
        s = b.summary or read_summary(Path(root) / board)
        s.setdefault("board", board)
        out.append((s, kernel))
    return out
