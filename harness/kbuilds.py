"""Debian's amd64 kernel builds, as apt-cache lists them: which exist, in
which order. Shared by make matrix (harness/matrix.py) and tools/kbisect."""
import re
import subprocess

# The series the virtual board boots, oldest first; flavours (rt, cloud),
# debug packages and metapackages are left out.
SERIES = (("6.1", re.compile(r"^linux-image-(6\.1\.0-\d+-amd64)$")),
          ("6.12", re.compile(r"^linux-image-(6\.12\.\d+\+deb\d+-amd64)$")))


def version_key(rel):
    return [int(x) for x in re.findall(r"\d+", rel)]


def debian_builds(names):
    """Package names (apt-cache search output, first word) -> {series: [release, ...]} oldest first."""
    out = {s: [] for s, _ in SERIES}
    for n in names:
        for s, rx in SERIES:
            m = rx.match(n.strip())
            if m:
                out[s].append(m.group(1))
    return {s: sorted(set(v), key=version_key) for s, v in out.items()}


def available_builds():
    p = subprocess.run(["apt-cache", "search", "--names-only", r"^linux-image-6\.1"], capture_output=True, text=True)
    return debian_builds(line.split(" ", 1)[0] for line in p.stdout.splitlines())


def ordered(builds):
    """{series: [release...]} -> one list, oldest first: the series in SERIES
    order (every 6.1 build before every 6.12 one), each in version order."""
    return [r for s, _ in SERIES for r in builds.get(s, [])]


class UnknownBuild(ValueError):
    pass


def between(builds, good, bad):
    """The builds from good to bad, both included, oldest first. Raises
    UnknownBuild (one line) when either is not a listed build or good is
    not older than bad."""
    order = ordered(builds)
    for name, rel in (("good", good), ("bad", bad)):
        if rel not in order:
            raise UnknownBuild(f"{name} kernel '{rel}' is not a Debian build apt-cache lists "
                               f"(apt-cache search linux-image-6.1)")
    g, b = order.index(good), order.index(bad)
    if g >= b:
        raise UnknownBuild(f"good kernel {good} is not older than bad kernel {bad}")
    return order[g:b + 1]
