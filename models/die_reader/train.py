"""Trains the die reader on CPU (minutes, not hours) and exports it to ONNX.

    python -m models.die_reader.train [--epochs 14] [--seed 0] [--strong] [--size 40 --init WEIGHTS.pt]
        [--size-head]

Reads ``datasets/die_reader/*.npz`` (``make_dataset``; ``datasets/die_reader_<size>`` for another
``--size``; ``--data DIR`` for crops written elsewhere), keeps the last epoch in
``runs/die_reader/<run>/last.pt`` (resumable), and writes ``reader.onnx`` and ``config.json`` into this folder
(``evaluate`` then writes ``metrics.json``). The real photos' val split is only evaluated, never trained on.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models.die_reader.make_dataset import HELD_OUT, dataset_dir
from models.die_reader.net import CHANNELS, DieReaderNet
from models.portable import portable
from vision.colours import PALETTE_NAMES
from vision.crops import CROP_MARGIN, CROP_SIZE

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RUN = ROOT / "runs" / "die_reader"
FIRST_SIZE = 48
"""The crop side v1-v3 were trained on: runs of this size keep the plain names (v3, checkpoint/v3.pt)."""


def load(name: str, size: int = CROP_SIZE, folder: Path | None = None) -> dict[str, np.ndarray]:
    """One of the npz sets written by make_dataset (crops of ``size`` pixels; ``folder``, its ``--out``)."""
    with np.load((folder or dataset_dir(size)) / f"{name}.npz") as data:
        return {key: data[key] for key in data.files}


def to_tensor(x: np.ndarray) -> torch.Tensor:
    """uint8 NHWC BGR crops -> float NCHW in 0..1, the reader's input."""
    return torch.from_numpy(x).permute(0, 3, 1, 2).float().div_(255.0)


def augment(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Rotations by quarter turns and mirror images (a die face reads the same), light, noise, blur."""
    n = x.shape[0]
    k = int(torch.randint(0, 4, (1,), generator=generator))
    x = torch.rot90(x, k, dims=(2, 3))
    if torch.rand(1, generator=generator) < 0.5:
        x = x.flip(3)
    gain = torch.empty(n, 1, 1, 1).uniform_(0.6, 1.4, generator=generator)
    bias = torch.empty(n, 1, 1, 1).uniform_(-0.1, 0.1, generator=generator)
    x = x * gain + bias + torch.randn(x.shape, generator=generator) * 0.02
    if torch.rand(1, generator=generator) < 0.3:
        kernel = torch.tensor([1.0, 2.0, 1.0]) / 4
        kernel2d = (kernel[:, None] * kernel[None, :]).expand(3, 1, 3, 3)
        x = F.conv2d(x, kernel2d, padding=1, groups=3)
    return x.clamp_(0, 1)


def augment_strong(x: torch.Tensor, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """:func:`augment`, then per crop: any rotation, a slight zoom, gamma, and greyscale for a quarter.

    Dice lie at any angle and boxes stray; light is dim or harsh; a third of the real photos are grey.
    Returns the crops, which were turned grey (their colour label no longer applies) and each crop's
    zoom (a zoom of 1.1 shows 1.1 times the width: the die looks that much smaller in the crop).
    """
    x = augment(x, generator)
    n = x.shape[0]
    angle = torch.empty(n).uniform_(-math.pi, math.pi, generator=generator)
    zoom = torch.empty(n).uniform_(0.9, 1.12, generator=generator)
    cos, sin = torch.cos(angle) * zoom, torch.sin(angle) * zoom
    theta = torch.stack([torch.stack([cos, -sin, torch.zeros(n)], 1), torch.stack([sin, cos, torch.zeros(n)], 1)], 1)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    gamma = torch.exp(torch.empty(n, 1, 1, 1).uniform_(-0.5, 0.5, generator=generator))
    x = x.clamp(1e-4, 1).pow(gamma)
    grey = torch.rand(n, generator=generator) < 0.25
    if grey.any():
        luma = (x[grey] * torch.tensor([0.114, 0.587, 0.299]).view(1, 3, 1, 1)).sum(1, keepdim=True)
        x[grey] = luma.expand(-1, 3, -1, -1)
    return x.clamp_(0, 1), grey, zoom


def evaluate(model: DieReaderNet, data: dict[str, np.ndarray]) -> dict[str, float]:
    """Pip accuracy (all crops) and colour accuracy (crops with a palette colour)."""
    model.eval()
    pips, colours, sizes = [], [], []
    with torch.no_grad():
        for start in range(0, len(data["pips"]), 512):
            p, c, *s = model(to_tensor(data["x"][start : start + 512]))
            pips.append(p.argmax(1))
            colours.append(c.argmax(1))
            sizes += s
    pip_pred = torch.cat(pips).numpy()
    colour_pred = torch.cat(colours).numpy()
    known = data["colour"] >= 0
    result = {"crops": len(pip_pred), "pips_accuracy": float((pip_pred == data["pips"]).mean())}
    if known.any():
        result["colour_accuracy"] = float((colour_pred[known] == data["colour"][known]).mean())
    measured = np.isfinite(data["size"]) if "size" in data else np.zeros(len(pip_pred), bool)
    if sizes and measured.any():
        error = torch.cat(sizes).numpy()[measured] / data["size"][measured] - 1
        result["size_error_median"] = float(np.median(np.abs(error)))
    return result


def teacher_readings(checkpoints: list[Path], x: torch.Tensor, temperature: float) -> tuple[torch.Tensor, torch.Tensor]:
    """The pips and colour probabilities the ``checkpoints`` agree on for every crop (the distillation targets).

    Each teacher reads each crop in its four quarter turns; its logits are softened by ``temperature`` and
    the probabilities averaged over turns and teachers. Every augmentation in training keeps a crop's pips
    (and its colour, unless it turns the crop grey), so targets read from the plain crops hold for the
    augmented ones.
    """
    pips, colour = torch.zeros(len(x), 6), torch.zeros(len(x), len(PALETTE_NAMES))
    for path in checkpoints:
        state = torch.load(path, weights_only=False)
        recipe = _recipe(state["args"])
        teacher = DieReaderNet(standardise=bool(recipe.get("standardise")), size_head=bool(recipe["size_head"]),
                               channels=tuple(recipe["channels"]))  # type: ignore[arg-type]  # fmt: skip
        teacher.load_state_dict(state["model"])
        teacher.eval()
        with torch.no_grad():
            for start in range(0, len(x), 1024):
                for turn in range(4):
                    p, c, *_ = teacher(torch.rot90(x[start : start + 1024], turn, dims=(2, 3)))
                    pips[start : start + 1024] += (p / temperature).softmax(1)
                    colour[start : start + 1024] += (c / temperature).softmax(1)
        print(f"distilling from {path}", flush=True)
    return pips / pips.sum(1, keepdim=True), colour / colour.sum(1, keepdim=True)


def _distillation_loss(logits: torch.Tensor, target: torch.Tensor, temperature: float) -> torch.Tensor:
    """Hinton's soft-target loss: KL divergence at ``temperature``, scaled by its square (same gradients' size)."""
    log_p = F.log_softmax(logits / temperature, dim=1)
    return F.kl_div(log_p, target, reduction="batchmean") * temperature**2


def _recipe(args: dict[str, object]) -> dict[str, object]:
    """The arguments that define a training run (not where it is written or copied).

    Runs saved before ``--size``, ``--init`` and ``--size-head`` existed were 48 px crops from scratch,
    without the size head; before ``--channels``, the network had :data:`~models.die_reader.net.CHANNELS`.
    """
    before = {"size": FIRST_SIZE, "init": None, "size_head": False, "name": None, "channels": CHANNELS,
              "teachers": None, "temperature": 2.0, "fresh_colour_head": False}  # fmt: skip
    return before | {k: v for k, v in args.items() if k not in ("out", "save_checkpoint")}


def _channels(text: str) -> tuple[int, ...]:
    """``--channels``: four positive integers separated by commas."""
    try:
        channels = tuple(int(part) for part in text.split(","))
    except ValueError:
        channels = ()
    if len(channels) != 4 or min(channels) < 1:
        raise argparse.ArgumentTypeError(f"expected four channel counts such as 16,48,128,192, not {text!r}")
    return channels


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=14)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--standardise", action="store_true",
                        help="also feed each crop standardised (v2 trial; the shipped v1 reads raw crops)")  # fmt: skip
    parser.add_argument("--strong", action="store_true",
                        help="v3: any-angle rotation, gamma and greyscale (see augment_strong)")  # fmt: skip
    parser.add_argument("--size", type=int, default=CROP_SIZE, help="crop side in pixels (make_dataset --size)")
    parser.add_argument("--init", type=Path,
                        help="start from these weights (a checkpoint's model), e.g. a fine-tune of the reader to "
                             "another --size")  # fmt: skip
    parser.add_argument("--size-head", action="store_true",
                        help="v5: also learn the die's size in its crop (tells a Biggy from a turned die)")  # fmt: skip
    parser.add_argument("--channels", type=_channels, default=CHANNELS,
                        help="the network's width: channels of its three blocks and last convolution, e.g. "
                             "16,48,128,192 (tried after v7: see the model card)")  # fmt: skip
    parser.add_argument("--teachers", type=Path, nargs="+",
                        help="distil from these readers' checkpoints: also learn the pips and colours they agree "
                             "on in four turns (tried after v7: see the model card)")  # fmt: skip
    parser.add_argument("--temperature", type=float, default=2.0, help="softening of the teachers' readings")
    parser.add_argument("--fresh-colour-head", action="store_true",
                        help="with --init: learn the colour head afresh (v8: a reader that never saw grey, violet, "
                             "orange, pink, brown or cyan dice had pushed those colours far down, and fine-tuning "
                             "left them unread for epochs)")  # fmt: skip
    parser.add_argument("--name", help="the run's name (runs/die_reader/NAME, checkpoint/NAME.pt); by default "
                                       "made from the version, --size and --init")  # fmt: skip
    parser.add_argument("--data", type=Path, help="the crops to train on (make_dataset --out; by default "
                                                 "datasets/die_reader, or datasets/die_reader_<size>)")  # fmt: skip
    parser.add_argument("--out", type=Path, default=HERE, help="where to write reader.onnx and config.json")
    parser.add_argument("--save-checkpoint", action="store_true",
                        help="copy last.pt into models/die_reader/checkpoint/ (to resume elsewhere)")  # fmt: skip
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    generator = torch.Generator().manual_seed(args.seed)
    args.data = args.data or dataset_dir(args.size)  # the crops trained on, recorded in config.json
    train = load("train", args.size, args.data)
    held_out = {name: load(name, args.size, args.data) for name in HELD_OUT
                if name in HELD_OUT[:2] or (args.data / f"{name}.npz").exists()}  # fmt: skip
    model = DieReaderNet(standardise=args.standardise, size_head=args.size_head, channels=args.channels)
    name = "v5" if args.size_head else "v3" if args.strong else "v2" if args.standardise else "v1"
    if args.size != FIRST_SIZE or args.init:
        name = f"{name}-{args.size}px" + (f"-from-{args.init.stem}" if args.init else "")
    name = args.name or name
    run = RUN / name
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * math.ceil(len(train["pips"]) / args.batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=args.lr, total_steps=steps)
    first_epoch = 0
    run.mkdir(parents=True, exist_ok=True)
    committed = HERE / "checkpoint" / f"{run.name}.pt"
    if args.save_checkpoint:
        committed.parent.mkdir(exist_ok=True)
        shutil.copy(run / "last.pt", committed)
        print(f"checkpoint saved to {committed}")
        return
    if not (run / "last.pt").exists() and committed.exists():  # a fresh clone resumes the committed run
        shutil.copy(committed, run / "last.pt")
    if (run / "last.pt").exists():
        state = torch.load(run / "last.pt", weights_only=False)
        if _recipe(state["args"]) == _recipe(vars(args)):
            model.load_state_dict(state["model"])
            optimiser.load_state_dict(state["optimiser"])
            schedule.load_state_dict(state["schedule"])
            first_epoch = state["epoch"] + 1
            generator.set_state(state["generator"])
            print(f"resuming after epoch {first_epoch}", flush=True)
    if args.init and first_epoch == 0:
        # A reader without the size head starts that head afresh; everything else carries over.
        missing, unexpected = model.load_state_dict(torch.load(args.init, weights_only=False)["model"], strict=False)
        if unexpected or any(not key.startswith("size.") for key in missing):
            raise SystemExit(f"{args.init} does not fit this network: missing {missing}, unexpected {unexpected}")
        if args.fresh_colour_head:
            model.colour.reset_parameters()
        print(f"starting from the weights of {args.init}" + (", a fresh colour head" * args.fresh_colour_head),
              flush=True)  # fmt: skip
    x_all = to_tensor(train["x"])
    pips_all = torch.from_numpy(train["pips"].astype(np.int64))
    colour_all = torch.from_numpy(train["colour"].astype(np.int64))
    size_all = torch.from_numpy(train.get("size", np.full(len(pips_all), np.nan, np.float32)))
    soft_pips, soft_colour = teacher_readings(args.teachers, x_all, args.temperature) if args.teachers else (None, None)
    history = []
    for epoch in range(first_epoch, args.epochs):
        model.train()
        started = time.perf_counter()
        order = torch.randperm(len(pips_all), generator=generator)
        total = 0.0
        for start in range(0, len(order), args.batch):
            idx = order[start : start + args.batch]
            colour, size = colour_all[idx], size_all[idx]
            if args.strong:
                x, grey, zoom = augment_strong(x_all[idx], generator)
                colour = torch.where(grey, torch.full_like(colour, -1), colour)
                size = size / zoom
            else:
                x = augment(x_all[idx], generator)
            pip_logits, colour_logits, *predicted = model(x)
            loss = F.cross_entropy(pip_logits, pips_all[idx])
            if (colour >= 0).any():
                loss = loss + 0.5 * F.cross_entropy(colour_logits, colour, ignore_index=-1)
            if soft_pips is not None and soft_colour is not None:
                loss = loss + _distillation_loss(pip_logits, soft_pips[idx], args.temperature)
                coloured = colour >= 0  # a crop turned grey has lost the colour the teachers read
                if coloured.any():
                    loss = loss + 0.5 * _distillation_loss(colour_logits[coloured], soft_colour[idx][coloured],
                                                           args.temperature)  # fmt: skip
            known = torch.isfinite(size)
            if predicted and known.any():  # the size's logarithm: a 5 % error costs the same at any size
                loss = loss + 2.0 * F.smooth_l1_loss(predicted[0][known].log(), size[known].log(), beta=0.05)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(idx)
        metrics = {"epoch": epoch + 1, "loss": total / len(order), "seconds": round(time.perf_counter() - started, 1),
                   **{name: evaluate(model, data) for name, data in held_out.items()}}  # fmt: skip
        history.append(metrics)
        print(json.dumps(metrics), flush=True)
        state = {"model": model.state_dict(), "optimiser": optimiser.state_dict(), "schedule": schedule.state_dict(),
                 "epoch": epoch, "args": vars(args), "generator": generator.get_state()}  # fmt: skip
        torch.save(state, run / "last.pt")
    export(model, args, history)


def _plain(value: object) -> object:
    """A training argument as JSON holds it: paths as text, tuples as lists."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def export(model: DieReaderNet, args: argparse.Namespace, history: list[dict[str, object]]) -> None:
    """Writes reader.onnx (dynamic batch) and config.json into ``args.out``."""
    model.eval()
    dummy = torch.zeros(1, 3, args.size, args.size)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    outputs = ["pips", "colour", *(["size"] if args.size_head else [])]
    torch.onnx.export(model, (dummy,), out / "reader.onnx", input_names=["crops"], output_names=outputs,
                      dynamic_axes={"crops": {0: "n"}} | {name: {0: "n"} for name in outputs}, opset_version=17,
                      dynamo=False)  # fmt: skip
    config = {
        "weights": "reader.onnx",
        "input": {"size": args.size, "margin": CROP_MARGIN, "channels": "BGR", "scale": "1/255"},
        "outputs": {"pips": [1, 2, 3, 4, 5, 6], "colour": list(PALETTE_NAMES)}
        | ({"size": "the die's size over the larger side of its box"} if args.size_head else {}),
        "network": f"DieReaderNet(standardise={args.standardise}, size_head={args.size_head}, "
        f"channels={tuple(args.channels)})",
        "train_args": {k: _plain(v) for k, v in vars(args).items()},
        "dataset": json.loads((args.data / "manifest.json").read_text()),
    }
    if history:
        config["last_epoch"] = history[-1]
    (out / "config.json").write_text(json.dumps(portable(config), indent=1) + "\n")
    print(f"wrote {out / 'reader.onnx'}; measure it with: python -m models.die_reader.evaluate")


if __name__ == "__main__":
    main()
