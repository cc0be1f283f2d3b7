"""pytest harness of v4l2-conform: orchestration and end-to-end tests of the
suite on the virtual board. The checks themselves are C (suites/)."""
import os
import re
import resource
import shutil
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "reports"))

import vboard  # noqa: E402

SPEC = HERE.parent / "spec" / "controls-checklist.md"  # the rule book lives in the repository

# make test runs several work units at a time (pytest-xdist, --dist loadgroup,
# the Makefile's PYTEST_PAR). A unit is a test file: its tests share its
# boots through module fixtures, so it must stay on one worker. A file
# whose module fixture boots once per parameter (test_vimc.py: one kernel
# each) is one unit per parameter, which the workers can share out.
SPLIT_BY_PARAM = ("test_vimc.py", "test_vicodec.py", "test_vivid_all.py", "test_loopback.py")
# xdist hands units out in collection order, one to whichever worker runs
# dry. The costliest first (wall seconds of each unit in a make test on the
# machine: the boots, their module builds and downloads), so that the short
# host-only files fill in at the end instead of one worker waiting for the
# other's last long boot. Units not named here come after, in file order.
COSTLIEST_FIRST = (
    "test_fixture_bugs.py", "test_vimc.py-newest", "test_lava.py", "test_uvc_faults.py", "test_vicodec.py-newest",
    "test_vivid_all.py-newest", "test_vicodec.py-6.1", "test_vivid_all.py-6.1", "test_vivid_e2e.py",
    "test_kbisect_board.py", "test_restore_journal.py", "test_visl.py", "test_vimc.py-6.1", "test_coverage.py",
    "test_loopback.py-newest", "test_loopback.py-6.1", "test_device_lock.py", "test_fuzz.py", "test_reports.py",
)


def unit_of(item):
    """The work unit (xdist group) of a collected test."""
    name = Path(str(item.fspath)).name
    callspec = getattr(item, "callspec", None)
    if name in SPLIT_BY_PARAM and callspec is not None:
        # No brackets: xdist finds the group after the last '@' only when
        # no ']' follows it.
        # The kernel's id comes first ("6.1", "newest", "6.12": no '-'); a
        # test's own parameters after it ("6.1-loopback") stay in the
        # kernel's unit, which boots once for all of them.
        return f"{name}-{callspec.id.split('-')[0]}"
    return name


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Each test in its unit's xdist group, the costliest units first
    (before xdist's own hook reads the groups)."""
    rank = {u: i for i, u in enumerate(COSTLIEST_FIRST)}
    for item in items:
        item.add_marker(pytest.mark.xdist_group(unit_of(item)))
    items.sort(key=lambda it: rank.get(unit_of(it), len(rank)))


# What each test cost the host (make test's budget is the machine's two
# cores, so CPU, not wall, is what adds up): wall and CPU seconds of every
# test, its fixtures' set-up included, with the CPU of every process it
# waited for (boards, builds, downloads), one file per xdist worker in
# build/test-cpu/; tools/test_cpu.py sums them by work unit.
CPU_DIR = vboard.BUILD / "test-cpu"


def _cpu_s():
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def pytest_sessionstart(session):
    if "PYTEST_XDIST_WORKER" not in os.environ:
        shutil.rmtree(CPU_DIR, ignore_errors=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    t0, c0 = time.monotonic(), _cpu_s()
    yield
    CPU_DIR.mkdir(parents=True, exist_ok=True)
    with open(CPU_DIR / f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.tsv", "a") as f:
        f.write(f"{unit_of(item)}\t{item.nodeid}\t{time.monotonic() - t0:.1f}\t{_cpu_s() - c0:.1f}\n")


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
