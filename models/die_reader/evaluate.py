"""Measures the shipped die reader (``reader.onnx``) on crops it never trained on.

    python -m models.die_reader.evaluate

Reads ``datasets/die_reader/val_real.npz`` (real photos' val split, exact boxes), ``val_synth.npz``
(held-out renders, jittered boxes) and, where made (``make_dataset --hard-val``), ``val_hard.npz`` (the
same held-out scenes with hard hobby dice: smoke, swirled, pearl, coloured pips, deep colours) and
``val_pile.npz`` (``--pile-frames``: held-out rendered photos of heaps of hobby dice), from
``datasets/die_reader_<size>/`` for a reader of another input size, runs the reader through
``vision.detect.read_crops`` exactly as inference does (with and without the quarter-turn averaging; the
size's relative error where the reader tells it), and writes
``metrics.json`` and ``metrics.csv`` beside this file.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import numpy as np
import onnxruntime as ort

from models.die_reader.make_dataset import HELD_OUT, dataset_dir
from vision.detect import read_crops

HERE = Path(__file__).resolve().parent


def measure(session: ort.InferenceSession, name: str) -> dict[str, float | int]:
    """Accuracy of pips (all crops) and colour (palette crops) on one set."""
    size = int(session.get_inputs()[0].shape[2])  # the crops the reader was made for
    with np.load(dataset_dir(size) / f"{name}.npz") as data:
        x, pips, colour = data["x"], data["pips"], data["colour"]
        truth_size = data["size"] if "size" in data.files else np.full(len(pips), np.nan)
    result: dict[str, float | int] = {"crops": len(pips)}
    for rotations in (1, 4):
        pip_p, colour_p, sizes = read_crops(session, x, rotations)
        measured = np.isfinite(truth_size) & np.isfinite(sizes)
        if rotations == 1 and measured.any():  # the die's size (Biggy or turned die), as a relative error
            error = np.abs(sizes[measured] / truth_size[measured] - 1)
            result["size_error_median"] = round(float(np.median(error)), 4)
            result["size_error_p90"] = round(float(np.percentile(error, 90)), 4)
        suffix = "" if rotations == 1 else "_4turns"
        result[f"pips_accuracy{suffix}"] = round(float((pip_p.argmax(1) == pips).mean()), 4)
        known = colour >= 0
        if known.any():
            result[f"colour_accuracy{suffix}"] = round(float((colour_p.argmax(1)[known] == colour[known]).mean()), 4)
    return result


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, default=HERE / "reader.onnx", help="another reader to measure")
    parser.add_argument("--no-write", action="store_true", help="print only, do not update metrics files")
    args = parser.parse_args()
    session = ort.InferenceSession(str(args.weights), providers=["CPUExecutionProvider"])
    size = int(session.get_inputs()[0].shape[2])
    sets = [name for name in HELD_OUT if (dataset_dir(size) / f"{name}.npz").exists()]
    results = {name: measure(session, name) for name in sets}
    print(json.dumps(results, indent=1))
    if args.no_write:
        return
    (HERE / "metrics.json").write_text(json.dumps(results, indent=1) + "\n")
    with open(HERE / "metrics.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["set", "metric", "value"])
        for name, values in results.items():
            for key, value in values.items():
                writer.writerow([name, key, value])


if __name__ == "__main__":
    main()
