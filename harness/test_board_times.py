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
