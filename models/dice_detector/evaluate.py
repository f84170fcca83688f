"""Measures the shipped dice reader (detector + die reader) the way the issue states its targets.

    python -m models.dice_detector.evaluate [--real DIR] [--synthetic 150] [--hard 150] [--games 3] [--speed 30]
        [--observation] [--second-look PX]

- Real photos never trained on (the ``val`` split of real-d6-rune55, or any folder of images with
  YOLO labels ``class = pips - 1``): a die is *read right* when a detection overlaps it with IoU >= 0.5
  and reads its pips; a photo is *perfect* when every die is read right and nothing else is detected.
  Also the same figures counting labels that box only a die's top face (``face_pairs``), and those of
  the colour photos of dice trays alone (``evaluate_real``).
- Synthetic held-out scenes (seeds never used for training): the same, plus colour and Biggy; and the same
  scenes with every colour's dice drawn as hard hobby dice (``--hard``: smoke, swirled, pearl, coloured pips,
  deep colours; the kinds real photos showed the reader failing on).
- The built-in game's look (``--games N``): frames at rest of N rendered games on the play mat
  (1280x720, seeds never used for training), the same figures.
- Photos (real and synthetic) are read as ``dice-referee detect`` reads them: every look of
  ``vision.detect.PHOTO_LOOKS`` votes on each die, and a die read unsurely has its pips read in more views
  (``DiceDetector.for_photos``); ``--second-look PX`` reads them the earlier way instead, for a comparison (one
  look at 416 and another at PX where the first may have missed a die; 0: one look). The built-in game's
  frames are read as the table reads them, in one look.
- Speed: median milliseconds per 1280x720 rendered frame for the whole reading (both stages), in one look as
  the table reads its frames, and as photos are read (``speed_1280x720_photo``).
- With ``--observation``, the camera interpreter's observation model for these weights (misread faces and
  colours, misses by crowd, dice read twice, Biggys; ``models.observation.measure_reader``), written beside
  them as ``observation.json``: each shipped reader is shipped with its own.

Writes ``metrics.json`` and ``metrics.csv`` beside this file and prints them.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import statistics
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.colours import ColourBook
from vision.detect import (
    OBSERVATION,
    SECOND_LOOK,
    TABLE_CONFIDENCE,
    DiceDetector,
    box_areas,
    box_intersections,
    box_iou,
)
from vision.detections import Detections

if TYPE_CHECKING:
    from referee.readings import TableSnapshot
    from vision.synth.game import RenderedGame

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
REAL = ROOT.parent / "shared" / "datasets" / "real-d6-rune55"
SYNTHETIC_SEED = 9_000_000  # far from every training seed


@dataclass
class Tally:
    """Counts over a set of images."""

    images: int = 0
    perfect: int = 0
    dice: int = 0
    found: int = 0
    read_right: int = 0
    extra: int = 0
    colour_right: int = 0
    colour_in_play_right: int = 0
    colour_in_play: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(true colour, colour read among those in play) for every die found with a palette colour."""
    colour_total: int = 0
    biggy_right: int = 0
    errors: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, float | int]:
        """Percentages and counts."""
        pct = lambda a, b: round(100 * a / b, 2) if b else None  # noqa: E731
        return {
            "images": self.images, "dice": self.dice,
            "dice_read_right_pct": pct(self.read_right, self.dice), "dice_found_pct": pct(self.found, self.dice),
            "photos_perfect_pct": pct(self.perfect, self.images), "extra_detections": self.extra,
            "colour_right_pct": pct(self.colour_right, self.colour_total),
            "colour_in_play_right_pct": pct(self.colour_in_play_right, self.colour_total),
            "biggy_right_pct": pct(self.biggy_right, self.found) if self.colour_total else None,
            **({"colour_in_play_confused_pct": self.confusions()} if self.colour_in_play else {}),
        }  # fmt: skip

    def confusions(self) -> dict[str, float]:
        """Each colour read as another among those in play, in % of that colour's dice found ("blue->black": 0.4)."""
        dice = Counter[str]()
        for (true, _), n in self.colour_in_play.items():
            dice[true] += n
        wrong = {(t, r): n for (t, r), n in self.colour_in_play.items() if t != r}
        return {f"{t}->{r}": round(100 * n / dice[t], 2) for (t, r), n in sorted(wrong.items(), key=lambda x: -x[1])}


def cover_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The share of each box in ``a`` that lies inside each box in ``b``."""
    return box_intersections(a, b) / np.maximum(box_areas(a)[:, None], 1e-9)


def _greedy(score: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    """Pairs (row, column) by the highest score first, each row and column once, while score >= threshold."""
    score = score.copy()
    pairs = []
    while score.size:
        i, j = np.unravel_index(np.argmax(score), score.shape)
        if score[i, j] < threshold:
            break
        pairs.append((int(i), int(j)))
        score[i, :] = -1
        score[:, j] = -1
    return pairs


FACE_COVER = 0.9
"""A label box this much inside a detection is that die's top face (see ``match``)."""
FACE_AREA = 6.0
"""... when the detection's area is at most this many times the label's."""


def face_pairs(truth: np.ndarray, boxes: np.ndarray, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """More pairs for the dice ``pairs`` left unmatched, whose labelled box is the die's top face.

    Some real photos (the greyscale ones of real-d6-rune55) are labelled with a box around each die's top
    face, not around the whole visible die, which a die seen at a slant makes 2-5 times larger (IoU
    under 0.5). A label and a detection left over pair up when the label lies inside the detection
    (``FACE_COVER`` of its area), the detection is at most ``FACE_AREA`` times the label's area, and it
    holds less than half of any other label (so a box around two dice pairs with neither).
    """
    if not len(truth) or not len(boxes):
        return []
    cover = cover_matrix(truth, boxes)
    ratio = box_areas(boxes)[None, :] / np.maximum(box_areas(truth)[:, None], 1e-9)
    others = np.array([[np.delete(cover[:, j], i).max(initial=0.0) for j in range(len(boxes))]
                       for i in range(len(truth))])  # fmt: skip
    score = np.where((ratio <= FACE_AREA) & (others < 0.5), cover, -1.0)
    score[[i for i, _ in pairs], :] = -1
    score[:, [j for _, j in pairs]] = -1
    return _greedy(score, FACE_COVER)


def match(truth: np.ndarray, predicted: Detections, threshold: float = 0.5, faces: bool = False,
          ) -> list[tuple[int, int]]:  # fmt: skip
    """Greedy one-to-one matching by IoU: (truth index, prediction index) pairs.

    With ``faces``, labels of a die's top face are matched too (``face_pairs``).
    """
    if not len(truth) or not len(predicted):
        return []
    pairs = _greedy(box_iou(truth, predicted.xyxy), threshold)
    return pairs + face_pairs(truth, predicted.xyxy, pairs) if faces else pairs


def score_image(
    tally: Tally, truth_boxes: np.ndarray, truth_pips: list[int], detections: Detections,
    truth_colours: list[str | None] | None = None, truth_biggy: list[bool] | None = None, faces: bool = False,
    ignore: Sequence[bool] | None = None,
) -> None:  # fmt: skip
    """Adds one image to the tally (with ``faces``, labels of a die's top face count too: ``match``).

    Colour is counted twice: among every palette colour (what ``detect`` says without ``--colours``) and
    among the colours in play, as the referee reads a table (the colour head restricted to the picture's own
    palette colours, with the picture's surely read dice: :meth:`vision.colours.ColourBook.scores`; the
    issue's target is this one).

    ``ignore`` (one flag per labelled die) leaves dice out: they count neither as dice nor, where a
    detection pairs with them, as something read that is not there (dice judged unreadable by eye).
    """
    left_out = list(ignore) if ignore is not None else [False] * len(truth_pips)
    pairs = match(truth_boxes, detections, faces=faces)
    shown = len(detections) - sum(left_out[i] for i, _ in pairs)  # a detection on a die left out is no extra
    pairs = [(i, j) for i, j in pairs if not left_out[i]]
    dice = left_out.count(False)
    in_play = sorted({c for c, out in zip(truth_colours or (), left_out, strict=False) if c is not None and not out})
    head = detections.data.get("colour_scores")
    bodies = detections.data.get("body")
    restricted = ColourBook(in_play).decide(head, bodies) if in_play and head is not None and len(head) else None
    right = sum(int(detections.data["pips"][j]) == truth_pips[i] for i, j in pairs)
    tally.images += 1
    tally.dice += dice
    tally.found += len(pairs)
    tally.read_right += right
    tally.extra += shown - len(pairs)
    tally.perfect += int(right == dice and shown == dice)
    for i, j in pairs:
        if truth_colours is not None and truth_colours[i] is not None:
            tally.colour_total += 1
            tally.colour_right += int(detections.data["colour"][j] == truth_colours[i])
            tally.colour_in_play_right += int(restricted is not None and restricted[j] == truth_colours[i])
            if restricted is not None:
                tally.colour_in_play[(truth_colours[i], str(restricted[j]))] += 1
        if truth_biggy is not None:
            tally.biggy_right += int(bool(detections.data["biggy"][j]) == truth_biggy[i])


def yolo_labels(path: Path, width: int, height: int) -> tuple[np.ndarray, list[int]]:
    """Boxes in pixels and pip values from a YOLO label file (class = pips - 1)."""
    boxes, pips = [], []
    for line in path.read_text().splitlines() if path.exists() else []:
        if line.strip():
            cls, cx, cy, w, h = (float(v) for v in line.split())
            x0, y0 = (cx - w / 2) * width, (cy - h / 2) * height
            boxes.append([x0, y0, x0 + w * width, y0 + h * height])
            pips.append(int(cls) + 1)
    return np.array(boxes, dtype=np.float64).reshape(-1, 4), pips


def split_rows(real: Path, split: str) -> list[dict[str, str]]:
    """The rows of ``real``'s split.csv (image, split, scene, colour, ...) whose split is ``split``."""
    with open(real / "split.csv", newline="") as handle:
        return [row for row in csv.DictReader(handle) if row["split"] == split]


AUDIT = (
    ROOT / "models" / "die_reader" / "real_val_misreads.csv",
    ROOT / "models" / "die_reader" / "real_val_end_to_end.csv",
)
"""The real val dice judged by eye (``python -m models.die_reader.audit``; their ``by_eye`` column): those v7
misread from their labelled boxes, and those the whole reader did not read right after that."""
NOT_READABLE = ("unreadable", "ambiguous", "label_doubtful")
"""The verdicts that leave a die out of the dice judged readable by eye."""


def judged_dice(audit: Sequence[Path] = AUDIT, verdicts: Sequence[str] | None = None) -> dict[str, np.ndarray]:
    """Per photo, the boxes of the val dice judged by eye (with ``verdicts``, those judged so only)."""
    found: dict[str, list[list[float]]] = {}
    for path in audit:
        if not path.exists():
            continue
        with open(path, newline="") as handle:
            for row in csv.DictReader(handle):
                if verdicts is None or row["by_eye"] in verdicts:
                    found.setdefault(row["image"], []).append([float(row[k]) for k in ("x0", "y0", "x1", "y1")])
    return {image: np.array(boxes) for image, boxes in found.items()}


def unreadable_dice(audit: Sequence[Path] = AUDIT) -> dict[str, np.ndarray]:
    """Per photo, the boxes of the val dice judged by eye not readable (unreadable, ambiguous, doubtful label)."""
    return judged_dice(audit, NOT_READABLE)


def _judged(boxes: np.ndarray, judged: np.ndarray | None) -> list[bool]:
    """Which labelled boxes are among ``judged`` (the audit keeps them rounded to 0.1 px)."""
    if judged is None or not len(boxes):
        return [False] * len(boxes)
    return [bool((np.abs(judged - box).max(axis=1) <= 0.06).any()) for box in boxes]


def evaluate_real(detector: DiceDetector, real: Path, audit: Sequence[Path] | None = None) -> dict[str, Tally]:
    """The real photos of the val split (or every labelled image of a folder without split.csv).

    Tallies: ``real_val``, the issue's (IoU >= 0.5 with the labelled box); ``real_val_face_labels``, which
    also counts a die whose label boxes only its top face inside the detected die (``face_pairs``);
    where split.csv tells which photos are in colour, ``real_val_colour_trays``: the issue's
    figure on those alone (dice of many colours in trays, top-down: the look of the held-out set kept
    outside the repository); and with ``audit`` (the val dice judged by eye, ``AUDIT`` for real-d6-rune55),
    ``real_val_readable`` and ``real_val_readable_face_labels``: the first two figures over the dice judged
    readable by eye (every die but those the audit judged unreadable, ambiguous or wrongly labelled).
    """
    tallies = {"real_val": Tally(), "real_val_face_labels": Tally()}
    judged: dict[str, np.ndarray] = {}
    if (real / "split.csv").exists():
        rows = split_rows(real, "val")
        images = [real / "images" / row["image"] for row in rows]
        colour = {row["image"] for row in rows if row.get("colour") == "colour"}
        judged = unreadable_dice(audit) if audit is not None else {}
    else:
        images = sorted(p for p in (real / "images").iterdir() if p.suffix.lower() in {".jpg", ".jpeg", ".png"})
        colour = set()
    if colour:
        tallies["real_val_colour_trays"] = Tally()
    if judged:
        tallies |= {"real_val_readable": Tally(), "real_val_readable_face_labels": Tally()}
    for path in images:
        image = cv2.imread(str(path))
        if image is None:
            tallies["real_val"].errors.append(f"unreadable {path.name}")
            continue
        boxes, pips = yolo_labels(real / "labels" / f"{path.stem}.txt", image.shape[1], image.shape[0])
        detections = detector(image)
        score_image(tallies["real_val"], boxes, pips, detections)
        score_image(tallies["real_val_face_labels"], boxes, pips, detections, faces=True)
        if path.name in colour:
            score_image(tallies["real_val_colour_trays"], boxes, pips, detections)
        if judged:
            ignore = _judged(boxes, judged.get(path.name))
            score_image(tallies["real_val_readable"], boxes, pips, detections, ignore=ignore)
            score_image(tallies["real_val_readable_face_labels"], boxes, pips, detections, faces=True, ignore=ignore)
    return tallies


def evaluate_synthetic(detector: DiceDetector, count: int, hard: float = 0.0) -> Tally:
    """Held-out rendered tables, with colour and Biggy.

    ``hard``: the same tables, that share of the colours' dice drawn as hard hobby dice
    (``vision.synth.scene.hard_look``).
    """
    from vision.synth.scene import render_scene

    tally = Tally()
    for index in range(count):
        scene = render_scene(SYNTHETIC_SEED + index, hard=hard)
        boxes = np.array([d.box for d in scene.dice], dtype=np.float32).reshape(-1, 4)
        score_image(tally, boxes, [d.pips for d in scene.dice], detector(scene.image),
                    [d.colour if d.palette else None for d in scene.dice], [d.biggy for d in scene.dice])  # fmt: skip
    return tally


GAME_SEED = 9_200_000  # far from the training games (make_dataset --game-frames: 1_700_000 + i)


def frames_at_rest(game: RenderedGame) -> Iterator[tuple[int, TableSnapshot]]:
    """One frame at rest (mid-stillness) of each moment of ``game`` with dice, and the table it shows."""
    for span in game.spans:
        if span.still and span.moment.snapshot.all_dice():
            yield span.first + span.hand + span.still // 2, span.moment.snapshot


def evaluate_games(detector: DiceDetector, count: int) -> Tally:
    """Frames at rest of rendered games on the play mat (one per moment with dice, first round)."""
    from vision.synth.game import RenderedGame

    tally = Tally()
    players = [("red", "blue"), ("green", "yellow", "black"), ("blue", "violet"), ("red", "grey", "orange")]
    rules = ["las-vegas", "las-vegas+biggy", "las-vegas+neutral", "las-vegas"]
    for index in range(count):
        game = RenderedGame(GAME_SEED + index, players[index % 4], rules[index % 4], size=(1280, 720), fps=5,
                            rounds=1)  # fmt: skip
        for frame, _ in frames_at_rest(game):
            truth = game.truth(frame)
            score_image(tally, truth.xyxy, [int(p) for p in truth.data["pips"]], detector(game.frame(frame)),
                        [str(c) for c in truth.data["colour"]], [bool(b) for b in truth.data["biggy"]])  # fmt: skip
    return tally


TABLE_SEED = 9_400_000  # far from the training games and crowded frames (make_dataset: 1_700_000, 1_800_000)
CROWD = 8
"""A casino holding this many dice or more is crowded (``evaluate_tables``)."""


def evaluate_tables(detector: DiceDetector, games: int, tables: Sequence[str] | None = None,
                    ) -> dict[str, dict[str, float | int]]:  # fmt: skip
    """The dice found at the table, by colour and in crowds: the benchmark's nine tables, frames at rest.

    Each of ``observation.TABLES`` (2 to 6 players, white as a player and as the neutral dice, Biggys) is
    rendered ``games`` times (seeds never trained on), the first round, one frame at rest per moment with
    dice. A die is found when a detection overlaps it with IoU >= 0.5. Returns, per die colour and for the
    dice on crowded casinos (``CROWD`` or more; also white ones alone), the dice and the share found.
    ``tables``: some of the tables only (their seeds stay those of the whole set).
    """
    from models.observation import TABLES
    from vision.synth.game import RenderedGame

    dice: dict[str, int] = {}
    found: dict[str, int] = {}
    for index in range(games):
        for table, (name, (rules, players)) in enumerate(TABLES.items()):
            if tables is not None and name not in tables:
                continue
            game = RenderedGame(TABLE_SEED + 1000 * table + index, players, rules, size=(1280, 720), fps=5,
                                rounds=1)  # fmt: skip
            for frame, snapshot in frames_at_rest(game):
                truth = game.truth(frame)
                # the truth lists the casinos' dice, then the tray's (``RenderedGame.truth``)
                crowded = [len(zone) >= CROWD for zone in snapshot.casinos for _ in zone] + [False] * len(snapshot.tray)
                hits = {i for i, _ in match(truth.xyxy, detector(game.frame(frame)))}
                for i, (colour, crowd) in enumerate(zip(truth.data["colour"], crowded, strict=True)):
                    keys = [str(colour)] + ["crowded"] * crowd + [f"crowded {colour}"] * (crowd and colour == "white")
                    for key in keys:
                        dice[key] = dice.get(key, 0) + 1
                        found[key] = found.get(key, 0) + (i in hits)
    return {key: {"dice": dice[key], "found_pct": round(100 * found[key] / dice[key], 2)} for key in sorted(dice)}


def cpu_description(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The processor the speed was measured on: model, cores and its widest vector instructions.

    The same 2-core VM has measured 23 ms on one host and 41 ms on another: a speed means little without it.
    """
    fields: dict[str, str] = {}  # the first core's (every core has the same)
    for line in cpuinfo.read_text().splitlines() if cpuinfo.exists() else []:
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    model = fields.get("model name") or platform.processor() or platform.machine()
    flags = set(fields.get("flags", "").split())
    vector = [name for name in ("avx2", "avx512f", "avx512_vnni", "amx_int8") if name in flags]
    return f"{model}, {os.cpu_count()} cores" + (f", {' '.join(vector)}" if vector else "")


def measure_speed(detector: DiceDetector, frames: int) -> dict[str, float | str]:
    """Median and 90th-percentile milliseconds per 1280x720 frame, both stages, and the CPU."""
    from vision.synth.scene import render_scene

    images = [render_scene(SYNTHETIC_SEED + 50_000 + i, size=(1280, 720)).image for i in range(min(frames, 10))]
    detector(images[0])  # warm-up
    times = []
    for index in range(frames):
        started = time.perf_counter()
        detector(images[index % len(images)])
        times.append((time.perf_counter() - started) * 1000)
    return {"frames": frames, "median_ms": round(statistics.median(times), 1),
            "p90_ms": round(float(np.percentile(times, 90)), 1), "cpu": cpu_description()}  # fmt: skip


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", type=Path, default=REAL, help="folder with images/ and labels/ (and split.csv)")
    parser.add_argument("--synthetic", type=int, default=150, help="held-out rendered scenes")
    parser.add_argument("--hard", type=int, default=150, help="the held-out rendered scenes again, every "
                        "colour's dice drawn as hard hobby dice (smoke, swirled, pearl, coloured pips)")  # fmt: skip
    parser.add_argument("--games", type=int, default=3, help="rendered games on the play mat (frames at rest)")
    parser.add_argument("--tables", type=int, default=0, help="games of each benchmark table: the dice found by "
                        "colour and on crowded casinos, at the table's detector threshold")  # fmt: skip
    parser.add_argument("--speed", type=int, default=30, help="frames timed at 1280x720")
    parser.add_argument("--observation", action="store_true", help="also measure the camera interpreter's "
                        "observation model for these weights (rendered games of the nine Las Vegas tables and "
                        "Royale's main game, models.observation.SHIPPED_SEEDS; about an hour on two cores) and "
                        "write it beside them: MODELS/observation.json")  # fmt: skip
    parser.add_argument("--no-write", action="store_true", help="print only, do not update metrics files")
    parser.add_argument("--models", type=Path, default=HERE.parent, help="folder with dice_detector/ and die_reader/")
    parser.add_argument("--detector", type=Path, help="another detector folder, e.g. the one-stage models/dice_pips "
                        "(its classes are the faces; the die reader then gives only the colour)")  # fmt: skip
    parser.add_argument("--confidence", type=float, help="another detector confidence threshold (a comparison)")
    parser.add_argument("--core", type=float, help="another NMS core (a part of a die found again; a comparison)")
    parser.add_argument("--turns", type=int, help="another number of quarter turns read per die (a comparison)")
    parser.add_argument("--sure", type=float, help="another confidence at which one turn is enough (a comparison)")
    parser.add_argument("--colour-sure", type=float,
                        help="another colour confidence at which one turn is enough (a comparison)")  # fmt: skip
    parser.add_argument("--second-look", type=int, metavar="PX",
                        help="read the photos the earlier way, a comparison: one look, and a second at this "
                             f"input size where the first may have missed a die (it was {SECOND_LOOK}; 0: one "
                             "look); by default they are read as `dice-referee detect` reads them (the looks "
                             "voted); the frames of --games, --tables, --speed: one look")  # fmt: skip
    args = parser.parse_args()
    options = {"confidence": args.confidence, "core": args.core, "rotations": args.turns, "sure": args.sure,
               "colour_sure": args.colour_sure}  # fmt: skip
    chosen = {k: v for k, v in options.items() if v is not None}
    folders = (args.detector or args.models / "dice_detector", args.models / "die_reader")
    one_look = DiceDetector(*folders, **chosen)  # as the table's frames are read
    if args.second_look is None:
        detector = DiceDetector.for_photos(*folders, **chosen)  # as photos are read
    else:
        detector = DiceDetector(*folders, **chosen, second_look=args.second_look or None)
    if args.detector or chosen or args.second_look is not None:
        args.no_write = True  # a comparison: the shipped metrics stay as they are
    results: dict[str, object] = {}
    if (args.real / "images").exists():
        audit = AUDIT if args.real.resolve() == REAL.resolve() else None  # the verdicts of real-d6-rune55's dice
        results |= {name: tally.summary() for name, tally in evaluate_real(detector, args.real, audit).items()}
    if args.synthetic:
        results["synthetic_heldout"] = evaluate_synthetic(detector, args.synthetic).summary()
    if args.hard:
        results["synthetic_hard"] = evaluate_synthetic(detector, args.hard, hard=1.0).summary()
    if args.games:
        results["builtin_games"] = evaluate_games(one_look, args.games).summary()
    if args.tables:
        at_table = DiceDetector(*folders, **{"confidence": TABLE_CONFIDENCE, **chosen})
        results["tables_found"] = evaluate_tables(at_table, args.tables)
    if args.speed:
        results["speed_1280x720"] = measure_speed(one_look, args.speed)
        if detector.second_look or detector.looks:
            results["speed_1280x720_photo"] = measure_speed(detector, args.speed)
    print(json.dumps(results, indent=1))
    if args.observation:
        from models.observation import measure_reader

        model = measure_reader(args.models)
        (args.models / OBSERVATION).write_text(json.dumps(model.to_json(), indent=1) + "\n")
        print(f"wrote {args.models / OBSERVATION}: {model.source['readings']} readings, "
              f"{model.source['dice_present']} dice")  # fmt: skip
    if not args.no_write:
        (HERE / "metrics.json").write_text(json.dumps(results, indent=1) + "\n")
        with open(HERE / "metrics.csv", "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["set", "metric", "value"])
            for name, values in results.items():
                for key, value in values.items():  # type: ignore[attr-defined]
                    parts = value.items() if isinstance(value, dict) else [(None, value)]
                    writer.writerows([name, key if part is None else f"{key}.{part}", v] for part, v in parts)


if __name__ == "__main__":
    main()
