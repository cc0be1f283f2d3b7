"""make matrix's pure parts (harness/matrix.py): picking Debian's kernel
builds and the table of checks whose verdict differs. Runs on the host."""
import pytest

import matrix


def test_debian_builds_newest_per_series():
    names = ["linux-image-6.1.0-9-amd64", "linux-image-6.1.0-57-amd64", "linux-image-6.1.0-57-rt-amd64",
             "linux-image-6.1.0-47-cloud-amd64", "linux-image-6.12.118+deb12-amd64", "linux-image-6.12.100+deb12-amd64",
             "linux-image-6.12-amd64", "linux-image-6.12.118+deb12-amd64-dbg", "linux-image-amd64"]
    b = matrix.debian_builds(names)
    assert b["6.1"] == ["6.1.0-9-amd64", "6.1.0-57-amd64"]  # numeric order, flavours and metapackages left out
    assert b["6.12"] == ["6.12.100+deb12-amd64", "6.12.118+deb12-amd64"]


def _run(kernel, *recs):
    res = [{"name": n, "verdict": v, "rule": r, "message": m} for n, v, r, m in recs]
    counts = {v: sum(x["verdict"] == v for x in res) for v in ("pass", "fail", "warn", "skip")}
    return kernel, {"run": {"kernel": f"Linux {kernel} x86_64"}, "summary": dict(total=len(res), **counts),
                    "results": res}


def test_diff_runs_lists_only_differences_side_by_side():
    a = _run("6.1.0-57-amd64", ("enum/query/x", "pass", "QC-1", ""), ("ext/y/z", "warn", "VA-1", "stored 3"),
             ("getset/only-old/w", "pass", "SC-1", ""))
    b = _run("6.12.118+deb12-amd64", ("enum/query/x", "pass", "QC-1", ""), ("ext/y/z", "pass", "VA-1", ""),
             ("payload/roundtrip/s32-2-element-array", "pass", "AR-3", ""))
    rows = matrix.diff_runs([a, b])
    assert [r["name"] for r in rows] == ["ext/y/z", "getset/only-old/w", "payload/roundtrip/s32-2-element-array"]
    assert rows[0]["verdicts"] == {"6.1.0-57-amd64": "warn", "6.12.118+deb12-amd64": "pass"}
    assert rows[0]["messages"]["6.1.0-57-amd64"] == "stored 3"
    assert rows[2]["verdicts"]["6.1.0-57-amd64"] is None
    md = matrix.to_markdown([a, b], rows, {"6.1.0-57-amd64": 150})
    assert "## 3 checks whose verdict differs" in md
    assert "| ext/y/z | VA-1 | warn: stored 3 | pass:  |" in md
    assert "absent" in md
    assert matrix.diff_runs([a, a]) == []


def _write(d, run):
    import json
    d.mkdir(parents=True)
    (d / "results.json").write_text(json.dumps(dict(run[1], results=[
        dict(r, suite=r["name"].split("/")[0], ctrl_id=0, duration_s=0.0) for r in run[1]["results"]])))
    return d


def test_reused_runs_boot_nothing_and_are_judged(tmp_path, monkeypatch, capsys):
    """--reuse REL=DIR takes a run made already (make test: the vivid boot
    of test_vivid_e2e.py) instead of booting REL; it is judged against the
    board's expectations as run_board judges a boot."""
    monkeypatch.setattr(matrix, "run_kernel", lambda *a: (_ for _ in ()).throw(AssertionError("booted")))
    a = _write(tmp_path / "a", _run("6.1.0-57-amd64", ("enum/query/x", "pass", "QC-1", "")))
    b = _write(tmp_path / "b", _run("6.12.118+deb12-amd64", ("enum/query/x", "fail", "QC-1", "no")))
    out = tmp_path / "out"
    args = ["--kernels", "6.1.0-57-amd64,6.12.118+deb12-amd64", "--out", str(out),
            "--reuse", f"6.1.0-57-amd64={a}", "--reuse", f"6.12.118+deb12-amd64={b}"]
    assert matrix.main(args) == 1          # vivid.expect lists no failure
    assert "REGRESSION enum/query/x" in capsys.readouterr().out
    assert "| 6.1.0-57-amd64 | 1 | 1 | 0 | 0 | 0 | reused |" in (out / "matrix.md").read_text()
    with pytest.raises(AssertionError, match="booted"):
        matrix.main(args[:-2])            # 6.12.118 not reused: booted
    assert matrix.main(["--reuse", f"x={tmp_path / 'none'}", "--out", str(out)]) == 2
