"""Host side of the virtual board: write a job, boot it, collect what it left.

The guest runs SHARE/job.sh with SHARE mounted at /share (fixtures/vboard/init);
everything the job writes there is on the host when the VM has powered off.
"""
import contextlib
import fcntl
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
VBOARD = TOP / "fixtures" / "vboard" / "vboard"
BUILD = TOP / "build"
# The board's artifacts and run directories: one per kernel when
# VBOARD_KERNEL (make run KERNEL=...) picks another Debian build (fixtures/vboard/vboard).


def board_out() -> Path:
    """The board's build directory (initramfs, kernel.release) of the kernel
    VBOARD_KERNEL names at the time of the call: a test may boot one board
    kind on two kernels in one process (on_kernel)."""
    kernel = os.environ.get("VBOARD_KERNEL", "")
    return Path(os.environ.get("VBOARD_OUT") or BUILD / (f"vboard-{kernel}" if kernel else "vboard"))

# make test-full (V4L2C_TEST_FULL=1): what adds no kind of coverage runs
# there only, e.g. the boards on 6.12 beside 6.1 and the newest kernel.
FULL = bool(os.environ.get("V4L2C_TEST_FULL"))


def kernel_builds():
    """{series: [release...]} of Debian's installable amd64 builds (kbuilds.py),
    asked once per test process: apt decides at run time, never a list here."""
    global _BUILDS
    if _BUILDS is None:
        import kbuilds
        _BUILDS = kbuilds.available_builds()
    return _BUILDS


_BUILDS = None


def newest_kernel(series=None):
    """The newest installable build of a series ("6.12"), or of all of them
    (today a trixie-backports 7.x): make test's second kernel for every
    board kind (issue 33). Fails with one line when apt offers none."""
    import kbuilds
    builds = kernel_builds()
    order = [s for s, _ in kbuilds.SERIES if builds.get(s)]
    pick = series or (order[-1] if order else None)
    if not pick or not builds.get(pick):
        raise RuntimeError(f"no installable Debian kernel build of series {series or 'any'} (apt-cache, kbuilds.py)")
    return builds[pick][-1]


def suites_but(*left_out):
    """An --only naming every suite v4l2-conform lists except `left_out`."""
    p = subprocess.run([str(BUILD / "bin" / "v4l2-conform"), "--list"], capture_output=True, text=True,
                       check=True)
    suites = []
    for line in p.stdout.splitlines():
        s = line.split("/", 1)[0].strip()
        if "/" in line and s and s not in suites and s not in left_out:
            suites.append(s)
    return ",".join(f"{s}/*" for s in suites)


def board_kernels(full=FULL):
    """make test's kernels of a board kind, as (test id, release): the
    board's 6.1 ("" the default build) and the newest build Debian has
    (issue 33); `full` (make test-full) adds the newest 6.12."""
    return [("6.1", ""), ("newest", newest_kernel())] + ([("6.12", newest_kernel("6.12"))] if full else [])


# Exit statuses of fixtures/vboard/run-vm.sh besides the job's own.
HUNG = 124
CRASHED = 125
# Our own tooling failed (a module that does not build, a missing program, a
# download that fails): not the kernel's fault, so never a bisect skip. Above
# 127, so that `git bisect run` aborts on it too (docs/bisecting.md); the
# scripts print one line naming the cause.
TOOLING_FAILED = 128

KERNEL_COMPLAINTS = ("WARNING:", "BUG:", "Oops", "general protection fault", "Call Trace:",
                     "kernel BUG", "UBSAN:", "KASAN:", "list_del corruption", "refcount_t:")


class BoardRun:
    """What one boot left behind."""

    def __init__(self, share: Path, status: int, wall_s: float, cpu_s: float = None):
        self.share = share
        self.status = status
        self.wall_s = wall_s
        # Host CPU seconds of the boot (QEMU and the scripts around it): on
        # a shared host, the figure that compares runs under different load.
        self.cpu_s = cpu_s

    @property
    def hung(self):
        return self.status == HUNG

    @property
    def console(self):
        p = self.share / "console.log"
        return p.read_text(errors="replace") if p.exists() else ""

    @property
    def dmesg(self):
        p = self.share / "dmesg.txt"
        return p.read_text(errors="replace") if p.exists() else ""

    def kernel_complaints(self, allow=()):
        """Lines in which the guest kernel warned or crashed (IGT-style: a
        driver that WARNs during a run is reported even if every check passed).
        A message matching one of the `allow` regexes is a known, harmless one
        of the board: it and the stack dump that follows it are left out."""
        out, in_allowed_dump = [], 0
        for line in self.dmesg.splitlines():
            if any(re.search(a, line) for a in allow):
                in_allowed_dump = 80  # a dump is never longer than this
                continue
            if in_allowed_dump:
                in_allowed_dump -= 1
                if "</TASK>" in line or "end trace" in line:
                    in_allowed_dump = 0
                continue
            if any(k in line for k in KERNEL_COMPLAINTS):
                out.append(line)
        return out


@contextlib.contextmanager
def on_kernel(kernel):
    """In-process code that reads the environment (run_board.main, the
    `build:` targets of board_files) runs on `kernel` inside: os.environ
    is board_env(kernel) there, the board built first (build_board);
    restored after. Code that takes an env or kernel= needs none of it."""
    saved, env = dict(os.environ), board_env(kernel)
    build_board(kernel)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def ensure_built(extra=()):
    """Build the suite and the initramfs (cached kernel download). Test
    processes running side by side (pytest-xdist) take turns: two makes
    relinking one binary, or two initramfs builds, would corrupt them."""
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(BUILD / ".ensure-built.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(["make", "-C", str(TOP), "-s", "all"], check=True)
        subprocess.run([str(VBOARD), "build", *extra], check=True)


def board_env(kernel=None):
    """The environment of a vboard command for `kernel`: None keeps the
    process's own (VBOARD_KERNEL as the caller set it), "" is the default
    build (6.1), a release is that Debian build; either of the last two
    with that kernel's own artifacts (VBOARD_OUT dropped)."""
    env = dict(os.environ)
    if kernel is not None:
        env.pop("VBOARD_OUT", None)
        env.pop("VBOARD_KERNEL", None)
        if kernel:
            env["VBOARD_KERNEL"] = kernel
    return env


def build_board(kernel=None):
    """`vboard build` for `kernel` (board_env): its download (cached) and
    initramfs; returns the release it boots."""
    env = board_env(kernel)
    subprocess.run([str(VBOARD), "build"], env=env, check=True, stdout=subprocess.DEVNULL)
    return release_of(kernel)


def release_of(kernel=None):
    """The release a board for `kernel` (board_env) boots, as its last
    build recorded it (or fetch-kernel.sh resolves it)."""
    return subprocess.run([str(VBOARD), "release"], env=board_env(kernel), check=True, capture_output=True,
                          text=True).stdout.strip()


def run_job(script: str, share: Path, timeout: int = 600, files=(), quiet=True, echo=True,
            kernel=None) -> BoardRun:
    """Boot once, run `script` as /share/job.sh. `files` are copied into the
    share first (e.g. a fixture module). The console is echoed live.
    `kernel`: which build boots (board_env); its board must be built."""
    if share.exists():
        shutil.rmtree(share)
    share.mkdir(parents=True)
    (share / "job.sh").write_text(script)
    for f in files:
        shutil.copy(f, share / Path(f).name)
    env = dict(board_env(kernel), VBOARD_QUIET="1" if quiet else "0")
    t0 = time.monotonic()
    proc = subprocess.Popen([str(VBOARD), "run", str(share), str(timeout)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    for line in proc.stdout:
        # SeaBIOS paints the screen with escape sequences; keep the log readable.
        if echo and not line.startswith(("\x1b", "c\x1b", "SeaBIOS", "Booting from", "Probing EDD")):
            sys.stdout.write(line)
            sys.stdout.flush()
    # wait4: the exit status and the CPU time of the board's whole process tree.
    _, wstatus, usage = os.wait4(proc.pid, 0)
    status = proc.returncode = os.waitstatus_to_exitcode(wstatus)
    run = BoardRun(share, status, time.monotonic() - t0, usage.ru_utime + usage.ru_stime)
    # Beside the console, for comparing make test runs (harness/board_times.py).
    (share / "board.time").write_text(f"wall {run.wall_s:.1f} cpu {run.cpu_s:.1f}\n")
    return run


def conform_script(device="/dev/video0", setup="modprobe vivid n_devs=1", args="", out="out",
                   snapshot_ctrls=True):
    """A job that loads the driver, runs v4l2-conform and records its exit
    status. v4l2-ctl's view of the controls before and after is kept so
    that the harness checks 'left as found' independently of the suite."""
    lines = ["set -u", f"{setup} || {{ echo 'job: driver set-up failed'; exit 3; }}",
             "i=0; while [ ! -e %s ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done" % device]
    if snapshot_ctrls:
        lines.append(f"v4l2-ctl -d {device} --list-ctrls > /share/ctrls-before.txt 2>&1")
    lines.append("t0=$(cut -d' ' -f1 /proc/uptime)")
    lines.append(f"v4l2-conform -d {device} --out /share/{out} {args}")
    lines.append("st=$?")
    lines.append("t1=$(cut -d' ' -f1 /proc/uptime)")
    lines.append("echo \"$st\" > /share/conform.exit")
    lines.append("echo \"$t0 $t1\" > /share/conform.time")
    if snapshot_ctrls:
        lines.append(f"v4l2-ctl -d {device} --list-ctrls > /share/ctrls-after.txt 2>&1")
    lines.append("exit $st")
    return "\n".join(lines) + "\n"


def nodes_script(patterns, setup, args=""):
    """A job that loads the driver, then runs v4l2-conform on every node
    matching the shell globs `patterns`, one after the other, each into
    /share/out/NODE (results, log, v4l2-ctl's controls before and after).
    /share/nodes.txt lists the nodes, /share/nodes.status 'NODE EXIT T0 T1'."""
    return "\n".join([
        "set -u", f"{setup} || {{ echo 'job: driver set-up failed'; exit 3; }}",
        "i=0; while [ $i -lt 50 ]; do for n in %s; do [ -c \"$n\" ] && break 2; done; sleep 0.1; i=$((i+1)); done"
        % patterns,
        ": > /share/nodes.txt; : > /share/nodes.status",
        f"for n in {patterns}; do [ -c \"$n\" ] && echo \"$n\" >> /share/nodes.txt; done",
        "for n in $(cat /share/nodes.txt); do",
        "  b=${n##*/}; o=/share/out/$b; mkdir -p $o",
        "  v4l2-ctl -d $n --list-ctrls > $o/ctrls-before.txt 2>&1",
        "  t0=$(cut -d' ' -f1 /proc/uptime)",
        f"  v4l2-conform -d $n --out $o {args} > $o/log.txt 2>&1",
        "  st=$?",
        "  echo \"$b $st $t0 $(cut -d' ' -f1 /proc/uptime)\" >> /share/nodes.status",
        "  echo \"== $n: exit $st\"",
        "  v4l2-ctl -d $n --list-ctrls > $o/ctrls-after.txt 2>&1",
        "done", ""])


def media_script(media, setup, args=""):
    """A job that loads the driver, then runs v4l2-conform -m on the media
    graph `media`: the suite itself tests every interface node into
    /share/out/ENTITY and the graph's checks into /share/out/graph, and
    lists them in /share/out/nodes.status ('DIR EXIT T0 T1'), which
    becomes /share/nodes.status as nodes_script() writes it."""
    return "\n".join([
        "set -u", f"{setup} || {{ echo 'job: driver set-up failed'; exit 3; }}",
        "i=0; while [ ! -c %s ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done" % media,
        "t0=$(cut -d' ' -f1 /proc/uptime)",
        f"v4l2-conform -m {media} --out /share/out {args} > /share/conform.log 2>&1",
        "st=$?",
        "echo \"$st\" > /share/conform.exit",
        "echo \"$t0 $(cut -d' ' -f1 /proc/uptime)\" > /share/conform.time",
        "cp /share/out/nodes.status /share/nodes.status 2>/dev/null || : > /share/nodes.status",
        "echo \"== v4l2-conform -m {media}: exit $st\"",
        # side by side (issue 26 item 6): v4l2-compliance on the same graph, same boot
        "a=$(cut -d' ' -f1 /proc/uptime)",
        "stdbuf -oL v4l2-compliance -m {media} > /share/compliance.txt 2>&1; echo $? > /share/compliance.exit",
        "echo \"$a $(cut -d' ' -f1 /proc/uptime)\" > /share/compliance.time", ""]).replace("{media}", media)


def compliance_version(path: Path):
    """The version v4l2-compliance printed at the top of its output (the
    board carries what Debian 13 offers, resolved when the board is built:
    fixtures/vboard/v4l-utils-1.30.sh), e.g. '1.30.1', or None."""
    text = path.read_text(errors="replace") if path.exists() else ""
    m = re.search(r"^v4l2-compliance (\d+\.\d+\.\d+)", text, re.M)
    return m.group(1) if m else None


def compliance_figures(share: Path):
    """(tests, failed, warnings, guest seconds) of a media_script()'s
    v4l2-compliance run from its last summary line, or None."""
    p, t = share / "compliance.txt", share / "compliance.time"
    if not p.exists() or not t.exists():
        return None
    line = [l for l in p.read_text(errors="replace").splitlines() if l.startswith("Grand Total")
            or l.startswith("Total for")]
    if not line:
        return None
    m = re.search(r"Total(?: for [^:]*)?: (\d+), Succeeded: (\d+), Failed: (\d+), Warnings: (\d+)", line[-1])
    if not m:
        return None
    t0, t1 = (float(x) for x in t.read_text().split())
    return int(m.group(1)), int(m.group(3)), int(m.group(4)), t1 - t0


def nodes_status(share: Path):
    """{node: (exit, guest seconds)} from a nodes_script() run."""
    out = {}
    p = share / "nodes.status"
    for line in (p.read_text().splitlines() if p.exists() else []):
        b, st, t0, t1 = line.split()
        out[b] = (int(st), float(t1) - float(t0))
    return out


def guest_suite_seconds(share: Path):
    p = share / "conform.time"
    if not p.exists():
        return None
    t0, t1 = (float(x) for x in p.read_text().split())
    return t1 - t0
