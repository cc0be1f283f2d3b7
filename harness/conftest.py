"""pytest harness of v4l2-conform: orchestration and end-to-end tests of the
suite on the virtual board. The checks themselves are C (suites/)."""
import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "reports"))

import vboard  # noqa: E402

SPEC = HERE.parent / "spec" / "controls-checklist.md"  # the rule book lives in the repository


@pytest.fixture(scope="session")
def built():
    """The suite binary and the initramfs, built once per session."""
    vboard.ensure_built()
    return vboard.BUILD


@pytest.fixture(scope="session")
def spec_rules():
    """Every rule id the spec defines (QC-1, SC-6, ...)."""
    text = SPEC.read_text()
    rules = set(re.findall(r"^\| ([A-Z]{2,3}-\d+) \|", text, re.M))
    # Whole sections are cited as S<n> (section 18: how vivid's controls map to pixels).
    rules |= {f"S{n}" for n in re.findall(r"^## (\d+)\.", text, re.M)}
    # Rule rows kept in the repository (spec/rules-lifecycle.md: LC-n) until
    # they move into the rule book.
    for extra in sorted((HERE.parent / "spec").glob("*.md")):
        rules |= set(re.findall(r"^\| ([A-Z]{2,3}-\d+) \|", extra.read_text(), re.M))
    return rules


def parse_v4l2ctl(text):
    """v4l2-ctl --list-ctrls lines -> {id: {'name', 'type', 'flags', 'value'}}: an
    oracle independent of the suite's own enumeration."""
    ctrls = {}
    for m in re.finditer(r"^\s*(\S+) (0x[0-9a-f]{8}) \((\w+)\)\s*:(.*)$", text, re.M):
        rest = m.group(4)
        flags = re.search(r"flags=(.*)$", rest)
        value = re.search(r"value=(\S+)", rest)
        ctrls[int(m.group(2), 16)] = {"name": m.group(1), "type": m.group(3),
                                      "flags": [f.strip() for f in flags.group(1).split(",")] if flags else [],
                                      "value": value.group(1) if value else None, "line": m.group(0).strip()}
    return ctrls
