#!/usr/bin/env python3
"""Coverage-guided fuzzing of the Python readers (no fuzzing package in
Debian 12 for Python: atheris is not packaged).

  results  reports/results.py parse_results, then every writer on what it
           accepted: JUnit (must re-parse as XML), TAP (every line a TAP
           line), HTML (no tag the report does not write), compare
  expect   Expectations.parse_text (board .expect files), then expected()
           and compare() with what it accepted

An input is a crash when the reader raises anything but BadInput (a
malformed file must be one line naming the problem, never a traceback), or
a writer fails on what the reader accepted. Inputs that reach new lines of
reports/*.py join the corpus; crashes are written to the crash folder.

usage: fuzz_readers.py results|expect SECONDS [--corpus DIR] [--out DIR] [--crashes DIR] [--seed N]
exit: 0 no crash, 1 crashes found, 2 bad usage
"""
import argparse
import hashlib
import json
import random
import sys
import time
import traceback
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
REPORTS = TOP / "reports"
sys.path.insert(0, str(REPORTS))
import html_report  # noqa: E402
import junit  # noqa: E402
import tap  # noqa: E402
from results import BadInput, Expectations, compare, parse_results  # noqa: E402

TOKENS = {
    "results": [b"{", b"}", b"[", b"]", b'"', b":", b",", b"null", b"true", b"false", b"1e999", b"-0", b"1.5",
                b"NaN", b"Infinity", b"99999999999999999999999", b'"\\ud800"', b'"\\u0000"', b"\\", b'"name"',
                b'"verdict"', b'"pass"', b'"fail"', b'"warn"', b'"skip"', b'"series"', b'"measurements"',
                b'"artifacts"', b'"run"', b'"results"', b'"summary"', b'"message"', b'"suite"', b'"rule"',
                b'"duration_s"', b'"ctrl_id"', b'"artifacts/a.ppm"', b"\xff", b"\xed\xa0\x80", b"<script>", b"]]>"],
    "expect": [b"fail ", b"warn ", b"kernel-allow:", b"setup:", b"device:", b"run-args:", b"board:", b"kernel:",
               b"#", b"*", b"?", b"[", b"]", b"[!", b"\\", b"(", b")", b"\n", b"\r\n", b" ", b"\t", b":", b"\xff",
               b"\x00", b"enum/query/*", b"SC-6", b"(?P<", b"{1,", b"\\d"],
}


class Tags(HTMLParser):
    WRITTEN = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "b", "table", "tr", "th", "td",
               "span", "svg", "text", "polyline", "circle", "figure", "img", "figcaption", "a"}

    def handle_starttag(self, tag, attrs):
        if tag not in self.WRITTEN or any(k.startswith("on") for k, _ in attrs):
            raise AssertionError(f"HTML: unexpected <{tag} {attrs}>")


def target_results(raw, tmp):
    try:
        data = parse_results(raw, "fuzz.json")
    except BadInput:
        return
    ET.fromstring(ET.tostring(junit.to_junit(data).getroot(), encoding="utf-8"))
    lines = tap.to_tap(data).splitlines()
    if lines[1] != f"1..{len(data['results'])}":
        raise AssertionError("TAP: wrong plan")
    for line in lines[2:]:
        if not line.startswith(("ok ", "not ok ", "# ", "  ")):
            raise AssertionError(f"TAP: not a TAP line: {line!r}")
    Tags().feed(html_report.render(data, tmp, Expectations(), {}))
    compare(data, Expectations(), data)


SAMPLE = {"run": {}, "results": [{"name": "enum/query/x", "verdict": "fail"}, {"name": "a/b", "verdict": "warn"}]}


def target_expect(raw, tmp):
    e = Expectations()
    try:
        e.parse_text(raw, "fuzz.expect")
    except BadInput as x:
        if "\n" in str(x).rstrip("\n").split(": got: ")[0]:
            raise AssertionError("a rejection must be one line")
        return
    e.expected("enum/query/x", "fail")
    compare(SAMPLE, e, SAMPLE)


TARGETS = {"results": target_results, "expect": target_expect}


class Coverage:
    """Lines of reports/*.py reached (sys.settrace, only in those files)."""

    def __init__(self):
        self.seen = set()
        self.now = set()
        self.prefix = str(REPORTS)

    def _local(self, frame, event, arg):
        if event == "line":
            self.now.add((frame.f_code.co_filename, frame.f_lineno))
        return self._local

    def _global(self, frame, event, arg):
        return self._local if frame.f_code.co_filename.startswith(self.prefix) else None

    def run(self, fn, *args):
        self.now = set()
        sys.settrace(self._global)
        try:
            fn(*args)
        finally:
            sys.settrace(None)
        new = self.now - self.seen
        self.seen |= self.now
        return bool(new)


def mutate(data, corpus, tokens, rnd):
    b = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        op = rnd.randrange(7)
        pos = rnd.randint(0, len(b))
        if op == 0 and b:
            i = rnd.randrange(len(b))
            b[i] ^= 1 << rnd.randrange(8)
        elif op == 1:
            b[pos:pos] = bytes([rnd.randrange(256)])
        elif op == 2 and b:
            del b[pos:pos + rnd.randint(1, 16)]
        elif op == 3:
            b[pos:pos] = rnd.choice(tokens)
        elif op == 4 and b:
            i = rnd.randrange(len(b))
            b[pos:pos] = b[i:i + rnd.randint(1, 32)]
        elif op == 5:
            other = rnd.choice(corpus)
            i = rnd.randint(0, len(other))
            b = b[:pos] + other[i:i + rnd.randint(1, 64)] + b[pos:]
        elif op == 6 and b:
            i = rnd.randrange(len(b))
            b[i] = rnd.choice(b"0123456789-.eE\"\\{}[],:#* \n\x00\x7f\xc3\xff")
    return bytes(b[:1 << 16])


def mutate_json(data, rnd):
    """A structural mutation of a results file that still parses as JSON:
    one value somewhere replaced by another type or a hostile string."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return None
    values = [None, True, 0, -1, 1e308, 2 ** 70, "", "x", "\x00\x1b<script>]]>\ud800", [], {}, [[1, 2]],
              [{"name": "n", "value": None}], {"s": [[0, None]]}, "pass", "fail", "artifacts/../../etc/passwd"]
    holders = []

    def walk(x):
        if isinstance(x, dict):
            for k in x:
                holders.append((x, k))
                walk(x[k])
        elif isinstance(x, list):
            for i in range(len(x)):
                holders.append((x, i))
                walk(x[i])
    walk(doc)
    if not holders:
        return None
    h, k = rnd.choice(holders)
    h[k] = rnd.choice(values)
    return json.dumps(doc, ensure_ascii=rnd.random() < 0.5).encode("utf-8", "surrogatepass")


def main(argv=None):
    ap = argparse.ArgumentParser(description="fuzz the Python readers")
    ap.add_argument("target", choices=sorted(TARGETS))
    ap.add_argument("seconds", type=float)
    ap.add_argument("--corpus", help="seed inputs (default tests/fuzz/corpus/TARGET)")
    ap.add_argument("--out", help="write new coverage inputs here (default: not kept)")
    ap.add_argument("--crashes", default="build/fuzz/crashes")
    ap.add_argument("--seed", type=int, default=None)
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    seed = a.seed if a.seed is not None else int(time.time())
    rnd = random.Random(seed)
    fn = TARGETS[a.target]
    corpus_dir = Path(a.corpus or TOP / "tests" / "fuzz" / "corpus" / a.target)
    corpus = [p.read_bytes() for p in sorted(corpus_dir.glob("*")) if p.is_file()] or [b""]
    crashes = Path(a.crashes)
    tmp = Path("/nonexistent-fuzz-dir")  # thumbnails look only inside it
    cov = Coverage()
    found, runs, t0 = {}, 0, time.monotonic()

    def one(data):
        nonlocal runs
        runs += 1
        try:
            return cov.run(fn, data, tmp)
        except Exception as e:  # noqa: BLE001 - every exception but BadInput is the finding
            tb = traceback.extract_tb(e.__traceback__)[-1]
            key = (type(e).__name__, tb.filename, tb.lineno)
            if key not in found:
                found[key] = data
                crashes.mkdir(parents=True, exist_ok=True)
                name = f"{a.target}-{hashlib.sha1(data).hexdigest()[:12]}"
                (crashes / name).write_bytes(data)
                (crashes / f"{name}.txt").write_text("".join(traceback.format_exception(e)))
                print(f"CRASH {name}: {type(e).__name__}: {e} at {tb.filename}:{tb.lineno}", flush=True)
            return False

    for d in corpus:
        one(d)
    while time.monotonic() - t0 < a.seconds:
        base = rnd.choice(corpus)
        data = (mutate_json(base, rnd) if a.target == "results" and rnd.random() < 0.4 else None) \
            or mutate(base, corpus, TOKENS[a.target], rnd)
        if one(data):
            corpus.append(data)
            if a.out:
                Path(a.out).mkdir(parents=True, exist_ok=True)
                (Path(a.out) / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)
    print(f"fuzz {a.target}: {runs} inputs in {time.monotonic() - t0:.0f} s (seed {seed}), corpus {len(corpus)}, "
          f"{len(cov.seen)} lines reached, {len(found)} distinct crashes")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
