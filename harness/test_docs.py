"""The documentation: the README is a short front door whose guides live in
docs/, every link between them resolves, and make bench finds every block of
figures it rewrites (bench/bench_board.py). Host only."""
import re
import sys

import vboard

sys.path.insert(0, str(vboard.TOP / "bench"))
import bench_board  # noqa: E402

DOCS = [vboard.TOP / "README.md", *sorted((vboard.TOP / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_readme_is_a_front_door():
    text = (vboard.TOP / "README.md").read_text()
    assert len(text.splitlines()) <= 80
    for cmd in ("make run", "make test"):
        assert cmd in text
    for status in ("| 0 |", "| 1 |", "| 2 |", "| 125 |"):
        assert status in text


def test_every_guide_is_linked_from_the_readme():
    text = (vboard.TOP / "README.md").read_text()
    for doc in DOCS[1:]:
        assert f"docs/{doc.name}" in text or any(f"({doc.name}" in d.read_text() for d in DOCS[1:] if d != doc), \
            f"nothing links docs/{doc.name}"


def test_every_relative_link_resolves():
    broken = []
    for doc in DOCS:
        for target in LINK.findall(doc.read_text()):
            if "://" in target:
                continue
            if not (doc.parent / target).exists():
                broken.append(f"{doc.relative_to(vboard.TOP)}: {target}")
    assert broken == []


def test_make_bench_finds_every_block(tmp_path):
    """Every block make bench writes is in exactly one of its documents, and
    rewriting a copy of them changes that block only."""
    blocks = bench_board.bench_blocks(["v4l2-conform x: excerpt"], [("a figure", "**1.0x**")],
                                      ["| board | x |", "|---|---|", "| vimc | 1 |"])
    copies = []
    for doc in bench_board.DOCS:
        c = tmp_path / doc.name
        c.write_text(doc.read_text())
        copies.append(c)
    for name in blocks:
        holders = [d for d in bench_board.DOCS if f"<!-- bench:{name}:begin -->" in d.read_text()]
        assert len(holders) == 1, f"bench block '{name}' in {holders}"
    bench_board.update_docs(copies, blocks)
    joined = "".join(c.read_text() for c in copies)
    assert "v4l2-conform x: excerpt" in joined and "| a figure | **1.0x** |" in joined and "| vimc | 1 |" in joined
