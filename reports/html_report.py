#!/usr/bin/env python3
"""results.json -> one self-contained HTML report a vendor can hand over:
device, kernel and suite version, the verdict of every requirement with the
spec rule it checks, plots of measured series and thumbnails of saved frames.

usage: html.py RESULTS.json OUT.html [--expect BOARD.expect] [--spec controls-checklist.md]
exit: 0 written, 2 bad input
"""
import argparse
import base64
import html
import math
import re
import sys
from collections import OrderedDict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import png  # noqa: E402
from results import BadInput, Expectations, clean, kernel_release, load_results, printable  # noqa: E402

COLOURS = {"pass": "#2e7d32", "fail": "#c62828", "warn": "#ef6c00", "skip": "#757575"}
CSS = """body{font:14px/1.4 sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}td:first-child{white-space:nowrap}th{background:#f0f0f0}
.v{color:#fff;font-weight:bold;padding:0 6px;border-radius:3px}.msg{font-family:monospace;font-size:12px}
h2{border-bottom:2px solid #444}.known{font-style:italic;color:#555}svg{background:#fafafa;border:1px solid #ddd}
.sign td{height:2em;min-width:14em}"""


def esc(x):
    """Text for the page: printable() (no NUL or escape characters), then
    every character HTML gives a meaning to escaped, quotes included."""
    return html.escape(printable(x if x is not None else ""), quote=True)


# An artifact the report may open and embed: a plain file in artifacts/,
# never a path out of the results folder or a URL (javascript:).
SAFE_ARTIFACT = re.compile(r"artifacts/[A-Za-z0-9_][A-Za-z0-9._-]*")


def num(v):
    return "null" if v is None else f"{v:.4g}"


def badge(v):
    return f'<span class="v" style="background:{COLOURS.get(v, "#000")}">{esc(v)}</span>'


def spec_titles(path):
    """Rule id -> the rule's text, from the checklist's tables."""
    if not path or not Path(path).exists():
        return {}
    titles = {}
    for m in re.finditer(r"^\| ([A-Z]{2,3}-\d+) \| ((?:[^|\\]|\\.)+)\|", Path(path).read_text(encoding="utf-8", errors="replace"), re.M):
        titles[m.group(1)] = m.group(2).replace("\\|", "|").replace("`", "").strip()
    return titles


def svg_plot(name, points, w=320, h=180):
    """A small line chart of one series (control value -> statistic)."""
    if not points:
        return ""
    xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    pad = 30

    def scale(v, lo, hi, px):
        """v's place between lo and hi in px pixels; a flat or unrepresentable
        span (1e308 and its neighbour) puts every point at the start."""
        span = hi - lo
        if not (span > 0 and math.isfinite(span)):
            return 0.0
        return (v - lo) / span * px

    def sx(x):
        return pad + scale(x, x0, x1, w - 2 * pad)

    def sy(y):
        return h - pad - scale(y, y0, y1, h - 2 * pad)
    path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in points)
    dots = "".join(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="2.5"/>' for x, y in points)
    return (f'<svg width="{w}" height="{h}" xmlns="http://www.w3.org/2000/svg">'
            f'<text x="{pad}" y="14" font-size="11">{esc(name)}</text>'
            f'<polyline fill="none" stroke="#1565c0" stroke-width="1.5" points="{path}"/>{dots}'
            f'<text x="2" y="{sy(y1) + 4:.0f}" font-size="9">{y1:.4g}</text>'
            f'<text x="2" y="{sy(y0):.0f}" font-size="9">{y0:.4g}</text>'
            f'<text x="{pad}" y="{h - 8}" font-size="9">{x0:.4g}</text>'
            f'<text x="{w - pad - 20}" y="{h - 8}" font-size="9">{x1:.4g}</text></svg>')


def thumbnail(base, rel):
    if not isinstance(rel, str) or not SAFE_ARTIFACT.fullmatch(rel):
        return f'<span class="msg">{esc(rel)} (not a file name in artifacts/: not shown)</span>'
    p = base / rel
    if not p.is_file():
        return f'<span class="msg">{esc(rel)} (missing)</span>'
    data = p.read_bytes()
    try:
        if data[:2] in (b"P5", b"P6"):
            data = png.png_bytes(*png.read_pnm(data), scale_to=240)
        elif data[:8] != b"\x89PNG\r\n\x1a\n":
            return f'<a href="{esc(rel)}">{esc(rel)}</a>'
    except (ValueError, IndexError):
        return f'<a href="{esc(rel)}">{esc(rel)}</a>'
    return (f'<figure style="display:inline-block;margin:4px"><img width="240" alt="{esc(rel)}" '
            f'src="data:image/png;base64,{base64.b64encode(data).decode()}"><figcaption class="msg">{esc(Path(rel).name)}'
            f'</figcaption></figure>')


def doc_refs(path):
    """Rule id -> [(kernel, file, line 6.1, line 6.12, statement)] from the
    traceability matrix (spec/coverage.tsv), in documentation order."""
    if not path or not Path(path).exists():
        return {}
    refs = {}
    lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    head = lines[0].split("\t") if lines else []
    for line in lines[1:]:
        r = dict(zip(head, line.split("\t")))
        for rule in r.get("rules", "").split():
            refs.setdefault(rule, []).append(r)
    return refs


def doc_cell(rows, kernel, most=3, book=None):
    """Where the rule is written, for the kernel under test: 'file:line: statement',
    in the documentation of the rule book the run judged by (run.rule_book;
    older results: the kernel's own series)."""
    k = book or ("6.12" if str(kernel or "").startswith("6.12") else "6.1")
    col = {"6.12": "line_6.12", "7.3": "line_7.3"}.get(k, "line")
    out = []
    for r in rows[:most]:
        line = r.get(col) or r.get("line")
        out.append(f"{esc(r.get('file'))}:{esc(line)} &mdash; {esc(r.get('statement'))}")
    more = f" (+{len(rows) - most} more)" if len(rows) > most else ""
    return "<br>".join(out) + more


def render(data, base, expect=None, titles=None, docs=None):
    data = clean(data)
    titles = titles or {}
    docs = docs or {}
    run, s = data["run"], data.get("summary") or {}
    rs = data["results"]
    kernel = kernel_release(data)
    known = {r["name"] for r in rs if expect and r["verdict"] == "fail" and expect.expected(r["name"], "fail", kernel)}
    unexpected = s.get("fail", 0) - len(known)
    overall = "PASS" if not s.get("fail") else ("PASS with known deviations" if unexpected == 0 else "FAIL")
    o = [f"<!doctype html><html><head><meta charset='utf-8'><title>V4L2 control conformance: {esc(run.get('card'))}"
         f"</title><style>{CSS}</style></head><body>",
         "<h1>V4L2 control conformance report</h1>",
         f"<p>Overall verdict: <b style='color:{COLOURS['pass' if overall.startswith('PASS') else 'fail']}'>"
         f"{overall}</b></p><table>"]
    for k, label in (("device", "Device node"), ("driver", "Driver"), ("card", "Card"), ("bus_info", "Bus"),
                     ("driver_version", "Driver version"), ("kernel", "Kernel"),
                     ("rule_book", "Rule book (kernel series judged by)"), ("suite_version", "v4l2-conform"),
                     ("started", "Run started (UTC)"), ("duration_s", "Duration (s)"), ("host", "Host")):
        o.append(f"<tr><th>{label}</th><td>{esc(run.get(k))}</td></tr>")
    o.append("</table><p>")
    o.append(" ".join(f"{badge(v)} {s.get(v, 0)}" for v in ("pass", "fail", "warn", "skip")))
    o.append(f" &mdash; {s.get('total', 0)} checks"
             + (f", {len(known)} failures listed as known deviations of this board" if known else "") + "</p>")

    # Requirements: every rule cited, with its verdicts.
    by_rule = OrderedDict()
    for r in rs:
        by_rule.setdefault(r.get("rule") or "-", []).append(r)
    o.append("<h2>Requirements</h2><p>Documentation: Documentation/userspace-api/media/ of the kernel under test, "
             "file and line of each statement the rule enforces (spec/coverage.tsv).</p>"
             "<table><tr><th>Rule</th><th>Requirement</th><th>Documentation</th><th>Checks</th><th>Verdict</th></tr>")
    for rule in sorted(by_rule, key=lambda x: (re.sub(r"\d+", "", x), int(re.sub(r"\D", "", x) or 0))):
        group = by_rule[rule]
        counts = {v: sum(r["verdict"] == v for r in group) for v in COLOURS}
        worst = next((v for v in ("fail", "warn", "pass", "skip") if counts[v]), "skip")
        o.append(f"<tr><td>{esc(rule)}</td><td>{esc(titles.get(rule, group[0].get('summary', '')))}</td>"
                 f"<td class='msg'>{doc_cell(docs.get(rule, []), kernel, book=run.get('rule_book'))}</td><td>{len(group)}</td><td>{badge(worst)} "
                 + ", ".join(f"{n} {v}" for v, n in counts.items() if n) + "</td></tr>")
    o.append("</table>")

    suites = OrderedDict()
    for r in rs:
        suites.setdefault(r["suite"], []).append(r)
    for suite, group in suites.items():
        o.append(f"<h2>{esc(suite)}</h2><table><tr><th>Check</th><th>Control</th><th>Rule</th><th>Verdict</th>"
                 "<th>Message</th></tr>")
        for r in group:
            note = ' <span class="known">(known deviation)</span>' if r["name"] in known else ""
            ctrl = f"{r.get('ctrl_name')} ({r.get('ctrl_id_hex')})" if r.get("ctrl_id") else ""
            o.append(f"<tr><td>{esc(r['name'])}</td><td>{esc(ctrl)}</td><td>{esc(r.get('rule'))}</td>"
                     f"<td>{badge(r['verdict'])}{note}</td><td class='msg'>{esc(r.get('message'))}</td></tr>")
            extra = [svg_plot(name, [p for p in pts if None not in p]) for name, pts in (r.get("series") or {}).items()]
            extra += [thumbnail(base, a) for a in r.get("artifacts") or []]
            if r.get("measurements"):
                extra.append("<span class='msg'>" + ", ".join(
                    f"{esc(m['name'])} = {num(m['value'])} {esc(m.get('unit'))}" for m in r["measurements"]) + "</span>")
            if extra:
                o.append(f"<tr><td colspan='5'>{''.join(extra)}</td></tr>")
        o.append("</table>")
    o.append("<h2>Sign-off</h2><table class='sign'><tr><th>Tested by</th><td></td><th>Date</th><td></td></tr>"
             "<tr><th>Approved by</th><td></td><th>Signature</th><td></td></tr></table>")
    o.append("</body></html>")
    return "\n".join(o)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("out")
    ap.add_argument("--expect")
    ap.add_argument("--spec", default=str(Path(__file__).resolve().parents[1] / "spec" /
                                          "controls-checklist.md"))
    ap.add_argument("--coverage", default=str(Path(__file__).resolve().parents[1] / "spec" / "coverage.tsv"),
                    help="the traceability matrix: per rule, the documentation line it comes from")
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        data = load_results(a.results)
        exp = Expectations(a.expect) if a.expect else None
    except BadInput as e:
        print(f"html: {e}", file=sys.stderr)
        return 2
    Path(a.out).write_text(render(data, Path(a.results).parent, exp, spec_titles(a.spec),
                                   doc_refs(a.coverage)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
