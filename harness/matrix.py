#!/usr/bin/env python3
"""make matrix: the suite on vivid on several Debian kernel builds, and the
checks whose verdict differs between them, messages side by side: what
changed in the kernel's control behaviour (issue 17).

usage: matrix.py [--kernels REL,REL...|--all] [--board vivid] [--out reports/out] [--only GLOB]
                 [--reuse REL=DIR]
  default kernels: the newest installable 6.1, 6.12 and 7.x build Debian 12 and 13 have
  (harness/kbuilds.py: apt-cache, resolved at run time)
  --reuse REL=DIR: a run of the board on REL made already (DIR/results.json,
  the same board, run-args and --only): judged against the board's
  expectations instead of booting REL again (make test: test_vivid_e2e.py's boot)
writes OUT/matrix.md and OUT/matrix.json, each kernel's run in OUT/matrix/RELEASE/
exit: 0 written, 1 a kernel's run failed checks its expectations do not list,
      2 bad input (an unknown kernel, no builds found)
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reports"))
import vboard  # noqa: E402
from kbuilds import available_builds, debian_builds, newest_per_series, ordered, version_key  # noqa: E402,F401
from results import BadInput, Expectations, compare, load_results  # noqa: E402

def diff_runs(runs):
    """runs: [(kernel, results.json data)] -> rows of the checks whose verdict
    differs (or that exist on some kernels only): {name, rule, verdicts:
    {kernel: verdict or None}, messages: {kernel: message}}. Sorted by name."""
    by = [(k, {r["name"]: r for r in d["results"]}) for k, d in runs]
    names = sorted(set().union(*(set(m) for _, m in by))) if by else []
    rows = []
    for n in names:
        verdicts = {k: (m[n]["verdict"] if n in m else None) for k, m in by}
        if len(set(verdicts.values())) > 1:
            rule = next((m[n].get("rule") for _, m in by if n in m), None)
            rows.append({"name": n, "rule": rule, "verdicts": verdicts,
                         "messages": {k: (m[n].get("message") or "") if n in m else "" for k, m in by}})
    return rows


def _cell(s, limit=160):
    s = (s or "").replace("|", "\\|").replace("\n", " ")
    return s if len(s) <= limit else s[:limit - 1] + "…"


def to_markdown(runs, rows, seconds):
    ks = [k for k, _ in runs]
    o = ["# Kernel matrix: vivid's control behaviour per Debian kernel build", ""]
    o.append("| kernel | checks | pass | fail | warn | skip | board time |")
    o.append("|---|---|---|---|---|---|---|")
    for k, d in runs:
        s = d["summary"]
        took = "reused" if seconds.get(k) is None else f"{seconds[k]:.0f} s"
        o.append(f"| {k} | {s['total']} | {s['pass']} | {s['fail']} | {s['warn']} | {s['skip']} | {took} |")
    o += ["", f"## {len(rows)} checks whose verdict differs", ""]
    if rows:
        o.append("| check | rule | " + " | ".join(ks) + " |")
        o.append("|---|---|" + "---|" * len(ks))
        for r in rows:
            cells = [f"{r['verdicts'][k] or 'absent'}: {_cell(r['messages'][k])}" if r["verdicts"][k] else "absent"
                     for k in ks]
            o.append(f"| {r['name']} | {r['rule'] or ''} | " + " | ".join(cells) + " |")
    return "\n".join(o) + "\n"


def run_kernel(rel, board, out, only):
    env = dict(os.environ, VBOARD_KERNEL=rel)
    env.pop("VBOARD_OUT", None)
    b = subprocess.run([str(vboard.VBOARD), "build"], env=env)
    if b.returncode:
        return b.returncode
    cmd = [sys.executable, str(Path(__file__).resolve().parent / "run_board.py"), "--board", board, "--out", str(out)]
    if only:
        cmd += ["--only", only]
    return subprocess.run(cmd, env=env).returncode


def reused_status(board, results):
    """run_board's verdict on a run made already: 1 when it failed checks
    the board's expectations do not list (its boot judged the kernel log)."""
    exp = Expectations(vboard.TOP / "fixtures" / "boards" / f"{board}.expect")
    regressions = compare(load_results(results), exp)["regressions"]
    for r in regressions:
        print(f"REGRESSION {r['name']} [{r.get('rule')}]: {r.get('message')}")
    return 1 if regressions else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description="the suite on several kernel builds; the verdicts that differ")
    ap.add_argument("--kernels", help="comma-separated releases, e.g. 6.1.0-57-amd64,6.12.118+deb12-amd64")
    ap.add_argument("--all", action="store_true", help="every installable 6.1, 6.12 and 7.x build Debian has")
    ap.add_argument("--board", default="vivid")
    ap.add_argument("--out", default=str(vboard.TOP / "reports" / "out"))
    ap.add_argument("--only", help="run only checks matching this glob")
    ap.add_argument("--reuse", action="append", default=[], metavar="REL=DIR",
                    help="take REL's run from DIR/results.json instead of booting it")
    a = ap.parse_args(argv)
    reuse = {}
    for r in a.reuse:
        rel, _, d = r.partition("=")
        if not d or not (Path(d) / "results.json").is_file():
            print(f"matrix: --reuse {r}: no DIR/results.json (REL=DIR)", file=sys.stderr)
            return 2
        reuse[rel] = Path(d)
    if a.kernels:
        kernels = [k.strip() for k in a.kernels.split(",") if k.strip()]
    else:
        builds = available_builds()
        if not builds.get("6.1") or not builds.get("6.12"):
            print("matrix: apt-cache lists no 6.1 or no 6.12 kernel build (apt-get update?)", file=sys.stderr)
            return 2
        if not builds.get("7.x"):
            print("matrix: no installable 7.x backport (Debian 13 unreachable?): 6.1 and 6.12 only", file=sys.stderr)
        kernels = ordered(builds) if a.all else newest_per_series(builds)
    out = Path(a.out)
    runs, seconds, status = [], {}, 0
    for k in kernels:
        print(f"== matrix: kernel {k}" + (f", the run in {reuse[k]}" if k in reuse else ""), flush=True)
        t0 = time.monotonic()
        if k in reuse:
            (out / "matrix" / k).mkdir(parents=True, exist_ok=True)
            shutil.copy(reuse[k] / "results.json", out / "matrix" / k / "results.json")
            st, seconds[k] = reused_status(a.board, out / "matrix" / k / "results.json"), None
        else:
            st = run_kernel(k, a.board, out / "matrix" / k, a.only)
            seconds[k] = time.monotonic() - t0
        if st == 2:
            return 2
        status = status or (1 if st else 0)
        try:
            runs.append((k, load_results(out / "matrix" / k / "results.json")))
        except BadInput as e:
            print(f"matrix: {k}: {e}", file=sys.stderr)
            status = 1
    rows = diff_runs(runs)
    (out / "matrix.md").write_text(to_markdown(runs, rows, seconds))
    (out / "matrix.json").write_text(json.dumps({
        "kernels": [{"release": k, "summary": d["summary"],
                     "seconds": None if seconds.get(k) is None else round(seconds[k], 1)} for k, d in runs],
        "differences": rows}, indent=1, ensure_ascii=False) + "\n")
    print(f"== matrix: {len(runs)} kernels, {len(rows)} checks differ; {out}/matrix.md, {out}/matrix.json "
          f"({sum(v for v in seconds.values() if v):.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
