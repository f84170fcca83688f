"""Royale's casino tiles, each a small object on the engine's tile hooks (:class:`~referee.lasvegas.hooks.CasinoTile`).

Source: the summary's table (``shared/rules/las-vegas-royale.md``, "Main game (tiles)"); the seed
rulebook omits the effects. A tile acts each time dice are placed on its casino ("activation"),
before its casino pays out, or at the end of the round. Rolls of the 2 black dice and the decisions
a tile needs are :class:`~referee.lasvegas.hooks.Pending` steps the page asks for, recorded as
events (:mod:`referee.royale.events`). Money a tile pays comes from the bank (the cards lying face
up, :attr:`GameState.bank`): a card of the value, else (impl., :data:`BANK_SHORT`) the highest
card below it, else nothing. Where the summary marks an effect "(impl.)", its numbers are fields of
the tile (a named option with the summary's default).

All 16 sides are built (:data:`TILES`). Tiles that move dice keep them in their memory (a bar, a
side bet, reward spaces, grey dice) and say so through :meth:`Tile.aside` and the payouts.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.errors import IllegalEventError
from referee.game import CHANCE
from referee.lasvegas.events import DicePlaced
from referee.lasvegas.hooks import LaidTile, Pending, ask, resolved
from referee.lasvegas.narrate import amount_of
from referee.lasvegas.scoring import CasinoPayout, Payment
from referee.lasvegas.state import GameState, preview
from referee.royale.events import BlackDiceRolled, TileChoice
from referee.royale.rules import worth
from referee.types import Colour, Ownerless, format_usd

__all__ = [
    "BANK_SHORT",
    "TILES",
    "BlackBox",
    "FiftyFifty",
    "HighFive",
    "Jackpot",
    "LuckyPunch",
    "MyChoice",
    "PayDay",
    "Reward",
    "Tile",
    "bank_note",
]

BANK_SHORT = "highest card below"
"""What a tile pays when the bank has no card of the value (impl.): the highest card below it, else nothing."""

Reward = tuple[str, int]
"""A reward: ``("chips", 2)`` or ``("usd", 30_000)`` (a card of that value from the bank)."""


def bank_note(bank: tuple[int, ...], usd: int) -> int | None:
    """The card the bank pays for ``usd``: one of that value, else the highest below it, else None."""
    lower = [note for note in bank if note <= usd]
    return max(lower) if lower else None


def _without(notes: tuple[int, ...], note: int) -> tuple[int, ...]:
    index = notes.index(note)
    return notes[:index] + notes[index + 1 :]


def reward_changes(state: GameState, seat: int, reward: Reward) -> dict[str, Any]:
    """The state's fields after a player gets ``reward`` (chips, or a card from the bank)."""
    kind, amount = reward
    if kind != "usd":
        return {"resources": state.plus_resources(seat, [(kind, amount)])}
    note = bank_note(state.bank, amount)
    if note is None:
        return {}
    won = (*state.won[:seat], (*state.won[seat], note), *state.won[seat + 1 :])
    return {"won": won, "bank": _without(state.bank, note)}


def reward_text(reward: Reward) -> str:
    kind, amount = reward
    return format_usd(amount) if kind == "usd" else amount_of(amount, kind)


def _with_memo(state: GameState, index: int, memo: Any) -> tuple[LaidTile, ...]:
    laid = state.tiles[index]
    return (*state.tiles[:index], LaidTile(laid.casino, laid.tile, memo), *state.tiles[index + 1 :])


def _dice_of(state: GameState, seat: int, casino: int) -> int:
    """A player's dice at a casino, a Biggy counted as the rule set says."""
    return state.casinos[casino - 1].weighted(seat, state.ruleset.biggy_weight)


def _check_choice(state: GameState, event: TileChoice, allowed: tuple[TileChoice, ...]) -> None:
    if event not in allowed:
        assert state.pending is not None
        options = ", ".join(f"{c.choice} {c.amount}" if c.amount else c.choice for c in allowed)
        raise IllegalEventError(f"{state.pending.what}: {event.player} {event.choice} {event.amount} is not "
                                f"allowed (allowed: {options})")  # fmt: skip


def _check_black_dice(event: BlackDiceRolled) -> tuple[int, int]:
    values = event.values
    if len(values) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6 for v in values):
        raise IllegalEventError(f"the 2 black dice show two faces 1 to 6, not {values!r}")
    low, high = sorted(values)  # the two dice look alike: no order (Prime Time adds "the 4", not "the first")
    return low, high


@dataclass(frozen=True, slots=True)
class Tile:
    """What every tile does unless it says otherwise: nothing (see :class:`CasinoTile`)."""

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    effect: ClassVar[str] = ""
    """The effect in one sentence, as the page shows it."""

    def valid_memo(self, memo: Any, players: int) -> bool:
        """Whether ``memo`` is a memory this tile could have (notation checks what it reads)."""
        start = self.start_memo()
        if isinstance(start, tuple):
            return isinstance(memo, tuple) and len(memo) == len(start)
        return memo is None or isinstance(memo, int)

    def start_memo(self) -> int | tuple[int, ...] | None:
        """Its memory when laid (a counter, a holder's seat), None when it keeps nothing."""
        return None

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        return state

    def before_payout(self, state: GameState, index: int, payout: CasinoPayout) -> CasinoPayout:
        return payout

    def on_turn(self, state: GameState, index: int) -> GameState:
        return state

    def refuses(self, state: GameState, index: int, casino: int) -> str:
        return ""

    def aside(self, state: GameState, index: int) -> tuple[int, ...]:
        return ()

    def at_round_end(self, settled: GameState, index: int, after: GameState) -> GameState:
        return after

    def lying(self, state: GameState, index: int) -> tuple[tuple[int, Colour, int], ...]:
        return ()

    def step(self, state: GameState, event: Any) -> GameState:
        raise IllegalEventError(f"the {self.name} tile waits for nothing")

    def choices(self, state: GameState) -> tuple[Any, ...]:
        return ()

    def chance(self, state: GameState, draw: Any) -> Any:
        rng = draw.rng
        return BlackDiceRolled((rng.randint(1, 6), rng.randint(1, 6)))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        """The step ``data`` describes (``(tile index, step name, ...)``): notation rebuilds steps with it."""
        raise IllegalEventError(f"the {self.name} tile has no step {data[1:2]!r}")

    def status(self, state: GameState, index: int) -> str:
        """What it would do now, for the page."""
        return self.effect

    def _roll(self, state: GameState, data: tuple[Any, ...], why: str = "") -> Pending:
        casino = state.tiles[data[0]].casino
        what = f"roll the 2 black dice for {self.name} by casino {casino}{why}"
        return Pending(CHANCE, (BlackDiceRolled,), what, self, data, rolled=(Colour.BLACK, 2))

    def _ask(self, state: GameState, data: tuple[Any, ...], seat: int, what: str) -> Pending:
        casino = state.tiles[data[0]].casino
        return Pending(state.players[seat], (TileChoice,), f"{self.name} by casino {casino}: {what}", self, data)


@dataclass(frozen=True, slots=True)
class LuckyPunch(Tile):
    """A1: the player hides 1-3 tokens in a fist; his left neighbour guesses; a wrong guess pays him."""

    id: ClassVar[str] = "A1"
    name: ClassVar[str] = "Lucky Punch"
    effect: ClassVar[str] = "hide 1-3 tokens; the left neighbour guesses how many; a wrong guess pays you"
    rewards: tuple[Reward, Reward, Reward] = (("chips", 2), ("usd", 30_000), ("usd", 40_000))
    """What 1, 2 or 3 tokens pay when the guess is wrong (summary: 2 chips, $30k, $40k)."""

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        return ask(state, self.pending(state, (index, "guess", state.players.index(event.player))))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        _, step, seat, *guess = data
        player = state.players[seat]
        if step == "guess":
            neighbour = (seat + 1) % len(state.players)
            what = f"{state.players[neighbour]} guesses how many tokens {player} holds (1-3)"
            return self._ask(state, data, neighbour, what)
        if step == "reveal":
            return self._ask(state, data, seat, f"{player} opens his fist: how many tokens (guessed {guess[0]})?")
        return Tile.pending(self, state, data)

    def choices(self, state: GameState) -> tuple[TileChoice, ...]:
        assert state.pending is not None
        return tuple(TileChoice(state.pending.actor, state.pending.data[1], n) for n in (1, 2, 3))

    def step(self, state: GameState, event: Any) -> GameState:
        assert state.pending is not None
        _check_choice(state, event, self.choices(state))
        index, step, seat, *guess = state.pending.data
        if step == "guess":
            return resolved(state, event, then=self.pending(state, (index, "reveal", seat, event.amount)))
        if event.amount == guess[0]:
            return resolved(state, event)
        return resolved(state, event, **reward_changes(state, seat, self.rewards[event.amount - 1]))


@dataclass(frozen=True, slots=True)
class Jackpot(Tile):
    """A2: roll the 2 black dice; a double or a sum of 7 wins the jackpot, else it grows a step."""

    id: ClassVar[str] = "A2"
    name: ClassVar[str] = "Jackpot"
    effect: ClassVar[str] = "roll the 2 black dice: a double or a sum of 7 wins the jackpot, else it grows"
    start_usd: int = 30_000
    step_usd: int = 10_000
    cap_usd: int = 80_000

    def start_memo(self) -> int:
        return self.start_usd

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        return ask(state, self.pending(state, (index, "roll", state.players.index(event.player))))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        index, step, seat = data
        if step != "roll":
            return Tile.pending(self, state, data)
        jackpot = state.tiles[index].memo
        return self._roll(state, data, f" ({state.players[seat]} wins {format_usd(jackpot)} with a double or 7)")

    def step(self, state: GameState, event: Any) -> GameState:
        assert state.pending is not None
        index, _, seat = state.pending.data
        a, b = _check_black_dice(event)
        jackpot = state.tiles[index].memo
        if a == b or a + b == 7:
            changes = reward_changes(state, seat, ("usd", jackpot))
            return resolved(state, event, tiles=_with_memo(state, index, self.start_usd), **changes)
        return resolved(state, event, tiles=_with_memo(state, index, min(jackpot + self.step_usd, self.cap_usd)))

    def status(self, state: GameState, index: int) -> str:
        return f"jackpot {format_usd(state.tiles[index].memo)}: a double or a sum of 7 on the 2 black dice wins it"


@dataclass(frozen=True, slots=True)
class FiftyFifty(Tile):
    """B2: roll the 2 black dice, then stop and take the reward, or bet higher or lower on the next sum."""

    id: ClassVar[str] = "B2"
    name: ClassVar[str] = "Fifty Fifty"
    effect: ClassVar[str] = "roll the 2 black dice; stop for the reward or bet higher/lower for a bigger one"
    ladder: tuple[Reward, ...] = (("chips", 1), ("usd", 30_000), ("usd", 40_000), ("usd", 60_000))
    """The rewards under the counter, climbing with each bet won (summary, impl.)."""

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        return ask(state, self.pending(state, (index, "roll", state.players.index(event.player), 0, 0, "")))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        _, step, seat, level, total, *bet = data
        if step == "roll":
            return self._roll(state, data, f" ({state.players[seat]} bet {bet[0]} than {total})" if bet[0] else "")
        if step == "decide":
            what = (
                f"the black dice show {total}: stop and take {reward_text(self.ladder[level])}, or bet higher or lower"
            )
            return self._ask(state, data, seat, what)
        return Tile.pending(self, state, data)

    def choices(self, state: GameState) -> tuple[TileChoice, ...]:
        assert state.pending is not None
        if state.pending.data[1] == "roll":
            return ()
        _, _, seat, level, total = state.pending.data
        player = state.players[seat]
        options = [TileChoice(player, "stop")]
        if level + 1 < len(self.ladder):
            options += [TileChoice(player, "higher")] if total < 12 else []
            options += [TileChoice(player, "lower")] if total > 2 else []
        return tuple(options)

    def step(self, state: GameState, event: Any) -> GameState:
        assert state.pending is not None
        index, step, seat, level, total, *bet = state.pending.data
        if step == "decide":
            _check_choice(state, event, self.choices(state))
            if event.choice == "stop":
                return resolved(state, event, **reward_changes(state, seat, self.ladder[level]))
            return resolved(state, event, then=self.pending(state, (index, "roll", seat, level, total, event.choice)))
        a, b = _check_black_dice(event)
        if not bet[0]:
            return resolved(state, event, then=self.pending(state, (index, "decide", seat, 0, a + b)))
        if (bet[0] == "higher" and a + b > total) or (bet[0] == "lower" and a + b < total):
            if level + 2 == len(self.ladder):  # the top reward: nothing left to bet for
                return resolved(state, event, **reward_changes(state, seat, self.ladder[-1]))
            return resolved(state, event, then=self.pending(state, (index, "decide", seat, level + 1, a + b)))
        return resolved(state, event)  # lost (or the same sum): nothing


@dataclass(frozen=True, slots=True)
class HighFive(Tile):
    """C1: the first player with 5 dice here takes the token for good; it pays $100,000 at payout."""

    id: ClassVar[str] = "C1"
    name: ClassVar[str] = "High Five"
    effect: ClassVar[str] = "the first with 5 dice here (a Biggy counts 2) takes the token: $100,000 at payout"
    dice: int = 5
    usd: int = 100_000

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        laid = state.tiles[index]
        seat = state.players.index(event.player)
        if laid.memo is None and _dice_of(state, seat, laid.casino) >= self.dice:
            return state.evolve(tiles=_with_memo(state, index, seat))
        return state

    def before_payout(self, state: GameState, index: int, payout: CasinoPayout) -> CasinoPayout:
        holder = state.tiles[index].memo
        if payout.casino != state.tiles[index].casino:
            return payout
        note = bank_note(state.bank, self.usd) if holder is not None else None
        if note is None:
            return payout
        player = state.players[holder]
        token = Payment(player, dict(payout.counts).get(player, 0), note, source="the High Five token, from the bank")
        return CasinoPayout(payout.casino, payout.counts, payout.ties, (*payout.ranking, token), payout.returned)

    def status(self, state: GameState, index: int) -> str:
        holder = state.tiles[index].memo
        if holder is None:
            return f"free: the first with {self.dice} dice here takes it ({format_usd(self.usd)} at payout)"
        return f"held by {state.players[holder]}: {format_usd(self.usd)} at payout"


@dataclass(frozen=True, slots=True)
class PayDay(Tile):
    """D1: count the casinos holding your dice: 1 or 2 pay that many chips, 3 to 6 pay $30k to $60k."""

    id: ClassVar[str] = "D1"
    name: ClassVar[str] = "Pay Day"
    effect: ClassVar[str] = "casinos with your dice: 1-2 pay that many chips, 3-6 pay $30k-$60k"
    rewards: tuple[Reward, ...] = (("chips", 1), ("chips", 2), ("usd", 30_000), ("usd", 40_000), ("usd", 50_000),
                                   ("usd", 60_000))  # fmt: skip
    """The reward for 1..6 casinos (summary, impl.)."""

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        seat = state.players.index(event.player)
        casinos = sum(1 for c in state.casinos if c.dice[seat] or c.biggies[seat])
        return state.evolve(**reward_changes(state, seat, self.rewards[casinos - 1]))


BLACK_BOX_TOKENS = (60_000, 20_000, 20_000, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class BlackBox(Tile):
    """G1: at payout the winner's left neighbour splits 6 hidden tokens in two piles; the winner picks one."""

    id: ClassVar[str] = "G1"
    name: ClassVar[str] = "Black Box"
    effect: ClassVar[str] = "at payout the left neighbour splits 6 tokens in two piles; the winner picks one"
    tokens: tuple[int, ...] = BLACK_BOX_TOKENS
    """The face-down tokens (summary, impl.: $60k, $20k, $20k and three blanks), kept as ``dollars``, not cards."""
    splits: tuple[int, ...] = (3, 4, 5)
    """The sizes of the first pile allowed (3+3, 4+2, 5+1)."""

    def at_round_end(self, settled: GameState, index: int, after: GameState) -> GameState:
        casino = preview(settled).casinos[settled.tiles[index].casino - 1]
        if not casino.paid:
            return after
        winner = settled.players.index(casino.paid[0].owner)
        # The round's tiles are gone from ``after``: the step names the tile by its code, not its index.
        return ask(after, self.pending(after, (self.id, "split", winner, settled.tiles[index].casino)))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        _, step, winner, casino, *size = data
        player = state.players[winner]
        prefix = f"{self.name} by casino {casino}: "
        if step == "split":
            neighbour = (winner + 1) % len(state.players)
            what = f"{state.players[neighbour]} splits the 6 tokens for {player} (a first pile of 3, 4 or 5)"
            return Pending(state.players[neighbour], (TileChoice,), prefix + what, self, data)
        if step == "pick":
            what = f"{player} picks the pile of {size[0]} or of {len(self.tokens) - size[0]}: how much is in it?"
            return Pending(player, (TileChoice,), prefix + what, self, data)
        return Tile.pending(self, state, data)

    def choices(self, state: GameState) -> tuple[TileChoice, ...]:
        assert state.pending is not None
        _, step, _, _, *size = state.pending.data
        player = state.pending.actor
        if step == "split":
            return tuple(TileChoice(player, "split", n) for n in self.splits)
        sums = {sum(c) for n in (size[0], len(self.tokens) - size[0]) for c in itertools.combinations(self.tokens, n)}
        return tuple(TileChoice(player, "pick", usd) for usd in sorted(sums))

    def step(self, state: GameState, event: Any) -> GameState:
        assert state.pending is not None
        _check_choice(state, event, self.choices(state))
        index, step, winner, casino, *_ = state.pending.data
        if step == "split":
            return resolved(state, event, then=self.pending(state, (index, "pick", winner, casino, event.amount)))
        return resolved(state, event, **reward_changes(state, winner, ("dollars", event.amount)))

    def chance(self, state: GameState, draw: Any) -> Any:
        raise IllegalEventError("Black Box waits for a player's decision, not for chance")


@dataclass(frozen=True, slots=True)
class MyChoice(Tile):
    """H2: roll the 2 black dice and pick one: its face names the reward."""

    id: ClassVar[str] = "H2"
    name: ClassVar[str] = "My Choice"
    effect: ClassVar[str] = (
        "roll the 2 black dice and pick one face: 1 chip, 2 chips, $30k, another tile, move a die, $60k"
    )
    rewards: tuple[Reward, ...] = (("chips", 1), ("chips", 2), ("usd", 30_000))
    """What faces 1, 2 and 3 pay (summary, impl.); 4 activates another tile, 5 moves one of your dice,
    6 occupies the golden space ($60,000 from the bank, once a round)."""
    golden_usd: int = 60_000

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        return ask(state, self.pending(state, (index, "roll", state.players.index(event.player))))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        _, step, seat, *faces = data
        player = state.players[seat]
        if step == "roll":
            return self._roll(state, data, f" ({player} picks one)")
        if step == "pick":
            return self._ask(state, data, seat, f"{player} picks one of {faces[0]} and {faces[1]}")
        if step in ("activate", "move"):
            what = (
                "which other tile to activate (its casino)" if step == "activate" else "which die to move (from*10+to)"
            )
            return self._ask(state, data, seat, f"{player} chooses {what}")
        return Tile.pending(self, state, data)

    def _options(self, state: GameState, index: int, seat: int, face: int) -> tuple[int, ...]:
        """What a face allows now: casinos of other tiles (4), moves ``from*10+to`` (5); else ``(0,)`` or ``()``."""
        if face == 4:
            return tuple(laid.casino for i, laid in enumerate(state.tiles) if i != index and laid.tile.id != self.id)
        if face == 5:
            return tuple(10 * a + b for a in range(1, 7) for b in range(1, 7)
                         if a != b and state.casinos[a - 1].dice[seat])  # fmt: skip
        if face == 6:
            return (0,) if state.tiles[index].memo is None and bank_note(state.bank, self.golden_usd) else ()
        return (0,)

    def choices(self, state: GameState) -> tuple[TileChoice, ...]:
        assert state.pending is not None
        index, step, seat, *rest = state.pending.data
        player = state.players[seat]
        if step == "roll":
            return ()
        if step == "pick":
            faces = sorted(set(rest))
            return tuple(TileChoice(player, "pick", f) for f in faces if self._options(state, index, seat, f))
        face = 4 if step == "activate" else 5
        return tuple(TileChoice(player, step, option) for option in self._options(state, index, seat, face))

    def step(self, state: GameState, event: Any) -> GameState:
        assert state.pending is not None
        index, step, seat, *_ = state.pending.data
        if step == "roll":
            a, b = _check_black_dice(event)
            after = resolved(state, event, then=self.pending(state, (index, "pick", seat, a, b)))
            return after if self.choices(after) else resolved(state, event)  # neither face allows anything now
        _check_choice(state, event, self.choices(state))
        player = state.players[seat]
        if step == "pick":
            face = event.amount
            if face <= len(self.rewards):
                return resolved(state, event, **reward_changes(state, seat, self.rewards[face - 1]))
            if face == 6:
                changes = reward_changes(state, seat, ("usd", self.golden_usd))
                return resolved(state, event, tiles=_with_memo(state, index, seat), **changes)
            return resolved(state, event, then=self.pending(state, (index, "activate" if face == 4 else "move", seat)))
        if step == "activate":
            target = next(i for i, laid in enumerate(state.tiles) if laid.casino == event.amount)
            after = resolved(state, event)
            return state.tiles[target].tile.on_placed(after, target, DicePlaced(player, event.amount, 0))
        source, target = divmod(event.amount, 10)
        casinos = list(state.casinos)
        for number, change in ((source, -1), (target, 1)):
            c = casinos[number - 1]
            dice = (*c.dice[:seat], c.dice[seat] + change, *c.dice[seat + 1 :])
            casinos[number - 1] = type(c)(dice, c.biggies, c.neutral, c.banknotes)
        return resolved(state, event, casinos=tuple(casinos))

    def status(self, state: GameState, index: int) -> str:
        holder = state.tiles[index].memo
        golden = "free" if holder is None else f"taken by {state.players[holder]}"
        return f"{self.effect} (golden space {golden})"


GREY = Ownerless("extra", Colour.GREY)
"""The grey extra dice (Block It, Handicap): one imaginary player in ranking and ties, never paid."""


def _grey_lying(per_casino: tuple[int, ...]) -> tuple[tuple[int, Colour, int], ...]:
    """The grey dice on casinos 1 to 6 as :meth:`Tile.lying` gives them."""
    return tuple((casino, GREY.colour, count) for casino, count in enumerate(per_casino, start=1) if count)


def _recounted(state: GameState, payout: CasinoPayout, extra: dict[Any, int]) -> CasinoPayout:
    """``payout`` settled again with ``extra`` dice per owner added (black dice of a player, grey dice).

    Payments tiles added before (their ``source`` says why) are kept.
    """
    counts: dict[Any, int] = dict(payout.counts)
    for owner, count in extra.items():
        if count:
            counts[owner] = counts.get(owner, 0) + count
    ownerless = tuple(o for o in counts if isinstance(o, Ownerless))
    neutral = (*(() if state.neutral is None else (state.neutral,)), *ownerless)
    notes = state.casinos[int(payout.casino) - 1].banknotes
    again = state.ruleset.hooks.pay(payout.casino, counts, notes, neutral)
    kept = tuple(p for p in payout.ranking if p.source)
    return CasinoPayout(again.casino, again.counts, again.ties, (*again.ranking, *kept), again.returned)


def _refusal(state: GameState, casino: int) -> str:
    """Why no die may be added to or removed from ``casino`` now (No Entry), or ""."""
    return next((r for i, t in enumerate(state.tiles) if (r := t.tile.refuses(state, i, casino))), "")


def _plus(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return (*values[:index], values[index] + amount, *values[index + 1 :])


def _with_dice(state: GameState, seat: int, casino: int, change: int) -> tuple[Any, ...]:
    """The casinos with ``change`` normal dice of ``seat`` added at ``casino`` (negative: taken away)."""
    c = state.casinos[casino - 1]
    moved = type(c)(_plus(c.dice, seat, change), c.biggies, c.neutral, c.banknotes)
    return (*state.casinos[: casino - 1], moved, *state.casinos[casino:])


@dataclass(frozen=True, slots=True)
class PrimeTime(Tile):
    """B1: before payout, the player about to win here rolls the 2 black dice and may add 0, 1 or 2 of them.

    The black dice lie on the casinos of their numbers and count as his dice in the payout. The memory
    is ``seat * 100 + first * 10 + second`` (the faces added, 0 for none).
    """

    id: ClassVar[str] = "B1"
    name: ClassVar[str] = "Prime Time"
    effect: ClassVar[str] = "before payout the winner here rolls the 2 black dice and may add them as his own"

    def on_turn(self, state: GameState, index: int) -> GameState:
        from referee.lasvegas.state import Phase

        laid = state.tiles[index]
        if state.phase is not Phase.SETTLE or laid.memo is not None:
            return state
        paid = preview(state).casinos[laid.casino - 1].paid
        if not paid:
            return state
        seat = state.players.index(paid[0].owner)
        state = state.evolve(tiles=_with_memo(state, index, seat * 100))
        return ask(state, self.pending(state, (index, "roll", seat)))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        _, step, seat, *faces = data
        if step == "roll":
            return self._roll(state, data, f" ({state.players[seat]} may add them as his dice)")
        if step == "add":
            what = f"{state.players[seat]} adds none, the {faces[0]}, the {faces[1]} or both to their casinos"
            return self._ask(state, data, seat, what)
        return Tile.pending(self, state, data)

    def choices(self, state: GameState) -> tuple[TileChoice, ...]:
        assert state.pending is not None
        _, step, seat, *faces = state.pending.data
        if step != "add":
            return ()
        options = (0, 1, 3) if faces[0] == faces[1] else (0, 1, 2, 3)
        return tuple(TileChoice(state.players[seat], "add", k) for k in options)

    def step(self, state: GameState, event: Any) -> GameState:
        assert state.pending is not None
        index, step, seat, *faces = state.pending.data
        if step == "roll":
            a, b = _check_black_dice(event)
            return resolved(state, event, then=self.pending(state, (index, "add", seat, a, b)))
        _check_choice(state, event, self.choices(state))
        first = faces[0] if event.amount in (1, 3) else 0
        second = faces[1] if event.amount in (2, 3) else 0
        return resolved(state, event, tiles=_with_memo(state, index, seat * 100 + first * 10 + second))

    def before_payout(self, state: GameState, index: int, payout: CasinoPayout) -> CasinoPayout:
        memo = state.tiles[index].memo
        if memo is None:
            return payout
        seat, faces = divmod(memo, 100)
        added = sum(1 for face in divmod(faces, 10) if face == int(payout.casino))
        return _recounted(state, payout, {state.players[seat]: added}) if added else payout

    def lying(self, state: GameState, index: int) -> tuple[tuple[int, Colour, int], ...]:
        """The black dice added lie on the casinos of their numbers."""
        memo = state.tiles[index].memo
        faces = divmod(memo % 100, 10) if memo is not None else ()
        return tuple((face, Colour.BLACK, 1) for face in faces if face)


@dataclass(frozen=True, slots=True)
class BadLuck(Tile):
    """C2: at round end every player with the fewest dice here (none counts) pays $50,000, after payouts.

    (impl.) The fine is kept as a debt in ``dollars``; chips and cards count towards it, so nobody ends
    below zero.
    """

    id: ClassVar[str] = "C2"
    name: ClassVar[str] = "Bad Luck"
    effect: ClassVar[str] = "at round end the fewest dice here (none counts; a Biggy 2) pay $50,000"
    fine_usd: int = 50_000

    def _fewest(self, state: GameState, index: int) -> list[int]:
        casino = state.tiles[index].casino
        counts = [_dice_of(state, seat, casino) for seat in range(len(state.players))]
        return [seat for seat, count in enumerate(counts) if count == min(counts)]

    def at_round_end(self, settled: GameState, index: int, after: GameState) -> GameState:
        for seat in self._fewest(settled, index):
            fine = min(self.fine_usd, max(worth(after, seat), 0))
            after = after.evolve(resources=after.plus_resources(seat, [("dollars", -fine)]))
        return after

    def status(self, state: GameState, index: int) -> str:
        who = ", ".join(str(state.players[s]) for s in self._fewest(state, index))
        return f"{who} would pay {format_usd(self.fine_usd)} (fewest dice here)"


@dataclass(frozen=True, slots=True)
class PowerPlay(Tile):
    """D2: the sole leader here holds the token; before rolling he may place one die on any casino.

    The die placed activates that casino's tile; the token returns as soon as the sole lead is lost.
    """

    id: ClassVar[str] = "D2"
    name: ClassVar[str] = "Power Play"
    effect: ClassVar[str] = "the sole leader here may, before rolling, place one die on any casino"

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        casino = state.tiles[index].casino
        counts = [_dice_of(state, seat, casino) for seat in range(len(state.players))]
        top = max(counts)
        leader = counts.index(top) if top and counts.count(top) == 1 else None
        return state.evolve(tiles=_with_memo(state, index, leader))

    def on_turn(self, state: GameState, index: int) -> GameState:
        from referee.lasvegas.state import Phase

        holder = state.tiles[index].memo
        if state.phase is not Phase.ROLL or holder != state.turn or not state.held_dice[holder]:
            return state
        return ask(state, self.pending(state, (index, "power", holder)))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        player = state.players[data[2]]
        return self._ask(state, data, data[2], f"{player} may place one die on any casino before rolling (0: no)")

    def choices(self, state: GameState) -> tuple[TileChoice, ...]:
        assert state.pending is not None
        player = state.pending.actor
        return tuple(TileChoice(player, "power", c) for c in range(7) if not c or not _refusal(state, c))

    def step(self, state: GameState, event: Any) -> GameState:
        from referee.lasvegas.state import advance

        assert state.pending is not None
        _check_choice(state, event, self.choices(state))
        seat = state.pending.data[2]
        if not event.amount:
            return resolved(state, event)
        casino = event.amount
        after = resolved(state, event, casinos=_with_dice(state, seat, casino, 1),
                         held_dice=_plus(state.held_dice, seat, -1))  # fmt: skip
        for target, laid in enumerate(after.tiles):
            if laid.casino == casino:
                after = laid.tile.on_placed(after, target, DicePlaced(event.player, casino, 1))
        if not (after.held_dice[seat] or after.held_biggies[seat] or after.held_neutral[seat]):
            return advance(after, seat)  # his last die: the turn passes on
        return after

    def status(self, state: GameState, index: int) -> str:
        holder = state.tiles[index].memo
        return f"token with {state.players[holder]}" if holder is not None else "token free: nobody leads alone"


@dataclass(frozen=True, slots=True)
class NoEntry(Tile):
    """E1: on activation block another casino (no dice added or removed there); each move pays the track.

    The memory is ``blocked casino * 100 + moves``; the track's spaces pay in turn (impl.): 2 chips,
    nothing, $30k, nothing, 1 chip, nothing, then again.
    """

    id: ClassVar[str] = "E1"
    name: ClassVar[str] = "No Entry!"
    effect: ClassVar[str] = "block another casino: no dice may be added or removed there; moving it pays"
    track: tuple[Reward | None, ...] = (("chips", 2), None, ("usd", 30_000), None, ("chips", 1), None)

    def refuses(self, state: GameState, index: int, casino: int) -> str:
        memo = state.tiles[index].memo
        if memo is not None and memo // 100 == casino:
            return f"casino {casino} is blocked by No Entry!: no dice may be added or removed there"
        return ""

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        return ask(state, self.pending(state, (index, "block", state.players.index(event.player))))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        return self._ask(state, data, data[2], f"{state.players[data[2]]} moves the block onto another casino")

    def choices(self, state: GameState) -> tuple[TileChoice, ...]:
        assert state.pending is not None
        laid = state.tiles[state.pending.data[0]]
        blocked = laid.memo // 100 if laid.memo is not None else 0
        player = state.pending.actor
        return tuple(TileChoice(player, "block", c) for c in range(1, 7) if c not in (laid.casino, blocked))

    def step(self, state: GameState, event: Any) -> GameState:
        assert state.pending is not None
        _check_choice(state, event, self.choices(state))
        index, _, seat = state.pending.data
        moves = state.tiles[index].memo % 100 if state.tiles[index].memo is not None else 0
        reward = self.track[moves % len(self.track)]
        changes = reward_changes(state, seat, reward) if reward is not None else {}
        return resolved(state, event, tiles=_with_memo(state, index, event.amount * 100 + moves + 1), **changes)

    def status(self, state: GameState, index: int) -> str:
        memo = state.tiles[index].memo
        if memo is None:
            return "no casino blocked yet"
        reward = self.track[(memo % 100) % len(self.track)]
        return f"casino {memo // 100} blocked; the next move pays {reward_text(reward) if reward else 'nothing'}"


@dataclass(frozen=True, slots=True)
class Knockout(Tile):
    """E2: a bar: take your dice back from it; every other player with fewer than 2 there puts one in.

    The bar lies beside the casino; dice in it do not score. (impl.) Only normal dice go to the bar.
    The memory is the dice in the bar per seat.
    """

    id: ClassVar[str] = "E2"
    name: ClassVar[str] = "Knockout?"
    effect: ClassVar[str] = "take your dice back from the bar; the others with fewer than 2 there put one in"
    bar_size: int = 2

    def valid_memo(self, memo: Any, players: int) -> bool:
        return memo is None or (isinstance(memo, tuple) and len(memo) == players and min(memo) >= 0)

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        seat = state.players.index(event.player)
        bar = list(state.tiles[index].memo or (0,) * len(state.players))
        held = list(state.held_dice)
        held[seat] += bar[seat]
        bar[seat] = 0
        for other in range(len(state.players)):
            if other != seat and bar[other] < self.bar_size and held[other]:
                held[other] -= 1
                bar[other] += 1
        return state.evolve(held_dice=tuple(held), tiles=_with_memo(state, index, tuple(bar)))

    def aside(self, state: GameState, index: int) -> tuple[int, ...]:
        memo: tuple[int, ...] = state.tiles[index].memo or ()
        return memo

    def status(self, state: GameState, index: int) -> str:
        bar = state.tiles[index].memo or ()
        inside = ", ".join(f"{state.players[s]} {n}" for s, n in enumerate(bar) if n)
        return f"bar: {inside or 'empty'}"


@dataclass(frozen=True, slots=True)
class BlockIt(Tile):
    """F1: on activation put an unused group of grey dice (groups of 1, 1, 2, 2, 3) on any casino.

    The grey dice rank as one imaginary player. The memory is the groups left of sizes 1, 2 and 3,
    then the grey dice on casinos 1 to 6.
    """

    id: ClassVar[str] = "F1"
    name: ClassVar[str] = "Block It!"
    effect: ClassVar[str] = "put a group of grey dice (1, 1, 2, 2, 3) on any casino: they rank as a player"
    groups: tuple[int, int, int] = (2, 2, 1)
    """How many groups of 1, 2 and 3 grey dice there are (summary: 1, 1, 2, 2, 3)."""

    def start_memo(self) -> tuple[int, ...]:
        return (*self.groups, 0, 0, 0, 0, 0, 0)

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        if not any(state.tiles[index].memo[:3]):
            return state
        return ask(state, self.pending(state, (index, "block", state.players.index(event.player))))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        what = f"{state.players[data[2]]} puts a group of grey dice on a casino (size * 10 + casino)"
        return self._ask(state, data, data[2], what)

    def choices(self, state: GameState) -> tuple[TileChoice, ...]:
        assert state.pending is not None
        memo = state.tiles[state.pending.data[0]].memo
        return tuple(TileChoice(state.pending.actor, "grey", size * 10 + casino) for size in (1, 2, 3)
                     if memo[size - 1] for casino in range(1, 7) if not _refusal(state, casino))  # fmt: skip

    def step(self, state: GameState, event: Any) -> GameState:
        assert state.pending is not None
        _check_choice(state, event, self.choices(state))
        index = state.pending.data[0]
        size, casino = divmod(event.amount, 10)
        memo = _plus(_plus(state.tiles[index].memo, size - 1, -1), 2 + casino, size)
        return resolved(state, event, tiles=_with_memo(state, index, memo))

    def before_payout(self, state: GameState, index: int, payout: CasinoPayout) -> CasinoPayout:
        grey = state.tiles[index].memo[2 + int(payout.casino)]
        return _recounted(state, payout, {GREY: grey}) if grey else payout

    def lying(self, state: GameState, index: int) -> tuple[tuple[int, Colour, int], ...]:
        return _grey_lying(state.tiles[index].memo[3:9])

    def status(self, state: GameState, index: int) -> str:
        memo = state.tiles[index].memo
        lying = ", ".join(f"{n} on casino {c}" for c, n in enumerate(memo[3:], start=1) if n)
        return f"grey dice: {lying or 'none laid'}; groups left: {memo[0]}x1, {memo[1]}x2, {memo[2]}x3"


@dataclass(frozen=True, slots=True)
class Handicap(Tile):
    """F2: on activation remove a grey die and take a free reward space: 1 chip, $30k, or a die moved.

    Grey dice start on the casinos (1 by casinos 1-3, 2 by 4-6). The move takes one of your dice to a
    neighbouring casino. (impl.) Each reward space once a round. The memory is the grey dice on casinos 1 to 6, then the
    spaces taken (bits 1, 2, 4).
    """

    id: ClassVar[str] = "F2"
    name: ClassVar[str] = "Handicap"
    effect: ClassVar[str] = "remove a grey die and take a free space: 1 chip, $30k, or move a die next door"
    start: tuple[int, ...] = (1, 1, 1, 2, 2, 2)
    rewards: tuple[Reward, Reward] = (("chips", 1), ("usd", 30_000))

    def start_memo(self) -> tuple[int, ...]:
        return (*self.start, 0)

    def _moves(self, state: GameState, seat: int) -> tuple[int, ...]:
        free = [c for c in range(1, 7) if not _refusal(state, c)]
        return tuple(10 * a + b for a in free for b in (a - 1, a + 1) if b in free and state.casinos[a - 1].dice[seat])

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        step = self.pending(state, (index, "handicap", state.players.index(event.player)))
        return ask(state, step) if self.choices(state.evolve(pending=step)) else state

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        player = state.players[data[2]]
        if data[1] == "move":
            return self._ask(state, data, data[2], f"{player} moves one of his dice next door (from * 10 + to)")
        what = f"{player} removes a grey die and takes a space (casino * 10 + space: 1 chip, 2 $30,000, 3 move)"
        return self._ask(state, data, data[2], what)

    def choices(self, state: GameState) -> tuple[TileChoice, ...]:
        assert state.pending is not None
        index, step, seat = state.pending.data
        player = state.pending.actor
        if step == "move":
            return tuple(TileChoice(player, "move", m) for m in self._moves(state, seat))
        memo = state.tiles[index].memo
        spaces = [s for s in (1, 2, 3) if not memo[6] & (1 << (s - 1)) and (s != 3 or self._moves(state, seat))]
        return tuple(TileChoice(player, "handicap", 10 * c + s) for c in range(1, 7)
                     if memo[c - 1] and not _refusal(state, c) for s in spaces)  # fmt: skip

    def step(self, state: GameState, event: Any) -> GameState:
        assert state.pending is not None
        _check_choice(state, event, self.choices(state))
        index, step, seat = state.pending.data
        if step == "move":
            source, target = divmod(event.amount, 10)
            moved = state.evolve(casinos=_with_dice(state, seat, source, -1))
            return resolved(state, event, casinos=_with_dice(moved, seat, target, 1))
        casino, space = divmod(event.amount, 10)
        memo = _plus(_plus(state.tiles[index].memo, casino - 1, -1), 6, 1 << (space - 1))
        tiles = _with_memo(state, index, memo)
        if space == 3:
            return resolved(state, event, then=self.pending(state, (index, "move", seat)), tiles=tiles)
        return resolved(state, event, tiles=tiles, **reward_changes(state, seat, self.rewards[space - 1]))

    def before_payout(self, state: GameState, index: int, payout: CasinoPayout) -> CasinoPayout:
        grey = state.tiles[index].memo[int(payout.casino) - 1]
        return _recounted(state, payout, {GREY: grey}) if grey else payout

    def lying(self, state: GameState, index: int) -> tuple[tuple[int, Colour, int], ...]:
        return _grey_lying(state.tiles[index].memo[:6])

    def status(self, state: GameState, index: int) -> str:
        memo = state.tiles[index].memo
        lying = ", ".join(f"{n} on casino {c}" for c, n in enumerate(memo[:6], start=1) if n)
        free = [name for bit, name in ((1, "1 chip"), (2, "$30,000"), (4, "move")) if not memo[6] & bit]
        return f"grey dice: {lying or 'none'}; free spaces: {', '.join(free) or 'none'}"


@dataclass(frozen=True, slots=True)
class DoubleDown(Tile):
    """G2: on activation move any of your dice from this casino to a side bet, ranked apart at payout.

    The side bet ranks like a casino (ties cancel, a Biggy would count 2) and pays $60k and $30k from
    the bank to the top two (impl.; only normal dice move). The memory is the side bet's dice per seat.
    """

    id: ClassVar[str] = "G2"
    name: ClassVar[str] = "Double Down"
    effect: ClassVar[str] = "move dice from here to the side bet: its top two get $60,000 and $30,000"
    prizes: tuple[int, ...] = (60_000, 30_000)

    def valid_memo(self, memo: Any, players: int) -> bool:
        return memo is None or (isinstance(memo, tuple) and len(memo) == players and min(memo) >= 0)

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        return ask(state, self.pending(state, (index, "side-bet", state.players.index(event.player))))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        return self._ask(
            state, data, data[2], f"{state.players[data[2]]} moves dice from here to the side bet (0: none)"
        )

    def choices(self, state: GameState) -> tuple[TileChoice, ...]:
        assert state.pending is not None
        index, _, seat = state.pending.data
        casino = state.tiles[index].casino
        most = state.casinos[casino - 1].dice[seat] if not _refusal(state, casino) else 0
        return tuple(TileChoice(state.pending.actor, "side-bet", n) for n in range(most + 1))

    def step(self, state: GameState, event: Any) -> GameState:
        assert state.pending is not None
        _check_choice(state, event, self.choices(state))
        index, _, seat = state.pending.data
        if not event.amount:
            return resolved(state, event)
        bet = _plus(state.tiles[index].memo or (0,) * len(state.players), seat, event.amount)
        casinos = _with_dice(state, seat, state.tiles[index].casino, -event.amount)
        return resolved(state, event, casinos=casinos, tiles=_with_memo(state, index, bet))

    def aside(self, state: GameState, index: int) -> tuple[int, ...]:
        memo: tuple[int, ...] = state.tiles[index].memo or ()
        return memo

    def before_payout(self, state: GameState, index: int, payout: CasinoPayout) -> CasinoPayout:
        bet = state.tiles[index].memo
        if payout.casino != state.tiles[index].casino or not bet:
            return payout
        bank, prizes = state.bank, []
        for usd in self.prizes:
            note = bank_note(bank, usd)
            if note is not None:
                prizes.append(note)
                bank = _without(bank, note)
        counts = {state.players[seat]: n for seat, n in enumerate(bet) if n}
        side = state.ruleset.hooks.pay(payout.casino, counts, prizes, ())
        won = tuple(Payment(p.owner, p.count, p.banknote_usd, source="the Double Down side bet") for p in side.paid)
        return CasinoPayout(payout.casino, payout.counts, payout.ties, (*payout.ranking, *won), payout.returned)

    def status(self, state: GameState, index: int) -> str:
        bet = state.tiles[index].memo or ()
        inside = ", ".join(f"{state.players[s]} {n}" for s, n in enumerate(bet) if n)
        return f"side bet: {inside or 'empty'}"


@dataclass(frozen=True, slots=True)
class NiceDice(Tile):
    """H1: on activation put one of your dice from a casino onto the reward space of its number.

    A die already there goes back to that casino. At round end the spaces pay (impl.): 1 and 2 that
    many chips, 3 to 6 $30k to $60k from the bank. The memory is the seat on each space (-1: free).
    """

    id: ClassVar[str] = "H1"
    name: ClassVar[str] = "Nice Dice"
    effect: ClassVar[str] = "put one of your dice on the reward space of its number (1-2 chips, 3-6 $30k-$60k)"
    rewards: tuple[Reward, ...] = (("chips", 1), ("chips", 2), ("usd", 30_000), ("usd", 40_000), ("usd", 50_000),
                                   ("usd", 60_000))  # fmt: skip

    def start_memo(self) -> tuple[int, ...]:
        return (-1,) * 6

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        return ask(state, self.pending(state, (index, "nice", state.players.index(event.player))))

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        what = f"{state.players[data[2]]} puts one of his dice on the reward space of its number (0: none)"
        return self._ask(state, data, data[2], what)

    def choices(self, state: GameState) -> tuple[TileChoice, ...]:
        assert state.pending is not None
        index, _, seat = state.pending.data
        memo = state.tiles[index].memo
        return tuple(TileChoice(state.pending.actor, "nice", k) for k in range(7)
                     if not k or (state.casinos[k - 1].dice[seat] and memo[k - 1] != seat
                                  and not _refusal(state, k)))  # fmt: skip

    def step(self, state: GameState, event: Any) -> GameState:
        assert state.pending is not None
        _check_choice(state, event, self.choices(state))
        index, _, seat = state.pending.data
        k = event.amount
        if not k:
            return resolved(state, event)
        moved = state.evolve(casinos=_with_dice(state, seat, k, -1))
        displaced = state.tiles[index].memo[k - 1]
        if displaced >= 0:  # the die there goes back to its casino
            moved = moved.evolve(casinos=_with_dice(moved, displaced, k, 1))
        memo = (*state.tiles[index].memo[: k - 1], seat, *state.tiles[index].memo[k:])
        return resolved(state, event, casinos=moved.casinos, tiles=_with_memo(state, index, memo))

    def aside(self, state: GameState, index: int) -> tuple[int, ...]:
        memo = state.tiles[index].memo
        return tuple(sum(1 for holder in memo if holder == seat) for seat in range(len(state.players)))

    def before_payout(self, state: GameState, index: int, payout: CasinoPayout) -> CasinoPayout:
        laid = state.tiles[index]
        if payout.casino != laid.casino:
            return payout
        bank, won = state.bank, []
        for space, holder in enumerate(laid.memo, start=1):
            kind, usd = self.rewards[space - 1]
            note = bank_note(bank, usd) if holder >= 0 and kind == "usd" else None
            if note is not None:
                bank = _without(bank, note)
                won.append(Payment(state.players[holder], 1, note, source=f"Nice Dice's reward space {space}"))
        return CasinoPayout(payout.casino, payout.counts, payout.ties, (*payout.ranking, *won), payout.returned)

    def at_round_end(self, settled: GameState, index: int, after: GameState) -> GameState:
        for space, holder in enumerate(settled.tiles[index].memo, start=1):
            kind, _ = self.rewards[space - 1]
            if holder >= 0 and kind != "usd":
                after = after.evolve(**reward_changes(after, holder, self.rewards[space - 1]))
        return after

    def status(self, state: GameState, index: int) -> str:
        memo = state.tiles[index].memo
        taken = ", ".join(f"{k}: {state.players[h]}" for k, h in enumerate(memo, start=1) if h >= 0)
        return f"reward spaces taken: {taken or 'none'}"


TILES: dict[str, Tile] = {
    tile.id: tile
    for tile in (LuckyPunch(), Jackpot(), PrimeTime(), FiftyFifty(), HighFive(), BadLuck(), PayDay(), PowerPlay(),
                 NoEntry(), Knockout(), BlockIt(), Handicap(), BlackBox(), DoubleDown(), NiceDice(), MyChoice())
}  # fmt: skip
"""The 16 tile sides by code: each tile's two sides share a letter (A1 and A2 are one tile)."""

ALL_CODES: tuple[str, ...] = tuple(f"{letter}{side}" for letter in "ABCDEFGH" for side in (1, 2))
"""The 16 sides of the 8 tiles (summary's table)."""
