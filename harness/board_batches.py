"""Many driver or camera variants on the virtual board in a few boots: the
shape the fixture driver's bug runs (fixture_bugs.py) and the emulated
camera's fault runs (uvc_faults.py) share. Each boot runs one shell job that
brings up one variant after another and leaves each one's files in
/share/res/<name>/ (v4l2-conform's results, exit status, guest times and the
kernel log of just that variant); the variants are split over boards that
run in parallel, each starting with the baseline so every boot proves its
own clean state.
"""
import threading
from pathlib import Path

import vboard

BASELINE = "none"


def script_head(setup):
    """The job's first lines: setup (shell, a list of lines) and the boot's
    own kernel log, so each variant's log (dmesg -c) is its own."""
    return ["set -u", *setup, "mkdir -p /share/res; dmesg -c > /share/res/boot-dmesg.txt"]


def conform_lines(device, args, node_arg=None):
    """Inside a variant's shell function, $d its result dir: the guest times
    around one v4l2-conform run and its exit status ("$@": the variant's
    extra arguments). node_arg replaces '-d device' (e.g. a shell variable
    that may say '-m /dev/media0')."""
    return [
        "  cut -d' ' -f1 /proc/uptime > $d/t0",
        f"  timeout 900 v4l2-conform {node_arg or '-d ' + device} --out $d/conform {args} \"$@\" > $d/conform.log 2>&1",
        "  echo $? > $d/conform.exit",
    ]


def split_batches(names, n, last=()):
    """n batches of about equal size; each starts with the baseline, so every
    boot proves its own clean state. Names in `last` (runs that wedge the
    board for good) end batches, one per batch (more than n of them would
    need more boots)."""
    rest = [b for b in names if b != BASELINE and b not in last]
    tail = [b for b in names if b in last]
    assert len(tail) <= n, f"{len(tail)} runs that wedge the board for good need {len(tail)} boots"
    return [[BASELINE] + rest[i::n] + tail[i:i + 1] for i in range(n)]


def boot_batches(batches, script_of, root, timeout, files=()):
    """One board per batch, in parallel, each running script_of(batch);
    every name's results in <share>/res/<name>."""
    runs = [None] * len(batches)

    def boot(i):
        runs[i] = vboard.run_job(script_of(batches[i]), root / f"batch{i}", timeout=timeout, files=files,
                                 echo=False)

    threads = [threading.Thread(target=boot, args=(i,)) for i in range(len(batches))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    dirs = {}
    for i, batch in enumerate(batches):
        for b in batch:
            dirs.setdefault(b, runs[i].share / "res" / b)
    return dirs, runs


def last_dirs(root, names):
    """{name: its result dir} from the boots last run under root, for
    re-judging them without booting (a missing name gets a dir that does
    not exist, so its run reports no results)."""
    dirs = {}
    for d in sorted(Path(root).glob("batch*/res/*")):
        dirs.setdefault(d.name, d)
    return {n: dirs.get(n, Path(root) / "missing" / n) for n in names}
