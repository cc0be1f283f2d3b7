"""The rule book lives in the repository (spec/controls-checklist.md): a clean
clone needs nothing beside it. Every rule a check cites is defined there, and
nothing reads a rule book outside the tree. Host only."""
import re
import subprocess

import vboard

CONFORM = vboard.BUILD / "bin" / "v4l2-conform"


def test_every_cited_rule_is_in_the_book(spec_rules, built):
    listing = subprocess.run([str(CONFORM), "--list"], capture_output=True, text=True, check=True).stdout
    cited = set(re.findall(r"^\S+\s+([A-Z]{2,3}-\d+|S\d+)\s", listing, re.M))
    assert len(cited) > 50
    assert sorted(cited - spec_rules) == []


def test_the_book_marks_kernel_differences():
    text = (vboard.TOP / "spec" / "controls-checklist.md").read_text()
    assert re.search(r"^## 15\. 6\.1 versus 6\.12", text, re.M)
    for rid in ("QM-7", "QC-17", "EX-19"):
        row = next(line for line in text.splitlines() if line.startswith(f"| {rid} |"))
        assert "6.12" in row, rid
    # The third covered kernel (issue 33): its rows cite the 7.3 files.
    assert re.search(r"^## 15\. 6\.1 versus 6\.12 versus 7\.3", text, re.M)
    for rid in ("EX-19", "EX-23", "EX-26", "QC-21", "FL-16", "CP-4"):
        row = next(line for line in text.splitlines() if line.startswith(f"| {rid} |"))
        assert "7.3" in row and re.search(r"\.(rst|c):\d+", row), rid


def test_nothing_reads_a_book_outside_the_tree():
    for d in ("harness", "reports", "lava-jobs", "tools", "fixtures", "suites", "lib"):
        for p in (vboard.TOP / d).rglob("*"):
            if p.is_file() and p.suffix in (".py", ".sh", ".c", ".h", ".mk", "") and p.stat().st_size < 1_000_000 \
                    and p.name != "test_spec.py":
                t = p.read_text(errors="replace")
                assert not re.search(r"""shared['"]?\s*/\s*['"]?spec""", t), p  # ../shared/spec, "shared" / "spec"
