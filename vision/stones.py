"""Reading Just 4 Fun's board from above: which colour's stone lies on each spot.

The picture is warped onto the board's plane (the homography from its markers, :func:`vision.board.find_board`)
and each spot compared with the same spot of the printed board drawn empty: a stone hides the spot's printed
ring (or the centre's cross) and shades it, whatever its colour; the light's colour and strength are
measured on the board's white margin first. A stone's colour is the nearest of the colours in play (CIELAB)
to the median of its top. A camera from above sees a stack as its top stone: how many lie there is the
placements counted, not read (``../shared/rules/just-4-fun.md``, for a referee by camera).

Example:
    >>> from vision.synth.board import RenderedBoard
    >>> game = RenderedBoard(seed=3, players=("red", "blue"))
    >>> index = len(game.states) - 1
    >>> seen = read_stones(game.picture(index), game.pixels_to_board(), game.layout, ["red", "blue"])
    >>> from vision.synth.board import truth
    >>> seen == {(n, s): c for n, s, c, _ in truth(game.states[index])}
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.board import CENTRE, BoardLayout, draw_board
from vision.colours import PALETTE

__all__ = ["STONE_COLOUR_DISTANCE", "STONE_DIFFERENCE", "BoardSeen", "bare_board", "read_board", "read_stones"]

_PX_PER_MM = 3.0
_SPOT_MM = 4.2
"""The radius around a spot's centre compared (the printed ring is 4.5 mm; a stone 5.5 mm)."""
STONE_DIFFERENCE = 22.0
"""Mean absolute difference (0-255, each field's light corrected by its bare corners) from the bare spot above
which a stone lies there: chosen on rendered boards of seeds 1-8 (48 pictures: bare spots measured 1-7 with
noise and uneven light, stones 52 (white) to 132 (black))."""


STONE_COLOUR_DISTANCE = 35.0
"""CIELAB distance (OpenCV's 8-bit scale) from the nearest colour in play beyond which what hides a spot is no
stone in play (a hand, a card, a stone of another colour): the spot is *covered*, not read. Chosen on rendered
boards of seeds 40-51 and 1-6: stones in plain view lay at most 22.5 from their colour (1,203 stones), what a
hand over the board showed at least 53 from every colour in play (2,019 spots). Against a picture of a board
empty (``bare``), the stones keep the game's light and the colours part less well (stones up to 33, a hand's
edge down to 24, seeds 1-8): :class:`vision.board_referee.BoardReferee` keeps a stone it has judged while its
colour is still the nearest (:attr:`BoardSeen.nearest`)."""


@dataclass(frozen=True)
class BoardSeen:
    """A board read: the stones on their spots, and the spots something else hides."""

    stones: dict[tuple[int, int], str]
    """(field, spot) -> colour, for every spot a stone in play covers."""
    nearest: dict[tuple[int, int], str] = field(default_factory=dict)
    """For each covered spot, the colour in play nearest to what hides it."""

    @property
    def covered(self) -> frozenset[tuple[int, int]]:
        """(field, spot) hidden by something that is no stone in play (:data:`STONE_COLOUR_DISTANCE`)."""
        return frozenset(self.nearest)


_EMPTY: dict[tuple[int, ...], np.ndarray] = {}


def _empty(layout: BoardLayout) -> np.ndarray:
    """The board drawn bare at the reading's scale (kept per layout)."""
    key = layout.rules.layout
    if key not in _EMPTY:
        _EMPTY[key] = draw_board(_PX_PER_MM, layout).astype(np.float32)
    return _EMPTY[key]


def bare_board(image: np.ndarray, pixels_to_board: np.ndarray, layout: BoardLayout) -> np.ndarray:
    """A picture of the board with no stone on it, as :func:`read_board` compares each spot with (``bare``).

    The reference of a real board (one not printed by ``dice-referee mat``): photographed empty when calibrated.
    """
    return _flat(image, pixels_to_board, _empty(layout).shape[:2])


def _flat(image: np.ndarray, pixels_to_board: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The picture warped onto the board's plane at the reading's scale."""
    to_board = np.diag([_PX_PER_MM, _PX_PER_MM, 1.0]) @ np.asarray(pixels_to_board, np.float64)
    return cv2.warpPerspective(image, to_board, (shape[1], shape[0]), flags=cv2.INTER_AREA).astype(np.float32)


def read_stones(image: np.ndarray, pixels_to_board: np.ndarray, layout: BoardLayout, colours: Sequence[str],
                ) -> dict[tuple[int, int], str]:  # fmt: skip
    """The stones seen: (field, spot) -> colour, for every spot a stone in play covers (see :func:`read_board`)."""
    return read_board(image, pixels_to_board, layout, colours).stones


def read_board(image: np.ndarray, pixels_to_board: np.ndarray, layout: BoardLayout, colours: Sequence[str],
               bare: np.ndarray | None = None) -> BoardSeen:  # fmt: skip
    """The stones seen on their spots, and the spots something else hides (a hand over the board).

    Spots 0-3 lie by a seat's side; :data:`~vision.board.CENTRE` holds a secured stack. ``pixels_to_board`` is
    the homography from the picture's pixels to board millimetres (:func:`vision.board.find_board`, or
    :func:`vision.board.grid_homography` for a real board). ``bare``: the board seen empty (:func:`bare_board`);
    by default the printed board as drawn.
    """
    empty = _empty(layout) if bare is None else bare
    flat = _flat(image, pixels_to_board, empty.shape)
    names = list(colours)
    lab = cv2.cvtColor(np.uint8([[PALETTE[c] for c in names]]), cv2.COLOR_BGR2LAB)[0].astype(np.float32)
    radius = round(_SPOT_MM * _PX_PER_MM)
    disc = np.zeros((2 * radius + 1, 2 * radius + 1), bool)
    yy, xx = np.mgrid[-radius : radius + 1, -radius : radius + 1]
    disc[xx**2 + yy**2 <= radius**2] = True
    inner = xx**2 + yy**2 <= (radius * 0.6) ** 2
    seen: dict[tuple[int, int], str] = {}
    covered: dict[tuple[int, int], str] = {}
    for number in range(1, 37):
        gain = _field_gain(flat, empty, layout, number)
        for spot in (0, 1, 2, 3, CENTRE):
            cx, cy = (round(v * _PX_PER_MM) for v in layout.spot_centre(number, spot))
            window = (slice(cy - radius, cy + radius + 1), slice(cx - radius, cx + radius + 1))
            here, there = flat[window] * gain, empty[window]
            if here.shape[:2] != disc.shape:
                continue  # off the picture
            if float(np.abs(here - there)[disc].mean()) < STONE_DIFFERENCE:
                continue
            top = np.median(here[inner], axis=0)
            top_lab = cv2.cvtColor(np.uint8([[np.clip(top, 0, 255)]]), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
            distances = np.linalg.norm(lab - top_lab, axis=1)
            nearest = names[int(np.argmin(distances))]
            if float(distances.min()) > STONE_COLOUR_DISTANCE:
                covered[number, spot] = nearest
            else:
                seen[number, spot] = nearest
    return BoardSeen(seen, covered)


def _field_gain(flat: np.ndarray, empty: np.ndarray, layout: BoardLayout, number: int) -> np.ndarray:
    """Per-channel gains that bring field ``number``'s bare corners to their printed colour.

    The light is uneven across the table: each field is corrected by its own corners (three of them, 3 mm
    squares, far from every spot and from the number printed in the fourth).
    """
    (x, y), s = layout.square(number)[0], layout.field_mm
    half = round(1.5 * _PX_PER_MM)
    seen, printed = [], []
    for u, v in ((0.9, 0.1), (0.9, 0.9), (0.1, 0.9)):
        cx, cy = round((x + u * s) * _PX_PER_MM), round((y + v * s) * _PX_PER_MM)
        window = (slice(cy - half, cy + half + 1), slice(cx - half, cx + half + 1))
        seen.append(flat[window].reshape(-1, 3))
        printed.append(empty[window].reshape(-1, 3))
    gains = np.median(np.concatenate(printed), axis=0) / np.maximum(np.median(np.concatenate(seen), axis=0), 1.0)
    return np.clip(gains, 0.4, 2.5).astype(np.float32)
