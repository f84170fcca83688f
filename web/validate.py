"""Every request's input, checked at the edge: one schema per endpoint, numbers and nesting bounded.

A request that fails here gets a 400 naming the field and changes nothing, in memory or in the
database: the blueprints call these before they touch the referee or the store. Bodies are parsed by
:func:`referee.safejson.loads` (nesting bounded, no ``NaN``/``Infinity``), never by Flask's
``get_json``, whose recursion a deeply nested body turns into a 500.

Example:
    >>> GameSpec.from_json({"players": ["red", "blue"], "seed": 7}).seed
    7
    >>> GameSpec.from_json({"players": ["red", "blue"], "seed": -1})
    Traceback (most recent call last):
    ...
    web.validate.Invalid: 'seed' must be a whole number from 0 to 2147483647, got -1
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from referee import safejson
from referee.errors import NotationError

__all__ = [
    "MAX_NAME",
    "MAX_SEED",
    "GameSpec",
    "Invalid",
    "banknotes",
    "corners",
    "list_of",
    "number",
    "only",
    "parse_body",
    "polygons",
    "text",
    "who",
    "whole",
]

T = TypeVar("T")

MAX_SEED = (1 << 31) - 1
"""Seeds are drawn below 2**31 and stored as SQL integers."""
MAX_NAME = 40
"""A player's name on the page."""
MAX_WHO = 80
"""Who made a correction."""
MAX_DEPTH = 8
"""The deepest request body any endpoint takes is 4 (zones: object, casinos, polygon, point)."""
MAX_BANKNOTE = 1_000_000
"""A banknote's face value, in dollars (Las Vegas's largest is 100,000)."""
MAX_COORDINATE = 100_000.0
"""A pixel coordinate or a size in millimetres (a frame of 100,000 pixels, a table of 100 m)."""


class Invalid(ValueError):
    """A request input that breaks its schema; the message names the field (answered with a 400)."""


def parse_body(data: bytes) -> dict[str, Any]:
    """A JSON request body as an object.

    Raises:
        Invalid: not UTF-8, not standard JSON, nested too deep, or not an object.
    """
    try:
        body = safejson.loads(data, max_depth=MAX_DEPTH)
    except NotationError as error:
        raise Invalid(f"the request body must be a JSON object: {error}") from None
    if not isinstance(body, dict):
        raise Invalid("the request body must be a JSON object")
    return body


def only(body: Mapping[str, Any], allowed: set[str]) -> None:
    """Refuses fields the endpoint does not know (a typo would otherwise be ignored silently)."""
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise Invalid(f"unknown field {unknown[0]!r}; this request takes {', '.join(sorted(allowed))}")


def whole(value: Any, name: str, low: int, high: int) -> int:
    """A whole number within ``[low, high]``; digits in a form's text count, floats and booleans do not."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 20:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise Invalid(f"{name!r} must be a whole number from {low} to {high}, got {shown}")
    return value


def number(value: Any, name: str, low: float, high: float) -> float:
    """A finite number within ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not low <= value <= high:  # fmt: skip
        raise Invalid(f"{name!r} must be a number from {low:g} to {high:g}")
    return float(value)


def text(value: Any, name: str, limit: int, *, default: str | None = None) -> str:
    """Text of at most ``limit`` characters (``default`` when missing or empty)."""
    if value in (None, "") and default is not None:
        return default
    if not isinstance(value, str) or not value or len(value) > limit:
        raise Invalid(f"{name!r} must be text of 1 to {limit} characters")
    return value


def who(body: Mapping[str, Any]) -> str:
    """Who made a correction (``"referee page"`` when not said), cut to :data:`MAX_WHO` characters."""
    value = body.get("who")
    if value in (None, ""):
        return "referee page"
    if not isinstance(value, str):
        raise Invalid("'who' must be text")
    return value[:MAX_WHO]


def list_of(value: Any, name: str, item: Callable[[Any, str], T], low: int, high: int, what: str) -> list[T]:
    """A list of ``low`` to ``high`` items, each checked by ``item``."""
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise Invalid(f"{name!r} must be {what}")
    return [item(v, f"{name}[{i}]") for i, v in enumerate(value)]


def banknotes(value: Any) -> tuple[tuple[int, ...], ...]:
    """A deal: six lists of banknote values in whole dollars."""
    what = "a list of six lists of banknote values in dollars"

    def notes(casino: Any, name: str) -> tuple[int, ...]:
        return tuple(list_of(casino, name, lambda v, n: whole(v, n, 1, MAX_BANKNOTE), 0, 20, what))

    return tuple(list_of(value, "casinos", notes, 6, 6, what))


def corners(value: Any) -> list[list[float]]:
    """The play area's four corners in image pixels, each ``[x, y]``."""
    what = "four [x, y] corners in pixels, clockwise from the far left"

    def point(p: Any, name: str) -> list[float]:
        return list_of(p, name, lambda v, n: number(v, n, -MAX_COORDINATE, MAX_COORDINATE), 2, 2, what)

    return list_of(value, "corners", point, 4, 4, what)


def polygons(value: Any, name: str) -> Any:
    """A polygon ``[[x, y], ...]`` in table millimetres (3 to 64 points), or a map of them by casino."""
    what = "a polygon of 3 to 64 [x, y] points in millimetres"

    def point(p: Any, n: str) -> list[float]:
        return list_of(p, n, lambda v, m: number(v, m, -MAX_COORDINATE, MAX_COORDINATE), 2, 2, what)

    if isinstance(value, dict):
        if len(value) > 6:
            raise Invalid(f"{name!r} must map casinos 1 to 6 to polygons")
        return {str(k)[:4]: list_of(v, f"{name}.{k}", point, 3, 64, what) for k, v in value.items()}
    return list_of(value, name, point, 3, 64, what)


@dataclass(frozen=True)
class GameSpec:
    """A new game as the setup form or ``POST /api/games`` describes it (checked, not yet stored)."""

    game: str = "las-vegas"
    variants: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    """Colours in seat order, the start player first."""
    names: dict[str, str] = field(default_factory=dict)
    seed: int | None = None
    """Seed of the virtual deal (None: drawn at random)."""
    deal: str = "virtual"
    layout: list[int] | None = None
    """A board game's printed board: its field numbers row by row (None: the game's default or the one saved)."""

    FIELDS = frozenset({"game", "variants", "players", "names", "seed", "start", "deal", "layout"})

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> GameSpec:
        """Checks a game description; the rules themselves (colours, player count) are the game's to check.

        Raises:
            Invalid: a field of the wrong type or out of its bounds, or an unknown field.
        """
        only(body, set(cls.FIELDS))
        game = text(body.get("game"), "game", 60, default="las-vegas")
        variants = list_of(body.get("variants") or [], "variants", lambda v, n: text(v, n, 40), 0, 10,
                           "a list of variant names")  # fmt: skip
        players = list_of(body.get("players"), "players", lambda v, n: text(v, n, 20), 1, 12,
                          "a list of colours in seat order")  # fmt: skip
        start = body.get("start")
        if start not in (None, ""):
            if start not in players:
                raise Invalid(f"the start player {str(start)[:20]!r} is not one of the players")
            players = players[players.index(start) :] + players[: players.index(start)]  # clockwise order kept
        names = body.get("names") or {}
        if not isinstance(names, dict) or len(names) > 12 or not all(isinstance(v, str) for v in names.values()):
            raise Invalid("'names' must map colours to names")
        deal = body.get("deal") or "virtual"
        if deal not in ("virtual", "manual"):
            raise Invalid("'deal' is 'virtual' (dealt on screen from a seed) or 'manual' (entered to match the table)")
        seed = body.get("seed")
        seed = None if seed in (None, "") else whole(seed, "seed", 0, MAX_SEED)
        layout = body.get("layout")
        if isinstance(layout, str):  # the setup form: numbers separated by spaces or commas
            layout = [int(n) if n.isdigit() else n for n in layout.replace(",", " ").split()] or None
        if layout is not None:
            layout = list_of(layout, "layout", lambda v, n: whole(v, n, 1, 36), 36, 36,
                             "the board's 36 field numbers, row by row")  # fmt: skip
        return cls(game, variants, players, {str(k)[:20]: v[:MAX_NAME] for k, v in names.items() if v}, seed, deal,
                   layout)  # fmt: skip

    @classmethod
    def from_form(cls, form: Any) -> GameSpec:
        """The setup form's fields (``colour`` and ``name`` repeated once per seat) as a game description."""
        colours, names = form.getlist("colour"), form.getlist("name")
        return cls.from_json({
            "game": form.get("game") or "las-vegas",
            "variants": form.getlist("variants"),
            "players": [c for c in colours if c],
            "names": {c: n for c, n in zip(colours, names, strict=False) if c and n},
            "seed": form.get("seed") or None,
            "start": form.get("start") or None,
            "deal": form.get("deal") or "virtual",
            "layout": form.get("layout") or None,
        })  # fmt: skip
