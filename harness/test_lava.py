"""LAVA jobs, static and arm64 builds (lava-jobs/).

- the device-side converter (v4l2-conform-lava.sh) run with busybox, as on a
  board: every check becomes a LAVA test case with the right result;
- every board job generated from fixtures/boards/*.board passes LAVA's own
  job schema (lava_common), and the virtual board's job builds a pipeline
  (lava-run --validate) against the device dictionary kept in lava-jobs/;
- end to end: the virtual board's LAVA job run by lava-run holds, check by
  check, the verdicts of a direct run of the suite on the same board;
- the suite binaries are static, and the arm64 cross build runs the whole
  suite on an arm64 virtual board (qemu-system-aarch64, vivid) with the
  verdicts of the amd64 run.
"""
import fnmatch
import importlib.util
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import vboard
from results import Expectations, load_results

TOP = vboard.TOP
LJ = TOP / "lava-jobs"
PY = "/usr/bin/python3"
EXPECT = TOP / "fixtures" / "boards" / "vivid.expect"
CONVERTER = LJ / "testdefs" / "v4l2-conform-lava.sh"
ARM64_BUILD = TOP / "build-arm64"
# Comparing two runs (LAVA and direct, arm64 and amd64), check by check:
# - 'kernel/<group>' records exist only when the kernel logged a warning
#   while that group ran (vivid falling behind under TCG): left out;
# - the frame probes measure images vivid renders in real time under TCG:
#   their verdicts vary from run to run, and they take three quarters of
#   the suite's time, so these runs leave their suite out (--only).
#   (The full suite through LAVA is `make lava-check`; the probes' LAVA
#   mapping, measurements included, is covered by the converter tests.)
RUN_TO_RUN_IGNORE = ("kernel/*",)
LEFT_OUT_SUITES = ("probe",)

_spec = importlib.util.spec_from_file_location("lava_results", LJ / "lava-results.py")
lava_results = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lava_results)


def run(cmd, **kw):
    kw.setdefault("cwd", TOP)
    return subprocess.run(cmd, text=True, capture_output=True, **kw)


# ---------------------------------------------------------------- converter

def result(name, verdict, suite=None, message="", measurements=()):
    return {"name": name, "suite": suite or name.split("/")[0], "rule": "QC-1", "verdict": verdict,
            "ctrl_id": 0, "ctrl_id_hex": "0x00000000", "ctrl_name": "", "message": message,
            "summary": "", "duration_s": 0.01,
            "measurements": [{"name": n, "value": v, "unit": u} for n, v, u in measurements],
            "series": {}, "artifacts": []}


def write_results(path, results):
    """results.json in the layout of lib/check/results.c: one result per line."""
    counts = {v: sum(1 for r in results if r["verdict"] == v) for v in ("pass", "fail", "warn", "skip")}
    lines = ['{', '  "format": "v4l2-conform-results/1",',
             '  "run": {"device": "/dev/video0", "driver": "vivid", "card": "vivid", "kernel": "k", '
             '"suite_version": "t", "duration_s": 1},',
             '  "summary": %s,' % json.dumps(dict(total=len(results), **counts)),
             '  "results": [']
    lines += ["    " + json.dumps(r) + ("," if i + 1 < len(results) else "") for i, r in enumerate(results)]
    lines += ["  ]", "}"]
    path.write_text("\n".join(lines) + "\n")


def lava_signals(text):
    """What LAVA would record from the console: (set, case, result,
    measurement, units) per TESTCASE signal."""
    cases, current = [], None
    for m in re.finditer(r"<LAVA_SIGNAL_(\S+) ([^>]+)>", text):
        kind, params = m.group(1), m.group(2).split()
        if kind == "TESTSET":
            current = params[1] if params[0] == "START" else None
        elif kind == "TESTCASE":
            d = dict(p.split("=", 1) for p in params)
            cases.append({"set": current, "case": d["TEST_CASE_ID"], "result": d["RESULT"],
                          **({"measurement": float(d["MEASUREMENT"]), "units": d.get("UNITS", "")}
                             if "MEASUREMENT" in d else {})})
    return cases


def convert(tmp_path, results, *args):
    """Run the converter as a board would: busybox sh and busybox awk only."""
    bb = shutil.which("busybox")
    assert bb, "busybox (busybox-static) is needed to play the device"
    bindir = tmp_path / "bb"
    bindir.mkdir(exist_ok=True)
    for tool in ("sh", "awk", "sed", "grep", "mktemp", "rm", "cat", "tr", "cut", "dirname"):
        (bindir / tool).unlink(missing_ok=True)
        (bindir / tool).symlink_to(bb)
    path = tmp_path / "results.json"
    if results is not None:
        write_results(path, results)
    env = {"PATH": str(bindir), "TMPDIR": str(tmp_path)}
    p = subprocess.run([bb, "sh", str(CONVERTER), "--convert", str(path), *args],
                       text=True, capture_output=True, env=env)
    lava = {"cases": [dict(c, definition="0_v4l2-conform") for c in lava_signals(p.stdout)],
            "notes": [l[len("v4l2-conform: "):] for l in p.stdout.splitlines() if l.startswith("v4l2-conform: ")]}
    return p, lava


MIXED = [
    result("enum/next-ctrl-walk", "pass", measurements=[("controls", 73, "ctrls"), ("time per query", 1.5e-05, "s")]),
    result("getset/out-of-range/brightness", "fail", message='expected "clamp"\n got \\ ERANGE'),
    result("enum/range/Test Pattern", "warn", message="step\tnot on the grid"),
    result("events/ctrl-change/gain", "skip", message="no events"),
    result("enum/flags/weird name (1)", "pass", measurements=[("n", None, "")]),
]


def test_converter_reports_every_check_as_a_lava_test_case(tmp_path):
    p, lava = convert(tmp_path, MIXED)
    assert p.returncode == 1, p.stdout + p.stderr  # a check failed
    cases = {c["case"]: c for c in lava["cases"]}
    # one test set per suite, in the order the suites came, then the summary
    sets = []
    for c in lava["cases"]:
        if not sets or sets[-1] != c["set"]:
            sets.append(c["set"])
    assert sets == ["enum", "getset", "events", "summary"]
    assert cases["enum.next-ctrl-walk"]["result"] == "pass"
    assert cases["getset.out-of-range.brightness"]["result"] == "fail"
    assert cases["enum.range.Test_Pattern"]["result"] == "pass"  # warn -> pass + note
    assert cases["events.ctrl-change.gain"]["result"] == "skip"
    assert cases["enum.flags.weird_name__1_"]["result"] == "pass"
    # measurements are cases of their own, with units; a null value is dropped
    assert cases["enum.next-ctrl-walk.controls"]["measurement"] == 73
    assert cases["enum.next-ctrl-walk.controls"]["units"] == "ctrls"
    assert cases["enum.next-ctrl-walk.time_per_query"]["measurement"] == pytest.approx(1.5e-05)
    assert "enum.flags.weird_name__1_.n" not in cases
    assert any(n.startswith("WARN enum/range/Test Pattern: step not on the grid") for n in lava["notes"])
    assert 'FAIL getset/out-of-range/brightness [QC-1]: expected "clamp"  got \\ ERANGE' in lava["notes"]
    # the host-side reader agrees check by check (same case-id mapping)
    rj = {"results": MIXED}
    assert lava_results.check_cases(lava, rj) == []
    summary = {c["case"]: c for c in lava["cases"] if c["set"] == "summary"}
    assert summary["completed"]["result"] == "pass"
    assert [summary["checks-" + v]["measurement"] for v in ("pass", "fail", "warn", "skip")] == [2, 1, 1, 1]


def test_converter_check_catches_a_wrong_verdict(tmp_path):
    p, lava = convert(tmp_path, MIXED)
    lava["cases"] = [dict(c, result="pass") if c["case"] == "getset.out-of-range.brightness" else c
                     for c in lava["cases"]]
    problems = lava_results.check_cases(lava, {"results": MIXED})
    assert any("getset/out-of-range/brightness" in p for p in problems)


def test_converter_exit_status_follows_the_suite(tmp_path):
    p, lava = convert(tmp_path, [result("enum/a", "pass"), result("enum/b", "warn"), result("enum/c", "skip")])
    assert p.returncode == 0, p.stdout + p.stderr
    # an unusable device (exit 2) stays 2, and the run is not 'completed'
    p, lava = convert(tmp_path, [result("enum/a", "pass")], "2")
    assert p.returncode == 2
    assert {c["case"]: c["result"] for c in lava["cases"]}["completed"] == "fail"


def test_converter_without_results_fails(tmp_path):
    p, lava = convert(tmp_path, None, "0")
    assert p.returncode == 1
    assert [c["case"] for c in lava["cases"]] == ["completed"]
    assert lava["cases"][0]["result"] == "fail"


def test_converter_dumps_results_json_into_the_log(tmp_path):
    p, _ = convert(tmp_path, MIXED)
    recs = [{"lvl": "target", "msg": l.replace('"', '\\"')} for l in p.stdout.splitlines()]
    got = lava_results.parse(recs)["results_json"]
    assert [r["name"] for r in got["results"]] == [r["name"] for r in MIXED]
    assert got["results"][1]["message"] == MIXED[1]["message"]


def lavacli_rows(lava, job="pass"):
    """What `lavacli results JOB --json` prints for these cases (the
    server's test cases of the job, LAVA's own 'lava' suite included)."""
    rows = [{"suite": "lava", "name": "job", "result": job, "measurement": "None", "unit": "",
             "metadata": {"definition": "lava", "case": "job", "result": job}},
            {"suite": "lava", "name": "0_v4l2-conform", "result": "fail", "measurement": "None", "unit": "",
             "metadata": {"definition": "lava", "case": "0_v4l2-conform", "result": "fail"}}]
    for c in lava["cases"]:
        meta = {"case": c["case"], "definition": c["definition"], "result": c["result"], "set": c["set"]}
        if "measurement" in c:
            meta.update(measurement=c["measurement"], units=c["units"])
        rows.append({"suite": c["definition"], "name": c["case"], "result": c["result"],
                     "measurement": "%.10f" % c["measurement"] if "measurement" in c else "None",
                     "unit": c.get("units", ""), "metadata": meta})
    return rows


def test_server_cases_agree_with_results_json(tmp_path):
    """The nightly's check of what lava-server stored (lavacli results):
    same verdicts, test sets and measurements as results.json."""
    _, lava = convert(tmp_path, MIXED)
    server = lava_results.server_cases(lavacli_rows(lava))
    assert server["job"] == "pass" and server["definitions"] == {"0_v4l2-conform": "fail"}
    assert lava_results.check_cases(server, {"results": MIXED}) == []
    assert lava_results.check_measurements(server, {"results": MIXED}) == []


def test_server_cases_check_catches_a_wrong_measurement_or_set(tmp_path):
    _, lava = convert(tmp_path, MIXED)
    rows = lavacli_rows(lava)
    for r in rows:
        if r["name"] == "enum.next-ctrl-walk.controls":
            r["measurement"] = "72.0000000000"
        if r["name"] == "events.ctrl-change.gain":
            r["metadata"]["set"] = "enum"
    server = lava_results.server_cases(rows)
    problems = lava_results.check_measurements(server, {"results": MIXED})
    assert any("enum.next-ctrl-walk.controls" in p and "72" in p for p in problems), problems
    problems = lava_results.check_cases(server, {"results": MIXED})
    assert any("events/ctrl-change/gain: in LAVA test set enum" in p for p in problems), problems
    # a measurement the server lost
    server["cases"] = [c for c in server["cases"] if c["case"] != "enum.next-ctrl-walk.time_per_query"]
    problems = lava_results.check_measurements(server, {"results": MIXED})
    assert any("time per query" in p for p in problems), problems


# ---------------------------------------------------------------- job generation

@pytest.fixture(scope="session")
def lava_deps():
    subprocess.run([str(TOP / "tools" / "deps.sh"), "lava"], check=True)


def test_board_jobs_pass_lava_schema_and_pipeline(lava_deps, tmp_path):
    """make lava-validate: LAVA's job schema on every generated job, and its
    pipeline against a device dictionary of the board's device type."""
    p = run([str(LJ / "validate-all.sh"), str(tmp_path)])
    assert p.returncode == 0, p.stdout + p.stderr
    boards = sorted(f.stem for f in (TOP / "fixtures" / "boards").glob("*.board"))
    assert len(boards) >= 4  # the virtual board and three lab boards
    assert sorted(f.stem for f in (tmp_path / "jobs").glob("*.yaml")) == boards
    assert p.stdout.count("LAVA accepts the pipeline") == len(boards), p.stdout
    shipped = {l.strip() for l in (LJ / "devices" / "lava-device-types.txt").read_text().splitlines()
               if l.strip() and not l.startswith("#")}
    for b in boards:
        text = (tmp_path / "jobs" / f"{b}.yaml").read_text()
        dt = re.search(r"^device_type: \"?([^\"\n]+)", text, re.M).group(1)
        assert dt in shipped, f"{b}: device type {dt} is not one that LAVA ships"


def test_lava_job_schema_rejects_a_broken_job(lava_deps):
    p = run([PY, str(LJ / "gen-job.py"), str(TOP / "fixtures" / "boards" / "vboard-amd64.board"),
             "--set", "priority=urgent"])
    assert p.returncode != 0
    assert "does not pass LAVA's job schema" in p.stderr + p.stdout


def test_lava_server_schema_rejects_params_in_an_inline_definition(lava_deps, tmp_path):
    """lava-server's submission check is stricter than the dispatcher's: the
    jobs must pass both (gen-job.py puts the parameters in a run step)."""
    job = tmp_path / "job.yaml"
    subprocess.run([PY, str(LJ / "gen-job.py"), str(TOP / "fixtures" / "boards" / "rpi4-imx219.board"),
                    "-o", str(job)], check=True)
    script = (
        "import sys, yaml; sys.path.insert(0, %r)\n"
        "from lava_schemas import validate_job\n"
        "d = yaml.safe_load(open(%r))\n"
        "validate_job(d)\n"
        "d['actions'][2]['test']['definitions'][0]['repository']['params'] = {'DEVICE': '/dev/video1'}\n"
        "try:\n    validate_job(d)\nexcept ValueError as e:\n    print(e); sys.exit(3)\n" % (str(LJ), str(job)))
    p = run([PY, "-c", script])
    assert p.returncode == 3, p.stdout + p.stderr
    assert "lava-server's submission schema" in p.stdout


def test_lava_pipeline_rejects_a_job_for_another_device_type(lava_deps, tmp_path):
    """A QEMU job on a U-Boot board: the pipeline check must say no."""
    assert run([str(LJ / "validate-all.sh"), str(tmp_path)]).returncode == 0
    job = tmp_path / "pipeline" / "vboard-amd64.yaml"
    p = run([PY, str(LJ / "validate-pipeline.py"), str(job),
             str(LJ / "devices" / "lab-bcm2711-rpi-4-b.yaml")])
    assert p.returncode == 1, p.stdout + p.stderr


# ---------------------------------------------------------------- static

def test_suite_binary_is_static(built):
    p = run([str(LJ / "static-check.sh"), str(vboard.BUILD / "bin" / "v4l2-conform")])
    assert p.returncode == 0, p.stdout + p.stderr


def test_static_check_catches_a_dynamic_binary():
    p = run([str(LJ / "static-check.sh"), "/bin/sh"])
    assert p.returncode == 1 and "NOT static" in p.stdout


# ---------------------------------------------------------------- end to end

@pytest.fixture(scope="session")
def only(built):
    """--only for the compared runs: every suite v4l2-conform lists but
    LEFT_OUT_SUITES."""
    only = vboard.suites_but(*LEFT_OUT_SUITES)
    assert only.count("/*") >= 5, only
    return only


def comparable(results):
    return {r["name"]: r["verdict"] for r in results["results"]
            if not any(fnmatch.fnmatchcase(r["name"], g) for g in RUN_TO_RUN_IGNORE)}


@pytest.fixture(scope="session")
def direct(built, only):
    """The suite on the virtual board the usual way (9p share, no LAVA)."""
    exp = Expectations(EXPECT)
    args = exp.settings.get("run-args", "") + f" --only '{only}'"
    script = vboard.conform_script(device=exp.settings.get("device", "/dev/video0"),
                                   setup=exp.settings["setup"], args=args, snapshot_ctrls=False)
    b = vboard.run_job(script, vboard.BUILD / "lava" / "amd64" / "pytest-direct", timeout=900)
    assert not b.hung, "the virtual board hung"
    status = int((b.share / "conform.exit").read_text())
    assert status in (0, 1)
    return status, load_results(b.share / "out" / "results.json")


@pytest.fixture(scope="session")
def lava_job(built, lava_deps, only):
    """The same board through LAVA: lava-run, qemu device, tmpfs deploy."""
    out = vboard.BUILD / "lava" / "amd64" / "pytest-lava"
    p = run([str(LJ / "run-local.sh"), "--out", str(out), "--only", only])
    print(p.stdout, p.stderr)
    log = out / "lava.log"
    assert log.exists(), p.stderr
    lava = lava_results.parse(lava_results.read_log(log))
    return p, lava, log


def test_lava_job_completes(lava_job):
    p, lava, _ = lava_job
    assert lava["job"] == "pass", lava["job_error"]
    assert list(lava["definitions"]) == ["0_v4l2-conform"]
    assert p.returncode == 0, p.stdout + p.stderr  # run-local's own check (below)


def test_lava_cases_are_the_jobs_own_results(lava_job):
    """Every check the suite reported on the device is a LAVA test case of
    the same verdict, in its suite's test set, and nothing else is; the
    summary counts agree (no check left out here)."""
    _, lava, _ = lava_job
    rj = lava["results_json"]
    assert rj is not None, "no results.json in the job log"
    assert len(rj["results"]) > 300
    problems = lava_results.check_cases(lava, rj)
    assert not problems, "\n".join(problems[:40])


def test_lava_results_hold_the_direct_runs_verdicts(lava_job, direct):
    _, lava, _ = lava_job
    status, results = direct
    assert len(results["results"]) > 300
    problems = lava_results.check_cases(lava, results, ignore=RUN_TO_RUN_IGNORE)
    assert not problems, "\n".join(problems[:40])
    # the test definition run carries the suite's verdict (its exit status)
    assert lava["definitions"]["0_v4l2-conform"] == ("pass" if status == 0 else "fail")
    # and the results.json printed into the job log says the same, warn included
    assert comparable(lava["results_json"]) == comparable(results)


def test_lava_console_free_of_kernel_messages_during_the_run(lava_job):
    """dmesg -n 1: no kernel line may land among the signals (vivid's probe
    messages would otherwise come right after the set-up)."""
    _, _, log = lava_job
    started, kernel_lines = False, []
    for rec in lava_results.read_log(log):
        if rec.get("lvl") != "target" or not isinstance(rec.get("msg"), str):
            continue
        msg = rec["msg"]
        if msg.startswith("v4l2-conform: setup:"):
            started = True
        elif started and re.match(r"^\[ *\d+\.\d+\] ", msg):
            kernel_lines.append(msg)
        if "LAVA_SIGNAL_ENDRUN" in msg:
            break
    assert started
    assert not kernel_lines, kernel_lines[:10]


# ---------------------------------------------------------------- arm64

@pytest.fixture(scope="session")
def arm64_run(built, only):
    p = run(["make", "-s", "--no-print-directory", "arm64"])
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    p = run([str(LJ / "arm64-board.sh"), "build"])
    assert p.returncode == 0, p.stderr[-3000:]
    share = ARM64_BUILD / "vboard" / "pytest-run"
    p = run([str(LJ / "arm64-check.sh"), str(share), "900", only])
    print(p.stdout[-2000:], p.stderr[-2000:])
    return p, share


def test_arm64_binary_is_static_aarch64(arm64_run):
    p = run([str(LJ / "static-check.sh"), str(ARM64_BUILD / "bin" / "v4l2-conform")])
    assert p.returncode == 0, p.stdout
    assert "(AArch64)" in p.stdout


def test_arm64_board_runs_the_suite_with_the_amd64_verdicts(arm64_run, direct):
    """The whole suite ran to its end on aarch64 (arm64-check.sh's own
    comparison with vivid.expect is for people; here the verdicts must be
    those of the amd64 run, check by check)."""
    p, share = arm64_run
    exit_file = share / "conform.exit"
    assert exit_file.exists() and exit_file.read_text().strip() in ("0", "1"), \
        p.stdout[-3000:] + p.stderr[-3000:]
    console = (share / "console.log").read_text(errors="replace")
    assert re.search(r"^aarch64$", console, re.M)
    arm = load_results(share / "out" / "results.json")
    assert "arm64" in arm["run"]["kernel"]
    _, amd = direct
    a, b = comparable(arm), comparable(amd)
    assert len(a) > 300
    assert sorted(a) == sorted(b)
    diff = {n: (a[n], b[n]) for n in a if a[n] != b[n]}
    assert not diff, diff
