"""The traceability matrix of issue 23 (spec/coverage.tsv): every normative
statement of the kernel's control documentation, for 6.1 and 6.12, with the
rule it is, the checks enforcing it and the fixture bug that proves each
check can fail, or why it cannot be tested. Host only: the kernel source is
not needed (the uapi constants of each kernel are extracted into
spec/uapi-<X.Y>.txt by tools/uapi_constants.py; the table's line numbers by
tools/coverage_table.py)."""
import sys

import pytest

import vboard

sys.path.insert(0, str(vboard.TOP / "tools"))
import coverage_table as cov  # noqa: E402  (tools/coverage_table.py)

ROWS = cov.read_table()
SPEC = vboard.TOP / "spec"
# Rule families other helpers own: their rows may stay 'pending'.
PENDING_FAMILIES = ("SD-", "RQ-", "CP-4")  # CP-4: the HEVC RPS types wait for a control that has them
# Statements the suite does not check yet. Each must stay visible here until
# a check closes it (then the test asks for its removal).
KNOWN_GAPS = {}
# Checks with no fixture bug on main and no documented verdict in no-negative-case.tsv
# ("not yet modelled" there is a to-do). None left: the conc checks fail on the fixture's
# torn-write and event-starving bugs, request/queued and request/completed on its request-*
# bugs (fx_request.c), the other three request checks are the core's and the framework's to decide.
# (ext/min-max-which on 7.3, where count-zero-any-class is no bug since 6.15,
# fails on minmax-min-differs: MIN_VAL must be the minimum, EX-19.)
KNOWN_NO_NEGATIVE = set()


def _kernels(row):
    return cov.kernels_of(row["kernel"])


def uapi(kernel):
    """(kind, name) of every control-interface constant of that kernel."""
    lines = (SPEC / f"uapi-{kernel}.txt").read_text().splitlines()
    return sorted({tuple(l.split("\t")[:2]) for l in lines if l.strip()})


def test_table_format():
    assert len(ROWS) >= 150
    for r in ROWS:
        assert r["kernel"] and set(_kernels(r)) <= set(cov.KERNELS), r
        assert r["file"].endswith(".rst") and r["statement"] and r["rules"] and r["anchor"], r
        assert r["status"] in ("covered", "missing", "no-negative", "untestable", "pending"), r
        if r["status"] in cov.VERDICTS:
            assert len(r["checks"].split(":", 1)[-1].strip()) > 15, f"say why: {r['statement']}"


@pytest.mark.parametrize("kernel", cov.KERNELS)
def test_every_uapi_constant_has_a_rule(kernel):
    """Each V4L2_CTRL_TYPE_/FLAG_/WHICH_, V4L2_EVENT_CTRL_CH_/SUB_FL_ of the
    kernel's headers, and each error code a return-value section lists,
    is named by a statement of that kernel."""
    named = set()
    for r in ROWS:
        if kernel in _kernels(r):
            named |= set(r["constants"].split())
    missing = [name for _, name in uapi(kernel) if name not in named]
    assert not missing, f"{kernel}: constants no statement covers: {missing}"


def test_the_kernels_differ_as_the_headers_say():
    """6.12 adds the AV1 compound types; the extraction is not stale."""
    only_612 = {n for _, n in uapi("6.12")} - {n for _, n in uapi("6.1")}
    assert {"V4L2_CTRL_TYPE_AV1_SEQUENCE", "V4L2_CTRL_TYPE_AV1_FRAME"} <= only_612
    assert ("errno", "ENOSPC") in uapi("6.1")
    only_73 = {n for _, n in uapi("7.3")} - {n for _, n in uapi("6.12")}
    assert only_73 == {"V4L2_CTRL_WHICH_MIN_VAL", "V4L2_CTRL_WHICH_MAX_VAL", "V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX",
                       "V4L2_CTRL_TYPE_RECT", "V4L2_CTRL_TYPE_HEVC_EXT_SPS_ST_RPS", "V4L2_CTRL_TYPE_HEVC_EXT_SPS_LT_RPS"}


def test_the_rule_book_model_knows_every_constant():
    """lib/ctrl/rulebook.c dates every flag, type and which of each kernel's
    uapi list: a constant of the list is in the model, and the model says
    that kernel can have it (the since-versions agree with the headers)."""
    import re
    src = (vboard.TOP / "lib" / "ctrl" / "rulebook.c").read_text()
    model = dict(re.findall(r'"(V4L2_\w+)", (OLD|AT\(\d+, \d+\)|RB_VER\(\d+, \d+\), RB_VER\(\d+, \d+\))', src))
    def first(k):
        nums = [int(x) for x in re.findall(r"\d+", k)] if k != "OLD" else [0, 0]
        return nums[0] * 1000 + nums[1]
    for kernel in cov.KERNELS:
        x, y = (int(v) for v in kernel.split("."))
        for kind, name in uapi(kernel):
            if kind == "errno" or name in ("V4L2_CTRL_FLAG_NEXT_CTRL", "V4L2_CTRL_FLAG_NEXT_COMPOUND"):
                continue
            assert name in model, f"{kernel}: {name} is not in lib/ctrl/rulebook.c"
            assert first(model[name]) <= x * 1000 + y, f"{kernel} has {name}, the model dates it later"


def test_every_rule_is_in_the_book(spec_rules):
    for r in ROWS:
        for rid in r["rules"].split():
            assert rid in spec_rules or (rid.startswith(PENDING_FAMILIES) and r["status"] == "pending"), \
                f"{r['file']}:{r['line']}: unknown rule {rid}"


def test_every_rule_has_a_check():
    """A statement is checked, or untestable with the reason, or pending on
    another family (SD-n, RQ-n)."""
    missing = {r["statement"] for r in ROWS if r["status"] == "missing"}
    assert not sorted(missing - set(KNOWN_GAPS)), "statements without a check"
    closed = sorted(set(KNOWN_GAPS) - missing)
    assert not closed, f"checked now, remove from KNOWN_GAPS: {closed}"
    for r in ROWS:
        if r["status"] == "pending":
            assert all(x.startswith(PENDING_FAMILIES) for x in r["rules"].split()) or "RQ-" in r["checks"] \
                or "minmax/" in r["checks"], r


def test_every_check_has_a_negative_case():
    """Each check a statement names is made to fail by a fixture bug of the
    catalogue (or is in no-negative-case.tsv with its reason)."""
    lacking = set()
    for r in ROWS:
        for part in r["negative"].split(";"):
            check, _, neg = part.partition("=")
            if neg == "NONE":
                lacking.add(check)
    assert not sorted(lacking - KNOWN_NO_NEGATIVE), "checks without a negative case"
    assert not sorted(KNOWN_NO_NEGATIVE - lacking), "have a negative case now: remove from KNOWN_NO_NEGATIVE"


def test_table_is_up_to_date(built):
    """checks/negative/status agree with --list and the catalogue now (line
    numbers need the kernel source: tools/coverage_table.py refreshes them)."""
    rows = cov.read_table()
    stale = []
    cov.derive(rows, {}, cov.all_checks(vboard.BUILD / "bin" / "v4l2-conform"), cov.catalogue(), cov.no_negative())
    for old, new in zip(ROWS, rows):
        if any(old[c] != new[c] for c in ("checks", "negative", "status")):
            stale.append(old["statement"])
    assert not stale, "run tools/coverage_table.py: stale rows " + "; ".join(stale[:5])


def test_list_names_the_documentation(built):
    """--list shows, per rule, the documentation line it comes from."""
    import subprocess
    out = subprocess.run([str(vboard.BUILD / "bin" / "v4l2-conform"), "--list"], capture_output=True, text=True,
                         check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("enum/private-next"))
    assert "[doc v4l/extended-controls.rst:" in line or "[doc v4l/" in line
    assert sum("[doc " in l for l in out.splitlines()) >= 60


# The Debian builds whose headers stand for each kernel series: the board's
# default 6.1 build and the newest 6.12 build apt offers (resolved at run time). 7.3 (Debian 13's
# backports, not in the host's apt): the uapi headers of its linux-source.
HEADER_BUILDS = {"6.1": None, "6.12": "newest", "7.3": "linux-source"}


def _uapi_headers(kernel):
    """(release, linux-headers-*-common dir) of a Debian build of the series,
    fetched as the module builds fetch them (kernel-headers.sh)."""
    import subprocess
    from pathlib import Path
    import os
    cache = os.environ.get("VBOARD_CACHE") or str(vboard.TOP / "fixtures/vboard/cache")   # as the board's
    if HEADER_BUILDS[kernel] == "linux-source":
        return f"linux-source-{kernel}", _linux_source(kernel)
    rel = vboard.newest_kernel(kernel) if HEADER_BUILDS[kernel] == "newest" else HEADER_BUILDS[kernel] or subprocess.run(
        [str(vboard.TOP / "fixtures/vboard/fetch-kernel.sh"), cache],
        capture_output=True, text=True, check=True).stdout.strip()
    kdir = subprocess.run([str(vboard.TOP / "fixtures/drivers/kernel-headers.sh"), rel],
                          capture_output=True, text=True, check=True).stdout.strip()
    return rel, next(Path(kdir).parent.glob("linux-headers-*-common"))


def _linux_source(kernel):
    """The media documentation (and test drivers) of Debian's linux-source of
    that series: V4L2C_KSRC_<X_Y> if set (an extracted tree), else the parts
    fixtures/drivers/linux-source/extract.sh extracts once into the cache, the
    same download the vimc, vicodec and visl builds use, so this runs (and is
    never skipped) on any machine."""
    import os
    import subprocess
    from pathlib import Path
    env = os.environ.get(f"V4L2C_KSRC_{kernel.replace('.', '_')}")
    if env:
        return Path(env)
    out = subprocess.run([str(vboard.TOP / "fixtures/drivers/linux-source/extract.sh"), kernel],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return Path(out.stdout.strip())


@pytest.mark.parametrize("kernel", cov.KERNELS)
def test_uapi_lists_match_the_headers(kernel):
    """spec/uapi-X.Y.txt is what the kernel's uapi headers say now: the
    constants from the headers of a Debian build of that series (downloaded
    by fixtures/drivers/kernel-headers.sh, as every module build does, so
    this runs on any machine); the error codes from the documentation of that
    series' linux-source (_linux_source; tools/uapi_constants.py KSRC writes
    the file)."""
    import uapi_constants as uc
    rel, common = _uapi_headers(kernel)
    table = (SPEC / f"uapi-{kernel}.txt").read_text().splitlines()
    assert uc.constant_lines(common) == [l for l in table if not l.startswith("errno\t")], rel
    src = _linux_source(kernel)
    assert uc.errno_lines(src) == [l for l in table if l.startswith("errno\t")]


def _compound_rows(tmp_path, include=None):
    """The rows of the compound tables (CP-1..CP-3) compiled against the
    build's headers (include None) or a kernel's uapi videodev2.h and
    v4l2-controls.h, cleaned as headers_install does."""
    import subprocess
    flags = ["-std=c11", "-D_GNU_SOURCE", f"-I{vboard.TOP / 'lib'}"]
    tmp_path.mkdir(parents=True, exist_ok=True)
    if include:
        inc = tmp_path / "inc"
        (inc / "linux").mkdir(parents=True)
        for h in ("videodev2.h", "v4l2-controls.h", "v4l2-common.h"):
            text = (include / "linux" / h).read_text()
            text = text.replace("#include <linux/compiler.h>\n", "").replace("__user", "")
            (inc / "linux" / h).write_text(text)
        flags.append(f"-I{inc}")
    exe = tmp_path / ("layout-kernel" if include else "layout-build")
    subprocess.run(["cc", *flags, "-o", str(exe), str(vboard.TOP / "tests/unit/compound_layout.c"),
                    str(vboard.TOP / "lib/ctrl/compound.c"), str(vboard.TOP / "lib/ctrl/ctrl_type.c")], check=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines()


@pytest.mark.parametrize("kernel", cov.KERNELS)
def test_compound_tables_match_the_headers(kernel, tmp_path):
    """The per-type tables of the compound checks (field offsets, widths,
    reserved ranges: lib/ctrl/compound.c, by offsetof) are the same built
    against the uapi headers of each kernel series (the same Debian builds
    as test_uapi_lists_match_the_headers) as against the build's own."""
    rel, common = _uapi_headers(kernel)
    built = _compound_rows(tmp_path / "b")
    assert len(built) > 40 and any(l.startswith("size\t0x280\t") for l in built)
    assert _compound_rows(tmp_path / "k", common / "include" / "uapi") == built, rel


@pytest.mark.parametrize("kernel", cov.KERNELS)
def test_documented_read_only_list_matches_the_documentation(kernel):
    """flags/documented-read-only (FL-15) knows every standard control whose
    description in control.rst or ext-ctrls-*.rst calls it read-only, in the
    documentation of that kernel (_linux_source)."""
    import re
    v4l = _linux_source(kernel) / cov.DOCS / "v4l"
    assert v4l.is_dir(), v4l
    suite = (vboard.TOP / "suites" / "suite_flags.c").read_text()
    table = suite[suite.index("doc_read_only[] = {"):]
    known = set(re.findall(r"V4L2_CID_\w+", table[:table.index("};")]))
    documented = {}
    for page in [v4l / "control.rst"] + sorted(v4l.glob("ext-ctrls-*.rst")):
        name = None
        for n, line in enumerate(page.read_text().splitlines(), 1):
            m = re.match(r"``(V4L2_CID_\w+)", line)
            if m:
                name = m.group(1)
            elif re.search(r"read-only", line, re.I) and name:
                documented.setdefault(name, f"{page.name}:{n}")
    assert len(documented) >= 15, documented
    missing = {n: where for n, where in documented.items() if n not in known}
    assert not missing, f"{kernel}: read-only by the documentation, unknown to flags/documented-read-only: {missing}"
