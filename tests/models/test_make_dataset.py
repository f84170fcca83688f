"""The dataset builders: the detector's writes each rendered photo with labels that agree with its sidecar; the
die reader's cuts a crop of every labelled die of a rendered heap, colour known only where the photo shows it."""

import json

import cv2
import numpy as np

from models.dice_detector.make_dataset import pile_frame, render_one
from models.die_reader.make_dataset import pile_crops
from vision.colours import PALETTE_NAMES
from vision.crops import CROP_SIZE
from vision.synth.pile import render_pile


def test_rendered_photos_are_written_with_yolo_labels_and_their_sidecar(tmp_path):
    for folder in ("images", "labels"):
        (tmp_path / folder / "train").mkdir(parents=True)
    entries = [pile_frame((1_600_009, "train", tmp_path)), render_one((1_000_003, "train", tmp_path))]
    assert [e["source"] for e in entries] == ["pile", "synthetic"]
    for entry in entries:
        image = cv2.imread(str(tmp_path / "images" / "train" / f"{entry['image']}.jpg"))
        assert image is not None and max(image.shape[:2]) <= 832
        lines = (tmp_path / "labels" / "train" / f"{entry['image']}.txt").read_text().split()
        sidecar = json.loads((tmp_path / "labels" / "train" / f"{entry['image']}.json").read_text())
        assert entry["dice"] == len(lines) // 5 == len(sidecar["dice"]) > 0
        values = [float(v) for v in lines]
        assert all(v == 0 for v in values[0::5]) and all(0 <= v <= 1 for k, v in enumerate(values) if k % 5)


def test_the_readers_pile_crops_carry_each_dies_pips_and_colour_unless_the_photo_is_grey():
    for seed in (2_600_010, 2_600_005):  # a colour photo of 24 dice, a greyscale one of 12
        scene, crops = render_pile(seed), pile_crops(seed)
        grey = bool(np.ptp(scene.image.astype(int), axis=2).max() == 0)
        assert len(crops["x"]) == len(scene.dice) >= 12
        assert all(x.shape == (CROP_SIZE, CROP_SIZE, 3) for x in crops["x"])
        assert crops["pips"] == [die.pips - 1 for die in scene.dice]
        expected = [-1 if grey or not die.palette else PALETTE_NAMES.index(die.colour) for die in scene.dice]
        assert crops["colour"] == expected
        assert (min(expected) == -1) == grey  # this colour photo's dice are all of palette sets
        assert not any(crops["biggy"]) and not any(crops["real"])
        assert all(0.3 < s < 1.5 for s in crops["size"])
