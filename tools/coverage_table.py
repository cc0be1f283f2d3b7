#!/usr/bin/env python3
"""Refresh the derived columns of spec/coverage.tsv, the traceability matrix
from the kernel's control documentation to the suite (issue 23).

  tools/coverage_table.py [--ksrc-6.1 DIR] [--ksrc-6.12 DIR] [--ksrc-7.3 DIR] [--conform BIN] [--check]

Hand-written columns: file, statement, rules, constants, anchor, and, in
`checks`, an 'untestable: why' or 'pending: who' verdict. The anchor is a
literal piece of the documentation line the statement starts on ('#2' at
the end: its second occurrence); the line numbers and the kernels the
statement is in are found from it in the three extracted trees (6.1, 6.12,
7.3; `kernel` is 'all', or the series joined with '+', e.g. '7.3'). `checks` (the
checks that cite one of the rules, from `v4l2-conform --list`), `negative`
(the fixture bugs of bugs.tsv, or the no-negative-case.tsv verdict, that make
each check fail) and `status` are derived. --check: exit 1 if the file is
not up to date (for a hand edit), without writing it."""
import argparse
import fnmatch
import re
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
TABLE = TOP / "spec" / "coverage.tsv"
FIXTURE = TOP / "fixtures" / "drivers" / "v4l2c-fixture"
DOCS = "Documentation/userspace-api/media/"
COLUMNS = ["kernel", "file", "line", "line_6.12", "line_7.3", "statement", "rules", "checks", "negative", "status",
           "constants", "anchor"]
KERNELS = ("6.1", "6.12", "7.3")


def kernels_of(value):
    """The series a row's `kernel` column names: 'all', or 'A+B'."""
    return KERNELS if value == "all" else tuple(value.split("+"))
VERDICTS = ("untestable", "pending")
# Checks that enforce a rule beyond the one they cite in --list (each one
# asserts with that rule id in its message: grep the id in suites/).
ALSO = {
    "QC-2": ["getset/nonexistent"],
    "QC-5": ["enum/next-ctrl-walk", "enum/next-ext-walk"],
    "QC-9": ["enum/query"], "QC-10": ["enum/query"], "QC-14": ["enum/query"], "QC-19": ["enum/query"],
    "QC-12": ["enum/range"], "QC-16": ["enum/range"],
    "QC-15": ["enum/qc-vs-qext"],
    "QC-17": ["enum/flags"], "FL-6": ["enum/flags"],
    "FL-1": ["enum/private-aliases"],  # the DISABLED footnote: EINVAL cannot skip a private control
    "QM-5": ["menu/items"],
    "RQ-3": ["request/deferred", "request/queued"],  # G of an unqueued or queued request: EACCES
    "SC-8": ["getset/roundtrip"],
    "EX-9": ["cluster/grabbed"], "FL-2": ["cluster/grabbed"],
    "PE-3": ["values/query-stable", "events/input-change"],
    "MC-3": ["run/pipeline-streams"], "SD-8": ["run/pipeline-streams"], "SD-9": ["run/pipeline-streams"],
    "LC-8": ["lifecycle/runtime-suspend"],  # its M2M branch: a context across runtime suspend
    "QC-22": ["enum/flags", "enum/query"],  # a flag or type the running kernel's rule book cannot have
    "EX-27": ["ext/min-max-which"],  # count 0 with MIN/MAX_VAL on a kernel that has them
}
# Checks the runner adds after the suites, which --list does not show (a
# sensor sub-device's routes, lib/run/run_pipe.c; the media graph's, -m,
# lib/run/media_run.c), with the rule each cites.
RUN_CHECKS = {"run/pipeline-streams": "SD-6", "run/pipeline-restored": "SD-7",
              "graph/node-exists": "MC-1", "graph/node-is-entity": "MC-2"}


def read_table(path=TABLE):
    lines = [l for l in path.read_text().splitlines() if l.strip()]
    head = lines[0].split("\t")
    if head == [c for c in COLUMNS if c != "line_7.3"]:  # a table from before 7.3: the column comes empty
        lines = ["\t".join(COLUMNS)] + ["\t".join(l.split("\t")[:4] + ["-"] + l.split("\t")[4:]) for l in lines[1:]]
        head = COLUMNS
    assert head == COLUMNS, f"{path}: columns {head}"
    return [dict(zip(COLUMNS, l.split("\t") + [""] * (len(COLUMNS) - len(l.split("\t"))))) for l in lines[1:]]


def write_table(rows, path=TABLE):
    out = ["\t".join(COLUMNS)] + ["\t".join(r[c] for c in COLUMNS) for r in rows]
    path.write_text("\n".join(out) + "\n")


def locate(lines, anchor):
    """1-based line of the anchor's n-th occurrence, or None."""
    text, _, nth = anchor.partition("#")
    n = int(nth) if nth.isdigit() else 1
    hits = [i + 1 for i, l in enumerate(lines) if text in l]
    return hits[n - 1] if len(hits) >= n else None


def listing(conform):
    """check template -> rule id, from --list."""
    out = subprocess.run([str(conform), "--list"], check=True, capture_output=True, text=True).stdout
    checks = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 2:
            checks[re.sub(r"/<[^>]+>$", "", f[0])] = f[1]
    return checks


def all_checks(conform):
    """check template -> rule id: --list's and the runner's own (RUN_CHECKS)."""
    return {**listing(conform), **RUN_CHECKS}


def catalogue():
    """check template -> fixture bugs whose expected_checks make it fail. A
    'subdev' bug's patterns name the node first ('fx-sensor/events/*', of a
    -m run): the check is what follows."""
    rows = [l.split("\t") for l in (FIXTURE / "bugs.tsv").read_text().splitlines()[1:] if l.strip()]

    def check_part(p, kind):
        opt = "?" if p.startswith("?") else ""
        return opt + p.lstrip("?").split("/", 1)[1] if kind == "subdev" and "/" in p else p
    return [(r[0], [check_part(p.strip(), r[1]) for p in r[3].split(",") if p.strip()])
            for r in rows if r[4] in ("caught", "warn")]


def no_negative():
    path = FIXTURE / "no-negative-case.tsv"
    return {l.split("\t")[0]: l.split("\t")[1] for l in path.read_text().splitlines()
            if l.strip() and not l.startswith("#")}


def negatives(check, bugs, listed):
    names = [b for b, pats in bugs if any(fnmatch.fnmatchcase(check, p) or fnmatch.fnmatchcase(check + "/x", p)
                                          or p.startswith((check + "/", check + "@")) for p in pats)]
    if names:
        return names
    # A reason there is a documented verdict (the core decides before the
    # driver runs); "not yet modelled" is a to-do, not a negative case.
    if check in listed and not listed[check].startswith("not yet"):
        return ["no-negative-case.tsv"]
    return []


def derive(rows, docs, checks, bugs, listed):
    """Fill the derived columns; returns the problems (anchors not found)."""
    problems = []
    for r in rows:
        found = {}
        for k in KERNELS:
            if k in docs:
                f = docs[k] / DOCS / r["file"]
                found[k] = locate(f.read_text().splitlines(), r["anchor"]) if f.is_file() else None
        if docs:
            present = [k for k in KERNELS if found.get(k)]
            if not present:
                problems.append(f"{r['file']}: anchor not found: {r['anchor']}")
                continue
            r["kernel"] = "all" if len(present) == len(KERNELS) else "+".join(present)
            r["line"] = str(found.get("6.1") or "-")
            r["line_6.12"] = str(found.get("6.12") or "-")
            r["line_7.3"] = str(found.get("7.3") or "-")
        verdict = r["checks"] if r["checks"].startswith(VERDICTS) else ""
        rules = r["rules"].split()
        cited = sorted({c for c, rid in checks.items() if rid in rules} |
                       {c for rid in rules for c in ALSO.get(rid, []) if c in checks})
        if verdict:
            r["negative"] = "-"
            r["status"] = verdict.split(":")[0]
            continue
        r["checks"] = ",".join(cited) or "missing"
        neg = {c: negatives(c, bugs, listed) for c in cited}
        r["negative"] = ";".join(f"{c}={'+'.join(n) or 'NONE'}" for c, n in neg.items()) or "-"
        if not cited:
            r["status"] = "missing"
        elif all(neg.values()):
            r["status"] = "covered"
        else:
            r["status"] = "no-negative"
    return problems


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # Default: the parts of Debian's linux-source the project extracts once into
    # the board cache (fixtures/drivers/linux-source/extract.sh).
    ap.add_argument("--ksrc-6.1", dest="k61", default=None)
    ap.add_argument("--ksrc-6.12", dest="k612", default=None)
    ap.add_argument("--ksrc-7.3", dest="k73", default=None)
    ap.add_argument("--conform", default=str(TOP / "build" / "bin" / "v4l2-conform"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv[1:])
    for attr, series in (("k61", "6.1"), ("k612", "6.12"), ("k73", "7.3")):
        if getattr(a, attr) is None:
            out = subprocess.run([str(TOP / "fixtures/drivers/linux-source/extract.sh"), series],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                print(f"coverage: linux-source {series}: {out.stderr.strip()}", file=sys.stderr)
                return 2
            setattr(a, attr, out.stdout.strip())
    docs = {k: Path(d) for k, d in (("6.1", a.k61), ("6.12", a.k612), ("7.3", a.k73)) if (Path(d) / DOCS).is_dir()}
    if len(docs) != len(KERNELS):
        print("coverage: need the three extracted trees (Documentation/userspace-api/media): "
              f"{a.k61}, {a.k612}, {a.k73}", file=sys.stderr)
        return 2
    rows = read_table()
    before = TABLE.read_text()
    problems = derive(rows, docs, all_checks(a.conform), catalogue(), no_negative())
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        return 1
    if a.check:
        tmp = TABLE.with_suffix(".tmp")
        write_table(rows, tmp)
        same = tmp.read_text() == before
        tmp.unlink()
        return 0 if same else 1
    write_table(rows)
    counts = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    print(f"{len(rows)} statements: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
