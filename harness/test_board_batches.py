"""board_batches.split_batches: the variants of the fixture's and the
emulated camera's batched boots shared out over boots that run side by
side. Host only."""
import board_batches as bb

BASE = bb.BASELINE


def test_every_name_once_baseline_first_wedging_last():
    names = [BASE, "a", "b", "c", "d", "e", "w1", "w2"]
    batches = bb.split_batches(names, 2, last=("w1", "w2"))
    assert all(b[0] == BASE for b in batches)
    assert [b[-1] for b in batches] == ["w1", "w2"]
    rest = [x for b in batches for x in b[1:]]
    assert sorted(rest) == sorted(names[1:])


def test_costliest_first_to_the_cheapest_boot_in_their_own_order():
    names = [BASE, "a", "b", "c", "d", "e", "f"]
    costs = {BASE: 10, "a": 1, "b": 50, "c": 1, "d": 40, "e": 1, "f": 9}
    batches = bb.split_batches(names, 2, costs=costs)
    total = [sum(costs[x] + bb.PER_VARIANT_S for x in b) for b in batches]
    assert abs(total[0] - total[1]) <= 10, batches      # shared out as listed: 65 against 47
    for b in batches:                                   # the catalogue's order inside a boot
        assert b[1:] == [x for x in names if x in b[1:]]


def test_a_name_without_a_measurement_costs_the_median():
    batches = bb.split_batches([BASE, "new", "x", "y", "z"], 2, costs={"x": 100, "y": 1, "z": 3})
    assert sorted(map(len, batches)) == [2, 4], batches    # x alone; y, z and new (3 s) together


def test_without_costs_round_robin():
    assert bb.split_batches([BASE, "a", "b", "c", "d"], 2) == [[BASE, "a", "c"], [BASE, "b", "d"]]


def test_the_table_reads():
    for kind in ("fixture", "uvc"):
        costs = bb.read_costs(kind)
        assert costs and all(v >= 0 for v in costs.values()) and BASE in costs, kind


def test_share_boots_gives_the_longer_group_the_spare_boots():
    costs = {BASE: 10, "w1": 5, "w2": 5, "a": 100, "b": 100, "c": 100, "d": 100, "e": 5}
    old = ([BASE, "w1", "w2", "e"], ("w1", "w2"))          # two runs that wedge their boot: two boots
    new = ([BASE, "a", "b", "c", "d"], ("w1", "w2"))
    assert bb.share_boots([old, new], 6, costs) == [2, 4]
    assert bb.share_boots([old, new], 4, costs) == [2, 2]


def test_share_boots_needs_a_boot_per_wedging_run():
    import pytest
    with pytest.raises(AssertionError):
        bb.share_boots([([BASE, "w1", "w2"], ("w1", "w2")), ([BASE, "a"], ())], 2)
