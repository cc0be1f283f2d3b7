"""man v4l2-conform (docs/v4l2-conform.1) is kept in step with --help: every
option of one is in the other; make install puts the binary and the page
under PREFIX in DESTDIR, and man renders the page without a warning. Host only."""
import os
import re
import subprocess

import vboard

PAGE = vboard.TOP / "docs" / "v4l2-conform.1"
CONFORM = vboard.BUILD / "bin" / "v4l2-conform"
# "-d, --device PATH" and "--libv4l2" at the start of a --help line.
HELP_OPT = re.compile(r"^\s+(?:(-\w), )?(--[\w-]+)", re.M)


def help_options():
    out = subprocess.run([str(CONFORM), "--help"], capture_output=True, text=True).stdout
    return {o for pair in HELP_OPT.findall(out) for o in pair if o}


def page_options():
    """The options the page's OPTIONS section describes (its .TP tags)."""
    text = PAGE.read_text()
    section = text.split(".SH OPTIONS", 1)[1].split("\n.SH ", 1)[0]
    tags = re.findall(r"^\.TP\n(.*)$", section, re.M)
    opts = set()
    for tag in tags:
        tag = tag.replace("\\-", "-")
        opts |= set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", tag))
    return opts


def test_help_and_page_name_the_same_options(built):
    assert help_options() and page_options()
    assert sorted(help_options() - page_options()) == [], "options of --help missing from the man page"
    assert sorted(page_options() - help_options()) == [], "options of the man page that --help does not know"


def test_page_documents_every_exit_status():
    section = PAGE.read_text().split(".SH EXIT STATUS", 1)[1].split("\n.SH ", 1)[0]
    assert re.findall(r"^\.B (\d+)$", section, re.M) == ["0", "1", "2", "125"]


def test_make_install_installs_binary_and_page(built, tmp_path):
    dest = tmp_path / "root"
    subprocess.run(["make", "-C", str(vboard.TOP), "-s", "install", f"DESTDIR={dest}", "PREFIX=/usr"],
                   check=True, capture_output=True)
    binary, page = dest / "usr/bin/v4l2-conform", dest / "usr/share/man/man1/v4l2-conform.1"
    assert os.access(binary, os.X_OK)
    assert page.read_text() == PAGE.read_text()
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip()


def test_man_renders_the_page_without_warnings():
    env = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8", MANPAGER="cat", PAGER="cat")
    r = subprocess.run(["man", "--warnings", "-l", str(PAGE)], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stderr == "", r.stderr
    assert "v4l2-conform" in r.stdout and "EXIT STATUS" in r.stdout
