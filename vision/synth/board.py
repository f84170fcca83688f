"""Rendered Just 4 Fun tables: the printed board under a camera, the players' stones stacked on their spots.

Ours to make, like the dice renders: each state of a seeded random game (:func:`referee.just4fun.play`)
drawn on the board of :mod:`vision.board` (a stone by each player's side of a field, a secured stack on the
centre), seen by a camera at a random height and angle, with uneven light and sensor noise. The truth of a
picture is the state's own stones (:func:`truth`), never a model's reading.

Example:
    >>> game = RenderedBoard(seed=3, players=("red", "blue"))
    >>> image = game.picture(len(game.states) - 1)
    >>> image.shape, sum(1 for _ in truth(game.states[-1]))  > 0
    ((720, 1280, 3), True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

import cv2
import numpy as np

from referee.just4fun import CardsDrawn, Event, Rules, State, StonePlaced, play
from vision.board import CENTRE, BoardLayout, board_for, draw_board
from vision.capture import Frame
from vision.colours import PALETTE
from vision.synth.camera import Camera, look_at

__all__ = ["HAND_BGR", "STONE_MM", "BoardFilm", "RenderedBoard", "Shot", "real_board", "truth"]

STONE_MM = 11.0
"""A stone's diameter (the board's spots are 9 mm circles in fields of 42 mm)."""
_PX_PER_MM = 3.0
HAND_BGR = (120, 160, 205)
"""A hand's colour (skin under warm light)."""


def truth(state: State) -> Iterator[tuple[int, int, str, int]]:
    """The stones a state puts on the board: (field, spot, colour, stack height), one per stack."""
    for number in range(1, len(state.stacks) + 1):
        holder = state.secured[number - 1]
        for seat, count in enumerate(state.stack(number)):
            if count:
                yield number, CENTRE if seat == holder else seat, state.players[seat].value, count


class RenderedBoard:
    """A random game of Just 4 Fun, its every state a picture of the table (1280x720 by default)."""

    def __init__(self, seed: int = 2005, players: Sequence[str] = ("red", "blue", "green"), rules: Rules | None = None,
                 size: tuple[int, int] = (1280, 720), tilt_deg: float | None = None, real: bool = False,
                 ) -> None:  # fmt: skip
        self.seed, self.size = seed, size
        played = list(play(players, seed, rules))
        self.states = [state for _, state in played]
        self.events: list[Event | None] = [event for event, _ in played]
        """The event that led to each state (None for the first)."""
        self.layout: BoardLayout = board_for(self.states[0].rules)
        rng = np.random.default_rng(seed)
        tilt = float(rng.uniform(0.0, 30.0)) if tilt_deg is None else tilt_deg
        target = np.array([self.layout.width_mm / 2 + rng.uniform(-15, 15), -self.layout.height_mm / 2, 0.0])
        self.camera: Camera = look_at(size[0], size[1], float(rng.uniform(55, 65)), target, tilt,
                                      float(rng.uniform(-12, 12)), float(rng.uniform(560, 640)))  # fmt: skip
        self.light = (float(rng.uniform(0.8, 1.1)), rng.uniform(-0.25, 0.25, 2))
        """The light's brightness and its gradient across the picture."""
        self.jitter = {(n, s): rng.uniform(-1.5, 1.5, 2) for n in range(1, 37) for s in range(5)}
        """Where each stone lies off its spot's centre (mm): players do not put them exactly."""
        self._board = draw_board(_PX_PER_MM, self.layout) if not real else real_board(self.layout, seed)
        self._to_image = self.camera.table_homography() @ np.array([[1, 0, 0], [0, -1, 0], [0, 0, 1.0]])
        """Board millimetres (y towards seat 0) to picture pixels."""

    def picture(self, index: int, noise_seed: int | None = None, hand: tuple[int, int, float] | None = None,
                lingering: bool = False) -> np.ndarray:  # fmt: skip
        """The table after state ``index`` as the camera sees it (BGR).

        ``hand``: (field, seat, reach 0-1): that seat's hand reaching from its side of the board towards the field
        (1: over it). ``lingering``: after a stone that secured a field, the others' stones still on it (players
        take them off a moment after the stack is moved to the centre).
        """
        board = self._board.copy()
        stones = list(truth(self.states[index]))
        if lingering and self.secures(index):
            field = self.events[index].field  # type: ignore[union-attr]
            stones += [stone for stone in truth(self.states[index - 1]) if stone[0] == field
                       and stone[2] != self.events[index].player.value]  # type: ignore[union-attr]  # fmt: skip
        for number, spot, colour, height in stones:
            x, y = np.array(self.layout.spot_centre(number, spot)) + self.jitter[number, spot]
            _stone(board, x * _PX_PER_MM, y * _PX_PER_MM, PALETTE[colour], height)
        if hand is not None:
            self._hand(board, *hand)
        image = cv2.warpPerspective(board, self._to_image @ np.diag([1 / _PX_PER_MM, 1 / _PX_PER_MM, 1]), self.size,
                                    flags=cv2.INTER_AREA, borderValue=(60, 90, 60))  # fmt: skip
        gain, slope = self.light
        w, h = self.size
        ramp = gain + slope[0] * (np.arange(w)[None, :] / w - 0.5) + slope[1] * (np.arange(h)[:, None] / h - 0.5)
        rng = np.random.default_rng(self.seed * 1000 + index if noise_seed is None else noise_seed)
        lit = image.astype(np.float32) * ramp[..., None] + rng.normal(0, 3.0, image.shape)
        return np.clip(lit, 0, 255).astype(np.uint8)

    def secures(self, index: int) -> bool:
        """True when event ``index`` is a stone that secures its field."""
        event = self.events[index]
        return isinstance(event, StonePlaced) and self.states[index].secured[event.field - 1] >= 0 > self.states[
            index - 1].secured[event.field - 1]  # fmt: skip

    def _hand(self, board: np.ndarray, number: int, seat: int, reach: float) -> None:
        """A hand and its arm from ``seat``'s edge of the board to ``reach`` of the way to field ``number``."""
        tx, ty = self.layout.spot_centre(number, CENTRE)
        w, h = self.layout.width_mm, self.layout.height_mm
        sx, sy = {0: (tx, h + 40), 1: (-40, ty), 2: (tx, -40), 3: (w + 40, ty)}[seat]
        hx, hy = sx + (tx - sx) * reach, sy + (ty - sy) * reach
        px = _PX_PER_MM
        colour = tuple(float(c) for c in HAND_BGR)
        cv2.line(board, (round(sx * px), round(sy * px)), (round(hx * px), round(hy * px)), colour,
                 round(60 * px), cv2.LINE_AA)  # fmt: skip
        cv2.circle(board, (round(hx * px), round(hy * px)), round(45 * px), colour, -1, cv2.LINE_AA)

    def grid_corners(self) -> np.ndarray:
        """The board's 6x6 grid's corners in the picture, clockwise from the far-left one (what a user clicks)."""
        numbers = self.layout.rules.layout
        square = [self.layout.square(numbers[k]) for k in (0, 5, 35, 30)]  # the grid's far-left, ... near-left fields
        corners = np.array([square[0][0], square[1][1], square[2][2], square[3][3]])
        return cv2.perspectiveTransform(corners.reshape(-1, 1, 2), self._to_image).reshape(4, 2)

    def pixels_to_board(self) -> np.ndarray:
        """The true homography from picture pixels to board millimetres (what the markers should give)."""
        return np.linalg.inv(self._to_image)


def real_board(layout: BoardLayout, seed: int = 0) -> np.ndarray:
    """A board printed by someone else, as a user's own: the same grid and numbers, no markers.

    Other colours per field and artwork over them (stripes and blots): a stone is told only against the board seen
    empty (:func:`vision.stones.bare_board`).
    """
    rng = np.random.default_rng(seed + 77)
    board = draw_board(_PX_PER_MM, layout)
    for x, y in layout.markers.values():  # no markers: the grid's corners are clicked instead
        top_left = (round(x * _PX_PER_MM) - 2, round(y * _PX_PER_MM) - 2)
        size = round(layout.marker_mm * _PX_PER_MM) + 4
        cv2.rectangle(board, top_left, (top_left[0] + size, top_left[1] + size), (245, 245, 245), -1)
    for number in range(1, 37):
        square = np.round(layout.square(number) * _PX_PER_MM).astype(np.int32)
        x0, y0 = square[0]
        x1, y1 = square[2]
        tint = rng.uniform(0.75, 1.15, 3)
        board[y0:y1, x0:x1] = np.clip(board[y0:y1, x0:x1] * tint, 0, 255).astype(np.uint8)
        for _ in range(3):  # artwork: a stripe and a blot of the print's own colours
            colour = tuple(float(c) for c in rng.uniform(90, 200, 3))
            p, q = rng.integers([x0, y0], [x1, y1], (2, 2))
            cv2.line(board, tuple(int(v) for v in p), tuple(int(v) for v in q), colour, 3, cv2.LINE_AA)
        centre = tuple(int(v) for v in rng.integers([x0 + 5, y0 + 5], [x1 - 5, y1 - 5]))
        cv2.circle(board, centre, int(rng.integers(4, 12)), tuple(float(c) for c in rng.uniform(90, 200, 3)), -1)
    return board


def _stone(board: np.ndarray, cx: float, cy: float, colour: tuple[int, int, int], height: int) -> None:
    """A round stone seen from above: its shadow, a darker rim, a lit top (a stack casts a longer shadow)."""
    r = STONE_MM / 2 * _PX_PER_MM
    shadow = 0.6 * _PX_PER_MM * (1 + min(height, 4) * 0.5)
    cv2.circle(board, (round(cx + shadow), round(cy + shadow)), round(r), (90, 90, 90), -1, cv2.LINE_AA)
    body = np.array(colour, np.float32)
    cv2.circle(board, (round(cx), round(cy)), round(r), tuple(float(c) for c in body * 0.75), -1, cv2.LINE_AA)
    cv2.circle(board, (round(cx), round(cy)), round(r * 0.82), tuple(float(c) for c in body), -1, cv2.LINE_AA)
    lit = np.minimum(body * 1.15 + 12, 255)
    cv2.circle(board, (round(cx - r * 0.25), round(cy - r * 0.25)), round(r * 0.3), tuple(float(c) for c in lit), -1,
               cv2.LINE_AA)  # fmt: skip


class Shot(NamedTuple):
    """One frame of a :class:`BoardFilm`."""

    index: int
    """The game's state shown (an index into :attr:`RenderedBoard.states`)."""
    hand: tuple[int, int, float] | None
    """A hand over the board (see :meth:`RenderedBoard.picture`)."""
    entered: tuple[Event, ...]
    """What the players enter on the page once this frame is shown (cards drawn; the cards played)."""
    lingering: bool = False
    """The others' stones still on a field just secured (see :meth:`RenderedBoard.picture`)."""


class BoardFilm:
    """A rendered game of Just 4 Fun as a film (a :class:`~vision.capture.FrameSource`), and its players' entries.

    Each placement: the player's hand reaching over the field for ``reach`` frames (the stone already down under
    it), then ``still`` frames of the board, after which he enters the cards he played (a field secured: first
    ``still`` frames with the others' stones still on it); each draw: ``still``
    frames, the cards drawn entered after the first (a hand thrown is the rules' to say: nothing is entered).
    The built-in demo of ``make demo`` when Just 4 Fun is picked.
    """

    def __init__(self, seed: int = 2005, players: Sequence[str] = ("red", "blue", "green"),
                 size: tuple[int, int] = (1280, 720), fps: float = 10.0, still: int = 4, reach: int = 3,
                 rules: Rules | None = None) -> None:  # fmt: skip
        self.game = RenderedBoard(seed, players, rules, size=size)
        self.fps = fps
        self.shots: list[Shot] = [Shot(0, None, ())] * still
        for index, event in enumerate(self.game.events):
            if isinstance(event, StonePlaced):
                seat = self.game.states[index - 1].turn
                self.shots += [Shot(index, (event.field, seat, (k + 1) / reach), ()) for k in range(reach)]
                if self.game.secures(index):  # the stack moved to the centre; the others' stones taken off after
                    self.shots += [Shot(index, None, (), lingering=True)] * still
                self.shots += [Shot(index, None, ())] * (still - 1) + [Shot(index, None, (event,))]
            elif isinstance(event, CardsDrawn):
                self.shots += [Shot(index, None, (event,))] + [Shot(index, None, ())] * (still - 1)
            elif event is not None:
                self.shots += [Shot(index, None, ())] * still
        self._start = 0

    def frames(self) -> Iterator[Frame]:
        """The frames, from the start (or from where :meth:`resume` put it)."""
        for k in range(self._start, len(self.shots)):
            shot = self.shots[k]
            image = self.game.picture(shot.index, self.game.seed * 100_000 + k, shot.hand, shot.lingering)
            yield Frame(k, k / self.fps, image)

    def entries(self, frame_index: int) -> tuple[Event, ...]:
        """What the players enter once frame ``frame_index`` is shown."""
        return self.shots[frame_index].entered if 0 <= frame_index < len(self.shots) else ()

    def resume(self, history: Sequence[Event]) -> bool:
        """Starts the film after the events of a game's record; False when the film never reaches that record."""
        if list(history) != self.game.events[1 : len(history) + 1]:
            return False
        self._start = next((k for k, shot in enumerate(self.shots) if shot.index > len(history)), len(self.shots))
        return True
