"""Reading results.json (written by the suite on the device) and board
expectation files. Shared by the report writers and the harness."""
import fnmatch
import json
import math
import re
import warnings
from pathlib import Path

VERDICTS = ("pass", "fail", "warn", "skip")


class BadInput(Exception):
    """A malformed results or expectations file: one line naming the problem."""


def printable(text):
    """text with every character a report cannot carry shown as an escape:
    control characters (NUL, ESC, DEL, C1) other than tab and newline, lone
    surrogates (a JSON "\\ud800") and the non-characters XML 1.0 forbids.
    Driver strings (control and menu names) are 32 raw bytes that may hold
    anything; every report writer shows them through this."""
    out = []
    for ch in str(text):
        o = ord(ch)
        if ch in "\t\n" or 0x20 <= o < 0x7f or 0xa0 <= o < 0xd800 or 0xe000 <= o <= 0xfffd or o >= 0x10000:
            out.append(ch)
        elif o <= 0xff:
            out.append(f"\\x{o:02x}")
        else:
            out.append(f"\\u{o:04x}")
    return "".join(out)


def clean(x):
    """Every string in a parsed JSON value through printable() (idempotent)."""
    if isinstance(x, str):
        return printable(x)
    if isinstance(x, list):
        return [clean(v) for v in x]
    if isinstance(x, dict):
        return {printable(k): clean(v) for k, v in x.items()}
    return x


def _number(x):
    """A JSON number a writer can compute with: finite and within a double."""
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        return False
    try:
        return math.isfinite(float(x))
    except OverflowError:
        return False


def _number_or_null(x):
    """The C writer turns a NaN or infinite measurement into null."""
    return x is None or _number(x)


def _check_result(r):
    """The first thing wrong with one result record, or None."""
    if not isinstance(r, dict):
        return "not an object"
    for k in ("name", "suite"):
        if not isinstance(r.get(k), str) or not r[k]:
            return f"'{k}' is not a non-empty string"
    if r.get("verdict") not in VERDICTS:
        return f"'verdict' is not one of {', '.join(VERDICTS)}"
    for k in ("rule", "message", "summary", "ctrl_name", "ctrl_id_hex"):
        if r.get(k) is not None and not isinstance(r[k], str):
            return f"'{k}' is not a string"
    for k in ("duration_s", "ctrl_id"):
        if r.get(k) is not None and not _number(r[k]):
            return f"'{k}' is not a number"
    ms = r.get("measurements") or []
    if not isinstance(ms, list) or not all(isinstance(m, dict) and isinstance(m.get("name"), str)
                                           and "value" in m and _number_or_null(m["value"])
                                           and (m.get("unit") is None or isinstance(m["unit"], str)) for m in ms):
        return "'measurements' is not a list of {name, value, unit}"
    series = r.get("series") or {}
    if not isinstance(series, dict) or not all(
            isinstance(pts, list) and all(isinstance(p, list) and len(p) == 2 and all(_number_or_null(v) for v in p)
                                          for p in pts) for pts in series.values()):
        return "'series' is not an object of [x, y] lists"
    arts = r.get("artifacts") or []
    if not isinstance(arts, list) or not all(isinstance(a, str) for a in arts):
        return "'artifacts' is not a list of strings"
    return None


def load_results(path):
    """results.json, checked: every record a report writer reads has the
    type it expects (a malformed file is BadInput, never a traceback), and
    every string is printable()."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file")
    except OSError as e:
        raise BadInput(f"{path}: cannot read ({e.strerror})")
    return parse_results(raw, path)


def parse_results(raw, path="results.json"):
    """load_results() of bytes already read (path names them in messages)."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise BadInput(f"{path}: not UTF-8 (byte 0x{raw[e.start]:02x} at offset {e.start})")
    except json.JSONDecodeError as e:
        raise BadInput(f"{path}: not valid JSON ({e.msg} at line {e.lineno})")
    except RecursionError:
        raise BadInput(f"{path}: not valid JSON (nested too deeply)")
    if not isinstance(data, dict) or "results" not in data or "run" not in data:
        raise BadInput(f"{path}: not a v4l2-conform results file (no 'run'/'results')")
    if not isinstance(data["run"], dict) or not isinstance(data["results"], list):
        raise BadInput(f"{path}: 'run' is not an object or 'results' not a list")
    summary = data.get("summary", {})
    if not isinstance(summary, dict) or not all(_number(v) for v in summary.values()):
        raise BadInput(f"{path}: 'summary' is not an object of counts")
    for i, r in enumerate(data["results"]):
        problem = _check_result(r)
        if problem:
            raise BadInput(f"{path}: results[{i}]: {problem}")
    try:
        return clean(data)
    except RecursionError:
        raise BadInput(f"{path}: nested too deeply")


class Expectations:
    """fixtures/boards/<board>.expect: how to run on the board and which
    verdicts are known deviations of its driver.

        setup: modprobe vivid n_devs=1      # shell, run on the board first
        device: /dev/video0
        devices: /dev/video* /dev/radio*     # or: every node matching, one run each (run_board.py)
        run-args: --exclude-control disconnect
        kernel-allow: <regex>                # a known, harmless kernel message (and its stack dump)
        build: v4l2loopback                  # a make target the board needs, made on the host first
        files: build/x/{release}/x.ko        # host files (from the top of the tree) copied to /share;
                                             # {release}: the board's kernel release
        fail <check-glob> <rule> <why...>    # a known failure (a real driver deviation)
        warn <check-glob> <rule> <why...>    # a known warning
        fail@<kernel-glob> <check-glob> <rule> <why...>   # known only on these kernel releases,
                                             # e.g. fail@6.12.* (release as uname -r gives it)
        include: uvc.expect for NODE         # another board's known deviations and kernel-allow
                                             # lines, for the results of one node of a media run
                                             # (its entity's name): one list per driver, kept once
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
            self.parse_text(path.read_bytes(), path)
        except FileNotFoundError:
            raise BadInput(f"{path}: no such expectations file")
        except OSError as e:
            raise BadInput(f"{path}: cannot read ({e.strerror})")

    def parse_text(self, raw, path):
        """Add the lines of an expectations file (bytes) to these."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadInput(f"{path}: not UTF-8 (offset {e.start})")
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("setup:") else raw.strip()
            if not line:
                continue
            key, sep, value = line.partition(":")
            if sep and key == "kernel-allow":
                try:
                    with warnings.catch_warnings():  # "possible set difference": still a regex
                        warnings.simplefilter("ignore")
                        re.compile(value.strip())
                except re.error as e:
                    raise BadInput(f"{path}:{n}: kernel-allow: not a regular expression ({e})")
                self.kernel_allow.append(value.strip())
                continue
            if sep and key == "include":
                self._include(value.strip(), path, n)
                continue
            if sep and key in ("setup", "device", "devices", "media", "run-args", "board", "kernel", "build", "files"):
                self.settings[key] = value.strip()
                continue
            words = line.split(None, 3)
            verdict, at, kernel = words[0].partition("@")
            if verdict in ("fail", "warn") and len(words) >= 3 and (kernel or not at):
                self.known.append((verdict, words[1], words[2], words[3] if len(words) > 3 else "", kernel or None))
                continue
            raise BadInput(f"{path}:{n}: expected 'key: value' or 'fail|warn[@KERNEL] GLOB RULE WHY', "
                           f"got: {raw.strip()}")

    def _include(self, value, path, n):
        """include: FILE for NODE - FILE's fail/warn entries apply to NODE/<check>."""
        name, sep, node = value.partition(" for ")
        if not sep or not name.strip() or not node.strip() or "/" in node.strip():
            raise BadInput(f"{path}:{n}: expected 'include: FILE.expect for NODE', got: include: {value}")
        other = Expectations(Path(path).parent / name.strip())
        prefix = node.strip() + "/"
        self.known += [(v, prefix + glob, rule, why, k) for v, glob, rule, why, k in other.known]
        self.kernel_allow += other.kernel_allow

    def applies(self, kernel_glob, kernel):
        """An entry without a kernel applies everywhere; one with a kernel
        glob only on matching releases (an unknown kernel matches all)."""
        return kernel_glob is None or kernel is None or fnmatch.fnmatchcase(kernel, kernel_glob)

    def kernel_allowed(self, message):
        """A failure the kernel log made ("kernel: BUG: ... in func"; the
        runner's kmsg_judge.c) whose report the board's allow list names."""
        if not message.startswith("kernel: "):
            return None
        first = message[len("kernel: "):].split("; ")[0]
        for a in self.kernel_allow:
            if re.search(a, first):
                return ("kernel-allow", a)
        return None

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
    out = {"regressions": [], "expected": [], "fixed": [], "new_warnings": [], "missing": [], "new_skips": []}
    now = {r["name"]: r for r in data["results"]}
    kernel = kernel_release(data)
    for r in data["results"]:
        if r["verdict"] == "fail":
            known = expect.expected(r["name"], "fail", kernel) or expect.kernel_allowed(r.get("message") or "")
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
            # A verdict turned into a skip is a change a lab must see (issue
            # 21): "0 fail" with fewer checks judged is not "conformant".
            elif r["verdict"] in ("pass", "warn", "fail") and cur["verdict"] == "skip":
                out["new_skips"].append(cur)
    return out


def skips_by_class(data):
    """{reason class: skips} as results.json carries it ("skips", written by
    lib/check/skip_class.c: excluded, profile, source-dependent, hang,
    inconclusive, informational, device); a file from before the classes
    puts every skip under 'unclassified'."""
    sk = data.get("skips")
    if isinstance(sk, dict):
        return {k: v for k, v in sk.items() if isinstance(v, int)}
    n = data.get("summary", {}).get("skip", 0)
    return {"unclassified": n} if n else {}


def skips_line(data):
    """'51 skip: 20 profile, 12 informational, ...' (classes with a count)."""
    sk = skips_by_class(data)
    n = sum(sk.values())
    parts = [f"{v} {k}" for k, v in sorted(sk.items(), key=lambda kv: -kv[1]) if v]
    return f"{n} skip" + (": " + ", ".join(parts) if parts else "")


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
