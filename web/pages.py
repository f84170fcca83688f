"""The HTML pages (live, setup, calibration, history, a game's replay) and each game's exports.

A game whose records no longer replay (``broken``) still has its page: it names the record that
fails and offers the CSV export and the raw records, which need no replay.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for

from referee.errors import RefereeError
from referee.game import find_ruleset, games
from referee.lasvegas.rules import VARIANTS
from referee.lasvegas.simulate import DEFAULT_PLAYERS
from referee.record import record_lines
from referee.types import Colour
from web.app import hub
from web.charts import money_chart_svg
from web.live import camera_refereed, game_json
from web.service import StartError
from web.store import MAX_ID, BrokenGameError, GameInfo
from web.validate import GameSpec, Invalid

__all__ = ["FORMULA_STARTS", "blueprint", "csv_cell", "known_game"]

blueprint = Blueprint("pages", __name__)

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


def known_game(game_id: int) -> GameInfo:
    """The stored game ``game_id``, or a 404."""
    info = hub().store.game(game_id) if 0 <= game_id <= MAX_ID else None
    if info is None:
        abort(404, f"no game {game_id}")
    return info


@blueprint.get("/")
def index() -> Any:
    live = hub().live
    if live is None:
        return redirect(url_for("pages.setup"))
    return render_template("live.html", state=live.state_json())


@blueprint.get("/setup")
def setup() -> Any:
    return render_template("setup.html", games=_games_refereed(), variants=VARIANTS,
                           colours=[c.value for c in Colour], defaults=[c.value for c in DEFAULT_PLAYERS],
                           source=hub().app.config["SOURCE"])  # fmt: skip


def _games_refereed() -> list[tuple[str, str]]:
    """The rule sets the page offers, ``(name, title)``: each game's own, and Royale's main game.

    Las Vegas's variants are ticked apart; the main game's tiles' rolls and decisions are asked on the live page;
    Just 4 Fun's cards are entered on it.
    """
    offered = [(ruleset.name, game.title) for game in games() if camera_refereed(game)
               for ruleset in [game.find_ruleset(game.name)]]  # fmt: skip
    main = find_ruleset("las-vegas-royale+main")
    royale = next(k for k, (name, _) in enumerate(offered) if name == "las-vegas-royale")
    return [*offered[: royale + 1], (main.name, "Las Vegas Royale, main game (casino tiles by casinos 1-3)"),
            *offered[royale + 1 :]]  # fmt: skip


@blueprint.post("/setup")
def setup_post() -> Any:
    try:
        hub().new_game(GameSpec.from_form(request.form))
    except (Invalid, RefereeError) as error:
        abort(400, str(error))
    except StartError as error:
        abort(409, f"the game cannot start: {error}")
    return redirect(url_for("pages.index"))


@blueprint.get("/calibration")
def calibration_page() -> Any:
    live = hub().live
    if live is None:
        return render_template("calibration.html", state=None, others=[])
    state = live.state_json()
    players = {p["colour"] for p in state["players"]}
    # The other dice of the game: the neutral ones, a main game's grey and black tile dice.
    others = [name for name in getattr(live.pipeline.colours, "names", ()) if name not in players]  # no dice: none
    return render_template("calibration.html", state=state, others=others)


@blueprint.get("/history")
def history() -> Any:
    return render_template("history.html", games=hub().store.games())


@blueprint.get("/games/<int:game_id>")
def game_page(game_id: int) -> Any:
    info = known_game(game_id)
    try:
        states = hub().store.states(game_id)
    except BrokenGameError as error:
        return render_template("broken.html", info=info, message=str(error)), 409
    step = max(0, min(request.args.get("step", len(states) - 1, type=int), len(states) - 1))
    return render_template("game.html", info=info, step=step, steps=len(states),
                           view=game_json(states[step], info.names), records=hub().store.records(game_id))  # fmt: skip


@blueprint.get("/games/<int:game_id>/chart.svg")
def chart(game_id: int) -> Any:
    info = known_game(game_id)
    try:
        svg = money_chart_svg(hub().store.states(game_id), info.names)
    except BrokenGameError as error:
        abort(409, str(error))
    return Response(svg, mimetype="image/svg+xml")


@blueprint.get("/games/<int:game_id>/export.jsonl")
def export_jsonl(game_id: int) -> Any:
    known_game(game_id)
    try:
        lines = "".join(line + "\n" for line in record_lines(hub().store.state(game_id)))
    except BrokenGameError as error:
        abort(409, f"{error}; its CSV export keeps every record")
    return Response(lines, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f"attachment; filename=game-{game_id}.jsonl"})  # fmt: skip


@blueprint.get("/games/<int:game_id>/export.csv")
def export_csv(game_id: int) -> Any:
    known_game(game_id)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["seq", "at", "kind", "who", "event", "player", "casino", "dice", "detail"])
    for r in hub().store.records(game_id):
        body = r.body
        writer.writerow([csv_cell(cell) for cell in (
            r.seq, r.at, r.kind, r.who, body.get("event", ""), body.get("player", ""), body.get("casino", ""),
            body.get("dice", ""), body.get("reason", "") or json.dumps(body))])  # fmt: skip
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename=game-{game_id}.csv"})  # fmt: skip
