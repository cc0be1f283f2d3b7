#!/usr/bin/python3
"""Build a job's LAVA pipeline against a device dictionary and validate it,
as `lava-run --validate` does, without the lab's TFTP server configuration.

usage: validate-pipeline.py JOB.yaml DEVICE.yaml [--output-dir DIR]
The job's URLs must be reachable (file:// URLs work offline): LAVA checks
each download. What only a lab worker has is stood in for: tftpd's
directory (/etc/default/tftpd-hpa) is a temporary directory, and the TFTP
server program (in.tftpd, whose presence LAVA checks) a stub on PATH. Other
tools LAVA checks for must be installed (mkimage: u-boot-tools).
Exit 0 when LAVA accepts every action.
"""
import argparse
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

from lava_common.exceptions import LAVAError
from lava_common.log import YAMLLogger
from lava_dispatcher.device import NewDevice
from lava_dispatcher.parser import JobParser
from lava_dispatcher.utils import filesystem


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("job")
    ap.add_argument("device")
    ap.add_argument("--output-dir")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tftp = Path(tmp) / "tftp"
        tftp.mkdir()
        filesystem.tftpd_dir = lambda: str(tftp)
        if not shutil.which("in.tftpd"):
            stub = Path(tmp) / "bin" / "in.tftpd"
            stub.parent.mkdir()
            stub.write_text("#!/bin/sh\nexit 1\n")
            stub.chmod(0o755)
            os.environ["PATH"] = "%s:%s" % (stub.parent, os.environ.get("PATH", ""))
        logging.setLoggerClass(YAMLLogger)
        logger = logging.getLogger("dispatcher")
        logger.addHandler(logging.StreamHandler(sys.stderr))
        logger.setLevel(logging.WARNING)
        try:
            with open(a.device) as dev, open(a.job) as job:
                pipeline = JobParser().parse(job.read(), NewDevice(dev), "4242", logger=logger,
                                             dispatcher_config=None, env_dut=None)
            pipeline.validate()
        except LAVAError as exc:
            print("validate-pipeline: %s: %s (%s)" % (a.job, exc, type(exc).__name__))
            return 1
    print("validate-pipeline: %s: LAVA accepts the pipeline on %s" % (a.job, Path(a.device).name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
