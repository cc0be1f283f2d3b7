"""Every program the build and the tests run is installed by the make target
that runs it (issue 22): a clean clone on a fresh Debian 12 machine must not
depend on what this machine happens to have (pahole was missing there).

How: the external programs are read out of the scripts (shell scripts, the
Makefile's and *.mk recipes, the Python subprocess calls) under fixtures/,
tools/, lava-jobs/, harness/, bench/, reports/, tests/. Each must have a row
in PROGRAMS (a new program in a script without a row fails here), and the
row's package must be installed by a tools/deps.sh group of the make target
that runs the script (AREAS; for a recipe, its own target and prerequisites),
unless Debian marks it Essential or Priority: required (in every Debian 12
system, debootstrap's minbase included). The rows are not taken on trust:
where a program is on this machine, dpkg -S must name the row's package as
its owner; the base packages' priority is asked of dpkg-query. Both checks
read the tables, never whether a program is present, so a missing install
step fails here on a machine that has the program."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parent.parent
DIRS = ("fixtures", "tools", "lava-jobs", "harness", "bench", "reports", "tests")
# Scripts that run elsewhere than on the host: the virtual board's init (busybox
# in the guest) and the LAVA test definitions (on the device under test).
NOT_HOST = ("fixtures/vboard/init", "lava-jobs/testdefs/", "lava-jobs/templates/")

# program -> (the package that owns it (dpkg -S), the package a deps.sh group names).
# The second differs only where the owner comes in as that package's dependency.
PROGRAMS = {
    # build
    "gcc": ("gcc", "gcc"), "cc": ("gcc-12", "gcc"), "make": ("make", "make"),
    "ar": ("binutils-x86-64-linux-gnu", "binutils"), "ld": ("binutils-x86-64-linux-gnu", "binutils"), "readelf": ("binutils-x86-64-linux-gnu", "binutils"), "pkg-config": ("pkgconf", "pkg-config"),
    # vboard
    "qemu-system-x86_64": ("qemu-system-x86", "qemu-system-x86"), "busybox": ("busybox-static", "busybox-static"),
    "depmod": ("kmod", "kmod"), "modprobe": ("kmod", "kmod"), "modinfo": ("kmod", "kmod"), "cpio": ("cpio", "cpio"), "xz": ("xz-utils", "xz-utils"),
    "zstd": ("zstd", "zstd"), "v4l2-compliance": ("v4l-utils", "v4l-utils"), "v4l2-ctl": ("v4l-utils", "v4l-utils"),
    "file": ("file", "file"), "stdbuf": ("coreutils", "coreutils"), "timeout": ("coreutils", "coreutils"),
    # test
    "python3": ("python3-minimal", "python3"), "xmllint": ("libxml2-utils", "libxml2-utils"), "perl": ("perl-base", "perl"),
    "man": ("man-db", "man-db"),
    # modules: kbuild, and the module BTF of Debian's 6.12 headers
    "pahole": ("pahole", "dwarves"),
    # modules for 7.x headers (gcc-14): the private Debian 13 build root (fixtures/drivers/build-root.sh)
    "debootstrap": ("debootstrap", "debootstrap"),
    # fuzz, browser
    "clang": ("clang-14", "clang"), "chromium": ("chromium", "chromium"),
    # lava
    "lava-run": ("lava-dispatcher", "lava-dispatcher"), "mkimage": ("u-boot-tools", "u-boot-tools"),
    "telnet": ("inetutils-telnet", "telnet"), "in.tftpd": ("tftpd-hpa", "lava-dispatcher"),
    # arm64
    "aarch64-linux-gnu-gcc": ("gcc-aarch64-linux-gnu", "gcc-aarch64-linux-gnu"),
    "qemu-system-aarch64": ("qemu-system-arm", "qemu-system-arm"),
    # lavacli, lava-server
    "lavacli": ("lavacli", "lavacli"), "gunicorn3": ("gunicorn", "lava-server"), "ps": ("procps", "procps"), "lava-server": ("lava-server", "lava-server"),
    "lava-worker": ("lava-dispatcher", "lava-dispatcher"), "initdb": ("postgresql-15", "postgresql"),
    "pg_ctl": ("postgresql-15", "postgresql"), "psql": ("postgresql-client-15", "postgresql"),
    "createdb": ("postgresql-client-15", "postgresql"), "django-admin": ("python3-django", "python3-django"),
}
# In every Debian 12 system (Essential: yes, or Priority: required).
BASE = {
    "sh": "dash", "bash": "bash", "cat": "coreutils", "od": "coreutils", "cp": "coreutils", "mv": "coreutils", "rm": "coreutils",
    "mkdir": "coreutils", "ln": "coreutils", "ls": "coreutils", "chmod": "coreutils", "touch": "coreutils",
    "head": "coreutils", "tail": "coreutils", "cut": "coreutils", "tr": "coreutils", "sort": "coreutils",
    "uniq": "coreutils", "wc": "coreutils", "du": "coreutils", "stat": "coreutils", "date": "coreutils",
    "dirname": "coreutils", "basename": "coreutils", "id": "coreutils", "mktemp": "coreutils", "tee": "coreutils",
    "sleep": "coreutils", "env": "coreutils", "seq": "coreutils", "readlink": "coreutils", "realpath": "coreutils",
    "sha256sum": "coreutils", "install": "coreutils", "nproc": "coreutils", "find": "findutils",
    "xargs": "findutils", "sed": "sed", "grep": "grep", "awk": "mawk", "tar": "tar", "gzip": "gzip",
    "cmp": "diffutils", "diff": "diffutils", "flock": "util-linux", "setsid": "util-linux", "dpkg": "dpkg",
    "dpkg-deb": "dpkg", "dpkg-query": "dpkg", "apt-get": "apt", "apt-cache": "apt", "uname": "coreutils",
    "which": "debianutils", "chown": "coreutils", "tac": "coreutils", "ldd": "libc-bin", "hostname": "hostname", "mountpoint": "util-linux", "runuser": "util-linux",
    "unshare": "util-linux", "chroot": "coreutils",
}
SHELL_WORDS = {"[", "test", "echo", "printf", "cd", "exit", "return", "set", "shift", "export", "read", "local",
               "eval", "trap", "wait", "true", "false", ":", ".", "unset", "break", "continue", "umask",
               "ulimit", "type", "kill", "pwd", "command", "exec", "if", "then", "else", "elif", "fi", "do",
               "done", "while", "until", "for", "case", "esac", "in", "!", "{", "}", "source", "getopts"}
# Make targets of the README's commands, and which scripts each runs.
AREAS = [("lava-jobs/arm64-", "arm64-check"), ("lava-jobs/server-check", "lava-server-check"),
         ("lava-jobs/local-server.sh", "lava-server-check"), ("lava-jobs/nightly.sh", "lava-server-check"),
         ("bench/", "bench"), ("", "test")]
PROG = re.compile(r"^[A-Za-z_][A-Za-z0-9_.+-]*$")
# What kbuild runs for an external module (make -C HEADERS M=DIR), which no script
# of ours names: the compiler, the linker, and pahole for the module BTF of
# Debian's 6.12 headers (the issue 22 machine had no pahole).
KBUILD_PROGRAMS = ["gcc", "ld", "pahole"]
# Programs and shell words that run another program given after their options.
WRAPPERS = {"exec", "env", "nice", "timeout", "stdbuf", "setsid", "runuser", "xargs"}


def deps_groups():
    """tools/deps.sh's case: group -> the packages it installs."""
    text = (TOP / "tools" / "deps.sh").read_text()
    groups = {}
    for m in re.finditer(r"^\s+([a-z0-9-]+)\)\s+(?:need_arm64=1\s*)?((?:pkgs=.*\n?\s*)+?);;", text, re.M):
        pk = " ".join(re.findall(r'pkgs="\$pkgs ([^"]*)"', m.group(2)))
        groups[m.group(1)] = {p.split(":")[0] for p in pk.split()}
    return groups


def make_rules():
    """The Makefile and every *.mk it includes: target -> (prerequisites, recipe lines)
    with their variables from := / = / ?= definitions expanded where simple."""
    files = [TOP / "Makefile"] + sorted(p for p in TOP.glob("**/*.mk") if "build" not in p.parts)
    vars_, rules, cur = {}, {}, None
    for f in files:
        for line in re.sub(r"\\\n", " ", f.read_text()).splitlines():
            if line.startswith("\t") and cur:
                for t in cur:
                    rules[t][1].append(line[1:])
                continue
            m = re.match(r"^([A-Z0-9_]+)\s*[:?+]?=\s*(.*)$", line)
            if m:
                vars_[m.group(1)] = (vars_.get(m.group(1), "") + " " if "+=" in line else "") + m.group(2)
                cur = None
                continue
            m = re.match(r"^([^\s#:=][^:=]*?)\s*::?\s*(?!=)(.*)$", line)
            if m and not line.startswith(("ifeq", "ifneq", "else", "endif", "-include", "include", "export")):
                cur = m.group(1).split()
                pre = m.group(2).split(":")[-1].replace("|", " ").split()
                for t in cur:
                    rules.setdefault(t, ([], []))[0].extend(pre)
            elif not line.startswith((" ", "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif")):
                cur = None
    return rules, vars_


def expand(s, vars_):
    for _ in range(3):
        s = re.sub(r"\$\((\w+)\)", lambda m: vars_.get(m.group(1), m.group(0)).strip(), s)
    return s


def target_groups(target, rules, vars_, seen=None):
    """The deps.sh groups a make target installs: its recipe's, and its prerequisites'."""
    seen = seen if seen is not None else set()
    if target in seen or target not in rules:
        return set()
    seen.add(target)
    pre, recipe = rules[target]
    groups = set()
    for line in recipe:
        m = re.search(r"tools/deps\.sh\s+([^;&|]*)", expand(line, vars_))
        if m:
            groups |= set(m.group(1).split())
    for p in pre:
        groups |= target_groups(expand(p, vars_), rules, vars_, seen) | target_groups(p, rules, vars_, seen)
    return groups


def closing(text, i):
    """The index of the parenthesis closing the one at text[i]."""
    depth, q = 0, None
    for j in range(i, len(text)):
        c = text[j]
        if q:
            q = None if c == q else q
        elif c in "'\"":
            q = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
    return len(text)


def unquote(text):
    """Quoted text is data, except the command substitutions in double
    quotes: those stay, outside the quotes."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            out.append(" ")
            i += 2
        elif c == "'":
            j = text.find("'", i + 1)
            i = (n if j < 0 else j) + 1
            out.append(" @q ")
        elif c == '"':
            i += 1
            out.append(" @q ")
            while i < n and text[i] != '"':
                if text[i] == "\\":
                    i += 2
                elif text.startswith("$(", i):
                    j = closing(text, i + 1)
                    out.append(" $(" + unquote(text[i + 2:j]) + ") ")
                    i = j + 1
                else:
                    i += 1
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def shell_commands(text):
    """The command words of a shell script: the first word of each simple
    command (after assignments, redirections, keywords and wrappers such as
    exec or timeout), heredoc bodies left out; functions defined in the
    script are not programs."""
    lines, out, skip_to = [], [], None
    for line in text.replace("\\\n", " ").splitlines():
        if skip_to is not None:
            if line.strip() == skip_to:
                skip_to = None
            continue
        m = re.search(r"<<-?\s*['\"]?(\w+)['\"]?", line)
        if m:
            skip_to = m.group(1)
        lines.append(re.sub(r"(^|\s)#.*$", "", line))
    text = "\n".join(lines)
    funcs = set(re.findall(r"^\s*([A-Za-z_][\w-]*)\s*\(\)", text, re.M))
    text = re.sub(r"\$\(\([^()]*(\([^()]*\)[^()]*)*\)\)", " @n ", text)        # arithmetic
    text = unquote(text)                                                # quoted text is data
    text = re.sub(r"\$\{[^{}]*\}", " @v ", text)                         # parameter expansions
    text = re.sub(r"(\bcase\s+[^\n]*?\s+in)\s+[^()\n;]*\)", r"\1 ;", text)   # case ... in PATTERN)
    text = re.sub(r"^\s*[^\s()]+\)", " ", text, flags=re.M)            # case patterns: build)
    for seg in re.split(r"\$\(|`|;;|&&|\|\||[;|&()\n{}]", text):
        words = seg.replace('"', " ").split()
        while words:
            w = words[0]
            if re.match(r"^\w+=", w) or re.match(r"^\d*[<>]", w) or w in ("if", "then", "else", "elif", "do",
                                                                          "while", "until", "!", "time"):
                words.pop(0)
                continue
            if w in ("for", "case", "in", "export", "local", "readonly", "[", "test", "echo", "printf", "set",
                     "trap", "exit", "return", "shift", "cd", "read", "eval", "unset", "wait", "kill", "umask"):
                break
            if w == "command" and words[1:2] == ["-v"]:
                break
            if w in WRAPPERS or w == "command":
                if w not in SHELL_WORDS:
                    out.append(w)
                words.pop(0)
                while words and (words[0].startswith("-") or re.match(r"^\d+[a-z]?$", words[0])
                                 or re.match(r"^\d*[<>]", words[0])):
                    words.pop(0)
                continue
            name = w.rsplit("/", 1)[-1] if w.startswith("/") else w
            if PROG.match(name) and name not in funcs and name not in SHELL_WORDS:
                out.append(name)
            break
    return out


def python_commands(text):
    """The programs a Python file runs: the first element of a literal list
    given to subprocess, and the programs it looks for with shutil.which."""
    found = re.findall(r"subprocess\.(?:run|Popen|check_output|check_call|call)\(\s*\[\s*[\"']([^\"']+)[\"']", text)
    found += re.findall(r"shutil\"?\)?\.which\(\s*[\"']([^\"']+)[\"']", text)
    return [f.rsplit("/", 1)[-1] for f in found]


def scripts():
    for d in DIRS:
        for p in sorted((TOP / d).rglob("*")):
            rel = p.relative_to(TOP).as_posix()
            if not p.is_file() or rel.startswith(NOT_HOST) or "cache" in p.parts or "corpus" in p.parts:
                continue
            if p.suffix == ".py":
                yield rel, python_commands(p.read_text(errors="replace"))
                continue
            head = p.read_text(errors="replace")[:200] if p.suffix in ("", ".sh") else ""
            if p.suffix == ".sh" or re.match(r"#!.*\b(sh|bash)\b", head):
                text = p.read_text(errors="replace")
                yield rel, shell_commands(text) + (KBUILD_PROGRAMS if re.search(r"\sM=", text) else [])


def area_target(rel):
    return next(t for prefix, t in AREAS if rel.startswith(prefix))


def uses():
    """[(where, program, make target)] for every script and every recipe."""
    rules, vars_ = make_rules()
    found = [(rel, prog, area_target(rel)) for rel, progs in scripts() for prog in progs]
    for target, (_, recipe) in rules.items():
        for line in recipe:
            line = expand(line, dict(vars_, CC="gcc", MAKE="make", FUZZ_CC="clang",
                                     PYTEST="/usr/bin/python3 -m pytest"))
            line = line.lstrip("@-+")
            while re.search(r"\$\([^()]*\)", line):
                line = re.sub(r"\$\([^()]*\)", "X/x", line)
            line = line.replace("$$", "$")
            # make itself is running a recipe: make in a recipe is there.
            kbuild = re.search(r"\sM=", line) and not re.search(r"\sclean\b", line)   # clean compiles nothing
            progs = shell_commands(line) + (KBUILD_PROGRAMS if kbuild else [])
            found += [(f"make {target}", prog, target) for prog in progs if prog != "make"]
    return found


def test_every_program_a_script_runs_has_a_row():
    unknown = sorted({(prog, where) for where, prog, _ in uses() if prog not in PROGRAMS and prog not in BASE})
    assert not unknown, ("programs the scripts run that tools/deps.sh is not known to install "
                         "(add the package to the target's group and a row to PROGRAMS): %s" % unknown)


def test_the_target_that_runs_a_program_installs_its_package():
    assert not missing_installs(deps_groups()), "\n".join(missing_installs(deps_groups()))


def test_the_guard_catches_the_issue_22_machine():
    """deps.sh as it was (no pahole anywhere): the guard names the module build's pahole."""
    groups = {g: p - {"dwarves"} for g, p in deps_groups().items()}
    assert [m for m in missing_installs(groups) if "fixtures/drivers/build-for-kernel.sh: pahole" in m]


def missing_installs(groups):
    """One line for each program a target runs whose package none of its groups installs."""
    rules, vars_ = make_rules()
    missing = []
    for where, prog, target in uses():
        if prog in BASE or prog not in PROGRAMS:
            continue
        tg = target_groups(target, rules, vars_)
        if not any(PROGRAMS[prog][1] in groups.get(g, ()) for g in tg):
            missing.append(f"{where}: {prog} (package {PROGRAMS[prog][1]}) is not in the groups of "
                           f"make {target}: {sorted(tg)}")
    return sorted(set(missing))


def test_make_test_installs_the_module_build_with_pahole():
    """The issue's case by name: make test builds 6.12 modules (kbisect, linux-source)."""
    rules, vars_ = make_rules()
    assert {"vboard", "test", "modules", "browser", "fuzz", "lava"} <= target_groups("test", rules, vars_)
    assert {"gcc", "make", "dwarves", "xz-utils"} <= deps_groups()["modules"]
    assert "modules" in target_groups("run", rules, vars_) and "modules" in target_groups("kbisect", rules, vars_)


def test_every_compile_waits_for_deps():
    """make -j2 all on a fresh machine: a rule running the compiler must not
    start before deps has installed it (order-only | deps, or a prerequisite
    that has it)."""
    rules, vars_ = make_rules()
    late = [t for t, (pre, recipe) in rules.items()
            if any(re.search(r"\$\((CC|FUZZ_CC)\)|\bar rcs\b", r) for r in recipe)
            and "build" not in target_groups(t, rules, vars_) and "fuzz" not in target_groups(t, rules, vars_)]
    assert not late, late


_OWNERS = {}


def owner(path):
    """The packages dpkg says own path (one dpkg -S for the whole table, cached)."""
    if not _OWNERS:
        paths = set()
        for prog in PROGRAMS:
            for c in candidates(prog):
                paths.add(c)
        p = subprocess.run(["dpkg", "-S", *sorted(paths)], capture_output=True, text=True)
        for line in p.stdout.splitlines():
            pk, _, f = line.partition(": ")
            for one in pk.split(","):
                _OWNERS.setdefault(f.strip(), set()).add(one.strip().split(":")[0])
        _OWNERS["-"] = set()
    return _OWNERS.get(path, set())


def candidates(prog):
    """The paths dpkg may know a program by: as found, resolved, /bin and /usr/bin (usrmerge)."""
    path = shutil.which(prog, path="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
    if path is None:
        return []
    c = [path, str(Path(path).resolve())]
    return sorted(set(c + [x.replace("/usr/bin/", "/bin/") for x in c] + [x.replace("/bin/", "/usr/bin/") for x in c]
                      + [x.replace("/usr/sbin/", "/sbin/") for x in c] + [x.replace("/sbin/", "/usr/sbin/") for x in c]))


@pytest.mark.parametrize("prog", sorted(PROGRAMS))
def test_the_table_names_the_package_that_owns_the_program(prog):
    """Where the program is on this machine, dpkg says which package it
    came from; the row must agree (alternatives resolved)."""
    cands = candidates(prog)
    if not cands:
        return      # not on this machine: the row cannot be checked here (the other tests still read it)
    path = cands[0]
    owners = set().union(*(owner(c) for c in cands))
    want = PROGRAMS[prog][0]
    assert owners, f"{prog} ({path}) belongs to no Debian package: install it with tools/deps.sh"
    assert want in owners or any(o.startswith(want.rsplit("-", 1)[0]) for o in owners if want[-1].isdigit()), \
        (prog, path, owners)


def test_base_packages_are_in_every_debian_system():
    pk = sorted(set(BASE.values()))
    p = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Essential} ${Priority}\n", *pk],
                       capture_output=True, text=True)
    info = {line.split()[0]: line.split()[1:] for line in p.stdout.splitlines()}
    assert not [x for x in pk if not ({"yes", "required"} & set(info.get(x, [])))], info


def test_the_scanner_sees_the_commands_of_a_script():
    """A check that cannot fail is a defect: the scanner on a script of the kind it reads."""
    s = ("#!/bin/sh\nneed() { command -v \"$1\"; }\nx=$(pahole --version | sed 1q)\n"
         "exec 9>f; flock 9\nif ! timeout -k 5 10 qemu-system-x86_64 -m 1; then need foo; fi\n"
         "case $a in\n  build) VAR=1 make -C x ;;\nesac\npython3 - <<EOF\nimport os\nEOF\n")
    assert shell_commands(s) == ["pahole", "sed", "flock", "timeout", "qemu-system-x86_64", "make", "python3"]
    assert python_commands('subprocess.run(["chromium", "--headless"])\nshutil.which("clang")') == \
        ["chromium", "clang"]


def test_make_test_installed_every_package_of_its_groups():
    """No test skips for a missing package (issue 22): the harness runs what
    `make test` installs (its deps.sh groups), so a package missing here is
    a failure naming it, never a skip. Run `make test`, or
    tools/deps.sh GROUPS as root, to install them."""
    rules, vars_ = make_rules()
    groups = deps_groups()
    want = sorted({p for g in target_groups("test", rules, vars_) for p in groups[g]})
    p = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Status}\n", *want], capture_output=True, text=True)
    have = {line.split()[0] for line in p.stdout.splitlines() if line.endswith(" installed")}
    missing = [x for x in want if x not in have]
    assert not missing, (f"make test installs these and they are missing: {' '.join(missing)} "
                         f"(tools/deps.sh {' '.join(sorted(target_groups('test', rules, vars_)))})")
