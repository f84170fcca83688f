"""Square crops around dice: one implementation for training data and for inference."""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["CROP_MARGIN", "CROP_SIZE", "crop_die", "silhouette"]

CROP_SIZE = 40
"""Side of the crop the die reader sees, in pixels."""
CROP_MARGIN = 0.15
"""Context kept around the box, as a fraction of its larger side on each side."""


def crop_die(image: np.ndarray, box: tuple[float, float, float, float] | np.ndarray, size: int = CROP_SIZE,
             margin: float = CROP_MARGIN) -> np.ndarray:  # fmt: skip
    """The square crop centred on ``box`` (x0, y0, x1, y1 in pixels), resized to ``size`` x ``size``.

    Pixels outside the image repeat its border. The channel order is the image's (BGR from OpenCV).
    """
    x0, y0, x1, y1 = (float(v) for v in box)
    side = max(x1 - x0, y1 - y0, 1.0) * (1 + 2 * margin)
    left = int(np.floor((x0 + x1 - side) / 2))
    top = int(np.floor((y0 + y1 - side) / 2))
    span = max(int(np.ceil(side)), 1)
    height, width = image.shape[:2]
    # The part inside the image, then the border repeated for the part outside.
    cx0, cy0 = min(max(left, 0), width - 1), min(max(top, 0), height - 1)
    cx1, cy1 = max(min(left + span, width), cx0 + 1), max(min(top + span, height), cy0 + 1)
    roi = image[cy0:cy1, cx0:cx1]
    pads = (cy0 - top, top + span - cy1, cx0 - left, left + span - cx1)
    if any(pads):
        roi = cv2.copyMakeBorder(roi, *(max(p, 0) for p in pads), cv2.BORDER_REPLICATE)
    interpolation = cv2.INTER_AREA if roi.shape[0] > size else cv2.INTER_LINEAR
    return cv2.resize(roi, (size, size), interpolation=interpolation)


def silhouette(image: np.ndarray, box: tuple[float, float, float, float] | np.ndarray) -> np.ndarray | None:
    """The smallest rotated rectangle around the die inside ``box``: its four corners in pixels.

    A box grows by up to 41 % as a die turns about the vertical; the rotated rectangle does not. The
    die is what differs from the table around the box (its colour, in CIELAB). Returns None when no
    clear silhouette stands out (a die the colour of the table).
    """
    x0, y0, x1, y1 = (round(float(v)) for v in box)
    ring = max(2, round(0.1 * max(x1 - x0, y1 - y0)))
    height, width = image.shape[:2]
    left, top = max(0, x0 - ring), max(0, y0 - ring)
    roi = image[top : min(height, y1 + ring), left : min(width, x1 + ring)]
    if roi.shape[0] < 3 * ring or roi.shape[1] < 3 * ring:
        return None
    lab = cv2.cvtColor(roi, cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[:ring].reshape(-1, 3), lab[-ring:].reshape(-1, 3), lab[:, :ring].reshape(-1, 3),
                             lab[:, -ring:].reshape(-1, 3)])  # fmt: skip
    differs = (np.linalg.norm(lab - np.median(border, axis=0), axis=2) > 25).astype(np.uint8)
    differs = cv2.morphologyEx(differs, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(differs)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    points = np.column_stack(np.nonzero(labels == largest)[::-1]).astype(np.float32)
    rect = cv2.minAreaRect(points)
    return np.asarray(cv2.boxPoints(rect), dtype=np.float64) + np.array([left, top], dtype=np.float64)
