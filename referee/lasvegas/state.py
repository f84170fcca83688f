"""The game state and its only transition, :func:`apply`.

A :class:`GameState` is frozen; ``apply(state, event)`` checks the event against the rules and returns
the next state, or raises a narrow error whose message a referee can read out. The engine holds no
random number generator, clock or I/O: rolls and deals arrive as events (see :mod:`referee.lasvegas.events`),
and :func:`next_actor` returns :data:`CHANCE` when the next event is one of those.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee._fast import fast_constructor, fast_evolve
from referee.errors import (
    IllegalEventError,
    IllegalPlacementError,
    IllegalRollError,
    OutOfTurnError,
    UnknownRuleSetError,
)
from referee.game import CHANCE, GAME_OVER, SETTLEMENT, Turn
from referee.game import replay as _replay
from referee.lasvegas.events import (
    BanknotesDealt,
    DicePlaced,
    DiceRolled,
    Event,
    NeutralDiceRolled,
    Passed,
    ResourcesCounted,
    RoundScored,
)
from referee.lasvegas.hooks import LaidTile, Pending
from referee.lasvegas.rules import RuleSet
from referee.lasvegas.scoring import CasinoPayout, Outcome, RoundPayout, Standing, Termination
from referee.types import CasinoId, Colour

__all__ = [
    "CHANCE",
    "GAME_OVER",
    "SETTLEMENT",
    "Casino",
    "GameState",
    "Phase",
    "Turn",
    "advance",
    "apply",
    "legal_pass",
    "legal_placements",
    "new_game",
    "next_actor",
    "nowhere_to_place",
    "outcome",
    "place_all",
    "preview",
    "replay",
    "standings",
]

_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


class Phase(enum.Enum):
    """Where in a round the game is."""

    DEAL = "deal"
    """Banknotes are to be dealt (chance)."""
    PREROLL = "preroll"
    """The start player rolls the spare neutral dice (chance; 3 players, neutral variant)."""
    ROLL = "roll"
    """The player to act rolls every die he holds (chance)."""
    PLACE = "place"
    """The player to act places all dice of one rolled value."""
    SETTLE = "settle"
    """Every die is placed: the round is to be settled."""
    OVER = "over"
    """The game has ended."""


@dataclass(frozen=True, slots=True)
class Casino:
    """What lies at one casino."""

    dice: tuple[int, ...]
    """Normal dice per player, in seat order."""
    biggies: tuple[int, ...]
    """Biggys per player, in seat order."""
    neutral: int
    """Neutral dice."""
    banknotes: tuple[int, ...]
    """Notes in dollars, highest first."""

    def weighted(self, seat: int, biggy_weight: int) -> int:
        """The count of one player's dice at settlement."""
        return self.dice[seat] + biggy_weight * self.biggies[seat]

    @property
    def has_dice(self) -> bool:
        """True when any die lies here (a player's, a Biggy or a neutral one)."""
        return any(self.dice) or any(self.biggies) or self.neutral > 0


def _empty_casino(players: int) -> Casino:
    zeros = (0,) * players
    return Casino(zeros, zeros, 0, ())


@dataclass(frozen=True, slots=True)
class GameState:
    """A complete, immutable state of a game.

    Build the first one with :func:`new_game`, then feed events to :func:`apply`.
    ``str(state)`` is its table notation (see :mod:`referee.lasvegas.notation`), and ``repr`` evaluates back.

    Example:
        >>> from referee import find_ruleset
        >>> state = new_game(find_ruleset("las-vegas"), ["red", "blue"])
        >>> state = apply(state, BanknotesDealt(((60_000,), (50_000,), (90_000,), (70_000,), (80_000,),
        ...                                      (10_000, 40_000))))
        >>> state = apply(state, DiceRolled(Colour.RED, (1, 3, 3, 5, 6, 6, 6, 2)))
        >>> state = apply(state, place_all(state, 6))
        >>> str(state)
        'las-vegas rb 1 b -:60/-:50/-:90/-:70/-:80/3r:40,10 - -/-'
    """

    ruleset: RuleSet
    """The rules in force."""
    players: tuple[Colour, ...]
    """Players in seat order (clockwise); the first one starts round 1."""
    neutral: Colour | None
    """The colour of the neutral dice, or None without the neutral variant."""
    round: int
    """The current round, 1-based (the last round once the game is over)."""
    phase: Phase
    """Where in the round the game is."""
    turn: int
    """Seat index of the player to act (roll or place), or -1."""
    start: int
    """Seat index of this round's start player (Las Vegas: the start card passes left each round)."""
    casinos: tuple[Casino, ...]
    """The six casinos, casino 1 first."""
    held_dice: tuple[int, ...]
    """Normal dice each player still holds."""
    held_biggies: tuple[int, ...]
    """Biggys each player still holds."""
    held_neutral: tuple[int, ...]
    """Neutral dice each player still holds."""
    roll: DiceRolled | None
    """The roll waiting to be placed (faces sorted), or None."""
    won: tuple[tuple[int, ...], ...]
    """Notes each player has won, in the order won."""
    resources: tuple[tuple[int, ...], ...] = ()
    """Per player, how many of each resource the rule set's hooks name he has (Las Vegas: none)."""
    tiles: tuple[LaidTile, ...] = ()
    """The casino tiles laid this round, each with its memory (Las Vegas: none)."""
    pending: Pending | None = None
    """A step the rules put before play goes on (a tile's roll or decision), or None."""
    bank: tuple[int, ...] = ()
    """Notes lying face up as the bank that tiles pay from, highest first (Royale's main game)."""
    log: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)
    """The events applied since :func:`new_game`, newest first, as ``(earlier log, event)`` pairs
    (appending is then constant time); read them as :attr:`history`."""

    @property
    def history(self) -> tuple[Event, ...]:
        """Every event applied since :func:`new_game`, oldest first; not part of equality or notation."""
        return self.recent(-1)

    def recent(self, count: int) -> tuple[Event, ...]:
        """The newest ``count`` events (all of them for a negative count), oldest first.

        Walks only as far back as asked: the camera's look at the last move costs the same at any
        point of a game.
        """
        events: list[Event] = []
        log = self.log
        while log is not None and len(events) != count:
            log, event = log
            events.append(event)
        events.reverse()
        return tuple(events)

    @property
    def start_seat(self) -> int:
        """Seat of this round's start player."""
        return self.start

    def resource(self, name: str) -> tuple[int, ...]:
        """How many of a resource (e.g. chips) each player has, in seat order.

        Raises:
            KeyError: if the rule set has no such resource.
        """
        names = [resource for resource, _ in self.ruleset.hooks.resources]
        if name not in names:
            raise KeyError(f"{self.ruleset.name} has no {name!r}; its resources: {', '.join(names) or 'none'}")
        index = names.index(name)
        return tuple(held[index] for held in self.resources)

    @property
    def to_act(self) -> Colour | None:
        """The player whose turn it is (to roll or to place), or None."""
        return self.players[self.turn] if self.turn >= 0 else None

    def held(self, seat: int) -> tuple[int, int, int]:
        """The dice a seat holds: normal dice, Biggys, neutral dice."""
        return self.held_dice[seat], self.held_biggies[seat], self.held_neutral[seat]

    def seat(self, player: Colour) -> int:
        """The seat index of a player.

        Raises:
            IllegalEventError: if the colour is not a player of this game.
        """
        try:
            return self.players.index(player)
        except ValueError:
            names = ", ".join(str(p) for p in self.players)
            raise IllegalEventError(f"{player} is not playing; the players are {names}") from None

    def counts(self, casino: int) -> dict[Colour, int]:
        """Weighted dice counts per owner at one casino (Biggys counted as the rule set says)."""
        table = self.casinos[casino - 1]
        weight = self.ruleset.biggy_weight
        counts = {}
        for player, dice, biggies in zip(self.players, table.dice, table.biggies, strict=True):
            if dice or biggies:
                counts[player] = dice + weight * biggies
        if table.neutral and self.neutral is not None:
            counts[self.neutral] = table.neutral
        return counts

    def pile(self) -> Counter[int]:
        """Notes in the face-down pile: the deck less the notes on casinos and the notes won."""
        pile = self.ruleset.deck_counts()
        for casino in self.casinos:
            for note in casino.banknotes:
                pile[note] -= 1
        for notes in self.won:
            for note in notes:
                pile[note] -= 1
        for note in self.bank:
            pile[note] -= 1
        return Counter(pile)

    def money(self) -> dict[Colour, int]:
        """Dollars won so far per player, in seat order."""
        return {player: sum(notes) for player, notes in zip(self.players, self.won, strict=True)}

    def plus_resources(self, seat: int, deltas: Sequence[tuple[str, int]]) -> tuple[tuple[int, ...], ...]:
        """The resources with ``deltas`` (``("chips", -1)``, ...) added to one seat's: a pass paid, a tile's reward."""
        names = [name for name, _ in self.ruleset.hooks.resources]
        held = list(self.resources[seat])
        for name, delta in deltas:
            held[names.index(name)] += delta
        return (*self.resources[:seat], tuple(held), *self.resources[seat + 1 :])

    def evolve(self, **changes: Any) -> GameState:
        """A copy with the named fields changed, unchecked: for rules code (tiles, hooks), not for play."""
        return _evolve(self, **changes)

    def to_notation(self) -> str:
        """The canonical table notation (see :mod:`referee.lasvegas.notation`)."""
        from referee.lasvegas.notation import to_notation

        return to_notation(self)

    @classmethod
    def from_notation(cls, text: str) -> GameState:
        """Parses table notation.

        Raises:
            NotationError: if the text is malformed or describes an impossible state.
        """
        from referee.lasvegas.notation import from_notation

        return from_notation(text)

    def __str__(self) -> str:
        return self.to_notation()

    def __repr__(self) -> str:
        return f"GameState.from_notation({self.to_notation()!r})"


_evolve = fast_evolve(GameState)
"""``_evolve(state, phase=..., turn=...)``: a copy with the named fields changed (no checks)."""
_casino = fast_constructor(Casino)
_roll_event = fast_constructor(DiceRolled)


def new_game(
    ruleset: RuleSet,
    players: Sequence[Colour | str],
    neutral: Colour | str | None = Colour.WHITE,
) -> GameState:
    """Starts a game, before the first deal.

    Args:
        ruleset: the rules (see :func:`referee.lasvegas.rules.find_ruleset`).
        players: player colours in seat order, clockwise, starting with the start player of round 1.
        neutral: colour of the neutral dice when the rule set has them (ignored otherwise).

    Raises:
        UnknownRuleSetError: for a player count the rule set does not allow.
        IllegalEventError: for repeated colours or a player using the neutral colour.
        NotationError: for an unknown colour name.
    """
    seats = tuple(p if isinstance(p, Colour) else Colour.from_str(p) for p in players)
    ruleset.check_players(len(seats))
    if len(set(seats)) != len(seats):
        raise IllegalEventError(f"each player needs dice of his own colour: {', '.join(map(str, seats))}")
    neutral_colour = None
    in_play = ruleset.neutral_for(len(seats))
    if in_play and neutral is not None:
        neutral_colour = neutral if isinstance(neutral, Colour) else Colour.from_str(neutral)
        if neutral_colour in seats:
            raise IllegalEventError(f"{neutral_colour} is the neutral colour and cannot be a player's")
    elif in_play:
        raise UnknownRuleSetError(f"{ruleset.name} needs a neutral colour")
    n = len(seats)
    held_dice, held_biggies, held_neutral = _full_hands(ruleset, n)
    state = GameState(
        ruleset=ruleset,
        players=seats,
        neutral=neutral_colour,
        round=1,
        phase=Phase.DEAL,
        turn=-1,
        start=0,
        casinos=(_empty_casino(n),) * ruleset.casinos,
        held_dice=held_dice,
        held_biggies=held_biggies,
        held_neutral=held_neutral,
        roll=None,
        won=((),) * n,
        resources=(tuple(count for _, count in ruleset.hooks.resources),) * n if ruleset.hooks.resources else (),
    )
    start = ruleset.hooks.round_start
    return state if start is None else start(state)


def _full_hands(ruleset: RuleSet, players: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Normal dice, Biggys and neutral dice each player holds at the start of a round."""
    return ((ruleset.dice_per_player,) * players, (ruleset.biggies_per_player,) * players,
            (ruleset.neutral_dice_for(players),) * players)  # fmt: skip


def next_actor(state: GameState) -> Colour | Turn:
    """Who or what produces the next event.

    Returns:
        The player to place dice; :data:`CHANCE` for a deal or a roll (``state.to_act`` says whose
        dice are rolled); :data:`SETTLEMENT` when the round is to be settled; :data:`GAME_OVER`.
    """
    if state.pending is not None:
        actor: Colour | Turn = state.pending.actor
        return actor
    phase = state.phase
    if phase is Phase.PLACE:
        return state.players[state.turn]
    if phase is Phase.SETTLE:
        return SETTLEMENT
    if phase is Phase.OVER:
        return GAME_OVER
    return CHANCE


def _wrong_phase(state: GameState, what: str) -> IllegalEventError:
    expected = {
        Phase.DEAL: "banknotes must be dealt first",
        Phase.PREROLL: f"{state.players[state.start]} must first roll the spare neutral dice",
        Phase.ROLL: f"{state.to_act} must roll first",
        Phase.PLACE: f"{state.to_act} must place dice first",
        Phase.SETTLE: "every die is placed: the round must be settled",
        Phase.OVER: "the game is over",
    }[state.phase]
    return OutOfTurnError(f"no {what} now: {expected}")


def _deal(state: GameState, event: BanknotesDealt) -> GameState:
    if state.phase is not Phase.DEAL:
        raise _wrong_phase(state, "deal")
    state.ruleset.hooks.deal(state, event)
    tables = tuple(
        _casino(c.dice, c.biggies, c.neutral, tuple(sorted(notes, reverse=True)))
        for c, notes in zip(state.casinos, event.casinos, strict=True)
    )
    preroll = state.ruleset.neutral_preroll_for(len(state.players))
    after = _evolve(state, phase=Phase.PREROLL if preroll else Phase.ROLL, turn=-1 if preroll else state.start,
                    casinos=tables, log=(state.log, event))  # fmt: skip
    return _turn_starts(after) if after.tiles and not preroll else after


_FACE_SET = frozenset(range(1, 7))
_INT_TYPE = {int}


def _check_faces(values: Sequence[int], owner: object, kind: str) -> tuple[int, ...]:
    """The faces sorted, after checking each is an int from 1 to 6 (fast path first).

    ``values`` itself is returned when it is already a sorted tuple, so a roll needs no copy.
    """
    if _FACE_SET.issuperset(values) and _INT_TYPE.issuperset(map(type, values)):
        faces = tuple(sorted(values))
        return values if faces == values and type(values) is tuple else faces
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise IllegalRollError(f"{owner}'s {kind} shows {value!r}: a die shows 1 to 6")
    raise IllegalRollError(f"{owner}'s {kind}: faces must be a sequence of whole numbers 1 to 6")


def _neutral_preroll(state: GameState, event: NeutralDiceRolled) -> GameState:
    if state.phase is not Phase.PREROLL:
        raise _wrong_phase(state, "neutral pre-roll")
    expected = state.ruleset.neutral_preroll_for(len(state.players))
    values = _check_faces(event.values, "the start player", "spare neutral die")
    if len(values) != expected:
        raise IllegalRollError(f"the start player rolls all {expected} spare neutral dice, not {len(values)}")
    tables = list(state.casinos)
    for value in values:
        c = tables[value - 1]
        tables[value - 1] = _casino(c.dice, c.biggies, c.neutral + 1, c.banknotes)
    after = _evolve(state, phase=Phase.ROLL, turn=state.start, casinos=tuple(tables), log=(state.log, event))
    return _turn_starts(after) if after.tiles else after


def _turn_seat(state: GameState, player: Colour, action: str) -> int:
    """The seat of the player to act, after checking that ``player`` is that player."""
    seat = state.turn
    if state.players[seat] is not player:
        state.seat(player)  # raises for a colour that is not playing
        raise OutOfTurnError(f"it is {state.to_act}'s turn{action}, not {player}'s")
    return seat


def _roll(state: GameState, event: DiceRolled) -> GameState:
    if state.phase is not Phase.ROLL:
        raise _wrong_phase(state, "roll")
    player = event.player
    seat = state.turn
    if state.players[seat] is not player:
        _turn_seat(state, player, "")
    dice = _check_faces(event.dice, player, "die")
    biggies = _check_faces(event.biggies, player, "Biggy") if event.biggies else ()
    neutral = _check_faces(event.neutral, player, "neutral die") if event.neutral else ()
    held = state.held(seat)
    if (len(dice), len(biggies), len(neutral)) != held:
        for rolled, have, kind in zip((dice, biggies, neutral), held, ("dice", "Biggys", "neutral dice"), strict=True):
            if len(rolled) != have:
                raise IllegalRollError(
                    f"{player} rolled {len(rolled)} {kind} but holds {have}: every die still held must be rolled"
                )
    if dice is not event.dice or biggies is not event.biggies or neutral is not event.neutral:
        event_sorted = _roll_event(player, dice, biggies, neutral)
    else:
        event_sorted = event
    return _evolve(state, phase=Phase.PLACE, roll=event_sorted, log=(state.log, event))


def _count_word(count: int, value: int) -> str:
    return f"a {value}" if count == 1 else f"{_WORDS.get(count, str(count))} {value}s"


def _place(state: GameState, event: DicePlaced) -> GameState:
    if state.phase is not Phase.PLACE:
        raise _wrong_phase(state, "placement")
    seat = state.turn
    if state.players[seat] is not event.player:
        _turn_seat(state, event.player, " to place")
    value = event.casino
    if type(value) is not int or not 1 <= value <= 6:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise IllegalPlacementError(f"there is no casino {value!r}: casinos are numbered 1 to 6")
        value = int(value)  # a CasinoId
    n_dice, n_biggies, n_neutral = event.dice, event.biggies, event.neutral
    roll = state.roll
    assert roll is not None
    if (type(n_dice) is not int or type(n_biggies) is not int or type(n_neutral) is not int
            or n_dice != roll.dice.count(value) or n_biggies != roll.biggies.count(value)
            or n_neutral != roll.neutral.count(value) or not (n_dice or n_biggies or n_neutral)):  # fmt: skip
        placed = (n_dice, n_biggies, n_neutral)
        if not _INT_TYPE.issuperset(map(type, placed)) or min(placed) < 0:
            raise IllegalPlacementError(f"numbers of dice placed must be whole numbers >= 0, got {placed!r}")
        showing = (roll.dice.count(value), roll.biggies.count(value), roll.neutral.count(value))
        _explain_placement(state, seat, value, placed, showing)
    if state.tiles:
        _refused(state, value)
    c = state.casinos[value - 1]
    if n_dice or n_biggies:
        dice = list(c.dice)
        dice[seat] += n_dice
        biggies = list(c.biggies)
        biggies[seat] += n_biggies
        c = _casino(tuple(dice), tuple(biggies), c.neutral + n_neutral, c.banknotes)
    else:
        c = _casino(c.dice, c.biggies, c.neutral + n_neutral, c.banknotes)
    tables = (*state.casinos[: value - 1], c, *state.casinos[value:])
    held_dice = _minus(state.held_dice, seat, n_dice) if n_dice else state.held_dice
    held_biggies = _minus(state.held_biggies, seat, n_biggies) if n_biggies else state.held_biggies
    held_neutral = _minus(state.held_neutral, seat, n_neutral) if n_neutral else state.held_neutral
    phase, turn = _next_turn(seat, held_dice, held_biggies, held_neutral)
    after = _evolve(state, phase=phase, turn=turn, casinos=tables, held_dice=held_dice, held_biggies=held_biggies,
                    held_neutral=held_neutral, roll=None, log=(state.log, event))  # fmt: skip
    if state.tiles:  # most games have none: no call on the hot path
        for index, laid in enumerate(state.tiles):
            if laid.casino == value:
                after = laid.tile.on_placed(after, index, event)
        return advance(after, seat)  # a tile may have moved dice in or out of hands
    return after


def advance(state: GameState, seat: int) -> GameState:
    """The turn passes on from ``seat``, from the dice held now: for rules code that moves dice (tiles).

    The next player holding dice rolls, else the round is to be settled; tiles that act when a turn
    starts or the round is about to be settled (:meth:`CasinoTile.on_turn`) are asked.
    """
    phase, turn = _next_turn(seat, state.held_dice, state.held_biggies, state.held_neutral)
    return _turn_starts(_evolve(state, phase=phase, turn=turn))


def _turn_starts(state: GameState) -> GameState:
    """Asks the tiles laid whether they act now that a turn starts (or the round is to be settled)."""
    for index, laid in enumerate(state.tiles):
        state = laid.tile.on_turn(state, index)
    return state


def _refused(state: GameState, casino: int) -> None:
    """Raises IllegalPlacementError when a tile forbids dice on ``casino`` now (Royale's No Entry)."""
    for index, laid in enumerate(state.tiles):
        reason = laid.tile.refuses(state, index, casino)
        if reason:
            raise IllegalPlacementError(reason)


def _open(state: GameState, values: Sequence[int]) -> list[int]:
    """The values of ``values`` whose casino no tile forbids now (Royale's No Entry)."""
    return [v for v in values if not any(laid.tile.refuses(state, i, v) for i, laid in enumerate(state.tiles))]


def nowhere_to_place(state: GameState) -> bool:
    """True when a tile forbids every value the player to place rolled: his pass is forced, and free."""
    roll = state.roll
    if not state.tiles or roll is None:
        return False
    return not _open(state, sorted({*roll.dice, *roll.biggies, *roll.neutral}))


def _next_turn(seat: int, held_dice: tuple[int, ...], held_biggies: tuple[int, ...],
               held_neutral: tuple[int, ...]) -> tuple[Phase, int]:  # fmt: skip
    """Who rolls next: clockwise from the next seat, players without dice skipped; else the settlement."""
    n = len(held_dice)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if held_dice[s] or held_biggies[s] or held_neutral[s]:
            return Phase.ROLL, s
    return Phase.SETTLE, -1


def _pass(state: GameState, event: Passed) -> GameState:
    """A pass: the player pays what the rules ask, takes his rolled dice back and places nothing."""
    cost = state.ruleset.hooks.pass_cost
    if cost is None:
        raise IllegalEventError(f"{state.ruleset.name} has no pass: a player must place dice after rolling")
    if state.phase is not Phase.PLACE:
        raise _wrong_phase(state, "pass")
    seat = _turn_seat(state, event.player, " to place")
    if nowhere_to_place(state):  # nowhere to place: the dice go back without paying
        cost = ()
    short = _short_of(state, seat, cost)
    if short:
        raise IllegalEventError(f"{event.player} {short}")
    resources = state.plus_resources(seat, [(name, -count) for name, count in cost]) if cost else state.resources
    phase, turn = _next_turn(seat, state.held_dice, state.held_biggies, state.held_neutral)
    after = _evolve(state, phase=phase, turn=turn, roll=None, resources=resources, log=(state.log, event))
    return _turn_starts(after) if after.tiles else after


def _short_of(state: GameState, seat: int, cost: tuple[tuple[str, int], ...]) -> str:
    """What a player lacks to pay ``cost`` (``"has 0 chips: a pass costs 1"``), or "" if he can pay."""
    for name, count in cost:
        have = state.resource(name)[seat]
        if have < count:
            return f"has {have} {name}: a pass costs {count}"
    return ""


def legal_pass(state: GameState) -> Passed | None:
    """The pass of the player to place, when the rule set has one and he can pay it; else None."""
    cost = state.ruleset.hooks.pass_cost
    roll = state.roll
    if cost is None or state.phase is not Phase.PLACE or roll is None:
        return None
    if _short_of(state, state.turn, cost) and not nowhere_to_place(state):
        return None
    return Passed(roll.player)


def _explain_placement(state: GameState, seat: int, value: int, placed: tuple[int, int, int],
                       showing: tuple[int, int, int]) -> None:  # fmt: skip
    """Raises the IllegalPlacementError that says why ``placed`` is not all dice showing ``value``."""
    player = state.players[seat]
    roll = state.roll
    assert roll is not None
    if sum(showing) == 0:
        rolled = ", ".join(str(v) for v in sorted({*roll.dice, *roll.biggies, *roll.neutral}))
        raise IllegalPlacementError(
            f"{player} rolled no {value} (rolled {rolled}): dice go on the casino of a value rolled"
        )
    if sum(placed) == 0:
        raise IllegalPlacementError(f"{player} must place all dice showing {value} on casino {value}, not none")
    held = state.held(seat)
    for count, have, shows, kind in zip(placed, held, showing, ("dice", "Biggys", "neutral dice"), strict=True):
        if count > have:
            raise IllegalPlacementError(f"{player} placed {count} {kind} but holds only {have}")
        if count > shows:
            raise IllegalPlacementError(
                f"{player} placed {count} {kind} on casino {value} but only {shows} of them show {value}"
            )
    missing = sum(showing) - sum(placed)
    raise IllegalPlacementError(
        f"{player} left {_count_word(missing, value)} in the tray: all dice of the chosen value must be placed"
    )


def _minus(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    if not amount:
        return values
    return (*values[:index], values[index] - amount, *values[index + 1 :])


def _score(state: GameState, event: RoundScored) -> GameState:
    if state.phase is not Phase.SETTLE:
        if state.phase is Phase.OVER:
            raise _wrong_phase(state, "settlement")
        left = sum(state.held_dice) + sum(state.held_biggies) + sum(state.held_neutral)
        raise IllegalEventError(f"the round is not over: {left} dice are still to be placed")
    payout = preview(state)
    notes = payout.notes_won()
    won = tuple(previous + tuple(notes.get(p, ())) for p, previous in zip(state.players, state.won, strict=True))
    rules = state.ruleset
    hooks = rules.hooks
    n = len(state.players)
    last = state.round >= rules.rounds
    held_dice, held_biggies, held_neutral = _full_hands(rules, n)
    resources = state.resources
    if hooks.resources_per_round and not last:
        extra = dict(hooks.resources_per_round)
        gains = tuple(extra.get(name, 0) for name, _ in hooks.resources)
        resources = tuple(tuple(have + gain for have, gain in zip(held, gains, strict=True)) for held in resources)
    after = _evolve(
        state, round=state.round if last else state.round + 1, phase=Phase.OVER if last else Phase.DEAL, turn=-1,
        start=state.start if last else hooks.next_start(state), casinos=(_empty_casino(n),) * rules.casinos,
        held_dice=held_dice, held_biggies=held_biggies, held_neutral=held_neutral, roll=None, won=won,
        resources=resources, tiles=(), log=(state.log, event),
    )  # fmt: skip
    if state.bank:  # notes a tile paid from the bank left it
        after = _evolve(after, bank=_less(state.bank, _from_bank(payout.casinos)))
    for index, laid in enumerate(state.tiles):
        after = laid.tile.at_round_end(state, index, after)
    if hooks.round_start is not None and not last:
        after = hooks.round_start(after)
    return after


def _from_bank(payouts: Sequence[CasinoPayout]) -> list[int]:
    """The notes casinos' payouts pay that were not lying there (a tile's reward, from the bank)."""
    return [p.banknote_usd for c in payouts for p in c.ranking if p.source and p.banknote_usd is not None]


def _less(notes: tuple[int, ...], taken: list[int]) -> tuple[int, ...]:
    left = Counter(notes)
    left.subtract(taken)
    return tuple(sorted(left.elements(), reverse=True))


def _counted(state: GameState, event: ResourcesCounted) -> GameState:
    """The players' counts of a resource replace the referee's (a correction: at any moment of the game)."""
    names = [name for name, _ in state.ruleset.hooks.resources]
    if event.resource not in names:
        raise IllegalEventError(f"{state.ruleset.name} has no {event.resource}; "
                                f"what players hold: {', '.join(names) or 'nothing'}")  # fmt: skip
    if len(event.counts) != len(state.players):
        raise IllegalEventError(f"{len(event.counts)} counts of {event.resource} for {len(state.players)} players")
    if event.resource not in state.ruleset.hooks.signed_resources and min(event.counts) < 0:
        raise IllegalEventError(f"a player cannot hold fewer than 0 {event.resource}: {list(event.counts)}")
    index = names.index(event.resource)
    pairs = zip(state.resources, event.counts, strict=True)
    resources = tuple((*held[:index], count, *held[index + 1 :]) for held, count in pairs)
    return _evolve(state, resources=resources, log=(state.log, event))


_HANDLERS: dict[type, Callable[[GameState, Any], GameState]] = {
    BanknotesDealt: _deal,
    NeutralDiceRolled: _neutral_preroll,
    DiceRolled: _roll,
    DicePlaced: _place,
    Passed: _pass,
    RoundScored: _score,
    ResourcesCounted: _counted,
}


_KINDS = {BanknotesDealt: "deal", NeutralDiceRolled: "neutral pre-roll", DiceRolled: "roll", DicePlaced: "placement",
          Passed: "pass", RoundScored: "settlement", ResourcesCounted: "count"}  # fmt: skip


def apply(state: GameState, event: Event) -> GameState:
    """Applies one event and returns the next state.

    Args:
        state: the current state.
        event: what happened at the table.

    Returns:
        The new state; ``state`` is unchanged.

    Raises:
        OutOfTurnError: a player acted out of turn, or the event does not fit the phase.
        IllegalRollError: not every held die rolled, or a face outside 1..6.
        IllegalPlacementError: a value not rolled, not all dice of the value, more dice than held.
        IllegalDealError: notes below or above the minimum, or not in the pile.
        IllegalEventError: anything else that does not fit (the base class of all of the above).
    """
    pending = state.pending
    if pending is not None and not isinstance(event, ResourcesCounted):  # a count corrects at any moment
        return _step(state, pending, event)
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise IllegalEventError(f"not an event: {event!r}")
    return handler(state, event)


def _step(state: GameState, pending: Pending, event: Any) -> GameState:
    """The event a pending step waits for, applied by the step's handler (a tile or the game's setup)."""
    if type(event) not in pending.accepts:
        kind = _KINDS.get(type(event), type(event).__name__)
        raise OutOfTurnError(f"no {kind} now: first {pending.what}")
    return pending.handler.step(state, event)


def replay(state: GameState, events: Sequence[Event]) -> GameState:
    """Applies events in order.

    Raises:
        IllegalEventError: at the first illegal event, with its position in the message.
    """
    result: GameState = _replay(state, events)
    return result


def place_all(state: GameState, casino: int) -> DicePlaced:
    """The placement of every rolled die showing ``casino``, as the rules demand.

    Raises:
        OutOfTurnError: if nobody is about to place dice.
    """
    roll = state.roll
    if state.phase is not Phase.PLACE or roll is None:
        raise _wrong_phase(state, "placement")
    return DicePlaced(roll.player, casino, roll.dice.count(casino), roll.biggies.count(casino),
                      roll.neutral.count(casino))  # fmt: skip


def legal_placements(state: GameState) -> tuple[DicePlaced, ...]:
    """Every legal placement for the player to act, lowest casino first (empty unless placing)."""
    roll = state.roll
    if state.phase is not Phase.PLACE or roll is None:
        return ()
    values = sorted({*roll.dice, *roll.biggies, *roll.neutral})
    if state.tiles:
        values = _open(state, values)
    return tuple(place_all(state, value) for value in values)


def preview(state: GameState) -> RoundPayout:
    """Who would receive which note if the round ended now (equal to the settlement at round end)."""
    neutral = () if state.neutral is None else (state.neutral,)
    if not state.tiles:
        return RoundPayout(tuple(_score_table(state, n, neutral) for n in range(1, state.ruleset.casinos + 1)))
    payouts = []
    for number in range(1, state.ruleset.casinos + 1):
        payout = _score_table(state, number, neutral)
        payouts.append(payout)
        paid = _from_bank((payout,))
        if paid:  # the next casinos' tiles see the bank without the cards this one's tiles paid
            state = _evolve(state, bank=_less(state.bank, paid))
    return RoundPayout(tuple(payouts))


def _score_table(state: GameState, number: int, neutral: tuple[Colour, ...]) -> CasinoPayout:
    hooks = state.ruleset.hooks
    casino = CasinoId(number)
    payout: CasinoPayout = hooks.pay(casino, state.counts(number), state.casinos[number - 1].banknotes, neutral)
    if state.tiles:  # each tile sees every casino's payout (grey dice, black dice and side bets lie anywhere)
        for index, laid in enumerate(state.tiles):
            payout = laid.tile.before_payout(state, index, payout)
    return payout


def standings(state: GameState) -> tuple[Standing, ...]:
    """Players ranked as the rules say (the rule set's hooks).

    In Las Vegas: by money won so far, then by number of notes; ties share a rank.
    """
    return state.ruleset.hooks.rank(state)


def outcome(state: GameState) -> Outcome | None:
    """The result once the game is over, else None."""
    if state.phase is not Phase.OVER or state.pending is not None:  # a tile may still pay after the last round
        return None
    return Outcome(Termination.ROUNDS_PLAYED, standings(state))
