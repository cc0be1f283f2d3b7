#!/usr/bin/python3
"""Read the results of a v4l2-conform LAVA job from its log.

usage: lava-results.py LOG [--cases OUT.json] [--results-json OUT.json]
                      [--server-cases LAVACLI.json] [--check] [-q]
  LOG   lava-run's output (make lava-check), or a lava-server job log
        (`lavacli jobs logs --raw JOB`; reading that one needs python3-yaml)
  --cases FILE         write what LAVA recorded: the job result, the result
                       of each test definition run, and every test case with
                       its test set, result, measurement and units (JSON)
  --results-json FILE  write the suite's own results.json, as the device
                       printed it into the log (v4l2-conform-lava dumps it)
  --server-cases FILE  what the lava-server stored for the job, as
                       `lavacli results JOB --json` prints it: with --check,
                       those test cases must agree with that results.json too,
                       measurements included (value and units)
  --check              exit 1 unless the job completed and LAVA's test cases
                       hold the same verdict per check as that results.json
Without --check the exit status is 0 when the log could be read.
Stdlib only for lava-run logs: the pytest harness imports this file.
"""
import argparse
import fnmatch
import json
import re
import sys

JSON_PREFIX = "v4l2-conform-json: "
DEFINITION = "v4l2-conform"
SUMMARY_CASES = ("completed", "checks-pass", "checks-fail", "checks-warn", "checks-skip")


def case_id(name):
    """The LAVA test case name of a check (as v4l2-conform-lava.sh makes it)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name.replace("/", "."))


def lava_result(verdict):
    """The LAVA result a v4l2-conform verdict is reported as."""
    return {"pass": "pass", "warn": "pass", "fail": "fail", "skip": "skip"}.get(verdict, "unknown")


def _parse_line(line):
    line = line.strip()
    if line.startswith("- "):
        line = line[2:]
    if not line.startswith("{"):
        return None
    # lava-run writes YAML flow mappings that are JSON except for the
    # non-specific tag '!' in front of some quoted numbers.
    try:
        return json.loads(re.sub(r'(?<=[:,\[] )! (?=")', "", line))
    except ValueError:
        pass
    try:
        import yaml
    except ImportError:
        return None
    try:
        rec = yaml.safe_load(line)
    except yaml.YAMLError:
        return None
    return rec if isinstance(rec, dict) else None


def read_log(path):
    recs = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            rec = _parse_line(line)
            if rec and "lvl" in rec:
                recs.append(rec)
    return recs


def target_text(msg):
    """LAVA escapes every double quote of the console output as \\"."""
    return msg.replace('\\"', '"') if isinstance(msg, str) else ""


def parse(recs):
    out = {"job": None, "job_error": None, "definitions": {}, "cases": [],
           "notes": [], "results_json": None}
    dump, in_dump = [], False
    for rec in recs:
        lvl, msg = rec.get("lvl"), rec.get("msg")
        if lvl == "results" and isinstance(msg, dict):
            d = msg.get("definition")
            if d == "lava":
                if msg.get("case") == "job":
                    out["job"] = msg.get("result")
                    out["job_error"] = msg.get("error_msg")
                elif str(msg.get("case", "")).endswith("_" + DEFINITION):
                    out["definitions"][msg["case"]] = msg.get("result")
                continue
            c = {"definition": d, "set": msg.get("set"), "case": msg.get("case"),
                 "result": msg.get("result")}
            if "measurement" in msg:
                c["measurement"] = float(msg["measurement"])
                c["units"] = msg.get("units", "")
            out["cases"].append(c)
        elif lvl == "target":
            text = target_text(msg)
            if text.startswith("v4l2-conform: results.json begin"):
                dump, in_dump = [], True
            elif text.startswith("v4l2-conform: results.json end"):
                in_dump = False
                try:
                    out["results_json"] = json.loads("\n".join(dump))
                except ValueError as exc:
                    out["notes"].append("the results.json in the log does not parse: %s" % exc)
            elif in_dump and text.startswith(JSON_PREFIX):
                dump.append(text[len(JSON_PREFIX):])
            elif text.startswith("v4l2-conform: WARN ") or text.startswith("v4l2-conform: FAIL "):
                out["notes"].append(text[len("v4l2-conform: "):])
    return out


def server_cases(rows):
    """lavacli's `results JOB --json` (a list of the server's test cases) in
    the shape parse() gives: job, definitions, cases (no notes: the server
    keeps no log lines with its cases)."""
    out = {"job": None, "job_error": None, "definitions": {}, "cases": [], "notes": None}
    for row in rows:
        meta = row.get("metadata") or {}
        if row.get("suite") == "lava":
            if row.get("name") == "job":
                out["job"], out["job_error"] = row.get("result"), meta.get("error_msg")
            elif str(row.get("name", "")).endswith("_" + DEFINITION):
                out["definitions"][row["name"]] = row.get("result")
            continue
        c = {"definition": row.get("suite"), "set": meta.get("set"), "case": row.get("name"),
             "result": row.get("result")}
        if row.get("measurement") not in (None, "", "None"):
            c["measurement"] = float(row["measurement"])
            c["units"] = row.get("unit") or ""
        out["cases"].append(c)
    return out


def check_measurements(lava, results):
    """Problems between a results.json's measurements and LAVA's cases: every
    numeric measurement of a check is the case <check>.<name>, in the check's
    test set, with the same value and units."""
    problems = []
    cases = {c["case"]: c for c in lava["cases"] if "measurement" in c and c["set"] != "summary"}
    for r in results.get("results", []):
        for m in r.get("measurements") or ():
            if not isinstance(m.get("value"), (int, float)) or isinstance(m.get("value"), bool):
                continue
            cid = case_id(r["name"]) + "." + case_id(m["name"])
            c = cases.get(cid)
            if c is None:
                problems.append("%s: measurement %s is no LAVA case %s" % (r["name"], m["name"], cid))
                continue
            v = float(m["value"])
            if abs(c["measurement"] - v) > 1e-9 + 1e-6 * abs(v):
                problems.append("%s: LAVA measurement %s, results.json %s" % (cid, c["measurement"], v))
            if c.get("units", "") != case_id(m.get("unit") or ""):
                problems.append("%s: LAVA units %r, results.json %r" % (cid, c.get("units"), m.get("unit")))
            suite = case_id(r.get("suite") or r["name"].split("/")[0])
            if c["set"] != suite:
                problems.append("%s: in LAVA test set %s, not %s" % (cid, c["set"], suite))
    return problems


def check_cases(lava, results, ignore=()):
    """Problems (a list of strings) between LAVA's test cases and a
    results.json: every check must be a case of the same verdict, in the
    test set of its suite, and there must be no other check case.
    ignore: globs of check names left out on both sides (with them, the
    summary counts are not compared)."""
    problems = []
    ignored_ids = set()

    def skipped(name):
        return any(fnmatch.fnmatchcase(name, g) for g in ignore)
    for r in results.get("results", []):
        if skipped(r["name"]):
            ignored_ids.add(case_id(r["name"]))
    # the same globs on LAVA case names ('/' -> '.', other characters as '?')
    id_globs = [re.sub(r"[^A-Za-z0-9._*?-]", "?", g.replace("/", ".")) for g in ignore]
    cases = {}
    for c in lava["cases"]:
        if c["set"] == "summary" or "measurement" in c:
            continue
        if c["case"] in ignored_ids or any(fnmatch.fnmatchcase(c["case"], g) for g in id_globs):
            continue
        cases[c["case"]] = c
    want = {}
    for r in results.get("results", []):
        if skipped(r["name"]):
            continue
        cid = case_id(r["name"])
        if cid in want:
            problems.append("two checks map to the LAVA case %s" % cid)
        want[cid] = r
    for cid, r in want.items():
        c = cases.get(cid)
        if c is None:
            problems.append("%s (%s): no LAVA test case" % (r["name"], r["verdict"]))
            continue
        if c["result"] != lava_result(r["verdict"]):
            problems.append("%s: LAVA says %s, the suite %s" % (r["name"], c["result"], r["verdict"]))
        suite = case_id(r.get("suite") or r["name"].split("/")[0])
        if c["set"] != suite:
            problems.append("%s: in LAVA test set %s, not %s" % (r["name"], c["set"], suite))
    for cid in sorted(set(cases) - set(want)):
        problems.append("LAVA case %s is no check of the suite" % cid)
    warns = sum(1 for r in want.values() if r["verdict"] == "warn")
    if lava["notes"] is not None:   # a job log (a server's case list has none)
        noted = sum(1 for n in lava["notes"] if n.startswith("WARN ") and not skipped(n[5:].split(":")[0]))
        if warns != noted:
            problems.append("%d warnings in results.json, %d WARN notes in the log" % (warns, noted))
    summary = {c["case"]: c for c in lava["cases"] if c["set"] == "summary"}
    if summary.get("completed", {}).get("result") != "pass":
        problems.append("the summary case 'completed' is not pass")
    if ignore:
        return problems
    for v in ("pass", "fail", "warn", "skip"):
        n = sum(1 for r in want.values() if r["verdict"] == v)
        got = summary.get("checks-" + v, {}).get("measurement")
        if got is None or int(got) != n:
            problems.append("summary checks-%s is %s, results.json has %d" % (v, got, n))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("--cases")
    ap.add_argument("--results-json")
    ap.add_argument("--server-cases")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args()
    lava = parse(read_log(a.log))
    rj = lava.pop("results_json")
    if a.cases:
        with open(a.cases, "w", encoding="utf-8") as f:
            json.dump(lava, f, indent=1)
    if a.results_json and rj is not None:
        with open(a.results_json, "w", encoding="utf-8") as f:
            json.dump(rj, f, indent=1)
    checks = [c for c in lava["cases"] if c["set"] != "summary" and "measurement" not in c]
    count = {}
    for c in checks:
        count[c["result"]] = count.get(c["result"], 0) + 1
    if not a.quiet:
        print("lava-results: job %s; %s; %d check cases (%s), %d measurements, %d warnings"
              % (lava["job"], ", ".join("lava.%s %s" % kv for kv in sorted(lava["definitions"].items())) or "no test run",
                 len(checks), ", ".join("%s %d" % kv for kv in sorted(count.items())),
                 sum(1 for c in lava["cases"] if "measurement" in c and c["set"] != "summary"),
                 sum(1 for n in lava["notes"] if n.startswith("WARN "))))
        if lava["job_error"]:
            print("lava-results: job error: %s" % lava["job_error"])
    if not a.check:
        return 0
    problems = []
    if lava["job"] != "pass":
        problems.append("the LAVA job did not complete (%s)" % lava["job_error"])
    if rj is None:
        problems.append("no results.json in the log")
    else:
        problems += check_cases(lava, rj) + check_measurements(lava, rj)
    if a.server_cases and rj is not None:
        try:
            with open(a.server_cases, encoding="utf-8") as f:
                server = server_cases(json.load(f))
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            server, found = None, ["the server's test cases (%s) cannot be read: %s" % (a.server_cases, exc)]
        if server is not None:
            found = [("the server: " + p) for p in check_cases(server, rj) + check_measurements(server, rj)]
            if server["job"] != "pass":
                found.append("the server: the job's result is %s (%s)" % (server["job"], server["job_error"]))
        if not found:
            nm = sum(1 for c in server["cases"] if "measurement" in c and c["set"] != "summary")
            print("lava-results: the server's test cases agree with results.json "
                  "(%d checks, %d measurements, %d test sets)"
                  % (len(rj["results"]), nm, len({c["set"] for c in server["cases"]})))
        problems += found
    for p in problems[:50]:
        print("lava-results: MISMATCH %s" % p)
    if len(problems) > 50:
        print("lava-results: ... %d more" % (len(problems) - 50))
    if not problems:
        print("lava-results: LAVA's test cases agree with results.json (%d checks)" % len(rj["results"]))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
