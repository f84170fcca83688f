"""The printed mat: its markers calibrate the camera at any angle; the PDF is a valid document."""

import re

import cv2
import numpy as np
import pytest

from vision.mat import MAT, ROYALE_MAT, draw_mat, find_mat, mat_for, write_mat_pdf
from vision.synth.camera import look_at
from vision.zones import CalibrationError


def photograph(tilt, azimuth=10, px_per_mm=4.0, hide=(), layout=MAT):
    """The mat seen by a 1280x720 camera, and a function from mat millimetres to that image's pixels."""
    mat = draw_mat(px_per_mm, layout)
    for ident in hide:  # a hand over a marker
        x, y = (np.array(layout.markers[ident]) * px_per_mm).astype(int)
        side = int(layout.marker_mm * px_per_mm)
        mat[y - 5 : y + side + 5, x - 5 : x + side + 5] = (90, 140, 200)
    camera = look_at(1280, 720, 60, np.array([MAT.width_mm / 2, -MAT.height_mm / 2, 0.0]), tilt, azimuth, 620)
    mat_to_table = np.array([[1, 0, 0], [0, -1, 0], [0, 0, 1.0]])  # mat y runs towards the players
    to_image = camera.table_homography() @ mat_to_table
    image = cv2.warpPerspective(mat, to_image @ np.diag([1 / px_per_mm, 1 / px_per_mm, 1]), (1280, 720),
                                borderValue=(50, 80, 50))  # fmt: skip

    def to_pixels(points_mm):
        return cv2.perspectiveTransform(np.asarray(points_mm, np.float64).reshape(-1, 1, 2), to_image).reshape(-1, 2)

    return image, to_pixels


@pytest.mark.parametrize("tilt", [0, 20, 40])
def test_the_markers_give_table_millimetres_and_zones_at_any_angle(tilt):
    image, to_pixels = photograph(tilt)
    calibration = find_mat(image)
    assert calibration is not None
    centres = np.array([polygon.mean(axis=0) for polygon in MAT.casinos.values()] + [MAT.rolling_area.mean(axis=0)])
    assert calibration.assign(to_pixels(centres)).tolist() == [1, 2, 3, 4, 5, 6, 0]
    rng = np.random.default_rng(tilt)
    points = rng.uniform([0, 0], [MAT.width_mm, MAT.height_mm], (40, 2))
    assert np.abs(calibration.to_table(to_pixels(points)) - points).max() < 1.5  # millimetres


def test_two_markers_are_enough_and_one_is_not():
    image, to_pixels = photograph(25, hide=(0, 2))
    calibration = find_mat(image)
    assert calibration is not None
    point = MAT.casinos[5].mean(axis=0)
    assert np.abs(calibration.to_table(to_pixels([point]))[0] - point).max() < 2.0
    image, _ = photograph(25, hide=(0, 1, 2))
    assert find_mat(image) is None
    assert find_mat(np.full((480, 640, 3), 128, np.uint8)) is None


@pytest.mark.parametrize(("paper", "pages"), [("a3", 1), ("a4", 2), ("letter", 2)])
def test_the_pdf_is_well_formed(tmp_path, paper, pages):
    path = tmp_path / f"mat-{paper}.pdf"
    assert write_mat_pdf(path, paper, dpi=60) == pages
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert len(re.findall(rb"/Type /Page\b", data)) == pages
    sheet = {"a3": (420, 297), "a4": (210, 297), "letter": (215.9, 279.4)}[paper]  # mm, as printed
    boxes = [
        tuple(float(v) * 25.4 / 72 for v in box.split()[2:]) for box in re.findall(rb"/MediaBox ?\[([^\]]*)\]", data)
    ]
    assert sum(np.allclose(box, sheet, atol=0.5) for box in boxes) >= 1
    assert len(re.findall(rb"/Subtype /Image", data)) == pages


def test_an_unknown_paper_is_a_clear_error(tmp_path):
    with pytest.raises(CalibrationError, match="paper must be one of a3, a4, letter"):
        write_mat_pdf(tmp_path / "x.pdf", "a5")


@pytest.mark.parametrize("tilt", [0, 25])
def test_the_royale_mat_gives_the_ring_of_casinos_and_the_arena(tilt):
    image, to_pixels = photograph(tilt, layout=ROYALE_MAT)
    assert find_mat(image) is None  # the Las Vegas mat's markers are not there: the two mats are told apart
    calibration = find_mat(image, ROYALE_MAT)
    assert calibration is not None
    centres = [p.mean(axis=0) for p in ROYALE_MAT.casinos.values()] + [ROYALE_MAT.rolling_area.mean(axis=0)]
    assert calibration.assign(to_pixels(np.array(centres))).tolist() == [1, 2, 3, 4, 5, 6, 0]
    # casino 1 far-left, then clockwise: 2 far, 3 far-right, 4 near-right, 5 near the players, 6 near-left
    x, y = np.array(centres[:6]).T
    assert x[0] < x[1] < x[2] and y[1] < y[0] < y[5] < y[4] and x[5] < x[4] < x[3] and y[2] < y[3]
    assert mat_for("las-vegas-royale") is ROYALE_MAT and mat_for("las-vegas") is MAT and mat_for("chess") is MAT


def test_a_die_fits_on_every_casino_of_the_royale_ring():
    """A casino of the ring holds a dozen dice side by side: its area is at least 12 dice of 16 mm, twice over."""
    for polygon in ROYALE_MAT.casinos.values():
        assert cv2.contourArea(polygon.astype(np.float32)) > 2 * 12 * 16 * 16
