"""The JSON API: the live state, games and their records, corrections, calibration, colours.

Every body is parsed and checked at the edge (:mod:`web.validate`); a 4xx answer means nothing changed,
in memory or in the database: corrections are checked by the rules before they are stored, a
calibration before it is saved or used.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, jsonify, request

from referee import BanknotesDealt, game_of
from referee.errors import NotationError, RefereeError
from vision.board_referee import BoardReferee
from web.app import hub
from web.live import game_json
from web.pages import known_game
from web.service import StartError, save_board_calibration
from web.store import BrokenGameError
from web.streams import live
from web.validate import GameSpec, Invalid, banknotes, corners, number, only, parse_body, polygons, text, who

__all__ = ["blueprint"]

blueprint = Blueprint("api", __name__, url_prefix="/api")


def body(*allowed: str) -> dict[str, Any]:
    """The request's JSON object, with only the fields ``allowed`` (a 400 otherwise)."""
    try:
        data = parse_body(request.get_data(cache=True))
        if allowed:
            only(data, set(allowed))
    except Invalid as error:
        abort(400, str(error))
    return data


@blueprint.errorhandler(Invalid)
def _invalid(error: Invalid) -> Any:
    response = jsonify({"error": str(error)})
    response.status_code = 400
    return response


@blueprint.get("/state")
def state() -> Any:
    return jsonify(live().state_json())


@blueprint.get("/games")
def games() -> Any:
    return jsonify([g.to_json() for g in hub().store.games()])


@blueprint.post("/games")
def new_game() -> Any:
    spec = GameSpec.from_json(body(*GameSpec.FIELDS))
    try:
        game_id = hub().new_game(spec)
    except RefereeError as error:
        abort(400, str(error))
    except StartError as error:
        abort(409, f"the game cannot start: {error}")
    return jsonify(known_game(game_id).to_json()), 201


@blueprint.get("/games/<int:game_id>")
def game(game_id: int) -> Any:
    info = known_game(game_id)
    try:
        view = game_json(hub().store.state(game_id), info.names)
    except BrokenGameError as error:
        return jsonify(info.to_json() | {"state": None, "broken": str(error)})
    return jsonify(info.to_json() | {"state": view})


@blueprint.get("/games/<int:game_id>/records")
def records(game_id: int) -> Any:
    known_game(game_id)
    return jsonify([r.to_json() for r in hub().store.records(game_id)])


@blueprint.post("/undo")
def undo() -> Any:
    person = who(body("who"))
    referee = live()
    try:
        said = referee.undo(person)
    except RefereeError as error:
        abort(409, str(error))
    return jsonify({"ok": True, "text": said, "state": referee.state_json()})


@blueprint.post("/choose")
def choose() -> Any:
    data = body("option", "who")
    option = data.get("option")
    if isinstance(option, bool) or not isinstance(option, int):
        abort(400, "option: the index of the answer (0 or 1)")
    referee = live()
    try:
        said = referee.choose(option, who(data))
    except RefereeError as error:
        abort(409, str(error))
    return jsonify({"ok": True, "text": said, "state": referee.state_json()})


@blueprint.post("/event")
def event() -> Any:
    data = body()
    person = who(data)
    data.pop("who", None)
    referee = live()
    try:
        happened = game_of(referee.observer.state).event_from_json(data)
    except NotationError as error:
        abort(400, str(error))
    return _correct(referee, happened, person)


@blueprint.post("/deal")
def deal() -> Any:
    data = body("casinos", "who")
    return _correct(live(), BanknotesDealt(banknotes(data.get("casinos"))), who(data))


def _correct(referee: Any, happened: Any, person: str) -> Any:
    """Applies a person's event if the rules take it (a 409 otherwise, nothing stored)."""
    try:
        referee.apply(happened, person)
    except RefereeError as error:
        abort(409, str(error))
    return jsonify({"ok": True, "state": referee.state_json()})


@blueprint.post("/calibration")
def calibration() -> Any:
    import numpy as np

    from vision.zones import CalibrationError, calibrate_corners, check_calibration, save_calibration

    data = body("corners", "width_mm", "height_mm")
    points = np.array(corners(data.get("corners")), dtype=np.float64)
    width = number(data.get("width_mm", 420), "width_mm", 50, 10_000)
    height = number(data.get("height_mm", 297), "height_mm", 50, 10_000)
    referee = live()
    if isinstance(referee.pipeline, BoardReferee):
        return _calibrate_board(referee, points)
    try:
        made = calibrate_corners(points, width, height, referee.pipeline.observer.state.ruleset.game)
        check_calibration(made, _frame_size(referee))
    except CalibrationError as error:
        abort(400, str(error))
    path = Path(hub().app.instance_path) / "calibration.json"
    save_calibration(made, path)
    referee.pipeline.fixed = referee.pipeline.calibration = made
    return jsonify({"ok": True, "file": str(path)})


def _calibrate_board(referee: Any, points: Any) -> Any:
    """A real Just 4 Fun board by its grid's corners, on the frame now seen (the board empty: each spot's reference)."""
    from vision.zones import CalibrationError

    report = referee.last_report
    if report is None:
        abort(409, "no frame seen yet: start the camera, clear the board, then mark its corners")
    try:
        referee.pipeline.calibrate(points, report.frame.image)
    except CalibrationError as error:
        abort(400, str(error))
    path = save_board_calibration(Path(hub().app.instance_path), points, report.frame.image)
    return jsonify({"ok": True, "file": str(path)})


@blueprint.get("/calibration")
def calibration_now() -> Any:
    pipeline = live().pipeline
    if isinstance(pipeline, BoardReferee):
        by = "corners" if pipeline.fixed is not None else "markers"
        return jsonify({"calibrated": pipeline.calibration is not None, "by": by})
    made = pipeline.calibration
    if made is None:
        return jsonify({"calibrated": False})
    return jsonify({"calibrated": True, "by": "corners" if pipeline.fixed is not None else "mat"} | made.to_json())


@blueprint.post("/zones")
def zones() -> Any:
    from vision.zones import Calibration, CalibrationError, check_calibration, save_calibration

    data = body("casinos", "rolling_area")
    moved = {name: polygons(data[name], name) for name in ("casinos", "rolling_area") if name in data}
    referee = live()
    pipeline = referee.pipeline
    if isinstance(pipeline, BoardReferee):
        abort(409, "a board's fields follow from its corners and its layout: they are not moved by hand")
    if pipeline.fixed is None:
        abort(409, "the mat's zones are printed on it; zones can be moved on a table calibrated by its corners")
    try:
        made = Calibration.from_json(pipeline.fixed.to_json() | moved)
        check_calibration(made, _frame_size(referee))
    except CalibrationError as error:
        abort(400, str(error))
    path = Path(hub().app.instance_path) / "calibration.json"
    save_calibration(made, path)
    pipeline.fixed = pipeline.calibration = made
    return jsonify({"ok": True, "file": str(path)})


@blueprint.post("/colours")
def colours() -> Any:
    name = text(body("colour").get("colour"), "colour", 20)
    referee = live()
    try:
        seen = referee.learn_colour(name)
    except ValueError as error:
        abort(409, str(error))
    learned = referee.pipeline.colours.to_json()
    (Path(hub().app.instance_path) / "colours.json").write_text(json.dumps(learned, indent=1))
    return jsonify({"ok": True, "colour": name, "dice": seen, "learned": learned})


def _frame_size(referee: Any) -> tuple[int, int] | None:
    """The camera's frame size (width, height), once a frame was seen."""
    report = referee.last_report
    if report is None:
        return None
    height, width = report.frame.image.shape[:2]
    return int(width), int(height)
