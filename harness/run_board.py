#!/usr/bin/env python3
"""make run: boot the virtual board, run every suite on vivid, bring the
results back, write JUnit, compare with the board's expectations.

usage: run_board.py [--board vivid] [--out reports/out] [--only GLOB] [--timeout S]
exit: 0 no unexpected failure, 1 unexpected failures or kernel complaints,
      2 bad input, 124 the board hung, 125 the board could not run the suite,
      128 our own tooling failed (the board's build: a module that does not
      build, a missing program, a failed download; QEMU did not start), with
      one line naming it: not the kernel's, never a bisect skip (docs/bisecting.md)
"""
import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reports"))
import vboard  # noqa: E402
from results import BadInput, Expectations, compare, load_results, skips_by_class, skips_line, time_by_family, time_by_suite  # noqa: E402


def write_reports(out, expect_path):
    """JUnit, TAP and HTML beside out/results.json."""
    # In this process: three Python start-ups are a second of a bisect step
    # on a loaded lab host.
    import html_report
    import junit
    import tap
    res = str(out / "results.json")
    for name, st in (("junit", junit.main([res, str(out / "junit.xml")])),
                     ("tap", tap.main([res, str(out / "results.tap")])),
                     ("html", html_report.main([res, str(out / "report.html"), "--expect", str(expect_path)]))):
        if st:
            raise RuntimeError(f"run_board: the {name} report failed (exit {st})")


def print_changes(c, expect_path):
    """The unexpected failures and the expected ones that no longer fail."""
    for r in c["regressions"]:
        print(f"REGRESSION {r['name']} [{r.get('rule')}]: {r.get('message')}")
    for r in c["fixed"]:
        print(f"NOTE expected failure no longer fails: {r['name']} ({r['rule']}): update {expect_path.name}")


def node_compare(data, node, exp):
    """compare() of one node's results, its check names as 'NODE/check' so
    that an expectation can name the node ('v4l-touch0/probe/*') or not ('*/...')."""
    named = dict(data, results=[dict(r, name=f"{node}/{r['name']}") for r in data["results"]])
    return compare(named, exp)


def report_nodes(board, exp, expect_path, run, share, out, t0):
    """A board with many nodes (expectations 'devices:'): one results
    directory per node in out/NODE, one line per node, one combined
    summary (out/summary.json)."""
    status = vboard.nodes_status(share)
    if not status:
        print(f"run_board: the board ran the suite on no node (exit {run.status}); console in {out}/console.log",
              file=sys.stderr)
        return 125
    total = {v: 0 for v in ("total", "pass", "fail", "warn", "skip")}
    nodes, regressions = {}, 0
    skips = {}
    for node, (st, secs) in status.items():
        src, dst = share / "out" / node, out / node
        if dst.exists():
            shutil.rmtree(dst)
        shutil.copytree(src, dst)
        if not (dst / "results.json").exists():
            print(f"== {node}: no results (exit {st}); log in {dst}/log.txt")
            nodes[node] = {"exit": st, "seconds": secs, "results": False}
            regressions += 1
            continue
        write_reports(dst, expect_path)
        data = load_results(dst / "results.json")
        c = node_compare(data, node, exp)
        s = data["summary"]
        for k in total:
            total[k] += s[k]
        regressions += len(c["regressions"])
        nodes[node] = {"exit": st, "seconds": round(secs, 2), "device_caps": data["run"].get("device_caps"),
                       "summary": s, "expected": len(c["expected"]), "regressions": len(c["regressions"]),
                       "unexpected_warnings": len(c["new_warnings"]), "skips": skips_by_class(data)}
        kind = data["run"].get("node_kind", "video node")
        what = f"caps {data['run'].get('device_caps')}" if kind == "video node" else kind
        print(f"== {node} ({what}): {s['total']} checks: {s['pass']} pass, "
              f"{s['fail']} fail ({len(c['expected'])} expected), {s['warn']} warn, {s['skip']} skip, {secs:.1f} s")
        print(f"   skips by reason: {skips_line(data)}")
        for k, v in skips_by_class(data).items():
            skips[k] = skips.get(k, 0) + v
        print_changes(c, expect_path)
    complaints = run.kernel_complaints(exp.kernel_allow)
    for line in complaints:
        print(f"KERNEL {line}")
    rel = vboard.board_out() / "kernel.release"
    (out / "summary.json").write_text(json.dumps({"board": board,
                                                  "kernel": rel.read_text().strip() if rel.exists() else None,
                                                  "total": total, "skips": skips, "nodes": nodes,
                                                  "regressions": regressions,
                                                  "kernel_complaints": complaints}, indent=1) + "\n")
    print(f"== {board}: {len(nodes)} nodes, {total['total']} checks: {total['pass']} pass, {total['fail']} fail, "
          f"{total['warn']} warn, {total['skip']} skip; {regressions} unexpected; "
          f"board {time.monotonic() - t0:.1f} s (boot + suites)")
    guest = vboard.guest_suite_seconds(share)
    comp = vboard.compliance_figures(share)
    comp_ver = vboard.compliance_version(share / "compliance.txt")
    if comp:
        shutil.copy(share / "compliance.txt", out / "compliance.txt")
        print(f"== side by side, same boot: v4l2-conform {total['total']} checks, {total['fail']} fail"
              + (f", {guest:.1f} s" if guest is not None else "")
              + f"; v4l2-compliance {comp_ver or '(version not printed)'} -m {comp[0]} tests, {comp[1]} failed, {comp[2]} warnings, {comp[3]:.1f} s "
              f"({out}/compliance.txt)")
        s = json.loads((out / "summary.json").read_text())
        s["side_by_side"] = {"v4l2_conform": {"checks": total["total"], "fail": total["fail"], "seconds": guest},
                             "v4l2_compliance": {"version": comp_ver, "tests": comp[0], "failed": comp[1], "warnings": comp[2],
                                                 "seconds": round(comp[3], 2)}}
        (out / "summary.json").write_text(json.dumps(s, indent=1) + "\n")
    print(f"== results: {out}/NODE/results.json, junit.xml, results.tap, report.html; {out}/summary.json")
    return 1 if regressions or complaints else 0


class ToolingFailed(Exception):
    pass


def board_files(exp, expect_path):
    """The host files a board's set-up needs in /share: its `build:` make
    target is made first (for the board's kernel: make passes KERNEL on as
    VBOARD_KERNEL), then its `files:` ({release}: the board's kernel release).
    Raises BadInput naming a file that is still missing."""
    if exp.settings.get("build"):
        p = subprocess.run(["make", "-s", "-C", str(vboard.TOP), exp.settings["build"]])
        if p.returncode != 0:
            raise ToolingFailed(f"the board's build `make {exp.settings['build']}` failed (exit {p.returncode}; "
                                f"the lines above name the cause)")
    rel = (vboard.board_out() / "kernel.release").read_text().strip()
    files = [vboard.TOP / f.replace("{release}", rel) for f in exp.settings.get("files", "").split()]
    for f in files:
        if not f.is_file():
            raise BadInput(f"{expect_path}: files: {f}: no such file")
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description="run every suite on the virtual board")
    ap.add_argument("--board", default="vivid")
    ap.add_argument("--out", default=str(vboard.TOP / "reports" / "out"))
    ap.add_argument("--only", help="run only checks matching this glob")
    ap.add_argument("--timeout", type=int, default=900, help="hard limit for the whole boot (s)")
    ap.add_argument("--bisect", action="store_true",
                    help="exit with the suite's --bisect status (0 good, 1 bad, 125 skip: untestable, "
                         "no such check, the board hung or gave no results); tools/kbisect")
    a = ap.parse_args(argv)
    expect_path = vboard.TOP / "fixtures" / "boards" / f"{a.board}.expect"
    try:
        exp = Expectations(expect_path)
    except BadInput as e:
        print(f"run_board: {e}", file=sys.stderr)
        return 2
    args = exp.settings.get("run-args", "")
    if a.only:
        args += f" --only '{a.only}'"
    if a.bisect:
        args += " --bisect"
    if "media" in exp.settings:
        script = vboard.media_script(exp.settings["media"], exp.settings.get("setup", "true"), args)
    elif "devices" in exp.settings:
        script = vboard.nodes_script(exp.settings["devices"], exp.settings.get("setup", "true"), args)
    else:
        script = vboard.conform_script(device=exp.settings.get("device", "/dev/video0"),
                                       setup=exp.settings.get("setup", "true"), args=args)
    share = vboard.board_out() / f"run-{a.board}"
    try:
        files = board_files(exp, expect_path)
    except BadInput as e:
        print(f"run_board: {e}", file=sys.stderr)
        return 2
    except ToolingFailed as e:
        print(f"run_board: our own tooling failed, not the kernel: {e}", file=sys.stderr)
        return vboard.TOOLING_FAILED
    print(f"== virtual board '{a.board}': booting (kernel {(vboard.board_out() / 'kernel.release').read_text().strip()})")
    t0 = time.monotonic()
    run = vboard.run_job(script, share, timeout=a.timeout, files=files)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in ("console.log", "dmesg.txt", "ctrls-before.txt", "ctrls-after.txt"):
        if (share / name).exists():
            shutil.copy(share / name, out / name)
    if run.status == vboard.TOOLING_FAILED:
        print(f"run_board: our own tooling failed, not the kernel (the run-vm line above names it); "
              f"console in {out}/console.log", file=sys.stderr)
        return vboard.TOOLING_FAILED
    if run.hung:
        print(f"run_board: the board hung and was killed after {a.timeout} s; console in {out}/console.log",
              file=sys.stderr)
        return 125 if a.bisect else 124
    # A guest kernel that crashed mid-run leaves the partial results the
    # runner wrote so far, and no dmesg.txt for kernel_complaints: the run
    # fails on the console's word (it passed with 193 of 247 checks once).
    crashed = run.status == vboard.CRASHED
    if crashed:
        oops = next((l for l in run.console.splitlines() if any(k in l for k in vboard.KERNEL_COMPLAINTS)), "")
        print(f"KERNEL the guest kernel crashed before the job finished{': ' + oops.strip() if oops else ''}; "
              f"console in {share}/console.log")
    if "devices" in exp.settings or "media" in exp.settings:
        rc = report_nodes(a.board, exp, expect_path, run, share, out, t0)
        return 1 if crashed and rc == 0 else rc
    results = share / "out" / "results.json"
    if not results.exists():
        print(f"run_board: the board produced no results (exit {run.status}); console in {out}/console.log",
              file=sys.stderr)
        return 125
    if (out / "artifacts").exists():
        shutil.rmtree(out / "artifacts")
    for f in (share / "out").iterdir():
        (shutil.copytree if f.is_dir() else shutil.copy)(f, out / f.name)
    write_reports(out, expect_path)
    data = load_results(out / "results.json")
    c = compare(data, exp)
    s = data["summary"]
    suite_s = vboard.guest_suite_seconds(share)
    print(f"== {a.board}: {s['total']} checks: {s['pass']} pass, {s['fail']} fail ({len(c['expected'])} expected), "
          f"{s['warn']} warn, {s['skip']} skip")
    print(f"== skips by reason: {skips_line(data)}")
    print(f"== time: board {time.monotonic() - t0:.1f} s (boot + suites), suites in the guest "
          f"{suite_s:.1f} s" if suite_s is not None else "")
    suites = time_by_suite(data)
    print("== time by suite: " + ", ".join(f"{k} {v:.1f} s" for k, v in suites.items() if v >= 0.05))
    print("== costliest families: " + ", ".join(f"{f} {t:.1f} s ({n})" for f, n, t in time_by_family(data)[:6]))
    print_changes(c, expect_path)
    complaints = run.kernel_complaints(exp.kernel_allow)
    for l in complaints:
        print(f"KERNEL {l}")
    print(f"== results: {out}/results.json, junit.xml, results.tap, report.html")
    if crashed:
        return 1
    if a.bisect:
        return bisect_status(share)
    return 1 if c["regressions"] or complaints else 0


def bisect_status(share):
    """The suite's own exit status in the guest: 0 good, 1 bad, anything else skip (125)."""
    p = share / "conform.exit"
    st = int(p.read_text().strip()) if p.exists() and p.read_text().strip().isdigit() else 125
    return st if st in (0, 1) else 125


if __name__ == "__main__":
    sys.exit(main())
