"""Trains the die detector from scratch on CPU, resumably, and exports it to ONNX.

    python -m models.dice_detector.train [--epochs 30] [--imgsz 416] [--batch 16]   # start or resume
    python -m models.dice_detector.train --export                                   # last/best -> ONNX

Training runs in ``runs/dice_detector/train`` (ignored by git). A run that stops (the session ends)
resumes from ``runs/.../weights/last.pt`` or, on a fresh clone, from a committed
``models/dice_detector/checkpoint/last.pt`` (``--save-checkpoint``); on resuming, ``--epochs`` sets the
length of the schedule (the shipped run was started with 40 epochs and shortened to 30 after epoch 13).
``--export`` writes ``detector.onnx`` and ``config.json`` (the exact arguments that produced it) into this
folder. The finished run's weights are kept as ``checkpoint/final.pt``, where fine-tunes start
(``--pips``, the one-stage comparison).
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
from pathlib import Path

import models.torch_compat  # noqa: F401  (first: torchvision's NMS, offline ultralytics)
from models.portable import portable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RUN = ROOT / "runs" / "dice_detector" / "train"
DATA = ROOT / "datasets" / "dice_detector" / "data.yaml"
CHECKPOINT = HERE / "checkpoint" / "last.pt"
"""An interrupted run, committed so that another session resumes it (absent once training finished)."""
FINAL = HERE / "checkpoint" / "final.pt"
"""The finished detector's weights (best.pt of the shipped run): the start of fine-tunes."""

TRAIN_ARGS = {
    "imgsz": 416,
    "epochs": 30,
    "batch": 16,
    "single_cls": True,
    "device": "cpu",
    "workers": 0,
    "amp": False,
    "plots": False,
    "cache": "ram",
    "seed": 0,
    "deterministic": True,
    "optimizer": "SGD",
    "lr0": 0.01,
    "cos_lr": True,
    "close_mosaic": 10,
    "flipud": 0.5,
    "degrees": 10.0,
    "patience": 100,
    "save_period": 1,
}


TUNE_RUN = ROOT / "runs" / "dice_detector" / "finetune"
TUNE_ARGS = {"lr0": 0.002, "warmup_epochs": 0.5, "cos_lr": True}
"""A fine-tune starts from trained weights: a tenth of the learning rate, almost no warm-up."""

PIPS_RUN = ROOT / "runs" / "dice_pips" / "train"
PIPS_DATA = ROOT / "datasets" / "dice_pips" / "data.yaml"


def _tune(run: Path, data: Path, start: Path, settings: dict[str, object], restart: bool) -> None:
    """Trains ``run`` from the weights ``start`` (every layer whose shape fits), or resumes it."""
    from ultralytics import YOLO

    last = run / "weights" / "last.pt"
    if last.exists() and not restart:
        _check_resumable(last)
        print(f"resuming from {last}", flush=True)
        YOLO(str(last)).train(resume=True)
        return
    model = YOLO("yolo11n.yaml").load(str(start))
    model.train(data=str(data), project=str(run.parent), name=run.name, exist_ok=True, **settings)


def train_pips(args: argparse.Namespace) -> None:
    """The one-stage comparison: a detector with a class per face, fine-tuned from our die detector."""
    start = RUN / "weights" / "best.pt" if (RUN / "weights" / "best.pt").exists() else FINAL
    settings = {**TRAIN_ARGS, "single_cls": False, "imgsz": args.imgsz, "epochs": args.epochs, "batch": args.batch,
                "close_mosaic": min(3, args.epochs // 3)}  # fmt: skip
    _tune(PIPS_RUN, PIPS_DATA, start, settings, args.restart)  # every layer but the class head from our detector


def finetune(args: argparse.Namespace) -> None:
    """Fine-tunes the finished detector (``checkpoint/final.pt``) on the current dataset, resumably.

    For a dataset that adds what the shipped run did not see (``make_dataset --game-frames N``: still
    frames of rendered games on the play mat, the built-in game's look).
    """
    settings = {**TRAIN_ARGS, **TUNE_ARGS, "imgsz": args.imgsz, "epochs": args.epochs, "batch": args.batch,
                "close_mosaic": max(1, args.epochs // 2)}  # fmt: skip
    _tune(TUNE_RUN, DATA, FINAL, settings, args.restart)


def train(args: argparse.Namespace) -> None:
    """Starts training, or resumes the interrupted run (or the committed checkpoint)."""
    from ultralytics import YOLO

    last = RUN / "weights" / "last.pt"
    if not last.exists() and CHECKPOINT.exists():
        last.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CHECKPOINT, last)
    if last.exists() and not args.restart:
        _check_resumable(last)
        print(f"resuming from {last}", flush=True)
        _set_schedule_length(last, args.epochs)
        YOLO(str(last)).train(resume=True)
        return
    settings = {**TRAIN_ARGS, "imgsz": args.imgsz, "epochs": args.epochs, "batch": args.batch}
    model = YOLO("yolo11n.yaml")
    model.train(data=str(DATA), project=str(RUN.parent), name=RUN.name, exist_ok=True, **settings)


def _check_resumable(last: Path) -> None:
    """Stops with a clear message when ``last`` is a finished run (nothing to resume).

    Ultralytics strips a finished run's checkpoint (no optimizer, epoch -1); asked to resume it, it
    would quietly start another run on its default dataset instead.
    """
    import torch

    checkpoint = torch.load(last, map_location="cpu", weights_only=False)
    if int(checkpoint.get("epoch", -1)) < 0 or checkpoint.get("optimizer") is None:
        raise SystemExit(f"{last} is a finished run, nothing to resume: export it (--export), or train anew "
                         "with --restart")  # fmt: skip


def _set_schedule_length(last: Path, epochs: int) -> None:
    """Rewrites the checkpoint's epoch count: ultralytics resumes with the checkpoint's own arguments."""
    import torch

    checkpoint = torch.load(last, map_location="cpu", weights_only=False)
    done = int(checkpoint["epoch"]) + 1
    if checkpoint["train_args"]["epochs"] == epochs:
        return
    if epochs <= done:
        raise SystemExit(f"{last} has already trained {done} epochs; --epochs must be more than that")
    print(f"schedule: {checkpoint['train_args']['epochs']} -> {epochs} epochs", flush=True)
    checkpoint["train_args"]["epochs"] = epochs
    torch.save(checkpoint, last)


def export(args: argparse.Namespace) -> None:
    """Exports the trained weights to ONNX beside their config."""
    from ultralytics import YOLO

    run = PIPS_RUN if args.pips else TUNE_RUN if args.finetune else RUN
    weights = run / "weights" / ("best.pt" if args.best else "last.pt")
    if not weights.exists() and not args.pips and FINAL.exists():
        weights = FINAL  # a fresh clone: the finished run's committed weights
    model = YOLO(str(weights))
    onnx = Path(model.export(format="onnx", imgsz=model.ckpt["train_args"]["imgsz"], opset=17, simplify=True,
                             dynamic=True))  # fmt: skip
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    shutil.move(onnx, out / "detector.onnx")
    train_args = {k: v for k, v in model.ckpt["train_args"].items() if isinstance(v, str | int | float | bool | None)}
    tuned = args.pips or args.finetune
    config = {
        "model": "yolo11n.yaml, fine-tuned from our die detector" if tuned else "yolo11n.yaml (from scratch)",
        "classes": [str(k) for k in range(1, 7)] if args.pips else ["die"],
        "input_size": train_args["imgsz"],
        "dynamic": True,
        "weights": "detector.onnx",
        "epochs_trained": _epochs(model.ckpt, run, args.best),
        "train_args": train_args,
        "dataset": json.loads((DATA.parent / "manifest.json").read_text())
        | {"images": "(see manifest)", "labels": "faces" if args.pips else "die"},
    }
    (out / "config.json").write_text(json.dumps(portable(config), indent=1) + "\n")
    print(f"wrote {out / 'detector.onnx'} and config.json")


def _epochs(checkpoint: dict[str, object], run: Path, best: bool = True) -> int:
    """Epochs behind the weights (a finished run's weights no longer say; its results.csv does).

    For best.pt: the epoch of highest fitness, 0.1 mAP50 + 0.9 mAP50-95, as ultralytics chooses it;
    for last.pt: the last epoch.
    """
    epoch = int(checkpoint.get("epoch", -1))  # type: ignore[call-overload]
    if epoch >= 0 or not (run / "results.csv").exists():
        return epoch + 1
    with open(run / "results.csv", newline="") as handle:
        rows = [{k.strip(): v for k, v in row.items()} for row in csv.DictReader(handle)]
    if not best:
        return int(float(rows[-1]["epoch"]))
    chosen = max(rows, key=lambda r: 0.1 * float(r["metrics/mAP50(B)"]) + 0.9 * float(r["metrics/mAP50-95(B)"]))
    return int(float(chosen["epoch"]))


def save_checkpoint() -> None:
    """Copies the run's last.pt into the repository so that the next session can resume."""
    CHECKPOINT.parent.mkdir(exist_ok=True)
    shutil.copy(RUN / "weights" / "last.pt", CHECKPOINT)
    print(f"checkpoint saved to {CHECKPOINT}")


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=TRAIN_ARGS["epochs"])
    parser.add_argument("--imgsz", type=int, default=TRAIN_ARGS["imgsz"])
    parser.add_argument("--batch", type=int, default=TRAIN_ARGS["batch"])
    parser.add_argument("--restart", action="store_true", help="ignore checkpoints and start from scratch")
    parser.add_argument("--export", action="store_true", help="export the trained weights to ONNX")
    parser.add_argument("--best", action="store_true", help="with --export: best.pt instead of last.pt")
    parser.add_argument("--out", type=Path, default=HERE, help="with --export: where to write the ONNX and config")
    parser.add_argument("--save-checkpoint", action="store_true", help="copy last.pt into the repository")
    parser.add_argument("--pips", action="store_true", help="the one-stage comparison: a class per face (fine-tune; "
                        "make_dataset --pips first; --export --pips --out models/dice_pips)")  # fmt: skip
    parser.add_argument("--finetune", action="store_true", help="fine-tune checkpoint/final.pt on the current "
                        "dataset (with --game-frames; --epochs 6); with --export: export the fine-tune")  # fmt: skip
    args = parser.parse_args()
    if args.pips and not args.export:
        train_pips(args)
    elif args.finetune and not args.export:
        finetune(args)
    elif args.export:
        export(args)
    elif args.save_checkpoint:
        save_checkpoint()
    else:
        train(args)


if __name__ == "__main__":
    main()
