"""The Flask application: the factory, its guards, and the three blueprints it mounts.

``create_app(config)`` builds it; ``dice-referee serve`` runs it. The factory sets up one service
(:class:`web.service.Hub`: the game log and the live referee that owns the camera) and mounts the
blueprints :mod:`web.pages` (HTML pages and exports), :mod:`web.streams` (the MJPEG video and
server-sent events) and :mod:`web.api` (JSON). Each blueprint validates its input at its edge
(:mod:`web.validate`): a refused request is a 4xx and changes nothing.

Guards on every request, before any blueprint:

- the ``Host`` header must name this server (``localhost``, ``127.0.0.1``, ``[::1]``, or an address or
  name allowed with ``--lan``): a web page elsewhere cannot drive the referee by DNS rebinding;
- served beyond this machine (``--lan``), the access token;
- a POST needs the page's CSRF token (form field ``csrf_token`` or header ``X-CSRF-Token``), and a
  browser's ``Origin``, when it sends one, must be this server.

Errors are JSON ``{"error": ...}`` under ``/api/`` and a short page elsewhere; an internal error
answers a 500 with one sentence, never a traceback.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, jsonify, render_template, request, session
from werkzeug.exceptions import HTTPException, InternalServerError

from web.service import Hub

__all__ = ["LOOPBACK_NAMES", "create_app", "start_demo_game"]

log = logging.getLogger(__name__)

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
"""The names a browser on this machine uses for the server."""

DEFAULTS: dict[str, Any] = {
    "DATABASE_URL": None,  # default: sqlite in the instance folder
    "NEW_DATABASE": False,  # make a missing or empty database file (the default one is made on the first run)
    "SOURCE": "builtin",  # camera index, video, image folder, stream URL, or the built-in rendered game
    "READER": "model",  # or "truth": the built-in game's own labels
    "MODELS": None,
    "CALIBRATION": None,  # calibration file; default: the play mat's markers
    "REALTIME": True,
    "AUTOSTART": True,  # start the producer thread (tests step it by hand)
    "TOKEN": None,  # access token required when serving beyond localhost
    "ALLOWED_HOSTS": (),  # names and addresses the Host header may give besides LOOPBACK_NAMES (--lan)
    "BUILTIN_SIZE": (1280, 720),
    "BUILTIN_FPS": 10.0,
    "INSTANCE_PATH": None,  # database, secret key and calibration; default ./instance
}

_HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::[0-9]{1,5})?")


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Builds the application; ``config`` overrides :data:`DEFAULTS` (and Flask's own keys).

    Raises:
        StoreError: the database cannot be used (damaged, missing, or written by another process).
        StartError: the game in progress cannot be resumed from its source.
    """
    from web import api, pages, streams

    app = Flask(__name__, instance_path=(config or {}).get("INSTANCE_PATH") or os.path.abspath("instance"))
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    app.config["MAX_FORM_PARTS"] = 100
    app.jinja_env.globals["csrf_token"] = _csrf_token
    app.extensions["dice-referee"] = Hub(app)
    app.before_request(_guard)
    app.after_request(_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _internal_error)
    app.register_blueprint(pages.blueprint)
    app.register_blueprint(streams.blueprint)
    app.register_blueprint(api.blueprint)
    return app


def start_demo_game(app: Flask) -> None:
    """With the built-in source: a game to watch now (red, blue, green; seed 2026), a new one after each."""
    hub: Hub = app.extensions["dice-referee"]
    hub.demo()


def hub() -> Hub:
    """The service of the application handling the request."""
    from flask import current_app

    service: Hub = current_app.extensions["dice-referee"]
    return service


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


def _allowed(host: str | None) -> bool:
    """Whether a ``Host`` value (``name[:port]``) names this server."""
    from flask import current_app

    match = _HOST.fullmatch(host or "")
    if match is None:
        return False
    name = match.group(1).strip("[]").lower()
    return name in LOOPBACK_NAMES or name in {str(h).strip("[]").lower() for h in current_app.config["ALLOWED_HOSTS"]}


def _guard() -> None:
    from flask import current_app

    if not _allowed(request.headers.get("Host")):
        abort(400, "this server answers only to its own address (the Host header names another)")
    token = current_app.config.get("TOKEN")
    if token:
        given = request.args.get("token") or request.cookies.get("token") or request.headers.get("X-Token")
        if not given or not secrets.compare_digest(str(given), str(token)):
            abort(403, "an access token is required (open the link printed by the server)")
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        origin = request.headers.get("Origin")
        if origin is not None and not _allowed(urlsplit(origin).netloc if "://" in origin else None):
            abort(403, "a request from another site's page is refused (its Origin is not this server)")
        sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token")
        if not sent or "csrf" not in session or not secrets.compare_digest(str(sent), str(session["csrf"])):
            abort(403, "missing or wrong CSRF token: reload the page and try again")


def _headers(response: Response) -> Response:
    from flask import current_app

    token = current_app.config.get("TOKEN")
    if token and request.args.get("token") == token:
        response.set_cookie("token", token, httponly=True, samesite="Strict")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def _http_error(error: HTTPException) -> Any:
    message = error.description or error.name
    code = error.code or 500
    if request.path.startswith("/api/") or request.is_json:
        response = jsonify({"error": message})
        response.status_code = code
        return response
    return render_template("error.html", code=code, message=message), code


def _internal_error(error: Exception) -> Any:
    """A bug, not bad input: logged with its traceback; the answer says so in one sentence."""
    log.error("internal error on %s %s", request.method, request.path, exc_info=error)
    return _http_error(InternalServerError("the referee hit an internal error (see the server log); "
                                           "nothing recorded was lost"))  # fmt: skip
