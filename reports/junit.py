#!/usr/bin/env python3
"""results.json -> JUnit XML (one testsuite per suite, one testcase per check).
Every string is printable() (results.py): a NUL or an escape character from a
driver's control name cannot make the XML invalid.

usage: junit.py RESULTS.json OUT.xml     exit: 0 written, 2 bad input
Warnings pass with the warning in system-out; skips are <skipped/>, never passes.
"""
import sys
import xml.etree.ElementTree as ET
from collections import OrderedDict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import BadInput, clean, load_results, printable  # noqa: E402


def to_junit(data):
    data = clean(data)
    suites = OrderedDict()
    for r in data["results"]:
        suites.setdefault(r["suite"], []).append(r)
    root = ET.Element("testsuites", name="v4l2-conform")
    run = data["run"]
    for name, rs in suites.items():
        ts = ET.SubElement(root, "testsuite", name=name, tests=str(len(rs)),
                           failures=str(sum(r["verdict"] == "fail" for r in rs)),
                           skipped=str(sum(r["verdict"] == "skip" for r in rs)), errors="0",
                           time="%.3f" % sum(r.get("duration_s") or 0 for r in rs))
        props = ET.SubElement(ts, "properties")
        for k in ("device", "driver", "card", "kernel", "rule_book", "suite_version"):
            ET.SubElement(props, "property", name=k, value=printable(run.get(k, "")))
        for r in rs:
            tc = ET.SubElement(ts, "testcase", classname=f"v4l2-conform.{name}", name=r["name"],
                               time="%.3f" % (r.get("duration_s") or 0))
            msg = r.get("message") or ""
            rule = r.get("rule") or ""
            if r["verdict"] == "fail":
                f = ET.SubElement(tc, "failure", message=f"[{rule}] {msg}", type=rule)
                f.text = f"{r['name']} [{rule}] {r.get('summary', '')}\n{msg}"
            elif r["verdict"] == "skip":
                ET.SubElement(tc, "skipped", message=msg)
            elif r["verdict"] == "warn":
                ET.SubElement(tc, "system-out").text = f"warning [{rule}]: {msg}"
    return ET.ElementTree(root)


SCHEMA = Path(__file__).resolve().parent / "junit.xsd"


def schema_errors(xml_path, schema=SCHEMA):
    """xmllint's complaints when xml_path is not JUnit XML as reports/junit.xsd
    describes it, or None when it is (libxml2-utils; tools/deps.sh test)."""
    import subprocess
    r = subprocess.run(["xmllint", "--noout", "--schema", str(schema), str(xml_path)],
                       capture_output=True, text=True, errors="replace")
    return None if r.returncode == 0 else (r.stderr.strip() or f"xmllint exit {r.returncode}")


def main(argv):
    if len(argv) != 2:
        print("usage: junit.py RESULTS.json OUT.xml", file=sys.stderr)
        return 2
    try:
        data = load_results(argv[0])
    except BadInput as e:
        print(f"junit: {e}", file=sys.stderr)
        return 2
    tree = to_junit(data)
    ET.indent(tree)
    tree.write(argv[1], encoding="utf-8", xml_declaration=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
