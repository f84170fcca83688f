"""One columnar container for detections, passed between every vision stage (supervision's shape).

Boxes and confidences are arrays; per-die readings (pips, colour, Biggy, ...) are extra columns in
``data``. Filtering is boolean-mask indexing; an empty frame is ``Detections.empty()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Detections"]


@dataclass
class Detections:
    """N detections: ``xyxy`` (N, 4) pixel boxes, ``confidence`` (N,), and columns in ``data``.

    Example:
        >>> d = Detections(np.array([[0, 0, 10, 10], [5, 5, 20, 20]], float), np.array([0.9, 0.4]),
        ...                {"pips": np.array([3, 5])})
        >>> len(d[d.confidence > 0.5]), d[d.confidence > 0.5].data["pips"].tolist()
        (1, [3])
    """

    xyxy: np.ndarray
    """Boxes (x0, y0, x1, y1) in pixels of the original image."""
    confidence: np.ndarray
    """Detector confidence per box."""
    data: dict[str, np.ndarray] = field(default_factory=dict)
    """Extra per-detection columns, each of length N."""

    def __post_init__(self) -> None:
        self.xyxy = np.asarray(self.xyxy, dtype=np.float32).reshape(-1, 4)
        self.confidence = np.asarray(self.confidence, dtype=np.float32).reshape(-1)
        if len(self.confidence) != len(self.xyxy) or any(len(v) != len(self.xyxy) for v in self.data.values()):
            raise ValueError("every column of Detections needs one value per box")

    @classmethod
    def empty(cls) -> Detections:
        """No detections."""
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32))

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: Any) -> Detections:
        if isinstance(index, int | np.integer):
            index = [index]
        return Detections(self.xyxy[index], self.confidence[index], {k: v[index] for k, v in self.data.items()})

    @property
    def sides(self) -> np.ndarray:
        """Geometric mean of each box's width and height, in pixels."""
        wh = self.xyxy[:, 2:] - self.xyxy[:, :2]
        return np.sqrt(np.clip(wh[:, 0] * wh[:, 1], 0, None))

    @property
    def centres(self) -> np.ndarray:
        """Box centres (N, 2)."""
        return (self.xyxy[:, :2] + self.xyxy[:, 2:]) / 2
