#!/usr/bin/env python3
"""The boots a make test left under build/: wall and host CPU seconds of
each (the board.time vboard.run_job writes beside its console.log), the
costliest first, and their sums. CPU seconds compare two runs made under
different load on a shared host; wall seconds do not.

usage: board_times.py [DIR...]   (default: build)
"""
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


def main(argv=None):
    dirs = (argv if argv is not None else sys.argv[1:]) or [str(TOP / "build")]
    rows = read(dirs)
    for share, wall, cpu in rows:
        print(f"{cpu:7.1f} s CPU {wall:7.1f} s wall  {share}")
    print(f"{sum(r[2] for r in rows):7.1f} s CPU {sum(r[1] for r in rows):7.1f} s wall  {len(rows)} boots")
    return 0


if __name__ == "__main__":
    sys.exit(main())
