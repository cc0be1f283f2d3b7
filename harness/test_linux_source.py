"""The media test-driver builder (fixtures/drivers/linux-source/build.sh):
bad input is refused with one line and exit 2 before anything is
downloaded. Host only; the builds themselves run in the boards that load
the modules (vimc, vicodec, visl)."""
import subprocess

import vboard

BUILD_SH = vboard.TOP / "fixtures" / "drivers" / "linux-source" / "build.sh"


def run(*args, tmp_path):
    return subprocess.run([str(BUILD_SH), *args], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "VBOARD_CACHE": str(tmp_path / "cache")})


def test_an_unknown_driver_is_bad_input(tmp_path):
    r = run("6.1.0-57-amd64", str(tmp_path / "out"), "vimc", "vivdi", tmp_path=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "linux-source: unknown driver 'vivdi' (usage: build.sh RELEASE OUT_DIR DRIVER... "
        "(DRIVER: vimc vicodec visl v4l2-mem2mem))"]


def test_visl_needs_a_kernel_that_has_it(tmp_path):
    r = run("6.1.0-57-amd64", str(tmp_path / "out"), "visl", tmp_path=tmp_path)
    assert r.returncode == 2
    assert "visl is not in linux-source-6.1" in r.stderr
    assert not (tmp_path / "cache" / "linux-source" / "src-6.1").exists()


def test_no_driver_named_is_bad_input(tmp_path):
    r = run("6.1.0-57-amd64", str(tmp_path / "out"), tmp_path=tmp_path)
    assert r.returncode == 2
