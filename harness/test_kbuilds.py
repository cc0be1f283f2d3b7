"""harness/kbuilds.py's pure parts on the host, on recorded apt-cache output
(2026-12-07): the series Debian 12 and 13 list, the builds still installable
(a split stub whose linux-modules is gone is not), make matrix's default."""
import kbuilds

# apt-cache policy, recorded from the private trixie state: 7.1.8's stub image
# and its linux-binary are still listed, its linux-modules has no candidate;
# 6.12.117+deb13 is an old-layout image, with no parts apt knows of.
POLICY = """\
linux-image-7.1.8+deb13-amd64:
  Installed: (none)
  Candidate: 7.1.8-1~bpo13+1
  Version table:
     7.1.8-1~bpo13+1 100
        100 http://deb.debian.org/debian trixie-backports/main amd64 Packages
linux-binary-7.1.8+deb13-amd64:
  Installed: (none)
  Candidate: 7.1.8-1~bpo13+1
  Version table:
     7.1.8-1~bpo13+1 100
        100 http://deb.debian.org/debian trixie-backports/main amd64 Packages
linux-modules-7.1.8+deb13-amd64:
  Installed: (none)
  Candidate: (none)
  Version table:
linux-image-7.3.4+deb13-amd64:
  Installed: (none)
  Candidate: 7.3.4-1~bpo13+1
  Version table:
     7.3.4-1~bpo13+1 100
        100 http://deb.debian.org/debian trixie-backports/main amd64 Packages
linux-binary-7.3.4+deb13-amd64:
  Installed: (none)
  Candidate: 7.3.4-1~bpo13+1
  Version table:
     7.3.4-1~bpo13+1 100
        100 http://deb.debian.org/debian trixie-backports/main amd64 Packages
linux-modules-7.3.4+deb13-amd64:
  Installed: (none)
  Candidate: 7.3.4-1~bpo13+1
  Version table:
     7.3.4-1~bpo13+1 100
        100 http://deb.debian.org/debian trixie-backports/main amd64 Packages
linux-image-6.12.117+deb13-amd64:
  Installed: (none)
  Candidate: 6.12.117-1
  Version table:
     6.12.117-1 500
        500 http://deb.debian.org/debian trixie/main amd64 Packages
"""

TRIXIE_NAMES = ["linux-image-6.12.107+deb13-amd64", "linux-image-6.12.117+deb13-amd64",
                "linux-image-6.12.117+deb13-rt-amd64", "linux-image-6.19.10+deb13-amd64",
                "linux-image-7.0.10+deb13-cloud-amd64", "linux-image-7.1.8+deb13-amd64",
                "linux-image-7.2.12+deb13-amd64", "linux-image-7.2.6+deb13-amd64", "linux-image-7.2.9+deb13-amd64",
                "linux-image-7.3.4+deb13-amd64", "linux-image-7.3.4+deb13-amd64-dbg", "linux-image-amd64"]


def test_series_cover_both_debians_and_the_backports():
    b = kbuilds.debian_builds(TRIXIE_NAMES + ["linux-image-6.12.118+deb12-amd64", "linux-image-6.1.0-57-amd64"])
    assert b["6.1"] == ["6.1.0-57-amd64"]
    # deb12 and deb13 builds of 6.12 in one version order; flavours, debug packages and metapackages left out
    assert b["6.12"] == ["6.12.107+deb13-amd64", "6.12.117+deb13-amd64", "6.12.118+deb12-amd64"]
    assert b["7.x"] == ["7.1.8+deb13-amd64", "7.2.6+deb13-amd64", "7.2.9+deb13-amd64", "7.2.12+deb13-amd64",
                        "7.3.4+deb13-amd64"]


def test_arm64_names():
    b = kbuilds.debian_builds(["linux-image-7.3.4+deb13-arm64", "linux-image-7.3.4+deb13-amd64"], arch="arm64")
    assert b["7.x"] == ["7.3.4+deb13-arm64"]


def test_policy_reads_candidates_and_none():
    c = kbuilds.policy_candidates(POLICY)
    assert c["linux-modules-7.1.8+deb13-amd64"] is None
    assert c["linux-binary-7.1.8+deb13-amd64"] == "7.1.8-1~bpo13+1"
    assert c["linux-image-6.12.117+deb13-amd64"] == "6.12.117-1"
    assert "linux-modules-6.12.117+deb13-amd64" not in c  # never heard of: the old layout


def test_policy_reads_foreign_architecture_headers():
    c = kbuilds.policy_candidates("linux-modules-7.3.4+deb13-arm64:arm64:\n  Installed: (none)\n"
                                  "  Candidate: 7.3.4-1~bpo13+1\n")
    assert c == {"linux-modules-7.3.4+deb13-arm64": "7.3.4-1~bpo13+1"}


def test_a_stub_whose_modules_are_gone_is_not_installable():
    c = kbuilds.policy_candidates(POLICY)
    rels = ["6.12.117+deb13-amd64", "7.1.8+deb13-amd64", "7.3.4+deb13-amd64"]
    assert kbuilds.installable(rels, c) == ["6.12.117+deb13-amd64", "7.3.4+deb13-amd64"]


def test_matrix_default_is_the_newest_of_each_series_that_has_one():
    b = {"6.1": ["6.1.0-56-amd64", "6.1.0-57-amd64"], "6.12": ["6.12.117+deb13-amd64", "6.12.118+deb12-amd64"],
         "7.x": ["7.2.12+deb13-amd64", "7.3.4+deb13-amd64"]}
    assert kbuilds.newest_per_series(b) == ["6.1.0-57-amd64", "6.12.118+deb12-amd64", "7.3.4+deb13-amd64"]
    assert kbuilds.newest_per_series(dict(b, **{"7.x": []})) == ["6.1.0-57-amd64", "6.12.118+deb12-amd64"]


def test_kbisect_walks_the_backports_after_6_12():
    b = kbuilds.merge({"6.1": ["6.1.0-57-amd64"], "6.12": ["6.12.118+deb12-amd64"]},
                      {"6.12": ["6.12.117+deb13-amd64"],
                       "7.x": ["7.3.4+deb13-amd64", "7.2.6+deb13-amd64", "7.2.12+deb13-amd64"]})
    assert kbuilds.between(b, "7.2.6+deb13-amd64", "7.3.4+deb13-amd64") == [
        "7.2.6+deb13-amd64", "7.2.12+deb13-amd64", "7.3.4+deb13-amd64"]
    assert kbuilds.between(b, "6.12.117+deb13-amd64", "7.2.6+deb13-amd64") == [
        "6.12.117+deb13-amd64", "6.12.118+deb12-amd64", "7.2.6+deb13-amd64"]
