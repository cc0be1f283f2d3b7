#!/usr/bin/env python3
"""The boots a make test left under build/: wall and host CPU seconds of
each (the board.time vboard.run_job writes beside its console.log), the
costliest first, and their sums. CPU seconds compare two runs made under
different load on a shared host; wall seconds do not.

usage: board_times.py [DIR...]   (default: build)
       board_times.py --variants [DIR]   (default: build/vboard) the guest
       seconds of every variant of the last fixture and uvc fault boots, as
       harness/batch-seconds.tsv lists them (its rows, to replace them)
"""
import re
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent


def read(dirs):
    """[(share dir, wall s, cpu s)] of every board.time below dirs."""
    out = []
    for d in dirs:
        for p in sorted(Path(d).rglob("board.time")):
            f = p.read_text().split()
            out.append((p.parent, float(f[1]), float(f[3])))
    return sorted(out, key=lambda r: -r[2])


# The batched boots' run dirs (test_fixture_bugs.py, test_uvc_faults.py) by
# kind; the fixture's have one folder per kernel release below them.
VARIANT_DIRS = {"fixture": "pytest-fixture", "uvc": "pytest-uvc-faults"}


# The fixture's default kernel series: its rows are kind 'fixture'; another
# kernel's are 'fixture@X.Y' (board_batches.read_costs).
DEFAULT_SERIES = "6.1"


def variants(root):
    """[(kind, name, guest seconds)] of every variant's run (res/NAME/t0, t1),
    the longest where it ran in several boots; a fixture boot of a kernel
    other than 6.1 (pytest-fixture/RELEASE/) gives kind 'fixture@X.Y'."""
    out = {}
    for kind, sub in VARIANT_DIRS.items():
        for d in sorted([*Path(root, sub).glob("batch*/res/*"), *Path(root, sub).glob("*/batch*/res/*")]):
            t0, t1 = d / "t0", d / "t1"
            k = kind
            m = re.match(r"(\d+\.\d+)", d.parent.parent.parent.name) if d.parent.parent.parent.name != sub else None
            if m and m.group(1) != DEFAULT_SERIES:
                k = f"{kind}@{m.group(1)}"
            if t0.exists() and t1.exists():
                secs = float(t1.read_text()) - float(t0.read_text())
                out[k, d.name] = max(secs, out.get((k, d.name), 0.0))
    return [(k, n, s) for (k, n), s in sorted(out.items())]


def main(argv=None):
    argv = list(argv if argv is not None else sys.argv[1:])
    if argv[:1] == ["--variants"]:
        for kind, name, secs in variants(argv[1] if len(argv) > 1 else TOP / "build" / "vboard"):
            print(f"{kind}\t{name}\t{secs:.1f}")
        return 0
    dirs = argv or [str(TOP / "build")]
    rows = read(dirs)
    for share, wall, cpu in rows:
        print(f"{cpu:7.1f} s CPU {wall:7.1f} s wall  {share}")
    print(f"{sum(r[2] for r in rows):7.1f} s CPU {sum(r[1] for r in rows):7.1f} s wall  {len(rows)} boots")
    return 0


if __name__ == "__main__":
    sys.exit(main())
