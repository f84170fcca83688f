import itertools
import json
import math

import pytest

from models.observation import COLOUR_PRIOR, EXTRA_FLOOR, Counts, _non_decreasing_from, _source
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


def test_a_die_that_stays_hidden_is_counted_as_staying_hidden():
    counts = Counts()
    blue = [die(BLUE, 2)] * 4
    # the fourth blue 2 was missed at the reading before; three are read now: it is the one still missed
    missed = counts.add(2, blue, blue[:3], was_missed=[False, False, False, True])
    assert missed == [False, False, False, True]
    assert counts.stay == {"read->read": 3, "missed->missed": 1}
    # a fifth arrives and four are read: the new one is read, the hidden one stays hidden
    counts.add(2, [*blue, die(BLUE, 2)], blue, was_missed=[False, False, False, True, None])
    assert counts.stay == {"read->read": 6, "missed->missed": 2}
    hidden, arises = counts.stay_rates()
    assert hidden == (2 + 1) / (2 + 2) and arises == (0 + 1) / (6 + 2)


def test_the_model_from_counts_round_trips_through_its_source():
    counts = Counts()
    counts.add(0, [die(RED, 4), die(BLUE, 5, big=True)], [die(RED, 4), die(BLUE, 4, big=True)])
    counts.add(1, [die(RED, 1)] * 5, [die(RED, 1)] * 4)
    source = _source(counts, [901], 1, 2)
    model = counts.model(source)
    again = Counts.from_source(json.loads(json.dumps(source))).model(source)
    assert again.to_json() == model.to_json()
    assert ObservationModel.from_json(model.to_json()).to_json() == model.to_json()
    # a face never seen misread leans towards its neighbours; the 5 read as 4 was seen
    assert model.misread_from(4)[0] == 5 and set(model.misread_from(2)) == {1, 3}
    # above the floor: seen (a 5 read 4), or a neighbour (a 3 read 4); a 1 never seen read as 4
    assert model.confusable(5, 4) and model.confusable(3, 4) and not model.confusable(1, 4)
    assert model.miss_casino[2] == (1 + 1) / (5 + 2)  # one of five missed in a crowd of five (add-one)
    assert model.miss_cost(5, "casino") == model.miss_cost(4, "casino") != model.miss_cost(3, "casino")


def test_dice_read_that_are_not_there_are_priced_no_rarer_than_the_floor_and_the_count_is_kept():
    """Rendered games show fewer stray boxes than a camera: a measurement under the floor ships the floor."""
    counts = Counts()
    for _ in range(300):  # 1,200 dice read, none that is not there: add-one gives 1 in 1,202
        counts.add(2, [die(RED, 4), die(BLUE, 5), die(RED, 1), die(BLUE, 2)],
                   [die(RED, 4), die(BLUE, 5), die(RED, 1), die(BLUE, 2)])  # fmt: skip
    source = _source(counts, [901], 1, 300)
    assert counts.model(source).extra == EXTRA_FLOOR and source["extra"] == 0 and source["extra_floor"] == EXTRA_FLOOR
    for _ in range(10):  # 20 read that are not there among 1,220: measured above the floor, kept
        counts.add(2, [die(RED, 4)], [die(RED, 4), die(RED, 4), die(BLUE, 6)])
    assert counts.model(_source(counts, [901], 1, 310)).extra == (20 + 1) / (1230 + 2)


def test_measurements_run_apart_add_up():
    one, other, both = Counts(), Counts(), Counts()
    for counts, zone in ((one, 0), (other, 3)):
        counts.add(zone, [die(RED, 4), die(BLUE, 5)], [die(RED, 4)])
        both.add(zone, [die(RED, 4), die(BLUE, 5)], [die(RED, 4)])
    one.add_counts(other)
    assert one.missed == both.missed and one.present == both.present and (one.pips == both.pips).all()
    assert one.colour == both.colour and one.read == both.read == 2
    assert one.missed_look == both.missed_look == {"blue 5|tray": 1, "blue 5|casino1": 1}


def test_a_colour_missed_more_often_than_its_crowd_costs_less_to_miss():
    # white dice on a light felt: of 400 in the tray, 100 not read; red dice: 10 of 4,000
    counts = Counts()
    white, red = die(Colour.WHITE, 1), die(RED, 5)
    for k in range(400):
        counts.add(0, [white], [] if k < 100 else [white])
    for k in range(4000):
        counts.add(0, [red], [] if k < 10 else [red])
    model = counts.model(_source(counts, [901], 1, 4400))
    rate, white_factor = model.miss_tray, model.miss_colour["white"]
    # fitted together: the tray's rate from the dice weighed by their colour's factor, and back
    assert rate == pytest.approx((110 + 1) / (4000 + 400 * white_factor + 2), rel=1e-3)
    assert white_factor == pytest.approx((100 + COLOUR_PRIOR) / (400 * rate + COLOUR_PRIOR), rel=1e-3)
    assert white_factor > 2
    assert model.miss_colour["red"] == 1  # read better than average: not dearer to miss (too few hidden dice)
    assert model.miss_cost(1, "tray", "white") < model.miss_cost(1, "tray") == model.miss_cost(1, "tray", "red")
    assert model.miss_cost(1, "tray", "green") == model.miss_cost(1, "tray")  # never measured: the average
    assert ObservationModel.from_json(model.to_json()).miss_colour == model.miss_colour
    assert counts.missed_look == {"white 1|tray": 100, "red 5|tray": 10}  # by face and crowd in the source


def test_miss_rates_grow_with_the_pile_from_a_few_dice_on():
    # bins: lone dice at the casino's edge (kept as measured), then a dip pooled, an empty bin carried
    rates = _non_decreasing_from(1, [5, 1, 8, 2, 30, 0], [50, 100, 40, 40, 60, 0])
    assert rates[0] == (5 + 1) / (50 + 2) and rates[1] < rates[2]
    assert rates[2] == rates[3] == (8 + 2 + 1) / (40 + 40 + 2)
    assert rates[5] == rates[4] == (30 + 1) / (60 + 2)
    assert all(a <= b for a, b in itertools.pairwise(rates[1:]))


def test_a_miss_is_counted_once_when_it_begins_not_at_every_reading_it_goes_on():
    """The interpreter charges a hidden die once, when its miss arises (the ``stay`` rate while it goes on):
    the miss rates are of misses beginning, among the dice not missed at the reading before."""
    counts = Counts()
    three = [die(RED, 2), die(RED, 4), die(RED, 6)]
    counts.add(3, three, three, was_missed=[None] * 3)  # they arrive, all read
    counts.add(3, three, three[:2], was_missed=[False] * 3)  # the 6 is hidden: a miss begins
    for _ in range(8):  # and stays hidden, unmoved, for eight readings more
        counts.add(3, three, three[:2], was_missed=[False, False, True])
    assert counts.missed["casino1"] == 9 and counts.present["casino1"] == 30  # per reading, as ever
    assert counts.held_look["red 6|casino1"] == 8 and counts.held_missed_look["red 6|casino1"] == 8
    model = counts.model(_source(counts, [901], 1, 10))
    assert model.miss_casino[1] == pytest.approx((1 + 1) / (22 + 2))  # one miss begun among 22 dice at risk
    again = Counts.from_source(json.loads(json.dumps(_source(counts, [901], 1, 10))))
    assert again.model(_source(again, [901], 1, 10)).miss_casino == model.miss_casino
    assert model.stay_cost() == pytest.approx(-math.log((8 + 1) / (8 + 0 + 2)))  # going on: the stay rate


def test_phantoms_are_followed_by_their_track_from_one_reading_to_the_next():
    """A die read on a casino that is not there: read again as it was, in another face, colour or size, or gone
    (what the interpreter's prices for a phantom read on are checked on)."""
    counts = Counts()
    truth = [die(RED, 5), die(RED, 5)]
    readings = [[DieReading(BLUE, False, 5, track=9)], [DieReading(BLUE, False, 5, track=9)],
                [DieReading(Colour.GREEN, False, 5, track=9)], [DieReading(Colour.GREEN, False, 1, track=9)],
                [DieReading(Colour.GREEN, True, 1, track=9)], []]  # fmt: skip
    then: dict = {}
    for extra in readings:
        unmatched: list = []
        counts.add(5, truth, [*truth, *extra], unmatched=unmatched)
        assert unmatched == extra
        now = {d.track: (5, d) for d in unmatched}
        counts.follow(then, now)
        then = now
    assert counts.phantom == {"same": 1, "colour": 1, "face": 1, "size": 1, "gone": 1}
    again = Counts.from_source(_source(counts, [901], 1, len(readings)))
    assert again.phantom == counts.phantom


def test_the_shipped_model_was_measured_for_the_shipped_weights():
    """A retrained detector or die reader needs its own model (``python -m models.observation``)."""
    from models.observation import weights_digest

    shipped = ObservationModel.default()
    assert shipped.source["measured"] and shipped.source["weights"] == weights_digest()


def test_counts_measured_for_other_weights_are_not_summed(tmp_path):
    counts = Counts()
    counts.add(1, [die(RED, 1)], [die(RED, 1)])
    paths = []
    for k, digest in enumerate(("aaa", "bbb")):
        model = counts.model(_source(counts, [901 + k], 1, 1, {"dice_detector": digest, "die_reader": "r"}))
        paths.append(tmp_path / f"{k}.json")
        paths[-1].write_text(json.dumps(model.to_json()))
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "models.observation", "--counts", *map(str, paths), "--out",
                          str(tmp_path / "sum.json")], capture_output=True, text=True)  # fmt: skip
    assert run.returncode == 2 and "different weights" in run.stderr
    assert not (tmp_path / "sum.json").exists()


def test_royale_tables_measured_apart_add_a_grey_row_to_the_las_vegas_model(tmp_path, monkeypatch):
    """The Las Vegas tables never show Royale's grey dice: summed with a Royale measurement, grey gets its row."""
    from models import observation

    GREY, BLACK = Colour("grey"), Colour("black")
    las_vegas, royale = Counts(), Counts()
    las_vegas.add(2, [die(BLACK, 4)] * 3, [die(BLACK, 4)] * 3)
    royale.add(4, [die(GREY, 4)] * 3 + [die(BLACK, 4)], [die(GREY, 4), die(BLACK, 4), die(BLACK, 4), die(BLACK, 4)])
    paths = []
    for name, counts, tables in (("lv", las_vegas, None), ("royale", royale, list(observation.ROYALE_TABLES))):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(counts.model(_source(counts, [901], 1, 1, tables=tables)).to_json()))
        paths.append(path)
    assert "grey" not in json.loads(paths[0].read_text())["colour"]
    out = tmp_path / "both.json"
    monkeypatch.setattr("sys.argv", ["observation", "--counts", *map(str, paths), "--out", str(out)])
    observation.main()
    model = json.loads(out.read_text())
    assert model["source"]["tables"] == [*observation.TABLES, *observation.ROYALE_TABLES]
    assert "royale-main-4p" in model["source"]["how"]
    assert model["colour"]["grey"]["black"] == pytest.approx(2 / 4)  # two of three grey dice read black (add-one)
    assert model["colour"]["black"]["black"] == pytest.approx(4 / 5)


def test_measure_reader_sums_every_table_set_and_names_the_weights_it_measured(monkeypatch):
    """``evaluate --observation``: the Las Vegas tables and Royale's, summed, for the weights in the folder."""
    import models.observation as observation
    from vision.detect import weights_digest

    watched = []

    def fake_measure(seeds, rounds, tables, detector):
        watched.append((list(tables), list(seeds), detector.observation is not None))
        counts = Counts()
        counts.add(1, [die(RED, 3)] * len(tables), [die(RED, 3)] * len(tables))
        return counts, 10 * len(tables)

    monkeypatch.setattr(observation, "measure", fake_measure)
    model = observation.measure_reader(seeds={"las-vegas": (901, 902), "royale": (903,)})
    las_vegas, royale = list(observation.TABLES), list(observation.ROYALE_TABLES)
    assert watched == [(las_vegas, [901, 902], True), (royale, [903], True)]
    source = model.source
    assert source["tables"] == las_vegas + royale and source["weights"] == weights_digest()
    assert source["readings"] == 10 * (len(las_vegas) + len(royale))
    assert source["seeds"] == [1000 * k + s for k in range(len(las_vegas)) for s in (901, 902)] + [
        1000 * k + 903 for k in range(len(royale))
    ]
    assert source["dice_present"] == len(las_vegas) + len(royale)
    assert observation.SHIPPED_SEEDS == {"las-vegas": (901, 902), "royale": (901, 902, 903, 904)}
