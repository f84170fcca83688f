"""The game state and its only transition, :func:`apply`.

A :class:`GameState` is frozen; ``apply(state, event)`` checks the event against the rules and returns
the next state, or raises a narrow error whose message a referee can read out. The engine holds no
random number generator, clock or I/O: rolls and deals arrive as events (see :mod:`referee.events`),
and :func:`next_actor` returns :data:`CHANCE` when the next event is one of those.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee._fast import fast_constructor
from referee.errors import (
    IllegalDealError,
    IllegalEventError,
    IllegalPlacementError,
    IllegalRollError,
    OutOfTurnError,
    UnknownRuleSetError,
)
from referee.events import BanknotesDealt, DicePlaced, DiceRolled, Event, NeutralDiceRolled, RoundScored
from referee.rules import RuleSet
from referee.scoring import CasinoPayout, Outcome, RoundPayout, Standing, Termination, rank_standings, score_casino
from referee.types import CasinoId, Colour, format_usd

__all__ = [
    "CHANCE",
    "GAME_OVER",
    "SETTLEMENT",
    "Casino",
    "GameState",
    "Phase",
    "Turn",
    "apply",
    "legal_placements",
    "new_game",
    "next_actor",
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


class Turn(enum.Enum):
    """What :func:`next_actor` returns when no player is to decide."""

    CHANCE = "chance"
    """The next event is a deal or a roll."""
    SETTLEMENT = "settlement"
    """The next event is :class:`~referee.events.RoundScored`."""
    GAME_OVER = "game over"
    """No event is accepted any more."""

    def __repr__(self) -> str:
        return f"Turn.{self.name}"


CHANCE = Turn.CHANCE
SETTLEMENT = Turn.SETTLEMENT
GAME_OVER = Turn.GAME_OVER


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


def _empty_casino(players: int) -> Casino:
    zeros = (0,) * players
    return Casino(zeros, zeros, 0, ())


@dataclass(frozen=True, slots=True)
class GameState:
    """A complete, immutable state of a game.

    Build the first one with :func:`new_game`, then feed events to :func:`apply`.
    ``str(state)`` is its table notation (see :mod:`referee.notation`), and ``repr`` evaluates back.

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
    history: tuple[Event, ...] = field(default=(), compare=False, repr=False)
    """Every event applied since :func:`new_game`; not part of equality or notation."""

    @property
    def start_seat(self) -> int:
        """Seat of this round's start player (the start card passes left each round)."""
        return (self.round - 1) % len(self.players)

    @property
    def to_act(self) -> Colour | None:
        """The player whose turn it is (to roll or to place), or None."""
        return self.players[self.turn] if self.turn >= 0 else None

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
        return Counter(pile)

    def money(self) -> dict[Colour, int]:
        """Dollars won so far per player, in seat order."""
        return {player: sum(notes) for player, notes in zip(self.players, self.won, strict=True)}

    def to_notation(self) -> str:
        """The canonical table notation (see :mod:`referee.notation`)."""
        from referee.notation import to_notation

        return to_notation(self)

    @classmethod
    def from_notation(cls, text: str) -> GameState:
        """Parses table notation.

        Raises:
            NotationError: if the text is malformed or describes an impossible state.
        """
        from referee.notation import from_notation

        return from_notation(text)

    def __str__(self) -> str:
        return self.to_notation()

    def __repr__(self) -> str:
        return f"GameState.from_notation({self.to_notation()!r})"


_state = fast_constructor(GameState)
_casino = fast_constructor(Casino)


def new_game(
    ruleset: RuleSet,
    players: Sequence[Colour | str],
    neutral: Colour | str | None = Colour.WHITE,
) -> GameState:
    """Starts a game, before the first deal.

    Args:
        ruleset: the rules (see :func:`referee.rules.find_ruleset`).
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
    if ruleset.has_neutral and neutral is not None:
        neutral_colour = neutral if isinstance(neutral, Colour) else Colour.from_str(neutral)
        if neutral_colour in seats:
            raise IllegalEventError(f"{neutral_colour} is the neutral colour and cannot be a player's")
    elif ruleset.has_neutral:
        raise UnknownRuleSetError(f"{ruleset.name} needs a neutral colour")
    n = len(seats)
    held_dice, held_biggies, held_neutral = _full_hands(ruleset, n)
    return GameState(
        ruleset=ruleset,
        players=seats,
        neutral=neutral_colour,
        round=1,
        phase=Phase.DEAL,
        turn=-1,
        casinos=(_empty_casino(n),) * ruleset.casinos,
        held_dice=held_dice,
        held_biggies=held_biggies,
        held_neutral=held_neutral,
        roll=None,
        won=((),) * n,
    )


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
        Phase.PREROLL: f"{state.players[state.start_seat]} must first roll the spare neutral dice",
        Phase.ROLL: f"{state.to_act} must roll first",
        Phase.PLACE: f"{state.to_act} must place dice first",
        Phase.SETTLE: "every die is placed: the round must be settled",
        Phase.OVER: "the game is over",
    }[state.phase]
    return OutOfTurnError(f"no {what} now: {expected}")


def _deal(state: GameState, event: BanknotesDealt) -> GameState:
    if state.phase is not Phase.DEAL:
        raise _wrong_phase(state, "deal")
    rules = state.ruleset
    casinos = event.casinos
    if not isinstance(casinos, tuple | list) or len(casinos) != rules.casinos:
        raise IllegalDealError(f"a deal gives notes to each of the {rules.casinos} casinos")
    denominations = rules.deck_counts()
    pile = state.pile()
    dealt: Counter[int] = Counter()
    minimum = rules.minimum_usd_for(len(state.players))
    short = 0
    for number, notes in enumerate(casinos, start=1):
        for note in notes:
            if isinstance(note, bool) or note not in denominations:
                values = ", ".join(format_usd(v) for v in sorted(denominations))
                raise IllegalDealError(f"casino {number}: {note!r} is not a banknote of this game ({values})")
        dealt.update(notes)
        total = sum(notes)
        if short and notes:
            raise IllegalDealError(
                f"casino {short} holds less than {format_usd(minimum)} but casino {number} got notes: each "
                "casino is dealt up to the minimum before the next"
            )
        if total < minimum:
            short = short or number
        elif total - max(notes) >= minimum:
            raise IllegalDealError(
                f"casino {number} got {format_usd(total)}: dealing stops as soon as a casino holds "
                f"{format_usd(minimum)}, so its last note was one too many"
            )
    for note, count in sorted(dealt.items()):
        if count > pile[note]:
            raise IllegalDealError(f"{count} notes of {format_usd(note)} dealt but the pile holds {pile[note]}")
    if short and sum(pile.values()) > sum(dealt.values()):
        raise IllegalDealError(
            f"casino {short} holds less than {format_usd(minimum)} although the pile still has notes"
        )
    n = len(state.players)
    tables = tuple(
        _casino(c.dice, c.biggies, c.neutral, tuple(sorted(notes, reverse=True)))
        for c, notes in zip(state.casinos, casinos, strict=True)
    )
    preroll = rules.neutral_preroll_for(n)
    return _state(
        state.ruleset, state.players, state.neutral, state.round,
        Phase.PREROLL if preroll else Phase.ROLL, -1 if preroll else state.start_seat,
        tables, state.held_dice, state.held_biggies, state.held_neutral, None, state.won,
        (*state.history, event),
    )  # fmt: skip


_FACE_SET = frozenset(range(1, 7))
_INT_TYPE = {int}


def _check_faces(values: Sequence[int], owner: object, kind: str) -> tuple[int, ...]:
    """The faces sorted, after checking each is an int from 1 to 6 (fast path first)."""
    if _FACE_SET.issuperset(values) and _INT_TYPE.issuperset(map(type, values)):
        return tuple(sorted(values))
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
    return _state(
        state.ruleset, state.players, state.neutral, state.round, Phase.ROLL, state.start_seat,
        tuple(tables), state.held_dice, state.held_biggies, state.held_neutral, None, state.won,
        (*state.history, event),
    )  # fmt: skip


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
    seat = _turn_seat(state, player, "")
    dice = _check_faces(event.dice, player, "die")
    biggies = _check_faces(event.biggies, player, "Biggy") if event.biggies else ()
    neutral = _check_faces(event.neutral, player, "neutral die") if event.neutral else ()
    held = (state.held_dice[seat], state.held_biggies[seat], state.held_neutral[seat])
    if (len(dice), len(biggies), len(neutral)) != held:
        for rolled, have, kind in zip((dice, biggies, neutral), held, ("dice", "Biggys", "neutral dice"), strict=True):
            if len(rolled) != have:
                raise IllegalRollError(
                    f"{player} rolled {len(rolled)} {kind} but holds {have}: every die still held must be rolled"
                )
    return _state(
        state.ruleset, state.players, state.neutral, state.round, Phase.PLACE, seat, state.casinos,
        state.held_dice, state.held_biggies, state.held_neutral, DiceRolled(player, dice, biggies, neutral),
        state.won, (*state.history, event),
    )  # fmt: skip


def _count_word(count: int, value: int) -> str:
    return f"a {value}" if count == 1 else f"{_WORDS.get(count, str(count))} {value}s"


def _place(state: GameState, event: DicePlaced) -> GameState:
    if state.phase is not Phase.PLACE:
        raise _wrong_phase(state, "placement")
    player = event.player
    seat = _turn_seat(state, player, " to place")
    value = event.casino
    if type(value) is not int or not 1 <= value <= 6:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise IllegalPlacementError(f"there is no casino {value!r}: casinos are numbered 1 to 6")
        value = int(value)  # a CasinoId
    placed = (event.dice, event.biggies, event.neutral)
    if not _INT_TYPE.issuperset(map(type, placed)) or min(placed) < 0:
        raise IllegalPlacementError(f"numbers of dice placed must be whole numbers >= 0, got {placed!r}")
    roll = state.roll
    assert roll is not None
    showing = (roll.dice.count(value), roll.biggies.count(value), roll.neutral.count(value))
    if placed != showing:
        _explain_placement(state, seat, value, placed, showing)
    c = state.casinos[value - 1]
    n_dice, n_biggies, n_neutral = placed
    if n_dice or n_biggies:
        dice = list(c.dice)
        dice[seat] += n_dice
        biggies = list(c.biggies)
        biggies[seat] += n_biggies
        c = _casino(tuple(dice), tuple(biggies), c.neutral + n_neutral, c.banknotes)
    else:
        c = _casino(c.dice, c.biggies, c.neutral + n_neutral, c.banknotes)
    tables = (*state.casinos[: value - 1], c, *state.casinos[value:])
    held_dice = _minus(state.held_dice, seat, n_dice)
    held_biggies = _minus(state.held_biggies, seat, n_biggies)
    held_neutral = _minus(state.held_neutral, seat, n_neutral)
    n = len(state.players)
    phase, turn = Phase.SETTLE, -1
    for step in range(1, n + 1):  # clockwise from the next player; players without dice are skipped
        s = (seat + step) % n
        if held_dice[s] or held_biggies[s] or held_neutral[s]:
            phase, turn = Phase.ROLL, s
            break
    return _state(
        state.ruleset, state.players, state.neutral, state.round, phase, turn, tables,
        held_dice, held_biggies, held_neutral, None, state.won, (*state.history, event),
    )  # fmt: skip


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
    held = (state.held_dice[seat], state.held_biggies[seat], state.held_neutral[seat])
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
    n = len(state.players)
    last = state.round >= rules.rounds
    return _state(
        rules, state.players, state.neutral, state.round if last else state.round + 1,
        Phase.OVER if last else Phase.DEAL, -1, (_empty_casino(n),) * rules.casinos,
        *_full_hands(rules, n),
        None, won, (*state.history, event),
    )  # fmt: skip


_HANDLERS: dict[type, Callable[[GameState, Any], GameState]] = {
    BanknotesDealt: _deal,
    NeutralDiceRolled: _neutral_preroll,
    DiceRolled: _roll,
    DicePlaced: _place,
    RoundScored: _score,
}


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
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise IllegalEventError(f"not an event: {event!r}")
    return handler(state, event)


def replay(state: GameState, events: Sequence[Event]) -> GameState:
    """Applies events in order.

    Raises:
        IllegalEventError: at the first illegal event, with its position in the message.
    """
    for index, event in enumerate(events):
        try:
            state = apply(state, event)
        except IllegalEventError as error:
            raise type(error)(f"event {index + 1}: {error}") from error
    return state


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
    return tuple(place_all(state, value) for value in values)


def preview(state: GameState) -> RoundPayout:
    """Who would receive which note if the round ended now (equal to the settlement at round end)."""
    neutral = () if state.neutral is None else (state.neutral,)
    return RoundPayout(tuple(_score_table(state, number, neutral) for number in range(1, state.ruleset.casinos + 1)))


def _score_table(state: GameState, number: int, neutral: tuple[Colour, ...]) -> CasinoPayout:
    return score_casino(CasinoId(number), state.counts(number), state.casinos[number - 1].banknotes, neutral)


def standings(state: GameState) -> tuple[Standing, ...]:
    """Players ranked by money won so far, then by number of banknotes (ties share a rank)."""
    return rank_standings(dict(zip(state.players, state.won, strict=True)))


def outcome(state: GameState) -> Outcome | None:
    """The result once the game is over, else None."""
    if state.phase is not Phase.OVER:
        return None
    return Outcome(Termination.ROUNDS_PLAYED, standings(state))
