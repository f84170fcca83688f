"""Las Vegas (alea 2012) and its variants, behind the game interface (:data:`GAME`).

The modules: :mod:`~referee.lasvegas.rules` (rule sets and variants as data),
:mod:`~referee.lasvegas.hooks` (where a relative of the game behaves differently),
:mod:`~referee.lasvegas.events` and :mod:`~referee.lasvegas.state` (the state machine),
:mod:`~referee.lasvegas.scoring` (settlement with reasons), :mod:`~referee.lasvegas.notation`,
:mod:`~referee.lasvegas.jsonio` (events, tables and payouts as JSON),
:mod:`~referee.lasvegas.narrate`, :mod:`~referee.lasvegas.table` (the dice a state shows, and the
checks of a reading), :mod:`~referee.lasvegas.camera` (the game seen by the camera interpreter) and
:mod:`~referee.lasvegas.simulate` (seeded random games). Source of every rule:
``shared/rules/las-vegas.md``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from referee.errors import NotationError
from referee.game import Turn, register
from referee.lasvegas import jsonio, narrate, notation, state, table
from referee.lasvegas.events import Event
from referee.lasvegas.rules import GAME_ALIASES, VARIANTS, RuleSet, find_ruleset
from referee.lasvegas.scoring import Outcome, RoundPayout
from referee.lasvegas.state import GameState
from referee.readings import TableSnapshot
from referee.types import Colour

__all__ = ["GAME", "LasVegas"]


class LasVegas:
    """The game interface (:class:`referee.game.Game`) for Las Vegas and every variant."""

    name: str = "las-vegas"
    title: str = "Las Vegas (alea 2012)"
    aliases: tuple[str, ...] = GAME_ALIASES
    variant_names: tuple[str, ...] = tuple(v.name for v in VARIANTS)
    """Every variant's canonical name (``settle`` accepts what any of them allows when none is named)."""

    def find_ruleset(self, name: str, variants: Sequence[str] = ()) -> RuleSet:
        """See :func:`referee.lasvegas.rules.find_ruleset`."""
        return find_ruleset(name, variants)

    def new_game(self, ruleset: RuleSet, players: Sequence[Colour | str], **options: Any) -> GameState:
        """See :func:`referee.lasvegas.state.new_game` (option: ``neutral``, the neutral dice's colour)."""
        return state.new_game(ruleset, players, **options)

    def apply(self, current: GameState, event: Event) -> GameState:
        """See :func:`referee.lasvegas.state.apply`."""
        return state.apply(current, event)

    def next_actor(self, current: GameState) -> Colour | Turn:
        """See :func:`referee.lasvegas.state.next_actor`."""
        return state.next_actor(current)

    def legal_moves(self, current: GameState) -> tuple[Event, ...]:
        """The legal placements (and a pass where the rule set's hooks allow one), or a pending step's choices."""
        pending = current.pending
        if pending is not None:
            choices: tuple[Event, ...] = pending.handler.choices(current)
            return choices
        moves: tuple[Event, ...] = state.legal_placements(current)
        passed = state.legal_pass(current)
        return moves if passed is None else (*moves, passed)

    def preview(self, current: GameState) -> RoundPayout:
        """See :func:`referee.lasvegas.state.preview`."""
        return state.preview(current)

    def outcome(self, current: GameState) -> Outcome | None:
        """See :func:`referee.lasvegas.state.outcome`."""
        return state.outcome(current)

    def to_notation(self, current: GameState) -> str:
        """See :mod:`referee.lasvegas.notation`."""
        return notation.to_notation(current)

    def from_notation(self, text: str) -> GameState:
        """See :mod:`referee.lasvegas.notation`."""
        return notation.from_notation(text)

    def event_to_json(self, event: Event) -> dict[str, Any]:
        """See :func:`referee.lasvegas.jsonio.event_to_json`."""
        return jsonio.event_to_json(event)

    def event_from_json(self, obj: Any) -> Event:
        """See :func:`referee.lasvegas.jsonio.event_from_json`."""
        return jsonio.event_from_json(obj)

    def header(self, current: GameState) -> dict[str, Any]:
        """The players in seat order and the neutral colour."""
        return {
            "players": [p.value for p in current.players],
            "neutral": current.neutral.value if current.neutral is not None else None,
        }

    def from_header(self, ruleset: RuleSet, header: Mapping[str, Any]) -> GameState:
        """A new game of the header's players and neutral colour."""
        players = header.get("players")
        if not isinstance(players, list):
            raise NotationError(f"'players' must be a list of colours, got {players!r}")
        return state.new_game(ruleset, players, header.get("neutral"))

    def narrate(self, event: Event, before: GameState) -> str:
        """See :func:`referee.lasvegas.narrate.describe`."""
        return narrate.describe(event, before)

    def key(self, current: GameState) -> Hashable:
        """What the rest of the round depends on (two states with the same key have the same future)."""
        return (current.round, current.phase, current.turn, current.casinos, current.held_dice,
                current.held_biggies, current.held_neutral, current.roll, current.resources, current.tiles,
                current.pending, current.bank)  # fmt: skip

    # Beyond the interface: a dice game's table and views.

    def snapshot(self, current: GameState, frame_index: int = 0, timestamp_s: float = 0.0) -> TableSnapshot:
        """The dice the state says lie on the table (see :func:`referee.lasvegas.table.snapshot_of`)."""
        return table.snapshot_of(current, frame_index, timestamp_s)

    def camera(self, model: Any = None) -> Any:
        """The game as the camera interpreter sees it (:class:`referee.lasvegas.camera.LasVegasCamera`)."""
        from referee.lasvegas.camera import LasVegasCamera

        return LasVegasCamera(model)

    def table_json(self, current: GameState) -> dict[str, Any]:
        """Where the game stands on the table (see :func:`referee.lasvegas.jsonio.table_view_json`)."""
        return jsonio.table_view_json(current)

    def page_json(self, current: GameState, names: Mapping[str, str]) -> dict[str, Any]:
        """The state as the live page shows it (see :func:`referee.lasvegas.jsonio.page_json`)."""
        return jsonio.page_json(current, names)

    def payout_json(self, payout: RoundPayout) -> dict[str, Any]:
        """A preview or settlement as JSON (see :func:`referee.lasvegas.jsonio.payout_to_json`)."""
        return jsonio.payout_to_json(payout)

    def summary_json(self, current: GameState) -> dict[str, Any]:
        """The money, the payout preview; once the game is over the winners and the standings."""
        summary: dict[str, Any] = {
            "money": {str(p): v for p, v in current.money().items()},
            "preview": jsonio.payout_to_json(state.preview(current)),
        }
        result = state.outcome(current)
        if result is not None:
            summary["winners"] = [str(w) for w in result.winners]
            summary["standings"] = [
                {"player": str(s.player), "money": s.money_usd, "banknotes": s.banknotes, "rank": s.rank}
                for s in result.standings
            ]
        return summary

    def __repr__(self) -> str:
        return "referee.lasvegas.GAME"


GAME = register(LasVegas())
"""Las Vegas in the registry of games (:func:`referee.game.find_game`)."""
