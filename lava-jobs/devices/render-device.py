#!/usr/bin/python3
"""Render a LAVA device dictionary (a *.jinja2 file that extends a device-type
template) into the device YAML that lava-run takes with --device.

lava-server does this at scheduling time; we do it once, by hand, and keep the
result as a static file so that `make lava-check` needs lava-dispatcher only.

usage: render-device.py DEVICE.jinja2 [--types DIR] [--set KEY=VALUE]... > DEVICE.yaml
  --types DIR   the device-types folder of lava-server. Default: the
                installed one, else a lava-server .deb fetched with
                `apt-get download lava-server` and unpacked in a temp dir.
  --set K=V     job context variables (e.g. arch=amd64), as a job's
                `context:` would pass them. Values are YAML scalars.
The output is checked with lava_common's device schema.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import jinja2.sandbox
import yaml

INSTALLED = "/usr/share/lava-server/device-types"


def lava_server_types(tmp):
    if os.path.isdir(INSTALLED):
        return INSTALLED
    subprocess.run(["apt-get", "download", "-q", "lava-server"], cwd=tmp,
                   check=True, stdout=sys.stderr)
    deb = glob.glob(os.path.join(tmp, "lava-server_*.deb"))[0]
    subprocess.run(["dpkg-deb", "-x", deb, os.path.join(tmp, "root")], check=True)
    return os.path.join(tmp, "root" + INSTALLED)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("device")
    ap.add_argument("--types")
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args()
    ctx = {}
    for kv in a.set:
        k, _, v = kv.partition("=")
        ctx[k] = yaml.safe_load(v)
    with tempfile.TemporaryDirectory() as tmp:
        types = a.types or lava_server_types(tmp)
        # The same environment options as lava-server's scheduler.
        env = jinja2.sandbox.SandboxedEnvironment(
            loader=jinja2.FileSystemLoader([os.path.dirname(os.path.abspath(a.device)), types]),
            autoescape=False, trim_blocks=True)
        text = env.get_template(os.path.basename(a.device)).render(**ctx)
    data = yaml.safe_load(text)
    from lava_common.schemas.device import validate
    validate(data)
    name = os.path.basename(a.device)
    sys.stdout.write("# Rendered from lava-jobs/devices/%s with context %s by\n"
                     "# lava-jobs/devices/render-device.py (lava-server's device-types).\n"
                     "# Do not edit: re-render instead.\n" % (name, ctx or "{}"))
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


if __name__ == "__main__":
    main()
