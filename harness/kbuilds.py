"""Debian's kernel builds the virtual board can boot, as apt lists them: which
exist and are installable, in which order. Shared by make matrix
(harness/matrix.py) and tools/kbisect; `python3 harness/kbuilds.py` prints them.

Debian 12's apt (the host's: 6.1, 6.12.x+deb12) is asked first, then Debian 13's
through the private apt state fixtures/vboard/apt-debian13.sh keeps in the board
cache (trixie's 6.12.x+deb13, trixie-backports' 7.x). The archive keeps only
recent builds while its lists still name older 7.x images as stubs whose
linux-modules/linux-binary parts are gone ("Candidate: (none)"): those are
left out, decided at run time from apt-cache policy, never from a fixed list."""
import os
import re
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
APT13 = TOP / "fixtures" / "vboard" / "apt-debian13.sh"


def series_patterns(arch="amd64"):
    """The series the virtual board boots, oldest first; flavours (rt, cloud),
    debug packages and metapackages are left out. 7.x is one series: the
    backports move from one X.Y to the next within Debian 13."""
    a = re.escape(arch)
    return (("6.1", re.compile(rf"^linux-image-(6\.1\.0-\d+-{a})$")),
            ("6.12", re.compile(rf"^linux-image-(6\.12\.\d+\+deb1[23]-{a})$")),
            ("7.x", re.compile(rf"^linux-image-(7\.\d+\.\d+\+deb13-{a})$")))


SERIES = series_patterns()


def version_key(rel):
    return [int(x) for x in re.findall(r"\d+", rel)]


def debian_builds(names, arch="amd64"):
    """Package names (apt-cache search output, first word) -> {series: [release, ...]} oldest first."""
    pats = series_patterns(arch)
    out = {s: [] for s, _ in pats}
    for n in names:
        n = n.strip().split(":", 1)[0]
        for s, rx in pats:
            m = rx.match(n)
            if m:
                out[s].append(m.group(1))
    return {s: sorted(set(v), key=version_key) for s, v in out.items()}


def policy_candidates(text):
    """apt-cache policy PKG... output -> {package: candidate version or None}.
    A package apt knows only by name (a stub's dependency no longer in the
    archive) has "Candidate: (none)"; one apt has never heard of is absent."""
    out, pkg = {}, None
    for line in text.splitlines():
        m = re.match(r"^(\S+?):(?:\S+:)?\s*$", line)
        if m and not line.startswith(" "):
            pkg = m.group(1)
            out[pkg] = None
            continue
        m = re.match(r"^\s+Candidate:\s*(\S+)", line)
        if m and pkg:
            out[pkg] = None if m.group(1) == "(none)" else m.group(1)
    return out


def split_parts(rel):
    """The packages a split (7.x-style) build's stub image depends on."""
    return [f"linux-binary-{rel}", f"linux-modules-{rel}"]


def installable(rels, candidates):
    """The releases whose image has a candidate and none of whose split parts
    apt names without one. An old-layout build has no parts apt knows of."""
    ok = []
    for r in rels:
        if candidates.get(f"linux-image-{r}", "?") is None:
            continue
        if any(p in candidates and candidates[p] is None for p in split_parts(r)):
            continue
        ok.append(r)
    return ok


def merge(*listings):
    """{series: [rel...]} dicts -> one, each series in version order."""
    out = {}
    for b in listings:
        for s, v in b.items():
            out.setdefault(s, []).extend(v)
    return {s: sorted(set(v), key=version_key) for s, v in out.items()}


def _apt(args, opts=()):
    p = subprocess.run(["apt-cache", *opts, *args], capture_output=True, text=True)
    return p.stdout


def debian13_opts(arch="amd64"):
    """The private state's apt options (created on first use), or None with a
    note when Debian 13 cannot be reached."""
    env = dict(os.environ, VBOARD_ARCH=arch)
    p = subprocess.run([str(APT13), "opts"], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        print(f"kbuilds: Debian 13 is not reachable ({(p.stderr.strip().splitlines() or ['?'])[-1]}): "
              "its builds are left out", file=sys.stderr)
        return None
    return p.stdout.split()


def available_builds(arch="amd64"):
    """{series: [release...]} of every installable build, oldest first."""
    qual = "" if arch == "amd64" else f":{arch}"
    search = ["search", "--names-only", r"^linux-image-[67]\."]
    host = debian_builds((ln.split(" ", 1)[0] for ln in _apt(search).splitlines()), arch)
    opts = debian13_opts(arch)
    if opts is None:
        return merge(host, {"7.x": []})
    names = [ln.split(" ", 1)[0] for ln in _apt(search, opts).splitlines()]
    d13 = debian_builds(names, arch)
    host_rels = {r for v in host.values() for r in v}
    rels = [r for v in d13.values() for r in v if r not in host_rels]
    pkgs = [p + qual for r in rels for p in [f"linux-image-{r}", *split_parts(r)]]
    cands = {k.split(":")[0]: v for k, v in policy_candidates(_apt(["policy", *pkgs], opts)).items()} if pkgs else {}
    ok = set(installable(rels, cands))
    return merge(host, {s: [r for r in v if r in ok] for s, v in d13.items()})


def ordered(builds):
    """{series: [release...]} -> one list, oldest first: the series in SERIES
    order (every 6.1 build before every 6.12 one, every 6.12 before 7.x),
    each in version order."""
    return [r for s, _ in SERIES for r in builds.get(s, [])]


def newest_per_series(builds):
    """make matrix's default: the newest build of each series that has one."""
    return [builds[s][-1] for s, _ in SERIES if builds.get(s)]


class UnknownBuild(ValueError):
    pass


def between(builds, good, bad):
    """The builds from good to bad, both included, oldest first. Raises
    UnknownBuild (one line) when either is not a listed build or good is
    not older than bad."""
    order = ordered(builds)
    for name, rel in (("good", good), ("bad", bad)):
        if rel not in order:
            raise UnknownBuild(f"{name} kernel '{rel}' is not a Debian build apt lists as installable "
                               f"(python3 harness/kbuilds.py lists them)")
    g, b = order.index(good), order.index(bad)
    if g >= b:
        raise UnknownBuild(f"good kernel {good} is not older than bad kernel {bad}")
    return order[g:b + 1]


if __name__ == "__main__":
    arch = sys.argv[1] if len(sys.argv) > 1 else "amd64"
    for s, v in available_builds(arch).items():
        print(f"{s}: {' '.join(v) if v else '(none installable)'}")
