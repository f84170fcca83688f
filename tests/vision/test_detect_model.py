"""The committed dice reader on committed fixtures.

These guard the shipped weights at their measured level (a regression in the model, its export or the
inference code fails them); the issue's accuracy targets are measured on whole held-out sets by
``python -m models.dice_detector.evaluate`` and reported, with where they are not met, in
``models/dice_detector/MODEL_CARD.md``. Measured with the shipped weights: the real fixtures 28 of 38
dice read right, 34 found, 2 boxes extra (the detector before the crowded-casino fine-tune of December
2026: 32, 35 and none; on the whole val split 81.7 % read right against 82.2 %, see the model card);
the three rendered tables 49 of 81 (far views where a die is 14-20 px, see the model card), colour
100 %, Biggy 98 % of the dice found (52 of 53: from the die reader's size of each die against its
neighbours' and a normal die's size fitted over the picture; the camera pipeline judges the same sizes
in table millimetres), sizes 3 % off the truth (median).
"""

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from models.dice_detector.evaluate import Tally, match, score_image, yolo_labels
from vision.colours import PALETTE_NAMES
from vision.detect import MODELS, DiceDetector, table_reader
from vision.detections import Detections
from vision.synth.scene import render_scene

FIXTURES = Path(__file__).with_name("fixtures")
WEIGHTS = [MODELS / "dice_detector" / "detector.onnx", MODELS / "die_reader" / "reader.onnx"]
pytestmark = [
    pytest.mark.model,
    pytest.mark.skipif(not all(p.exists() for p in WEIGHTS), reason="trained weights not committed yet"),
]


@pytest.fixture(scope="module")
def detector():
    return DiceDetector()


def test_reads_real_fixture_photos(detector):
    tally = Tally()
    for path in sorted((FIXTURES / "real").glob("*.jpg")):
        image = cv2.imread(str(path))
        boxes, pips = yolo_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
        score_image(tally, boxes, pips, detector(image))
    summary = tally.summary()
    assert tally.read_right >= 27 and tally.found >= 33, summary
    assert tally.extra <= 2, summary


def test_reads_rendered_tables_with_colour_and_biggy(detector):
    tally = Tally()
    size_errors = []
    for seed in (9_100_000, 9_100_001, 9_100_002):
        scene = render_scene(seed, size=(1280, 720))
        boxes = np.array([d.box for d in scene.dice], dtype=np.float32).reshape(-1, 4)
        detections = detector(scene.image)
        score_image(tally, boxes, [d.pips for d in scene.dice], detections,
                    [d.colour if d.palette else None for d in scene.dice], [d.biggy for d in scene.dice])  # fmt: skip
        size_errors += [detections.data["size"][j] / scene.dice[i].size - 1 for i, j in match(boxes, detections)]
    summary = tally.summary()
    assert tally.dice == 81 and tally.read_right >= 45 and tally.extra <= 10, summary  # 49 measured, 6 extra
    assert summary["colour_right_pct"] >= 97 and summary["biggy_right_pct"] >= 94, summary
    assert np.median(np.abs(size_errors)) < 0.06, np.median(np.abs(size_errors))


class _UnsureOfColourAtFirst:
    """A stand-in die reader: sure of the pips; unsure of the colour in the first turn, then sure it is blue."""

    def __init__(self):
        self.runs = []

    def get_inputs(self):
        return [SimpleNamespace(name="crops")]

    def run(self, _outputs, feeds):
        n = len(feeds["crops"])
        self.runs.append(n)
        pips = np.tile(np.array([0, 0, 9, 0, 0, 0], np.float32), (n, 1))  # a 3, sure
        colour = np.zeros((n, 12), np.float32)
        colour[:, 0], colour[:, 1] = (1.0, 0.5) if len(self.runs) == 1 else (0.0, 9.0)  # red or blue
        return [pips, colour, np.full((n, 1), 0.8, np.float32)]


@pytest.mark.parametrize(("colour_sure", "expected", "runs"), [(0.8, "blue", [2, 6]), (0.0, "red", [2])])
def test_a_die_unsure_of_its_colour_is_read_again_turned(colour_sure, expected, runs):
    reader = _UnsureOfColourAtFirst()
    unsure = DiceDetector(colour_sure=colour_sure)
    unsure.reader = reader
    image = np.full((100, 200, 3), 128, np.uint8)
    boxes = Detections(np.array([[10, 10, 40, 40], [110, 10, 140, 40]], float), np.ones(2))
    read = unsure.read(image, boxes)
    assert read.data["colour"].tolist() == [expected] * 2 and read.data["pips"].tolist() == [3, 3]
    assert reader.runs == runs  # both dice once, then (if unsure) both in the three other turns


def test_a_photo_s_second_look_finds_far_dice_the_first_missed_and_keeps_every_die_it_found(detector):
    """Far views (dice of 14-20 px in a 1280x720 picture, 5-7 px at the first look's 416): the second look, at
    512, finds dice the first scored under the threshold; what the first look found stays as it was."""
    photo = DiceDetector(second_look=512)
    for seed, more in ((9_100_000, 5), (9_100_001, 4)):
        scene = render_scene(seed, size=(1280, 720))
        truth = np.array([d.box for d in scene.dice], dtype=np.float32).reshape(-1, 4)
        once, twice = detector(scene.image), photo(scene.image)
        assert len(match(truth, twice)) >= len(match(truth, once)) + more
        assert all((twice.xyxy == box).all(axis=1).any() for box in once.xyxy)


def test_a_photo_s_looks_find_far_dice_one_look_misses_and_read_real_photos_at_least_as_well(detector):
    """Still photos (``DiceDetector.for_photos``, as ``detect`` reads them): the six looks voting find more of
    the far views' dice (14-20 px in 1280x720) than one look, boxing nothing that is no die there; on the real
    fixtures they read at least as many dice right as one look (31 of 38 against 30, measured)."""
    photo = DiceDetector.for_photos()
    for seed, more in ((9_100_000, 6), (9_100_002, 4)):  # measured 14 against 7, 27 against 22
        scene = render_scene(seed, size=(1280, 720))
        truth = np.array([d.box for d in scene.dice], dtype=np.float32).reshape(-1, 4)
        found = photo(scene.image)
        assert len(match(truth, found)) >= len(match(truth, detector(scene.image))) + more
        assert len(found) <= len(match(truth, found)) + 3  # 0 and 3 boxes on no die measured
    tallies = [Tally(), Tally()]
    for path in sorted((FIXTURES / "real").glob("*.jpg")):
        image = cv2.imread(str(path))
        boxes, pips = yolo_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
        for tally, reader in zip(tallies, (detector, photo), strict=True):
            score_image(tally, boxes, pips, reader(image))
    assert tallies[1].read_right >= max(tallies[0].read_right, 30) and tallies[1].extra <= 2, tallies


class _SurerInOtherViews(_UnsureOfColourAtFirst):
    """A stand-in die reader: a 3 rather than a 4 (0.6 against 0.4) in every turn of the crops as found, a sure 4
    in every other view; the colour and size alike in all."""

    def run(self, _outputs, feeds):
        n = len(feeds["crops"])
        self.runs.append(n)
        first = sum(self.runs) <= 8  # the first turn of two dice, then their three other turns
        pips = np.log(np.tile(np.array([1e-6, 1e-6, 0.6, 0.4, 1e-6, 1e-6] if first else [1e-6] * 3 + [1, 1e-6, 1e-6],
                                      np.float32), (n, 1)))  # fmt: skip
        colour = np.zeros((n, 12), np.float32)
        colour[:, 1] = 9.0  # blue
        return [pips, colour, np.full((n, 1), 0.8, np.float32)]


@pytest.mark.parametrize(("views", "pips", "runs"), [(True, 4, [2, 6, 8, 8, 8]), (False, 3, [2, 6])])
def test_a_die_unsure_of_its_pips_is_read_also_mirrored_and_from_larger_and_smaller_boxes(views, pips, runs):
    """``pip_views`` (still photos): the two unsure dice are read mirrored and from boxes 0.9 and 1.1 times as large,
    each in four turns, averaged with the four turns as found: (0.4 + 3 x 1) / 4 for the 4 wins over 0.6 / 4."""
    reader = _SurerInOtherViews()
    photo = DiceDetector(pip_views=views)
    photo.reader = reader
    image = np.full((100, 200, 3), 128, np.uint8)
    read = photo.read(image, Detections(np.array([[10, 10, 40, 40], [110, 10, 140, 40]], float), np.ones(2)))
    assert read.data["pips"].tolist() == [pips] * 2 and reader.runs == runs
    assert read.data["colour"].tolist() == ["blue"] * 2 and np.allclose(read.data["size"], 0.8 * 30)


def test_detect_cli_contract(tmp_path):
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8 not really a jpeg")
    real = sorted((FIXTURES / "real").glob("*.jpg"))[:2]
    args = [str(real[0]), str(corrupt), str(tmp_path / "missing.png"), str(real[1])]
    out = subprocess.run([sys.executable, "-m", "dice_referee", "detect", "--json", *args,
                          "--save-annotated", str(tmp_path / "annotated")], capture_output=True, text=True)  # fmt: skip
    assert out.returncode == 1, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line["image"] for line in lines] == args
    assert "error" in lines[1] and "corrupt" in lines[1]["error"]
    assert "no such file" in lines[2]["error"]
    for line in (lines[0], lines[3]):
        assert {"width", "height", "ms", "dice"} <= set(line)
        for die in line["dice"]:
            assert set(die) == {"box", "pips", "colour", "biggy", "confidence", "colour_scores"}
            assert 1 <= die["pips"] <= 6 and len(die["box"]) == 4
            assert list(die["colour_scores"]) == list(PALETTE_NAMES)  # every colour without --colours
            assert max(die["colour_scores"], key=die["colour_scores"].get) == die["colour"]
    assert len(list((tmp_path / "annotated").glob("*.jpg"))) == 2


def test_detect_cli_reads_each_die_as_one_of_the_colours_in_play(tmp_path):
    """``--colours``: every die's colour is one of the names given, its scores are over them and sum to 1.

    A still frame of a rendered game (red, blue, black and white players), read among their colours and
    violet, has each die found read in its true colour (the colour head restricted to the game's colours,
    as the referee reads them).
    """
    from vision.synth.game import RenderedGame

    game = RenderedGame(7, ("red", "blue", "black", "white"), rounds=1)
    still = game.spans[len(game.spans) * 2 // 3]
    index = still.first + still.hand
    cv2.imwrite(str(tmp_path / "table.png"), game.frame(index))
    truth = game.truth(index)
    names = ["red", "blue", "black", "white", "violet"]
    out = subprocess.run([sys.executable, "-m", "dice_referee", "detect", "--json", "--colours", ",".join(names),
                          str(tmp_path / "table.png")], capture_output=True, text=True)  # fmt: skip
    assert out.returncode == 0, out.stderr
    dice = json.loads(out.stdout)["dice"]
    for die in dice:
        assert list(die["colour_scores"]) == names and die["colour"] in names
        assert abs(sum(die["colour_scores"].values()) - 1) < 1e-3
    pairs = match(truth.xyxy, _as_detections(dice))
    assert len(truth) >= 8 and len(pairs) >= len(truth) * 0.9
    assert [dice[j]["colour"] for _, j in pairs] == [truth.data["colour"][i] for i, _ in pairs]

    bad = subprocess.run([sys.executable, "-m", "dice_referee", "detect", "--colours", "red,mauve",
                          str(tmp_path / "table.png")], capture_output=True, text=True)  # fmt: skip
    assert bad.returncode == 2 and "mauve is not a dice colour" in bad.stderr and not bad.stdout


def _as_detections(dice: list[dict]) -> Detections:
    return Detections(np.array([d["box"] for d in dice], np.float32).reshape(-1, 4), np.ones(len(dice), np.float32))


def test_the_built_in_game_is_refereed_exactly_with_the_model():
    """End to end: the demo's built-in game (seed 2026, red, blue and green, 1280x720 at 10 fps, all four
    rounds), read by the committed model, settles every round exactly (the same dice on every casino,
    the same notes paid) and ends with the true result.

    Not asserted: that no alert is raised. In round 2 a 4 reads as a 5 in the tray for all its still
    frames, so the placement of the 5s is alerted as leaving one behind (and the next player's dice as
    out of turn) until the next moves show what was meant and the roll is read again; the settlement is
    exact all the same (`bench/bench_pipeline.py --seeds 2026` counts 6 alerts or held-back readings in
    the game's 3,692 frames).
    """

    from referee import RoundScored, new_game
    from referee.lasvegas.jsonio import payout_to_json, state_table_json
    from referee.lasvegas.simulate import seeded_deal
    from referee.lasvegas.state import outcome, preview
    from vision.pipeline import referee_pipeline
    from vision.synth.game import RenderedGame

    game = RenderedGame()  # what `make demo` and `dice-referee watch` show without a camera
    assert (game.seed, game.size, game.fps, len(game.players)) == (2026, (1280, 720), 10.0, 3)
    rules = game.ruleset
    state = new_game(rules, game.players)
    pipeline = referee_pipeline(table_reader(), state, seeded_deal(state, game.seed))
    observer = pipeline.observer
    settled = []
    for frame in game.frames():
        settled += [v.before for v in pipeline.process(frame).verdicts if isinstance(v.event, RoundScored)]
    truth = [game.moments[i - 1].state for i, m in enumerate(game.moments) if m.what == "settled"]
    assert len(truth) == rules.rounds == 4 and len(settled) == 4

    def settlement(state):
        return state_table_json(state)["casinos"], payout_to_json(preview(state))

    for number, (seen, true) in enumerate(zip(settled, truth, strict=True), start=1):
        assert settlement(seen) == settlement(true), f"round {number}"
    assert outcome(observer.state) == outcome(game.moments[-1].state) is not None


def test_violet_dice_are_read_violet_and_show_me_your_dice_keeps_them_so():
    """The reader v7 read the renderer's violet dice as black, blue or red (it had never seen one); restricted to
    a table of white, yellow and violet it took them for white, and every round of such a Royale game was lost.
    v8 learned every palette colour (``make_dataset --palette-share``, game and Royale frames): the violet dice
    in the arena are read violet at once, and the setup's "show me your dice" (one frame of each player's dice,
    learned under this camera) keeps every colour read right."""
    from referee import new_game
    from vision.capture import Frame
    from vision.pipeline import TablePipeline, camera_referee
    from vision.synth.game import RenderedGame

    game = RenderedGame(seed=341, players=("white", "yellow", "violet"), rules="las-vegas-royale", fps=5, rounds=1)
    reader = table_reader()

    def first_roll(pipeline, player):
        span = next(s for s in game.spans if s.moment.what == "rolled" and s.moment.event.player.value == player)
        index = span.first + span.hand + span.still - 1
        frame = Frame(index, index / game.fps, game.frame(index))
        pipeline.see(frame)
        report = pipeline.see(frame)
        return report, [str(c) for c, zone in zip(report.owners, report.zones, strict=True) if zone == 0]

    pipeline = TablePipeline(reader, camera_referee(new_game(game.ruleset, game.players)))
    _, in_arena = first_roll(pipeline, "violet")
    assert in_arena == ["violet"] * 8  # nothing learned yet: the reader's own colour
    for player in ("white", "yellow", "violet"):  # each player shows his dice, as the Calibration page asks
        pipeline.learn_colour(player, first_roll(pipeline, player)[0])
    assert first_roll(pipeline, "violet")[1] == ["violet"] * 8
    assert set(first_roll(pipeline, "white")[1]) == {"white"}


def _models_copy(tmp_path: Path) -> Path:
    """A models folder holding links to the shipped reader's configs and weights (a user's own models)."""
    for folder in ("dice_detector", "die_reader"):
        (tmp_path / folder).mkdir()
        for name in ("config.json", "detector.onnx" if folder == "dice_detector" else "reader.onnx"):
            (tmp_path / folder / name).symlink_to(MODELS / folder / name)
    return tmp_path


def test_the_referee_weighs_a_reader_with_the_observation_model_measured_beside_it(tmp_path, recwarn):
    from referee import find_ruleset, new_game
    from referee.interpret.model import ObservationModel
    from vision.detect import ModelError
    from vision.pipeline import referee_pipeline

    shipped = table_reader()
    assert shipped.observation == ObservationModel.default() and not recwarn.list
    models = _models_copy(tmp_path)
    with pytest.warns(UserWarning, match=r"no observation model in .*--observation"):
        reader = table_reader(models)
    assert reader.observation == ObservationModel.generic()
    # One measured beside those weights is the one the interpreter weighs their readings with.
    measured = ObservationModel.default().to_json()
    (models / "observation.json").write_text(json.dumps({**measured, "extra": 0.05}))
    reader = table_reader(models)
    assert reader.observation.extra == 0.05 and not recwarn.list
    pipeline = referee_pipeline(reader, new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    assert pipeline.observer.model is reader.observation
    # Measured for other weights: used, with a warning; a broken file: a clear error.
    stale = {**measured, "source": {**measured["source"], "weights": {"dice_detector": "0" * 64, "die_reader": "1"}}}
    (models / "observation.json").write_text(json.dumps(stale))
    with pytest.warns(UserWarning, match="measured for other weights"):
        assert table_reader(models).observation.extra == measured["extra"]
    (models / "observation.json").write_text("{not json")
    with pytest.raises(ModelError, match=r"observation\.json is not an observation model"):
        table_reader(models)
