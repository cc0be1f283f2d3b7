#!/usr/bin/python3
"""Generate a LAVA job for a board from its profile (fixtures/boards/NAME.board).

usage: gen-job.py PROFILE [--set KEY=VALUE]... [-o JOB.yaml]
       gen-job.py --all [--set KEY=VALUE]... [-d OUTDIR]   (every fixtures/boards/*.board)

A profile is key=value lines ('#' starts a comment line). Values may refer to
other keys (or to --set values) as ${key}; --set overrides the profile.
Keys:
  device_type    LAVA device type, as lava-server ships it (required)
  arch           amd64 | arm64 (required)
  template       a file in lava-jobs/templates/ without .yaml (required):
                 qemu-tmpfs (the virtual board), uboot-tftp-ramdisk (lab boards)
  kernel_url, ramdisk_url          kernel and busybox ramdisk (cpio, gzip)
  dtb_url, modules_url             device tree blob; kernel modules tarball
  bundle_url     the suite bundle: a tarball with usr/bin/v4l2-conform and
                 usr/bin/v4l2-conform-lava, laid over the ramdisk
  kernel_type    image | zimage | uimage (u-boot boards; default image)
  modules_compression, ramdisk_compression   xz, gz, ... (defaults xz, gz)
  kernel_args    kernel command line (qemu-tmpfs) or extra arguments (u-boot)
  expectations   the board's expectations file (reports/compare.py format),
                 relative to the top of the tree; its 'setup:', 'device:' and
                 'run-args:' lines, when present, replace the next three keys
                 (a missing file is allowed: the nightly's compare needs it)
  video_node     the node to test (default /dev/video0)
  setup          shell command run on the board first (e.g. modprobe vivid n_devs=1)
  extra_args     more v4l2-conform arguments (e.g. --exclude-control disconnect)
  only           a v4l2-conform --only glob (default: every check)
  suite_profile  a suite board profile (fixtures/boards/NAME.profile, for the
                 frame probes): adds --profile with its path in the bundle
  dump_json      yes (default) | no: print results.json into the job log
  prompt         the shell prompt of the ramdisk (default '/ # ')
  tags           comma-separated LAVA device tags (e.g. the camera sensor)
  testdef        inline (default: the definition goes into the job) or git
  testdef_repo, testdef_revision   for testdef=git
  job_timeout, test_timeout        minutes (defaults 30 and 20)
  job_name, description, priority, visibility
  context.NAME   a job context variable (arch is always set from 'arch'),
                 e.g. context.cpu=max, context.extra_options=-smp 2
  kernel_image_arg   qemu-tmpfs: the QEMU arguments for the kernel
Every job is checked with LAVA's two job schemas, lava-dispatcher's and
lava-server's submission check (lava-jobs/lava_schemas.py; --no-validate
skips them).
"""
import argparse
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
TESTDEF = os.path.join(HERE, "testdefs", "v4l2-conform.yaml")

DEFAULTS = {
    "video_node": "/dev/video0",
    "setup": "",
    "only": "",
    "extra_args": "",
    "suite_profile": "",
    "dump_json": "yes",
    "prompt": "/ # ",
    "kernel_type": "image",
    "modules_compression": "xz",
    "ramdisk_compression": "gz",
    "kernel_args": "",
    "tags": "",
    "expectations": "",
    "testdef": "inline",
    "testdef_repo": "",
    "testdef_revision": "main",
    "job_timeout": "30",
    "test_timeout": "20",
    "priority": "medium",
    "visibility": "public",
    "description": "",
}
REQUIRED = ("device_type", "arch", "template")


def read_profile(path):
    prof = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "=" not in line:
                sys.exit("%s:%d: not key=value: %r" % (path, n, line))
            k, v = line.split("=", 1)
            prof[k.strip()] = v.strip()
    return prof


def read_expectations(path):
    """The 'key: value' settings of an expectations file (the format of
    reports/results.py: setup, device, run-args, board, kernel)."""
    settings = {}
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line.startswith("setup:"):
                line = line.split("#", 1)[0].strip()
            key, sep, value = line.partition(":")
            if sep and key in ("setup", "device", "run-args", "board", "kernel"):
                settings[key] = value.strip()
    return settings


def expand(values):
    """Resolve ${key} references between values (a few rounds)."""
    out = dict(values)
    for _ in range(5):
        changed = False
        for k, v in out.items():
            def sub(m):
                name = m.group(1)
                if name == "TOP":
                    return TOP
                if name not in out:
                    sys.exit("gen-job: %s refers to undefined ${%s}" % (k, name))
                return out[name]
            nv = re.sub(r"\$\{([A-Za-z0-9_]+)\}", sub, v)
            if nv != v:
                out[k], changed = nv, True
        if not changed:
            return out
    sys.exit("gen-job: ${...} references loop")


def read_testdef():
    """The test definition as a dict (for an inline definition). Parsed with
    PyYAML when present (it is, with lava-common), else kept as text."""
    try:
        import yaml
    except ImportError:
        sys.exit("gen-job: an inline test definition needs python3-yaml")
    with open(TESTDEF, encoding="utf-8") as f:
        return yaml.safe_load(f)


def shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def definition(v):
    extra = v["extra_args"]
    if v["suite_profile"]:
        extra = ("--profile /usr/share/v4l2-conform/profiles/%s %s" % (v["suite_profile"], extra)).strip()
    params = {
        "DEVICE": v["video_node"],
        "SETUP": v["setup"],
        "ONLY": v["only"],
        "EXTRA_ARGS": extra,
        "DUMP_JSON": v["dump_json"],
    }
    if v["testdef"] == "git":
        if not v["testdef_repo"]:
            sys.exit("gen-job: testdef=git needs testdef_repo")
        d = {"from": "git", "repository": v["testdef_repo"],
             "revision": v["testdef_revision"],
             "path": "lava-jobs/testdefs/v4l2-conform.yaml"}
        d["parameters"] = params
    else:
        # An inline definition takes no 'parameters' (lava_common's schema)
        # and no 'params' (lava-server's submission schema): the values
        # become a first run step that sets them (all steps run in one shell).
        td = read_testdef()
        values = dict(td.pop("params", {}))
        values.update(params)
        assign = "; ".join("%s=%s" % (k, shell_quote(str(val))) for k, val in values.items())
        td["run"]["steps"] = [assign] + td["run"]["steps"]
        d = {"from": "inline", "repository": td, "path": "inline/v4l2-conform.yaml"}
    d["name"] = "v4l2-conform"
    return d


def y(value):
    """A YAML scalar or flow collection: JSON is valid YAML."""
    return json.dumps(value, ensure_ascii=False)


def render(profile_path, overrides):
    prof = read_profile(profile_path)
    board = os.path.splitext(os.path.basename(profile_path))[0]
    v = dict(DEFAULTS)
    v["board"] = board
    exp = overrides.get("expectations", prof.get("expectations"))
    if exp:
        exp_path = os.path.join(TOP, exp)
        st = read_expectations(exp_path) if os.path.exists(exp_path) else {}
    else:
        st = {}
    v.update(prof)
    # The expectations file is where a board's set-up is maintained: it
    # wins over the profile; --set wins over both.
    for key, name in (("setup", "setup"), ("device", "video_node"), ("run-args", "extra_args")):
        if key in st:
            v[name] = st[key]
    v.update(overrides)
    missing = [k for k in REQUIRED if not v.get(k)]
    if missing:
        sys.exit("gen-job: %s lacks %s" % (profile_path, ", ".join(missing)))
    v = expand(v)
    v.setdefault("job_name", "v4l2-conform %s (%s)" % (board, v["device_type"]))
    tpl_path = os.path.join(HERE, "templates", v["template"] + ".yaml")
    with open(tpl_path, encoding="utf-8") as f:
        tpl = f.read()
    # Template placeholders: @key@ -> YAML scalar; @@definition@@ etc. below.
    context = {"arch": v["arch"]}
    for k, val in v.items():
        if k.startswith("context."):
            context[k[len("context."):]] = int(val) if val.isdigit() else val
    special = {
        "context": y(context),
        "definition": y(definition(v)),
        "tags": y([t.strip() for t in v["tags"].split(",") if t.strip()]),
        "metadata": y({
            "board": board,
            "profile": os.path.relpath(os.path.abspath(profile_path), TOP),
            "expectations": v["expectations"],
            "video_node": v["video_node"],
            "arch": v["arch"],
        }),
    }

    def sub(m):
        key = m.group(1)
        if key in special:
            return special[key]
        if key not in v:
            sys.exit("gen-job: template %s needs '%s' (profile %s)" % (tpl_path, key, profile_path))
        val = v[key]
        if key.endswith("timeout") and val.isdigit():
            return val
        return y(val)
    text = re.sub(r"@([a-z_]+)@", sub, tpl)
    # The test definition in block style, for people reading the job.
    block = yaml_block(definition(v))
    if block:
        text = re.sub(r"(?m)^( *- )" + re.escape(special["definition"]) + "$",
                      lambda m: m.group(1) + block.replace("\n", "\n" + " " * len(m.group(1))),
                      text)
    if not v["tags"]:
        text = re.sub(r"(?m)^tags: \[\]\n", "", text)
    head = ("# Generated by lava-jobs/gen-job.py from %s: edit the profile or\n"
            "# lava-jobs/templates/%s.yaml, not this file.\n"
            % (os.path.relpath(os.path.abspath(profile_path), TOP), v["template"]))
    return head + text


def yaml_block(value):
    try:
        import yaml
    except ImportError:
        return None
    return yaml.safe_dump(value, default_flow_style=False, sort_keys=False,
                          width=1000).rstrip("\n")


def validate(text, where):
    try:
        import yaml
        sys.path.insert(0, HERE)
        from lava_schemas import validate_job
    except ImportError:
        sys.exit("gen-job: lava-common is not installed (tools/deps.sh lava), "
                 "or use --no-validate")
    try:
        validate_job(yaml.safe_load(text))
    except ValueError as exc:
        sys.exit("gen-job: %s does not pass LAVA's job schema: %s" % (where, exc))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile", nargs="?")
    ap.add_argument("--all", action="store_true", help="every fixtures/boards/*.board")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("-o", "--output", help="job file (default stdout)")
    ap.add_argument("-d", "--outdir", help="with --all: write OUTDIR/<board>.yaml")
    ap.add_argument("--no-validate", action="store_true")
    a = ap.parse_args()
    overrides = {}
    for kv in a.set:
        k, sep, val = kv.partition("=")
        if not sep:
            ap.error("--set wants KEY=VALUE, got %r" % kv)
        overrides[k] = val
    if a.all:
        if not a.outdir:
            ap.error("--all needs -d OUTDIR")
        os.makedirs(a.outdir, exist_ok=True)
        for p in sorted(glob.glob(os.path.join(TOP, "fixtures", "boards", "*.board"))):
            text = render(p, overrides)
            if not a.no_validate:
                validate(text, p)
            out = os.path.join(a.outdir, os.path.basename(p)[:-len(".board")] + ".yaml")
            with open(out, "w", encoding="utf-8") as f:
                f.write(text)
            print(out)
        return
    if not a.profile:
        ap.error("a profile or --all")
    text = render(a.profile, overrides)
    if not a.no_validate:
        validate(text, a.profile)
    if a.output:
        os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
