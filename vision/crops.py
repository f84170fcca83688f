"""Square crops around dice: one implementation for training data and for inference."""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["CONTEXT_STATS", "CROP_MARGIN", "CROP_SIZE", "crop_die", "die_context", "silhouette"]

CROP_SIZE = 40
"""Side of the crop the die reader sees, in pixels."""
CROP_MARGIN = 0.15
"""Context kept around the box, as a fraction of its larger side on each side."""
CONTEXT_STATS = 4
"""Numbers per colour channel in :func:`die_context`: the frame's 5th, 50th and 95th percentiles, the ring's median."""


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


def die_context(image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The light around each die, which a crop alone does not show: (N, 3, CONTEXT_STATS) float32, 0..1.

    Per colour channel (the image's order): the whole frame's 5th, 50th and 95th percentiles (the
    light's strength and colour: a white die in dim light and a grey one in bright light give the same
    crop) and the median of the table in a ring around the die, out to 1.5 times its box's larger side
    from its centre (what shows through a translucent die, and the light where it lies). Both are read
    from every ``step``-th pixel only (about 80 across the frame, 24 across a ring): about 1 ms a frame of 20 dice.
    """
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    height, width = image.shape[:2]
    step = max(1, max(height, width) // 80)
    frame = np.percentile(image[::step, ::step].reshape(-1, 3), (5, 50, 95), axis=0).T  # (3 channels, 3)
    out = np.empty((len(boxes), 3, CONTEXT_STATS), np.float32)
    out[:, :, :3] = frame
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        side = max(x1 - x0, y1 - y0, 1.0)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        left, top = int(np.clip(cx - 1.5 * side, 0, width - 1)), int(np.clip(cy - 1.5 * side, 0, height - 1))
        right, bottom = int(np.clip(cx + 1.5 * side, left + 1, width)), int(np.clip(cy + 1.5 * side, top + 1, height))
        ring_step = max(1, int(3 * side) // 24)
        ys, xs = np.mgrid[top:bottom:ring_step, left:right:ring_step]
        outside = (np.abs(xs - cx) > 0.6 * side) | (np.abs(ys - cy) > 0.6 * side)  # not the die itself
        pixels = image[top:bottom:ring_step, left:right:ring_step][outside]
        out[i, :, 3] = np.median(pixels, axis=0) if len(pixels) else frame[:, 1]
    return out / 255.0


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
