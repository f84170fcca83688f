"""Contact sheets of the real val dice the shipped die reader misreads, to judge them by eye.

    python -m models.die_reader.audit [--out runs/die_reader/audit] [--weights reader.onnx] [--end-to-end]
        [--detector DIR]

Reads every labelled die of the real photos' val split from its exact box in four turns, as
``evaluate`` does, and writes ``misreads.csv`` (one row per misread die, numbered as on the sheets)
and ``sheet_<k>.png`` (24 dice a sheet, each shown 160 px wide with its number, label and reading).
The audit of v7's misreads, each judged by eye, is ``real_val_misreads.csv`` beside this file (its
``by_eye`` column; see the model card).

With ``--end-to-end``, the dice the whole reader (detector and die reader, as ``evaluate`` reads a photo; the
shipped detector or ``--detector``'s) does not read right, found or not, that no verdict names yet:
``end_to_end.csv`` and its sheets. Their verdicts are ``real_val_end_to_end.csv`` beside this file;
``evaluate``'s readable figures leave out every die either file judges unreadable, ambiguous or wrongly labelled.
"""

from __future__ import annotations

import argparse
import csv
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from models.dice_detector.evaluate import REAL, _judged, judged_dice, match, split_rows, yolo_labels
from vision.crops import crop_die
from vision.detect import MODELS, DiceDetector, read_crops

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIELDS = ["number", "image", "x0", "y0", "x1", "y1", "label", "read", "confidence", "colour_photo"]


def _val_photos(real: Path) -> Iterator[tuple[dict[str, str], np.ndarray, np.ndarray, list[int]]]:
    """Each val photo of split.csv in order: its row, the image, its labelled boxes and pips."""
    for row in split_rows(real, "val"):
        image = cv2.imread(str(real / "images" / row["image"]))
        if image is None:
            raise SystemExit(f"cannot read {real / 'images' / row['image']}")
        boxes, pips = yolo_labels(real / "labels" / f"{Path(row['image']).stem}.txt", image.shape[1], image.shape[0])
        yield row, image, boxes, pips


def _listed(found: list[dict[str, object]], row: dict[str, str], box: np.ndarray, label: int, read: object,
            confidence: object) -> None:  # fmt: skip
    """Appends a die not read right to ``found``, numbered as on the sheets, its box rounded to 0.1 px."""
    corners = dict(zip(("x0", "y0", "x1", "y1"), (round(float(v), 1) for v in box), strict=True))
    found.append({"number": len(found), "image": row["image"], **corners, "label": label, "read": read,
                  "confidence": confidence, "colour_photo": row.get("colour") == "colour"})  # fmt: skip


def misreads(session: ort.InferenceSession, real: Path) -> list[dict[str, object]]:
    """Every val die whose pips the reader gets wrong, in the order of split.csv."""
    size = int(session.get_inputs()[0].shape[2])
    found: list[dict[str, object]] = []
    for row, image, boxes, pips in _val_photos(real):
        if not len(boxes):
            continue
        pip_p, _, _ = read_crops(session, np.stack([crop_die(image, box, size) for box in boxes]), 4)
        for box, label, p in zip(boxes, pips, pip_p, strict=True):
            if int(p.argmax()) + 1 != label:
                _listed(found, row, box, label, int(p.argmax()) + 1, round(float(p.max()), 3))
    return found


def failures(detector: DiceDetector, real: Path, judged: dict[str, np.ndarray]) -> list[dict[str, object]]:
    """Every val die the whole reader (detector and die reader, as ``evaluate``) does not read right, not judged yet.

    A die is read right as in ``evaluate``'s readable figure (IoU >= 0.5, or its top face's label inside
    the detected die); ``read`` is empty for a die not found. Dice in ``judged`` (per photo, boxes already
    judged by eye: ``evaluate.judged_dice``) are left out.
    """
    found: list[dict[str, object]] = []
    for row, image, boxes, pips in _val_photos(real):
        detections = detector(image)
        pairs = dict(match(boxes, detections, faces=True))
        seen = _judged(boxes, judged.get(row["image"]))
        for i, (box, label) in enumerate(zip(boxes, pips, strict=True)):
            j = pairs.get(i)
            read = None if j is None else int(detections.data["pips"][j])
            if read != label and not seen[i]:
                confidence = "" if j is None else round(float(detections.confidence[j]), 3)
                _listed(found, row, box, label, "" if read is None else read, confidence)
    return found


def sheets(found: list[dict[str, object]], real: Path, out: Path, per_sheet: int = 24, columns: int = 6) -> int:
    """Writes the contact sheets; returns how many."""
    tiles, images = [], {}
    for die in found:  # the misread dice of one photo come one after another: each photo is read once
        if die["image"] not in images:
            images = {die["image"]: cv2.imread(str(real / "images" / str(die["image"])))}
        image = images[die["image"]]
        box = np.array([die["x0"], die["y0"], die["x1"], die["y1"]], dtype=np.float64)
        tile = crop_die(image, box, 160, 0.35)
        cv2.putText(tile, f"#{die['number']} L{die['label']} R{die['read']}", (3, 14), cv2.FONT_HERSHEY_SIMPLEX,
                    0.45, (0, 0, 255), 1, cv2.LINE_AA)  # fmt: skip
        tiles.append(tile)
    count = 0
    for start in range(0, len(tiles), per_sheet):
        part = tiles[start : start + per_sheet]
        part += [np.zeros_like(part[0])] * (-len(part) % columns)
        grid = np.vstack([np.hstack(part[i : i + columns]) for i in range(0, len(part), columns)])
        cv2.imwrite(str(out / f"sheet_{count}.png"), grid)
        count += 1
    return count


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", type=Path, default=REAL, help="the real dataset (images/, labels/, split.csv)")
    parser.add_argument("--weights", type=Path, default=HERE / "reader.onnx")
    parser.add_argument("--detector", type=Path, default=MODELS / "dice_detector",
                        help="with --end-to-end: another detector (a candidate's failures to judge)")  # fmt: skip
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "die_reader" / "audit")
    parser.add_argument(
        "--end-to-end",
        action="store_true",
        help="the dice the whole reader (--detector and --weights, photos read as detect reads them) does "
        "not read right and no verdict names yet: end_to_end.csv and sheets",
    )
    args = parser.parse_args()
    if not (args.real / "split.csv").exists():
        parser.error(f"no real dataset at {args.real} (expected split.csv there)")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.end_to_end:
        detector = DiceDetector.for_photos(args.detector, args.weights.parent)  # as detect reads photos
        found, name = failures(detector, args.real, judged_dice()), "end_to_end.csv"
    else:
        session = ort.InferenceSession(str(args.weights), providers=["CPUExecutionProvider"])
        found, name = misreads(session, args.real), "misreads.csv"
    with open(args.out / name, "w", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(found)
    print(f"{len(found)} dice not read right; {sheets(found, args.real, args.out)} sheets in {args.out}")


if __name__ == "__main__":
    main()
