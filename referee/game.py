"""The game interface every refereed game implements, and the registry of games.

A game is a pure rules engine behind one small interface (:class:`Game`): a first state from a rule
set and the players, :meth:`~Game.apply` as the only transition, whose move it is, the legal moves,
a preview of the settlement with its reasons, the outcome, notation to and from text, events to and
from JSON, narration, and the dice a state puts on the table. Chance (dice rolled, notes or cards
dealt) arrives as events like any move (:data:`CHANCE`), so a camera feeds what really happened and
every game replays from its record (:mod:`referee.record`: a header, then one event per line).

Games are registered under the name that starts their rule sets' names (``"las-vegas"`` for
``"las-vegas+neutral"``); :func:`find_game` finds one by that name, an alias or a rule-set name, and
:func:`game_of` finds the game of a state. The games built in are imported when first asked for, so
``import referee.game`` costs nothing. Adding a game is described in ``docs/adding-a-game.md``.

Example:
    >>> game = find_game("Las Vegas+biggy")
    >>> game.name, game.title
    ('las-vegas', 'Las Vegas (alea 2012)')
    >>> state = game.new_game(game.find_ruleset("las-vegas"), ["red", "blue"])
    >>> game.next_actor(state)
    Turn.CHANCE
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from referee.errors import IllegalEventError, UnknownRuleSetError
from referee.types import Colour

if TYPE_CHECKING:
    from referee.readings import TableSnapshot

__all__ = [
    "CHANCE",
    "GAME_OVER",
    "SETTLEMENT",
    "DiceGame",
    "Game",
    "Turn",
    "dice_game_of",
    "find_game",
    "find_ruleset",
    "game_of",
    "games",
    "name_key",
    "register",
    "replay",
]


class Turn(enum.Enum):
    """What ``next_actor`` returns when no player is to decide."""

    CHANCE = "chance"
    """The next event is chance: a deal or a roll (the state says whose dice are rolled)."""
    SETTLEMENT = "settlement"
    """The next event is the settlement of the round."""
    GAME_OVER = "game over"
    """No event is accepted any more."""

    def __repr__(self) -> str:
        return f"Turn.{self.name}"


CHANCE = Turn.CHANCE
SETTLEMENT = Turn.SETTLEMENT
GAME_OVER = Turn.GAME_OVER


@runtime_checkable
class Game(Protocol):
    """What every game implements (Las Vegas: :data:`referee.lasvegas.GAME`).

    States and events are the game's own frozen types; every state carries its rule set, whose
    ``name`` starts with the game's :attr:`name` and whose ``game`` is that name.
    """

    name: str
    """The registry key, e.g. ``"las-vegas"``: the first part of every rule-set name of the game."""
    title: str
    """The game's name for people, e.g. ``"Las Vegas (alea 2012)"``."""
    aliases: tuple[str, ...]
    """Other spellings :func:`find_game` accepts."""

    def find_ruleset(self, name: str, variants: Sequence[str] = ()) -> Any:
        """The rule set named ``name`` (``"las-vegas+neutral"``) with ``variants`` applied.

        Raises:
            UnknownRuleSetError: for a name or variant the game does not know.
        """
        ...

    def new_game(self, ruleset: Any, players: Sequence[Colour | str], **options: Any) -> Any:
        """The state before the first event, players in seat order (options: e.g. a neutral colour)."""
        ...

    def apply(self, state: Any, event: Any) -> Any:
        """The state after ``event``; raises ``IllegalEventError`` (or a subclass) when the rules refuse it."""
        ...

    def next_actor(self, state: Any) -> Colour | Turn:
        """The player to decide, or :data:`CHANCE`, :data:`SETTLEMENT` or :data:`GAME_OVER`."""
        ...

    def legal_moves(self, state: Any) -> tuple[Any, ...]:
        """Every legal decision of the player to act (empty when chance or the settlement is next)."""
        ...

    def preview(self, state: Any) -> Any:
        """Who would be paid what if the round ended now, with reasons (equal to the settlement at the end)."""
        ...

    def outcome(self, state: Any) -> Any:
        """The result with its standings once the game is over, else None."""
        ...

    def to_notation(self, state: Any) -> str:
        """The state as one line of text that :meth:`from_notation` reads back."""
        ...

    def from_notation(self, text: str) -> Any:
        """Parses notation; raises ``NotationError`` for malformed text or an impossible state."""
        ...

    def event_to_json(self, event: Any) -> dict[str, Any]:
        """One event as a JSON object (``{"event": kind, ...}``)."""
        ...

    def event_from_json(self, obj: Any) -> Any:
        """Parses one event object; raises ``NotationError`` for an unknown kind or a mistyped field."""
        ...

    def header(self, state: Any) -> dict[str, Any]:
        """What a record's header says beyond the rule set (players, options) to start ``state``'s game."""
        ...

    def from_header(self, ruleset: Any, header: Mapping[str, Any]) -> Any:
        """The first state of a recorded game; raises ``RefereeError`` for a header that cannot start one."""
        ...

    def narrate(self, event: Any, before: Any) -> str:
        """The event in words, as said at the table (``before`` is the state it was applied to)."""
        ...

    def key(self, state: Any) -> Hashable:
        """Equal for two states with the same future (the camera interpreter merges their histories)."""
        ...

    def payout_json(self, payout: Any) -> dict[str, Any]:
        """A preview or a settlement (:meth:`preview`) as JSON, with its reasons."""
        ...

    def page_json(self, state: Any, names: Mapping[str, str]) -> dict[str, Any]:
        """The state as the live page and the history show it (``names``: a name per player colour)."""
        ...

    def summary_json(self, state: Any) -> dict[str, Any]:
        """What ``dice-referee replay`` prints of a game beside its notation and number of events.

        For Las Vegas: the money, the payout preview, and once the game is over the winners and standings.
        """
        ...


@runtime_checkable
class DiceGame(Game, Protocol):
    """A game played with dice on numbered zones: it also says which dice a state puts on the table."""

    def snapshot(self, state: Any, frame_index: int = 0, timestamp_s: float = 0.0) -> TableSnapshot:
        """The dice the state says lie on the table (the referee's expectation; synthetic labels)."""
        ...

    def camera(self, model: Any = None) -> Any:
        """The game as the camera interpreter sees it (a :class:`referee.interpret.decode.Game`)."""
        ...

    def table_json(self, state: Any) -> dict[str, Any]:
        """Where the game stands on the table: round, phase, who acts, the zones, the payout preview."""
        ...


_GAMES: dict[str, Game] = {}
_BUILT_IN = {"las-vegas": "referee.lasvegas", "las-vegas-royale": "referee.royale", "just-4-fun": "referee.just4fun"}
"""Games shipped with the engine, by name, and the module that registers each."""


def register(game: Game) -> Game:
    """Adds a game to the registry (its module calls this when imported) and returns it.

    Raises:
        ValueError: if another game is registered under the same name.
    """
    known = _GAMES.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def name_key(name: str) -> str:
    """A game's or variant's name as compared: lower case, words joined by ``-`` (``"Las_Vegas"``: ``"las-vegas"``)."""
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def games() -> tuple[Game, ...]:
    """Every game known, the built-in ones first."""
    for module in _BUILT_IN.values():
        importlib.import_module(module)
    return tuple(_GAMES.values())


def find_game(name: str) -> Game:
    """The game called ``name``: its name, an alias, or a rule-set name (``"las-vegas+neutral"``).

    Raises:
        UnknownRuleSetError: for a name no registered game answers to.
    """
    if not isinstance(name, str) or not name.strip():
        raise UnknownRuleSetError(f"a game name is a non-empty string, got {name!r}")
    key = name_key(name.split("+", 1)[0])
    for game in games():
        if key == game.name or key in game.aliases:
            return game
    known = ", ".join(game.name for game in games())
    raise UnknownRuleSetError(f"unknown game {name.split('+', 1)[0]!r}; games: {known}")


def game_of(state: Any) -> Game:
    """The game a state belongs to (found by its rule set)."""
    return find_game(state.ruleset.game)


def dice_game_of(state: Any) -> DiceGame:
    """The game of a state that is played with dice on the table.

    Raises:
        TypeError: for a game without dice (the dice pipeline cannot referee it).
    """
    game = game_of(state)
    if _DICE_GAMES.get(game.name) is game:  # checked before (a Protocol check costs about 0.2 ms)
        return game
    if not isinstance(game, DiceGame):
        raise TypeError(f"{game.title} is not played with dice on the table")
    _DICE_GAMES[game.name] = game
    return game


_DICE_GAMES: dict[str, DiceGame] = {}
"""The games found to be played with dice, by name (the interpreter draws a state's table many times a reading)."""


def find_ruleset(name: str, variants: Sequence[str] = ()) -> Any:
    """A rule set of any registered game, by name with ``+variant`` parts, tolerating aliases and case.

    Raises:
        UnknownRuleSetError: for an unknown game or variant.
    """
    if isinstance(variants, str):
        variants = (variants,)
    return find_game(name).find_ruleset(name, tuple(variants))


def replay(state: Any, events: Sequence[Any]) -> Any:
    """Applies events in order with the state's game.

    Raises:
        IllegalEventError: at the first illegal event, with its position in the message.
    """
    apply = game_of(state).apply
    for index, event in enumerate(events):
        try:
            state = apply(state, event)
        except IllegalEventError as error:
            raise type(error)(f"event {index + 1}: {error}") from error
    return state
