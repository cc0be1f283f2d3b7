"""Reading results.json (written by the suite on the device) and board
expectation files. Shared by the report writers and the harness."""
import fnmatch
import json
from pathlib import Path

VERDICTS = ("pass", "fail", "warn", "skip")


class BadInput(Exception):
    """A malformed results or expectations file: one line naming the problem."""


def load_results(path):
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file")
    except json.JSONDecodeError as e:
        raise BadInput(f"{path}: not valid JSON ({e.msg} at line {e.lineno})")
    if not isinstance(data, dict) or "results" not in data or "run" not in data:
        raise BadInput(f"{path}: not a v4l2-conform results file (no 'run'/'results')")
    return data


class Expectations:
    """fixtures/boards/<board>.expect: how to run on the board and which
    verdicts are known deviations of its driver.

        setup: modprobe vivid n_devs=1      # shell, run on the board first
        device: /dev/video0
        run-args: --exclude-control disconnect
        kernel-allow: <regex>                # a known, harmless kernel message (and its stack dump)
        fail <check-glob> <rule> <why...>    # a known failure (a real driver deviation)
        warn <check-glob> <rule> <why...>    # a known warning
        fail@<kernel-glob> <check-glob> <rule> <why...>   # known only on these kernel releases,
                                             # e.g. fail@6.12.* (release as uname -r gives it)
    """

    def __init__(self, path=None):
        self.path = path
        self.settings = {}
        self.known = []  # (verdict, glob, rule, why, kernel glob or None for every kernel)
        self.kernel_allow = []  # regexes of known, harmless kernel messages of this board
        if path:
            self._parse(Path(path))

    def _parse(self, path):
        try:
            text = path.read_text()
        except FileNotFoundError:
            raise BadInput(f"{path}: no such expectations file")
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("setup:") else raw.strip()
            if not line:
                continue
            key, sep, value = line.partition(":")
            if sep and key == "kernel-allow":
                self.kernel_allow.append(value.strip())
                continue
            if sep and key in ("setup", "device", "run-args", "board", "kernel"):
                self.settings[key] = value.strip()
                continue
            words = line.split(None, 3)
            verdict, at, kernel = words[0].partition("@")
            if verdict in ("fail", "warn") and len(words) >= 3 and (kernel or not at):
                self.known.append((verdict, words[1], words[2], words[3] if len(words) > 3 else "", kernel or None))
                continue
            raise BadInput(f"{path}:{n}: expected 'key: value' or 'fail|warn[@KERNEL] GLOB RULE WHY', "
                           f"got: {raw.strip()}")

    def applies(self, kernel_glob, kernel):
        """An entry without a kernel applies everywhere; one with a kernel
        glob only on matching releases (an unknown kernel matches all)."""
        return kernel_glob is None or kernel is None or fnmatch.fnmatchcase(kernel, kernel_glob)

    def expected(self, name, verdict, kernel=None):
        for v, glob, rule, why, kglob in self.known:
            if v == verdict and fnmatch.fnmatchcase(name, glob) and self.applies(kglob, kernel):
                return (rule, why)
        return None


def kernel_release(data):
    """The kernel release of a run ('Linux 6.12.118+deb12-amd64 x86_64' ->
    '6.12.118+deb12-amd64'), or None when results.json does not say."""
    words = str(data.get("run", {}).get("kernel") or "").split()
    return words[1] if len(words) >= 2 else None


def compare(data, expect, baseline=None):
    """Classify every failure and warning against the expectations and,
    optionally, a previous run of the same board."""
    out = {"regressions": [], "expected": [], "fixed": [], "new_warnings": [], "missing": []}
    now = {r["name"]: r for r in data["results"]}
    kernel = kernel_release(data)
    for r in data["results"]:
        if r["verdict"] == "fail":
            known = expect.expected(r["name"], "fail", kernel)
            (out["expected"] if known else out["regressions"]).append(r)
        elif r["verdict"] == "warn" and not expect.expected(r["name"], "warn", kernel):
            out["new_warnings"].append(r)
    for v, glob, rule, why, kglob in expect.known:
        if v == "fail" and expect.applies(kglob, kernel) and not any(fnmatch.fnmatchcase(n, glob) and r["verdict"] == "fail" for n, r in now.items()):
            if any(fnmatch.fnmatchcase(n, glob) for n in now):
                out["fixed"].append({"name": glob, "rule": rule, "message": why})
    if baseline:
        for r in baseline["results"]:
            cur = now.get(r["name"])
            if cur is None:
                out["missing"].append(r)
            elif r["verdict"] in ("pass", "warn", "skip") and cur["verdict"] == "fail" and cur not in out["regressions"]:
                out["regressions"].append(cur)
    return out


def time_by_family(data):
    """[(family, checks, seconds)], costliest first: a family is a check
    definition ('probe/visible-effect', 'events/ch-value'), its time the sum
    of its checks' durations (fork, restore and waits included)."""
    fams = {}
    for r in data["results"]:
        parts = r["name"].split("/")
        fam = "/".join(parts[:2]) if len(parts) > 1 else parts[0]
        n, t = fams.get(fam, (0, 0.0))
        fams[fam] = (n + 1, t + (r.get("duration_s") or 0.0))
    return sorted(((f, n, t) for f, (n, t) in fams.items()), key=lambda x: -x[2])


def time_by_suite(data):
    """{suite: seconds} in the order the suites ran."""
    out = {}
    for r in data["results"]:
        s = r["name"].split("/")[0]
        out[s] = out.get(s, 0.0) + (r.get("duration_s") or 0.0)
    return out
