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
