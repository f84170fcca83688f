"""The detector's dataset builder writes each rendered photo with labels that agree with its sidecar."""

import json

import cv2

from models.dice_detector.make_dataset import pile_frame, render_one


def test_rendered_photos_are_written_with_yolo_labels_and_their_sidecar(tmp_path):
    for folder in ("images", "labels"):
        (tmp_path / folder / "train").mkdir(parents=True)
    entries = [pile_frame((1_600_009, "train", tmp_path)), render_one((1_000_003, "train", tmp_path))]
    assert [e["source"] for e in entries] == ["pile", "synthetic"]
    for entry in entries:
        image = cv2.imread(str(tmp_path / "images" / "train" / f"{entry['image']}.jpg"))
        assert image is not None and max(image.shape[:2]) <= 832
        lines = (tmp_path / "labels" / "train" / f"{entry['image']}.txt").read_text().split()
        sidecar = json.loads((tmp_path / "labels" / "train" / f"{entry['image']}.json").read_text())
        assert entry["dice"] == len(lines) // 5 == len(sidecar["dice"]) > 0
        values = [float(v) for v in lines]
        assert all(v == 0 for v in values[0::5]) and all(0 <= v <= 1 for k, v in enumerate(values) if k % 5)
