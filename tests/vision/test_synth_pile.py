"""Photos of heaps of hobby dice (vision.synth.pile): deterministic, labels that match the drawn pixels,
and the kinds of real photos the detector missed (touching dice, edge-cut dice, close-ups, greyscale)."""

import numpy as np

from vision.synth import scene as scene_module
from vision.synth.dice import crossings
from vision.synth.pile import _heap, render_pile


def test_same_seed_same_photo_and_labels():
    a, b = render_pile(3, size=(640, 480)), render_pile(3, size=(640, 480))
    assert np.array_equal(a.image, b.image) and a.sidecar() == b.sidecar()
    assert a.image.shape == (480, 640, 3)
    assert all(d.zone == 0 and not d.biggy and 1 <= d.pips <= 6 for d in a.dice)


def test_heaped_dice_touch_but_never_go_through_each_other():
    rng = np.random.default_rng(0)
    heap = _heap(rng, 30, [16.0, 12.0], spread=20.0)
    centres = np.array([[p.x_mm, p.y_mm] for p, _ in heap])
    sizes = np.array([p.size_mm for p, _ in heap])
    yaws = np.array([p.yaw_deg for p, _ in heap])
    through = crossings(centres, sizes, yaws, centres, sizes, yaws, clearance=0.0)
    np.fill_diagonal(through, False)
    assert len(heap) >= 20 and not through.any()
    # Touching: grown by 1.5 mm, most dice reach a neighbour.
    near = crossings(centres, sizes + 1.5, yaws, centres, sizes + 1.5, yaws, clearance=0.0)
    np.fill_diagonal(near, False)
    assert near.any(axis=1).mean() > 0.5


def test_boxes_match_the_pixels_the_dice_changed(monkeypatch):
    with_dice = render_pile(10, size=(800, 600), effects=False)
    real_draw = scene_module.draw_die

    def outline_only(canvas, mask, camera, pose, look, light, scale, rng):
        return real_draw(np.zeros_like(canvas), mask, camera, pose, look, light, scale, rng)

    monkeypatch.setattr(scene_module, "draw_die", outline_only)
    without = render_pile(10, size=(800, 600), effects=False)
    changed = np.abs(with_dice.image.astype(int) - without.image.astype(int)).max(axis=2) > 12
    checked = 0
    boxes = np.array([d.box for d in with_dice.dice + with_dice.hidden])
    for die in with_dice.dice:
        x0, y0, x1, y1 = die.box
        alone = (boxes[:, 0] < x1 + 4) & (boxes[:, 2] > x0 - 4) & (boxes[:, 1] < y1 + 4) & (boxes[:, 3] > y0 - 4)
        if die.visible < 0.999 or alone.sum() > 1:  # a neighbour within the window changes pixels too
            continue
        x0, y0, x1, y1 = (round(v) for v in die.box)
        ys, xs = np.nonzero(changed[max(y0 - 3, 0) : y1 + 3, max(x0 - 3, 0) : x1 + 3])
        assert len(xs)
        found = (xs.min() + max(x0 - 3, 0), ys.min() + max(y0 - 3, 0), xs.max() + 1 + max(x0 - 3, 0),
                 ys.max() + 1 + max(y0 - 3, 0))  # fmt: skip
        assert np.allclose(found, die.box, atol=1.5)
        checked += 1
    assert checked >= 5


def test_the_photos_hold_the_kinds_the_detector_missed():
    scenes = [render_pile(seed) for seed in range(8)]
    grey = [s for s in scenes if np.array_equal(s.image[..., 0], s.image[..., 2])]
    square = [s for s in scenes if s.image.shape[:2] == (640, 640)]
    short = [min(s.image.shape[:2]) for s in scenes]
    close_ups = [s for s, side in zip(scenes, short, strict=True)
                 if any(d.box[3] - d.box[1] > 0.25 * side for d in s.dice)]  # fmt: skip
    cut = [s for s in scenes
           if any(min(d.box[:2]) <= 0.5 or d.box[2] >= s.image.shape[1] - 0.5 or d.box[3] >= s.image.shape[0] - 0.5
                  for d in s.dice)]  # fmt: skip
    crowded = [s for s in scenes if len(s.dice) >= 15]
    assert grey and len(grey) < len(scenes)
    assert square and close_ups and cut and crowded
    for s in scenes:
        height, width = s.image.shape[:2]
        assert all(0 <= d.box[0] < d.box[2] <= width and 0 <= d.box[1] < d.box[3] <= height for d in s.dice)
        assert all(d.visible >= 0.5 for d in s.dice) and all(d.visible < 0.5 for d in s.hidden)
