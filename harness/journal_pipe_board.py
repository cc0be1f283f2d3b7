"""The restore journal's pipeline part (lib/run/journal_pipe.c), on the
virtual board with the fixture's sub-device personality (subdev=1), in the
boot of test_restore_journal.py (after its vivid runs): a run on
the sensor sub-device killed with SIGKILL while its probes hold the pipeline
leaves the pipeline changed (here: the sensor's pad format, as a probe or
run/pipeline-streams sets it); `v4l2-conform --restore` on the sensor's node
sets the pipeline of the journal back and reads it back, and a new run
restores a left-over journal's pipeline before it saves its own state."""
import re

import fixture_bugs as fb
import vboard
from results import Expectations

SENSOR = ("S=; for n in /sys/class/video4linux/v4l-subdev*; do "
          "[ \"$(cat $n/name)\" = fx-sensor ] && S=/dev/${n##*/}; done")
FMT = "v4l2-ctl -d $S --get-subdev-fmt pad=0"


def kill_when_journalled(tag, args):
    """Start a run on the sensor, kill its session once its journal is
    written (the checks have begun), then change the pipeline as a killed
    probe would have left it."""
    # Bounded waits sized for a busy host (the guest's clock runs on while
    # it is not run): up to 300 s for the journal, and after SIGKILL until
    # no live process of the session is left (its test process holds the
    # device's lock until it has exited; zombies hold nothing).
    return [f"setsid v4l2-conform -d $S --out /share/{tag} --only 'probe/*' {args} > /share/{tag}.log 2>&1 &",
            "p=$!; i=0; while ! ls /run/v4l2-conform/*journal* > /dev/null 2>&1 && [ $i -lt 3000 ]; do "
            "sleep 0.1; i=$((i+1)); done",
            "for f in /proc/[0-9]*/stat; do read -r l < $f 2>/dev/null || continue; set -- $l;"
            " [ \"$6\" = \"$p\" ] && kill -9 $1; done",
            "wait $p 2>/dev/null",
            "i=0; while [ $i -lt 600 ]; do alive=0; for f in /proc/[0-9]*/stat; do read -r l < $f 2>/dev/null || "
            "continue; set -- $l; [ \"$6\" = \"$p\" ] && [ \"$3\" != Z ] && alive=1; done; [ $alive = 0 ] && break; "
            "sleep 0.1; i=$((i+1)); done",
            f"ls /run/v4l2-conform > /share/journal-{tag}.txt 2>&1",
            "v4l2-ctl -d $S --set-subdev-fmt pad=0,width=320,height=240 > /dev/null 2>&1",
            f"{FMT} > /share/fmt-killed-{tag}.txt 2>&1"]


def job_lines():
    """The job's part after the vivid journal runs (test_restore_journal.py's
    boot): load the fixture's sub-device personality, kill a run on its
    sensor, --restore; kill again, then a new run."""
    exp = Expectations(fb.SUBDEV_BOARD)
    args = exp.settings["run-args"]
    lines = [f"{exp.settings['setup']} || exit 4",
             "i=0; while ! ls /dev/v4l-subdev1 > /dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done",
             SENSOR, "echo $S > /share/sensor.txt", f"{FMT} > /share/fmt-before.txt 2>&1"]
    lines += kill_when_journalled("k1", args)
    lines += ["v4l2-conform -d $S --restore > /share/restore.log 2>&1; echo $? > /share/restore.exit",
              f"{FMT} > /share/fmt-restored.txt 2>&1"]
    lines += kill_when_journalled("k2", args)
    lines += [f"v4l2-conform -d $S --out /share/next-pipe --only 'enum/unknown-id' {args} "
              "> /share/next-pipe.log 2>&1; echo $? > /share/next-pipe.exit",
              f"{FMT} > /share/fmt-next.txt 2>&1"]
    return lines


def job_files():
    return [fb.build_module(), fb.PROFILE]


def text(board, name):
    return (board.share / name).read_text(errors="replace")


def size(board, name):
    m = re.search(r"Width/Height\s*:\s*(\d+)/(\d+)", text(board, name))
    assert m, f"{name}: {text(board, name)}"
    return int(m[1]), int(m[2])


def check_kill_left_the_pipeline_changed(board):
    assert text(board, "sensor.txt").startswith("/dev/v4l-subdev"), text(board, "sensor.txt")
    assert size(board, "fmt-before.txt") == (640, 480)
    for tag in ("k1", "k2"):
        assert "journal" in text(board, f"journal-{tag}.txt"), text(board, f"journal-{tag}.txt")
        assert size(board, f"fmt-killed-{tag}.txt") == (320, 240)


def check_restore_sets_the_pipeline_back(board):
    log = text(board, "restore.log")
    assert text(board, "restore.exit").strip() == "0", log
    assert re.search(r"restored the media pipeline \(/dev/media\d+: \d+ links, \d+ pad formats, 1 capture formats\)",
                     log), log
    assert size(board, "fmt-restored.txt") == (640, 480)


def check_next_run_restores_the_pipeline_first(board):
    log = text(board, "next-pipe.log")
    assert text(board, "next-pipe.exit").strip() == "0", log
    assert "restored the media pipeline" in log, log
    assert size(board, "fmt-next.txt") == (640, 480)
