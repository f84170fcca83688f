"""Random legal games from a seed: the only random number generator of the referee.

Used by the tests (invariants over thousands of games), by the benchmark, by ``dice-referee simulate``
and by the synthetic image renderer (realistic table states). Every game is reproducible from its seed.
"""

from __future__ import annotations

import collections
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from referee.errors import RefereeError
from referee.game import find_game
from referee.lasvegas.events import (
    BanknotesDealt,
    DicePlaced,
    DiceRolled,
    Event,
    NeutralDiceRolled,
    Passed,
    RoundScored,
)
from referee.lasvegas.hooks import extra_dice
from referee.lasvegas.rules import RuleSet
from referee.lasvegas.state import GameState, Phase, apply, legal_pass, legal_placements, outcome, place_all, preview
from referee.readings import DieReading, TableSnapshot
from referee.types import Colour

__all__ = [
    "DEFAULT_PLAYERS",
    "Dealer",
    "Moment",
    "SimulationReport",
    "default_players",
    "play",
    "random_game",
    "seeded_deal",
    "simulate",
    "table_moments",
    "virtual_deal",
]

#: Player colours used when only a count is given (white is kept for the neutral dice).
DEFAULT_PLAYERS: tuple[Colour, ...] = (
    Colour.RED, Colour.BLUE, Colour.GREEN, Colour.BLACK, Colour.YELLOW, Colour.GREY, Colour.VIOLET, Colour.ORANGE,
)  # fmt: skip

_FACES = (1, 2, 3, 4, 5, 6)

PASS_CHANCE = 0.15
"""How often a random player who may pass (Royale: pays a chip) does, instead of placing."""


def default_players(count: int) -> tuple[Colour, ...]:
    """The first ``count`` default player colours."""
    if not 1 <= count <= len(DEFAULT_PLAYERS):
        raise ValueError(f"between 1 and {len(DEFAULT_PLAYERS)} players, got {count}")
    return DEFAULT_PLAYERS[:count]


class Dealer:
    """The face-down pile of one game: shuffled once, notes not won go under it."""

    def __init__(self, ruleset: RuleSet, rng: random.Random) -> None:
        self.pile = ruleset.deck_notes()
        rng.shuffle(self.pile)
        # A game with its own dealt steps (Royale's tiles laid each round) draws them from a source of the
        # dealer's own, so a virtual deal from the same seed lays the same tiles as the game played.
        self.rng = random.Random(rng.random()) if ruleset.hooks.round_start is not None else rng
        """Where a dealt chance step draws from (Royale's tiles laid each round)."""
        self.draw = ruleset.hooks.draw

    def deal(self, casinos: int, minimum_usd: int) -> BanknotesDealt:
        """Deals each casino in turn from the top until it holds the minimum (or the pile is empty).

        A rule set whose hooks draw otherwise (:attr:`~referee.lasvegas.hooks.Hooks.draw`) deals its way.
        """
        if self.draw is not None:
            return BanknotesDealt(self.draw(self.pile, casinos))
        dealt = []
        for _ in range(casinos):
            notes: list[int] = []
            while sum(notes) < minimum_usd and self.pile:
                notes.append(self.pile.pop())
            dealt.append(tuple(notes))
        return BanknotesDealt(tuple(dealt))

    def put_under(self, notes: Sequence[int]) -> None:
        """Puts notes face down under the pile."""
        self.pile[:0] = notes


def virtual_deal(dealer: Dealer) -> Callable[[GameState], Any]:
    """Deals each round from a virtual pile (``referee.lasvegas.simulate.Dealer``), as the web page shows it.

    The notes nobody won in the previous round go under the pile first, as the rulebook says (the
    same order as :func:`referee.lasvegas.simulate.play`, so a seed deals the same game).
    """
    returned: Counter[int] = Counter()

    def deal(state: GameState) -> Any:
        pending = state.pending
        if pending is not None and pending.dealt:  # a game's own dealt step (Royale's tiles, its bank)
            return pending.handler.chance(state, dealer)
        left = Counter(n for e in state.history if isinstance(e, BanknotesDealt) for notes in e.casinos for n in notes)
        left -= Counter(note for notes in state.won for note in notes)
        left -= returned
        returned.update(left)
        dealer.put_under(sorted(left.elements(), reverse=True))
        return dealer.deal(state.ruleset.casinos, state.ruleset.minimum_usd_for(len(state.players)))

    return deal


def seeded_deal(initial: GameState, seed: int, history: Sequence[Event] = ()) -> Callable[[GameState], Any]:
    """:func:`virtual_deal` from ``Dealer(rules, random.Random(seed))``, advanced past a game's history.

    ``seed`` deals what :func:`referee.lasvegas.simulate.play` with that seed deals. After a restart the pile
    must be where it was: every deal already in ``history`` is dealt again (and the leftovers put under
    the pile) while the history is replayed from ``initial``.
    """
    deal = virtual_deal(Dealer(initial.ruleset, random.Random(seed)))
    state = initial
    for event in history:
        if isinstance(event, BanknotesDealt) or (state.pending is not None and state.pending.dealt):
            deal(state)
        state = apply(state, event)
    return deal


def _roll(state: GameState, rng: random.Random) -> DiceRolled:
    seat = state.turn
    random_ = rng.random
    biggies, neutral = state.held_biggies[seat], state.held_neutral[seat]
    return DiceRolled(
        state.players[seat],
        tuple([int(random_() * 6) + 1 for _ in range(state.held_dice[seat])]),
        tuple([int(random_() * 6) + 1 for _ in range(biggies)]) if biggies else (),
        tuple([int(random_() * 6) + 1 for _ in range(neutral)]) if neutral else (),
    )


def play(ruleset: RuleSet, players: Sequence[Colour | str], seed: int | random.Random,
         neutral: Colour | None = None, dealer: Dealer | None = None,
         ) -> Iterator[tuple[Event | None, GameState]]:  # fmt: skip
    """Plays one random legal game, yielding ``(event, state)`` after every event.

    The first item is ``(None, initial state)``. Rolls are uniform; the player to place picks one of
    the rolled values uniformly (where the rules allow a pass he can pay, he passes instead with
    :data:`PASS_CHANCE`). Deals follow the rulebook with a pile shuffled once per game.

    Args:
        ruleset: the rules.
        players: colours in seat order.
        seed: an int seed or a ``random.Random`` to draw from.
        neutral: the neutral colour when the rule set has neutral dice (None: the game's default,
            Las Vegas's white, Royale's first colour nobody plays).
        dealer: the pile to deal from (made from ``seed`` when not given); callers pass their own to
            inspect it.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    game = find_game(ruleset.game)
    state = game.new_game(ruleset, players) if neutral is None else game.new_game(ruleset, players, neutral=neutral)
    dealer = dealer or Dealer(ruleset, rng)
    minimum = ruleset.minimum_usd_for(len(state.players))
    pass_cost = ruleset.hooks.pass_cost
    yield None, state
    while True:
        phase = state.phase
        event: Event
        pending = state.pending
        if pending is not None:  # a tile's roll or decision, the round's tiles (Royale's main game)
            choices = pending.handler.choices(state)
            # A roll (the black dice) comes from the game's own source, the tiles laid from the dealer's: a
            # virtual deal from the same seed then lays the same tiles in every round, whatever was rolled.
            source = dealer if pending.dealt else SimpleNamespace(rng=rng)
            event = rng.choice(choices) if choices else pending.handler.chance(state, source)
        elif phase is Phase.ROLL:
            event = _roll(state, rng)
        elif phase is Phase.PLACE:
            roll = state.roll
            assert roll is not None
            # rng.choice, not a cheaper draw: a seed must keep dealing the same game (benchmarks name seeds).
            faces = roll.dice if not (roll.biggies or roll.neutral) else (*roll.dice, *roll.biggies, *roll.neutral)
            passed = legal_pass(state) if pass_cost else None  # Las Vegas has no pass: its seeds draw as before
            pass_now = passed is not None and rng.random() < PASS_CHANCE
            if state.tiles:  # a tile may forbid a casino (No Entry): choose among the legal placements
                moves = legal_placements(state)
                pass_now = pass_now or not moves
                faces = tuple(move.casino for move in moves)
            event = passed if pass_now and passed is not None else place_all(state, rng.choice(faces))
        elif phase is Phase.DEAL:
            event = dealer.deal(ruleset.casinos, minimum)
        elif phase is Phase.PREROLL:
            event = NeutralDiceRolled(tuple(rng.choices(_FACES, k=ruleset.neutral_preroll_for(len(players)))))
        elif phase is Phase.SETTLE:
            event = RoundScored()
            before = state
            state = apply(state, event)
            # Notes that were on the table and were not won go back under the pile.
            if before.bank:  # a tile may have paid from the bank: the settlement's own list of what went back
                dealer.put_under(sorted(preview(before).returned(), reverse=True))
            else:  # the notes won are the table's (one preview a round is already the settlement's)
                left = Counter(note for casino in before.casinos for note in casino.banknotes)
                left.subtract(n for old, new in zip(before.won, state.won, strict=True) for n in new[len(old) :])
                dealer.put_under(sorted(left.elements(), reverse=True))
            yield event, state
            continue
        else:
            return
        state = apply(state, event)
        yield event, state


def random_game(ruleset: RuleSet, players: Sequence[Colour | str], seed: int | random.Random) -> GameState:
    """Plays one random legal game to the end and returns the final state (with its history)."""
    last = collections.deque(play(ruleset, players, seed), maxlen=1)  # no list of every state
    return last[0][1]


@dataclass(frozen=True)
class Moment:
    """The physical table at one moment of a simulated game, as a camera would read it once still."""

    what: str
    """``start``, ``rolled``, ``placed``, ``picked-up``, ``neutral-rolled``, ``settled`` or ``cleared``."""
    snapshot: TableSnapshot
    """Every die on the table, with the tracker's identity of each (same id: same die, unmoved)."""
    event: Event | None
    """The game event that led here (None for ``start``, ``picked-up`` and ``cleared``)."""
    state: GameState
    """The game state after it."""


def table_moments(ruleset: RuleSet, players: Sequence[Colour | str], seed: int, neutral: Colour | None = None,
                  pick_up: bool = True) -> Iterator[Moment]:  # fmt: skip
    """The table of a random legal game (:func:`play`), moment by moment: the truth a camera should read.

    Unlike a :class:`GameState`, the table keeps what the rules do not: the dice a player leaves in the
    tray after placing (until he picks them up to roll again) and the placed dice after the settlement
    (until the casinos are cleared). Snapshots are numbered 1, 2, ... one second apart.

    Args:
        ruleset: the rules.
        players: colours in seat order.
        seed: as for :func:`play` (so the deals match ``Dealer(ruleset, random.Random(seed))``).
        neutral: the neutral colour when the rule set has neutral dice (None: the game's default,
            Las Vegas's white, Royale's first colour nobody plays).
        pick_up: show the tray emptied before each roll (else the leftovers stay until the roll lands).
    """
    ids = iter(range(1, 1 << 30))
    casinos: list[list[DieReading]] = [[] for _ in range(ruleset.casinos)]
    tray: list[DieReading] = []
    extra_ids: set[int] = set()
    """Tracks of the dice in the tray no player owns (a step's roll: Royale's black dice)."""
    count = 0

    def moment(what: str, event: Event | None, state: GameState) -> Moment:
        nonlocal count
        count += 1
        snapshot = TableSnapshot(count, float(count), tuple(tuple(c) for c in casinos), tuple(tray))
        return Moment(what, snapshot, event, state)

    for event, state in play(ruleset, players, seed, neutral):
        rolled_extra = getattr(event, "tray_colour", None)  # dice no player owns, rolled in the tray for a step
        if tray and any(d.track in extra_ids for d in tray):  # taken away at the next move
            tray[:] = [d for d in tray if d.track not in extra_ids]
        if rolled_extra is not None:
            dice = [DieReading(rolled_extra, False, v, track=next(ids)) for v in event.values]  # type: ignore[union-attr]
            extra_ids = {d.track for d in dice}
            tray += dice
            yield moment("rolled-extra", event, state)
            if _follow(casinos, state, ids):  # a tile moved dice with it
                yield moment("moved", event, state)
            continue
        if event is None:
            neutral = state.neutral
            yield moment("start", None, state)
        elif isinstance(event, NeutralDiceRolled):
            assert neutral is not None
            for value in event.values:
                casinos[value - 1].append(DieReading(neutral, False, value, track=next(ids)))
            yield moment("neutral-rolled", event, state)
        elif isinstance(event, DiceRolled):
            if tray and pick_up:
                tray.clear()
                yield moment("picked-up", None, state)
            tray[:] = [
                DieReading(event.player, big, v, track=next(ids))
                for big, values in ((False, event.dice), (True, event.biggies))
                for v in values
            ]
            tray += [DieReading(neutral, False, v, track=next(ids)) for v in event.neutral] if neutral else []
            yield moment("rolled", event, state)
        elif isinstance(event, Passed):  # the player takes his dice back from the tray
            tray.clear()
            yield moment("passed", event, state)
        elif isinstance(event, DicePlaced):
            moved = [d for d in tray if d.pips == event.casino]
            tray[:] = [d for d in tray if d.pips != event.casino]
            casinos[event.casino - 1] += [DieReading(d.colour, d.big, d.pips, track=next(ids)) for d in moved]
            yield moment("placed", event, state)
        elif isinstance(event, RoundScored):
            yield moment("settled", event, state)
            for casino in casinos:
                casino.clear()
            tray.clear()
            yield moment("cleared", None, state)
        elif not isinstance(event, BanknotesDealt) and _follow(casinos, state, ids):  # a tile moved dice
            yield moment("moved", event, state)


def _follow(casinos: list[list[DieReading]], state: GameState, ids: Iterator[int]) -> bool:
    """Makes the table's casinos hold the dice ``state`` says (a tile moved some or put its own); True if any moved.

    The table knows dice by colour and size only (a black player's dice and Prime Time's black dice look
    alike): a colour's count on a casino is its players' dice plus the tiles' (:func:`extra_dice`). Dice
    leave a casino newest first; a die that arrives shows the casino's number.
    """
    moved = False
    extras = extra_dice(state)
    for number, (dice, casino) in enumerate(zip(casinos, state.casinos, strict=True), start=1):
        wanted: Counter[tuple[Colour, bool]] = Counter()
        for seat, player in enumerate(state.players):
            wanted[player, False] += casino.dice[seat]
            wanted[player, True] += casino.biggies[seat]
        if state.neutral is not None:
            wanted[state.neutral, False] += casino.neutral
        for where, colour, count in extras:
            wanted[colour, False] += count if where == number else 0
        for (colour, big), count in wanted.items():
            mine = [d for d in dice if d.colour is colour and d.big is big]
            for extra in mine[count:][::-1]:
                dice.remove(extra)
                moved = True
            for _ in range(count - len(mine)):
                dice.append(DieReading(colour, big, number, track=next(ids)))
                moved = True
    return moved


@dataclass
class SimulationReport:
    """What :func:`simulate` measured and checked."""

    ruleset: str
    players: list[str]
    games: int
    seed: int
    events: int = 0
    turns: int = 0
    rounds: int = 0
    seconds: float = 0.0
    checks: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    wins: Counter[str] = field(default_factory=Counter)

    @property
    def ok(self) -> bool:
        """True when every invariant held in every game."""
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        """The JSON summary printed by ``dice-referee simulate``."""
        names: tuple[str, ...] = ("money_conserved", "every_die_placed_once_per_round", "preview_equals_settlement",
                 "cancelled_receive_nothing", "rounds_match_ruleset", "legal_play_accepted")  # fmt: skip
        if "resources_never_negative" in self.checks:  # only games with resources (Royale's chips) check it
            names = (*names, "resources_never_negative")
        failed = {f.split(":", 1)[0] for f in self.failures}
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "events": self.events,
            "turns": self.turns,
            "rounds": self.rounds,
            "seconds": round(self.seconds, 4),
            "games_per_s": round(self.games / self.seconds, 1) if self.seconds else None,
            "us_per_turn": round(1e6 * self.seconds / self.turns, 2) if self.turns else None,
            "invariants": {name: name not in failed for name in names},
            "checks": {name: self.checks[name] for name in names},
            "ok": self.ok,
            "failures": self.failures[:20],
            "wins": dict(sorted(self.wins.items())),
        }


def simulate(ruleset: RuleSet, players: Sequence[Colour | str], games: int, seed: int) -> SimulationReport:
    """Plays ``games`` random games and checks the referee's invariants after every round.

    Game ``i`` uses the seed ``random.Random(seed)``'s ``i``-th 64-bit draw, reported with any failure
    so that the game can be replayed alone.

    Invariants: money is conserved (after every settlement the engine's pile, derived from the deck
    less the notes won, holds exactly the notes of the physical pile kept by the dealer, and every
    note dealt was paid or returned), every die is placed exactly once per round,
    the payout preview equals the settlement, cancelled owners receive nothing, the game lasts the
    rule set's rounds, the engine accepts every event of these legal games, and no player's resources
    (Royale's chips) go below zero.
    """
    report = SimulationReport(ruleset.name, [str(p) for p in players], games, seed)
    master = random.Random(seed)
    started = time.perf_counter()
    for _ in range(games):
        game_seed = master.getrandbits(64)
        _check_game(ruleset, players, game_seed, report)
    report.seconds = time.perf_counter() - started
    return report


def _check_game(ruleset: RuleSet, players: Sequence[Colour | str], game_seed: int,
                report: SimulationReport) -> None:  # fmt: skip
    rng = random.Random(game_seed)
    dealer = Dealer(ruleset, rng)
    tag = f"(game seed {game_seed})"
    report.checks["legal_play_accepted"] += 1
    try:
        _play_checked(ruleset, players, rng, dealer, tag, report)
    except RefereeError as error:  # the engine refused an event of a legal random game
        report.failures.append(f"legal_play_accepted: {error} {tag}")


def _play_checked(ruleset: RuleSet, players: Sequence[Colour | str], rng: random.Random, dealer: Dealer, tag: str,
                  report: SimulationReport) -> None:  # fmt: skip
    placed: Counter[str] = Counter()
    unsigned = [name not in ruleset.hooks.signed_resources for name, _ in ruleset.hooks.resources]
    state: GameState | None = None
    previous: GameState | None = None
    for event, state in play(ruleset, players, rng, dealer=dealer):
        report.events += 1
        if state.resources:  # Royale's chips: a pass is refused rather than paid on credit
            report.checks["resources_never_negative"] += 1
            if any(count < 0 for held in state.resources for count, kept in zip(held, unsigned, strict=True) if kept):
                report.failures.append(f"resources_never_negative: {state.resources} after {event} {tag}")
        if isinstance(event, DiceRolled):
            report.turns += 1
        elif isinstance(event, DicePlaced):
            placed.update({"dice": event.dice, "biggies": event.biggies, "neutral": event.neutral})
        elif isinstance(event, NeutralDiceRolled):
            placed["neutral"] += len(event.values)
        elif isinstance(event, RoundScored):
            assert previous is not None
            report.rounds += 1
            _check_round(previous, state, placed, Counter(dealer.pile), tag, report)
            placed.clear()
        previous = state
    assert state is not None
    report.checks["rounds_match_ruleset"] += 1
    if state.round != ruleset.rounds or state.phase is not Phase.OVER:
        report.failures.append(f"rounds_match_ruleset: ended in round {state.round} {tag}")
    result = outcome(state)
    if result is not None:
        for winner in result.winners:
            report.wins[str(winner)] += 1


def _check_round(before: GameState, after: GameState, placed: Counter[str], pile: Counter[int], tag: str,
                 report: SimulationReport) -> None:  # fmt: skip
    rules = before.ruleset
    n = len(before.players)
    expected = {"dice": rules.dice_per_player * n, "biggies": rules.biggies_per_player * n,
                "neutral": rules.neutral_total_for(n)}  # fmt: skip
    aside = sum(sum(laid.tile.aside(before, i)) for i, laid in enumerate(before.tiles))  # a tile's bar, side bet
    on_casinos = {
        "dice": sum(sum(c.dice) for c in before.casinos) + aside,
        "biggies": sum(sum(c.biggies) for c in before.casinos),
        "neutral": sum(c.neutral for c in before.casinos),
    }
    report.checks["every_die_placed_once_per_round"] += 1
    # With tiles that hand dice back (a bar, a move) a die may be placed twice: then every die must end placed.
    if before.tiles:
        placed = Counter(on_casinos)
    if any(placed[k] != expected[k] or on_casinos[k] != expected[k] for k in expected):
        report.failures.append(f"every_die_placed_once_per_round: placed {dict(placed)}, on casinos "
                               f"{on_casinos}, expected {expected} {tag}")  # fmt: skip

    payout = preview(before)
    gained = {p: sum(a) - sum(b) for p, a, b in zip(before.players, after.won, before.won, strict=True)}
    report.checks["preview_equals_settlement"] += 1
    if {p: v for p, v in gained.items() if v} != payout.totals():
        report.failures.append(f"preview_equals_settlement: preview {payout.totals()} settled {gained} {tag}")

    report.checks["cancelled_receive_nothing"] += 1
    for casino in payout.casinos:
        paid = {p.owner for p in casino.paid if not p.source}  # a tile's reward (``source``) is not for the rank
        if paid & set(casino.cancelled):
            report.failures.append(f"cancelled_receive_nothing: casino {casino.casino} {tag}")

    report.checks["money_conserved"] += 1
    held = sum(pile.elements()) + sum(map(sum, after.won)) + sum(after.bank)  # the bank: Royale's main game
    if +after.pile() != pile or held != sum(rules.deck_notes()):
        report.failures.append(f"money_conserved: round {before.round}: pile {sorted(pile.elements())} "
                               f"but the engine's is {sorted(after.pile().elements())} {tag}")  # fmt: skip
    dealt = sum(len(c.banknotes) for c in before.casinos)
    paid_count = sum(1 for c in payout.casinos for p in c.paid if not p.source)
    if dealt != paid_count + len(payout.returned()):
        report.failures.append(f"money_conserved: {dealt} notes dealt, {paid_count} paid, "
                               f"{len(payout.returned())} returned {tag}")  # fmt: skip
