"""The printable play mat: six casinos, a rolling area and four ArUco markers that calibrate the camera.

With the mat on the table, calibration is automatic on every frame: :func:`find_mat` finds the
markers (any two of the four are enough, so a hand over one does no harm) and returns the
image-to-mat homography, so a bumped camera or a pushed mat is followed without the user doing
anything. Table coordinates are the mat's own millimetres, origin at the far-left corner, x to the
right, y towards the players.

``dice-referee mat --out mat.pdf`` prints it on one A3 sheet, or on two A4 or US-letter sheets to tape
together (scaled so that both halves fit; the markers carry the geometry, so the scale does not matter).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import cv2
import numpy as np

from vision.zones import Calibration, CalibrationError

__all__ = ["MAT", "MATS", "ROYALE_MAT", "MatLayout", "draw_mat", "find_mat", "mat_for", "write_mat_pdf"]

_ARUCO = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
_NUMBER_SCALE = 0.6
"""The casino numbers' font scale per pixel per millimetre (OpenCV's Hershey duplex)."""


@dataclass(frozen=True)
class MatLayout:
    """Where everything lies on the mat, in millimetres (origin far-left, y towards the players)."""

    width_mm: float
    height_mm: float
    marker_mm: float
    markers: dict[int, tuple[float, float]]
    """ArUco id (DICT_4X4_50) -> top-left corner of the marker's black square."""
    casinos: dict[int, np.ndarray]
    """Casino 1..6 -> convex polygon (N, 2): a rectangle clockwise from its far-left corner on the Las
    Vegas mat, a sector of the ring on the Royale mat."""
    rolling_area: np.ndarray
    """The tray or the dice arena, a convex polygon (N, 2)."""
    numbers: dict[int, tuple[float, float]] | None = None
    """Where each casino's printed number starts (its baseline's left end); None: 3 mm right and 17 mm
    down from the polygon's first corner."""
    name: str = "play mat"
    """What the mat is called on paper and in messages."""
    beside_mm: float | None = None
    """How far from the rolling area's centre each casino's money cards and tile lie, outside the zones
    (:mod:`vision.synth.props` draws them there); None: the mat has no room beside its casinos."""

    def number_origin(self, number: int) -> tuple[float, float]:
        """Where casino ``number``'s printed number starts (its baseline's left end), mat millimetres."""
        if self.numbers is not None:
            return self.numbers[number]
        (x0, y0) = self.casinos[number][0]
        return float(x0) + 3.0, float(y0) + 17.0

    def marks(self) -> np.ndarray:
        """The centres of the printed casino numbers (6, 2), mat millimetres: marks a detector may take for a die."""
        (width, height), _ = cv2.getTextSize("0", cv2.FONT_HERSHEY_DUPLEX, _NUMBER_SCALE, 1)
        return np.array([(x + width / 2, y - height / 2) for x, y in map(self.number_origin, sorted(self.casinos))])

    def marker_corners(self, ident: int) -> np.ndarray:
        """The four corners of a marker in mat millimetres, in ArUco's order (clockwise from top-left)."""
        return marker_corners(self.markers[ident], self.marker_mm)

    def calibration(self, homography: np.ndarray) -> Calibration:
        """A :class:`Calibration` with this layout's zones."""
        return Calibration(np.asarray(homography, np.float64), self.casinos, self.rolling_area, self.width_mm,
                           self.height_mm, marks=self.marks())  # fmt: skip


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)


def _a3_layout() -> MatLayout:
    width, height, marker, edge = 420.0, 297.0, 30.0, 8.0
    markers = {0: (edge, edge), 1: (width - edge - marker, edge), 2: (width - edge - marker, height - edge - marker),
               3: (edge, height - edge - marker)}  # fmt: skip
    left, right, gap = edge + marker + 8, width - edge - marker - 8, 8.0
    cell_w = (right - left - 2 * gap) / 3
    rows = ((12.0, 107.0), (115.0, 210.0))
    casinos = {}
    for number in range(1, 7):
        col, (y0, y1) = (number - 1) % 3, rows[(number - 1) // 3]
        x0 = left + col * (cell_w + gap)
        casinos[number] = _rect(x0, y0, x0 + cell_w, y1)
    return MatLayout(width, height, marker, markers, casinos, _rect(left, 218.0, right, height - edge))


MAT = _a3_layout()
"""The A3 mat (420 x 297 mm)."""


def _hexagon_point(centre: tuple[float, float], radius: float, angle_deg: float) -> tuple[float, float]:
    """The point at ``angle_deg`` (clockwise from +x, y down) on a flat-topped hexagon of ``radius``."""
    mid = 30.0 + 60.0 * np.floor(angle_deg / 60.0)  # the middle of the edge the angle falls on
    reach = radius * np.cos(np.radians(30.0)) / np.cos(np.radians(angle_deg - mid))
    return centre[0] + reach * np.cos(np.radians(angle_deg)), centre[1] + reach * np.sin(np.radians(angle_deg))


def _royale_layout() -> MatLayout:
    """Las Vegas Royale's table on A3: the hexagonal dice arena in the middle, the six casinos in a ring.

    Casino 1 lies far-left and the ring goes on clockwise (2 far, 3 far-right, 4 near-right, 5 near the
    players, 6 near-left); markers 4-7 (the Las Vegas mat has 0-3), so the pipeline knows which mat it sees.
    """
    width, height, marker, edge = 420.0, 297.0, 30.0, 8.0
    centre = (width / 2, height / 2)
    markers = {4: (edge, edge), 5: (width - edge - marker, edge), 6: (width - edge - marker, height - edge - marker),
               7: (edge, height - edge - marker)}  # fmt: skip
    inner, outer, gap = 62.0, 156.0, 2.5
    casinos, numbers = {}, {}
    for number in range(1, 7):
        start = 180.0 + 60.0 * (number - 1)  # casino 1's sector spans 180-240 degrees (far-left)
        a, b = (start + gap) % 360, (start + 60 - gap) % 360
        ring = [_hexagon_point(centre, inner, a), _hexagon_point(centre, outer, a),
                _hexagon_point(centre, outer, b), _hexagon_point(centre, inner, b)]  # fmt: skip
        casinos[number] = np.array(ring, dtype=np.float64)
        # The number outside the ring, off every zone: the detector boxes a printed digit now and then
        # (a "5" read as a black 1 at 0.58 confidence), and a box off the zones is no die.
        x, y = _hexagon_point(centre, outer + 8.0, (start + 30.0) % 360)
        numbers[number] = (x - 4.0, y + 5.0)
    arena = np.array([_hexagon_point(centre, inner - 8.0, 60.0 * k) for k in range(6)], dtype=np.float64)
    return MatLayout(width, height, marker, markers, casinos, arena, numbers, "Las Vegas Royale mat", outer + 20.0)


ROYALE_MAT = _royale_layout()
"""Las Vegas Royale's A3 mat: the dice arena and the ring of six casinos (``dice-referee mat --game
las-vegas-royale``)."""

MATS = {"las-vegas": MAT, "las-vegas-royale": ROYALE_MAT}
"""Each game's printable mat, by the game's registry name."""


def mat_for(game: str) -> MatLayout:
    """The mat of a game (by its registry name); the Las Vegas mat for a game without its own."""
    return MATS.get(game, MAT)


_TINTS = ((215, 235, 250), (250, 230, 210), (215, 245, 220), (235, 220, 245), (205, 240, 245), (240, 240, 210))


def draw_mat(px_per_mm: float = 4.0, layout: MatLayout = MAT) -> np.ndarray:
    """The mat as a BGR image, ``px_per_mm`` pixels per millimetre (white paper, light tints, black ink)."""
    w, h = round(layout.width_mm * px_per_mm), round(layout.height_mm * px_per_mm)
    image = np.full((h, w, 3), 255, np.uint8)

    def px(x: float, y: float) -> tuple[int, int]:
        return round(x * px_per_mm), round(y * px_per_mm)

    line = max(1, round(0.8 * px_per_mm))

    def polygon(points: np.ndarray, fill: tuple[int, int, int]) -> None:
        outline = np.round(points * px_per_mm).astype(np.int32)
        cv2.fillPoly(image, [outline], fill, cv2.LINE_AA)
        cv2.polylines(image, [outline], True, (40, 40, 40), line, cv2.LINE_AA)

    for number, zone in layout.casinos.items():
        polygon(zone, _TINTS[number - 1])
        # The casino's number, in the far-left corner (no die-face icon: the detector would see a die).
        cv2.putText(image, str(number), px(*layout.number_origin(number)), cv2.FONT_HERSHEY_DUPLEX,
                    _NUMBER_SCALE * px_per_mm,
                    (40, 40, 40), max(1, round(0.6 * px_per_mm)), cv2.LINE_AA)  # fmt: skip
    polygon(layout.rolling_area, (225, 225, 225))
    x0, y0 = layout.rolling_area.min(axis=0)
    x1, _ = layout.rolling_area.max(axis=0)
    (label_w, _), _ = cv2.getTextSize("ROLL HERE", cv2.FONT_HERSHEY_SIMPLEX, 0.3, 1)  # millimetres at 1 px/mm
    label_x = x0 + 4 if len(layout.rolling_area) == 4 else (x0 + x1 - label_w) / 2  # a hexagon: centred
    cv2.putText(image, "ROLL HERE", px(label_x, y0 + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.3 * px_per_mm,
                (110, 110, 110), max(1, round(0.4 * px_per_mm)), cv2.LINE_AA)  # fmt: skip
    draw_markers(image, layout.markers, layout.marker_mm, px_per_mm)
    # The footer in the middle, or on the right where a casino's number stands in the middle (Royale).
    footer_x = layout.width_mm / 2 - 25 if layout.numbers is None else layout.width_mm - 110
    cv2.putText(image, f"dice-referee {layout.name}", px(footer_x, layout.height_mm - 2.5),
                cv2.FONT_HERSHEY_SIMPLEX, 0.12 * px_per_mm, (150, 150, 150), 1, cv2.LINE_AA)  # fmt: skip
    return image


_DETECTOR = cv2.aruco.ArucoDetector(_ARUCO, cv2.aruco.DetectorParameters())


def draw_markers(image: np.ndarray, markers: dict[int, tuple[float, float]], marker_mm: float, px_per_mm: float,
                 ) -> None:  # fmt: skip
    """Prints ArUco markers (DICT_4X4_50) into ``image``: id -> top-left corner in millimetres."""
    side = round(marker_mm * px_per_mm)
    for ident, (x, y) in markers.items():
        marker = cv2.aruco.generateImageMarker(_ARUCO, ident, side)
        x_px, y_px = round(x * px_per_mm), round(y * px_per_mm)
        image[y_px : y_px + side, x_px : x_px + side] = marker[..., None]


def marker_corners(top_left: tuple[float, float], side_mm: float) -> np.ndarray:
    """The four corners of a printed marker in millimetres, in ArUco's order (clockwise from top-left)."""
    x, y = top_left
    return np.array([[x, y], [x + side_mm, y], [x + side_mm, y + side_mm], [x, y + side_mm]], dtype=np.float64)


def marker_homography(image: np.ndarray, markers: dict[int, tuple[float, float]], marker_mm: float,
                      min_markers: int = 2) -> np.ndarray | None:  # fmt: skip
    """The homography from image pixels to a sheet's millimetres, from its markers seen.

    ``markers``: id -> the top-left corner of the marker's square in millimetres, each ``marker_mm`` wide.
    None when fewer than ``min_markers`` are seen.
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found, ids, _ = _DETECTOR.detectMarkers(grey)
    if ids is None:
        return None
    pixels, sheet = [], []
    for points, ident in zip(found, ids.reshape(-1), strict=True):
        if int(ident) in markers:
            pixels.append(points.reshape(4, 2))
            sheet.append(marker_corners(markers[int(ident)], marker_mm))
    if len(pixels) < min_markers:
        return None
    homography, _ = cv2.findHomography(np.concatenate(pixels), np.concatenate(sheet), 0)
    if homography is None or abs(np.linalg.det(homography)) < 1e-12:
        return None
    return np.asarray(homography, np.float64)


def find_mat(image: np.ndarray, layout: MatLayout = MAT, min_markers: int = 2) -> Calibration | None:
    """The calibration from the mat's markers in a BGR (or grey) frame; None when too few are visible."""
    homography = marker_homography(image, layout.markers, layout.marker_mm, min_markers)
    return None if homography is None else layout.calibration(homography)


_PAPER_MM = {"a3": (420.0, 297.0), "a4": (297.0, 210.0), "letter": (279.4, 215.9)}  # landscape sheets


def write_mat_pdf(path: str | os.PathLike[str], paper: str = "a3", dpi: int = 150, layout: MatLayout = MAT) -> int:
    """Writes the mat as a PDF (see :func:`write_sheet_pdf`); the number of pages."""
    return write_sheet_pdf(path, draw_mat(dpi / 25.4, layout), layout.width_mm, layout.height_mm, paper)


def write_sheet_pdf(path: str | os.PathLike[str], drawing: np.ndarray, width_mm: float, height_mm: float,
                    paper: str = "a3") -> int:  # fmt: skip
    """Writes an A3 drawing (BGR) as a PDF: one A3 sheet, or two A4/letter halves with an overlap to tape.

    Returns:
        The number of pages.

    Raises:
        CalibrationError: for an unknown paper name.
    """
    if paper not in _PAPER_MM:
        raise CalibrationError(f"paper must be one of {', '.join(_PAPER_MM)}, not {paper!r}")
    image = cv2.cvtColor(drawing, cv2.COLOR_BGR2RGB)
    if paper == "a3":
        pages = [(image, 420.0, 297.0, 0.0, 0.0, 420.0, 297.0)]
    else:
        # Two portrait sheets side by side; each half carries 10 mm of the other as an overlap to tape.
        sheet_w, sheet_h = _PAPER_MM[paper][1], _PAPER_MM[paper][0]
        margin, overlap = 7.0, 10.0
        scale = min((2 * (sheet_w - 2 * margin) - overlap) / width_mm, (sheet_h - 2 * margin) / height_mm)
        half = image.shape[1] // 2
        extra = round(overlap / 2 / width_mm * image.shape[1])
        parts = [image[:, : half + extra], image[:, half - extra :]]
        pages = []
        for part in parts:
            w_mm = part.shape[1] / image.shape[1] * width_mm * scale
            h_mm = height_mm * scale
            pages.append((part, sheet_w, sheet_h, (sheet_w - w_mm) / 2, (sheet_h - h_mm) / 2, w_mm, h_mm))
    _write_pdf(path, pages)
    return len(pages)


def _write_pdf(path: str | os.PathLike[str], pages: list[tuple[np.ndarray, float, float, float, float, float, float]],
               ) -> None:  # fmt: skip
    """One RGB image per page, placed at (x, y) mm with size (w, h) mm on a (W, H) mm page (fpdf2)."""
    from fpdf import FPDF
    from PIL import Image

    pdf = FPDF(unit="mm")
    pdf.set_auto_page_break(False)
    for rgb, page_w, page_h, x, y, w, h in pages:
        pdf.add_page(orientation="L" if page_w > page_h else "P", format=(min(page_w, page_h), max(page_w, page_h)))
        pdf.image(Image.fromarray(np.ascontiguousarray(rgb)), x=x, y=y, w=w, h=h)
    target = os.fspath(path)
    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    pdf.output(target)
