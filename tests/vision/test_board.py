"""Just 4 Fun's printable board (vision.board): its fields and spots, and the camera calibrated by its markers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee.just4fun.rules import ruleset
from vision.board import BOARD, CENTRE, board_for, draw_board, find_board, write_board_pdf
from vision.mat import MAT, find_mat
from vision.synth.camera import look_at


def photograph(tilt, layout=BOARD, px_per_mm=3.0):
    """The board seen by a 1280x720 camera, and a function from board millimetres to that image's pixels."""
    board = draw_board(px_per_mm, layout)
    camera = look_at(1280, 720, 60, np.array([layout.width_mm / 2, -layout.height_mm / 2, 0.0]), tilt, 10, 620)
    to_image = camera.table_homography() @ np.array([[1, 0, 0], [0, -1, 0], [0, 0, 1.0]])
    image = cv2.warpPerspective(board, to_image @ np.diag([1 / px_per_mm, 1 / px_per_mm, 1]), (1280, 720),
                                borderValue=(50, 80, 50))  # fmt: skip

    def to_pixels(points_mm):
        return cv2.perspectiveTransform(np.asarray(points_mm, np.float64).reshape(-1, 1, 2), to_image).reshape(-1, 2)

    return image, to_pixels


def test_every_field_has_a_spot_by_each_side_and_a_centre_that_map_back():
    for number in range(1, 37):
        for spot in (0, 1, 2, 3, CENTRE):
            assert BOARD.spot_at(*BOARD.spot_centre(number, spot)) == (number, spot)
    x0, y0 = BOARD.origin
    assert BOARD.spot_at(x0 - 1, y0 + 10) is None and BOARD.spot_at(x0 + 10, y0 + 6 * BOARD.field_mm + 1) is None
    # seat 0's spot is nearer the players than seat 2's (y grows towards seat 0)
    assert BOARD.spot_centre(7, 0)[1] > BOARD.spot_centre(7, CENTRE)[1] > BOARD.spot_centre(7, 2)[1]


def test_the_board_follows_the_layout_entered():
    mine = board_for(ruleset(layout=range(1, 37)))
    assert mine is not BOARD and board_for(ruleset()) is BOARD
    x0, y0 = mine.origin
    assert mine.spot_at(x0 + 1.5 * mine.field_mm, y0 + 0.5 * mine.field_mm) == (2, CENTRE)  # row 0, column 1


@pytest.mark.parametrize("tilt", [0, 30])
def test_the_markers_calibrate_the_board_and_are_not_a_mats(tilt):
    image, to_pixels = photograph(tilt)
    assert find_mat(image, MAT) is None  # the Las Vegas mat's markers are not there
    homography = find_board(image)
    assert homography is not None
    points = np.array([BOARD.spot_centre(n, s) for n in (1, 17, 36) for s in (0, 2, CENTRE)])
    back = cv2.perspectiveTransform(to_pixels(points).reshape(-1, 1, 2), homography).reshape(-1, 2)
    assert np.abs(back - points).max() < 1.5  # millimetres
    assert [BOARD.spot_at(*p) for p in back] == [(n, s) for n in (1, 17, 36) for s in (0, 2, CENTRE)]


def test_the_board_is_written_as_a_pdf(tmp_path):
    assert write_board_pdf(tmp_path / "board.pdf", "a4", 40) == 2
    assert (tmp_path / "board.pdf").read_bytes().startswith(b"%PDF")
