"""Just 4 Fun's printable board: 36 numbered fields, each with a spot per player and a centre, and markers.

The board (``dice-referee mat --game just-4-fun``) lies between the players, each facing one side: seat 0
the near side (towards the camera's bottom edge), seat 1 the left, seat 2 the far, seat 3 the right. Each
field has one spot by each side, where that side's player stacks his stones, and a centre where a secured
stack stands (``../shared/rules/just-4-fun.md``). The fields' numbers follow the rule set's layout (a
setting: a user enters the order of his printed board once). ArUco markers 8-11 (the Las Vegas mat has
0-3, Royale's 4-7) tell the board apart and calibrate the camera.

Example:
    >>> board = BOARD
    >>> board.spot_at(*board.spot_centre(7, 0))
    (7, 0)
    >>> board.spot_at(*board.spot_centre(7, CENTRE))
    (7, 4)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.just4fun.rules import CENTRE, SIDE, Rules, ruleset
from vision.mat import draw_markers, marker_homography, write_sheet_pdf

__all__ = [
    "BOARD",
    "CENTRE",
    "BoardLayout",
    "board_for",
    "draw_board",
    "find_board",
    "grid_homography",
    "write_board_pdf",
]

_BANDS = ((1, 9, (178, 170, 160)), (10, 19, (165, 172, 168)), (20, 29, (160, 162, 178)), (30, 36, (150, 150, 150)))
"""The fields' tints by number band (1-9, 10-19, 20-29, 30-36), BGR: mid-tones of little colour, so that a stone
of any colour stands out from its field to the camera, white ones and black ones too (a pale board hid white
stones: measured on rendered boards, they differed from the bare spot as little as the noise)."""


@dataclass(frozen=True)
class BoardLayout:
    """Where the fields and spots lie on the printed board, in millimetres (origin far-left, y towards seat 0)."""

    rules: Rules
    width_mm: float = 420.0
    height_mm: float = 297.0
    field_mm: float = 42.0
    marker_mm: float = 30.0
    markers: dict[int, tuple[float, float]] = field(default_factory=dict)
    """ArUco id (DICT_4X4_50) -> top-left corner of the marker's black square."""
    name: str = "Just 4 Fun board"

    def __post_init__(self) -> None:
        if not self.markers:
            edge, m = 8.0, self.marker_mm
            self.markers.update({8: (edge, edge), 9: (self.width_mm - edge - m, edge),
                                 10: (self.width_mm - edge - m, self.height_mm - edge - m),
                                 11: (edge, self.height_mm - edge - m)})  # fmt: skip

    @property
    def origin(self) -> tuple[float, float]:
        """The grid's far-left corner."""
        span = SIDE * self.field_mm
        return (self.width_mm - span) / 2, (self.height_mm - span) / 2

    def square(self, number: int) -> np.ndarray:
        """Field ``number``'s square (4, 2), clockwise from its far-left corner."""
        row, col = self.rules.position(number)
        x0, y0 = self.origin
        x, y, s = x0 + col * self.field_mm, y0 + row * self.field_mm, self.field_mm
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], dtype=np.float64)

    def spot_centre(self, number: int, spot: int) -> tuple[float, float]:
        """The middle of a spot of field ``number``, board millimetres.

        Spots 0-3 lie by seat 0's (near), 1's (left), 2's (far) and 3's (right) side; :data:`CENTRE` in the middle.
        """
        (x, y), s = self.square(number)[0], self.field_mm
        cx, cy, off = x + s / 2, y + s / 2, s * 0.3
        return {0: (cx, cy + off), 1: (cx - off, cy), 2: (cx, cy - off), 3: (cx + off, cy), CENTRE: (cx, cy)}[spot]

    def spot_at(self, x_mm: float, y_mm: float) -> tuple[int, int] | None:
        """The field and spot under a point of the board (millimetres); None off the grid."""
        x0, y0 = self.origin
        col, row = int((x_mm - x0) // self.field_mm), int((y_mm - y0) // self.field_mm)
        if not (0 <= col < SIDE and 0 <= row < SIDE):
            return None
        number = self.rules.layout[row * SIDE + col]
        u = (x_mm - x0 - col * self.field_mm) / self.field_mm - 0.5  # -0.5 (left) .. 0.5 (right)
        v = (y_mm - y0 - row * self.field_mm) / self.field_mm - 0.5  # -0.5 (far) .. 0.5 (near)
        if max(abs(u), abs(v)) < 0.15:
            return number, CENTRE
        if abs(v) >= abs(u):
            return number, 0 if v > 0 else 2
        return number, 3 if u > 0 else 1


BOARD = BoardLayout(ruleset())
"""The board of the default layout (``referee.just4fun.rules.DEFAULT_LAYOUT``) on an A3 sheet."""


def board_for(rules: Rules) -> BoardLayout:
    """The printable board of a rule set's layout."""
    return BOARD if rules.layout == BOARD.rules.layout else BoardLayout(rules)


def draw_board(px_per_mm: float = 4.0, layout: BoardLayout = BOARD) -> np.ndarray:
    """The board as a BGR image: banded fields with their numbers, a spot by each side, the centre, markers."""
    w, h = round(layout.width_mm * px_per_mm), round(layout.height_mm * px_per_mm)
    image = np.full((h, w, 3), 255, np.uint8)
    line = max(1, round(0.6 * px_per_mm))
    for number in range(1, SIDE * SIDE + 1):
        tint = next(colour for low, high, colour in _BANDS if low <= number <= high)
        outline = np.round(layout.square(number) * px_per_mm).astype(np.int32)
        cv2.fillPoly(image, [outline], tint, cv2.LINE_AA)
        cv2.polylines(image, [outline], True, (60, 60, 60), line, cv2.LINE_AA)
        for spot in range(4):
            cx, cy = layout.spot_centre(number, spot)
            cv2.circle(image, (round(cx * px_per_mm), round(cy * px_per_mm)), round(4.5 * px_per_mm), (110, 110, 110),
                       max(1, round(0.3 * px_per_mm)), cv2.LINE_AA)  # fmt: skip
        cx, cy = layout.spot_centre(number, CENTRE)
        arm = 3.0 * px_per_mm
        for dx, dy in ((arm, 0), (0, arm)):  # the centre's cross, where a secured stack stands
            ends = (
                (round(cx * px_per_mm - dx), round(cy * px_per_mm - dy)),
                (round(cx * px_per_mm + dx), round(cy * px_per_mm + dy)),
            )
            cv2.line(image, *ends, (90, 90, 90), 1, cv2.LINE_AA)
        # The number in the field's far-left corner, off the spots (a stone never covers it).
        x, y = layout.square(number)[0]
        cv2.putText(image, str(number), (round((x + 2.0) * px_per_mm), round((y + 8.0) * px_per_mm)),
                    cv2.FONT_HERSHEY_DUPLEX, 0.22 * px_per_mm, (40, 40, 40), max(1, round(0.3 * px_per_mm)),
                    cv2.LINE_AA)  # fmt: skip
    draw_markers(image, layout.markers, layout.marker_mm, px_per_mm)
    cv2.putText(image, f"dice-referee {layout.name}", (round((layout.width_mm / 2 - 30) * px_per_mm),
                round((layout.height_mm - 3.0) * px_per_mm)), cv2.FONT_HERSHEY_SIMPLEX, 0.12 * px_per_mm,
                (150, 150, 150), 1, cv2.LINE_AA)  # fmt: skip
    return image


def find_board(image: np.ndarray, layout: BoardLayout = BOARD, min_markers: int = 2) -> np.ndarray | None:
    """The homography from image pixels to board millimetres, from the board's markers; None with too few."""
    return marker_homography(image, layout.markers, layout.marker_mm, min_markers)


def grid_homography(corners_px: np.ndarray, layout: BoardLayout = BOARD) -> np.ndarray:
    """The homography from image pixels to board millimetres, from the four corners of a board's 6x6 grid.

    For a real board (no markers): its grid's corners clockwise from the far-left one (seat 2's left, seat 0
    facing), clicked on the calibration page; the fields and spots follow from the layout.

    Raises:
        CalibrationError: for anything but four distinct corners forming a convex quadrilateral.
    """
    from vision.zones import homography_from_corners

    span = SIDE * layout.field_mm
    x0, y0 = layout.origin
    return np.array([[1.0, 0.0, x0], [0.0, 1.0, y0], [0.0, 0.0, 1.0]]) @ homography_from_corners(corners_px, span, span)


def write_board_pdf(path: str | os.PathLike[str], paper: str = "a3", dpi: int = 150, layout: BoardLayout = BOARD,
                    ) -> int:  # fmt: skip
    """Writes the board as a PDF (see :func:`vision.mat.write_sheet_pdf`); the number of pages."""
    return write_sheet_pdf(path, draw_board(dpi / 25.4, layout), layout.width_mm, layout.height_mm, paper)
