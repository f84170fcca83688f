"""Just 4 Fun behind the game interface (:class:`referee.game.Game`): found by name, recorded and replayed.

It is a game without dice: no :class:`~referee.game.DiceGame` views (the camera and the live page come with
the board's camera referee), so the page does not offer it yet.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from referee.errors import NotationError, UnknownRuleSetError
from referee.game import Turn
from referee.just4fun import events, notation, state
from referee.just4fun.rules import ALIASES, GAME_NAME, Rules
from referee.just4fun.rules import ruleset as rules_named
from referee.types import Colour

__all__ = ["GAME", "JustForFun"]


class JustForFun:
    """The game interface for Just 4 Fun (one rule set; the board's numbering is a setting of it)."""

    name: str = GAME_NAME
    title: str = "Just 4 Fun (Kosmos 2005)"
    aliases: tuple[str, ...] = ALIASES

    def find_ruleset(self, name: str, variants: Sequence[str] = ()) -> Rules:
        """The one rule set (Just 4 Fun has no variants).

        Raises:
            UnknownRuleSetError: for a variant or another name.
        """
        if variants or "+" in name:
            raise UnknownRuleSetError("Just 4 Fun has no variants")
        return rules_named(name)

    def new_game(self, ruleset: Rules, players: Sequence[Colour | str], **options: Any) -> state.State:
        """See :func:`referee.just4fun.state.new_game` (no options)."""
        return state.new_game(ruleset, players)

    def apply(self, current: state.State, event: events.Event) -> state.State:
        """See :func:`referee.just4fun.state.apply`."""
        return state.apply(current, event)

    def next_actor(self, current: state.State) -> Colour | Turn:
        """The player to place, :data:`~referee.game.CHANCE` for a draw, or :data:`~referee.game.GAME_OVER`."""
        if current.phase is state.Phase.OVER:
            return Turn.GAME_OVER
        if current.phase is state.Phase.PLAY:
            return current.players[current.turn]
        return Turn.CHANCE

    def legal_moves(self, current: state.State) -> tuple[events.Event, ...]:
        """See :func:`referee.just4fun.state.legal_moves`."""
        return state.legal_moves(current)

    def preview(self, current: state.State) -> state.Outcome:
        """The count as it would be if the game ended now (with its reasons)."""
        return state.outcome(current)

    def outcome(self, current: state.State) -> state.Outcome | None:
        """The result once the game is over, else None."""
        return state.outcome(current) if current.phase is state.Phase.OVER else None

    def to_notation(self, current: state.State) -> str:
        """See :mod:`referee.just4fun.notation`."""
        return notation.to_notation(current)

    def from_notation(self, text: str) -> state.State:
        """See :mod:`referee.just4fun.notation`."""
        return notation.from_notation(text)

    def event_to_json(self, event: events.Event) -> dict[str, Any]:
        """See :func:`referee.just4fun.events.event_to_json`."""
        return events.event_to_json(event)

    def event_from_json(self, obj: Any) -> events.Event:
        """See :func:`referee.just4fun.events.event_from_json`."""
        return events.event_from_json(obj)

    def header(self, current: state.State) -> dict[str, Any]:
        """The players in seat order and the board's numbering."""
        return {"players": [p.value for p in current.players], "layout": list(current.rules.layout)}

    def from_header(self, ruleset: Rules, header: Mapping[str, Any]) -> state.State:
        """A new game of the header's players on its board."""
        players, layout = header.get("players"), header.get("layout")
        if not isinstance(players, list):
            raise NotationError(f"'players' must be a list of colours, got {players!r}")
        if layout is not None and not (isinstance(layout, list) and all(type(n) is int for n in layout)):
            raise NotationError(f"'layout' must be the 36 field numbers row by row, got {layout!r}")
        return state.new_game(rules_named(ruleset.name, layout) if layout is not None else ruleset, players)

    def narrate(self, event: events.Event, before: state.State) -> str:
        """See :func:`referee.just4fun.state.narrate`."""
        return state.narrate(event, before)

    def key(self, current: state.State) -> Hashable:
        """The state itself (its history is not part of its equality)."""
        return current

    def payout_json(self, payout: state.Outcome) -> dict[str, Any]:
        """The count (or result) as JSON, with its reasons."""
        return {
            "points": {p.value: v for p, v in payout.points.items()},
            "winner": payout.winner.value if payout.winner else None,
            "by": payout.by,
            "reasons": list(payout.reasons),
        }

    def page_json(self, current: state.State, names: Mapping[str, str]) -> dict[str, Any]:
        """The board as the page shows it: each field's stones per player, secured fields, owners.

        With whose turn, the fields his hand can name, the lines of four one field from done, what the table is to
        enter, and the count.
        """
        from referee.just4fun.camera import JustForFunCamera

        return {
            "game": GAME_NAME,
            "players": [
                {
                    "colour": p.value,
                    "name": names.get(p.value, p.value),
                    "stones": current.stones[s],
                    "cards": len(current.hands[s]),
                    "hand": list(current.hands[s]),
                }
                for s, p in enumerate(current.players)
            ],
            "phase": current.phase.value,
            "turn": current.players[current.turn].value,
            "to_act": current.players[current.turn].value if current.phase is not state.Phase.OVER else None,
            "legal_fields": sorted({m.field for m in state.legal_placements(current)}),
            "threats": [
                {"player": current.players[seat].value, "line": list(line), "open": field}
                for seat, line, field in state.threats(current)
            ],
            "asks": JustForFunCamera.waits_for(current),
            "last_placed": _placed_last(current),
            "notation": notation.to_notation(current),
            "fields": [
                {
                    "field": n,
                    "row": current.rules.position(n)[0],
                    "column": current.rules.position(n)[1],
                    "stones": {p.value: c for p, c in zip(current.players, current.stack(n), strict=True) if c},
                    "secured": current.secured[n - 1] >= 0,
                    "owner": current.players[o].value if (o := state.owner(current, n)) >= 0 else None,
                }
                for n in range(1, len(current.stacks) + 1)
            ],
            "count": self.payout_json(state.outcome(current)),
        }

    def summary_json(self, current: state.State) -> dict[str, Any]:
        """The count as it stands, and once the game is over the winner and how he won."""
        return {"count": self.payout_json(state.outcome(current)), "over": current.phase is state.Phase.OVER}


def _placed_last(current: state.State) -> str | None:
    """The player whose stone was just placed, before his draw (he may enter the cards he played): else None."""
    last = current.history[-1] if current.history else None
    placed = current.phase is state.Phase.DRAW and isinstance(last, events.StonePlaced)
    return last.player.value if placed and last is not None else None


GAME = JustForFun()
