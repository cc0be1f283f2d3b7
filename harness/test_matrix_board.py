"""make matrix, the default one, in make test: vivid on the newest 6.1 and
the newest 6.12 build Debian has (one boot each, one after the other: make
test already runs two boards side by side on two cores), the table written,
and no unexpected failure on either kernel (harness/matrix.py exits 1 then)."""
import json
import subprocess
import sys

import vboard

OUT = vboard.TOP / "reports" / "out"


def test_default_matrix_writes_the_table_and_no_kernel_fails(built):
    p = subprocess.run([sys.executable, str(vboard.TOP / "harness" / "matrix.py"), "--out", str(OUT)],
                       capture_output=True, text=True, timeout=1800)
    sys.stdout.write(p.stdout[-3000:])
    assert p.returncode == 0, f"matrix.py exit {p.returncode}: {p.stderr[-2000:]}"
    md, js = OUT / "matrix.md", OUT / "matrix.json"
    assert md.exists() and js.exists()
    data = json.loads(js.read_text())
    kernels = [k["release"] for k in data["kernels"]]
    assert len(kernels) == 2 and kernels[0].startswith("6.1.0-") and kernels[1].startswith("6.12."), kernels
    for k in data["kernels"]:
        assert k["summary"]["total"] > 1000 and k["summary"]["fail"] == 0, k  # vivid.expect lists no failure
    # The differing checks, messages side by side (in the test's output).
    print(f"{len(data['differences'])} checks differ between {' and '.join(kernels)}")
    for r in data["differences"]:
        print(" | ".join([r["name"]] + [f"{r['verdicts'][k] or 'absent'}: {r['messages'][k][:80]}" for k in kernels]))
    # 6.12's vivid has a control 6.1's has not (issue 17): the table must show it.
    arrays = [r for r in data["differences"] if r["name"].endswith("/s32-2-element-array")]
    assert arrays and all(r["verdicts"][kernels[0]] is None and r["verdicts"][kernels[1]] for r in arrays)
    assert f"## {len(data['differences'])} checks whose verdict differs" in md.read_text()
