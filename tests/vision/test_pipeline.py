"""The camera pipeline on the built-in rendered game: frames in, exactly the game's events out.

The dice are read by a perfect reader (the renderer's truth), so these tests check everything else:
mat calibration, motion, zones, owner colours, Biggys by table size, tracking and refereeing. The
trained model's own end-to-end check lives with the model tests.
"""

import numpy as np
import pytest

from referee import Colour, DiceRolled, Phase, new_game
from referee.lasvegas.camera import canonical_history
from referee.lasvegas.hooks import extra_dice
from referee.lasvegas.simulate import seeded_deal
from tests.vision.games import misreading_first_roll
from vision.capture import Frame
from vision.detections import Detections
from vision.mat import MAT
from vision.pipeline import TablePipeline, camera_referee, referee_pipeline, report_lines
from vision.synth.game import RenderedGame
from vision.zones import Calibration, homography_from_corners


def watch(game, calibration=None, reader=None, **options):
    """Watches a rendered game; ``reader(frame_index)`` gives the dice read (default: the game's truth);
    ``options``: the pipeline's (:class:`TablePipeline`)."""
    state = new_game(game.ruleset, game.players)
    truth = game.truth_reader()
    read = truth if reader is None else (lambda image: reader(game._last_index))
    pipeline = TablePipeline(read, camera_referee(state, seeded_deal(state, game.seed)), calibration=calibration,
                             **options)  # fmt: skip
    lines, last = [], []
    for frame in game.frames():
        lines += report_lines(pipeline.process(frame), last)
    return pipeline.observer, lines


def settled_truth(game):
    """The game's history up to its last settlement (the recording stops after clearing the table)."""
    final = [m for m in game.moments if m.what == "settled"][-1].state
    return canonical_history(final.history)


def test_a_round_of_las_vegas_royale_on_its_own_mat_is_refereed_exactly_with_its_passes():
    """Royale's ring of casinos around the arena, 7 dice and a Biggy each, a pass seen as the roll taken back."""
    game = RenderedGame(seed=13, players=("red", "blue", "black"), rules="las-vegas-royale", size=(640, 360), fps=5,
                        rounds=1)  # fmt: skip
    truth = settled_truth(game)
    assert any(type(event).__name__ == "Passed" for event in truth), "this seed's first round has a pass"
    observer, lines = watch(game)
    assert canonical_history(observer.state.history)[: len(truth)] == truth
    assert [line["event"] for line in lines if line["type"] == "event"].count("passed") >= 1


def referee_answering(game):
    """Watches one round of a rendered main game; the page's answers are the game's own (what players enter)."""
    truth = settled_truth(game)
    state = new_game(game.ruleset, game.players)
    pipeline = referee_pipeline(game.truth_reader(), state, seeded_deal(state, game.seed))
    interpreter, answered = pipeline.observer, []
    for frame in game.frames():
        pipeline.process(frame)
        while interpreter.game.waits_for(interpreter.state):  # what the table enters on the page
            done = len(interpreter.state.history)
            assert canonical_history(interpreter.state.history) == truth[:done]
            answered += interpreter.answer(truth[done])
    return truth, interpreter, answered


def test_a_round_of_royales_main_game_is_refereed_with_the_tiles_answered_on_the_page():
    """Tiles and the bank are dealt like the banknotes; each tile's roll or decision is asked and waited for."""
    game = RenderedGame(seed=6, players=("red", "blue", "green"), rules="las-vegas-royale+main", size=(640, 360),
                        fps=10, rounds=1)  # fmt: skip
    truth, interpreter, answered = referee_answering(game)
    kinds = {type(verdict.event).__name__ for verdict in answered}
    assert {"TileChoice", "BlackDiceRolled"} <= kinds
    assert canonical_history(interpreter.state.history)[: len(truth)] == truth


@pytest.mark.parametrize(("tiles", "seed", "players"), [
    ("B1,F2,C1", 0, ("red", "blue", "black")),  # Handicap's grey dice from the start; Prime Time's black dice
    ("F2,A1,C2", 3, ("red", "grey", "green")),  # a grey player beside the grey dice
    ("F1,D1,C2", 5, ("red", "blue", "black", "green")),  # Block It's grey dice, put where the player chose
])  # fmt: skip
def test_the_tiles_own_dice_on_the_casinos_are_seen_and_never_counted_for_a_player(tiles, seed, players):
    """Grey dice (Block It, Handicap) and Prime Time's black dice lie on casinos: drawn, expected, no player's.

    Traced with Block It: blue's placement on its casino was in doubt against a pass when the tile asked
    which grey dice to put where; no history could go past the question, and a rival took the placement
    for a pass. A history that comes to a page's question is now said, and the page asks.
    """
    game = RenderedGame(seed=seed, players=players, rules=f"las-vegas-royale+main+tiles={tiles}", size=(640, 360),
                        fps=10, rounds=1)  # fmt: skip
    last = next(m for m in game.moments if m.what == "settled").snapshot.frame_index - 2  # the moment before it
    before = game.moments[last].state
    extra = sum(count for _, _, count in extra_dice(before))
    assert extra > 0
    grey_black = [s for s, p in enumerate(players) if p in ("grey", "black")]
    mine = sum(c.dice[s] + c.biggies[s] for c in before.casinos for s in grey_black)
    lying = sum(d.colour.value in ("grey", "black") for d in game.moments[last].snapshot.all_dice())
    assert lying == mine + extra, "the tiles' own dice are drawn on the casinos"
    truth, interpreter, _ = referee_answering(game)
    assert canonical_history(interpreter.state.history)[: len(truth)] == truth


def test_dice_on_a_tiles_own_spaces_belong_to_the_tile_not_to_its_casino():
    """Knockout's bar, Double Down's side bet and Nice Dice's reward spaces lie on the tile, beside the ring."""
    game = RenderedGame(seed=3, players=("red", "blue", "green"), rules="las-vegas-royale+main+tiles=E2,G2,H1",
                        size=(640, 360), fps=10, rounds=1)  # fmt: skip
    last = next(m for m in game.moments if m.what == "settled").snapshot.frame_index - 2
    on_tiles = len(game._layouts[last]) - len(game.moments[last].snapshot.all_dice())
    assert on_tiles >= 5, "dice lie on the tiles at the settlement"
    truth, interpreter, _ = referee_answering(game)
    assert canonical_history(interpreter.state.history)[: len(truth)] == truth


def test_the_mat_calibrates_itself_and_one_round_is_refereed_exactly():
    game = RenderedGame(seed=7, players=("red", "blue"), size=(640, 360), fps=5, rounds=1)
    observer, lines = watch(game)
    assert [line for line in lines if line["type"] in ("alert", "uncertain")] == []
    assert canonical_history(observer.state.history)[: len(settled_truth(game))] == settled_truth(game)
    events = [line for line in lines if line["type"] == "event"]
    assert [e["event"] for e in events][:2] == ["dealt", "rolled"]
    placed = [e for e in events if e["event"] == "placed"]
    assert placed and all(e["count"] == e["dice"] for e in placed)
    settled = [e for e in events if e["event"] == "settled"]
    assert len(settled) == 1 and settled[0]["round"] == 1 and "totals" in settled[0]["payout"]
    assert "cleared" in [e["event"] for e in events]
    # A table line whenever the refereed table changes, in the settle input shape with its preview.
    tables = [line for line in lines if line["type"] == "table"]
    assert len(tables) >= len(placed)
    assert [c["casino"] for c in tables[-1]["casinos"]] == [1, 2, 3, 4, 5, 6]
    assert set(tables[-1]["casinos"][0]) == {"casino", "dice", "biggy", "banknotes"}
    assert set(tables[-1]["preview"]) == {"casinos", "totals"}


def test_the_mats_printed_numbers_are_not_dice_but_a_die_lying_on_one_is():
    """Traced (seed 7074): the mat's "2" boxed with 0.36 confidence and read as a die, a phantom on casino 2
    for the rest of the round. Here a box on casino 2's number in every frame, read as a red 1."""
    game = RenderedGame(seed=7, players=("red", "blue"), size=(640, 360), fps=5, rounds=1)
    centre = game.camera.project(np.column_stack([game.mat_to_table(MAT.marks()[1:2]), np.zeros(1)]))[0]
    box = np.array([[*(centre - 7), *(centre + 7)]], np.float32)

    def reader(index, confidence=0.36):
        truth = game.truth(index)
        mark = Detections(box, np.array([confidence], np.float32), {
            "pips": np.array([1]), "colour": np.array(["red"], object), "biggy": np.array([False]),
            "track": np.array([-1])})  # fmt: skip
        return Detections(np.concatenate([truth.xyxy, mark.xyxy]), np.concatenate([truth.confidence, mark.confidence]),
                          {k: np.concatenate([v, mark.data[k]]) for k, v in truth.data.items()})  # fmt: skip

    observer, lines = watch(game, reader=reader)
    assert [line for line in lines if line["type"] in ("alert", "uncertain")] == []
    assert canonical_history(observer.state.history)[: len(settled_truth(game))] == settled_truth(game)
    calibration = MAT.calibration(np.eye(3))  # table millimetres are pixels: the box is where it lies
    pipeline = TablePipeline(game.truth, camera_referee(new_game(game.ruleset, game.players)))
    at = MAT.marks()[1:2]
    assert pipeline._not_marks(calibration, at, np.array([0.36])).tolist() == [False]
    assert pipeline._not_marks(calibration, at, np.array([0.9])).tolist() == [True]  # a die lying on it
    assert Calibration.from_json(calibration.to_json()).marks == pytest.approx(MAT.marks())


def test_an_unsure_box_over_a_die_and_its_neighbour_is_no_die():
    """Traced (Royale main 429, main 3p 430, Las Vegas 5251): a box the detector is unsure of over a die and a part
    of its neighbour, read in another player's colour, lay 11-15 mm from the die on the table plane, too far to
    be that die read twice (9 mm): a phantom taken for a player's last die or a tile's roll. Here every red die
    has such a box beside it, shifted by 0.45 of its box (about 12 mm), at 0.37, read blue: the round is refereed
    exactly; with the rule off it is not."""
    game = RenderedGame(seed=7, players=("red", "blue"), size=(640, 360), fps=5, rounds=1)

    def reader(index):
        truth = game.truth(index)
        red = [i for i, colour in enumerate(truth.data["colour"]) if colour == "red"]
        shift = np.array([0.45, 0.0, 0.45, 0.0], np.float32) * (truth.xyxy[red, 2:3] - truth.xyxy[red, 0:1])
        ghosts = {"pips": truth.data["pips"][red], "colour": np.array(["blue"] * len(red), object),
                  "biggy": np.zeros(len(red), bool), "track": np.full(len(red), -1)}  # fmt: skip
        return Detections(np.concatenate([truth.xyxy, truth.xyxy[red] + shift]),
                          np.concatenate([truth.confidence, np.full(len(red), 0.37, np.float32)]),
                          {k: np.concatenate([v, ghosts[k]]) for k, v in truth.data.items()})  # fmt: skip

    observer, lines = watch(game, reader=reader)
    assert [line for line in lines if line["type"] in ("alert", "uncertain")] == []
    assert canonical_history(observer.state.history)[: len(settled_truth(game))] == settled_truth(game)
    observer, lines = watch(game, reader=reader, bridge_mm=0.0)
    assert canonical_history(observer.state.history)[: len(settled_truth(game))] != settled_truth(game) or any(
        line["type"] in ("alert", "uncertain") for line in lines)  # fmt: skip


def test_a_thing_read_in_no_colour_of_the_game_on_a_casino_is_no_die():
    """Traced (Royale seed 394): a chip at casino 5's edge boxed at 0.74 and read an orange 1, restricted to the
    game's colours a green 1, a die placed there never rolled. Here a box in casino 5's corner in every frame
    whose colour head reads it orange or yellow: the round is refereed exactly, nothing alerted."""
    from vision.colours import PALETTE_NAMES

    game = RenderedGame(seed=7, players=("red", "blue"), size=(640, 360), fps=5, rounds=1)
    corner = MAT.casinos[5].mean(axis=0) * 0.25 + MAT.casinos[5][2] * 0.75  # near its far-right corner
    centre = game.camera.project(np.column_stack([game.mat_to_table(corner[None]), np.zeros(1)]))[0]
    box = np.array([[*(centre - 7), *(centre + 7)]], np.float32)

    def one_hot(names):
        out = np.zeros((len(names), len(PALETTE_NAMES)), np.float32)
        out[np.arange(len(names)), [PALETTE_NAMES.index(str(n)) for n in names]] = 1
        return out

    def reader(index):
        truth = game.truth(index)
        chip = np.zeros((1, len(PALETTE_NAMES)), np.float32)
        chip[0, PALETTE_NAMES.index("orange")], chip[0, PALETTE_NAMES.index("yellow")] = 0.6, 0.395
        chip[0, PALETTE_NAMES.index("blue")] = 0.005
        data = {**truth.data, "colour_scores": one_hot(truth.data["colour"])}
        extra = {"pips": np.array([1]), "colour": np.array(["orange"], object), "biggy": np.array([False]),
                 "track": np.array([-1]), "colour_scores": chip}  # fmt: skip
        return Detections(np.concatenate([truth.xyxy, box]), np.concatenate([truth.confidence, [0.74]]),
                          {k: np.concatenate([v, extra[k]]) for k, v in data.items()})  # fmt: skip

    observer, lines = watch(game, reader=reader)
    assert [line for line in lines if line["type"] in ("alert", "uncertain")] == []
    assert canonical_history(observer.state.history)[: len(settled_truth(game))] == settled_truth(game)


def test_a_fixed_calibration_from_four_corners_and_biggys_told_by_size():
    game = RenderedGame(seed=11, players=("green", "yellow"), rules="las-vegas+biggy", size=(640, 360), fps=5,
                        rounds=1)  # fmt: skip
    corners_mm = np.array([[0, 0], [MAT.width_mm, 0], [MAT.width_mm, MAT.height_mm], [0, MAT.height_mm]])
    table = game.mat_to_table(corners_mm)
    corners_px = game.camera.project(np.column_stack([table, np.zeros(4)]))
    calibration = Calibration(homography_from_corners(corners_px, MAT.width_mm, MAT.height_mm), MAT.casinos,
                              MAT.rolling_area, MAT.width_mm, MAT.height_mm)  # fmt: skip
    observer, lines = watch(game, calibration)
    assert [line for line in lines if line["type"] in ("alert", "uncertain")] == []
    history = canonical_history(observer.state.history)
    assert history[: len(settled_truth(game))] == settled_truth(game)
    assert any(isinstance(e, DiceRolled) and e.biggies for e in history)


def test_table_sizes_come_from_the_die_readers_size_when_it_gives_one():
    # A camera straight above the mat at 2 mm a pixel; two dice in 10x10 px boxes on a blank table.
    corners_px = np.array([[0, 0], [MAT.width_mm / 2, 0], [MAT.width_mm / 2, MAT.height_mm / 2],
                           [0, MAT.height_mm / 2]])  # fmt: skip
    calibration = Calibration(homography_from_corners(corners_px, MAT.width_mm, MAT.height_mm), MAT.casinos,
                              MAT.rolling_area, MAT.width_mm, MAT.height_mm)  # fmt: skip
    game = RenderedGame(seed=11, players=("green", "yellow"), rules="las-vegas+biggy", size=(640, 360), rounds=1)
    pipeline = TablePipeline(game.truth, camera_referee(new_game(game.ruleset, game.players)), calibration=calibration)
    boxes = np.array([[100.0, 100.0, 110.0, 110.0], [200.0, 100.0, 210.0, 110.0]])
    blank = np.full((360, 640, 3), 90, np.uint8)
    # The reader's 8 px (a die turned inside its box) is 16 mm; a reader that cannot tell leaves the box.
    told = Detections(boxes, np.ones(2), {"size": np.array([8.0, np.nan], np.float32)})
    assert pipeline._sizes_mm(blank, calibration, told) == pytest.approx([16.0, 20.0])


def test_something_large_of_a_players_colour_off_the_play_area_never_takes_his_biggy():
    """Traced (Royale, seed 342): beside the ring a chip or card corner of green's colour, boxed as a die 43 mm
    wide off every zone, took green's one Biggy, and green's Biggy in the arena (29 mm among 19 mm dice) was
    read as a normal die roll after roll. A Biggy in the play area comes first; what lies off it also does
    not set a normal die's size."""
    game = RenderedGame(seed=11, players=("red", "green"), rules="las-vegas-royale", size=(640, 360), rounds=1)
    pipeline = TablePipeline(game.truth, camera_referee(new_game(game.ruleset, game.players)))
    green, red = Colour.GREEN, Colour.RED
    sizes = np.array([19.0, 29.3, 19.3, 18.8, 43.3, 31.2, 30.3, 20.0])
    owners = [green, green, green, green, green, red, red, red]
    zones = np.array([0, 0, 0, 0, -1, -1, 1, 1])
    assert pipeline._biggy(sizes, owners, zones).tolist() == [False, True, False, False, False, False, True, False]
    # Off the play area alone, a die of Biggy size is still told a Biggy (a die pushed off a casino).
    assert pipeline._biggy(np.array([19.0, 30.0]), [red, red], np.array([0, -1])).tolist() == [False, True]


def test_a_webcam_on_a_shelf_45_degrees_from_vertical():
    game = RenderedGame(seed=13, players=("red", "blue"), size=(1280, 720), fps=5, rounds=1, tilt_deg=45)
    observer, lines = watch(game)
    assert [line for line in lines if line["type"] in ("alert", "uncertain")] == []
    assert canonical_history(observer.state.history)[: len(settled_truth(game))] == settled_truth(game)


def test_a_die_misread_in_the_roll_is_read_again_when_it_is_placed():
    game = RenderedGame(seed=7, players=("red", "blue"), size=(640, 360), fps=5, rounds=1)
    misreading, _ = misreading_first_roll(game)
    observer, lines = watch(game, reader=misreading)
    events = [line for line in lines if line["type"] == "event"]
    rolls = [e for e in events if e["event"] == "rolled"]
    assert "replaces" not in rolls[0] and rolls[1]["replaces"]["event"] == "rolled"
    assert "read again" in rolls[1]["text"] and "a die read as" in rolls[1]["text"]
    # until the placement's readings outweigh the roll's, the table may be told what does not fit: the
    # placement that does not fit the misread roll (since the misfit of unmoved dice is charged once,
    # the placement's readings outweigh the roll's before any alert here)
    revised = lines.index(rolls[1])
    alerts = [line["reason"] for line in lines[:revised] if line["type"] == "alert"]
    assert all(reason == "red placed 3 dice on casino 4 but only 2 of them show 4" for reason in alerts)
    assert [line for line in lines[revised:] if line["type"] == "alert"] == []
    assert canonical_history(observer.state.history)[: len(settled_truth(game))] == settled_truth(game)


def test_a_die_missed_in_the_roll_is_found_when_the_roll_is_placed():
    game = RenderedGame(seed=7, players=("red", "blue"), size=(640, 360), fps=5, rounds=1)
    missing, _ = misreading_first_roll(game, miss=True)
    observer, lines = watch(game, reader=missing)
    assert [line for line in lines if line["type"] == "alert"] == []  # not an alarm: the placement tells
    events = [line for line in lines if line["type"] == "event"]
    assert [e["event"] for e in events[:3]] == ["dealt", "rolled", "placed"]
    assert events[1]["frame"] == events[2]["frame"]  # the roll said once its placement showed the die
    assert canonical_history(observer.state.history)[: len(settled_truth(game))] == settled_truth(game)


def test_without_the_mat_or_a_calibration_nothing_is_refereed():
    game = RenderedGame(seed=3, players=("red", "blue"), size=(640, 360), fps=5, rounds=1)
    observer = camera_referee(new_game(game.ruleset, game.players))
    pipeline = TablePipeline(lambda image: game.truth(0), observer)
    blank = np.full((360, 640, 3), 90, np.uint8)
    reports = [pipeline.process(Frame(i, i / 5, blank)) for i in range(10)]
    assert all(r.calibration is None and r.snapshot is None and not r.verdicts for r in reports)
    assert observer.state.phase is Phase.DEAL


@pytest.mark.parametrize("index", [0, 55, 130])
def test_the_rendered_game_is_deterministic_and_random_access(index):
    a = RenderedGame(seed=5, players=("red", "blue"), size=(320, 180), fps=5, rounds=1)
    b = RenderedGame(seed=5, players=("red", "blue"), size=(320, 180), fps=5, rounds=1)
    b.frame(200)  # another frame first: poses must not depend on the order frames are drawn in
    assert np.array_equal(a.frame(index), b.frame(index))
    truth = a.truth(index)
    assert np.all(truth.xyxy[:, :2] >= 0) and np.all(truth.xyxy[:, 2] <= 320) and np.all(truth.xyxy[:, 3] <= 180)
