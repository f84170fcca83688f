import json

from models.observation import Counts
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
    assert counts.extra == 1 and counts.missed["casino1"] == 0 and counts.present["casino1"] == 4
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
    assert model.miss_casino[1] == (1 + 1) / (5 + 2)  # one of five missed in a crowd of five (add-one)
