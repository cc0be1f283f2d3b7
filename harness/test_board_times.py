"""vboard.run_job's accounting of a boot (board.time: wall and the host CPU
of the board's whole process tree) and board_times.py's table of them, with
a stand-in for fixtures/vboard/vboard that burns CPU in a grandchild."""
import board_times
import vboard


def test_a_boot_records_its_status_wall_and_cpu(tmp_path, monkeypatch, capsys):
    fake = tmp_path / "vboard"
    # The CPU is spent by a process the stand-in starts and waits for, as
    # QEMU is by run-vm.sh.
    fake.write_text("#!/bin/sh\nsh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setattr(vboard, "VBOARD", fake)
    run = vboard.run_job("true\n", tmp_path / "share", echo=False)
    assert run.status == 3
    assert run.cpu_s > 0, run.cpu_s
    wall, cpu = (float(x) for x in (tmp_path / "share" / "board.time").read_text().split()[1::2])
    assert (wall, cpu) == (round(run.wall_s, 1), round(run.cpu_s, 1))
    assert board_times.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(str(tmp_path / "share")) and out[-1].endswith("1 boots"), out


def test_variants_are_the_rows_of_the_cost_table(tmp_path, capsys):
    """--variants: each variant's guest seconds (the longest where it ran in
    several boots), as harness/batch-seconds.tsv lists them."""
    for batch, name, t0, t1 in (("batch0", "none", 10, 35.5), ("batch1", "none", 3, 30), ("batch1", "bug-a", 40, 41.25)):
        d = tmp_path / "pytest-fixture" / batch / "res" / name
        d.mkdir(parents=True)
        (d / "t0").write_text(f"{t0}\n")
        (d / "t1").write_text(f"{t1}\n")
    assert board_times.main(["--variants", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "fixture\tbug-a\t1.2\nfixture\tnone\t27.0\n"
    import board_batches
    path = tmp_path / "costs.tsv"
    path.write_text("# a comment\nfixture\tbug-a\t1.2\nfixture\tnone\t27.0\nuvc\tnone\t30.0\n")
    assert board_batches.read_costs("fixture", path) == {"bug-a": 1.2, "none": 27.0}


def test_variants_of_another_kernel_have_its_series(tmp_path, capsys):
    """The fixture's boots on two kernels (pytest-fixture/RELEASE/batchN):
    6.1's rows are 'fixture', another series' 'fixture@X.Y', which
    read_costs(kind, series=) prefers."""
    for rel, t1 in (("6.1.0-57-amd64", 12.0), ("7.3.4+deb13-amd64", 11.0)):
        d = tmp_path / "pytest-fixture" / rel / "batch0" / "res" / "bug-a"
        d.mkdir(parents=True)
        (d / "t0").write_text("10\n")
        (d / "t1").write_text(f"{t1}\n")
    assert board_times.main(["--variants", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "fixture\tbug-a\t2.0\nfixture@7.3\tbug-a\t1.0\n"
    import board_batches
    path = tmp_path / "costs.tsv"
    path.write_text("fixture\tbug-a\t2.0\nfixture\tnone\t27.0\nfixture@7.3\tbug-a\t1.0\n")
    assert board_batches.read_costs("fixture", path, series="7.3") == {"bug-a": 1.0, "none": 27.0}
    assert board_batches.read_costs("fixture", path) == {"bug-a": 2.0, "none": 27.0}
