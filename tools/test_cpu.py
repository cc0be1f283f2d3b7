#!/usr/bin/env python3
"""What make test cost, by work unit: wall and host CPU seconds summed from
build/test-cpu/*.tsv (harness/conftest.py writes a line per test: unit,
test, wall, CPU of the worker and every process it waited for), costliest
first. On two cores the CPU total over 2 is the least wall time the run
can take; the units' CPU says where it goes.

    tools/test_cpu.py [DIR]          default build/test-cpu
"""
import sys
from collections import defaultdict
from pathlib import Path


def main(argv):
    d = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "build" / "test-cpu"
    files = sorted(d.glob("*.tsv"))
    if not files:
        print(f"test_cpu: no per-test figures in {d} (run make test first)", file=sys.stderr)
        return 2
    units = defaultdict(lambda: [0.0, 0.0, 0])
    for f in files:
        for line in f.read_text().splitlines():
            unit, _, wall, cpu = line.split("\t")
            u = units[unit]
            u[0] += float(wall)
            u[1] += float(cpu)
            u[2] += 1
    total = sum(u[1] for u in units.values())
    print(f"{'unit':40} {'tests':>5} {'wall s':>8} {'CPU s':>8} {'CPU %':>6}")
    for name, (wall, cpu, n) in sorted(units.items(), key=lambda kv: -kv[1][1]):
        print(f"{name:40} {n:5} {wall:8.1f} {cpu:8.1f} {100 * cpu / total if total else 0:6.1f}")
    print(f"{'total':40} {sum(u[2] for u in units.values()):5} {'':8} {total:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
