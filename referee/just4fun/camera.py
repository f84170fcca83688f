"""Just 4 Fun seen from above: the game's side of the camera interpreter (:mod:`referee.interpret`).

The camera reads which colour's stone lies on each spot of the board (:class:`BoardReading`; a spot by each
seat's side, and the centre where a secured stack stands). It cannot see how high a stack is, so the board it
expects of a state (:meth:`JustForFunCamera.expected`) is per field one stone of each player who has any there,
the holder's in the centre once the field is secured; the interpreter counts placements, the rules count
stones. Its zones are the fields (1-36; zone 0, the dice games' tray, stays empty).

What the camera tells, and what the table enters on the page:

- **A stone on a spot where its player had none**, or a field secured (the others' stones gone, the stack in
  the centre), is a placement by the player to move on that field. Which of his cards he played is not on the
  board: the placement is said with the fewest cards of his hand that name the field
  (:func:`provisional`), and the table enters the cards played with his draw; they must add up to the
  field where the stone appeared, else the entry is refused with why (:func:`entered`).
- **A stone put on his own stack** changes nothing the camera sees: the cards played are entered on the
  page, and their sum is the field (the page applies the placement, the camera then checks the stone is there).
- **The cards drawn** are chance the camera does not read: the page asks for them (:meth:`waits_for`).
- **A hand thrown** (no legal play) follows from the rules (:meth:`forced`).

A stone where no legal play of the hand can put it (a field blocked, secured by another, no cards that make
it, another player's turn), a stone taken off, or stones left on a secured field, is an alert with the
rules' reason (:meth:`diagnose`).

Example:
    >>> from referee.just4fun import CardsDrawn, new_game, ruleset
    >>> from referee.types import Colour
    >>> state = new_game(ruleset(layout=range(1, 37)), ["red", "blue"])
    >>> state = apply(apply(state, CardsDrawn(Colour.RED, (1, 2, 5, 9))), CardsDrawn(Colour.BLUE, (3, 3, 7, 12)))
    >>> interpreter = board_interpreter(state)
    >>> [str(v) for v in interpreter.observe(BoardReading(1, 0.5, {(7, 0): Colour.RED}))]
    ['red plays 2 + 5 and places a stone on field 7']
    >>> interpreter.state.phase.value, JustForFunCamera.waits_for(interpreter.state)
    ('draw', 'red: enter the 2 cards drawn (and the cards played, if not 2 + 5)')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from referee.errors import IllegalEventError
from referee.interpret.decode import Candidate, Interpreter
from referee.interpret.model import ObservationModel
from referee.interpret.table import Expected, Reading, Table, zone_cost
from referee.just4fun.events import Event, HandDiscarded, StonePlaced
from referee.just4fun.rules import CENTRE
from referee.just4fun.state import (
    FIELDS,
    Phase,
    State,
    apply,
    cards_to_draw,
    legal_moves,
    legal_placements,
    narrate,
    refused,
)
from referee.readings import DieReading
from referee.types import Colour

__all__ = ["STONES_MODEL", "BoardReading", "JustForFunCamera", "board_interpreter", "entered", "provisional"]

STONES_MODEL = ObservationModel(
    pips=tuple(tuple(1.0 if i == j else 0.0 for j in range(6)) for i in range(6)),
    colour={}, colour_floor=0.001, biggy_hit=0.995, biggy_false=0.002, miss_tray=0.002, miss_casino=(0.002,),
    crowd_width=4, extra=0.002,
    source={"measured": "bench/bench_stones.py, seeds 100-123: 0 errors in 3,135 stones (144 pictures); the "
            "rates are about the rule of three's bound (3 / 3,135), so that one error is a few nats, not 30",
            "reader": "vision.stones.read_stones"},
)  # fmt: skip
"""The stones reader's errors as the interpreter weighs them (:class:`~referee.interpret.model.ObservationModel`
with a stone for a die: its colour; ``big`` the centre spot, a secured stack; no faces)."""


@dataclass(frozen=True)
class BoardReading:
    """The stones read at one moment: the colour on each (field, spot) a stone covers (spot 4: the centre)."""

    frame_index: int
    timestamp_s: float
    stones: Mapping[tuple[int, int], Colour] = field(default_factory=dict)

    def on(self, number: int) -> list[tuple[int, Colour]]:
        """The (spot, colour) read on field ``number``."""
        return sorted((spot, colour) for (n, spot), colour in self.stones.items() if n == number)


def provisional(state: State, number: int) -> StonePlaced | None:
    """The placement the camera says for a stone on field ``number``: the fewest cards that name it (None: none can).

    The cards played are not on the board; the table enters them when they were others (:func:`entered`).
    """
    moves = _by_field(state).get(number)
    return moves[0] if moves else None


def entered(before: State, cards: Sequence[int], seen: int | None = None) -> StonePlaced:
    """The placement the table entered on the page: the cards played by the player to move in ``before``.

    ``seen``: the field where the camera saw his stone (the placement it said with :func:`provisional`); the
    cards must add up to it. Without it (a stone on his own stack, which the camera does not see) their sum is
    the field.

    Raises:
        IllegalEventError: cards that do not make the field where the stone was seen, or that the rules refuse.
    """
    player = before.players[before.turn]
    cards = tuple(sorted(cards))
    if seen is not None and sum(cards) != seen:
        raise IllegalEventError(f"{player}'s stone lies on field {seen}, but the cards "
                                f"{' + '.join(map(str, cards))} make {sum(cards)}")  # fmt: skip
    event = StonePlaced(player, cards, sum(cards))
    apply(before, event)
    return event


def board_interpreter(state: State) -> Interpreter:
    """The camera interpreter for a Just 4 Fun game from ``state``, with the stones reader's errors.

    A stone gone from where it lay is not forgiven as a die hidden in a crowd is: the reader does not lose
    stones (:data:`STONES_MODEL`), a player took it off. The cards to enter are not said as questions: they are
    asked at every turn, and the page shows what it waits for.
    """
    return Interpreter(JustForFunCamera(), state, model=STONES_MODEL, prompts=False, hidden_forgiven=False)


class JustForFunCamera:
    """The Just 4 Fun :class:`~referee.interpret.decode.Game`; see the module's description."""

    def __init__(self) -> None:
        self.model = STONES_MODEL
        self._tables: dict[State, Table] = {}

    # --- the board ------------------------------------------------------------------------------

    @staticmethod
    def apply(state: State, event: Event) -> State:
        """:func:`referee.just4fun.state.apply`."""
        return apply(state, event)

    @staticmethod
    def reading(snapshot: BoardReading) -> Reading:
        """Per field (zone = its number) a stone read for each spot covered; ``big``: the centre."""
        zones: dict[int, list[DieReading]] = {number: [] for number in range(FIELDS + 1)}
        for (number, spot), colour in snapshot.stones.items():
            if 1 <= number <= FIELDS:
                zones[number].append(DieReading(colour, spot == CENTRE, 0))
        return zones

    def expected(self, state: State) -> Table:
        """Per field a stone per player there (a stack's height is not seen); the holder's in the centre."""
        table = self._tables.get(state)
        if table is None:
            if len(self._tables) > 20_000:
                self._tables.clear()
            table = self._tables[state] = _board(state)
        return table

    @staticmethod
    def key(state: State) -> Hashable:
        """The state (its history is not part of it)."""
        return state

    @staticmethod
    def canonical(event: Event) -> Hashable:
        """A placement as the camera knows it: who, and on which field (not the cards)."""
        if isinstance(event, StonePlaced):
            return ("placed", event.player, event.field)
        return event

    @staticmethod
    def unseen(state: State) -> Iterator[Candidate]:
        """None: a board is never cleared while a game goes on (see :meth:`cleared`)."""
        return iter(())

    @staticmethod
    def askable(event: Event) -> bool:
        """Every event: a stone placed, a card played, the table can tell."""
        return True

    @staticmethod
    def describe(event: Event, before: State) -> str:
        """:func:`referee.just4fun.state.narrate`."""
        return narrate(event, before)

    @staticmethod
    def forced(state: State) -> Event | None:
        """A hand thrown, when its player can place nowhere."""
        if state.phase is Phase.PLAY:
            moves = legal_moves(state)
            if len(moves) == 1 and isinstance(moves[0], HandDiscarded):
                return moves[0]
        return None

    @staticmethod
    def round_over(event: Event) -> bool:
        """Just 4 Fun is one round: the board is never cleared mid-game."""
        return False

    @staticmethod
    def cleared(reading: Reading) -> bool:
        """Never (see :meth:`round_over`)."""
        return False

    @staticmethod
    def needs_deal(state: State) -> bool:
        """No: the cards drawn are entered on the page (:meth:`waits_for`)."""
        return False

    @staticmethod
    def waits_for(state: State) -> str:
        """To enter: the cards drawn (and played, if not those said), in words; "" while the board is watched."""
        if state.phase not in (Phase.DEAL, Phase.DRAW):
            return ""
        player = state.players[state.turn]
        wanted = cards_to_draw(state)
        if state.phase is Phase.DEAL:
            return f"{player}: enter your first {wanted} cards"
        last = state.history[-1] if state.history else None
        if isinstance(last, StonePlaced):
            played = " + ".join(map(str, last.cards))
            return f"{player}: enter the {wanted} cards drawn (and the cards played, if not {played})"
        return f"{player}: enter the {wanted} cards drawn"

    @staticmethod
    def read_step(state: State, reading: Reading) -> None:
        """Nothing it waits for is read on the board: the cards are entered on the page."""
        return None

    # --- the candidates -------------------------------------------------------------------------

    def candidates(self, state: State, reading: Reading) -> Iterator[Candidate]:
        """A placement by the player to move on each field where it shows (a new spot, or a field secured)."""
        if state.phase is not Phase.PLAY:
            return
        before = self.expected(state)
        for number, moves in sorted(_by_field(state).items()):
            read = reading.get(number, ())
            if zone_cost(self.model, number, before[number], read) < 1.0:
                continue  # the field reads as it was: nothing new there (a stone on his own stack is not seen)
            move = moves[0]  # as provisional() says it
            after = self.expected(apply(state, move))
            if after[number] == before[number]:
                continue
            yield Candidate((move,), note="" if len(moves) == 1 else "the cards played are to be entered")

    # --- an alert's reason ----------------------------------------------------------------------

    @staticmethod
    def diagnose(state: State, snapshot: BoardReading) -> str:
        """Why the board fits no legal move, in a sentence for the table ("" when nothing is clearly wrong)."""
        players = {p.value: seat for seat, p in enumerate(state.players)}
        problems: list[str] = []
        for number in range(1, FIELDS + 1):
            seen = Counter(colour.value for _, colour in snapshot.on(number))
            stack, holder = state.stack(number), state.secured[number - 1]
            there = {state.players[s].value for s, n in enumerate(stack) if n}
            for colour in sorted(set(seen) - there):
                if colour not in players:
                    problems.append(f"a {colour} stone lies on field {number}, but {colour} does not play")
                elif holder >= 0:
                    problems.append(f"field {number} is secured by {state.players[holder]}: take the {colour} "
                                    "stone off")  # fmt: skip
                else:
                    problems.append(_why_not(state, players[colour], number))
            for colour in sorted(there - set(seen)):
                problems.append(f"{colour}'s stone on field {number} is gone: put it back")
        return "; ".join(p for p in problems if p)


def _why_not(state: State, seat: int, number: int) -> str:
    """Why a stone of ``seat`` cannot have been placed on field ``number`` now."""
    player = state.players[seat]
    if state.phase is not Phase.PLAY:
        return f"a {player} stone appeared on field {number}: enter the cards drawn first"
    if seat != state.turn:
        return f"a {player} stone appeared on field {number}, but it is {state.players[state.turn]}'s turn"
    why = refused(state, seat, number)
    if why:
        return f"{player}'s stone on field {number}: {why}"
    hand = state.hands[seat]
    return (f"{player}'s stone on field {number}: no cards of {player}'s hand "
            f"({' '.join(map(str, hand))}) make {number}")  # fmt: skip


def _by_field(state: State) -> dict[int, list[StonePlaced]]:
    """The legal placements by field, the fewest cards first (then the lowest)."""
    fields: dict[int, list[StonePlaced]] = {}
    for move in sorted(legal_placements(state), key=lambda m: (len(m.cards), m.cards)):
        fields.setdefault(move.field, []).append(move)
    return fields


def _board(state: State) -> Table:
    table: dict[int, tuple[Expected, ...]] = {0: ()}
    for number in range(1, FIELDS + 1):
        holder = state.secured[number - 1]
        table[number] = tuple(Expected(state.players[seat].value, seat == holder, 0)
                              for seat, count in enumerate(state.stack(number)) if count)  # fmt: skip
    return table
