"""Reading dice in an image: a YOLO die detector, then a crop reader for pips and colour (ONNX Runtime).

Stage 1 (``models/dice_detector``) finds every die at a modest input size; stage 2
(``models/die_reader``) reads each die from a crop of the *original* frame, where small dice still
have readable pips. A Biggy is told from its size against its neighbours (perspective makes absolute
pixel sizes useless; the camera pipeline later judges it in table millimetres). No torch at run time.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.interpret.model import ObservationModel
from vision.colours import PALETTE_NAMES, ColourBook, body_colour
from vision.crops import crop_die
from vision.detections import Detections

__all__ = [
    "MODELS",
    "OBSERVATION",
    "PHOTO_LOOKS",
    "PHOTO_VOTE",
    "PIP_SCALES",
    "SECOND_LOOK",
    "TABLE_CONFIDENCE",
    "DiceDetector",
    "ModelError",
    "biggy_by_size",
    "box_areas",
    "box_intersections",
    "box_iou",
    "dice_to_json",
    "letterbox",
    "nms",
    "observation_model",
    "read_crops",
    "scaled_box",
    "table_reader",
    "weights_digest",
]

MODELS = Path(__file__).resolve().parents[1] / "models"
TABLE_CONFIDENCE = 0.2
"""The detector's threshold at the table (:func:`table_reader`): lower than a photo's (0.35), since there
each die is voted on over its frames at rest and two boxes closer than a die are one die. In frames at
rest of six rendered games (2,666 dice) 0.2 finds 99.3 % of the dice instead of 98.1 % (most of those
gained white or blue dice that stay under 0.35 as long as they lie there) for 13 more boxes that are no die."""

SECOND_LOOK = 512
"""The input size a still photo is looked at again with where the first look (416) may have missed a die
(``dice-referee detect``, ``evaluate``; :meth:`DiceDetector.find`). Small dice in piles, 25-50 px on a 640 px
photo, shrink to 16-33 px at 416 and score under the threshold there; at 512 most of them are found. The
table's frames keep one look (their dice are voted on over many frames, and the frame rate counts)."""
WEAK = 0.1
"""A box the detector scores over this, but under its threshold, overlapping no die it found, is a die the
first look may have missed: the reason for a second look."""
NEW_DIE_IOU = 0.3
"""A box of the second look overlapping a die of the first by less than this is a die the first look missed."""

PHOTO_LOOKS = ((416, False), (416, True), (512, False), (512, True), (640, False), (640, True))
"""The looks a still photo gets (``dice-referee detect``, ``evaluate``): input size and whether mirrored.

Every look's boxes vote (:meth:`DiceDetector.find`): a die scored well by one look and not at all by the
others is as doubtful as one that every look scores weakly. Chosen on the 753 real training photos (5,548
dice), where it reads 85.74 % of the dice right against 84.77 % for 416 with a second look at 512 where a
weak box lies on no die found (86.43 % with ``pip_views``), with about as many boxes on no die (304 against
293): see the detector's TRIALS. About four times the second look's time: for still photos only.
The camera's frames keep one look (their dice are voted on over many frames, and the frame rate counts)."""
PHOTO_VOTE = 0.3
"""A die of a photo's looks is kept when their mean score over it (0 for a look without a box on it) is over this."""
VOTE_IOU = 0.5
"""A look's box overlapping a die by more than this is that look's vote for it."""
PIP_SCALES = (0.9, 1.1)
"""With ``pip_views``, a die read unsurely is also read from its box this many times as large (and mirrored)."""


class ModelError(RuntimeError):
    """Weights or their config are missing or broken."""


@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the square network input."""

    scale: float
    pad_x: float
    pad_y: float


def letterbox(image: np.ndarray, size: int, rect: bool = False, stride: int = 32) -> tuple[np.ndarray, Letterbox]:
    """Resizes keeping the aspect ratio and pads with grey (YOLO's convention) to ``size`` x ``size``.

    With ``rect`` the short side is only padded up to a multiple of ``stride``: a 16:9 frame becomes
    416x256 instead of 416x416, 40 % less work for a network that accepts any input size.
    """
    height, width = image.shape[:2]
    scale = min(size / width, size / height)
    new_w, new_h = round(width * scale), round(height * scale)
    out_w = -(-new_w // stride) * stride if rect else size
    out_h = -(-new_h // stride) * stride if rect else size
    resized = shrink(image, (new_w, new_h))
    pad_x, pad_y = (out_w - new_w) / 2, (out_h - new_h) / 2
    top, left = round(pad_y - 0.1), round(pad_x - 0.1)
    out = cv2.copyMakeBorder(resized, top, out_h - new_h - top, left, out_w - new_w - left, cv2.BORDER_CONSTANT,
                             value=(114, 114, 114))  # fmt: skip
    return out, Letterbox(scale, left, top)


def shrink(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` resized to ``size`` (width, height) the way the detector reads best, in under 1 ms.

    Halved (Gaussian pyramid) while at least twice as large, interpolated the rest of the way, then
    softened a little (3x3 Gaussian, sigma 0.6): the detector learned from softer pictures than a sharp
    1280x720 frame shrunk. Measured on the rendered games (``evaluate``, 1,793 dice): OpenCV's area
    resize 94.8 % of dice found, 37 % of frames perfect, 6.5 ms; this 98.6 %, 85 %, 0.9 ms. Real
    photos read the same; the synthetic tables' far views (14-20 px dice) lose 2 points (82.3 -> 80.0 %).
    """
    while image.shape[1] >= 2 * size[0] and image.shape[0] >= 2 * size[1]:
        image = cv2.pyrDown(image)
    return cv2.GaussianBlur(cv2.resize(image, size, interpolation=cv2.INTER_LINEAR), (3, 3), 0.6)


def scaled_box(box: np.ndarray, scale: float) -> np.ndarray:
    """``box`` (xyxy) with its width and height times ``scale``, about the same centre."""
    centre, half = (box[:2] + box[2:]) / 2, (box[2:] - box[:2]) * scale / 2
    return np.concatenate([centre - half, centre + half])


def box_areas(boxes: np.ndarray) -> np.ndarray:
    """The area of every box (N, 4), xyxy: (N,)."""
    return np.prod(np.clip(boxes[:, 2:] - boxes[:, :2], 0, None), axis=1)


def box_intersections(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The area every box of ``a`` (N, 4) shares with every box of ``b`` (M, 4), xyxy: (N, M)."""
    return np.prod(np.clip(np.minimum(a[:, None, 2:], b[None, :, 2:]) - np.maximum(a[:, None, :2], b[None, :, :2]),
                           0, None), axis=2)  # fmt: skip


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Intersection over union of every box of ``a`` (N, 4) with every box of ``b`` (M, 4), xyxy: (N, M)."""
    inter = box_intersections(a, b)
    return inter / np.maximum(box_areas(a)[:, None] + box_areas(b)[None, :] - inter, 1e-9)


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float, core: float = 0.0) -> np.ndarray:
    """Indices kept by greedy non-maximum suppression, best first.

    A box overlapping a better one by more than ``iou`` is dropped, and so is a box whose centre lies in
    the middle ``core`` (a fraction of width and height) of a better box: a part of a die found again
    (its top face, a face and its side), which overlaps the whole too little for ``iou``. Two dice lying
    side by side never have a centre in the other's middle.
    """
    order = np.argsort(-scores)
    ranked = boxes[order]  # best first
    sides = np.clip(ranked[:, 2:] - ranked[:, :2], 0, None)
    # Every pair at once (a frame has tens of candidates), then one greedy pass over the ranking.
    overlaps = box_iou(ranked, ranked) > iou
    centres = (ranked[:, :2] + ranked[:, 2:]) / 2
    inside = np.all(np.abs(centres[None, :, :] - centres[:, None, :]) < core * sides[:, None, :] / 2, axis=2)
    dropped = overlaps | inside  # row i: the boxes that box i, if kept, drops
    alive = np.ones(len(ranked), dtype=bool)
    keep = []
    for i in range(len(ranked)):
        if alive[i]:
            keep.append(i)
            alive &= ~dropped[i]
    return order[np.array(keep, dtype=np.int64)]


def biggy_by_size(detections: Detections, sizes: np.ndarray | None = None, ratio: float = 1.28, neighbours: int = 6,
                  plane: int = 6, fitted: tuple[float, float] = (1.25, 1.3)) -> np.ndarray:  # fmt: skip
    """True for dice clearly larger than a normal die at their place in the picture (a Biggy's edge is 1.5x).

    ``sizes``: each die's size in pixels (the die reader's estimate); the boxes' sides when None.
    Each die is compared with the median size of its ``neighbours`` nearest ones, which share its
    perspective (a die alone cannot be judged and counts as normal); six of them, so that Biggys side
    by side (in Royale every colour has one) still have normal dice among them. Seen in perspective, the inverse
    of a normal die's size is also an affine function of its place in the picture (the inverse depth
    of a point on a plane is): with at least ``plane`` dice that function is fitted, first to the dice
    not 1.3 times the median size, then again without the dice that look more than 15 % larger or
    smaller than it says (Biggys, parts of dice found on their own),
    and a Biggy must then be ``fitted[0]`` times its neighbours' size and ``fitted[1]`` times the size
    fitted at its place; with fewer dice, ``ratio`` times its neighbours' size (the thresholds chosen on
    rendered tables apart from those the model card reports on).
    The fit keeps a normal die near the camera from passing for a Biggy beside farther ones; the
    neighbours keep a die the fit extrapolates to (alone in a corner, on a tray's wall) from passing.
    """
    n = len(detections)
    sizes = detections.sides if sizes is None else np.asarray(sizes, dtype=np.float64)
    centres = detections.centres
    if n < 2:
        return np.zeros(n, dtype=bool)
    distances = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    np.fill_diagonal(distances, np.inf)
    nearest = sizes[np.argsort(distances, axis=1)[:, : min(neighbours, n - 1)]]  # (n, k) neighbours' sizes
    # A neighbour that is itself a Biggy must not hide a normal die's size: use the smaller half.
    reference = np.minimum(np.median(nearest, axis=1), np.percentile(nearest, 25, axis=1) * 1.1)
    if n >= plane:
        design = np.column_stack([np.ones(n), centres / 1000.0])
        # The fit starts from the dice that cannot be Biggys (not 1.3 times the median size): with all of
        # them, a Biggy beside the only normal die in its part of the picture tilted the fit its way.
        normal = sizes <= 1.3 * np.median(sizes)
        if normal.sum() < 4:
            normal = np.ones(n, dtype=bool)
        for _ in range(4):
            coefficients = np.linalg.lstsq(design[normal], 1.0 / np.maximum(sizes[normal], 1e-6), rcond=None)[0]
            relative = sizes * (design @ coefficients)  # each size over a normal die's size at its place
            looks_normal = (relative > 0.85) & (relative < 1.15)
            if looks_normal.sum() < 4 or (looks_normal == normal).all():
                break
            normal = looks_normal
        if normal.sum() >= 4 and np.all(design @ coefficients > 0):
            return np.asarray((sizes > fitted[0] * reference) & (relative > fitted[1]))
    return np.asarray(sizes > ratio * reference)


def _session(path: Path):  # type: ignore[no-untyped-def]
    import onnxruntime as ort

    if not path.exists():
        raise ModelError(f"missing model weights {path}: the repository ships them; was the file deleted?")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    # Two sessions take turns on the same cores: threads that spin-wait after a run would starve the other.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own types for corrupt files
        raise ModelError(f"cannot load {path}: {error}") from None


def _config(folder: Path) -> dict[str, object]:
    path = folder / "config.json"
    if not path.exists():
        raise ModelError(f"no trained model in {folder} (its config.json is missing): see "
                         f"{MODELS / 'dice_detector' / 'MODEL_CARD.md'}")  # fmt: skip
    try:
        return dict(json.loads(path.read_text()))
    except (OSError, json.JSONDecodeError) as error:
        raise ModelError(f"cannot read {path}: {error}") from None


def table_reader(models: Path = MODELS, **options: Any) -> DiceDetector:
    """The dice reader the referee watches a table with (the model folders under ``models``).

    Its ``observation`` is the observation model measured for it (:func:`observation_model`), which the camera
    interpreter weighs its readings with (``vision.pipeline.referee_pipeline``).
    """
    options = {"confidence": TABLE_CONFIDENCE, **options}
    reader = DiceDetector(models / "dice_detector", models / "die_reader", **options)
    reader.observation = observation_model(models)
    return reader


OBSERVATION = "observation.json"
"""The observation model's file beside a reader's two model folders (``models/observation.json`` shipped)."""


def weights_digest(models: Path = MODELS) -> dict[str, str]:
    """The SHA-256 of each network of the reader in ``models`` (the detector's and the die reader's).

    An observation model measured for one reader says which (``source["weights"]``): a retrained reader
    makes it stale.

    Raises:
        ModelError: where a config or its weights are missing or unreadable.
    """
    digest = {}
    for folder in ("dice_detector", "die_reader"):
        weights = models / folder / str(_config(models / folder)["weights"])
        try:
            digest[folder] = hashlib.sha256(weights.read_bytes()).hexdigest()
        except OSError as error:
            raise ModelError(f"cannot read {weights}: {error}") from None
    return digest


def observation_model(models: Path = MODELS) -> ObservationModel:
    """The camera interpreter's observation model for the reader in ``models``: ``models/observation.json``.

    Measured for those weights by ``python -m models.dice_detector.evaluate --observation`` (which writes it
    there). Where there is none, round numbers (:meth:`ObservationModel.generic`) and a warning; where it
    was measured for other weights (a reader retrained since), it is used with a warning.

    Raises:
        ModelError: for a file there that is no observation model.
    """
    path = models / OBSERVATION
    measure = f"python -m models.dice_detector.evaluate --models {models} --observation"
    if not path.is_file():
        warnings.warn(f"no observation model in {models} ({OBSERVATION}): the referee weighs the reader's errors "
                      f"with round numbers; measure it with {measure}", stacklevel=2)  # fmt: skip
        return ObservationModel.generic()
    try:
        model = ObservationModel.load(path)
    except ValueError as error:
        raise ModelError(f"{error}; measure it again with {measure}") from None
    measured_for = model.source.get("weights") or {}
    if measured_for and measured_for != weights_digest(models):
        warnings.warn(f"{path} was measured for other weights than those in {models}: measure it again with "
                      f"{measure}", stacklevel=2)  # fmt: skip
    return model


class DiceDetector:
    """Finds and reads every die in a BGR image. Holds the two ONNX sessions (the only state).

    Args:
        detector_dir: folder of the die detector (``detector.onnx`` and its ``config.json``).
        reader_dir: folder of the die reader (``reader.onnx`` and its ``config.json``).
        confidence: the detector's confidence threshold.
        iou: overlap above which the weaker of two boxes is dropped.
        core: a box whose centre lies in this middle part of a better box is dropped too (see :func:`nms`).
        rotations: quarter turns averaged for a die read with less than ``sure`` confidence in its pips,
            or less than ``colour_sure`` in its colour, at first (a face reads the same turned;
            test-time augmentation where it is needed).
        sure: the pips confidence at which one reading is enough.
        colour_sure: the colour confidence at which one reading is enough.
        second_look: a larger input size the picture is looked at again with where the first look may have
            missed a die (:meth:`find`); None: one look (the table's frames).
        looks: instead, every one of these looks (input size, mirrored) votes on each die (:meth:`find`;
            :data:`PHOTO_LOOKS` for still photos, with the threshold ``vote``).
        pip_views: a die read unsurely (as for ``rotations``) has its pips read also mirrored and from boxes
            :data:`PIP_SCALES` times as large, each in every turn, all averaged (still photos).

    Example:
        >>> detector = DiceDetector()  # doctest: +SKIP
        >>> detections = detector(cv2.imread("table.jpg"))  # doctest: +SKIP
        >>> detections.data["pips"], detections.data["colour"], detections.data["biggy"]  # doctest: +SKIP
    """

    def __init__(self, detector_dir: Path = MODELS / "dice_detector", reader_dir: Path = MODELS / "die_reader",
                 confidence: float = 0.35, iou: float = 0.5, core: float = 0.8, rotations: int = 4,
                 sure: float = 0.9, colour_sure: float = 0.8, second_look: int | None = None,
                 looks: Sequence[tuple[int, bool]] | None = None, vote: float = PHOTO_VOTE,
                 pip_views: bool = False) -> None:  # fmt: skip
        detector_config = _config(detector_dir)
        reader_config = _config(reader_dir)
        self.input_size = int(detector_config["input_size"])  # type: ignore[call-overload]
        self.rect = bool(detector_config.get("dynamic", False))  # the network accepts any multiple of 32
        # A one-stage detector (the comparison design) has a class per face: its class is the pips.
        self.faces = list(detector_config.get("classes", ["die"])) == ["1", "2", "3", "4", "5", "6"]
        self.detector = _session(detector_dir / str(detector_config["weights"]))
        self.reader = _session(reader_dir / str(reader_config["weights"]))
        outputs = reader_config["outputs"]
        self.colours = list(outputs["colour"])  # type: ignore[index]
        self.crop_size = int(reader_config["input"]["size"])  # type: ignore[index]
        self.crop_margin = float(reader_config["input"]["margin"])  # type: ignore[index]
        self.observation: ObservationModel | None = None
        """The observation model measured for this reader, where known (:func:`table_reader`)."""
        self.confidence = confidence
        self.iou = iou
        self.core = core
        self.rotations = max(1, min(4, rotations))
        self.sure = sure
        self.colour_sure = colour_sure
        self.second_look = second_look
        self.looks = tuple(looks) if looks else None
        self.vote = vote
        self.pip_views = pip_views

    @classmethod
    def for_photos(cls, detector_dir: Path = MODELS / "dice_detector", reader_dir: Path = MODELS / "die_reader",
                   **options: Any) -> DiceDetector:  # fmt: skip
        """As still photos are read (``dice-referee detect``): :data:`PHOTO_LOOKS` voted, unsure pips in more views."""
        return cls(detector_dir, reader_dir, **{"looks": PHOTO_LOOKS, "pip_views": True, **options})

    def find(self, image: np.ndarray) -> Detections:
        """Stage 1: die boxes in pixels of ``image`` (BGR), with detector confidence.

        With ``second_look``, where the first look leaves a weak box (over :data:`WEAK`, under the threshold)
        overlapping none of the dice it found, the picture is looked at again at that larger input, and the
        dice found there that overlap none found before (IoU under :data:`NEW_DIE_IOU`) are added. With
        ``looks``, every look votes on each die instead (:meth:`_voted`).
        """
        if self.looks:
            return self._voted(image, self.looks)
        boxes, scores, faces = self._candidates(image, self.input_size)
        keep = scores > self.confidence
        chosen = np.flatnonzero(keep)[nms(boxes[keep], scores[keep], self.iou, self.core)]
        if self.second_look and self._may_have_missed(boxes, scores, chosen):
            more, more_scores, more_faces = self._candidates(image, self.second_look)
            sure = np.flatnonzero(more_scores > self.confidence)
            sure = sure[nms(more[sure], more_scores[sure], self.iou, self.core)]
            if len(chosen) and len(sure):
                sure = sure[box_iou(more[sure], boxes[chosen]).max(axis=1) < NEW_DIE_IOU]
            if len(sure):
                boxes = np.concatenate([boxes[chosen], more[sure]])
                scores = np.concatenate([scores[chosen], more_scores[sure]])
                faces = np.concatenate([faces[chosen], more_faces[sure]])
                chosen = nms(boxes, scores, self.iou, self.core)
        if not len(chosen):
            return Detections.empty()
        data = {"face": faces[chosen] + 1} if self.faces else {}
        return Detections(boxes[chosen], scores[chosen], data)

    def _candidates(self, image: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every box the network proposes at input ``size`` over the threshold (over :data:`WEAK` for a second look).

        The weak boxes are what calls for a second look; without one they are not decoded. Their corners in
        pixels of ``image`` (xyxy), scores and classes (the face, for a one-stage detector).
        """
        net_input, box = letterbox(image, size, rect=self.rect)
        blob = np.ascontiguousarray(net_input[:, :, ::-1].transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        output = self.detector.run(None, {self.detector.get_inputs()[0].name: blob})[0][0]  # (4 + classes, anchors)
        scores = output[4:].max(axis=0)
        keep = scores > (min(WEAK, self.confidence) if self.second_look or self.looks else self.confidence)
        cx, cy, w, h = output[:4, keep]
        boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1).reshape(-1, 4)
        boxes = (boxes - [box.pad_x, box.pad_y, box.pad_x, box.pad_y]) / box.scale
        height, width = image.shape[:2]
        boxes = np.clip(boxes, 0, [width, height, width, height])
        return boxes, scores[keep], output[4:, keep].argmax(axis=0)

    def _voted(self, image: np.ndarray, looks: Sequence[tuple[int, bool]]) -> Detections:
        """The dice every look (input size, mirrored) votes on: the best box of each, scored by the looks' mean.

        The boxes of all looks over :data:`WEAK` go through one NMS; each box kept is scored by the mean, over
        the looks, of the best score a look gives a box overlapping it by more than :data:`VOTE_IOU` (0 where
        none does), and kept when that is over ``vote``. Its box and class are the best-scored look's.
        """
        width = image.shape[1]
        mirror = np.ascontiguousarray(image[:, ::-1])
        seen = []
        for size, mirrored in looks:
            boxes, scores, faces = self._candidates(mirror if mirrored else image, size)
            if mirrored:
                boxes = np.column_stack([width - boxes[:, 2], boxes[:, 1], width - boxes[:, 0], boxes[:, 3]])
            seen.append((boxes.reshape(-1, 4), scores, faces))
        boxes, scores, faces = (np.concatenate([look[k] for look in seen]) for k in range(3))
        if not len(boxes):
            return Detections.empty()
        boxes, faces = boxes[(kept := nms(boxes, scores, self.iou, self.core))], faces[kept]
        votes = np.zeros(len(boxes))
        for look_boxes, look_scores, _ in seen:
            if len(look_boxes):
                overlaps = box_iou(boxes, look_boxes) > VOTE_IOU
                votes += np.where(overlaps, look_scores[None, :], 0.0).max(axis=1)
        votes /= len(looks)
        chosen = np.flatnonzero(votes > self.vote)
        if not len(chosen):
            return Detections.empty()
        data = {"face": faces[chosen] + 1} if self.faces else {}
        return Detections(boxes[chosen].astype(np.float32), votes[chosen].astype(np.float32), data)

    def _may_have_missed(self, boxes: np.ndarray, scores: np.ndarray, chosen: np.ndarray) -> bool:
        """Whether a weak box (under the threshold) overlaps none of the dice ``chosen`` (a die the look may miss)."""
        weak = np.flatnonzero(scores <= self.confidence)
        if not len(weak):
            return False
        weak = weak[nms(boxes[weak], scores[weak], self.iou, self.core)]
        return not len(chosen) or bool((box_iou(boxes[weak], boxes[chosen]).max(axis=1) < NEW_DIE_IOU).any())

    def read(self, image: np.ndarray, detections: Detections) -> Detections:
        """Stage 2: adds the columns ``pips``, ``pips_confidence``, ``colour``, ``colour_confidence``, ``biggy``.

        ``colour_scores`` (N, len(PALETTE_NAMES)) holds the colour head's probability of each palette
        colour, from which a game's own colours are told (:meth:`vision.colours.ColourBook.scores`).

        Also ``size``: each die's size in pixels (the square root of its silhouette's area, as the die
        reader sees it; NaN from a reader without that output, whose Biggys are told by the boxes'
        sides), and ``body``: each die's body colour (BGR), from which the colours learned at setup are told.
        """
        if not len(detections):
            empty = {"pips": np.zeros(0, int), "pips_confidence": np.zeros(0, np.float32),
                     "colour": np.zeros(0, object), "colour_confidence": np.zeros(0, np.float32),
                     "biggy": np.zeros(0, bool), "size": np.zeros(0, np.float32),
                     "body": np.zeros((0, 3), np.float32),
                     "colour_scores": np.zeros((0, len(PALETTE_NAMES)), np.float32)}  # fmt: skip
            return Detections(detections.xyxy, detections.confidence, {**detections.data, **empty})
        crops = self._crops(image, detections.xyxy)
        pip_p, colour_p, fill = read_crops(self.reader, crops, 1)
        # Only these are read again, turned (most dice are read at once).
        unsure = (pip_p.max(1) < self.sure) | (colour_p.max(1) < self.colour_sure)
        if self.rotations > 1 and unsure.any():  # the other turns, averaged with the first
            more_pips, more_colour, more_fill = read_crops(self.reader, crops[unsure], self.rotations, first=1)
            turns = self.rotations
            for first, more in ((pip_p, more_pips), (colour_p, more_colour), (fill, more_fill)):
                first[unsure] = (first[unsure] + (turns - 1) * more) / turns
        if self.pip_views and unsure.any():
            pip_p[unsure] = self._pips_in_more_views(image, detections.xyxy[unsure], crops[unsure], pip_p[unsure])
        sizes = fill * (detections.xyxy[:, 2:] - detections.xyxy[:, :2]).max(axis=1)  # NaN: the reader cannot tell
        one_stage = "face" in detections.data
        data = {
            **detections.data,
            "pips": detections.data["face"] if one_stage else pip_p.argmax(1) + 1,
            "pips_confidence": np.ones(len(detections), np.float32) if one_stage else pip_p.max(1).astype(np.float32),
            "colour": np.array([self.colours[i] for i in colour_p.argmax(1)], dtype=object),
            "colour_confidence": colour_p.max(1).astype(np.float32),
            "biggy": biggy_by_size(detections, sizes if np.isfinite(sizes).all() else None),
            "size": sizes.astype(np.float32),
            "body": body_colour(crops),
            "colour_scores": self._palette_order(colour_p),
        }
        return Detections(detections.xyxy, detections.confidence, data)

    def _crops(self, image: np.ndarray, boxes: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """The die reader's input crops (N, S, S, 3) of ``boxes`` (xyxy) in ``image``."""
        return np.stack([crop_die(image, box, self.crop_size, self.crop_margin) for box in boxes])

    def _pips_in_more_views(self, image: np.ndarray, boxes: np.ndarray, crops: np.ndarray, pip_p: np.ndarray,
                            ) -> np.ndarray:  # fmt: skip
        """``pip_p`` (the dice's pips read in their crops) averaged with more views of them, each in every turn.

        The crops mirrored (a face's pips are the same mirrored) and cut from boxes :data:`PIP_SCALES` times
        as large (another framing of a box that is not quite the die's). Only the pips: the colour and the
        size are read from the box as found.
        """
        views = [np.ascontiguousarray(crops[:, :, ::-1])]
        views += [self._crops(image, [scaled_box(box, scale) for box in boxes]) for scale in PIP_SCALES]
        total = pip_p.copy()
        for view in views:
            total += read_crops(self.reader, view, self.rotations)[0]
        return total / (len(views) + 1)

    def _palette_order(self, colour_p: np.ndarray) -> np.ndarray:
        """The colour head's probabilities in the order of ``PALETTE_NAMES`` (0 for a colour it lacks)."""
        out = np.zeros((len(colour_p), len(PALETTE_NAMES)), np.float32)
        for k, name in enumerate(self.colours):
            if name in PALETTE_NAMES:
                out[:, PALETTE_NAMES.index(name)] = colour_p[:, k]
        return out

    def __call__(self, image: np.ndarray) -> Detections:
        """Both stages on one BGR image."""
        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
            raise ValueError("expected a BGR image of shape (height, width, 3)")
        return self.read(image, self.find(image))


def dice_to_json(detections: Detections, colours: Sequence[str] | None = None) -> list[dict[str, object]]:
    """The ``dice`` list of ``dice-referee detect --json``: box, pips, colour, biggy, confidence, colour_scores.

    ``confidence`` is the detector's confidence that a die is there times the reader's confidence in
    its pips. ``colour_scores`` is each die's probability of each colour in play: ``colours`` (the
    colour head restricted to them and renormalised, and where the head is unsure weighed by the body
    colours of the picture's surely read dice, :meth:`vision.colours.ColourBook.scores`; the die's
    ``colour`` is then the likeliest of them), or every palette colour when None.
    """
    data = detections.data
    names = list(colours) if colours is not None else list(PALETTE_NAMES)
    head = data.get("colour_scores")
    bodies = data.get("body")
    scores = ColourBook(names).scores(head, bodies) if head is not None and colours is not None else head
    dice = []
    for i, box in enumerate(detections.xyxy):
        die: dict[str, object] = {
            "box": [round(float(v), 1) for v in box],
            "pips": int(data["pips"][i]),
            "colour": names[int(np.argmax(scores[i]))] if colours is not None and scores is not None
            else str(data["colour"][i]),
            "biggy": bool(data["biggy"][i]),
            "confidence": round(float(detections.confidence[i] * data["pips_confidence"][i]), 3),
        }  # fmt: skip
        if scores is not None:
            die["colour_scores"] = {name: round(float(scores[i][k]), 4) for k, name in enumerate(names)}
        dice.append(die)
    return dice


def read_crops(session: object, crops: np.ndarray, rotations: int = 4, first: int = 0,
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Pip and colour probabilities and sizes of uint8 BGR crops (N, S, S, 3) from the die reader's session.

    A face reads the same turned, so the prediction is averaged over the quarter turns ``first`` to
    ``rotations - 1`` (test-time augmentation; ``first`` skips turns already read). The size is the
    die's size over the larger side of its box, NaN from a reader without the size output (v4 and before).
    """
    n = len(crops)
    turned = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in range(first, max(first + 1, rotations))])
    blob = np.ascontiguousarray(turned.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0
    pip_logits, colour_logits, *size = session.run(None, {session.get_inputs()[0].name: blob})  # type: ignore[attr-defined]
    pip_p = _softmax(pip_logits).reshape(-1, n, pip_logits.shape[1]).mean(axis=0)
    colour_p = _softmax(colour_logits).reshape(-1, n, colour_logits.shape[1]).mean(axis=0)
    sizes = size[0].reshape(-1, n).mean(axis=0) if size else np.full(n, np.nan)
    return pip_p, colour_p, sizes


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
