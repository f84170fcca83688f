"""Drawing detections onto a frame: ``annotate(scene, detections) -> scene``. Pure, no I/O."""

from __future__ import annotations

import cv2
import numpy as np

from vision.colours import PALETTE
from vision.detections import Detections

__all__ = ["annotate"]


def annotate(scene: np.ndarray, detections: Detections) -> np.ndarray:
    """A copy of ``scene`` (BGR) with each die's box and its reading ("5 red", "B" for a Biggy)."""
    out = scene.copy()
    thickness = max(1, round(max(out.shape[:2]) / 800))
    for index, (x0, y0, x1, y1) in enumerate(detections.xyxy.round().astype(int)):
        colour_name = str(detections.data["colour"][index]) if "colour" in detections.data else ""
        ink = PALETTE.get(colour_name, (0, 255, 255))
        edge = (255, 255, 255) if sum(ink) < 200 else (0, 0, 0)
        cv2.rectangle(out, (x0, y0), (x1, y1), edge, thickness + 2, cv2.LINE_AA)
        cv2.rectangle(out, (x0, y0), (x1, y1), ink, thickness, cv2.LINE_AA)
        parts = []
        if "pips" in detections.data:
            parts.append(str(int(detections.data["pips"][index])))
        if colour_name:
            parts.append(colour_name)
        if "biggy" in detections.data and bool(detections.data["biggy"][index]):
            parts.append("B")
        label = " ".join(parts) or f"{detections.confidence[index]:.2f}"
        scale = 0.4 * thickness
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        top = max(y0 - th - 4, 0)
        cv2.rectangle(out, (x0, top), (x0 + tw + 4, top + th + 4), edge, -1)
        cv2.putText(out, label, (x0 + 2, top + th + 1), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 1, cv2.LINE_AA)
    return out
