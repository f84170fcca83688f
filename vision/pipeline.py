"""The camera pipeline: frames in, refereed game out.

Per frame: find the mat's markers (or use a fixed calibration) -> notice motion -> read the dice
(the detector; skipped while something moves, when the table cannot settle anyway) -> place each die
on the table plane, in its zone, with its owner colour and Biggy-or-not judged from its size in table
millimetres -> :class:`~vision.tracker.Tracker` -> a settled :class:`~referee.readings.TableSnapshot`
-> :class:`~referee.interpret.Interpreter` -> events, alerts and held-back readings.

:meth:`TablePipeline.process` returns a :class:`Report` per frame; :func:`report_lines` turns reports
into the JSON lines of ``dice-referee watch --json``. The detector is any callable from a BGR image to
:class:`~vision.detections.Detections` with ``pips`` and ``colour`` (and optionally ``body``) columns,
so tests can drive the pipeline with the renderer's ground truth as well as with the trained model.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from referee import Colour, GameState
from referee.game import dice_game_of
from referee.interpret import Interpreter, ObservationModel, Verdict
from referee.readings import TableSnapshot
from vision.capture import Frame
from vision.colours import PALETTE, ColourBook, body_colour
from vision.crops import crop_die, silhouette
from vision.detections import Detections
from vision.mat import MatLayout, find_mat, mat_for
from vision.tracker import MotionMeter, Sighting, Tracker
from vision.zones import Calibration

__all__ = ["Report", "TablePipeline", "camera_referee", "referee_pipeline", "report_lines"]

Reader = Callable[[np.ndarray], Detections]


@dataclass
class Report:
    """What one frame gave."""

    frame: Frame
    calibration: Calibration | None
    """The calibration used (None: no mat seen yet and none given)."""
    motion: bool
    """Something moved since the previous frame."""
    detections: Detections
    """The dice read in this frame (empty while something moves)."""
    zones: np.ndarray
    """Zone per detection (1..6 casino, 0 rolling area, -1 none)."""
    owners: list[Colour]
    """Owner colour per detection."""
    biggy: np.ndarray
    """Biggy or not per detection, judged on the table plane."""
    snapshot: TableSnapshot | None = None
    """A new settled reading, when the table settled anew in this frame."""
    verdicts: list[Verdict] = field(default_factory=list)
    """What the referee made of it."""
    state: GameState | None = None
    """The game after this frame."""


class TablePipeline:
    """Referees a game from frames; see the module's description.

    Args:
        reader: the dice reader (``vision.detect.DiceDetector`` or any callable with its output).
        observer: the referee's side (holds the game state).
        calibration: a fixed calibration (no mat); None to find the mat's markers in every frame.
        mat: the mat layout whose markers to look for (None: the game's, :func:`vision.mat.mat_for`).
        colours: learned dice colours; by default each game colour's palette value.
        tracker: the tracker (default settings when None).
        read_while_moving: also read dice in frames with motion (slower; the table cannot settle then).
        mat_every: while nothing moves, look for the mat's markers every this many frames (a bumped
            camera or mat is motion: they are looked for again as soon as the picture is still).
        min_gap_mm: two dice read closer than this on the table plane are one die read twice.
        bridge_mm, bridge_confidence: a box the detector is less than ``bridge_confidence`` sure of, centred
            closer than ``bridge_mm`` (less than a die's width) to a die read better, is no die: a box over
            two neighbours, or over a die and a part of its neighbour (see :func:`_apart`).
        mark_mm: a box centred this close to a mark printed on the play area (a casino's number) is the
            mark, unless the detector is at least ``mark_confidence`` sure it is a die (one lying on it).
    """

    def __init__(self, reader: Reader, observer: Interpreter, *, calibration: Calibration | None = None,
                 mat: MatLayout | None = None, colours: ColourBook | None = None, tracker: Tracker | None = None,
                 read_while_moving: bool = False, mat_every: int = 5, min_gap_mm: float = 9.0,
                 bridge_mm: float = 15.0, bridge_confidence: float = 0.5, mark_mm: float = 6.0,
                 mark_confidence: float = 0.6) -> None:  # fmt: skip
        self.reader = reader
        self.observer = observer
        self.fixed = calibration
        self.calibration = calibration
        self.mat = mat if mat is not None else mat_for(observer.state.ruleset.game)
        state = observer.state
        names = [str(p) for p in state.players] + ([str(state.neutral)] if state.neutral is not None else [])
        hooks = getattr(state.ruleset, "hooks", None)  # a dice game's tiles may put dice of their own (Royale's grey)
        names += [str(c) for c in getattr(hooks, "extra_colours", ()) if str(c) not in names]
        self.colours = colours or ColourBook(names)
        if colours is None and calibration is not None and calibration.colours:
            self.colours.load_json(calibration.colours)
        self.tracker = tracker or Tracker()
        self.motion = MotionMeter()
        self.read_while_moving = read_while_moving
        self.mat_every = max(1, mat_every)
        self.min_gap_mm = min_gap_mm
        self.bridge_mm, self.bridge_confidence = bridge_mm, bridge_confidence
        self.mark_mm, self.mark_confidence = mark_mm, mark_confidence
        self._was_moving = False
        self.has_biggies = state.ruleset.biggies_per_player > 0
        self._sizes: deque[float] = deque(maxlen=400)

    def learn_colour(self, name: str, report: Report) -> int:
        """Learns a player's dice colour from the dice in a frame's rolling area ("show me your dice").

        Returns how many dice it learned from.

        Raises:
            ValueError: when no die lies in the rolling area, or ``name`` is not one of the game's colours.
        """
        tray = [i for i, zone in enumerate(report.zones) if zone == 0]
        if not tray:
            raise ValueError(f"no dice in the rolling area: put the {name} dice there and try again")
        bodies = [body_colour(crop_die(report.frame.image, report.detections.xyxy[i])) for i in tray]
        self.colours.learn(name, bodies)
        return len(bodies)

    def _calibrate(self, image: np.ndarray, index: int, moving: bool) -> None:
        """Follows the mat in still frames (the only ones whose dice are read).

        The markers are looked for in the first still frame after any motion (a bumped camera or mat
        moves the picture), then every ``mat_every`` still frames.
        """
        was_moving, self._was_moving = self._was_moving, moving
        if self.fixed is not None or (
            self.calibration is not None and (moving or (not was_moving and index % self.mat_every))
        ):
            return
        scale = 0.5 if image.shape[1] > 1000 else 1.0
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale != 1 else image
        found = find_mat(small, self.mat)
        if found is not None:
            homography = found.homography @ np.diag([scale, scale, 1.0])
            self.calibration = self.mat.calibration(homography)

    def _of_the_game(self, detections: Detections) -> np.ndarray:
        """Which detections may be dice of the game's colours (:meth:`ColourBook.of_the_game`).

        All of them where the reader gives no colour probabilities.
        """
        head = detections.data.get("colour_scores")
        if head is None:
            return np.ones(len(detections), bool)
        bodies = detections.data.get("body")
        return self.colours.of_the_game(head, None if bodies is None else np.asarray(bodies, np.float32).reshape(-1, 3))

    def _owners(self, detections: Detections) -> list[Colour]:
        """Each die's colour among the game's: the reader's colour probabilities, with the learned colours."""
        data = detections.data
        if "body" in data:
            bodies = np.asarray(data["body"], dtype=np.float32).reshape(-1, 3)
        else:
            bodies = np.array([PALETTE.get(str(name), PALETTE["grey"]) for name in data["colour"]], np.float32)
        return [Colour(name) for name in self.colours.decide(data.get("colour_scores"), bodies.reshape(-1, 3))]

    def _sizes_mm(self, image: np.ndarray, calibration: Calibration, detections: Detections) -> np.ndarray:
        """Each die's size on the table plane: the square root of its outline's projected area.

        The die reader's size estimate (pixels) scaled by the table's millimetres per pixel at the box,
        when the reader gives one; else the die's rotated silhouette when one stands out clearly, else
        its box.
        """
        sizes = np.zeros(len(detections))
        learned = detections.data.get("size", np.full(len(detections), np.nan))
        for i, (x0, y0, x1, y1) in enumerate(detections.xyxy):
            box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)
            box_mm = _area(calibration.to_table(box))
            if np.isfinite(learned[i]):
                sizes[i] = learned[i] * np.sqrt(box_mm / max((x1 - x0) * (y1 - y0), 1e-6))
                continue
            outline = silhouette(image, (x0, y0, x1, y1))
            outline_mm = _area(calibration.to_table(outline)) if outline is not None else 0.0
            # A silhouette much smaller than the box is a part of the die (a face in shadow): not trusted.
            sizes[i] = np.sqrt(outline_mm if 0.45 * box_mm <= outline_mm <= box_mm else box_mm)
        return sizes

    def _biggy(self, sizes: np.ndarray, owners: list[Colour], zones: np.ndarray) -> np.ndarray:
        """Biggy or not per die size (table millimetres), against a normal die's size.

        Most dice are normal, so the sizes' lower quartile over the recent past is a normal die's size;
        a Biggy's edge is about 1.5 times it. A player has only so many Biggys: the largest are kept, those
        in the play area (``zones`` >= 0: a casino or the rolling area) before anything boxed off it.

        Traced: beside Royale's ring, something of a player's colour off every zone (a chip, a card's corner)
        boxed as a die 31-43 mm wide took that player's one Biggy, so his Biggy in the arena, 29 mm against
        19 mm dice, was read as a normal die roll after roll, and the referee re-read the round to find it a
        place (seed 342, 3 players). What lies off the play area also does not set a normal die's size.
        """
        if not self.has_biggies or not len(sizes):
            return np.zeros(len(sizes), dtype=bool)
        inside = np.asarray(zones) >= 0
        self._sizes.extend(float(s) for s in sizes[inside])
        if not self._sizes:
            return np.zeros(len(sizes), dtype=bool)
        reference = float(np.percentile(np.array(self._sizes), 25))
        big = sizes > 1.25 * reference
        limit = self.observer.state.ruleset.biggies_per_player
        order = np.lexsort((-sizes, ~inside))  # the play area's first, each by size, largest first
        for owner in set(owners):
            mine = [i for i in order if owners[i] is owner and big[i]]
            big[mine[limit:]] = False
        return big

    def _not_marks(self, calibration: Calibration, table: np.ndarray, confidence: np.ndarray) -> np.ndarray:
        """Which detections are not the marks printed on the play area (the mat's casino numbers).

        ``table``: the detections' centres on the table plane; ``confidence``: the detector's.

        Traced: the mat's "2" boxed with 0.36 confidence and read as a white 1, a phantom die on casino 2
        for the rest of the round (seed 7074). A die lying on a mark hides it and is boxed surely; a mark
        is boxed at 0.03-0.4 (rendered games).
        """
        marks = calibration.marks
        if marks is None or not len(marks):
            return np.ones(len(table), bool)
        near = np.linalg.norm(table[:, None, :] - marks[None, :, :], axis=2).min(axis=1) < self.mark_mm
        return ~near | (confidence >= self.mark_confidence)

    def process(self, frame: Frame) -> Report:
        """Runs one frame through the pipeline: :meth:`see`, then :meth:`judge`."""
        return self.judge(self.see(frame))

    def see(self, frame: Frame) -> Report:
        """Reads one frame (calibration, the model, zones, owners, Biggys, the tracker); decides nothing.

        The report's ``snapshot`` is set when the table has settled; :meth:`judge` then interprets it.
        """
        image = frame.image
        moving = self.motion(image)
        self._calibrate(image, frame.index, moving)
        calibration = self.calibration
        if calibration is None or (moving and not self.read_while_moving):
            detections = Detections.empty()
        else:
            detections = self.reader(image)
        if calibration is not None and len(detections):
            table = calibration.to_table(detections.centres)
            keep = self._not_marks(calibration, table, detections.confidence) & self._of_the_game(detections)
            detections, table = detections[keep], table[keep]
        if calibration is not None and len(detections):
            zones = calibration.zones_at(table)
            owners = self._owners(detections)
            sizes = self._sizes_mm(image, calibration, detections) if self.has_biggies else np.zeros(len(detections))
            biggy = self._biggy(sizes, owners, zones)
        else:
            zones, table, biggy, sizes = np.zeros(0, np.int64), np.zeros((0, 2)), np.zeros(0, bool), np.zeros(0)
            owners = []
        report = Report(frame, calibration, moving, detections, zones, owners, biggy, state=self.observer.state)
        if calibration is None:
            return report
        pips = detections.data.get("pips", np.zeros(len(detections), int))
        reliability = detections.data.get("pips_confidence", np.ones(len(detections)))
        confidence = detections.confidence * reliability
        columns = zip(table[:, 0], table[:, 1], zones, owners, biggy, pips, confidence, sizes, strict=True)
        sightings = [Sighting(float(x), float(y), int(z), o, bool(b), int(v), float(c), float(m))
                     for x, y, z, o, b, v, c, m in columns]  # fmt: skip
        unsure = detections.confidence < self.bridge_confidence
        sightings = [sightings[i] for i in _apart(table, confidence, self.min_gap_mm, unsure, self.bridge_mm)]
        report.snapshot = self.tracker.update(frame.index, frame.timestamp_s, sightings, motion=moving)
        return report

    def judge(self, report: Report) -> Report:
        """Interprets a settled table :meth:`see` read (the game's verdicts); returns the report completed."""
        if report.snapshot is not None:
            report.verdicts = self.observer.observe(report.snapshot)
            report.state = self.observer.state
        return report

    def enter(self, event: Any) -> list[Verdict]:
        """What the table entered on the page (a deal, a decision, a correction), then what follows by itself.

        Raises:
            IllegalEventError: when the rules refuse it (nothing changes).
        """
        return self.observer.answer(event)

    def run(self, frames: Iterator[Frame]) -> Iterator[Report]:
        """Processes frames as they come."""
        for frame in frames:
            yield self.process(frame)


def camera_referee(state: GameState, deal: Callable[[GameState], Any] | None = None,
                   model: ObservationModel | None = None) -> Interpreter:  # fmt: skip
    """The referee's side of the camera for ``state``'s game: the camera interpreter with the game's table.

    The one place the interpreter is made: the command line, the page, the benchmarks and the tests
    use it (``deal`` deals the banknotes when a round starts; without it they are entered by hand).
    ``model``: the reader's observation model (the shipped one by default).
    """
    return Interpreter(dice_game_of(state).camera(model), state, deal=deal, model=model)


def referee_pipeline(reader: Reader, state: GameState, deal: Callable[[GameState], Any] | None = None, *,
                     calibration: Calibration | None = None) -> TablePipeline:  # fmt: skip
    """Reader -> pipeline -> interpreter for a game from ``state`` (see :func:`camera_referee`).

    The interpreter weighs the readings with the observation model measured for ``reader`` (its
    ``observation``, :func:`vision.detect.table_reader`), the shipped one for a reader without.
    """
    model = getattr(reader, "observation", None)
    return TablePipeline(reader, camera_referee(state, deal, model), calibration=calibration)


def _apart(points: np.ndarray, scores: np.ndarray, gap: float, unsure: np.ndarray | None = None,
           unsure_gap: float = 0.0) -> list[int]:  # fmt: skip
    """Indices of the points kept, best score first, dropping any closer than ``gap`` (or ``unsure_gap``) to one kept.

    ``unsure``: the points ``unsure_gap`` applies to (by default none).

    Two dice cannot lie closer than a die's width on the table plane: two boxes that close are one
    die seen twice (a crowded casino), whatever their overlap in the picture. A box the detector is unsure
    of between two neighbours is a box over both (or over one and a part of the other), read in the colour
    of one: its centre lies 11-15 mm from the nearer, too far for ``gap`` (traced: a phantom red Biggy over a
    red die and a blue one on Nice Dice's casino taken for red's last roll and placement, Royale main game
    429; a phantom black 6 over a black die and a green Biggy taken for Fifty Fifty's roll, main 3p 430; a
    white 2 over two dice on casino 2, Las Vegas six players 5251). Measured on frames at rest of the nine
    Las Vegas tables and Royale's main game with 3-5 players: unsure under 0.5 and within 15 mm drops 100 of
    678 boxes that are no die and 1 die of 16,081 (the seeds it was chosen on); on other seeds 199 of 873
    and no die of 15,767.
    """
    unsure = np.zeros(len(points), bool) if unsure is None else np.asarray(unsure, bool)
    kept: list[int] = []
    for i in np.argsort(-np.asarray(scores), kind="stable"):
        near = max(gap, unsure_gap) if unsure[i] else gap
        if all(np.hypot(*(points[i] - points[j])) >= near for j in kept):
            kept.append(int(i))
    return sorted(kept)


def _area(polygon: np.ndarray) -> float:
    """The area of a polygon (N, 2) (the shoelace formula)."""
    x, y = polygon[:, 0], polygon[:, 1]
    return float(0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)))


def _event_line(verdict: Verdict) -> dict[str, Any]:
    event, before = verdict.event, verdict.before
    line: dict[str, Any] = {"type": "event", "frame": verdict.frame_index, "time_s": round(verdict.timestamp_s, 3)}
    if verdict.kind == "cleared":
        return {**line, "event": "cleared"}
    assert event is not None and before is not None
    game = dice_game_of(before)
    line.update(game.event_to_json(event))
    if line["event"] == "placed":
        line["count"] = int(line["dice"]) + int(line.get("biggies", 0)) + int(line.get("neutral", 0))
    if line["event"] == "scored":
        line["event"] = "settled"
        line["round"] = before.round
        line["payout"] = game.payout_json(game.preview(before))
    if verdict.replaces is not None:
        line["replaces"] = game.event_to_json(verdict.replaces)
    line["text"] = str(verdict)
    return line


def report_lines(report: Report, last_table: list[Any]) -> list[dict[str, Any]]:
    """The ``watch --json`` lines for one report: events, alerts, uncertain readings, then the table.

    ``last_table`` holds the last state seen and its table (a list, updated here), so that a ``table``
    line is only given when the refereed table changes.
    """
    lines: list[dict[str, Any]] = []
    for verdict in report.verdicts:
        if verdict.kind in ("event", "cleared"):
            lines.append(_event_line(verdict))
        else:
            lines.append({"type": verdict.kind, "frame": verdict.frame_index, "time_s": round(verdict.timestamp_s, 3),
                          "reason": verdict.reason})  # fmt: skip
    state = report.state
    if state is None or (last_table and last_table[0] is state):
        return lines  # the game did not move: nor did its table
    view = dice_game_of(state).table_json(state)
    changed = not last_table or last_table[1] != view["casinos"]
    last_table[:] = [state, view["casinos"]]
    if changed:
        lines.append({"type": "table", "frame": report.frame.index, "time_s": round(report.frame.timestamp_s, 3),
                      **view})  # fmt: skip
    return lines
