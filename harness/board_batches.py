"""Many driver or camera variants on the virtual board in a few boots: the
shape the fixture driver's bug runs (fixture_bugs.py) and the emulated
camera's fault runs (uvc_faults.py) share. Each boot runs one shell job that
brings up one variant after another and leaves each one's files in
/share/res/<name>/ (v4l2-conform's results, exit status, guest times and the
kernel log of just that variant); the variants are split over boards that
run in parallel, each starting with the baseline so every boot proves its
own clean state.
"""
import statistics
import threading
from pathlib import Path

import vboard

BASELINE = "none"
# Each variant's measured guest seconds in make test's quick runs (--only
# its families), for sharing the variants out evenly over the boots.
COSTS = Path(__file__).resolve().with_name("batch-seconds.tsv")
# What a variant costs besides its run (t0..t1): the module loaded and
# unloaded, or the camera plugged and unplugged, its kernel log saved.
PER_VARIANT_S = 1.5


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


def read_costs(kind, path=COSTS, series=None):
    """{name: guest seconds} of one kind of variant ('fixture', 'uvc'); with
    `series` ('7.3'), that kernel series' own rows ('fixture@7.3') replace
    the kind's where they exist."""
    out, own = {}, {}
    for line in Path(path).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            k, name, secs = line.split("\t")
            if k == kind:
                out[name] = float(secs)
            elif series and k == f"{kind}@{series}":
                own[name] = float(secs)
    return {**out, **own}


def split_batches(names, n, last=(), costs=None):
    """n batches of about equal cost; each starts with the baseline, so every
    boot proves its own clean state. Names in `last` (runs that wedge the
    board for good) end batches, one per batch (more than n of them would
    need more boots). The rest go costliest first to the batch that costs
    least so far (costs: {name: seconds}, a name missing counts as the
    median; without costs every name costs the same), so that the boots,
    which run side by side, end together; in a batch they keep their order."""
    rest = [b for b in names if b != BASELINE and b not in last]
    tail = [b for b in names if b in last]
    assert len(tail) <= n, f"{len(tail)} runs that wedge the board for good need {len(tail)} boots"
    costs = costs or {}
    default = statistics.median(costs.values()) if costs else 0.0

    def cost(name):
        return costs.get(name, default) + PER_VARIANT_S
    load = [cost(BASELINE) + (cost(tail[i]) if i < len(tail) else 0) for i in range(n)]
    mine = [[] for _ in range(n)]
    for name in sorted(rest, key=lambda b: -cost(b)):    # stable: equal costs keep their order
        i = load.index(min(load))
        mine[i].append(name)
        load[i] += cost(name)
    order = {b: k for k, b in enumerate(names)}
    return [[BASELINE] + sorted(mine[i], key=order.get) + tail[i:i + 1] for i in range(n)]


def share_boots(groups, n, costs=None):
    """How many of n boots each group of variants gets (a kernel's, in the
    fixture's runs on two kernels), so that the boots, which all run side
    by side, end together: groups is [(names, last[, costs])]; a group gets
    at least one boot and one per run in `last` it has (split_batches),
    then each further boot goes to the group whose boots would take longest
    (each boot repeats the baseline: costs as in split_batches, a group's
    own or `costs`)."""
    def cost_fn(table):
        table = table or {}
        default = statistics.median(table.values()) if table else 1.0
        return lambda name: table.get(name, default) + PER_VARIANT_S
    cost = [cost_fn(g[2] if len(g) > 2 else costs) for g in groups]
    work = [sum(cost[k](b) for b in g[0] if b != BASELINE) for k, g in enumerate(groups)]
    boots = [max(1, sum(1 for b in g[0] if b in g[1])) for g in groups]
    assert sum(boots) <= n, f"{sum(boots)} boots needed at least, {n} allowed"

    def per_boot(k):
        return work[k] / boots[k] + cost[k](BASELINE)
    while sum(boots) < n:
        k = max(range(len(groups)), key=per_boot)
        boots[k] += 1
    return boots


def boot_batches(batches, script_of, root, timeout, files=(), boards=None):
    """One board per batch, in parallel, each running script_of(batch);
    every name's results in <share>/res/<name>. `boards`, one per batch:
    (share dir, kernel for vboard.run_job, files, script or None) of boots
    that differ (the fixture on two kernels, each with its own module); by
    default root/batch<i>, the caller's kernel and `files`, script_of's."""
    boards = boards or [(root / f"batch{i}", None, files, None) for i in range(len(batches))]
    runs = [None] * len(batches)

    def boot(i):
        share, kernel, mine, script = boards[i]
        runs[i] = vboard.run_job(script or script_of(batches[i]), share, timeout=timeout, files=mine,
                                 echo=False, kernel=kernel)

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
