"""The emulated UVC camera's firmware faults and their runs on the board.

fixtures/cameras/uvc/faults.tsv lists the faults the camera can inject
(--fault NAME), in the fixture driver's catalogue format. Here: run every
fault on the virtual board in a few batched boots (one boot attaches the
camera once per fault for v4l2-conform and, in the full sweep, once more
before it for v4l2-compliance, each on a freshly plugged camera) and write
the side-by-side table. The judging (new failures against the well-behaved
camera) and the quick runs' --only families are fixture_bugs'.
"""
import re

import board_batches as bb
import fixture_bugs as fb
import vboard

CAMERA_DIR = vboard.TOP / "fixtures" / "cameras" / "uvc"
CATALOGUE = CAMERA_DIR / "faults.tsv"
CONF = "/usr/share/v4l2-conform/cameras/default.conf"
PROFILE = "/usr/share/v4l2-conform/boards/uvc.profile"
# fault-arg of the faults that take one: frames late, seconds to the unplug
# (8 s: inside the getset and ext families, well before the end of a whole
# run, which takes about 22 s on an idle machine).
FAULT_ARGS = {"late-apply": 40, "detach": 8}
# Runs of the well-behaved camera that are not faults: name -> uvc-camera
# arguments and v4l2-conform arguments. 'iso' streams over the isochronous
# alternate settings (the default camera streams over bulk) and runs the
# checks that stream.
# 'slow-focus' is a camera whose asynchronous focus completes 400 ms after
# SET_CUR (UVC bounds no motor's travel): the completion of a write
# (the runner putting focus back after a check) reaches the handles of the
# checks that come after it, and the event checks must tell it from
# their own subscription's events.
CAMERA_RUNS = {"iso": ("--streaming iso", "--only 'probe/*,lifecycle/*'"),
               "media": ("--fault none", "--only 'ext/*'"),
               "slow-focus": ("--async-ms 400", "--only 'events/*,cluster/*'")}
# Runs through the camera's media graph (issue 26 item 7: the uvc-media
# board's 'v4l2-conform -m /dev/media0', in the boot the faults already
# pay for): the graph's checks (MC-1, MC-2) and each interface node's run,
# in results dirs named by entity. Only the ext family on the nodes: the
# baseline has just run every check on the same video node by -d, and
# ext holds three of uvc.expect's failures, so the per-node expectations
# (uvc-media.expect's include) are judged too.
MEDIA_RUNS = {"media": "/dev/media0"}
TITLE = "# Emulated UVC camera: which tool notices which firmware fault"
INTRO = ("Each fault is one firmware mistake of the emulated camera (fault=NAME, see "
         "fixtures/cameras/uvc/faults.tsv), driven by the stock uvcvideo of the virtual board's kernel. "
         "'caught' = at least one new failure relative to the well-behaved camera; 'warning' = only new "
         "warnings; '—' = uvcvideo hides the fault from user space or no check looks there.")


def read_catalogue(path=CATALOGUE):
    return fb.read_catalogue(path)


def camera_fault_names():
    """The names uvc-camera --fault accepts (main.c's known_faults)."""
    text = (CAMERA_DIR / "main.c").read_text()
    block = text[text.index("known_faults[] = {"):]
    block = block[:block.index("NULL")]
    return re.findall(r'"([^"]+)"', block)


def batch_script(faults, device="/dev/video0", only=None, compliance=True):
    """One boot: for every fault, with `compliance` plug the camera with it,
    run v4l2-compliance, unplug; then plug it (again), run v4l2-conform
    (only[fault]: extra arguments, e.g. --only its families), unplug. The
    layout of each fault's result dir is fixture_bugs.BugRun's."""
    only = only or {}
    lines = bb.script_head(["modprobe uvcvideo && modprobe vhci-hcd || exit 3"]) + [
        "plug() {  # fault dir",
        f"  uvc-camera -c {CONF} $CAMARG $FARG --pidfile /tmp/cam.pid >> $2/camera.log 2>&1 || return 1",
        f"  i=0; while [ ! -e {device} ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done",
        f"  [ -e {device} ]",
        "}",
        "unplug() {",
        "  kill $(cat /tmp/cam.pid) 2>/dev/null",
        f"  i=0; while [ -e {device} ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done",
        f"  [ ! -e {device} ]",
        "}",
        "run_fault() {  # name fault-arg camera-arguments [v4l2-conform arguments]",
        "  d=/share/res/$1; f=$1; mkdir -p $d; FARG=${2:+--fault-arg $2}; CAMARG=${3:---fault $1}; shift 3",
    ]
    if compliance:
        lines += [
            "  if ! plug $f $d; then echo failed > $d/insmod; unplug; return; fi",
            f"  timeout 300 stdbuf -oL v4l2-compliance -d {device} > $d/compliance.txt 2>&1",
            "  echo $? > $d/compliance.exit",
            "  unplug",
        ]
    lines += [
        "  if ! plug $f $d; then echo failed > $d/insmod; unplug; return; fi",
        *bb.conform_lines(device, f"--profile {PROFILE}", node_arg=f"${{NODEARG:--d {device}}}"),
        "  cut -d' ' -f1 /proc/uptime > $d/t1",
        "  unplug; echo $? > $d/rmmod.exit",
        "  dmesg -c > $d/dmesg.txt",
        "}",
    ]
    for f in faults:
        run = (f"run_fault {f} '{FAULT_ARGS.get(f, '')}' '{CAMERA_RUNS.get(f, ('',))[0]}' "
               f"{CAMERA_RUNS[f][1] if f in CAMERA_RUNS else only.get(f, '')}".rstrip())
        lines.append(f"NODEARG='-m {MEDIA_RUNS[f]}'; {run}; NODEARG=''" if f in MEDIA_RUNS else run)
    return "\n".join(lines) + "\n"


def run_batches(faults, root, n=2, timeout=5400, only=None, compliance=True, costs=None):
    """n boards in parallel, each starting with the well-behaved camera;
    `only` and `compliance` as for batch_script, `costs` as for
    split_batches. Returns {fault: result dir} and every boot's BoardRun."""
    batches = bb.split_batches(faults, n, costs=costs)
    if only is not None:
        # Quick runs: the first boot's camera runs every check and judges
        # every fault; a later boot's runs its own faults' families only
        # (its clean state for what they test: the full run is 50 s of
        # guest time, most of it the probes). A boot with a fault that runs
        # everything ('detach') goes first.
        batches.sort(key=lambda b: _baseline_only(b, only) is not None)
        scripts = {id(b): batch_script(b, only=dict(only, **{fb.BASELINE: _baseline_only(b, only) or ""})
                                       if i else only, compliance=compliance) for i, b in enumerate(batches)}
        return bb.boot_batches(batches, lambda batch: scripts[id(batch)], root, timeout)
    return bb.boot_batches(batches, lambda batch: batch_script(batch, only=only, compliance=compliance), root, timeout)


def _baseline_only(batch, only):
    """The --only of the well-behaved camera's run in a later boot: the
    families of the boot's faults and camera runs (fixture_bugs.baseline_only);
    None when one of them runs every check."""
    g = fb.baseline_only(batch, {**only, **{f: args for f, (_, args) in CAMERA_RUNS.items()}})
    return None if g is None or "*" in re.fullmatch(r"--only '([^']*)'", g).group(1).split(",") else g


def write_detection(catalogue, runs, out_dir):
    rows = fb.detection_table(catalogue, runs)
    return rows, fb.write_detection(rows, out_dir, name="uvc-fault-detection", title=TITLE, intro=INTRO,
                                    version=fb.compliance_version_of(runs))
