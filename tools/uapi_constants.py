#!/usr/bin/env python3
"""The constants of the control interface one kernel defines, for the
coverage test (harness/test_coverage.py) that must not need the kernel
source on CI: writes spec/uapi-<X.Y>.txt from an extracted linux-source tree.

  tools/uapi_constants.py "$(fixtures/drivers/linux-source/extract.sh 6.1)" > spec/uapi-6.1.txt

Each line is 'KIND<TAB>NAME<TAB>WHERE': every V4L2_CTRL_TYPE_*, V4L2_CTRL_FLAG_*,
V4L2_CTRL_WHICH_*, V4L2_EVENT_CTRL_CH_* and V4L2_EVENT_SUB_FL_* of the uapi
headers, and every error code a return-value section of the control pages
lists ('errno EINVAL v4l/vidioc-g-ctrl.rst')."""
import re
import sys
from pathlib import Path

HEADERS = ("include/uapi/linux/videodev2.h", "include/uapi/linux/v4l2-controls.h")
PREFIXES = ("V4L2_CTRL_TYPE_", "V4L2_CTRL_FLAG_", "V4L2_CTRL_WHICH_", "V4L2_EVENT_CTRL_CH_", "V4L2_EVENT_SUB_FL_")
DOCS = "Documentation/userspace-api/media/"
PAGES = ("v4l/vidioc-queryctrl.rst", "v4l/vidioc-g-ctrl.rst", "v4l/vidioc-g-ext-ctrls.rst",
         "v4l/vidioc-subscribe-event.rst", "v4l/vidioc-dqevent.rst")


def header_constants(src):
    """#defines and enum members with one of the prefixes, in header order."""
    seen = []
    for h in HEADERS:
        for m in re.finditer(r"^\s*(?:#define\s+)?(V4L2_[A-Z0-9_]+)\b", (src / h).read_text(), re.M):
            name = m.group(1)
            if name.startswith(PREFIXES) and name not in seen:
                seen.append(name)
    return seen


def return_codes(text):
    """Error codes listed (one per line, unindented) in a page's 'Return Value' section."""
    part = text.split("Return Value", 1)
    if len(part) < 2:
        return []
    return re.findall(r"^(E[A-Z0-9]+)\s*$", part[1], re.M)


def constant_lines(src):
    """The constants' lines of the table, from the uapi headers under src
    (an extracted linux-source tree, or a linux-headers-X-common folder)."""
    text0 = (src / HEADERS[0]).read_text()
    return [f"{next(p for p in PREFIXES if n.startswith(p)).rstrip('_')}\t{n}\t{HEADERS[0] if n in text0 else HEADERS[1]}"
            for n in header_constants(src)]


def errno_lines(src):
    """The error codes' lines, from the documentation's Return Value sections."""
    return [f"errno\t{code}\t{page}" for page in PAGES for code in return_codes((src / DOCS / page).read_text())]


def main(argv):
    if len(argv) != 2 or not (Path(argv[1]) / HEADERS[0]).is_file():
        print(f"usage: {argv[0]} KSRC (an extracted linux-source tree with {HEADERS[0]})", file=sys.stderr)
        return 2
    src = Path(argv[1])
    for line in constant_lines(src) + errno_lines(src):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
