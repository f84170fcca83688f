"""Named die colours: the palette the renderer draws and the reader names.

The base box has red, blue, green, black and white dice; Las Vegas Boulevard adds yellow, grey and
violet; Royale and hobby dice add the rest. Colour values are BGR (OpenCV's order).
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["PALETTE", "PALETTE_NAMES", "nearest_colour"]

PALETTE: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 200),
    "blue": (170, 80, 30),
    "green": (60, 150, 40),
    "black": (35, 35, 35),
    "white": (235, 235, 235),
    "yellow": (40, 210, 235),
    "grey": (140, 140, 140),
    "violet": (150, 50, 120),
    "orange": (30, 130, 240),
    "pink": (180, 120, 240),
    "brown": (40, 75, 120),
    "cyan": (210, 200, 60),
}
#: Palette names in a fixed order: the colour classes of the die reader.
PALETTE_NAMES: tuple[str, ...] = tuple(PALETTE)

_LAB = cv2.cvtColor(np.uint8([list(PALETTE.values())]), cv2.COLOR_BGR2LAB)[0].astype(np.float32)


def nearest_colour(bgr: tuple[int, int, int] | np.ndarray) -> str:
    """The palette name nearest to a BGR colour, measured in CIELAB."""
    lab = cv2.cvtColor(np.uint8([[np.clip(bgr, 0, 255)]]), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    return PALETTE_NAMES[int(np.argmin(np.linalg.norm(_LAB - lab, axis=1)))]
