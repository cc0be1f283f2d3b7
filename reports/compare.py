#!/usr/bin/env python3
"""Compare a run with its board's expectations (and optionally a baseline run):
print the regressions, not a wall of known failures.

usage: compare.py RESULTS.json [--expect BOARD.expect] [--baseline OLD.json] [--json OUT]
exit: 0 no regression, 1 regressions or checks that went from a verdict to skip (--baseline), 2 bad input
"""
import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import BadInput, Expectations, compare, load_results, skips_line  # noqa: E402


def line(r):
    rule = r.get("rule") or "-"
    msg = r.get("message") or ""
    return f"  {r['name']} [{rule}]{': ' + msg if msg else ''}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--expect")
    ap.add_argument("--baseline")
    ap.add_argument("--json", help="write the classification here")
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        data = load_results(a.results)
        exp = Expectations(a.expect)
        base = load_results(a.baseline) if a.baseline else None
    except BadInput as e:
        print(f"compare: {e}", file=sys.stderr)
        return 2
    c = compare(data, exp, base)
    s = data.get("summary", {})
    print(f"{s.get('total', 0)} checks: {s.get('pass', 0)} pass, {s.get('fail', 0)} fail "
          f"({len(c['expected'])} expected), {s.get('warn', 0)} warn, {skips_line(data)}")
    for key, title in (("regressions", "REGRESSIONS (unexpected failures)"),
                       ("new_skips", "NO LONGER JUDGED (pass/fail in the baseline, skip now)"),
                       ("expected", "expected failures (known deviations of this board)"),
                       ("fixed", "expected failures that no longer fail (update the expectations)"),
                       ("new_warnings", "warnings not listed for this board"),
                       ("missing", "checks in the baseline that did not run")):
        if c[key]:
            print(f"{title}: {len(c[key])}")
            for r in c[key]:
                print(line(r))
    if a.json:
        Path(a.json).write_text(json.dumps({k: [r["name"] for r in v] for k, v in c.items()}, indent=1))
    return 1 if c["regressions"] or c["new_skips"] else 0


if __name__ == "__main__":
    sys.exit(main())
