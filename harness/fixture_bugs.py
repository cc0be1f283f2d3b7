"""The fixture driver's bug catalogue and its self-test runs.

fixtures/drivers/v4l2c-fixture/bugs.tsv lists the bugs the fixture module can
inject (bug=NAME). Here: read the catalogue, run every bug on the virtual
board in a few batched boots (one boot loads and unloads the module once per
bug), decide whether v4l2-conform and v4l2-compliance caught each bug, and
write the side-by-side detection table.
"""
import csv
import fnmatch
import json
import re
import subprocess
from pathlib import Path

import vboard
from board_batches import BASELINE, boot_batches, conform_lines, last_dirs, script_head, split_batches  # noqa: F401

DRIVER_DIR = vboard.TOP / "fixtures" / "drivers" / "v4l2c-fixture"
CATALOGUE = DRIVER_DIR / "bugs.tsv"
# Checks no fixture bug makes fail, each with the reason (check<TAB>reason).
NO_NEGATIVE = DRIVER_DIR / "no-negative-case.tsv"
BUGS_H = DRIVER_DIR / "fx_bugs.h"
MODULE = DRIVER_DIR / "v4l2c_fixture.ko"
# What the frame probes need to know about the fixture's picture.
PROFILE = vboard.TOP / "fixtures" / "boards" / "v4l2c-fixture.profile"
COLUMNS = ["bug", "kind", "rule", "expected_checks", "status", "description"]
# 'subdev': a bug of the sub-device personality (fx_subdev.c, subdev=1), run
# with v4l2-conform -m /dev/media0: its check names carry the node's entity
# ('fx-sensor/events/initial/...') or are the graph's ('graph/graph/...'), as
# in a media board's expectations (run_board.py).
KINDS = ("ioctl", "image", "subdev")
# The sub-device personality's bug=none run: the baseline of the subdev bugs,
# and the fixture-subdev board (fixtures/boards/fixture-subdev.expect) in the
# same boot as the other bugs.
BASELINE_SUBDEV = "none-subdev"
SUBDEV_BOARD = vboard.TOP / "fixtures" / "boards" / "fixture-subdev.expect"
MEDIA = "/dev/media0"
STATUSES = ("caught", "uncaught", "warn")
# Bugs that leave a process asleep in the kernel for good: the module can
# never be unloaded and the device never answers again, so each runs last in
# its boot, with panic_on_oops off (the board boots with oops=panic) and a
# shorter check timeout (the run must end in bounded time; how bounded is
# what these bugs test), and v4l2-compliance is not run after it (it would
# wait for the device for ever).
LAST_IN_BOOT = ("g-ctrl-null-deref", "s-ctrl-sleeps-forever")
LAST_IN_BOOT_TIMEOUT_S = 10
# Bugs whose ioctl sleeps past any check timeout (interruptibly): a run of
# just their families pays for the hang at most twice (issue 21 item 5), so
# a short timeout keeps the board's time down; a full run (no --only) keeps
# the default, which the probes need.
SHORT_TIMEOUT_S = {"contrast-try-sleeps": 5}
# Warnings that come from the emulated board, not from the bug: kernel timing
# messages under TCG and probes that passed on their retry. They never make a
# 'warn' bug's result, unless its patterns name them.
NOISE_WARNINGS = ("kernel/*", "probe/*")
# The baselines of the driver's other personalities, run in the same boots as
# the bugs: the module arguments of each, and the prefix of the bugs that
# imply it (their new failures are counted against that baseline). The
# memory-to-memory personality (fx_m2m.c) is fixtures/boards/fixture-m2m.expect.
PERSONALITIES = {"m2m-none": ("bug=none m2m=1", "m2m-")}



# An expected check that holds on some kernel series only: '<6.15:PATTERN'
# (before 6.15) or '>=6.15:PATTERN' (from 6.15), where the rule book of the
# series judges the bug's effect differently (bugs.tsv, expected()).
SERIES_PATTERN = re.compile(r"^(<|>=)(\d+)\.(\d+):(.+)$")


def read_catalogue(path=CATALOGUE):
    """bugs.tsv rows as dicts; 'patterns' and 'rules' split into lists.
    'patterns' are every pattern without its series condition (the
    families a run needs); 'conditions' {pattern: (op, series)} of those
    that have one (expected() applies them)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for r in rows:
        r["patterns"], r["conditions"] = [], {}
        for p in (p.strip() for p in r["expected_checks"].split(",")):
            m = SERIES_PATTERN.match(p)
            if m:
                p = m.group(4)
                r["conditions"][p] = (m.group(1), (int(m.group(2)), int(m.group(3))))
            if p:
                r["patterns"].append(p)
        r["rules"] = [p.strip() for p in r["rule"].split(",") if p.strip()]
    return rows


def expected(row, series):
    """The row's patterns that hold on a kernel series (all of them when
    the series is unknown)."""
    def holds(p):
        op, ver = row["conditions"].get(p, (None, None))
        return op is None or series is None or (series < ver if op == "<" else series >= ver)
    return [p for p in row["patterns"] if holds(p)]


def catalogue_param(row, reason):
    """A pytest parameter for a catalogue row: 'uncaught' rows are strict
    xfails (they turn into errors once something catches them)."""
    import pytest
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if row["status"] == "uncaught" else []
    return pytest.param(row, id=row["bug"], marks=marks)


def driver_bug_names(path=BUGS_H):
    """The names the module's bug= parameter accepts (fx_bugs.h)."""
    return re.findall(r'^\s*X\(\w+,\s*"([^"]+)"\)', path.read_text(), re.M)


def build_module(kernel=None):
    """The module for a board. kernel None: make fixture-driver (headers
    for the board's kernel, kbuild in the source folder: MODULE). A release
    (or "" for the default build, vboard.board_env): that release's build
    in build/fixture-driver/RELEASE (build-for-kernel.sh), so that modules
    for two kernels live side by side."""
    if kernel is None:
        subprocess.run(["make", "-C", str(vboard.TOP), "-s", "fixture-driver"], check=True)
        return MODULE
    rel = vboard.build_board(kernel)
    out = vboard.BUILD / "fixture-driver" / rel
    p = subprocess.run([str(vboard.TOP / "fixtures" / "drivers" / "build-for-kernel.sh"), rel, str(out)],
                       check=True, stdout=subprocess.PIPE, text=True)
    return Path(p.stdout.strip().splitlines()[-1])


def subdev_bugs(catalogue):
    return {r["bug"] for r in catalogue if r["kind"] == "subdev"}


def baseline_of(bug, catalogue):
    """The bug=none run a bug is judged against: the same personality's
    (sub-device, PERSONALITIES), or bug=none."""
    if bug == BASELINE_SUBDEV or bug in subdev_bugs(catalogue):
        return BASELINE_SUBDEV
    for name, (_, prefix) in PERSONALITIES.items():
        if bug.startswith(prefix) and bug != name:
            return name
    return BASELINE


def node_check(name):
    """'fx-sensor/events/initial/x' -> 'events/initial/x'; the graph's
    'graph/graph/node-exists/x' -> 'graph/node-exists/x'."""
    return name.split("/", 1)[1] if "/" in name else name


def families(patterns, optional=True):
    """--only globs for a bug's run: every check definition (family) its
    catalogue patterns name, whole. 'persist/reopen/*' -> 'persist/reopen'
    and 'persist/reopen/*'; 'events/*' -> 'events/*'. Optional ('?')
    patterns count too, so their collateral is still looked for, unless
    `optional` is False: then only the families that must fail run (a quick
    run's detection; the collateral in the optional ones is the full run's)."""
    globs = []
    for p in patterns:
        if not optional and p.startswith("?"):
            continue
        fam = "/".join(p.lstrip("?").split("/")[:2])
        for g in (fam, fam + "/*"):
            if g not in globs:
                globs.append(g)
    return globs


def only_args(bugs, catalogue, optional=True):
    """{bug: extra v4l2-conform arguments}: the bug's families for a
    catalogue bug (`optional` as for families); every check for the
    baseline (and for unknown names).
    A subdev bug's patterns name the node first; the graph's checks always
    run (-m), and enum/unknown-id gives every node a run of its own."""
    pats = {r["bug"]: r["patterns"] for r in catalogue}
    sub = subdev_bugs(catalogue)
    out = {}
    for b in bugs:
        if b not in pats:
            out[b] = ""
        elif b in sub:
            node = [("?" if p.startswith("?") else "") + node_check(p.lstrip("?"))
                    for p in pats[b] if not p.lstrip("?").startswith("graph/")]
            out[b] = f"--only '{','.join(families(node, optional) + ['enum/unknown-id'])}'"
        else:
            out[b] = f"--only '{','.join(families(pats[b], optional))}'"
    return out


def batch_script(bugs, device="/dev/video0", conform_args="", only=None, compliance=True, subdev=(), absent=()):
    """One boot: for every bug, load the module with it, run v4l2-conform
    (only[bug]: extra arguments, e.g. --only its families) and, with
    `compliance`, v4l2-compliance, unload. Each bug's files go to
    /share/res/<bug>/, with the kernel log of just that bug (dmesg -c) so a
    warning is attributed. The bugs in `subdev` (and BASELINE_SUBDEV, which
    is bug=none) load with subdev=1 and run on the media device (-m).
    Each bug in `absent` (its code is not in this kernel's module, why_not)
    is loaded first, to see the module refuse it: its insmod's exit status
    and kernel log in /share/res/absent/<bug>/."""
    only = only or {}
    lines = script_head(["for m in videodev videobuf2-common videobuf2-v4l2 videobuf2-vmalloc; do modprobe $m; done"]) + [
        # A task in an uninterruptible sleep for 5 s is a hung task (the
        # kernel's report fails the check: s-ctrl-uninterruptible).
        "echo 5 > /proc/sys/kernel/hung_task_timeout_secs",
        # run_bug NAME DEVICE MODULE-ARGS [v4l2-conform arguments]
        "run_bug() {",
        "  d=/share/res/$1; dev=$2; margs=$3; shift 3; mkdir -p $d",
        "  if ! insmod /share/v4l2c_fixture.ko $margs; then echo failed > $d/insmod; return; fi",
        "  i=0; while [ ! -e $dev ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done",
        "  case $dev in /dev/media*) sel=-m;; *) sel=-d;; esac",
        *[l.replace(f"-d {device}", "$sel $dev") for l in conform_lines(device, conform_args)],
    ]
    if compliance:
        # v4l2-compliance has no guard against a NEXT_CTRL walk that never
        # ends: it loops until killed (or runs out of memory).
        lines += ["  if [ -e /tmp/wedged-for-good ]; then",
                  "    echo 'not run: the bug leaves the device wedged for good' > $d/compliance.txt",
                  "  else",
                  "    timeout 120 stdbuf -oL v4l2-compliance $sel $dev > $d/compliance.txt 2>&1",
                  "    echo $? > $d/compliance.exit",
                  "  fi"]
    lines += [
        "  cut -d' ' -f1 /proc/uptime > $d/t1",
        "  rmmod v4l2c_fixture; echo $? > $d/rmmod.exit",
        "  dmesg -c > $d/dmesg.txt",
        "}",
    ]
    for b in absent:
        lines.append(f"a=/share/res/absent/{b}; mkdir -p $a; insmod /share/v4l2c_fixture.ko bug={b} > $a/insmod.txt 2>&1;"
                     " echo $? > $a/insmod.exit; rmmod v4l2c_fixture 2>/dev/null; dmesg -c > $a/dmesg.txt")
    for b in bugs:
        if b == BASELINE_SUBDEV:
            head = f"run_bug {b} {MEDIA} 'bug=none subdev=1'"
        elif b in subdev:
            head = f"run_bug {b} {MEDIA} 'bug={b} subdev=1'"
        elif b in PERSONALITIES:
            head = f"run_bug {b} {device} '{PERSONALITIES[b][0]}'"
        else:
            head = f"run_bug {b} {device} bug={b}"
        if b in LAST_IN_BOOT:
            # An Oops must kill the test process, not the board.
            lines.append("echo 0 > /proc/sys/kernel/panic_on_oops; touch /tmp/wedged-for-good")
            lines.append(f"{head} {only.get(b, '')} -t {LAST_IN_BOOT_TIMEOUT_S}")
        elif b in SHORT_TIMEOUT_S and only.get(b):
            lines.append(f"{head} {only[b]} -t {SHORT_TIMEOUT_S[b]}")
        else:
            lines.append(f"{head} {only.get(b, '')}".rstrip())
    return "\n".join(lines) + "\n"


def run_batches(bugs, root, n=2, timeout=3000, only=None, compliance=True, subdev=(), costs=None,
                kernel=None, module=MODULE):
    """Boot n boards in parallel (TCG uses one host core each). `only` and
    `compliance` as for batch_script; `costs` ({bug: seconds}) shares the
    bugs out so that the boots end together (split_batches); `kernel` and
    `module`: the build that boots (vboard.board_env) and its module.
    Returns {bug: Path of its result dir} and the BoardRun of every boot."""
    dirs, boots = run_kernels([(kernel, module, bugs, n, root)], timeout, only, compliance, subdev, costs)
    return dirs[0], boots


def baseline_only(batch, only, subdev=()):
    """The --only of a later boot's bug=none in a quick run: the families of
    that boot's own bugs (its clean state for what they test; the first
    boot's baseline runs every check and judges every bug). None: every
    check (a bug of the boot runs everything, or the boot has no bugs)."""
    globs = []
    for b in batch:
        if b in (BASELINE, BASELINE_SUBDEV) or b in PERSONALITIES or b in subdev:
            continue
        m = re.fullmatch(r"--only '([^']*)'", (only or {}).get(b, ""))
        if not m:
            return None
        globs += [g for g in m.group(1).split(",") if g not in globs]
    return f"--only '{','.join(globs)}'" if globs else None


def run_kernels(plan, timeout=3000, only=None, compliance=True, subdev=(), costs=None):
    """Several kernels' batches in one set of parallel boots: plan is
    [(kernel, module, bugs, boots, root[, absent[, costs]])]; each kernel's
    bugs are shared out over its boots as run_batches does (by its own
    costs, or `costs`), its boots' dirs root/batch<i>; `absent`
    (batch_script) go to its first boot. Returns [{bug: result dir}] in
    plan order and every BoardRun."""
    files, args = [], ""
    if PROFILE.exists():
        files.append(PROFILE)
        args = f"-p /share/{PROFILE.name}"
    # Measured 2026-12-06 (6.1, the quick runs): shared out as they came,
    # the boots' runs took 431 s and 288 s of guest time; by cost, about
    # equal (harness/batch-seconds.tsv).
    batches, boards, owner = [], [], []
    for k, (kernel, module, bugs, n, root, *rest) in enumerate(plan):
        absent = rest[0] if rest else ()
        own = rest[1] if len(rest) > 1 else costs
        for i, batch in enumerate(split_batches(bugs, n, last=LAST_IN_BOOT, costs=own)):
            # Quick runs: a later boot's baseline runs its bugs' families only
            # (the frame probes of every boot's full baseline were most of the
            # fixture's host CPU in make test).
            mine = baseline_only(batch, only, subdev) if only is not None and i > 0 else None
            script = batch_script(batch, conform_args=args, only=dict(only, **{BASELINE: mine}) if mine else only,
                                  compliance=compliance, subdev=subdev, absent=absent if i == 0 else ())
            batches.append(batch)
            boards.append((Path(root) / f"batch{i}", kernel, [module, *files], script))
            owner.append(k)
    _, boots = boot_batches(batches, None, None, timeout, boards=boards)
    dirs = [{} for _ in plan]
    for batch, k, boot in zip(batches, owner, boots):
        for b in batch:
            dirs[k].setdefault(b, boot.share / "res" / b)
    return dirs, boots


class BugRun:
    """What one bug's module load left in its result dir."""

    def __init__(self, bug, path):
        self.bug = bug
        self.path = Path(path)

    def _text(self, name):
        p = self.path / name
        return p.read_text(errors="replace").strip() if p.exists() else None

    @property
    def media(self):
        """A -m run: nodes.status and one results directory per node."""
        return (self.path / "conform" / "nodes.status").exists()

    @property
    def series(self):
        """The kernel series the run judged by (its results.json), or None."""
        p = self.path / "conform" / "results.json"
        if not p.exists():
            return None
        return kernel_series(json.loads(p.read_text()).get("run", {}).get("kernel"))

    @property
    def ran(self):
        return (self.path / "conform" / "results.json").exists() or self.media

    def problems(self):
        """Reasons the run itself is unusable or the kernel complained."""
        out = []
        if not self.path.exists():
            out.append("no result dir: the board died before this bug ran")
        elif self._text("insmod"):
            out.append("insmod failed")
        elif not self.ran:
            out.append(f"no results.json (v4l2-conform exit {self._text('conform.exit')})")
        # A LAST_IN_BOOT bug keeps the module busy for good (its stuck
        # process holds the device open): that is the bug, not a broken run.
        if self.path.exists() and self._text("rmmod.exit") not in (None, "0") and self.bug not in LAST_IN_BOOT:
            out.append(f"rmmod failed ({self._text('rmmod.exit')})")
        dmesg = self._text("dmesg.txt") or ""
        complaints = [l for l in dmesg.splitlines() if any(k in l for k in vboard.KERNEL_COMPLAINTS)]
        # A kernel report the suite itself turned into a failing verdict
        # (lib/run/kmsg_judge.c: "kernel: ...") is what the bug is about, not a
        # broken run.
        # So is a hung task left behind by a device the suite found wedged
        # (run/device-wedged).
        if complaints and self.ran and any("kernel: " in (r.get("message") or "") or n == "run/device-wedged"
                                           for n, r in self.verdicts().items() if r["verdict"] == "fail"):
            complaints = []
        return out + complaints

    def verdicts(self):
        """{check name: result}; of a -m run, every node's, each name
        'NODE/check' (the graph's too: 'graph/graph/node-exists/fx-isp'),
        as a media board's expectations name them (run_board.py)."""
        if not self.media:
            data = json.loads((self.path / "conform" / "results.json").read_text())
            return {r["name"]: r for r in data["results"]}
        out = {}
        for line in (self.path / "conform" / "nodes.status").read_text().splitlines():
            node = line.split()[0]
            res = self.path / "conform" / node / "results.json"
            if res.exists():
                out.update({f"{node}/{r['name']}": r for r in json.loads(res.read_text())["results"]})
        return out

    def compliance(self):
        """(failed, warnings, failing test lines) from v4l2-compliance's output."""
        text = self._text("compliance.txt") or ""
        # Of -m: the Grand Total over every node of the graph.
        m = (re.search(r"Grand Total for .*: (\d+), Succeeded: (\d+), Failed: (\d+), Warnings: (\d+)", text)
             or re.search(r"Total for .*: (\d+), Succeeded: (\d+), Failed: (\d+), Warnings: (\d+)", text))
        fails = [l.strip() for l in text.splitlines() if l.strip().startswith("test ") and l.endswith("FAIL")]
        if not m:
            return None, None, fails
        return int(m.group(3)), int(m.group(4)), fails


def names_with(verdicts, verdict):
    return {n for n, r in verdicts.items() if r["verdict"] == verdict}


def new_warnings(run, base, patterns=()):
    """Warnings of run that bug=none did not have, less the board's noise."""
    w = names_with(run.verdicts(), "warn") - names_with(base.verdicts(), "warn")
    globs = [p.lstrip("?") for p in patterns]
    return {n for n in w if any(fnmatch.fnmatchcase(n, g) for g in globs)
            or not any(fnmatch.fnmatchcase(n, g) for g in NOISE_WARNINGS)}


def match(names, patterns):
    """(names no pattern explains, required patterns that explain no name).
    A pattern starting with '?' is optional: collateral that depends on
    timing or on the order the suite runs its families in."""
    globs = [p.lstrip("?") for p in patterns]
    stray = sorted(n for n in names if not any(fnmatch.fnmatchcase(n, g) for g in globs))
    idle = [p for p in patterns
            if not p.startswith("?") and not any(fnmatch.fnmatchcase(n, p) for n in names)]
    return stray, idle


def conform_detection(run, base):
    """'fail', 'warn' or 'no', and the checks behind it (new relative to the
    baseline run, so a warning the clean driver also gets does not count)."""
    v, b = run.verdicts(), base.verdicts()
    failed = names_with(v, "fail") - names_with(b, "fail")
    if failed:
        return "fail", sorted(failed)
    warned = new_warnings(run, base)
    if warned:
        return "warn", sorted(warned)
    return "no", []


def compliance_detection(run, base):
    f, w, fails = run.compliance()
    bf, bw, bfails = base.compliance()
    if f is None:
        return "fail", [f"did not finish, exit {run._text('compliance.exit')}"]
    if f > (bf or 0):
        return "fail", [l for l in fails if l not in bfails] or [f"{f} failed"]
    if w > (bw or 0):
        return "warn", [f"{w} warnings"]
    return "no", []


def detection_table(catalogue, runs):
    """Rows for the side-by-side table; runs maps bug -> BugRun."""
    rows = []
    for c in catalogue:
        base = runs[baseline_of(c["bug"], catalogue)]
        r = runs.get(c["bug"])
        row = {"bug": c["bug"], "kind": c["kind"], "rule": c["rule"], "status": c["status"]}
        if r is None or not r.ran or not base.ran:
            row.update(conform="error", conform_checks=[], compliance="error", compliance_tests=[])
        else:
            row["conform"], row["conform_checks"] = conform_detection(r, base)
            row["compliance"], row["compliance_tests"] = compliance_detection(r, base)
        rows.append(row)
    return rows


def compliance_version_of(runs):
    """The v4l2-compliance version the runs' outputs print (the first that
    does), or None."""
    for r in runs.values():
        v = vboard.compliance_version(r.path / "compliance.txt")
        if v:
            return v
    return None


FIXTURE_TITLE = "# Fixture driver: which tool catches which bug"
FIXTURE_INTRO = ("Each bug is one mistake injected into the v4l2c-fixture driver (bug=NAME, see "
                 "fixtures/drivers/v4l2c-fixture/bugs.tsv), run on the virtual board. "
                 "'caught' = at least one new failure relative to bug=none; 'warning' = only new warnings.")


def write_detection(rows, out_dir, name="fixture-detection", title=FIXTURE_TITLE, intro=FIXTURE_INTRO,
                    version=None, kernel=None):
    """reports/out/<name>.{json,md} (the fixture driver's by default; the
    emulated camera's faults use the same table); `version`: the
    v4l2-compliance that ran (compliance_version_of); `kernel`: the board's
    release, in the title (the fixture's tables are one per kernel)."""
    if kernel:
        title = f"{title}, on kernel {kernel}"
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    totals = {tool: {v: sum(1 for r in rows if r[tool] == v) for v in ("fail", "warn", "no", "error")}
              for tool in ("conform", "compliance")}
    both = sum(1 for r in rows if r["conform"] != "no" and r["compliance"] != "no")
    only_conform = sum(1 for r in rows if r["conform"] != "no" and r["compliance"] == "no")
    only_compliance = sum(1 for r in rows if r["conform"] == "no" and r["compliance"] != "no")
    summary = {"bugs": len(rows), "kernel": kernel, "compliance_version": version, "totals": totals, "both": both,
               "only_conform": only_conform,
               "only_compliance": only_compliance,
               "neither": sum(1 for r in rows if r["conform"] == "no" and r["compliance"] == "no")}
    (out_dir / f"{name}.json").write_text(json.dumps({"summary": summary, "bugs": rows}, indent=1))
    mark = {"fail": "caught", "warn": "warning", "no": "—", "error": "run error"}

    def cell(r, tool, notes):
        text = mark[r[tool]]
        if r[tool] == "fail" and notes and notes[0].startswith("did not finish"):
            text += f" ({notes[0]})"
        return text
    ver = version or "(version not printed)"
    md = [title, "", intro, f" v4l2-compliance: {ver}, Debian 13's, on the same board.", "",
          f"| bug | kind | rule | v4l2-conform | v4l2-compliance {ver} | catalogue |",
          "|---|---|---|---|---|---|"]
    for r in rows:
        md.append(f"| {r['bug']} | {r['kind']} | {r['rule']} | {cell(r, 'conform', [])} | "
                  f"{cell(r, 'compliance', r['compliance_tests'])} | {r['status']} |")
    t = totals
    md += ["", f"Totals over {len(rows)} bugs: v4l2-conform caught {t['conform']['fail']} "
           f"(+{t['conform']['warn']} warned), v4l2-compliance caught {t['compliance']['fail']} "
           f"(+{t['compliance']['warn']} warned); both {both}, only v4l2-conform {only_conform}, "
           f"only v4l2-compliance {only_compliance}, neither {summary['neither']}.", ""]
    (out_dir / f"{name}.md").write_text("\n".join(md))
    return summary


# Interfaces a kernel series gained: the fixture implements them (and their
# bugs) only from that release on (fx_compat.h FX_MINMAX), and the checks of
# them are recorded skips before it (suites/suite_minmax.c, lib/ctrl/rulebook.c).
SINCE_BUGS = {"minmax-": (6, 15)}
SINCE_CHECKS = {"minmax/": (6, 15)}
# Interfaces a kernel series took away from drivers: from 6.15 a driver has
# no QUERYCTRL, G_CTRL or S_CTRL op, the core answers those ioctls from the
# driver's extended ones (7.3 drivers/media/v4l2-core/v4l2-ioctl.c:2313-2318
# v4l_queryctrl through vidioc_query_ext_ctrl, :2368-2381 v4l_g_ctrl and
# :2399-2408 v4l_s_ctrl through vidioc_g/s_ext_ctrls), so the module built
# for 6.15+ leaves out fx_queryctrl, fx_g_ctrl and fx_s_ctrl (fx_compat.h
# FX_OLD_CTRL_OPS) and with them the bugs that live only there (fx_bugs.h
# FX_OLD_OPS_BUGS, which refuses them on such a module). Their checks keep
# them as their negative case: they are detected on the kernels they exist on.
OLD_OPS_GONE = (6, 15)
UNTIL_BUGS = {b: OLD_OPS_GONE for b in (
    "unknown-id-accepted", "button-readable", "button-get-einval", "int64-g-ctrl", "queryctrl-step-mismatch",
    "s-ctrl-no-writeback", "event-s-ctrl-silent", "button-set-refused", "frame-count-bit8",
    "s-ctrl-uninterruptible", "s-ctrl-wedges-device", "g-ctrl-null-deref", "s-ctrl-sleeps-forever",
    "disabled-cleared-by-set")}


def kernel_series(kernel):
    """'Linux 6.1.0-57-amd64 x86_64' or '7.3.4+deb13-amd64' -> (6, 1); None
    when it names no release."""
    m = re.search(r"(?:^|\s)(\d+)\.(\d+)", kernel or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def _since(name, table, series):
    need = next((v for k, v in table.items() if name.startswith(k)), None)
    return need is None or series is None or series >= need


def bug_applies(bug, series):
    """The bug's code exists in the module built for this kernel series."""
    return why_not(bug, series) is None


def why_not(bug, series):
    """None when the bug exists in the module for this kernel series, else
    the reason, for the recorded skip."""
    if not _since(bug, SINCE_BUGS, series):
        return (f"bug={bug}: the interface it breaks (WHICH_MIN_VAL/MAX_VAL, RECT) exists from 6.15; the module "
                f"for kernel {_dotted(series)} has no such code (fx_compat.h FX_MINMAX)")
    until = UNTIL_BUGS.get(bug)
    if until and series is not None and series >= until:
        return (f"bug={bug}: it lives in the driver's QUERYCTRL/G_CTRL/S_CTRL ops, which a driver has no longer "
                f"from {_dotted(until)} (the core answers them from the extended ops: 7.3 v4l2-ioctl.c:2313, "
                f":2368, :2399); the module for kernel {_dotted(series)} has no such code (fx_compat.h "
                f"FX_OLD_CTRL_OPS); judged on a kernel before {_dotted(until)}")
    return None


# Bugs whose effect the suite judges differently on different kernel
# series, beyond expected checks with a series condition (bugs.tsv
# '<6.15:'): make test runs them on 6.1 as well as on the newest kernel.
SERIES_DEPENDENT = {
    "undefined-flag-bit": "FL-14 judges a flag bit by the rule book of the kernel's series (lib/ctrl/rulebook.c)",
    "brightness-sleeps": "the module sleeps in its own QUERYCTRL op before 6.15 and in G_EXT_CTRLS from 6.15, "
                         "where the core's QUERYCTRL goes through QUERY_EXT_CTRL (7.3 v4l2-ioctl.c:2315), "
                         "which does not sleep",
}


def series_dependent(row):
    return bool(row["conditions"]) or row["bug"] in SERIES_DEPENDENT


def plan_kernels(catalogue, kernels, full=False):
    """{label: [bugs]} for kernels [(label, series)], the newest last: with
    `full` every bug on every kernel it exists on; else each bug on the
    newest kernel it exists on, and on the others only the bugs that
    do not exist on the newest or that it judges by the series
    (series_dependent)."""
    newest = kernels[-1][1]
    out = {}
    for label, series in kernels:
        out[label] = [r["bug"] for r in catalogue if bug_applies(r["bug"], series) and
                      (full or label == kernels[-1][0] or not bug_applies(r["bug"], newest) or series_dependent(r))]
    return out


def absent_probes(catalogue, series):
    """Bugs whose code the module for this series lacks, one for each
    reason (an interface newer than the series, one drivers lost): the
    loads that must be refused (batch_script `absent`). One each: a
    refused load costs about 2.5 s of guest time under TCG."""
    out = []
    for since in (True, False):
        out += [r["bug"] for r in catalogue if not bug_applies(r["bug"], series) and
                (not _since(r["bug"], SINCE_BUGS, series)) == since][:1]
    return out


def _dotted(series):
    return ".".join(map(str, series)) if series else "?"


def check_applies(template, series):
    """The check can run (not only skip) on this kernel series."""
    return _since(template, SINCE_CHECKS, series)


def check_templates(conform=vboard.BUILD / "bin" / "v4l2-conform"):
    """The check names 'v4l2-conform --list' prints without a device, with
    the per-control or per-item part cut off: 'ext/int64', 'ext/count-zero'."""
    out = subprocess.run([str(conform), "--list"], check=True, capture_output=True, text=True).stdout
    return sorted({re.sub(r"/<[^>]+>$", "", line.split()[0]) for line in out.splitlines() if line.strip()})


def template_of(name, templates):
    """The check an instance belongs to: the longest template that is the
    name or a path prefix of it (of a -m run's 'NODE/check', of 'check')."""
    if "/" in name and name.split("/", 1)[0] not in {t.split("/", 1)[0] for t in templates}:
        name = node_check(name)
    best = None
    for t in templates:
        if (name == t or name.startswith(t + "/")) and (best is None or len(t) > len(best)):
            best = t
    return best


def caught_templates(catalogue, runs, templates):
    """Checks that some bug's run made fail (or, for 'warn' bugs, warn)
    beyond the baseline: the checks proven able to fail."""
    caught = set()
    for row in catalogue:
        base = runs[baseline_of(row["bug"], catalogue)]
        b = base.verdicts()
        run = runs.get(row["bug"])
        if run is None or not run.ran:
            continue
        v = run.verdicts()
        names = names_with(v, "fail") - names_with(b, "fail")
        if row["status"] == "warn":
            names |= new_warnings(run, base, row["patterns"])
        caught |= {template_of(n, templates) for n in names}
    return caught - {None}


def read_no_negative(path=NO_NEGATIVE):
    """{check: reason} of the checks the fixture cannot make fail."""
    out = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            check, reason = line.split("\t", 1)
            out[check.strip()] = reason.strip()
    return out
