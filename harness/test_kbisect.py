"""tools/kbisect's pure parts on the host: the order of Debian's builds
(harness/kbuilds.py) and the bisection with skipped builds."""
import pytest

import kbisect
import kbuilds

BUILDS = kbuilds.debian_builds(
    ["linux-image-6.12.100+deb12-amd64", "linux-image-6.1.0-9-amd64", "linux-image-6.1.0-57-amd64",
     "linux-image-6.12.118+deb12-amd64", "linux-image-6.1.0-47-amd64", "linux-image-6.12.101+deb12-amd64",
     "linux-image-6.12-amd64", "linux-image-6.1.0-47-rt-amd64"])


def test_builds_ordered_across_series():
    assert kbuilds.ordered(BUILDS) == ["6.1.0-9-amd64", "6.1.0-47-amd64", "6.1.0-57-amd64", "6.12.100+deb12-amd64",
                                       "6.12.101+deb12-amd64", "6.12.118+deb12-amd64"]
    assert kbuilds.between(BUILDS, "6.1.0-47-amd64", "6.12.101+deb12-amd64") == [
        "6.1.0-47-amd64", "6.1.0-57-amd64", "6.12.100+deb12-amd64", "6.12.101+deb12-amd64"]


@pytest.mark.parametrize("good,bad,says", [
    ("6.1.0-58-amd64", "6.12.118+deb12-amd64", "not a Debian build"),
    ("6.1.0-57-amd64", "6.12-amd64", "not a Debian build"),            # a metapackage, not a build
    ("6.12.118+deb12-amd64", "6.1.0-57-amd64", "not older"),
    ("6.1.0-57-amd64", "6.1.0-57-amd64", "not older")])
def test_between_refuses_bad_input(good, bad, says):
    with pytest.raises(kbuilds.UnknownBuild, match=says):
        kbuilds.between(BUILDS, good, bad)


def _bisect(n, first_bad, skip=(), verify=False, lie=None):
    builds = [f"b{i}" for i in range(n)]
    def run(step, rel):
        i = int(rel[1:])
        if i in skip:
            return kbisect.SKIP
        if lie is not None and i == lie:
            return kbisect.GOOD
        return kbisect.BAD if i >= first_bad else kbisect.GOOD
    return kbisect.bisect(builds, run, verify)


@pytest.mark.parametrize("n", [2, 3, 4, 7, 11, 20])
def test_bisect_finds_every_first_bad_in_log_steps(n):
    for first in range(1, n):
        found, cands, steps, problem = _bisect(n, first)
        assert (found, problem) == (f"b{first}", None)
        assert len(steps) <= max(n - 2, 1).bit_length()  # binary search over the n-2 candidates between
        assert "b0" not in [r for r, _ in steps] and f"b{n - 1}" not in [r for r, _ in steps]  # endpoints trusted


def test_bisect_of_neighbours_boots_nothing():
    assert _bisect(2, 1) == ("b1", ["b1"], [], None)


def test_skipped_build_is_stepped_over():
    # b5 cannot be tested: the search goes on with its neighbours, as git bisect does
    found, _, steps, _ = _bisect(11, 7, skip={5})
    assert found == "b7" and ("b5", "skip") in steps


def test_skip_next_to_the_first_bad_leaves_candidates():
    found, cands, steps, problem = _bisect(11, 7, skip={6})
    assert found is None and cands == ["b6", "b7"] and problem is None
    assert all(r != "b6" or v == "skip" for r, v in steps)


def test_verify_boots_endpoints_first_and_stops_on_a_wrong_one():
    found, _, steps, problem = _bisect(7, 3, verify=True)
    assert found == "b3" and [r for r, _ in steps[:2]] == ["b0", "b6"]
    found, _, steps, problem = _bisect(7, 3, verify=True, lie=6)
    assert found is None and "b6 was given as bad but is good" in problem and len(steps) == 2


# --- our own tooling failing is not a skip (issue 22): exit 128, one line naming the cause ---

def fake_headers(cache, rel, btf):
    """Headers as kernel-headers.sh leaves them in the cache: 6.12's build
    module BTF (CONFIG_DEBUG_INFO_BTF_MODULES and a vmlinux), 6.1's do not
    ship the vmlinux and skip it."""
    kdir = cache / f"headers-{rel}" / "root" / "usr" / "src" / f"linux-headers-{rel}"
    kdir.mkdir(parents=True)
    (kdir / ".config").write_text("CONFIG_DEBUG_INFO_BTF_MODULES=y\n")
    if btf:
        (kdir / "vmlinux").write_text("")
    (cache / f"headers-{rel}" / ".complete").write_text("")
    return kdir


def path_without(tmp_path, missing):
    """A PATH with every program of this machine but `missing`; gcc and make
    are stubs (never reached: the check comes first)."""
    import os
    b = tmp_path / "bin"
    b.mkdir()
    for d in ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"):
        for p in (Path(d).iterdir() if Path(d).is_dir() else []):
            if p.name not in missing and not (b / p.name).exists():
                (b / p.name).symlink_to(p)
    for stub in ("gcc", "make"):
        if stub not in missing:
            (b / stub).unlink(missing_ok=True)
            (b / stub).symlink_to("/bin/true")
    assert not any(os.access(b / m, os.X_OK) for m in missing)
    return str(b)


from pathlib import Path  # noqa: E402
import subprocess  # noqa: E402

HEADERS_SH = Path(kbisect.__file__).resolve().parent.parent / "fixtures" / "drivers" / "kernel-headers.sh"


@pytest.mark.parametrize("btf,missing,status,says", [
    (True, "pahole", 128, "pahole is not installed (package dwarves, tools/deps.sh modules)"),
    (False, "pahole", 0, None),       # 6.1: no module BTF, no pahole needed
    (False, "gcc", 128, "gcc is not installed (package gcc"),
    (True, "make", 128, "make is not installed (package make")])
def test_kernel_headers_names_a_missing_program_with_128(tmp_path, btf, missing, status, says):
    rel = "6.12.999+deb12-amd64"
    kdir = fake_headers(tmp_path / "cache", rel, btf)
    env = {"PATH": path_without(tmp_path, {missing}), "VBOARD_CACHE": str(tmp_path / "cache")}
    p = subprocess.run(["sh", str(HEADERS_SH), rel], env=env, capture_output=True, text=True)
    assert p.returncode == status, p.stderr
    if says:
        assert p.stderr.strip().count("\n") == 0 and says in p.stderr, p.stderr
    else:
        assert p.stdout.strip() == str(kdir)


def test_kernel_headers_hold_no_absolute_path(tmp_path):
    """The headers' Makefile includes the common headers' relative to
    itself: a cache unpacked elsewhere (here: at a path that is gone, as a
    moved or re-cloned checkout's) is rewritten once, and still builds
    after the cache moves again."""
    rel = "6.1.999-amd64"
    kdir = fake_headers(tmp_path / "cache", rel, False)
    common = kdir.parent / "linux-headers-6.1.999-common"
    common.mkdir()
    (common / "Makefile").write_text("where:\n\t@echo $(realpath $(dir $(lastword $(MAKEFILE_LIST))))\n")
    (kdir / "Makefile").write_text(f"include /gone/fixtures/vboard/cache/headers-{rel}/root/usr/src/{common.name}/Makefile\n")
    for cache in (tmp_path / "cache", tmp_path / "moved"):
        if cache.name == "moved":
            (tmp_path / "cache").rename(cache)
        p = subprocess.run(["sh", str(HEADERS_SH), rel], env={"PATH": "/usr/bin:/bin", "VBOARD_CACHE": str(cache)},
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        here = Path(p.stdout.strip())
        assert here.is_relative_to(cache), p.stdout
        assert "/gone/" not in (here / "Makefile").read_text() and "include /" not in (here / "Makefile").read_text()
        m = subprocess.run(["make", "-s", "-C", str(here), "where"], capture_output=True, text=True)
        assert m.returncode == 0 and m.stdout.strip() == str(here.parent / common.name), m.stdout + m.stderr


def test_cause_is_the_line_naming_what_is_missing():
    out = ("  CC [M]  x.o\n/bin/sh: 1: pahole: not found\nmake[3]: *** [Makefile.modfinal:64: x.ko] Error 127\n"
           "make[2]: *** [Makefile:1: modules] Error 2\n")
    assert kbisect.cause(out, "x") == "/bin/sh: 1: pahole: not found"
    assert kbisect.cause("a\nerror: y undeclared\n", "x") == "error: y undeclared"
    assert kbisect.cause("", "the build exited 2") == "the build exited 2"


def test_missing_pahole_stops_the_bisection_with_128_not_skip(tmp_path, monkeypatch, capsys):
    """The issue's case: no pahole on the machine. The first step's module
    build fails; kbisect stops there (exit 128, one line naming pahole)
    instead of skipping every build and naming three candidates."""
    rels = ["6.12.997+deb12-amd64", "6.12.998+deb12-amd64", "6.12.999+deb12-amd64"]
    for r in rels:
        fake_headers(tmp_path / "cache", r, btf=True)
    monkeypatch.setattr(kbuilds, "available_builds", lambda: {"6.1": [], "6.12": rels})
    monkeypatch.setenv("PATH", path_without(tmp_path, {"pahole"}))
    monkeypatch.setenv("VBOARD_CACHE", str(tmp_path / "cache"))
    st = kbisect.main(["--good", rels[0], "--bad", rels[2], "--only", "getset/out-of-range/*",
                       "--board", "fixture-regress", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert st == kbisect.TOOLING_FAILED == 128
    assert st not in (1, 2, 125)
    assert len(err) == 1 and err[0].startswith("kbisect: stopped: our own tooling failed, not the kernel: step 1 "
                                               f"({rels[1]}): kernel-headers: pahole is not installed"), err
    s = __import__("json").loads((tmp_path / "out" / "summary.json").read_text())
    assert s["first_bad"] is None and s["candidates"] == [] and "pahole" in s["stopped"]


def test_a_step_runner_that_raises_stops_bisect():
    def run(step, rel):
        if rel == "c":
            raise kbisect.ToolingFailed("no qemu")
        return kbisect.GOOD
    with pytest.raises(kbisect.ToolingFailed, match="no qemu"):
        kbisect.bisect(["a", "b", "c", "d", "e"], run)
