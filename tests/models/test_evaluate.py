"""The evaluation's matching and counting rules (what "read right" and "perfect" mean)."""

import json

import numpy as np
import pytest

from models.dice_detector.evaluate import (
    Tally,
    _judged,
    cover_matrix,
    cpu_description,
    match,
    score_image,
    unreadable_dice,
    yolo_labels,
)
from models.dice_detector.make_dataset import _yolo_line, whole_die_boxes
from models.die_reader.make_dataset import JITTER_SCALE, jitter
from vision.colours import PALETTE_NAMES
from vision.detect import box_iou
from vision.detections import Detections


def detections(boxes, pips, colours=None, biggy=None):
    n = len(boxes)
    return Detections(np.array(boxes, float).reshape(-1, 4), np.ones(n), {
        "pips": np.array(pips, int), "colour": np.array(colours or ["red"] * n, object),
        "biggy": np.array(biggy or [False] * n, bool)})  # fmt: skip


def test_iou_and_greedy_matching():
    truth = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], float)
    pred = detections([[21, 0, 31, 10], [1, 0, 11, 10], [50, 50, 60, 60]], [1, 2, 3])
    assert box_iou(truth[:1], truth[:1])[0, 0] == pytest.approx(1.0)
    assert sorted(match(truth, pred)) == [(0, 1), (1, 0)]
    assert match(truth, detections([[5, 5, 15, 15]], [1])) == []  # IoU 1/7 < 0.5


def test_a_label_of_the_top_face_matches_the_whole_die_around_it_only_when_asked():
    face = [10, 10, 20, 18]  # the labelled top face of a die seen at a slant
    whole = [8, 8, 22, 28]  # the detected whole die: 3.5 times the face's area, IoU 0.29
    truth = np.array([face, [40, 0, 50, 10]], float)
    found = detections([whole, [40, 0, 50, 10]], [3, 4])
    assert cover_matrix(truth[:1], np.array([whole], float))[0, 0] == pytest.approx(1.0)
    assert match(truth, found) == [(1, 1)]
    assert sorted(match(truth, found, faces=True)) == [(0, 0), (1, 1)]
    # Not when the detection is far larger than a die around that face, or holds half of another label.
    assert match(truth[:1], detections([[0, 0, 40, 40]], [3]), faces=True) == []
    two = np.array([[10, 10, 20, 18], [21, 10, 31, 18]], float)
    assert match(two, detections([[8, 8, 33, 28]], [3]), faces=True) == []
    # A box that overlaps a neighbour's face a little (a die leaning on it) still pairs with its own.
    near = np.array([face, [18, 20, 28, 30]], float)  # a third of it inside the die's box
    assert match(near, detections([whole], [3]), faces=True) == [(0, 0)]
    tally, faces = Tally(), Tally()
    score_image(tally, truth, [3, 4], found)
    score_image(faces, truth, [3, 4], found, faces=True)
    assert (tally.found, tally.extra, tally.perfect) == (1, 1, 0)
    assert (faces.found, faces.read_right, faces.extra, faces.perfect) == (2, 2, 0, 1)


def test_whole_die_boxes_widen_only_the_labels_of_a_top_face():
    class Found:
        def find(self, image):
            return detections([[8, 8, 22, 28], [40, 0, 50, 10], [60, 60, 70, 70]], [1, 1, 1])

    truth = np.array([[10, 10, 20, 18], [40.5, 0, 50, 10], [80, 80, 90, 90]], float)
    boxes, widened = whole_die_boxes(np.zeros((100, 100, 3), np.uint8), truth, Found())
    assert widened == 1
    assert boxes.tolist() == [[8, 8, 22, 28], [40.5, 0, 50, 10], [80, 80, 90, 90]]
    assert truth[0].tolist() == [10, 10, 20, 18]  # the labels given are left as they were


def test_score_image_counts_read_right_extra_and_perfect():
    tally = Tally()
    truth = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], float)
    score_image(tally, truth, [2, 5], detections([[0, 0, 10, 10], [20, 0, 30, 10]], [2, 5]))
    score_image(tally, truth, [2, 5], detections([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], [2, 4, 1]),
                ["red", None], [False, True])  # fmt: skip
    summary = tally.summary()
    assert (tally.dice, tally.read_right, tally.extra, tally.perfect) == (4, 3, 1, 1)
    assert summary["dice_read_right_pct"] == 75.0 and summary["photos_perfect_pct"] == 50.0
    assert (tally.colour_total, tally.colour_right, tally.biggy_right) == (1, 1, 1)


def test_each_colour_read_as_another_among_those_in_play_is_reported_per_true_colour():
    tally = Tally()
    truth = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10], [60, 0, 70, 10]], float)
    found = detections(truth, [1, 1, 1, 1], ["blue", "blue", "black", "black"])
    one_hot = np.zeros((4, len(PALETTE_NAMES)), np.float32)
    for k, name in enumerate(["blue", "black", "black", "black"]):  # the head reads the second blue die black
        one_hot[k, PALETTE_NAMES.index(name)] = 1
    found.data["colour_scores"] = one_hot
    score_image(tally, truth, [1, 1, 1, 1], found, ["blue", "blue", "black", "black"])
    assert tally.colour_in_play_right == 3
    assert tally.summary()["colour_in_play_confused_pct"] == {"blue->black": 50.0}
    assert "colour_in_play_confused_pct" not in Tally().summary()


def test_dice_judged_unreadable_count_neither_as_dice_nor_as_extra_detections():
    truth = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], float)
    found = detections([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10], [60, 0, 70, 10]], [2, 6, 1, 3])
    every, readable = Tally(), Tally()
    score_image(every, truth, [2, 5, 1], found, ["red", "blue", "red"])
    score_image(readable, truth, [2, 5, 1], found, ["red", "blue", "red"], ignore=[False, True, False])
    assert (every.dice, every.read_right, every.extra, every.colour_total) == (3, 2, 1, 3)
    assert (readable.dice, readable.found, readable.read_right, readable.extra) == (2, 2, 2, 1)
    assert readable.colour_total == 2 and readable.colour_right == 2  # the red ones, the blue die left out
    # Left out, a die read wrong makes no photo imperfect; the detection on no die still does.
    alone = Tally()
    score_image(alone, truth, [2, 5, 1], found[:3], ignore=[False, True, False])
    assert (alone.perfect, alone.extra) == (1, 0)


def test_the_audit_verdicts_name_the_dice_left_out(tmp_path):
    audit = tmp_path / "audit.csv"
    audit.write_text("number,image,x0,y0,x1,y1,label,read,confidence,colour_photo,by_eye\n"
                     "0,a.jpg,10.0,20.0,30.0,40.0,3,2,0.5,False,unreadable\n"
                     "1,a.jpg,50.0,20.0,70.0,40.0,3,2,0.5,False,readable\n"
                     "2,b.jpg,1.0,2.0,3.0,4.0,1,2,0.5,False,ambiguous\n")  # fmt: skip
    judged = unreadable_dice([audit])
    assert sorted(judged) == ["a.jpg", "b.jpg"] and len(judged["a.jpg"]) == 1
    labels = np.array([[10.02, 19.98, 30.0, 40.04], [50.0, 20.0, 70.0, 40.0], [10.5, 20.0, 30.0, 40.0]])
    assert _judged(labels, judged["a.jpg"]) == [True, False, False]  # the audit keeps boxes to 0.1 px
    assert _judged(labels, None) == [False, False, False]
    assert unreadable_dice([tmp_path / "none.csv"]) == {}


def test_yolo_labels_round_trip(tmp_path):
    line = _yolo_line((10, 20, 30, 60), 100, 200)
    (tmp_path / "a.txt").write_text(line.replace("0 ", "3 ", 1) + "\n")
    boxes, pips = yolo_labels(tmp_path / "a.txt", 100, 200)
    assert pips == [4]
    assert boxes.tolist() == [pytest.approx([10, 20, 30, 60], abs=1e-3)]
    assert yolo_labels(tmp_path / "missing.txt", 100, 200)[1] == []


def test_jitter_stays_near_the_box_and_strays_like_the_detectors_boxes():
    rng = np.random.default_rng(0)
    low, high = JITTER_SCALE[0] * 0.95 - 1e-9, JITTER_SCALE[1] * 1.05 + 1e-9
    scales = []
    for _ in range(200):
        x0, y0, x1, y1 = jitter((100, 100, 120, 130), rng)
        assert abs((x0 + x1) / 2 - 110) <= 0.08 * 20 + 1e-9 and low * 20 <= x1 - x0 <= high * 20
        assert abs((y0 + y1) / 2 - 115) <= 0.08 * 30 + 1e-9 and low * 30 <= y1 - y0 <= high * 30
        scales.append(max(x1 - x0, y1 - y0) / 30)
    # The detector's boxes are larger than the truth more often than smaller (median 1.08 on held-out tables).
    assert np.median(scales) > 1.0 and np.mean(np.array(scales) > 1.2) > 0.2


def test_die_reader_crops_come_in_the_readers_size_and_each_size_has_its_folder():
    from models.die_reader.make_dataset import OUT, _merge, dataset_dir, synthetic_crops
    from vision.crops import CROP_SIZE

    crops = synthetic_crops(9_000_000, size=32)
    assert len(crops["x"]) > 0 and all(x.shape == (32, 32, 3) for x in crops["x"])
    merged = _merge([crops], 32)
    assert merged["x"].shape == (len(crops["x"]), 32, 32, 3)
    # The size the reader learns: the die's size over its (jittered) box's larger side, about 0.6-1.
    assert merged["size"].shape == (len(crops["x"]),) and np.all((merged["size"] > 0.35) & (merged["size"] < 1.3))
    assert dataset_dir(CROP_SIZE) == OUT and dataset_dir(48) == OUT.with_name("die_reader_48")


def test_die_reader_crops_show_every_palette_colour_and_the_tiles_grey_dice():
    """The Las Vegas scenes alone never show grey, violet, orange, pink, brown or cyan dice (Boulevard's
    players, Royale's tiles): the recoloured scenes and the rendered games' frames do, with their labels."""
    from models.die_reader.make_dataset import game_crops, synthetic_crops

    base = [synthetic_crops(seed) for seed in range(9_100_000, 9_100_006)]
    recoloured = [synthetic_crops(seed, palette_share=1.0) for seed in range(9_100_000, 9_100_006)]
    assert [len(c["x"]) for c in base] == [len(c["x"]) for c in recoloured]  # the same scenes, other colours
    # Player colours (the neutral dice stay white): six scenes take from every palette colour.
    seen = {PALETTE_NAMES[c] for crops in recoloured for c in crops["colour"] if c >= 0}
    assert len(seen - {"red", "blue", "green", "black", "white", "yellow"}) >= 3
    games = [game_crops(("game", seed)) for seed in range(9_200_000, 9_200_004)]
    assert all(len(c["x"]) and all(k >= 0 for k in c["colour"]) for c in games)  # every die labelled
    assert all(np.isnan(c["size"]).all() for c in games)  # the game's renderer does not tell silhouettes
    royale = [game_crops(("royale", seed)) for seed in range(9_300_000, 9_300_008)]
    greys = sum(crops["colour"].count(PALETTE_NAMES.index("grey")) for crops in royale)
    assert greys > 0  # the main game's tiles lay grey dice on the casinos


def test_game_stills_keep_the_neutral_dice_white_and_off_a_white_players_table():
    from models.dice_detector.make_dataset import game_still

    for seed in range(9_400_000, 9_400_012):
        game, index = game_still(seed, ["white", "red", "blue", "green", "black", "yellow"])
        assert "neutral" not in game.ruleset.variants or "white" not in [c.value for c in game.players]
        assert len(game.truth(index))


def test_evaluate_real_tallies_the_issues_figure_the_face_labels_and_the_colour_trays(tmp_path):
    import cv2

    from models.dice_detector.evaluate import evaluate_real

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    for name in ("grey", "tray", "held"):
        cv2.imwrite(str(tmp_path / "images" / f"{name}.jpg"), np.zeros((100, 100, 3), np.uint8))
    (tmp_path / "labels" / "grey.txt").write_text(_yolo_line((10, 10, 20, 18), 100, 100).replace("0 ", "2 ", 1))
    (tmp_path / "labels" / "tray.txt").write_text(_yolo_line((40, 0, 50, 10), 100, 100).replace("0 ", "3 ", 1))
    (tmp_path / "images" / "broken.jpg").write_bytes(b"not a jpeg")
    (tmp_path / "split.csv").write_text("image,split,scene,colour,dice\ngrey.jpg,val,a,gray,1\n"
                                        "tray.jpg,val,b,colour,1\nheld.jpg,train,c,colour,0\n"
                                        "broken.jpg,val,d,gray,0\n")  # fmt: skip

    def detector(image):  # the whole die around the grey photo's labelled face, and the tray's die
        return detections([[8, 8, 22, 28], [40, 0, 50, 10]], [3, 4])

    tallies = evaluate_real(detector, tmp_path)
    assert set(tallies) == {"real_val", "real_val_face_labels", "real_val_colour_trays"}
    strict, faces, trays = (tallies[k] for k in ("real_val", "real_val_face_labels", "real_val_colour_trays"))
    assert (strict.images, strict.dice, strict.read_right, strict.extra) == (2, 2, 1, 3)
    assert (faces.dice, faces.read_right, faces.extra) == (2, 2, 2)
    assert (trays.images, trays.dice, trays.read_right) == (1, 1, 1)
    assert strict.errors == ["unreadable broken.jpg"]
    # With the audit's verdicts, the grey photo's die judged unreadable is left out of the readable figures.
    audit = tmp_path / "audit.csv"
    audit.write_text("number,image,x0,y0,x1,y1,label,read,confidence,colour_photo,by_eye\n"
                     "0,grey.jpg,10.0,10.0,20.0,18.0,3,4,0.5,False,unreadable\n")  # fmt: skip
    tallies = evaluate_real(detector, tmp_path, [audit])
    readable, readable_faces = tallies["real_val_readable"], tallies["real_val_readable_face_labels"]
    assert (readable.dice, readable.read_right, readable.extra) == (1, 1, 3)  # no label pairs with the grey die's box
    assert (readable_faces.dice, readable_faces.read_right, readable_faces.extra) == (1, 1, 2)  # its face label does


def test_the_speed_record_names_the_processor_and_its_vector_instructions(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nmodel name\t: Some Xeon\nflags\t\t: fpu sse2 avx avx2 avx512f\n\n"
                       "processor\t: 1\nmodel name\t: Some Xeon\nflags\t\t: fpu sse2 avx avx2 avx512f\n")  # fmt: skip
    described = cpu_description(cpuinfo)
    assert described.startswith("Some Xeon, ") and described.endswith(" cores, avx2 avx512f")
    assert "avx512_vnni" not in described
    assert "cores" in cpu_description(tmp_path / "absent")  # another system: still says what it can


def test_committed_configs_hold_no_absolute_paths():
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]

    def strings(value):
        if isinstance(value, dict):
            yield from (s for v in value.values() for s in strings(v))
        elif isinstance(value, list):
            yield from (s for v in value for s in strings(v))
        elif isinstance(value, str):
            yield value

    configs = sorted(root.glob("models/*/config.json")) + sorted(root.glob("models/*/checkpoint/*.json"))
    assert configs
    for config in configs:
        assert not [s for s in strings(json.loads(config.read_text())) if s.startswith("/")], config


def test_crowded_frames_show_white_dice_on_crowded_casinos_with_their_labels(tmp_path):
    from models.dice_detector.make_dataset import crowded_frame

    for folder in ("images/train", "labels/train"):
        (tmp_path / folder).mkdir(parents=True)
    entries = [crowded_frame((seed, "train", tmp_path)) for seed in range(1_800_000, 1_800_006)]
    whites = 0
    for entry in entries:
        labels = (tmp_path / "labels" / "train" / f"{entry['image']}.txt").read_text().splitlines()
        dice = json.loads((tmp_path / "labels" / "train" / f"{entry['image']}.json").read_text())["dice"]
        assert entry["source"] == "crowd" and len(labels) == len(dice) == entry["dice"]
        assert (tmp_path / "images" / "train" / f"{entry['image']}.jpg").exists()
        whites += any(d["colour"] == "white" for d in dice)
        assert len(dice) >= 12  # late in the round: most of the dice are out
    assert whites >= 3  # a white player, or the neutral dice (white too), in half the games


def test_table_figures_count_every_die_by_colour_and_the_crowded_ones():
    from models.dice_detector.evaluate import evaluate_tables

    blind = lambda image: detections([], [])  # noqa: E731  (finds nothing: every die counted, none found)
    figures = evaluate_tables(blind, 1, ["6p"])  # six players, white among them
    assert {"red", "blue", "green", "black", "yellow", "white", "crowded", "crowded white"} == set(figures)
    assert all(f["found_pct"] == 0 and f["dice"] > 0 for f in figures.values())
    colours = sum(f["dice"] for key, f in figures.items() if not key.startswith("crowded"))
    assert figures["crowded"]["dice"] < colours
