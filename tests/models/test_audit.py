"""The audit's list of misread real dice and its contact sheets, on committed real fixture photos."""

import csv
import shutil
from pathlib import Path

import cv2
import onnxruntime as ort
import pytest

from models.dice_detector.evaluate import yolo_labels
from models.die_reader.audit import misreads, sheets
from vision.detect import MODELS

FIXTURES = Path(__file__).parents[1] / "vision" / "fixtures" / "real"
READER = MODELS / "die_reader" / "reader.onnx"
pytestmark = pytest.mark.skipif(not READER.exists(), reason="trained weights not committed yet")


def _dataset(root: Path, photos: list[Path]) -> Path:
    """A real dataset's layout (images/, labels/, split.csv) holding ``photos`` in its val split."""
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    for photo in photos:
        shutil.copy(photo, root / "images" / photo.name)
        shutil.copy(photo.with_suffix(".txt"), root / "labels" / photo.with_suffix(".txt").name)
    with open(root / "split.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["image", "split", "colour"])
        writer.writerows([[photo.name, "val", "grey"] for photo in photos])
        writer.writerow(["not-in-val.jpg", "train", "grey"])  # the train split is not audited
    return root


def test_a_wrong_label_is_listed_with_what_the_reader_reads_and_drawn_on_a_sheet(tmp_path):
    photos = sorted(FIXTURES.glob("*.jpg"))[:2]
    real = _dataset(tmp_path / "real", photos)
    session = ort.InferenceSession(str(READER), providers=["CPUExecutionProvider"])
    before = misreads(session, real)
    assert {die["image"] for die in before} <= {photo.name for photo in photos}
    # Give a die the reader reads right another label: it is listed, read as its label was.
    image = cv2.imread(str(photos[0]))
    boxes, pips = yolo_labels(photos[0].with_suffix(".txt"), image.shape[1], image.shape[0])
    listed = {(d["image"], d["x0"], d["y0"]) for d in before}
    right = next(i for i, box in enumerate(boxes) if (photos[0].name, round(box[0], 1), round(box[1], 1)) not in listed)
    lines = photos[0].with_suffix(".txt").read_text().splitlines()
    cls, *rest = lines[right].split()
    lines[right] = " ".join([str((int(cls) + 1) % 6), *rest])
    (real / "labels" / photos[0].with_suffix(".txt").name).write_text("\n".join(lines) + "\n")
    after = misreads(session, real)
    new = [d for d in after if (d["image"], d["x0"], d["y0"]) not in listed]
    assert len(new) == 1 and len(after) == len(before) + 1
    assert new[0]["label"] == (pips[right] % 6) + 1 and new[0]["read"] == pips[right]
    assert [d["number"] for d in after] == list(range(len(after)))
    # Contact sheets: four dice a sheet in two columns, each 160 px.
    assert sheets(after, real, tmp_path, per_sheet=4, columns=2) == -(-len(after) // 4)
    assert cv2.imread(str(tmp_path / "sheet_0.png")).shape == (160 * min(2, -(-len(after) // 2)), 320, 3)


def test_the_dice_the_whole_reader_gets_wrong_are_listed_unless_judged_already(tmp_path):
    import numpy as np

    from models.die_reader.audit import failures
    from vision.detections import Detections

    photo = sorted(FIXTURES.glob("*.jpg"))[0]
    real = _dataset(tmp_path / "real", [photo])
    image = cv2.imread(str(photo))
    boxes, pips = yolo_labels(photo.with_suffix(".txt"), image.shape[1], image.shape[0])
    assert len(boxes) >= 3

    def detector(picture):  # every die but the first found, the second read one pip off
        read = [p if i != 1 else p % 6 + 1 for i, p in enumerate(pips)]
        return Detections(boxes[1:], np.full(len(boxes) - 1, 0.8), {"pips": np.array(read[1:])})

    found = failures(detector, real, {})
    assert [(d["label"], d["read"], d["confidence"]) for d in found] == [
        (pips[0], "", ""),
        (pips[1], pips[1] % 6 + 1, 0.8),
    ]
    assert failures(detector, real, {photo.name: np.round(boxes[:1], 1)}) == [{**found[1], "number": 0}]


def test_end_to_end_lists_the_failures_of_the_detector_named(tmp_path, monkeypatch, capsys):
    """``--detector``: a candidate detector's failures, to judge by eye before comparing it with the shipped one."""
    from models.die_reader.audit import main
    from vision.detect import ModelError

    real = _dataset(tmp_path / "real", sorted(FIXTURES.glob("*.jpg"))[:1])
    candidate = tmp_path / "candidate"
    shutil.copytree(MODELS / "dice_detector", candidate, ignore=shutil.ignore_patterns("checkpoint"))
    argv = ["audit", "--real", str(real), "--end-to-end", "--out", str(tmp_path / "out"), "--detector"]
    monkeypatch.setattr("sys.argv", [*argv, str(candidate)])
    main()
    with open(tmp_path / "out" / "end_to_end.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert f"{len(rows)} dice not read right" in capsys.readouterr().out
    (candidate / "detector.onnx").unlink()  # a candidate folder without its weights is refused, not the shipped read
    monkeypatch.setattr("sys.argv", [*argv, str(candidate)])
    with pytest.raises(ModelError, match="candidate"):
        main()
