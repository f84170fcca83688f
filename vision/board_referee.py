"""Just 4 Fun refereed from the camera: frames in, the board read, its settled readings judged by the interpreter.

Per frame: the board's markers give the homography (the last one found is kept while a hand hides them), the
stones are read (:func:`vision.stones.read_board`), and a reading is judged once it has stayed the same for
``settle`` frames with nothing but stones on the board (a hand over it changes what is read from frame to frame,
and what it hides is no stone in play: a hand resting still is not a reading). Something that is no stone in play
lying still on the board for ``stray`` frames (a card, a stone of a colour not in play) is an alert.
The interpreter (:class:`referee.interpret.Interpreter` with :class:`referee.just4fun.camera.JustForFunCamera`)
says the placements; the cards drawn and played are entered on the page (:meth:`BoardReferee.enter`).

Example:
    >>> import itertools
    >>> from vision.synth.board import BoardFilm
    >>> film = BoardFilm(seed=3, players=("red", "blue"))
    >>> referee = BoardReferee(film.game.states[0])
    >>> for event in film.game.events[1:3]:  # the first hands, entered on the page
    ...     _ = referee.enter(event)
    >>> [str(v) for frame in itertools.islice(film.frames(), 20) for v in referee.process(frame)]
    ['red plays 3 + 4 and places a stone on field 7']
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.interpret import Interpreter, Verdict
from referee.just4fun import Event, Phase, State, StonePlaced, apply
from referee.just4fun.camera import BoardReading, board_interpreter, entered
from referee.types import Colour
from vision.board import board_for, find_board, grid_homography
from vision.capture import Frame
from vision.colours import PALETTE
from vision.detections import Detections
from vision.stones import bare_board, read_board

__all__ = ["BOARD_GAMES", "BoardReferee", "Seen"]

BOARD_GAMES = frozenset({"just-4-fun"})
"""The games refereed from their board by :class:`BoardReferee`."""


@dataclass
class Seen:
    """What one frame showed: the board found or not, the stones read, and what the referee said of them."""

    frame: Frame
    found: bool
    reading: BoardReading | None
    verdicts: list[Verdict] = field(default_factory=list)
    covered: frozenset[tuple[int, int]] = frozenset()
    """The spots something that is no stone in play hides (a hand): the reading is not judged."""
    calibration: np.ndarray | None = None
    """The homography used (picture pixels to board millimetres); None before the board was ever found."""
    detections: Detections = field(default_factory=Detections.empty)
    """No dice: what a dice table's report holds here (the live page reads both alike)."""


class BoardReferee:
    """Referees a Just 4 Fun game from frames of its board; see the module's description.

    Args:
        state: the game so far.
        settle: frames a reading must stay the same before it is judged.
        stray: frames something that is no stone in play may lie still on the board before it is an alert.
        corners: a real board's grid corners in the picture (:func:`vision.board.grid_homography`), instead of
            the printed board's markers.
        bare: that board seen empty (:func:`vision.stones.bare_board`); with ``corners`` and without it, the
            first frame seen is taken for it (calibrate with the board empty).
    """

    def __init__(self, state: State, settle: int = 3, stray: int = 30, corners: np.ndarray | None = None,
                 bare: np.ndarray | None = None) -> None:  # fmt: skip
        self.layout = board_for(state.rules)
        self.colours = [p.value for p in state.players]
        self.interpreter = board_interpreter(state)
        self.settle = settle
        self.stray = stray
        self._covered: frozenset[tuple[int, int]] = frozenset()
        self._covered_for = 0
        self.homography: np.ndarray | None = None
        self.fixed: np.ndarray | None = None
        """The homography from a real board's corners (None: the printed board's markers, found in every frame)."""
        self.bare = bare
        if corners is not None:
            self.fixed = self.homography = grid_homography(corners, self.layout)
        self._last: dict[tuple[int, int], Colour] | None = None
        self._same = 0
        self._judged: tuple[dict[tuple[int, int], Colour], State] | None = None
        self._placed: Verdict | None = None
        """The last placement the camera said (its cards are entered with the draw)."""

    @property
    def observer(self) -> Interpreter:
        """The camera interpreter (what the live page asks of any game's referee)."""
        return self.interpreter

    @property
    def calibration(self) -> np.ndarray | None:
        """The board's homography (picture pixels to millimetres), once its markers were seen."""
        return self.homography

    @property
    def state(self) -> State:
        """The game as refereed so far."""
        state: State = self.interpreter.state
        return state

    def see(self, frame: Frame) -> Seen:
        """Reads the board in one frame (the last homography kept while the markers are hidden)."""
        found = find_board(frame.image, self.layout) if self.fixed is None else self.fixed
        if found is not None:
            self.homography = found
        if self.homography is None:
            return Seen(frame, False, None)
        if self.fixed is not None and self.bare is None:
            self.bare = bare_board(frame.image, self.fixed, self.layout)
        board = read_board(frame.image, self.homography, self.layout, self.colours, self.bare)
        seen = {key: Colour.from_str(colour) for key, colour in board.stones.items()}
        # A stone already judged there, its colour still the nearest: that stone, its colour read less well (a
        # board calibrated by a picture of it empty sees stones in the game's light, not the printed colours).
        known = self._judged[0] if self._judged is not None else {}
        kept = {key for key, colour in board.nearest.items() if key in known and known[key].value == colour}
        seen.update({key: known[key] for key in kept})
        reading = BoardReading(frame.index, frame.timestamp_s, seen)
        return Seen(frame, found is not None, reading, covered=board.covered - kept, calibration=self.homography)

    def judge(self, seen: Seen) -> list[Verdict]:
        """Judges a reading once it has settled (and again after the game moved on by the page)."""
        if seen.reading is None:
            return []
        stones = dict(seen.reading.stones)
        self._same = self._same + 1 if stones == self._last else 1
        self._last = stones
        if seen.covered:
            return self._stray(seen)
        self._covered, self._covered_for = frozenset(), 0
        if self._same < self.settle or self._judged == (stones, self.state):
            return []
        verdicts = self.interpreter.observe(seen.reading)
        self._judged = (stones, self.state)
        seen.verdicts = verdicts
        for verdict in verdicts:
            if verdict.kind == "event" and isinstance(verdict.event, StonePlaced):
                self._placed = verdict
        return verdicts

    def _stray(self, seen: Seen) -> list[Verdict]:
        """Something that is no stone in play hides spots: not judged; an alert once it lies still ``stray`` frames."""
        self._covered_for = self._covered_for + 1 if seen.covered == self._covered else 1
        self._covered = seen.covered
        if self._covered_for != self.stray:
            return []
        fields = ", ".join(str(n) for n in sorted({n for n, _ in seen.covered}))
        reason = (f"something that is no stone in play lies on field {fields} (a hand, a card, a stone of another "
                  "colour): take it off the board")  # fmt: skip
        seen.verdicts = [Verdict("alert", seen.frame.index, seen.frame.timestamp_s, reason=reason)]
        return seen.verdicts

    def process(self, frame: Frame) -> list[Verdict]:
        """:meth:`see`, then :meth:`judge`."""
        return self.judge(self.see(frame))

    def enter(self, event: Event) -> list[Verdict]:
        """What the table entered on the page: cards drawn, or a placement (its cards played).

        A placement the camera has said with other cards is the same placement with the cards entered; one it
        has not seen (a stone on the player's own stack) is applied. Then what follows by itself (a hand thrown).

        Raises:
            IllegalEventError: what the rules refuse, or cards that do not name the field where the stone lies
                (nothing changes).
        """
        state, said = self.state, self._placed
        if isinstance(event, StonePlaced):
            if state.phase is not Phase.PLAY and said is not None and said.state == state:  # the camera's placement
                placed = entered(said.before, event.cards, seen=said.event.field)
                if placed == said.event:
                    return []
                after = apply(said.before, placed)
                self.interpreter.reset(after)
                self._placed = None
                return [Verdict("event", said.frame_index, said.timestamp_s, event=placed, before=said.before,
                                state=after, replaces=said.event, undone=1,
                                text=f"{placed.player} played {' + '.join(map(str, placed.cards))}")]  # fmt: skip
            event = entered(state, event.cards)
        return self.interpreter.answer(event)

    def calibrate(self, corners: np.ndarray, image: np.ndarray) -> None:
        """A real board from its grid's four corners in ``image``, which shows it empty (the reference of each spot).

        Raises:
            CalibrationError: for corners that do not form a convex quadrilateral (nothing changes).
        """
        fixed = grid_homography(corners, self.layout)
        self.bare = bare_board(image, fixed, self.layout)
        self.fixed = self.homography = fixed
        self._last, self._judged = None, None

    def learn_colour(self, name: str, seen: object = None) -> int:
        """Not for stones: their colours are told apart from the players' colours as printed (:mod:`vision.stones`).

        Raises:
            ValueError: always, with what to do instead.
        """
        raise ValueError("Just 4 Fun's stones are read by their colours as they are: nothing to learn")

    def annotate(self, image: np.ndarray, seen: Seen) -> np.ndarray:
        """The frame with the board's grid and each stone read ringed in its colour (the live page's video)."""
        out = image.copy()
        if seen.calibration is None:
            cv2.putText(out, "no board: put the printed board in view", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                        (0, 0, 255), 2, cv2.LINE_AA)  # fmt: skip
            return out
        to_image = np.linalg.inv(seen.calibration)
        for number in range(1, 37):
            square = cv2.perspectiveTransform(self.layout.square(number).reshape(-1, 1, 2), to_image)
            cv2.polylines(out, [square.astype(np.int32)], True, (60, 200, 255), 1, cv2.LINE_AA)
        for (number, spot), colour in seen.reading.stones.items() if seen.reading else ():
            centre = np.array([[self.layout.spot_centre(number, spot)]], np.float64)
            x, y = cv2.perspectiveTransform(centre, to_image)[0, 0]
            cv2.circle(out, (round(x), round(y)), 12, PALETTE[colour.value], 2, cv2.LINE_AA)
        return out
