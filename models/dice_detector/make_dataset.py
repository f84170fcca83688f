"""Builds the detector's YOLO dataset: real photos (train split) plus seeded synthetic table renders.

    python -m models.dice_detector.make_dataset [--synthetic-train 600] [--synthetic-val 150] [--seed 1]
    python -m models.dice_detector.make_dataset --pips     # the same images, one class per face (1-6)
    python -m models.dice_detector.make_dataset --whole-die [DETECTOR_DIR]   # whole-die boxes in the real photos

Writes ``datasets/dice_detector/`` (ignored by git; regenerate it from the seed): ``images/{train,val}``,
``labels/{train,val}`` in YOLO format with one class (``die``), ``data.yaml`` and ``manifest.json``.
The real photos' val split is *not* written here: it is only ever read by ``evaluate``.

``--pips`` derives ``datasets/dice_pips/`` from it (the one-stage design: a detector whose classes are
the six faces), for the comparison with the two-stage reader; images are hard links, not copies.
"""

from __future__ import annotations

import argparse
import json
import shutil
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from models.dice_detector.evaluate import face_pairs, match, split_rows, yolo_labels
from vision.detect import DiceDetector

if TYPE_CHECKING:
    from vision.synth.game import RenderedGame
    from vision.synth.scene import Scene

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
REAL = ROOT.parent / "shared" / "datasets" / "real-d6-rune55"
OUT = ROOT / "datasets" / "dice_detector"
LONG_SIDE = 832  # synthetic frames are stored at twice the detector's input size
FRAME_SIZES = [(1280, 720), (1920, 1080), (960, 540), (1024, 768)]
"""The camera resolutions rendered games are filmed at (``game_frame``, ``crowded_frame``)."""


def _yolo_line(box: tuple[float, float, float, float], width: int, height: int, cls: int = 0) -> str:
    x0, y0, x1, y1 = box
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    cx, cy = (x0 + x1) / 2 / width, (y0 + y1) / 2 / height
    return f"{cls} {cx:.6f} {cy:.6f} {(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}"


def render_one(args: tuple[int, str, Path]) -> dict[str, object]:
    """Renders synthetic scene ``seed`` into ``split``; returns its manifest entry."""
    from vision.synth.scene import render_scene

    seed, split, out = args
    return _write_scene(render_scene(seed), f"synth_{seed:08d}", split, out, "synthetic")


def pile_frame(args: tuple[int, str, Path]) -> dict[str, object]:
    """Renders a photo of a heap of hobby dice (``vision.synth.pile``) into ``split``; its manifest entry."""
    from vision.synth.pile import render_pile

    seed, split, out = args
    return _write_scene(render_pile(seed), f"pile_{seed:08d}", split, out, "pile")


def _write_scene(scene: Scene, name: str, split: str, out: Path, source: str) -> dict[str, object]:
    """Writes a rendered scene (shrunk to ``LONG_SIDE``), its YOLO labels and its sidecar; its manifest entry."""
    height, width = scene.image.shape[:2]
    scale = min(1.0, LONG_SIDE / max(width, height))
    image = cv2.resize(scene.image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    lines = [_yolo_line(d.box, width, height) for d in scene.dice]
    (out / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    (out / "labels" / split / f"{name}.json").write_text(scene.sidecar())
    return {"image": name, "split": split, "dice": len(lines), "source": source, "seed": scene.seed}


GAME_COLOURS = ["red", "blue", "green", "black", "yellow", "grey", "violet", "orange"]
"""Player colours of the game frames."""


def game_still(seed: int, colours: Sequence[str] = GAME_COLOURS) -> tuple[RenderedGame, int]:
    """A rendered game on the play mat (the built-in game's look) and one of its frames at rest with dice.

    Players: 2 to 5 of ``colours``; any Las Vegas variant but six players (the neutral dice only without a
    white player); the whole game.
    """
    from vision.synth.game import RenderedGame

    rng = np.random.default_rng(seed)
    players = [str(c) for c in rng.choice(list(colours), int(rng.integers(2, 6)), replace=False)]
    rules = str(rng.choice(["las-vegas", "las-vegas+biggy", "las-vegas+neutral", "las-vegas+neutral+biggy"]))
    rules = rules.replace("+neutral", "") if "white" in players else rules  # white dice are a player's then
    size = FRAME_SIZES[int(rng.integers(len(FRAME_SIZES)))]
    game = RenderedGame(seed, players, rules, size=size, tilt_deg=float(rng.uniform(0, 45)))
    busy = [span for span in game.spans if span.moment.snapshot.all_dice()]
    span = busy[int(rng.integers(len(busy)))] if busy else game.spans[0]
    return game, span.first + span.hand  # at rest, no hand


def game_frame(args: tuple[int, str, Path]) -> dict[str, object]:
    """A still frame of a rendered game on the play mat (``game_still``), with its labels."""
    seed, split, out = args
    return _write_frame(*game_still(seed), f"game_{seed:08d}", split, out)


BOX_COLOURS = ["red", "blue", "green", "black", "yellow", "white", "grey", "violet", "orange"]
"""Player colours of the crowded frames: the base box's six (white among them) and three of Boulevard's."""


def crowded_frame(args: tuple[int, str, Path]) -> dict[str, object]:
    """A still frame late in a rendered round: crowded casinos, white dice as a player's or the neutral ones.

    The frames of ``game_frame`` never have a white player nor six players, and a moment drawn from the
    whole round is mostly one of few dice; the referee lost rounds to white dice missed on crowded casinos
    (the detector fine-tuned without these frames missed white dice 3 times as often as others, and 12 %
    of the dice on a casino of eight or more). Players: 2 to 6 of ``BOX_COLOURS``, white among them in half
    the games (the neutral dice, white too, in half the others); the moment: one of the last third of the
    first round's moments with dice.
    """
    from vision.synth.game import RenderedGame

    seed, split, out = args
    rng = np.random.default_rng(seed)
    count = int(rng.integers(2, 7))
    others = [c for c in BOX_COLOURS if c != "white"]
    white = count == 6 or rng.random() < 0.5
    players = [str(c) for c in rng.choice(others, count - white, replace=False)] + ["white"] * white
    players = [players[i] for i in rng.permutation(count)]
    variants = ["", "+biggy"] if white else ["", "+biggy", "+neutral", "+neutral+biggy"]  # white or neutral
    rules = "las-vegas" + "+six-players" * (count == 6) + str(rng.choice(variants))
    size = FRAME_SIZES[int(rng.integers(len(FRAME_SIZES)))]
    game = RenderedGame(seed, players, rules, size=size, tilt_deg=float(rng.uniform(0, 45)), rounds=1)
    busy = [span for span in game.spans if span.moment.snapshot.all_dice()] or game.spans[:1]
    span = busy[len(busy) * 2 // 3 + int(rng.integers(len(busy) - len(busy) * 2 // 3))]
    return _write_frame(game, span.first + span.hand, f"crowd_{seed:08d}", split, out)


ROYALE_COLOURS = ["red", "blue", "green", "black", "yellow", "white", "violet", "orange"]
"""Player colours of the Royale frames (white also the 2-player game's imaginary player when nobody plays it)."""


def royale_frame(args: tuple[int, str, Path]) -> dict[str, object]:
    """A still frame of a rendered Las Vegas Royale game (``royale_still``), with its labels."""
    seed, split, out = args
    return _write_frame(*royale_still(seed), f"royale_{seed:08d}", split, out)


def royale_still(seed: int) -> tuple[RenderedGame, int]:
    """A rendered Las Vegas Royale game on the Royale mat, with its cards, tiles and chips, and a frame at rest.

    The ring's sectors crowd sooner than the Las Vegas mat's rectangles, each colour has a Biggy, and money
    cards, tiles and chips lie beside the casinos (``vision.synth.props``): the detector fine-tuned without
    them found 92 % of the dice on a crowded Royale casino (96 % on the Las Vegas mat) and boxed three times
    as many things that are no die. Players: 2 to 5 of ``ROYALE_COLOURS``; the basic or the main game; a
    moment of the first two rounds with dice, from the last third of its round in half the frames.
    """
    from vision.synth.game import RenderedGame

    rng = np.random.default_rng(seed)
    players = [str(c) for c in rng.choice(ROYALE_COLOURS, int(rng.integers(2, 6)), replace=False)]
    rules = "las-vegas-royale" + str(rng.choice(["", "+main"]))
    size = FRAME_SIZES[int(rng.integers(len(FRAME_SIZES)))]
    game = RenderedGame(seed, players, rules, size=size, tilt_deg=float(rng.uniform(0, 45)), rounds=2)
    busy = [span for span in game.spans if span.moment.snapshot.all_dice()] or game.spans[:1]
    late = rng.random() < 0.5
    first = len(busy) * 2 // 3 if late else 0
    span = busy[first + int(rng.integers(len(busy) - first))]
    return game, span.first + span.hand


def _write_frame(game: RenderedGame, index: int, name: str, split: str, out: Path) -> dict[str, object]:
    """Writes frame ``index`` of ``game`` (shrunk to ``LONG_SIDE``) and its labels; its manifest entry."""
    image, truth = game.frame(index), game.truth(index)
    height, width = image.shape[:2]
    scale = min(1.0, LONG_SIDE / max(width, height))
    small = cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), small, [cv2.IMWRITE_JPEG_QUALITY, 92])
    lines = [_yolo_line(tuple(box), width, height) for box in truth.xyxy]
    (out / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    dice = [{"pips": int(p), "colour": str(c), "biggy": bool(b)}
            for p, c, b in zip(truth.data["pips"], truth.data["colour"], truth.data["biggy"], strict=True)]  # fmt: skip
    (out / "labels" / split / f"{name}.json").write_text(json.dumps({"seed": game.seed, "dice": dice}))
    return {"image": name, "split": split, "dice": len(lines), "source": name.split("_")[0], "seed": game.seed}


def whole_die_boxes(image: np.ndarray, boxes: np.ndarray, detector: DiceDetector) -> tuple[np.ndarray, int]:
    """The labelled boxes, each one of a die's top face widened to the whole die the detector finds there.

    real-d6-rune55's greyscale photos box each die's top face; the synthetic labels (and the issue)
    box the whole visible die. Where a detection holds a label's box as the die around a top face
    (``evaluate.face_pairs``: IoU under 0.5, the label inside it), the detection's box replaces the
    label's. Returns the boxes and how many were replaced. Only the detector's boxes are needed, so the
    die reader is not run.
    """
    found = detector.find(image)
    pairs = face_pairs(boxes, found.xyxy, match(boxes, found))
    boxes = boxes.copy()
    for i, j in pairs:
        boxes[i] = found.xyxy[j]
    return boxes, len(pairs)


def copy_real(real: Path, out: Path, detector: DiceDetector | None = None, copies: int = 1) -> list[dict[str, object]]:
    """Copies the real photos of the train split, every die relabelled as class 0.

    With ``detector``, boxes of a die's top face become boxes of the whole die (``whole_die_boxes``).
    With ``copies`` above 1 each photo and its labels are written that many times (``real_STEM~K``, hard
    links): the real photos then weigh more among the renders (each epoch augments each copy anew).
    """
    entries = []
    for row in split_rows(real, "train"):
        stem = Path(row["image"]).stem
        shutil.copy(real / "images" / row["image"], out / "images" / "train" / f"real_{row['image']}")
        widened = 0
        if detector is None:
            text = (real / "labels" / f"{stem}.txt").read_text()
            lines = [f"0 {' '.join(line.split()[1:])}" for line in text.splitlines() if line.strip()]
        else:
            image = cv2.imread(str(real / "images" / row["image"]))
            height, width = image.shape[:2]
            boxes, _ = yolo_labels(real / "labels" / f"{stem}.txt", width, height)
            boxes, widened = whole_die_boxes(image, boxes, detector)
            lines = [_yolo_line(tuple(float(v) for v in box), width, height) for box in boxes]
        (out / "labels" / "train" / f"real_{stem}.txt").write_text("\n".join(lines) + "\n")
        entries.append({"image": f"real_{stem}", "split": "train", "dice": len(lines), "source": "real",
                        "widened": widened})  # fmt: skip
        for k in range(1, copies):
            for folder, suffix in (("images", Path(row["image"]).suffix), ("labels", ".txt")):
                original = out / folder / "train" / f"real_{stem}{suffix}"
                (out / folder / "train" / f"real_{stem}~{k}{suffix}").hardlink_to(original)
            entries.append({"image": f"real_{stem}~{k}", "split": "train", "dice": len(lines), "source": "real"})
    return entries


def derive_pips(source: Path, real: Path, out: Path) -> dict[str, int]:
    """Writes the pips dataset: the detector dataset's images, each die labelled with its face (class pips-1)."""
    if out.exists():
        shutil.rmtree(out)
    counts = {"images": 0, "dice": 0}
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True)
        (out / "labels" / split).mkdir(parents=True)
        for image in sorted((source / "images" / split).glob("*.jpg")):
            stem = image.stem
            boxes = (source / "labels" / split / f"{stem}.txt").read_text().splitlines()
            if stem.startswith("real_"):
                original = (real / "labels" / f"{stem.removeprefix('real_').split('~')[0]}.txt").read_text().split("\n")
                classes = [int(line.split()[0]) for line in original if line.strip()]
            else:
                sidecar = json.loads((source / "labels" / split / f"{stem}.json").read_text())
                classes = [int(d["pips"]) - 1 for d in sidecar["dice"]]
            if len(classes) != len(boxes):
                raise SystemExit(f"{stem}: {len(boxes)} boxes but {len(classes)} faces: rebuild the dataset")
            lines = [f"{c} {' '.join(box.split()[1:])}" for c, box in zip(classes, boxes, strict=True)]
            (out / "labels" / split / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
            (out / "images" / split / image.name).hardlink_to(image)
            counts["images"] += 1
            counts["dice"] += len(lines)
    names = "".join(f"  {k}: '{k + 1}'\n" for k in range(6))
    (out / "data.yaml").write_text(f"path: {out}\ntrain: images/train\nval: images/val\nnames:\n{names}")
    return counts


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic-train", type=int, default=600)
    parser.add_argument("--synthetic-val", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1, help="synthetic seeds are derived from it")
    parser.add_argument("--real", type=Path, default=REAL, help="the real-d6-rune55 folder")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game-frames", type=int, default=0, help="also still frames of rendered games on the "
                        "play mat (the built-in game's look); 0 reproduces the shipped detector's dataset")  # fmt: skip
    parser.add_argument("--crowded-frames", type=int, default=0, help="also still frames late in rendered rounds "
                        "(crowded casinos, white players and neutral dice: crowded_frame)")  # fmt: skip
    parser.add_argument("--royale-frames", type=int, default=0, help="also still frames of rendered Las Vegas "
                        "Royale games (its mat, cards, tiles and chips: royale_frame)")  # fmt: skip
    parser.add_argument("--pile-frames", type=int, default=0, help="also photos of heaps of hobby dice (touching, "
                        "cut by the edge, close-ups, greyscale: vision.synth.pile)")  # fmt: skip
    parser.add_argument("--real-copies", type=int, default=1, help="write each real training photo this many times "
                        "(the real photos weigh more among the renders); 1: the shipped dataset")  # fmt: skip
    parser.add_argument("--pips", action="store_true", help="derive datasets/dice_pips from the built dataset")
    parser.add_argument("--whole-die", nargs="?", type=Path, const=HERE, metavar="DETECTOR_DIR",
                        help="widen the real photos' boxes of a die's top face to the whole die, as the detector "
                        "in DETECTOR_DIR (default: the shipped one, models/dice_detector) finds it")  # fmt: skip
    args = parser.parse_args()
    if args.pips:
        print(json.dumps(derive_pips(args.out, args.real, args.out.parent / "dice_pips")))
        return
    if not (args.real / "split.csv").exists():
        parser.error(f"no real dataset at {args.real} (expected split.csv there)")
    if args.out.exists():
        shutil.rmtree(args.out)
    for split in ("train", "val"):
        (args.out / "images" / split).mkdir(parents=True)
        (args.out / "labels" / split).mkdir(parents=True)
    if args.real_copies < 1:
        parser.error("--real-copies must be at least 1")
    entries = copy_real(args.real, args.out, DiceDetector(args.whole_die) if args.whole_die else None, args.real_copies)
    jobs = [(args.seed * 1_000_000 + i, "train", args.out) for i in range(args.synthetic_train)]
    jobs += [(args.seed * 1_000_000 + 500_000 + i, "val", args.out) for i in range(args.synthetic_val)]
    games = [(args.seed * 1_000_000 + 700_000 + i, "train" if i % 10 else "val", args.out)
             for i in range(args.game_frames)]  # fmt: skip
    crowds = [(args.seed * 1_000_000 + 800_000 + i, "train" if i % 10 else "val", args.out)
              for i in range(args.crowded_frames)]  # fmt: skip
    royales = [(args.seed * 1_000_000 + 900_000 + i, "train" if i % 10 else "val", args.out)
               for i in range(args.royale_frames)]  # fmt: skip
    piles = [(args.seed * 1_000_000 + 600_000 + i, "train" if i % 10 else "val", args.out)
             for i in range(args.pile_frames)]  # fmt: skip
    with ProcessPoolExecutor(args.workers) as pool:
        entries += list(pool.map(render_one, jobs, chunksize=8))
        entries += list(pool.map(game_frame, games, chunksize=4))
        entries += list(pool.map(crowded_frame, crowds, chunksize=4))
        entries += list(pool.map(royale_frame, royales, chunksize=4))
        entries += list(pool.map(pile_frame, piles, chunksize=4))
    (args.out / "data.yaml").write_text(f"path: {args.out}\ntrain: images/train\nval: images/val\nnames:\n  0: die\n")
    manifest = {"seed": args.seed, "synthetic_train": args.synthetic_train, "synthetic_val": args.synthetic_val,
                "game_frames": args.game_frames, "crowded_frames": args.crowded_frames,
                "royale_frames": args.royale_frames, "pile_frames": args.pile_frames, "real": str(args.real),
                "real_copies": args.real_copies, "whole_die": str(args.whole_die or ""),
                "widened": sum(int(e.get("widened", 0)) for e in entries), "images": entries}  # fmt: skip
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    counts = {s: sum(1 for e in entries if e["split"] == s) for s in ("train", "val")}
    print(json.dumps({"out": str(args.out), **counts, "dice": sum(int(e["dice"]) for e in entries)}))


if __name__ == "__main__":
    main()
