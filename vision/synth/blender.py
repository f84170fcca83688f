"""Photoreal dice photos from Blender's Cycles renderer (Debian's ``blender`` package), for training.

The scene script ``vision/synth/blender_dice.py`` runs inside Blender (which has neither numpy nor
OpenCV); this module starts it and reads what it wrote. Rendering is slow (about 2 s a 320x240 photo at
16 samples on two cores, against a fraction of a second for a whole procedural table), so photos are
rendered once into a folder and read from there:

    python -m vision.synth.blender --seed 1 --count 200 --out datasets/blender
    python -m models.die_reader.make_dataset --blender datasets/blender

Example:
    >>> photos = render(1, 2, Path("datasets/blender"))  # doctest: +SKIP
    >>> image, dice = load(photos[0])  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.synth.scene import DieLabel

SCRIPT = Path(__file__).with_name("blender_dice.py")

__all__ = ["BlenderError", "load", "render"]


class BlenderError(RuntimeError):
    """Blender is missing or a render failed; the message says which and what to do."""


def render(seed: int, count: int, out: Path, samples: int = 32, size: tuple[int, int] = (320, 240),
           first: int = 0, blender: str = "blender") -> list[Path]:  # fmt: skip
    """Renders ``count`` photos of seed ``seed`` into ``out``; returns their PNG paths.

    Raises:
        BlenderError: Blender is not installed (``apt install blender``) or the render failed.
    """
    executable = shutil.which(blender)
    if executable is None:
        raise BlenderError(f"{blender!r} not found: install Debian's blender package (apt install blender) "
                           "to render photoreal dice")  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    command = [executable, "-b", "--factory-startup", "--python", str(SCRIPT), "--", "--seed", str(seed),
               "--count", str(count), "--first", str(first), "--samples", str(samples), "--size", str(size[0]),
               str(size[1]), "--out", str(out)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    names = [out / f"{seed}_{index:04d}.png" for index in range(first, first + count)]
    missing = [p.name for p in names if not p.exists() or not p.with_suffix(".json").exists()]
    if result.returncode != 0 or missing or "Traceback" in result.stdout + result.stderr:
        tail = (result.stdout + result.stderr).strip().splitlines()[-5:]
        raise BlenderError(f"Blender failed (exit {result.returncode}, missing {missing[:3]}): " + " | ".join(tail))
    return names


def load(png: Path) -> tuple[np.ndarray, list[DieLabel]]:
    """A rendered photo (BGR) and the labels written beside it, as the procedural renderer's labels."""
    image = cv2.imread(str(png))
    labels = png.with_suffix(".json")
    if image is None or not labels.exists():
        raise BlenderError(f"{png} is not a readable Blender render with its labels ({labels.name})")
    # Dice lie apart in these scenes (none hidden) and are off the casinos (zone 0).
    dice = [
        DieLabel(tuple(d["box"]), int(d["pips"]), str(d["colour"]), bool(d["biggy"]), 0, 1.0, True, float(d["size"]))
        for d in json.loads(labels.read_text())["dice"]
    ]
    return image, dice


def main() -> None:
    """Command-line entry point: renders photos into a folder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="index of the first photo (to continue a folder)")
    parser.add_argument("--samples", type=int, default=32, help="Cycles samples per pixel")
    parser.add_argument("--size", type=int, nargs=2, default=(320, 240), metavar=("WIDTH", "HEIGHT"))
    parser.add_argument("--out", type=Path, default=Path("datasets/blender"))
    args = parser.parse_args()
    try:
        for path in render(args.seed, args.count, args.out, args.samples, tuple(args.size), args.first):
            print(path)
    except BlenderError as error:
        sys.exit(f"error: {error}")


if __name__ == "__main__":
    main()
