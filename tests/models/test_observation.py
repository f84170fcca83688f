import itertools
import json

from models.observation import Counts, _non_decreasing_from
from referee import Colour
from referee.interpret import ObservationModel
from referee.readings import DieReading

RED, BLUE = Colour.RED, Colour.BLUE


def die(colour, pips, big=False):
    return DieReading(colour, big, pips)


def test_counts_match_exact_dice_first_then_by_colour_then_by_face():
    counts = Counts()
    truth = [die(RED, 3), die(RED, 3), die(BLUE, 3), die(BLUE, 5)]
    read = [die(RED, 3), die(BLUE, 3), die(RED, 3), die(BLUE, 6), die(RED, 2)]  # a 5 read 6, one extra
    counts.add(3, truth, read)
    assert counts.pips[2, 2] == 3 and counts.pips[4, 5] == 1
    assert counts.colour["red", "red"] == 2 and counts.colour["blue", "blue"] == 2
    assert counts.extra == 1 and counts.missed["casino2"] == 0 and counts.present["casino2"] == 4
    counts.add(0, [die(RED, 4)], [])
    assert counts.missed["tray"] == 1


def test_the_model_from_counts_round_trips_through_its_source():
    counts = Counts()
    counts.add(0, [die(RED, 4), die(BLUE, 5, big=True)], [die(RED, 4), die(BLUE, 4, big=True)])
    counts.add(1, [die(RED, 1)] * 5, [die(RED, 1)] * 4)
    source = {
        "pips_counts": counts.pips.tolist(),
        "colour_counts": {f"{t}->{r}": n for (t, r), n in counts.colour.items()},
        "biggy_counts": {f"{'T' if t else 'F'}{'T' if r else 'F'}": n for (t, r), n in counts.big.items()},
        "missed": dict(counts.missed),
        "present": dict(counts.present),
        "extra": counts.extra,
        "dice_read": counts.read,
    }
    model = counts.model(source)
    again = Counts.from_source(json.loads(json.dumps(source))).model(source)
    assert again.to_json() == model.to_json()
    assert ObservationModel.from_json(model.to_json()).to_json() == model.to_json()
    # a face never seen misread leans towards its neighbours; the 5 read as 4 was seen
    assert model.misread_from(4)[0] == 5 and set(model.misread_from(2)) == {1, 3}
    assert model.miss_casino[2] == (1 + 1) / (5 + 2)  # one of five missed in a crowd of five (add-one)
    assert model.miss_cost(5, "casino") == model.miss_cost(4, "casino") != model.miss_cost(3, "casino")


def test_measurements_run_apart_add_up():
    one, other, both = Counts(), Counts(), Counts()
    for counts, zone in ((one, 0), (other, 3)):
        counts.add(zone, [die(RED, 4), die(BLUE, 5)], [die(RED, 4)])
        both.add(zone, [die(RED, 4), die(BLUE, 5)], [die(RED, 4)])
    one.add_counts(other)
    assert one.missed == both.missed and one.present == both.present and (one.pips == both.pips).all()
    assert one.colour == both.colour and one.read == both.read == 2


def test_miss_rates_grow_with_the_pile_from_a_few_dice_on():
    # bins: lone dice at the casino's edge (kept as measured), then a dip pooled, an empty bin carried
    rates = _non_decreasing_from(1, [5, 1, 8, 2, 30, 0], [50, 100, 40, 40, 60, 0])
    assert rates[0] == (5 + 1) / (50 + 2) and rates[1] < rates[2]
    assert rates[2] == rates[3] == (8 + 2 + 1) / (40 + 40 + 2)
    assert rates[5] == rates[4] == (30 + 1) / (60 + 2)
    assert all(a <= b for a, b in itertools.pairwise(rates[1:]))
