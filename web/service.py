"""The referee service behind the page: the game log, and the live referee of the current game.

One :class:`Hub` per application, made by the factory (nothing starts at import). It owns the store
(the only writer of its database) and the one :class:`~web.live.LiveReferee` that touches the camera.
A new game is checked whole (rules, players, source, reader) before anything is stored or the game in
progress is stopped, so a refused request changes nothing.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask

from referee import find_game, safejson
from referee.errors import RefereeError
from referee.game import DiceGame
from vision.board_referee import BoardReferee
from vision.zones import CalibrationError
from web.live import LiveReferee, camera_refereed
from web.store import BrokenGameError, GameInfo, Store
from web.validate import GameSpec

__all__ = ["BOARD_CALIBRATION", "BOARD_LAYOUT", "Hub", "StartError", "load_board_calibration", "save_board_calibration"]

BOARD_LAYOUT = "board-layout.json"
"""The user's own Just 4 Fun board's numbering in the instance folder, entered once at setup."""
BOARD_CALIBRATION = ("board-calibration.json", "board-empty.png")
"""A real Just 4 Fun board's calibration in the instance folder: its grid's corners, and the frame of it empty."""

log = logging.getLogger(__name__)


class StartError(RuntimeError):
    """The game cannot be refereed from this source (no camera, no weights, a bad calibration)."""


@dataclass
class _Opened:
    """A frame source and a dice reader, opened for one game before it is stored."""

    source: Any
    reader: Any
    fps: float
    notice: str
    calibration: Any


class Hub:
    """The store and the live referee of the current game (the only one that touches the camera)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        config = app.config
        default = Path(app.instance_path) / "dice-referee.db"
        url = config["DATABASE_URL"] or f"sqlite:///{default}"
        # The default database is made on the first run; any other only when asked (--new-database).
        create = bool(config["NEW_DATABASE"]) or (not config["DATABASE_URL"] and not default.exists())
        self.store = Store(url, create=create, writer=True)
        self.live: LiveReferee | None = None
        self._lock = threading.Lock()
        current = self.store.current()
        if current is not None:
            self.resume(current)

    # --- starting games ------------------------------------------------------------------------------

    def resume(self, info: GameInfo) -> None:
        """Referees a stored game from where its log stopped; one that no longer replays is marked broken.

        Raises:
            StartError: the source or the reader cannot be opened (the game stays as it was).
        """
        try:
            self.store.state(info.id)
        except BrokenGameError:
            self.store.set_status(info.id, "broken")
            return
        opened = self._open(info.seed, info.players, info.ruleset, self.store.initial_state(info.id).ruleset)
        source = opened.source
        if hasattr(source, "resume") and not source.resume(self.store.state(info.id).history):
            # The built-in game never reaches this log (it was corrected by hand): a new demo game instead.
            self.store.set_status(info.id, "abandoned")
            return
        self._run(info.id, opened)

    def new_game(self, spec: GameSpec) -> int:
        """Checks ``spec`` against the rules and the source, stores the game and starts refereeing it.

        Raises:
            RefereeError: rules or players the game does not allow (nothing stored).
            StartError: the source or reader cannot be opened (nothing stored, the game in progress goes on).
        """
        game = find_game(spec.game)
        if not camera_refereed(game):
            raise RefereeError(f"{game.title} is not refereed from the camera")
        rules = game.find_ruleset("+".join([spec.game, *spec.variants]) if spec.variants else spec.game)
        setup = self._board_setup(spec, game)
        # raises for impossible setups (a bad layout too); the game's own neutral colour
        first = game.from_header(rules, {"players": spec.players, **setup}) if setup else game.new_game(
            rules, spec.players)  # fmt: skip
        neutral = first.neutral.value if getattr(first, "neutral", None) is not None else None
        seed = spec.seed if spec.seed is not None else secrets.randbelow(1 << 31)
        opened = self._open(seed, spec.players, rules.name, first.ruleset)
        game_id = self.store.new_game(rules.name, spec.players, spec.names, neutral, seed, spec.deal, setup)
        if spec.layout is not None:  # entered once: the next games on this board use it too
            (Path(self.app.instance_path) / BOARD_LAYOUT).write_text(json.dumps(spec.layout), encoding="utf-8")
        self._run(game_id, opened)
        return game_id

    def _board_setup(self, spec: GameSpec, game: Any) -> dict[str, Any]:
        """A board game's header beyond its players: the board's layout entered, else the one saved, else none.

        Raises:
            RefereeError: a layout for a game without a board, or a saved layout that cannot be read.
        """
        if isinstance(game, DiceGame):
            if spec.layout is not None:
                raise RefereeError(f"{game.title} has no numbered board: a layout is for Just 4 Fun")
            return {}
        if spec.layout is not None:
            return {"layout": list(spec.layout)}
        saved = Path(self.app.instance_path) / BOARD_LAYOUT
        if not saved.exists():
            return {}
        try:
            return {"layout": [int(n) for n in safejson.loads(saved.read_bytes())]}
        except (ValueError, TypeError) as error:
            raise RefereeError(
                f"the board's layout saved in {saved} cannot be read ({error}): enter it again"
            ) from None

    def _open(self, seed: int, players: list[str], ruleset: str, rules: Any = None) -> _Opened:
        from vision.capture import CaptureError, open_source
        from vision.detect import ModelError
        from vision.zones import CalibrationError, load_calibration

        config = self.app.config
        try:
            calibration = load_calibration(config["CALIBRATION"]) if config["CALIBRATION"] else None
            board = not isinstance(find_game(ruleset), DiceGame)  # Just 4 Fun: its stones are read, no dice model
            if config["SOURCE"] == "builtin" and board:
                from vision.synth.board import BoardFilm

                film = BoardFilm(seed=seed, players=players, size=tuple(config["BUILTIN_SIZE"]),
                                 fps=float(config["BUILTIN_FPS"]), rules=rules)  # fmt: skip
                return _Opened(film, None, film.fps, "", calibration)
            if config["SOURCE"] == "builtin":
                from vision.synth.game import RenderedGame

                game = RenderedGame(seed=seed, players=players, rules=ruleset, size=tuple(config["BUILTIN_SIZE"]),
                                    fps=float(config["BUILTIN_FPS"]))  # fmt: skip
                reader: Any = game.truth_reader()
                notice = "reading the built-in game's own labels (--reader truth)"
                if config["READER"] != "truth":
                    try:
                        reader, notice = self._model(), ""
                    except ModelError as error:  # without weights the demo still runs
                        notice = f"{error}; reading the built-in game's own labels instead"
                return _Opened(game, reader, game.fps, notice, calibration)
            source = open_source(str(config["SOURCE"]), on_status=self._camera_status)
            return _Opened(source, None if board else self._model(), 10.0, "", calibration)
        except (CaptureError, ModelError, CalibrationError) as error:
            raise StartError(str(error)) from None

    def _run(self, game_id: int, opened: _Opened) -> None:
        """Stops the game in progress and referees ``game_id`` with what :meth:`_open` opened."""
        with self._lock:
            if self.live is not None:
                self.live.stop()
            self.live = LiveReferee(self.store, game_id, opened.source, opened.reader,
                                    calibration=opened.calibration, realtime=bool(self.app.config["REALTIME"]),
                                    fps=opened.fps)  # fmt: skip
            self.live.notice = opened.notice
            if isinstance(self.live.pipeline, BoardReferee) and self.app.config["SOURCE"] != "builtin":
                try:
                    saved = load_board_calibration(Path(self.app.instance_path))
                    if saved is not None:
                        self.live.pipeline.calibrate(*saved)
                except (ValueError, OSError, CalibrationError) as error:
                    self.live.notice = f"the board's saved corners were not used ({error}): mark them again"
            colours = Path(self.app.instance_path) / "colours.json"
            # Dice colours learned at an earlier setup, under this camera and light (stones are read as printed).
            if colours.exists() and not isinstance(self.live.pipeline, BoardReferee):
                try:
                    self.live.pipeline.colours.load_json(safejson.loads(colours.read_bytes()))
                except (ValueError, OSError) as error:
                    self.live.notice = f"the learned colours in {colours} were not used: {error}"
            if self.app.config["AUTOSTART"]:
                self.live.start()

    def _camera_status(self, message: str) -> None:
        """A live camera's news (connected, lost, reconnecting): on stderr and the page; the game goes on."""
        log.warning("camera %s: %s", self.app.config["SOURCE"], message)
        live = self.live
        if live is not None:
            live.set_status(f"camera {message}")

    def _model(self) -> Any:
        from vision.detect import MODELS, table_reader

        return table_reader(Path(self.app.config["MODELS"] or MODELS))

    # --- the built-in demo ---------------------------------------------------------------------------

    def demo(self) -> None:
        """With the built-in game: a game to watch now, and a new one a minute after each one ends."""
        if self.live is None:
            self.new_game(GameSpec(players=["red", "blue", "green"], seed=2026))

        def watch() -> None:
            while True:
                live = self.live
                if live is not None and live.status == "ended":
                    time.sleep(60)
                    if self.live is live:
                        info = live.info
                        try:
                            self.new_game(GameSpec(game=info.ruleset, players=info.players,
                                                   seed=(info.seed + 1) % (1 << 31)))  # fmt: skip
                        except (RefereeError, StartError):
                            return
                time.sleep(1)

        threading.Thread(target=watch, name="demo-loop", daemon=True).start()


def save_board_calibration(folder: Path, corners: Any, image: Any) -> Path:
    """Saves a real board's corners and its picture empty (:data:`BOARD_CALIBRATION`); the corners' file."""
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    path, picture = (folder / name for name in BOARD_CALIBRATION)
    if not cv2.imwrite(str(picture), image):
        raise OSError(f"cannot write {picture}")
    path.write_text(json.dumps({"corners": [[float(x), float(y)] for x, y in corners]}), encoding="utf-8")
    return path


def load_board_calibration(folder: Path) -> tuple[Any, Any] | None:
    """A real board's saved corners and picture empty; None when none is saved.

    Raises:
        ValueError: a file that is not such a calibration (named in the message).
    """
    import cv2
    import numpy as np

    path, picture = (folder / name for name in BOARD_CALIBRATION)
    if not path.exists():
        return None
    try:
        corners = np.array(safejson.loads(path.read_bytes())["corners"], dtype=np.float64)
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{path} is not a board calibration: {error}") from None
    image = cv2.imread(str(picture), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"{picture} is missing or not a picture")
    return corners, image
