"""Photoreal Blender renders for training: labels read back, crops cut, clear errors without Blender.

The fixture ``fixtures/blender/1_0000.png`` was rendered by ``python -m vision.synth.blender --seed 1
--count 1 --samples 16`` (Debian's Blender 3.4); Blender itself is not needed to run these tests.
"""

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synth.blender import BlenderError, load, render

FIXTURE = Path(__file__).with_name("fixtures") / "blender" / "1_0000.png"


def test_a_render_reads_back_with_its_labels():
    image, dice = load(FIXTURE)
    assert image.shape == (240, 320, 3) and dice
    for die in dice:
        x0, y0, x1, y1 = die.box
        assert 0 <= x0 < x1 <= 320 and 0 <= y0 < y1 <= 240 and 1 <= die.pips <= 6
        # The size (from the silhouette's corners) fits the box: between a die turned 45 degrees in it
        # (about 0.7 of its side) and one lying square (about 1, more with the camera's slant).
        assert 0.55 < die.size / max(x1 - x0, y1 - y0) < 1.2


def test_labelled_boxes_hold_the_dice_and_the_table_is_outside():
    image, dice = load(FIXTURE)
    table = np.ones(image.shape[:2], bool)
    for die in dice:
        x0, y0, x1, y1 = (round(v) for v in die.box)
        table[y0:y1, x0:x1] = False
    background = np.median(image[table], axis=0)
    for die in dice:
        x0, y0, x1, y1 = (round(v) for v in die.box)
        inside = image[y0:y1, x0:x1].reshape(-1, 3).astype(float)
        # A die is not the table: a good part of its box differs clearly from the table's colour.
        assert np.mean(np.abs(inside - background).sum(axis=1) > 40) > 0.3, die


def test_the_reader_dataset_takes_crops_from_renders(tmp_path):
    from models.die_reader.make_dataset import blender_crops

    shutil.copy(FIXTURE, tmp_path)
    shutil.copy(FIXTURE.with_suffix(".json"), tmp_path)
    crops = blender_crops(tmp_path, seed=0, size=40, copies=2)
    _, dice = load(FIXTURE)
    assert len(crops["x"]) == 2 * len(dice) and all(x.shape == (40, 40, 3) for x in crops["x"])
    assert crops["pips"] == [d.pips - 1 for d in dice for _ in range(2)]
    assert all(0.3 < s < 1.4 for s in crops["size"])


def test_the_scene_script_paints_the_palettes_colours():
    # Blender's Python cannot import vision.colours, so the script keeps a copy: it must not drift.
    import ast

    from vision.colours import PALETTE
    from vision.synth.blender import SCRIPT

    tree = ast.parse(SCRIPT.read_text())
    copy = next(n.value for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "PALETTE")
    assert ast.literal_eval(copy) == PALETTE


def test_a_broken_render_or_missing_blender_is_a_clear_error(tmp_path):
    (tmp_path / "bad.png").write_bytes(b"not a png")
    (tmp_path / "bad.json").write_text(json.dumps({"dice": []}))
    with pytest.raises(BlenderError, match="not a readable Blender render"):
        load(tmp_path / "bad.png")
    cv2.imwrite(str(tmp_path / "alone.png"), np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(BlenderError, match=r"alone\.json"):
        load(tmp_path / "alone.png")
    with pytest.raises(BlenderError, match="apt install blender"):
        render(1, 1, tmp_path, blender="no-such-blender-here")
