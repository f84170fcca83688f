"""Table calibration and zone membership, checked against an independent projection."""

import json

import cv2
import numpy as np
import pytest

from vision.synth.camera import look_at
from vision.zones import (
    Calibration,
    CalibrationError,
    calibrate_corners,
    default_zones,
    homography_from_corners,
    load_calibration,
    save_calibration,
)

WIDTH, HEIGHT = 420.0, 297.0


def calibrated_camera(tilt):
    """A camera over an A3 mat, and the calibration computed from the mat's projected corners."""
    camera = look_at(1280, 720, 60, np.array([WIDTH / 2, -HEIGHT / 2, 0.0]), tilt, 10, 700)
    # Table millimetres with y pointing towards the players (image down); the camera's table has y up.
    corners_mm = np.array([[0, 0], [WIDTH, 0], [WIDTH, HEIGHT], [0, HEIGHT]])
    corners_px = camera.project(np.column_stack([corners_mm[:, 0], -corners_mm[:, 1], np.zeros(4)]))
    casinos, tray = default_zones(WIDTH, HEIGHT)
    h = homography_from_corners(corners_px, WIDTH, HEIGHT)
    return camera, Calibration(h, casinos, tray, WIDTH, HEIGHT)


@pytest.mark.parametrize("tilt", [0, 25, 45])
def test_points_map_back_to_the_table_at_any_tilt(tilt):
    camera, calibration = calibrated_camera(tilt)
    rng = np.random.default_rng(tilt)
    table = rng.uniform([0, 0], [WIDTH, HEIGHT], (50, 2))
    pixels = camera.project(np.column_stack([table[:, 0], -table[:, 1], np.zeros(50)]))
    assert np.allclose(calibration.to_table(pixels), table, atol=1e-3)  # a micrometre


def test_assign_uses_the_table_position():
    camera, calibration = calibrated_camera(35)
    casinos, tray = default_zones(WIDTH, HEIGHT)
    centres = [polygon.mean(axis=0) for polygon in casinos.values()] + [tray.mean(axis=0), np.array([-50.0, -50.0])]
    table = np.array(centres)
    pixels = camera.project(np.column_stack([table[:, 0], -table[:, 1], np.zeros(len(table))]))
    assert calibration.assign(pixels).tolist() == [1, 2, 3, 4, 5, 6, 0, -1]


def test_calibration_file_round_trip_and_errors(tmp_path):
    _, calibration = calibrated_camera(20)
    path = tmp_path / "instance" / "calibration.json"
    save_calibration(calibration, path)
    loaded = load_calibration(path)
    assert np.allclose(loaded.homography, calibration.homography)
    assert sorted(loaded.casinos) == [1, 2, 3, 4, 5, 6]
    with pytest.raises(CalibrationError, match="no calibration file"):
        load_calibration(tmp_path / "nope.json")
    path.write_text("{broken")
    with pytest.raises(CalibrationError, match="cannot read calibration"):
        load_calibration(path)
    good = calibration.to_json()
    for patch, message in [
        ({"homography": [[1, 0], [0, 1]]}, "invertible 3x3"),
        ({"casinos": {"1": [[0, 0], [1, 0], [1, 1]]}}, "casinos 1 to 6"),
        ({"rolling_area": [[0, 0], [1, 1]]}, "at least three"),
        ({"width_mm": "wide"}, "malformed"),
        ({"marks": [[1, 2, 3]]}, "'marks' must be"),
        ({"marks": "the numbers"}, "'marks' must be"),
    ]:
        with pytest.raises(CalibrationError, match=message):
            Calibration.from_json({**good, **patch})
    with pytest.raises(CalibrationError, match="'homography' is missing"):
        Calibration.from_json({k: v for k, v in good.items() if k != "homography"})
    assert json.loads(json.dumps(good)) == good


@pytest.mark.parametrize(
    ("corners", "message"),
    [
        (np.zeros((3, 2)), "four"),
        (np.array([[0, 0], [100, 100], [100, 0], [0, 100]]), "convex"),
        (np.array([[0, 0], [1, 0], [1, 1], [0, 1]]), "convex area of at least"),
    ],
)
def test_bad_corners(corners, message):
    with pytest.raises(CalibrationError, match=message):
        homography_from_corners(corners, WIDTH, HEIGHT)


def test_learned_colours_travel_in_the_calibration_file(tmp_path):
    from dataclasses import replace

    from vision.colours import ColourBook

    book = ColourBook(["red", "blue"])
    book.learn("red", [(60, 60, 150), (55, 65, 160)])
    _, calibration = calibrated_camera(10)
    path = tmp_path / "calibration.json"
    save_calibration(replace(calibration, colours=book.to_json()), path)
    again = ColourBook(["red", "blue"])
    again.load_json(load_calibration(path).colours)
    assert again.learned == {"red"} and np.allclose(again.prototypes["red"], book.prototypes["red"], atol=0.01)
    obj = json.loads(path.read_text())
    obj["colours"] = {"red": [1, 2]}
    path.write_text(json.dumps(obj))
    with pytest.raises(CalibrationError, match="colours"):
        load_calibration(path)


def test_corner_calibration_lays_out_the_games_own_zones():
    """A real Royale board by its corners: the ring of casinos around the arena, scaled to the area given."""
    corners = np.array([[10, 10], [610, 12], [615, 405], [5, 400]], dtype=np.float64)
    plain = calibrate_corners(corners, 420, 297)
    ring = calibrate_corners(corners, 600, 600, "las-vegas-royale")
    assert len(plain.rolling_area) == 4 and len(ring.rolling_area) == 6  # the tray; the hexagonal arena
    centre = ring.rolling_area.mean(axis=0)
    assert np.allclose(centre, [300, 300])
    for polygon in ring.casinos.values():  # each casino lies around the arena, none over it
        assert np.linalg.norm(polygon.mean(axis=0) - centre) > 120
    assert ring.assign(cv2.perspectiveTransform(np.array([[centre]]), np.linalg.inv(ring.homography))[0]).tolist() == [
        0
    ]
