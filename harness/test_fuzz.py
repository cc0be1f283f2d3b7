"""The fuzzed readers (issue 14): every input a fuzzer once crashed on stays
fixed, and a short fuzz run of each Python reader finds nothing. The long
runs are `make fuzz` (tests/fuzz.mk, FUZZ_SECONDS each)."""
import subprocess
import sys
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parent.parent
FUZZ = TOP / "tests" / "fuzz"
sys.path.insert(0, str(FUZZ))
import fuzz_readers  # noqa: E402

REGRESSIONS = sorted(p for p in (FUZZ / "regressions").glob("*/*") if p.is_file())


@pytest.mark.parametrize("path", REGRESSIONS, ids=[f"{p.parent.name}/{p.name}" for p in REGRESSIONS])
def test_fuzz_regression(path):
    """Raises on a crash; BadInput (a one-line rejection) is fine."""
    fuzz_readers.TARGETS[path.parent.name](path.read_bytes(), Path("/nonexistent-fuzz-dir"))


@pytest.mark.parametrize("target", sorted(fuzz_readers.TARGETS))
def test_short_fuzz_run(target, tmp_path):
    assert fuzz_readers.main([target, "5", "--seed", "14", "--crashes", str(tmp_path)]) == 0, \
        [p.name for p in tmp_path.iterdir()]


def test_profile_fuzzer_short_run(tmp_path):
    # No skip: make fuzz-build installs clang (tools/deps.sh fuzz), and so does make test.
    subprocess.run(["make", "-C", str(TOP), "-s", "fuzz-build"], check=True)
    r = subprocess.run([str(TOP / "build" / "fuzz" / "fuzz_profile"), "-max_total_time=5", "-seed=14",
                        f"-artifact_prefix={tmp_path}/", f"-dict={FUZZ / 'profile.dict'}",
                        # new inputs go to the first folder: a scratch one, not the repository's corpus
                        str(tmp_path), str(FUZZ / "corpus" / "profile")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
