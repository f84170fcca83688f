"""Where the casinos are: the table calibration and zone membership, apart from any drawing.

A :class:`Calibration` maps image pixels to *table* millimetres with a homography and holds the six
casino polygons and the rolling area in table millimetres, so moving the camera changes only the
homography. Membership uses each die's box centre projected onto the table plane. The calibration
file (``instance/calibration.json``) is plain JSON; a broken one is a clear :class:`CalibrationError`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

import cv2
import numpy as np

from referee import safejson
from referee.errors import NotationError

__all__ = [
    "ROLLING_AREA",
    "Calibration",
    "CalibrationError",
    "calibrate_corners",
    "check_calibration",
    "default_zones",
    "homography_from_corners",
    "load_calibration",
    "save_calibration",
]

ROLLING_AREA = 0
"""Zone id of the rolling area (the tray); casinos are 1..6; -1 is off every zone."""


class CalibrationError(ValueError):
    """A calibration that cannot be used: malformed file, degenerate corners, impossible zones."""


def default_zones(width_mm: float = 420.0, height_mm: float = 297.0,
                  game: str = "las-vegas") -> tuple[dict[int, np.ndarray], np.ndarray]:  # fmt: skip
    """The game's printed mat layout (:func:`vision.mat.mat_for`) stretched over a play area, table millimetres.

    Las Vegas: casinos 1-3 on the far row, 4-6 on the near row, the rolling area along the near edge.
    Las Vegas Royale: the dice arena in the middle, the six casinos in a ring around it, casino 1
    far-left and on clockwise (a real Royale board: mark its four corners, then move the ring's zones
    onto its casinos). The origin is the far-left corner.
    """
    from vision.mat import mat_for  # the mat draws its markers with this module's calibration

    mat = mat_for(game)
    scale = np.array([width_mm / mat.width_mm, height_mm / mat.height_mm])
    return {n: polygon * scale for n, polygon in mat.casinos.items()}, mat.rolling_area * scale


def calibrate_corners(corners_px: np.ndarray, width_mm: float = 420.0, height_mm: float = 297.0,
                      game: str = "las-vegas") -> Calibration:  # fmt: skip
    """A calibration from the play area's four corners (clockwise from far-left), with the game's default zones.

    The mat's zones are laid out over that area; they can then be moved in the calibration file (or on
    the web page). Moving the camera later means only marking the corners again.

    Raises:
        CalibrationError: for corners that do not form a convex area, or a non-positive size.
    """
    if not (width_mm > 0 and height_mm > 0):
        raise CalibrationError(f"the play area must have a positive size, got {width_mm} x {height_mm} mm")
    casinos, tray = default_zones(width_mm, height_mm, game)
    return Calibration(homography_from_corners(corners_px, width_mm, height_mm), casinos, tray, width_mm, height_mm)


def homography_from_corners(corners_px: np.ndarray, width_mm: float, height_mm: float) -> np.ndarray:
    """The image-to-table homography from the play area's four corners, clockwise from far-left.

    Raises:
        CalibrationError: for anything but four distinct corners forming a convex quadrilateral.
    """
    corners = np.asarray(corners_px, dtype=np.float64)
    if corners.shape != (4, 2) or not np.isfinite(corners).all():
        raise CalibrationError(f"expected four (x, y) corners, got an array of shape {corners.shape}")
    if not cv2.isContourConvex(corners.astype(np.float32)) or cv2.contourArea(corners.astype(np.float32)) < 100:
        raise CalibrationError("the four corners must form a convex area of at least 100 square pixels, in order")
    table = np.array([[0, 0], [width_mm, 0], [width_mm, height_mm], [0, height_mm]], dtype=np.float64)
    homography, _ = cv2.findHomography(corners, table, 0)  # exact for four points, in double precision
    return np.asarray(homography, dtype=np.float64)


@dataclass(frozen=True)
class Calibration:
    """Image-to-table homography, the casino polygons and the rolling area (table millimetres)."""

    homography: np.ndarray
    """3x3 matrix from image pixels to table millimetres."""
    casinos: dict[int, np.ndarray]
    """Casino number (1..6) -> polygon (N, 2) in table millimetres."""
    rolling_area: np.ndarray
    """Polygon (N, 2) of the rolling area, table millimetres."""
    width_mm: float
    """Width of the play area."""
    height_mm: float
    """Depth of the play area."""
    colours: dict[str, list[float]] | None = None
    """Dice colours learned at setup (``vision.colours.ColourBook.to_json``), if any."""
    marks: np.ndarray | None = None
    """Centres (M, 2), table millimetres, of marks printed on the play area that the detector may take for
    a die (the mat's casino numbers); None for a bare table."""

    def to_table(self, points_px: np.ndarray) -> np.ndarray:
        """Image points (N, 2) to table millimetres (N, 2)."""
        points = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(points, self.homography).reshape(-1, 2)

    def assign(self, points_px: np.ndarray) -> np.ndarray:
        """Zone id per image point (a die's box centre): 1..6 casino, 0 rolling area, -1 none."""
        return self.zones_at(self.to_table(points_px))

    def zones_at(self, table: np.ndarray) -> np.ndarray:
        """Zone id per table point (N, 2) in millimetres: 1..6 casino, 0 rolling area, -1 none."""
        zones = np.full(len(table), -1, dtype=np.int64)
        for zone, polygon in [*self.casinos.items(), (ROLLING_AREA, self.rolling_area)]:
            contour = polygon.astype(np.float32).reshape(-1, 1, 2)
            for i, (x, y) in enumerate(table):
                if zones[i] == -1 and cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0:
                    zones[i] = zone
        return zones

    def to_json(self) -> dict[str, object]:
        """The calibration file's content."""
        return {
            "version": 1,
            "homography": self.homography.tolist(),
            "width_mm": self.width_mm,
            "height_mm": self.height_mm,
            "casinos": {str(k): v.tolist() for k, v in sorted(self.casinos.items())},
            "rolling_area": self.rolling_area.tolist(),
            **({"colours": self.colours} if self.colours else {}),
            **({"marks": self.marks.tolist()} if self.marks is not None and len(self.marks) else {}),
        }

    @classmethod
    def from_json(cls, obj: object) -> Calibration:
        """Parses and checks a calibration file's content.

        Raises:
            CalibrationError: for a missing field, a wrong shape, a casino that is not 1..6.
        """
        if not isinstance(obj, dict):
            raise CalibrationError("a calibration is a JSON object")
        try:
            homography = np.array(obj["homography"], dtype=np.float64)
            casinos = {int(k): np.array(v, dtype=np.float64) for k, v in dict(obj["casinos"]).items()}
            tray = np.array(obj["rolling_area"], dtype=np.float64)
            width, height = float(obj["width_mm"]), float(obj["height_mm"])
        except KeyError as error:
            raise CalibrationError(f"calibration field {error.args[0]!r} is missing") from None
        except (TypeError, ValueError) as error:
            raise CalibrationError(f"malformed calibration: {error}") from None
        if homography.shape != (3, 3) or not np.isfinite(homography).all() or abs(np.linalg.det(homography)) < 1e-12:
            raise CalibrationError("'homography' must be an invertible 3x3 matrix")
        if sorted(casinos) != [1, 2, 3, 4, 5, 6]:
            raise CalibrationError(f"'casinos' must name casinos 1 to 6, got {sorted(casinos)}")
        for name, polygon in [*((f"casino {k}", v) for k, v in casinos.items()), ("rolling_area", tray)]:
            if polygon.ndim != 2 or polygon.shape[1] != 2 or len(polygon) < 3:
                raise CalibrationError(f"{name} must be a polygon of at least three (x, y) points")
        colours = obj.get("colours")
        if colours is not None and (not isinstance(colours, dict) or not all(
                isinstance(v, list) and len(v) == 3 and all(isinstance(x, int | float) for x in v)
                for v in colours.values())):  # fmt: skip
            raise CalibrationError("'colours' must map colour names to [L, a, b]")
        marks = None
        if obj.get("marks") is not None:
            try:
                marks = np.array(obj["marks"], dtype=np.float64).reshape(-1, 2)
            except (TypeError, ValueError):
                raise CalibrationError("'marks' must be a list of (x, y) points") from None
        return cls(homography, casinos, tray, width, height, colours, marks)


MAX_FILE_BYTES = 1 << 20
"""A calibration file is a few kilobytes."""

FRAME_MARGIN = 0.05
"""How far (a share of the frame's size) a zone may reach beyond the picture's edge."""


def check_calibration(calibration: Calibration, frame_size: tuple[int, int] | None = None) -> None:
    """Checks a calibration before it is saved or used: it maps the table to the picture and back.

    The homography must be finite and invertible with a round trip that returns each zone's corners
    (a near-singular matrix does not), and, given the camera's frame size (width, height), every casino
    and the rolling area must land inside the picture.

    Raises:
        CalibrationError: naming what is wrong.
    """
    homography = calibration.homography
    if homography.shape != (3, 3) or not np.isfinite(homography).all():
        raise CalibrationError("the calibration's homography is not a finite 3x3 matrix: mark the corners again")
    zones = [*((f"casino {k}", v) for k, v in sorted(calibration.casinos.items())),
             ("the rolling area", calibration.rolling_area)]  # fmt: skip
    for name, polygon in zones:
        if not np.isfinite(polygon).all():
            raise CalibrationError(f"{name} has a coordinate that is not a finite number")
    try:
        inverse = np.linalg.inv(homography)
    except np.linalg.LinAlgError:
        raise CalibrationError("the calibration's homography cannot be inverted: mark the corners again") from None
    size = max(calibration.width_mm, calibration.height_mm)
    for name, polygon in zones:
        with np.errstate(all="ignore"):
            pixels = cv2.perspectiveTransform(polygon.reshape(-1, 1, 2).astype(np.float64), inverse).reshape(-1, 2)
            back = calibration.to_table(pixels) if np.isfinite(pixels).all() else pixels
        if not np.isfinite(back).all() or np.abs(back - polygon).max() > 1e-3 * size:
            raise CalibrationError(f"{name} does not map to the picture and back (the corners are degenerate): "
                                   "mark them again")  # fmt: skip
        if frame_size is not None:
            width, height = frame_size
            low, high = -FRAME_MARGIN * np.array([width, height]), (1 + FRAME_MARGIN) * np.array([width, height])
            if (pixels < low).any() or (pixels > high).any():
                raise CalibrationError(f"{name} lands outside the camera's {width}x{height} picture: mark the "
                                       "play area's corners on the picture")  # fmt: skip


def save_calibration(calibration: Calibration, path: str | os.PathLike[str]) -> None:
    """Writes the calibration file (atomically: a crash never leaves half a file)."""
    target = os.fspath(path)
    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    temporary = f"{target}.tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(calibration.to_json(), handle, indent=1)
    os.replace(temporary, target)


def load_calibration(path: str | os.PathLike[str]) -> Calibration:
    """Reads a calibration file.

    Raises:
        CalibrationError: for a missing, unreadable or malformed file.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise CalibrationError(f"no calibration file at {path}") from None
    except OSError as error:
        raise CalibrationError(f"cannot read calibration {path}: {error.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise CalibrationError(f"{path} is larger than {MAX_FILE_BYTES >> 10} kB: not a calibration file")
    try:
        obj = safejson.loads(data)
    except NotationError as error:
        raise CalibrationError(f"cannot read calibration {path}: {error}") from None
    calibration = Calibration.from_json(obj)
    check_calibration(calibration)
    return calibration
