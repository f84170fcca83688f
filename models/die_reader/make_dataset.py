"""Builds the die reader's crops: real photos (train split; val kept apart) and synthetic renders.

    python -m models.die_reader.make_dataset [--synthetic-train 800] [--synthetic-val 200] [--seed 2]
        [--size 48] [--whole-die] [--palette-share 0.5] [--game-frames 300] [--royale-frames 300]
        [--hard-share 0.3] [--hard-val 100] [--pile-frames 1000]

Writes ``datasets/die_reader/{train,val_real,val_synth[,val_hard][,val_pile]}.npz`` (ignored by git; crops of another
``--size`` than the shipped reader's 40 px into ``datasets/die_reader_<size>/``): ``x`` uint8 crops
(N, size, size, 3) BGR, ``pips`` 0..5, ``colour`` palette index or -1 (real photos, arbitrary
colours), ``biggy`` and ``real`` flags, and ``size``: the die's size in the picture (square root of its
whole silhouette's area) over the larger side of the box the crop was cut around (NaN for real photos,
whose labels do not tell it). Boxes are jittered like a detector's to teach tolerance. With
``--pile-frames``, crops of rendered photos of heaps of hobby dice (``vision.synth.pile``) join the
training crops, one photo in ten kept apart as ``val_pile.npz``.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

from models.dice_detector.evaluate import split_rows, yolo_labels
from models.dice_detector.make_dataset import whole_die_boxes
from vision.colours import PALETTE_NAMES
from vision.crops import CROP_SIZE, crop_die
from vision.detect import DiceDetector

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "datasets" / "real-d6-rune55"
OUT = ROOT / "datasets" / "die_reader"


HELD_OUT = ("val_real", "val_synth", "val_hard", "val_pile")
"""The held-out sets written: the first two always, the others where asked for (--hard-val, --pile-frames)."""


def dataset_dir(size: int) -> Path:
    """Where the crops of one size are kept: ``datasets/die_reader`` for the default size."""
    return OUT if size == CROP_SIZE else OUT.with_name(f"die_reader_{size}")


JITTER_SCALE = (0.78, 1.36)
"""How much larger or smaller than the truth a training crop's box is (see :func:`jitter`)."""


def jitter(box: tuple[float, float, float, float], rng: np.random.Generator,
           scale: tuple[float, float] = JITTER_SCALE) -> tuple[float, float, float, float]:  # fmt: skip
    """A box moved and scaled the way the detector's boxes stray from the truth.

    The centre moves up to 8 % of the side, the sides scale by ``scale`` (the detector's boxes on
    held-out tables are larger than the truth more often than smaller: 0.93-1.27 times its larger
    side, 5th-95th percentile, median 1.08; but a Biggy's box is at times only part of it, 0.81 at the
    5th percentile), each side by up to 5 % more or less than the other.
    """
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2 + rng.uniform(-0.08, 0.08) * w
    cy = (y0 + y1) / 2 + rng.uniform(-0.08, 0.08) * h
    s = rng.uniform(*scale)
    a = rng.uniform(0.95, 1.05)
    return cx - w * s * a / 2, cy - h * s / a / 2, cx + w * s * a / 2, cy + h * s / a / 2


def _empty() -> dict[str, list]:
    return {"x": [], "pips": [], "colour": [], "biggy": [], "real": [], "size": []}


def real_crops(real: Path, split: str, copies: int, seed: int, size: int = CROP_SIZE,
               detector: DiceDetector | None = None) -> dict[str, list]:  # fmt: skip
    """Crops of every labelled die in the real photos of one split.

    With ``detector``, a label boxing a die's top face is widened to the whole die the detector finds
    around it (``dice_detector.make_dataset.whole_die_boxes``), as the reader's crops are cut at run time.
    """
    out = _empty()
    rng = np.random.default_rng(seed)
    for row in split_rows(real, split):
        image = cv2.imread(str(real / "images" / row["image"]))
        height, width = image.shape[:2]
        boxes, pips = yolo_labels(real / "labels" / f"{Path(row['image']).stem}.txt", width, height)
        if detector is not None:
            boxes, _ = whole_die_boxes(image, boxes, detector)
        for xyxy, face in zip(boxes, pips, strict=True):
            box = tuple(float(v) for v in xyxy)
            for _ in range(copies):
                out["x"].append(crop_die(image, jitter(box, rng) if copies > 1 else box, size))
                out["pips"].append(face - 1)
                out["colour"].append(-1)
                out["biggy"].append(False)
                out["real"].append(True)
                out["size"].append(np.nan)
    return out


def _label_crops(image: np.ndarray, dice: list, rng: np.random.Generator, size: int, out: dict[str, list],
                 copies: int = 1) -> None:  # fmt: skip
    """Appends ``copies`` jittered crops of every labelled die (``vision.synth.scene.DieLabel``) to ``out``."""
    for die in dice:
        for _ in range(copies):
            box = jitter(die.box, rng)
            out["x"].append(crop_die(image, box, size))
            out["size"].append(die.size / max(box[2] - box[0], box[3] - box[1], 1.0))
            out["pips"].append(die.pips - 1)
            out["colour"].append(PALETTE_NAMES.index(die.colour) if die.palette else -1)
            out["biggy"].append(die.biggy)
            out["real"].append(False)


HARD = 0.7
"""In a scene chosen to show hard dice (``--hard-share``), the share of its colours drawn as hobby dice."""


def synthetic_crops(seed: int, size: int = CROP_SIZE, palette_share: float = 0.0, hard_share: float = 0.0,
                    ) -> dict[str, list]:  # fmt: skip
    """Crops of every labelled die of one synthetic scene, cut from the full-resolution frame.

    A ``palette_share`` of the scenes (drawn from the seed) show the players' dice in colours of the whole
    palette (``render_scene(any_palette=True)``): the Las Vegas games alone never show grey, violet,
    orange, pink, brown or cyan dice, which Boulevard's players and Royale's tiles use. A ``hard_share``
    of them (drawn apart) show most colours as hobby dice the reader finds hard (``render_scene(hard=...)``,
    ``vision.synth.scene.hard_look``: smoke, swirled, pearl, dark bodies with coloured pips, deep colours);
    ``hard_share`` 1 draws every colour so (the held-out ``val_hard`` set).
    """
    from vision.synth.scene import render_scene

    hard = 1.0 if hard_share >= 1 else HARD * float(np.random.default_rng([seed, 23]).random() < hard_share)
    any_palette = bool(np.random.default_rng([seed, 17]).random() < palette_share)
    scene = render_scene(seed, any_palette=any_palette, hard=hard)
    out = _empty()
    _label_crops(scene.image, scene.dice, np.random.default_rng(seed + 7), size, out)
    return out


def game_crops(job: tuple[str, int], size: int = CROP_SIZE) -> dict[str, list]:
    """Crops of every die of one still frame of a rendered game, the referee's own look.

    ``job`` is (``"game"``, seed): a Las Vegas game on the play mat, its players drawn from the whole
    palette (``dice_detector.make_dataset.game_still``), or (``"royale"``, seed): a Royale game on its mat
    with cards, tiles, chips and the tiles' grey and black dice (``royale_still``). Their sizes are not
    known (NaN, as the real photos').
    """
    from models.dice_detector.make_dataset import game_still, royale_still

    kind, seed = job
    game, index = game_still(seed, PALETTE_NAMES) if kind == "game" else royale_still(seed)
    image, truth = game.frame(index), game.truth(index)
    dice = [
        SimpleNamespace(box=tuple(float(v) for v in box), size=float("nan"), pips=int(p), colour=str(c),
                        palette=True, biggy=bool(b))
        for box, p, c, b in zip(truth.xyxy, truth.data["pips"], truth.data["colour"], truth.data["biggy"], strict=True)
    ]  # fmt: skip
    out = _empty()
    _label_crops(image, dice, np.random.default_rng([seed, 7]), size, out)
    return out


def pile_crops(seed: int, size: int = CROP_SIZE) -> dict[str, list]:
    """Crops of every labelled die of one rendered photo of a heap of hobby dice (``render_pile``).

    What the tables do not show: dice at any turn of the phone and up to 50 degrees of tilt, close-ups,
    dice leaning on others or cut by the photo's edge, squashed by the square stretch. A greyscale photo's
    dice carry no colour (-1, as the real photos'): nothing in the picture tells it.
    """
    from vision.synth.pile import render_pile

    scene = render_pile(seed)
    grey = bool(np.ptp(scene.image, axis=2).max() == 0)  # every pixel's three channels alike
    dice = [replace(die, palette=False) for die in scene.dice] if grey else scene.dice
    out = _empty()
    _label_crops(scene.image, dice, np.random.default_rng([seed, 7]), size, out)
    return out


def blender_crops(folder: Path, seed: int, size: int = CROP_SIZE, copies: int = 2) -> dict[str, list]:
    """Crops of every die in the Blender photos of ``folder`` (``vision.synth.blender``), jittered boxes."""
    from vision.synth.blender import load

    rng = np.random.default_rng(seed + 11)
    out = _empty()
    for png in sorted(folder.glob("*.png")):
        image, dice = load(png)
        _label_crops(image, dice, rng, size, out, copies)
    return out


def _merge(parts: list[dict[str, list]], size: int) -> dict[str, np.ndarray]:
    merged = _empty()
    for part in parts:
        for key in merged:
            merged[key] += part[key]
    return {
        "x": np.array(merged["x"], dtype=np.uint8).reshape(-1, size, size, 3),
        "pips": np.array(merged["pips"], dtype=np.int8),
        "colour": np.array(merged["colour"], dtype=np.int8),
        "biggy": np.array(merged["biggy"], dtype=bool),
        "real": np.array(merged["real"], dtype=bool),
        "size": np.array(merged["size"], dtype=np.float32),
    }


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic-train", type=int, default=800)
    parser.add_argument("--synthetic-val", type=int, default=200)
    parser.add_argument("--real-copies", type=int, default=3, help="jittered crops per real training die")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--real", type=Path, default=REAL)
    parser.add_argument("--size", type=int, default=CROP_SIZE, help="side of the crops in pixels (the reader's input)")
    parser.add_argument("--out", type=Path, help=f"where to write (default {OUT}, or {OUT}_<size>)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--whole-die", action="store_true", help="widen the real training photos' boxes of a "
                        "die's top face to the whole die, as the shipped detector finds it")  # fmt: skip
    parser.add_argument("--palette-share", type=float, default=0.0, help="share of the synthetic scenes whose "
                        "players' dice take any palette colour (grey, violet, orange, ...)")  # fmt: skip
    parser.add_argument("--game-frames", type=int, default=0, help="also crops of still frames of rendered Las "
                        "Vegas games, players of every palette colour (one in ten for val_synth)")  # fmt: skip
    parser.add_argument("--royale-frames", type=int, default=0, help="also crops of still frames of rendered "
                        "Royale games with the tiles' grey and black dice (one in ten for val_synth)")  # fmt: skip
    parser.add_argument(
        "--hard-share",
        type=float,
        default=0.0,
        help="share of the synthetic training scenes "
        "whose dice look as hard hobby dice do (smoke, swirled, pearl, coloured pips, deep colours)",
    )
    parser.add_argument("--hard-val", type=int, default=0, help="held-out scenes of hard hobby dice only "
                        "(val_hard.npz; the val scenes' seeds, every colour drawn hard)")  # fmt: skip
    parser.add_argument("--pile-frames", type=int, default=0, help="also crops of rendered photos of heaps of "
                        "hobby dice: any turn and tilt, close-ups (one in ten for val_pile)")  # fmt: skip
    parser.add_argument("--blender", type=Path, help="also train on the Blender photos in this folder "
                        "(python -m vision.synth.blender)")  # fmt: skip
    args = parser.parse_args()
    if not (args.real / "split.csv").exists():
        parser.error(f"no real dataset at {args.real} (expected split.csv there)")
    args.out = args.out or dataset_dir(args.size)
    args.out.mkdir(parents=True, exist_ok=True)
    base = args.seed * 1_000_000
    crops = partial(synthetic_crops, size=args.size, palette_share=args.palette_share, hard_share=args.hard_share)
    hard_crops = partial(synthetic_crops, size=args.size, palette_share=args.palette_share, hard_share=1.0)
    widen = DiceDetector() if args.whole_die else None
    games = [("game", base + 700_000 + i) for i in range(args.game_frames)]
    games += [("royale", base + 800_000 + i) for i in range(args.royale_frames)]
    with ProcessPoolExecutor(args.workers) as pool:
        train_synth = list(pool.map(crops, range(base, base + args.synthetic_train), chunksize=8))
        val_synth = list(pool.map(partial(synthetic_crops, size=args.size, palette_share=args.palette_share),
                                  range(base + 500_000, base + 500_000 + args.synthetic_val), chunksize=8))  # fmt: skip
        val_hard = list(pool.map(hard_crops, range(base + 500_000, base + 500_000 + args.hard_val), chunksize=8))
        stills = list(pool.map(partial(game_crops, size=args.size), games, chunksize=2))
        piles = list(pool.map(partial(pile_crops, size=args.size),
                              range(base + 600_000, base + 600_000 + args.pile_frames), chunksize=8))  # fmt: skip
    train_synth += [part for k, part in enumerate(stills) if k % 10]
    val_synth += stills[::10]
    train_synth += [part for k, part in enumerate(piles) if k % 10]
    sets = {
        "train": _merge(
            [
                real_crops(args.real, "train", args.real_copies, args.seed, args.size, widen),
                *train_synth,
                *([blender_crops(args.blender, args.seed, args.size)] if args.blender else []),
            ],
            args.size,
        ),
        "val_real": _merge([real_crops(args.real, "val", 1, args.seed, args.size)], args.size),
        "val_synth": _merge(val_synth, args.size),
        **({"val_hard": _merge(val_hard, args.size)} if val_hard else {}),
        **({"val_pile": _merge(piles[::10], args.size)} if piles else {}),
    }
    summary = {}
    for name, arrays in sets.items():
        np.savez_compressed(args.out / f"{name}.npz", **arrays)
        summary[name] = {"crops": len(arrays["pips"]), "real": int(arrays["real"].sum())}
    (args.out / "manifest.json").write_text(json.dumps({"seed": args.seed, **vars(args) | {"real": str(args.real),
                                                        "out": str(args.out)}, "jitter_scale": list(JITTER_SCALE),
                                                        "sets": summary}, indent=1))  # fmt: skip
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
