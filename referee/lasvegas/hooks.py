"""Where a casino dice game behaves differently from Las Vegas: the engine's extension points.

Numbers are data (:class:`~referee.lasvegas.rules.RuleSet`); behaviour that differs is a hook
here, each a small function or object with Las Vegas's behaviour as the default. A relative of the
game (Las Vegas Royale: pairs of money cards, chips to pass, casino tiles, a start player chosen by
casino 6) is a rule set whose :class:`Hooks` replace some of these, with no change to the engine:

- :attr:`Hooks.deal`: which notes a deal may give each casino (Las Vegas: up to the minimum bank);
- :attr:`Hooks.next_start`: who starts the next round (Las Vegas: the start card passes left);
- :attr:`Hooks.pay`: how many notes a casino pays, to whom (Las Vegas: every note, by rank);
- :attr:`Hooks.rank`: the final standings and their tie-break (Las Vegas: money, then notes);
- :attr:`Hooks.resources` and :attr:`Hooks.pass_cost`: per-player resources (chips), what a
  :class:`~referee.lasvegas.events.Passed` move costs (Las Vegas: none, no pass);
- casino tiles (:class:`CasinoTile`, laid each round in :attr:`GameState.tiles`) that act when dice
  are placed on their casino, before it pays out and at the end of a round, and :class:`Pending`
  steps for their rolls and decisions; :attr:`Hooks.round_start` lays them (Las Vegas: none);
- :attr:`Hooks.draw`: how the random dealer draws a deal from the pile (Royale: six pairs, ordered by
  their totals), matching what :attr:`Hooks.deal` accepts.

Dice owned by nobody are the other extension point, in the types: Las Vegas's neutral dice are a
colour no player may use; a game whose extra dice share a colour with a player (Royale's black and
grey dice beside black and grey players) names them with :class:`~referee.types.Ownerless`, which
settlement ranks like any owner and never pays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from referee.errors import IllegalDealError
from referee.lasvegas.scoring import CasinoPayout, Standing, rank_standings, score_casino
from referee.types import CasinoId, Colour, format_usd

if TYPE_CHECKING:
    from referee.lasvegas.events import BanknotesDealt, DicePlaced
    from referee.lasvegas.state import GameState

__all__ = [
    "LAS_VEGAS_HOOKS",
    "CasinoTile",
    "Hooks",
    "LaidTile",
    "Pending",
    "StepHandler",
    "ask",
    "check_in_pile",
    "check_minimum_bank",
    "extra_dice",
    "money_then_notes",
    "notes_dealt",
    "pass_left",
    "resolved",
]


def notes_dealt(state: GameState, event: BanknotesDealt, what: str = "banknote", gives: str = "notes") -> Counter[int]:
    """The notes a deal gives, counted, after checking it names notes of the game for every casino.

    ``what`` names a note in the messages and ``gives`` what each casino gets (Royale: ``"money card"``,
    ``"a pair of money cards"``).

    Raises:
        IllegalDealError: for a deal that is not one list of notes per casino, or a value the deck lacks.
    """
    rules = state.ruleset
    casinos = event.casinos
    if not isinstance(casinos, tuple | list) or len(casinos) != rules.casinos:
        raise IllegalDealError(f"a deal gives {gives} to each of the {rules.casinos} casinos")
    denominations = rules.deck_counts()
    dealt: Counter[int] = Counter()
    for number, notes in enumerate(casinos, start=1):
        for note in notes:
            if isinstance(note, bool) or note not in denominations:
                values = ", ".join(format_usd(v) for v in sorted(denominations))
                raise IllegalDealError(f"casino {number}: {note!r} is not a {what} of this game ({values})")
        dealt.update(notes)
    return dealt


def check_in_pile(pile: Counter[int], dealt: Counter[int], what: str = "notes") -> None:
    """Raises IllegalDealError when a deal gives more notes of a value than the face-down ``pile`` holds."""
    for note, count in sorted(dealt.items()):
        if count > pile[note]:
            raise IllegalDealError(f"{count} {what} of {format_usd(note)} dealt but the pile holds {pile[note]}")


def check_minimum_bank(state: GameState, event: BanknotesDealt) -> None:
    """Las Vegas's deal: each casino in turn gets notes until it holds the minimum bank.

    Raises:
        IllegalDealError: for a note that is not in the pile, a casino dealt past the minimum, or
            one left short while the pile still has notes.
    """
    rules = state.ruleset
    dealt = notes_dealt(state, event)
    minimum = rules.minimum_usd_for(len(state.players))
    short = 0
    for number, notes in enumerate(event.casinos, start=1):
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
    pile = state.pile()
    check_in_pile(pile, dealt)
    if short and sum(pile.values()) > sum(dealt.values()):
        raise IllegalDealError(
            f"casino {short} holds less than {format_usd(minimum)} although the pile still has notes"
        )


def pass_left(state: GameState) -> int:
    """Las Vegas's next start player: the start card passes to the left (the next seat)."""
    return (state.start + 1) % len(state.players)


def money_then_notes(state: GameState) -> tuple[Standing, ...]:
    """Las Vegas's standings: most money first; equal money, most notes; equal on both shares a rank."""
    return rank_standings(dict(zip(state.players, state.won, strict=True)))


class CasinoTile(Protocol):
    """A tile laid beside one casino for a round that changes what happens there (Royale's tiles).

    Which tiles lie where this round is part of the state (:attr:`GameState.tiles`, a
    :class:`LaidTile` each, with the tile's own memory of the round); the tile object itself holds
    only its rules and options. The engine calls each hook at its moment with the tile's index in
    ``state.tiles``; a hook returns its input unchanged when it has nothing to do. A tile that needs a
    roll, a decision or hidden information sets :attr:`GameState.pending` (a :class:`Pending` whose
    handler is the tile) and gets it as an event.
    """

    id: ClassVar[str]
    """Its code, e.g. ``"A2"``."""
    name: ClassVar[str]
    """Its name, e.g. ``"Jackpot"``."""

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        """After dice are placed on its casino (the state already holds them)."""
        ...

    def before_payout(self, state: GameState, index: int, payout: CasinoPayout) -> CasinoPayout:
        """Before each casino pays out, its own or another (and in every preview): ``payout.casino`` says which."""
        ...

    def on_turn(self, state: GameState, index: int) -> GameState:
        """When a player's turn starts (``Phase.ROLL``) or every die is placed (``Phase.SETTLE``)."""
        ...

    def refuses(self, state: GameState, index: int, casino: int) -> str:
        """Why no dice may be placed on ``casino`` now ("" when they may): Royale's No Entry."""
        ...

    def aside(self, state: GameState, index: int) -> tuple[int, ...]:
        """Dice per seat it keeps off the casinos this round (a bar, a side bet, reward spaces)."""
        ...

    def at_round_end(self, settled: GameState, index: int, after: GameState) -> GameState:
        """After the round is settled (``settled``: the table before; returns ``after`` changed)."""
        ...

    def lying(self, state: GameState, index: int) -> tuple[tuple[int, Colour, int], ...]:
        """Dice it has put on the casinos that no seat's count holds: ``(casino, colour, count)`` each.

        Royale's grey dice; Prime Time's black dice, which count for a player only in the payout.
        """
        ...

    def status(self, state: GameState, index: int) -> str:
        """What it would do now, in words (for the page)."""
        ...


class StepHandler(Protocol):
    """What handles a :class:`Pending` step: a tile, or a game's own setup step."""

    def step(self, state: GameState, event: Any) -> GameState:
        """Applies the event the step waits for (already checked to be of an accepted type)."""
        ...

    def choices(self, state: GameState) -> tuple[Any, ...]:
        """The legal decisions of the step's actor (empty for a chance step)."""
        ...

    def chance(self, state: GameState, draw: Any) -> Any:
        """A random event for a chance step: ``draw`` is the random dealer (its ``rng`` and ``pile``)."""
        ...


@dataclass(frozen=True, slots=True)
class Pending:
    """A step the rules put before play goes on: lay the round's tiles, a tile's roll or decision.

    While one is pending, :func:`~referee.lasvegas.state.apply` accepts only its events and
    :func:`~referee.lasvegas.state.next_actor` names its actor.
    """

    actor: Any
    """The player to decide (a colour), or ``Turn.CHANCE`` for a roll or a draw."""
    accepts: tuple[type, ...]
    """The event types the step accepts."""
    what: str
    """What is awaited, in words (``"roll the 2 black dice for the Jackpot by casino 1"``)."""
    handler: StepHandler
    """Who applies the event."""
    data: tuple[Any, ...] = ()
    """What the step remembers (a roll so far, the guess to make)."""
    then: Pending | None = None
    """The step that waits after this one (steps queue: a tile's decision, then the next round's tiles)."""
    dealt: bool = False
    """A chance step the dealer draws like the banknotes (Royale's tiles laid, its bank), not one the table
    rolls or decides: a virtual deal draws it, a manual one asks for it."""
    rolled: tuple[Colour, int] | None = None
    """A chance step the table rolls in the tray with dice no player owns: their colour and how many (Royale's
    2 black dice). A camera reads it: the event is ``accepts[0]`` made from the faces read, sorted."""


def ask(state: GameState, step: Pending) -> GameState:
    """``state`` with ``step`` queued after any step already pending."""
    if state.pending is None:
        return state.evolve(pending=step)

    def queued(pending: Pending) -> Pending:
        return replace(pending, then=step if pending.then is None else queued(pending.then))

    return state.evolve(pending=queued(state.pending))


def resolved(state: GameState, event: Any, then: Pending | None = None, **changes: Any) -> GameState:
    """The state after the pending step took ``event``: ``then`` (a follow-up step) or the next queued one.

    ``changes`` are fields of the state to change with it (``resources=...``).
    """
    assert state.pending is not None
    queued = state.pending.then
    pending = queued if then is None else replace(then, then=queued)
    return state.evolve(pending=pending, log=(state.log, event), **changes)


def extra_dice(state: GameState) -> tuple[tuple[int, Colour, int], ...]:
    """Dice on the casinos that no seat's count holds, put there by the tiles: ``(casino, colour, count)``.

    A camera sees them like any die (Royale's grey dice on casinos; Prime Time's black dice): the table
    it expects holds them. Las Vegas: none.
    """
    return tuple(lie for index, laid in enumerate(state.tiles) for lie in laid.tile.lying(state, index))


@dataclass(frozen=True, slots=True)
class LaidTile:
    """A casino tile lying beside a casino this round, with its memory of the round."""

    casino: int
    """The casino it lies beside."""
    tile: CasinoTile
    """The tile (its rules and options)."""
    memo: Any = None
    """Its state this round (a counter, the holder of its token), as the tile defines it."""


PayRule = Callable[[CasinoId, Mapping[Any, int], Sequence[int], Collection[Any]], CasinoPayout]


@dataclass(frozen=True, slots=True)
class Hooks:
    """The behaviour of a casino dice game where it may differ from Las Vegas (see the module)."""

    deal: Callable[[GameState, BanknotesDealt], None] = check_minimum_bank
    """Checks a deal against the rules (raises ``IllegalDealError``)."""
    next_start: Callable[[GameState], int] = pass_left
    """The seat that starts the next round, from the state at settlement (before the payout)."""
    pay: PayRule = score_casino
    """Settles one casino: ``(casino, counts, notes, ownerless owners) -> CasinoPayout``."""
    rank: Callable[[GameState], tuple[Standing, ...]] = money_then_notes
    """The standings (running or final), with the game's tie-break."""
    resources: tuple[tuple[str, int], ...] = ()
    """Per-player resources and how many each player has at the start (Royale: chips)."""
    signed_resources: tuple[str, ...] = ()
    """Resources that may go below zero (Royale's ``dollars``: a fine is a debt)."""
    resource_usd: tuple[tuple[str, int], ...] = ()
    """What one of each resource is worth in the final money (Royale: a chip, $10,000)."""
    resources_per_round: tuple[tuple[str, int], ...] = ()
    """How many of each resource every player gets at the start of each later round."""
    pass_cost: tuple[tuple[str, int], ...] | None = None
    """What a pass (keep the dice, place nothing) costs; None: the game has no pass."""
    extra_colours: tuple[Colour, ...] = ()
    """Colours of dice no player owns that tiles put on the casinos (:func:`extra_dice`; Royale's grey
    dice, Prime Time's black ones): a camera reads them too."""
    round_start: Callable[[GameState], GameState] | None = None
    """What the rules ask at the start of every round, before the deal (Royale's main game: lay the
    tiles, a :class:`Pending` chance step); None: nothing."""
    draw: Callable[[list[int], int], tuple[tuple[int, ...], ...]] | None = None
    """How a dealer draws a deal from the top (the end) of the face-down pile, which it shortens:
    ``(pile, casinos) -> notes per casino``; None: Las Vegas's, each casino up to the minimum bank."""


LAS_VEGAS_HOOKS = Hooks()
"""Las Vegas's behaviour: the default of every rule set."""
