#!/usr/bin/env python3
"""results.json -> TAP 13 (one test point per check; skips as # SKIP, warnings
as passing points with a diagnostic).

usage: tap.py RESULTS.json [OUT.tap]     exit: 0 written, 2 bad input
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import BadInput, clean, load_results  # noqa: E402


def one_line(text):
    """A description or directive: one line, and a '#' escaped (TAP: an
    unescaped '#' starts a directive, so a message holding '# SKIP' would
    turn a failure into a skip)."""
    return " ".join((text or "").split()).replace("\\", "\\\\").replace("#", "\\#")


def to_tap(data):
    data = clean(data)
    rs = data["results"]
    out = ["TAP version 13", f"1..{len(rs)}"]
    for i, r in enumerate(rs, 1):
        desc = one_line(f"{r['name']} [{r.get('rule') or '-'}]")
        msg = one_line(r.get("message"))
        if r["verdict"] == "fail":
            out.append(f"not ok {i} - {desc}")
            # JSON strings are YAML: the message stays one quoted scalar whatever it holds.
            out += ["  ---", f"  message: {json.dumps(r.get('message') or '')}",
                    f"  rule: {json.dumps(r.get('rule') or '')}", "  ..."]
        elif r["verdict"] == "skip":
            out.append(f"ok {i} - {desc} # SKIP {msg}")
        else:
            out.append(f"ok {i} - {desc}")
            if r["verdict"] == "warn":
                out.append(f"# warning: {msg}")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) not in (1, 2):
        print("usage: tap.py RESULTS.json [OUT.tap]", file=sys.stderr)
        return 2
    try:
        text = to_tap(load_results(argv[0]))
    except BadInput as e:
        print(f"tap: {e}", file=sys.stderr)
        return 2
    if len(argv) == 2:
        Path(argv[1]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
