"""Las Vegas Royale (alea/Ravensburger 2019), behind the game interface (:data:`GAME`).

Royale's basic game is Las Vegas with other numbers and a few other rules (see
:mod:`referee.royale.rules`), so it is a rule set of the Las Vegas engine whose hooks deal pairs of
money cards, let a player pay a chip to pass, choose the next start player from casino 6 and break
the final tie by cards plus chips. Nothing of Las Vegas's own code knows Royale: it only offers the
extension points (:mod:`referee.lasvegas.hooks`). Source of every rule:
``shared/rules/las-vegas-royale.md`` and the seed rulebook ``shared/seeds/004_0f20c0e38b0e53af.txt``.

Example:
    >>> from referee.game import find_game
    >>> game = find_game("royale")
    >>> state = game.new_game(game.find_ruleset("las-vegas-royale"), ["red", "blue", "green"])
    >>> state.resource("chips")
    (2, 2, 2)
    >>> game.to_notation(state)
    'las-vegas-royale rbg 1 deal -:-/-:-/-:-/-:-/-:-/-:- - -/-/- r:2,2,2'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.errors import NotationError
from referee.game import register
from referee.lasvegas import LasVegas
from referee.lasvegas import state as engine
from referee.lasvegas.rules import RuleSet
from referee.lasvegas.state import GameState
from referee.royale import notation
from referee.royale.events import BankLaid, BlackDiceRolled, TileChoice, TilesLaid
from referee.royale.rules import CHIP_USD, GAME_ALIASES, GAME_NAME, ROYALE, find_ruleset
from referee.types import Colour, format_usd

__all__ = ["GAME", "ROYALE", "LasVegasRoyale"]

NEUTRAL_CHOICES: tuple[Colour, ...] = (Colour.WHITE, Colour.BLACK, Colour.GREY, *Colour)
"""The colour of the imaginary player's 8 dice in the 2-player game: the first nobody plays
(the seed: "a colour that is not a player's")."""


class LasVegasRoyale(LasVegas):
    """The game interface for Las Vegas Royale's basic game (see the module)."""

    name: str = GAME_NAME
    title: str = "Las Vegas Royale (alea/Ravensburger 2019)"
    aliases: tuple[str, ...] = GAME_ALIASES
    variant_names: tuple[str, ...] = ()

    def find_ruleset(self, name: str, variants: Sequence[str] = ()) -> RuleSet:
        """See :func:`referee.royale.rules.find_ruleset`."""
        return find_ruleset(name, variants)

    def new_game(self, ruleset: RuleSet, players: Sequence[Colour | str], **options: Any) -> GameState:
        """A first state; with 2 players the imaginary player's colour is ``neutral`` or the first one unused."""
        neutral = options.pop("neutral", None)
        if neutral is None:
            seats = {p if isinstance(p, Colour) else Colour.from_str(p) for p in players}
            neutral = next(c for c in NEUTRAL_CHOICES if c not in seats)
        return engine.new_game(ruleset, players, neutral, **options)

    def from_header(self, ruleset: RuleSet, header: Mapping[str, Any]) -> GameState:
        """A new game of the header's players (and the 2-player game's neutral colour)."""
        players = header.get("players")
        if not isinstance(players, list):
            raise NotationError(f"'players' must be a list of colours, got {players!r}")
        return self.new_game(ruleset, players, neutral=header.get("neutral"))

    def to_notation(self, current: GameState) -> str:
        """See :mod:`referee.royale.notation`."""
        return notation.to_notation(current)

    def from_notation(self, text: str) -> GameState:
        """See :mod:`referee.royale.notation`."""
        return notation.from_notation(text)

    def event_to_json(self, event: Any) -> dict[str, Any]:
        """Las Vegas's events, and the main game's: tiles and bank laid, black dice, a tile's choice."""
        if isinstance(event, TilesLaid):
            return {"event": "tiles-laid", "tiles": [[casino, code] for casino, code in event.tiles]}
        if isinstance(event, BankLaid):
            return {"event": "bank-laid", "notes": list(event.notes)}
        if isinstance(event, BlackDiceRolled):
            return {"event": "black-dice-rolled", "values": list(event.values)}
        if isinstance(event, TileChoice):
            return {
                "event": "tile-choice",
                "player": event.player.value,
                "choice": event.choice,
                "amount": event.amount,
            }
        return super().event_to_json(event)

    def event_from_json(self, obj: Any) -> Any:
        """Parses any event :meth:`event_to_json` writes.

        Raises:
            NotationError: for an unknown kind or a mistyped field.
        """
        kind = obj.get("event") if isinstance(obj, dict) else None
        try:
            if kind == "tiles-laid":
                return TilesLaid(tuple((_whole(casino), _text(code)) for casino, code in obj["tiles"]))
            if kind == "bank-laid":
                return BankLaid(tuple(_whole(note) for note in obj["notes"]))
            if kind == "black-dice-rolled":
                return BlackDiceRolled(tuple(_whole(value) for value in obj["values"]))
            if kind == "tile-choice":
                return TileChoice(Colour.from_str(obj["player"]), _text(obj["choice"]), _whole(obj.get("amount", 0)))
        except (KeyError, TypeError, ValueError) as error:
            raise NotationError(f"a {kind} event needs its fields: {error}") from None
        return super().event_from_json(obj)

    def narrate(self, event: Any, before: GameState) -> str:
        """Las Vegas's sentences, and the main game's events."""
        if isinstance(event, TilesLaid):
            return "tiles laid: " + ", ".join(f"{_tile_name(code)} by casino {casino}" for casino, code in event.tiles)
        if isinstance(event, BankLaid):
            return f"the bank is laid: {len(event.notes)} cards, {format_usd(sum(event.notes))}"
        if isinstance(event, BlackDiceRolled):
            return f"the black dice show {' and '.join(map(str, event.values))}"
        if isinstance(event, TileChoice):
            amount = f" {event.amount}" if event.amount else ""
            return f"{event.player}: {event.choice}{amount} ({before.pending.what if before.pending else 'a tile'})"
        return super().narrate(event, before)

    def summary_json(self, current: GameState) -> dict[str, Any]:
        """Las Vegas's summary, and the chips each player holds (worth $10,000 each at the end)."""
        summary = super().summary_json(current)
        summary["chips"] = {str(p): n for p, n in zip(current.players, current.resource("chips"), strict=True)}
        summary["chip_usd"] = CHIP_USD
        summary.update(_tiles_json(current))
        return summary

    def page_json(self, current: GameState, names: Mapping[str, str]) -> dict[str, Any]:
        """Las Vegas's page, with chips per player and the start player."""
        page = super().page_json(current, names)
        for player, chips in zip(page["players"], current.resource("chips"), strict=True):
            player["chips"] = chips
        page["start"] = str(current.players[current.start])
        page.update(_tiles_json(current))
        return page

    def __repr__(self) -> str:
        return "referee.royale.GAME"


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{value!r} is not a whole number")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a string")
    return value


def _tile_name(code: str) -> str:
    from referee.royale.tiles import TILES

    tile = TILES.get(code)
    return f"{code} {tile.name}" if tile is not None else code


def _tiles_json(current: GameState) -> dict[str, Any]:
    """The main game's tiles with what each would do, the bank and what is asked now (nothing in the basic game)."""
    if current.ruleset.hooks.round_start is None:
        return {}
    pending = current.pending
    asks = None
    if pending is not None:
        choices = pending.handler.choices(current)
        asks = {"what": pending.what, "who": pending.actor.value, "dealt": pending.dealt,
                "choices": [{"choice": c.choice, "amount": c.amount} for c in choices]}  # fmt: skip
    tiles = [
        {"casino": laid.casino, "code": laid.tile.id, "name": laid.tile.name, "status": laid.tile.status(current, i)}
        for i, laid in enumerate(current.tiles)
    ]
    dollars = {str(p): n for p, n in zip(current.players, current.resource("dollars"), strict=True)}
    return {"tiles": tiles, "bank": list(current.bank), "dollars": dollars, "asks": asks}


GAME = register(LasVegasRoyale())
"""Las Vegas Royale in the registry of games (:func:`referee.game.find_game`)."""
