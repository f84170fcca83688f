"""Non-maximum suppression: ours (``vision.detect.nms``) against OpenCV's ``cv2.dnn.NMSBoxes``.

Run with ``python bench/bench_nms.py``. Candidate sets like a frame's (dice of 20-60 px, each found
2-4 times with jittered boxes, some found again as their top face), timed side by side in one run,
and how often the two keep the same boxes. OpenCV's suppression knows only overlap, so it is timed
alone and followed by our rule for a part of a die found again (a box whose centre lies in the middle
of a better box), which must then run as a second pass.
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2
import numpy as np

from models.dice_detector.evaluate import cpu_description
from vision.detect import nms


def candidates(rng: np.random.Generator, dice: int) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (x1, y1, x2, y2) and scores of a frame's candidates before suppression."""
    boxes, scores = [], []
    for _ in range(dice):
        side = rng.uniform(20, 60)
        x, y = rng.uniform(0, 1200), rng.uniform(0, 660)
        for _ in range(rng.integers(2, 5)):
            jitter = rng.normal(0, side * 0.06, 4)
            boxes.append([x + jitter[0], y + jitter[1], x + side + jitter[2], y + side + jitter[3]])
            scores.append(rng.uniform(0.4, 0.95))
        if rng.random() < 0.2:  # its top face found on its own
            boxes.append([x + side * 0.2, y + side * 0.1, x + side * 0.8, y + side * 0.6])
            scores.append(rng.uniform(0.35, 0.6))
    return np.array(boxes, dtype=np.float32), np.array(scores, dtype=np.float32)


def opencv(boxes: np.ndarray, scores: np.ndarray, iou: float, core: float) -> np.ndarray:
    """``cv2.dnn.NMSBoxes`` (which takes x, y, w, h), then the part-of-a-die rule on what it kept."""
    xywh = np.concatenate([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]], axis=1)
    kept = np.asarray(cv2.dnn.NMSBoxes(xywh.tolist(), scores.tolist(), 0.0, iou), dtype=np.int64).reshape(-1)
    if core and len(kept):
        kept = kept[nms(boxes[kept], scores[kept], 1.1, core)]  # IoU never > 1.1: the core rule alone
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=2000)
    parser.add_argument("--dice", type=int, default=16, help="dice per frame")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    sets = [candidates(rng, args.dice) for _ in range(args.sets)]
    times: dict[str, list[float]] = {"ours": [], "opencv": [], "opencv, overlap only": []}
    same = 0
    runs = {"ours": lambda b, s: nms(b, s, 0.5, 0.8), "opencv": lambda b, s: opencv(b, s, 0.5, 0.8),
            "opencv, overlap only": lambda b, s: opencv(b, s, 0.5, 0.0)}  # fmt: skip
    for boxes, scores in sets:
        for name, run in runs.items():
            started = time.perf_counter()
            run(boxes, scores)
            times[name].append(time.perf_counter() - started)
        same += set(nms(boxes, scores, 0.5, 0.8).tolist()) == set(opencv(boxes, scores, 0.5, 0.8).tolist())
    print(f"{args.sets} candidate sets of {args.dice} dice ({np.mean([len(s) for _, s in sets]):.0f} boxes each), "
          f"{cpu_description()}, OpenCV {cv2.__version__}")  # fmt: skip
    for name, values in times.items():
        print(f"  {name}: median {1e6 * statistics.median(values):.0f} us a frame")
    print(f"  the same boxes kept by ours and opencv + the part-of-a-die pass: {same} of {args.sets} sets")


if __name__ == "__main__":
    main()
