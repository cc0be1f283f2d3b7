"""lib/ in rooms (issue 20): dependencies go one way, run -> image -> check ->
ctrl -> dev, and every room is described where a newcomer looks. Host only."""
import re

import vboard

LIB = vboard.TOP / "lib"
# A room may include its own headers and those of the rooms below it.
ORDER = ["dev", "ctrl", "check", "image", "run"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def rooms():
    return sorted(p.name for p in LIB.iterdir() if p.is_dir())


def test_every_room_has_a_place_in_the_order():
    assert rooms() == sorted(ORDER)


def test_no_file_lies_outside_a_room():
    loose = [p.name for p in LIB.iterdir() if p.is_file() and p.suffix in (".c", ".h")]
    assert loose == []


def test_includes_go_down_only():
    wrong = []
    for room in rooms():
        for f in sorted((LIB / room).glob("*.[ch]")):
            for inc in INCLUDE.findall(f.read_text()):
                if "/" not in inc:
                    wrong.append(f"{f.relative_to(vboard.TOP)}: \"{inc}\" names no room")
                    continue
                other = inc.split("/")[0]
                if other != room and (other not in ORDER or ORDER.index(other) > ORDER.index(room)):
                    wrong.append(f"{f.relative_to(vboard.TOP)}: {room}/ includes {inc} (above it)")
    assert wrong == []


def test_every_room_is_described():
    table = (LIB / "README.md").read_text()
    for room in rooms():
        assert f"`{room}/`" in table, f"lib/README.md does not describe lib/{room}/"
        assert (LIB / room / "README.md").is_file(), f"lib/{room}/ has no README"


# -- the layout table of the developers' guide (docs/developing.md) ----------

DEVELOPING = vboard.TOP / "docs" / "developing.md"
# Folders that a build or a run makes, not part of the tree's layout.
MADE = {"build"}


def layout_rows():
    """{`folder/`: description} of the guide's Layout table."""
    text = DEVELOPING.read_text().split("## Layout", 1)[1]
    return dict(re.findall(r"^\| `([^`]+/)` \| (.*) \|$", text, re.M))


def test_the_layout_table_matches_the_tree():
    rows = layout_rows()
    missing = [f for f in rows if not (vboard.TOP / f).is_dir()]
    assert missing == [], f"docs/developing.md describes folders that do not exist: {missing}"
    top = sorted(p.name + "/" for p in vboard.TOP.iterdir()
                 if p.is_dir() and not p.name.startswith(".") and p.name not in MADE
                 and not p.name.startswith("build-"))  # build-arm64/ etc.: made by the build, git-ignored
    undescribed = [f for f in top if not any(r.startswith(f) for r in rows)]
    assert undescribed == [], f"docs/developing.md does not describe {undescribed}"


def test_the_layout_table_names_every_room():
    lib_row = layout_rows()["lib/"]
    named = set(re.findall(r"`lib/(\w+)/`", lib_row))
    assert named == set(rooms()), f"docs/developing.md's lib/ row names {sorted(named)}, the tree has {rooms()}"
