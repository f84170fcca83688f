"""Square crops around dice: one implementation for training data and for inference."""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["CROP_MARGIN", "CROP_SIZE", "crop_die"]

CROP_SIZE = 48
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
