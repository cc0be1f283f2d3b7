"""v4l2-conform -m (issue 26): bad input on the host, the board job and the
side-by-side figures. The graph and its nodes are tested on vimc
(make run BOARD=vimc)."""
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vboard  # noqa: E402

BIN = vboard.TOP / "build" / "bin" / "v4l2-conform"


def run(*args):
    return subprocess.run([str(BIN), *args], capture_output=True, text=True)


def test_media_option_on_a_node_that_is_not_a_media_device():
    r = run("-m", "/dev/null")
    assert r.returncode == 2
    assert r.stderr.strip() == "v4l2-conform: /dev/null: not a media device (MEDIA_IOC_DEVICE_INFO: " \
                               "Inappropriate ioctl for device)"


def test_media_option_missing_node():
    r = run("-m", "/nonexistent/media9")
    assert r.returncode == 2 and "/nonexistent/media9: cannot open" in r.stderr


def test_media_and_device_together_is_bad_usage():
    r = run("-m", "/dev/null", "-d", "/dev/null")
    assert r.returncode == 2 and "give one node or one media graph" in r.stderr


def test_subdev_query_fallback_names_both_ioctls():
    r = run("-d", "/dev/null", "--list")
    assert r.returncode == 2
    assert "VIDIOC_QUERYCAP and VIDIOC_SUBDEV_QUERYCAP" in r.stderr


def test_media_script_runs_the_suite_then_compliance():
    s = vboard.media_script("/dev/media0", "modprobe x", "--only 'enum/*'")
    lines = s.splitlines()
    conform = next(i for i, l in enumerate(lines) if l.startswith("v4l2-conform -m /dev/media0 --out /share/out"))
    comp = next(i for i, l in enumerate(lines) if "v4l2-compliance -m /dev/media0" in l)
    assert conform < comp and "--only 'enum/*'" in lines[conform]


def test_compliance_figures(tmp_path):
    (tmp_path / "compliance.txt").write_text(
        "Total for vimc device /dev/v4l-subdev7: 44, Succeeded: 44, Failed: 0, Warnings: 0\n"
        "Grand Total for vimc device /dev/media0: 561, Succeeded: 560, Failed: 1, Warnings: 2\n")
    (tmp_path / "compliance.time").write_text("10.50 14.00\n")
    assert vboard.compliance_figures(tmp_path) == (561, 1, 2, 3.5)


def test_compliance_version(tmp_path):
    """The side-by-side names the v4l2-compliance that ran (Debian 13's, resolved when the board is
    built), from the first line it prints."""
    p = tmp_path / "compliance.txt"
    assert vboard.compliance_version(p) is None
    p.write_text("v4l2-compliance 1.30.1, 64 bits, 64-bit time_t\n\nCompliance test for vivid device /dev/video0:\n")
    assert vboard.compliance_version(p) == "1.30.1"
    p.write_text("Segmentation fault\n")
    assert vboard.compliance_version(p) is None


def test_compliance_figures_absent(tmp_path):
    assert vboard.compliance_figures(tmp_path) is None
    (tmp_path / "compliance.txt").write_text("Segmentation fault\n")
    (tmp_path / "compliance.time").write_text("1 2\n")
    assert vboard.compliance_figures(tmp_path) is None
