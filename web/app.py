"""The Flask application: live page, setup, calibration, corrections, history, and the JSON API.

``create_app(config)`` builds it; ``dice-referee serve`` runs it. One background producer
(:class:`web.live.LiveReferee`) owns the camera; requests only read what it published or append a
correction. Every POST needs the page's CSRF token (form field ``csrf_token`` or header
``X-CSRF-Token``); served beyond this machine (``--lan``) every request also needs the access token.
Errors are JSON ``{"error": ...}`` with a 4xx status under ``/api/`` and a short page elsewhere.
"""

from __future__ import annotations

import csv
import io
import json
import os
import queue
import secrets
import threading
import time
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, jsonify, redirect, render_template, request, session, url_for
from werkzeug.exceptions import HTTPException

from referee import BanknotesDealt, find_ruleset, game_of
from referee.errors import NotationError, RefereeError
from referee.lasvegas.rules import RULESETS, VARIANTS
from referee.lasvegas.simulate import DEFAULT_PLAYERS
from referee.record import record_lines
from referee.types import Colour
from web.charts import money_chart_svg
from web.live import LiveReferee, game_json
from web.store import Store

__all__ = ["Hub", "create_app", "start_demo_game"]

DEFAULTS: dict[str, Any] = {
    "DATABASE_URL": None,  # default: sqlite in the instance folder
    "SOURCE": "builtin",  # camera index, video, image folder, stream URL, or the built-in rendered game
    "READER": "model",  # or "truth": the built-in game's own labels
    "MODELS": None,
    "CALIBRATION": None,  # calibration file; default: the play mat's markers
    "REALTIME": True,
    "AUTOSTART": True,  # start the producer thread (tests step it by hand)
    "TOKEN": None,  # access token required when serving beyond localhost
    "BUILTIN_SIZE": (1280, 720),
    "BUILTIN_FPS": 10.0,
    "INSTANCE_PATH": None,  # database, secret key and calibration; default ./instance
}


class Hub:
    """The store and the live referee of the current game (the only one that touches the camera)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        config = app.config
        url = config["DATABASE_URL"] or f"sqlite:///{Path(app.instance_path) / 'dice-referee.db'}"
        self.store = Store(url)
        self.live: LiveReferee | None = None
        self.error: str | None = None
        self._lock = threading.Lock()
        current = self.store.current()
        if current is not None:
            self.start(current.id)

    def start(self, game_id: int) -> None:
        """Referees game ``game_id`` (resumed from its records) from the configured source."""
        from vision.capture import open_source
        from vision.detect import ModelError
        from vision.zones import load_calibration

        config = self.app.config
        info = self.store.game(game_id)
        if info is None:
            raise KeyError(game_id)
        with self._lock:
            if self.live is not None:
                self.live.stop()
                self.live = None
            self.error = None
            calibration = load_calibration(config["CALIBRATION"]) if config["CALIBRATION"] else None
            on_frame = None
            if config["SOURCE"] == "builtin":
                from vision.synth.game import RenderedGame

                game = RenderedGame(seed=info.seed, players=info.players, rules=info.ruleset,
                                    size=tuple(config["BUILTIN_SIZE"]), fps=float(config["BUILTIN_FPS"]))  # fmt: skip
                source: Any = game
                fps = game.fps
                reader: Any = game.truth_reader()
                notice = "reading the built-in game's own labels (--reader truth)"
                if config["READER"] != "truth":
                    try:
                        reader, notice = self._model(), ""
                    except ModelError as error:  # until the weights are committed the demo still runs
                        notice = f"{error}; reading the built-in game's own labels instead"
            else:
                source = open_source(str(config["SOURCE"]), on_status=self._camera_status)
                fps, notice = 10.0, ""
                reader = self._model()
            self.live = LiveReferee(self.store, game_id, source, reader, calibration=calibration,
                                    realtime=bool(config["REALTIME"]), fps=fps, on_frame=on_frame)  # fmt: skip
            self.live.notice = notice
            colours = Path(self.app.instance_path) / "colours.json"
            if colours.exists():  # learned at an earlier setup, under this camera and light
                self.live.pipeline.colours.load_json(json.loads(colours.read_text()))
            if config["AUTOSTART"]:
                self.live.start()

    def _camera_status(self, message: str) -> None:
        """A live camera's news (connected, lost, reconnecting): shown on the page, the game goes on."""
        live = self.live
        if live is not None:
            live.status = f"camera {message}"
            live.broker.publish({"type": "status", "status": live.status})

    def demo_loop(self) -> None:
        """With the built-in game, a new demo game starts a minute after one ends (always something to see)."""

        def watch() -> None:
            while True:
                live = self.live
                if live is not None and live.status == "ended" and self.app.config["SOURCE"] == "builtin":
                    time.sleep(60)
                    if self.live is live:
                        info = live.info
                        with self.app.test_request_context():
                            _create_game(self, {"game": info.ruleset, "players": info.players, "seed": info.seed + 1})
                time.sleep(1)

        threading.Thread(target=watch, name="demo-loop", daemon=True).start()

    def _model(self) -> Any:
        from vision.detect import MODELS, table_reader

        return table_reader(Path(self.app.config["MODELS"] or MODELS))


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A spreadsheet reads a cell starting with one of these as a formula (CSV injection)."""


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: text that starts like a formula gets a leading quote.

    Who made a correction is free text from the request (``who``), and a spreadsheet would run
    ``=HYPERLINK(...)`` typed there. Numbers stay numbers.

    Example:
        >>> print(csv_cell('=HYPERLINK("http://evil.example","x")'))
        '=HYPERLINK("http://evil.example","x")
        >>> csv_cell("-3"), csv_cell(-3), csv_cell("Ann")
        ("'-3", -3, 'Ann')
    """
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Builds the application; ``config`` overrides :data:`DEFAULTS` (and Flask's own keys)."""
    app = Flask(__name__, instance_path=(config or {}).get("INSTANCE_PATH") or os.path.abspath("instance"))
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    hub = Hub(app)
    app.extensions["dice-referee"] = hub
    _register(app, hub)
    return app


def _secret_key(instance: Path) -> str:
    """A persistent random key (sessions survive a restart), kept in the instance folder."""
    path = instance / "secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    path.write_text(key)
    return key


def _csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return str(session["csrf"])


def _api_error(status: int, message: str) -> Response:
    response = jsonify({"error": message})
    response.status_code = status
    return response


def _json_body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, "the request body must be a JSON object")
    return data


def _register(app: Flask, hub: Hub) -> None:
    app.jinja_env.globals["csrf_token"] = _csrf_token

    @app.before_request
    def _guard() -> Response | None:
        token = app.config.get("TOKEN")
        if token:
            given = request.args.get("token") or request.cookies.get("token") or request.headers.get("X-Token")
            if not given or not secrets.compare_digest(str(given), str(token)):
                abort(403, "an access token is required (open the link printed by the server)")
        if request.method == "POST":
            sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token")
            if not sent or "csrf" not in session or not secrets.compare_digest(str(sent), str(session["csrf"])):
                abort(403, "missing or wrong CSRF token: reload the page and try again")
        return None

    @app.after_request
    def _remember_token(response: Response) -> Response:
        token = app.config.get("TOKEN")
        if token and request.args.get("token") == token:
            response.set_cookie("token", token, httponly=True, samesite="Strict")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> Any:
        message = error.description or error.name
        if request.path.startswith("/api/") or request.is_json:
            return _api_error(error.code or 500, message)
        return render_template("error.html", code=error.code, message=message), error.code

    def live() -> LiveReferee:
        if hub.live is None:
            abort(409, "no game is being played: start one on the setup page")
        return hub.live

    # --- pages ---------------------------------------------------------------------------------------

    @app.get("/")
    def index() -> Any:
        if hub.live is None:
            return redirect(url_for("setup"))
        return render_template("live.html", state=hub.live.state_json())

    @app.get("/setup")
    def setup() -> Any:
        return render_template("setup.html", rulesets=RULESETS, variants=VARIANTS,
                               colours=[c.value for c in Colour], defaults=[c.value for c in DEFAULT_PLAYERS],
                               source=app.config["SOURCE"])  # fmt: skip

    @app.post("/setup")
    def setup_post() -> Any:
        form = request.form
        spec = {
            "game": form.get("game", "las-vegas"),
            "variants": form.getlist("variants"),
            "players": [c for c in form.getlist("colour") if c],
            "names": {c: n for c, n in zip(form.getlist("colour"), form.getlist("name"), strict=False) if c and n},
            "seed": form.get("seed") or None,
            "start": form.get("start") or None,
            "deal": form.get("deal", "virtual"),
        }
        _create_game(hub, spec)
        return redirect(url_for("index"))

    @app.get("/calibration")
    def calibration_page() -> Any:
        return render_template("calibration.html", state=hub.live.state_json() if hub.live else None)

    @app.get("/history")
    def history() -> Any:
        return render_template("history.html", games=hub.store.games())

    @app.get("/games/<int:game_id>")
    def game_page(game_id: int) -> Any:
        info = hub.store.game(game_id) or abort(404, f"no game {game_id}")
        states = hub.store.states(game_id)
        step = max(0, min(request.args.get("step", len(states) - 1, type=int), len(states) - 1))
        records = hub.store.records(game_id)
        return render_template("game.html", info=info, step=step, steps=len(states),
                               view=game_json(states[step], info.names), records=records)  # fmt: skip

    @app.get("/games/<int:game_id>/chart.svg")
    def chart(game_id: int) -> Any:
        info = hub.store.game(game_id) or abort(404, f"no game {game_id}")
        svg = money_chart_svg(hub.store.states(game_id), info.names)
        return Response(svg, mimetype="image/svg+xml")

    @app.get("/games/<int:game_id>/export.jsonl")
    def export_jsonl(game_id: int) -> Any:
        hub.store.game(game_id) or abort(404, f"no game {game_id}")
        lines = "".join(line + "\n" for line in record_lines(hub.store.state(game_id)))
        return Response(lines, mimetype="application/x-ndjson",
                        headers={"Content-Disposition": f"attachment; filename=game-{game_id}.jsonl"})  # fmt: skip

    @app.get("/games/<int:game_id>/export.csv")
    def export_csv(game_id: int) -> Any:
        hub.store.game(game_id) or abort(404, f"no game {game_id}")
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["seq", "at", "kind", "who", "event", "player", "casino", "dice", "detail"])
        for r in hub.store.records(game_id):
            body = r.body
            writer.writerow([csv_cell(cell) for cell in (
                r.seq, r.at, r.kind, r.who, body.get("event", ""), body.get("player", ""), body.get("casino", ""),
                body.get("dice", ""), body.get("reason", "") or json.dumps(body))])  # fmt: skip
        return Response(out.getvalue(), mimetype="text/csv",
                        headers={"Content-Disposition": f"attachment; filename=game-{game_id}.csv"})  # fmt: skip

    # --- live streams ----------------------------------------------------------------------------------

    @app.get("/video.mjpg")
    def video() -> Any:
        referee = live()

        def frames() -> Any:
            index = -1
            while hub.live is referee:  # a new game has its own stream: this one ends
                index, jpeg = referee.wait_frame(index, timeout=5.0)
                if jpeg is None:
                    if referee.status not in ("starting", "running"):
                        return
                    continue
                yield b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(jpeg)).encode() + \
                    b"\r\n\r\n" + jpeg + b"\r\n"  # fmt: skip

        return Response(frames(), mimetype="multipart/x-mixed-replace; boundary=frame")

    @app.get("/frame.jpg")
    def frame_jpg() -> Any:
        _, jpeg = live().wait_frame(-1, timeout=0.0)
        if jpeg is None:
            abort(404, "no frame yet")
        return Response(jpeg, mimetype="image/jpeg")

    @app.get("/events")
    def events() -> Any:
        referee = live()
        subscription = referee.broker.subscribe()

        def stream() -> Any:
            try:
                yield _sse({"type": "state", "state": referee.state_json()})
                while hub.live is referee:
                    try:
                        message = subscription.get(timeout=5)
                    except queue.Empty:
                        yield ": keep-alive\n\n"
                        continue
                    yield _sse(message)
                yield _sse({"type": "reload"})  # another game started: the page reloads
            finally:
                referee.broker.unsubscribe(subscription)

        return Response(stream(), mimetype="text/event-stream", headers={"Cache-Control": "no-cache"})

    # --- JSON API --------------------------------------------------------------------------------------

    @app.get("/api/state")
    def api_state() -> Any:
        return jsonify(live().state_json())

    @app.get("/api/games")
    def api_games() -> Any:
        return jsonify([g.to_json() for g in hub.store.games()])

    @app.post("/api/games")
    def api_new_game() -> Any:
        game_id = _create_game(hub, _json_body())
        return jsonify((hub.store.game(game_id) or abort(500)).to_json()), 201

    @app.get("/api/games/<int:game_id>")
    def api_game(game_id: int) -> Any:
        info = hub.store.game(game_id) or abort(404, f"no game {game_id}")
        return jsonify(info.to_json() | {"state": game_json(hub.store.state(game_id), info.names)})

    @app.get("/api/games/<int:game_id>/records")
    def api_records(game_id: int) -> Any:
        hub.store.game(game_id) or abort(404, f"no game {game_id}")
        return jsonify([r.to_json() for r in hub.store.records(game_id)])

    @app.post("/api/undo")
    def api_undo() -> Any:
        who = str(_json_body().get("who") or "referee page")[:80]
        try:
            text = live().undo(who)
        except RefereeError as error:
            abort(409, str(error))
        return jsonify({"ok": True, "text": text, "state": live().state_json()})

    @app.post("/api/event")
    def api_event() -> Any:
        body = _json_body()
        who = str(body.pop("who", None) or "referee page")[:80]
        try:
            event = game_of(live().observer.state).event_from_json(body)
            live().apply(event, who)
        except NotationError as error:
            abort(400, str(error))
        except RefereeError as error:
            abort(409, str(error))
        return jsonify({"ok": True, "state": live().state_json()})

    @app.post("/api/deal")
    def api_deal() -> Any:
        body = _json_body()
        casinos = body.get("casinos")
        if not isinstance(casinos, list) or not all(isinstance(c, list) for c in casinos):
            abort(400, "'casinos' must be a list of six lists of banknote values in dollars")
        try:
            event = BanknotesDealt(tuple(tuple(int(n) for n in notes) for notes in casinos))
            live().apply(event, str(body.get("who") or "referee page")[:80])
        except (TypeError, ValueError) as error:
            if isinstance(error, RefereeError):
                abort(409, str(error))
            abort(400, f"banknotes must be whole dollar values: {error}")
        return jsonify({"ok": True, "state": live().state_json()})

    @app.post("/api/calibration")
    def api_calibration() -> Any:
        import numpy as np

        from vision.zones import CalibrationError, calibrate_corners, save_calibration

        body = _json_body()
        try:
            corners = np.array(body.get("corners"), dtype=np.float64)
            calibration = calibrate_corners(
                corners, float(body.get("width_mm", 420)), float(body.get("height_mm", 297))
            )
        except (CalibrationError, TypeError, ValueError) as error:
            abort(400, str(error))
        path = Path(app.instance_path) / "calibration.json"
        save_calibration(calibration, path)
        referee = live()
        referee.pipeline.fixed = referee.pipeline.calibration = calibration
        return jsonify({"ok": True, "file": str(path)})

    @app.get("/api/calibration")
    def api_calibration_get() -> Any:
        pipeline = live().pipeline
        calibration = pipeline.calibration
        if calibration is None:
            return jsonify({"calibrated": False})
        return jsonify({"calibrated": True, "by": "corners" if pipeline.fixed is not None else "mat"}
                       | calibration.to_json())  # fmt: skip

    @app.post("/api/zones")
    def api_zones() -> Any:
        from vision.zones import Calibration, CalibrationError, save_calibration

        pipeline = live().pipeline
        if pipeline.fixed is None:
            abort(409, "the mat's zones are printed on it; zones can be moved on a table calibrated by its corners")
        body = _json_body()
        try:
            moved = Calibration.from_json(pipeline.fixed.to_json() | {k: body[k] for k in ("casinos", "rolling_area")
                                                                      if k in body})  # fmt: skip
        except CalibrationError as error:
            abort(400, str(error))
        path = Path(app.instance_path) / "calibration.json"
        save_calibration(moved, path)
        pipeline.fixed = pipeline.calibration = moved
        return jsonify({"ok": True, "file": str(path)})

    @app.post("/api/colours")
    def api_colours() -> Any:
        body = _json_body()
        name = body.get("colour")
        if not isinstance(name, str):
            abort(400, "'colour' must name one of the game's colours")
        try:
            seen = live().learn_colour(name)
        except ValueError as error:
            abort(409, str(error))
        learned = live().pipeline.colours.to_json()
        (Path(app.instance_path) / "colours.json").write_text(json.dumps(learned, indent=1))
        return jsonify({"ok": True, "colour": name, "dice": seen, "learned": learned})


def start_demo_game(app: Flask) -> None:
    """With the built-in source and no game in progress, starts one (red, blue, green; seed 2026)."""
    hub: Hub = app.extensions["dice-referee"]
    if hub.live is None:
        with app.test_request_context():
            _create_game(hub, {"game": "las-vegas", "players": ["red", "blue", "green"], "seed": 2026})
    hub.demo_loop()


def _create_game(hub: Hub, spec: dict[str, Any]) -> int:
    """Checks a game description (form or JSON), stores the game and starts refereeing it."""
    game = spec.get("game", "las-vegas")
    variants = spec.get("variants") or []
    players = spec.get("players")
    if not isinstance(game, str) or not isinstance(variants, list) or not isinstance(players, list):
        abort(400, "expected 'game' (text), 'variants' (a list) and 'players' (a list of colours)")
    start = spec.get("start")
    if start:  # clockwise order kept, the start player first
        if start not in players:
            abort(400, f"the start player {start!r} is not one of the players")
        players = players[players.index(start) :] + players[: players.index(start)]
    names = spec.get("names") or {}
    if not isinstance(names, dict):
        abort(400, "'names' must map colours to names")
    deal = spec.get("deal", "virtual")
    if deal not in ("virtual", "manual"):
        abort(400, "'deal' is 'virtual' (dealt on screen from a seed) or 'manual' (entered to match the table)")
    seed = spec.get("seed")
    try:
        seed = int(seed) if seed not in (None, "") else secrets.randbelow(1 << 31)
        rules = find_ruleset(game, [str(v) for v in variants])
        neutral = Colour.WHITE.value if rules.has_neutral else None
        game_id = hub.store.new_game(rules.name, [str(p) for p in players],
                                     {str(k): str(v)[:40] for k, v in names.items()}, neutral, seed, deal)  # fmt: skip
    except (RefereeError, ValueError, TypeError) as error:
        abort(400, str(error))
    from vision.capture import CaptureError
    from vision.detect import ModelError
    from vision.zones import CalibrationError

    try:
        hub.start(game_id)
    except (CaptureError, ModelError, CalibrationError) as error:
        hub.store.set_status(game_id, "abandoned")
        abort(409, f"the game cannot start: {error}")
    return game_id


def _sse(message: dict[str, Any]) -> str:
    return f"event: {message.get('type', 'message')}\ndata: {json.dumps(message)}\n\n"
