"""Royale's casino tiles, each a small object on the engine's tile hooks (:class:`~referee.lasvegas.hooks.CasinoTile`).

Source: the summary's table (``shared/rules/las-vegas-royale.md``, "Main game (tiles)"); the seed
rulebook omits the effects. A tile acts each time dice are placed on its casino ("activation"),
before its casino pays out, or at the end of the round. Rolls of the 2 black dice and the decisions
a tile needs are :class:`~referee.lasvegas.hooks.Pending` steps the page asks for, recorded as
events (:mod:`referee.royale.events`). Money a tile pays comes from the bank (the cards lying face
up, :attr:`GameState.bank`): a card of the value, else (impl., :data:`BANK_SHORT`) the highest
card below it, else nothing. Where the summary marks an effect "(impl.)", its numbers are fields of
the tile (a named option with the summary's default).

Implemented: A1 Lucky Punch, A2 Jackpot, B2 Fifty Fifty, C1 High Five, D1 Pay Day, G1 Black Box,
H2 My Choice. The tiles that move dice between casinos, a bar, a side bet or reward spaces (B1, C2,
D2, E1, E2, F1, F2, G2, H1) are not built yet: :data:`TILES` lists the built ones, and a table with
another tile is refused with that message.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.errors import IllegalEventError
from referee.game import CHANCE
from referee.lasvegas.events import DicePlaced
from referee.lasvegas.hooks import LaidTile, Pending, ask, resolved
from referee.lasvegas.scoring import CasinoPayout, Payment
from referee.lasvegas.state import GameState, preview
from referee.royale.events import BlackDiceRolled, TileChoice
from referee.types import format_usd

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
    names = [name for name, _ in state.ruleset.hooks.resources]
    if kind != "usd":
        index = names.index(kind)
        held = list(state.resources[seat])
        held[index] += amount
        return {"resources": (*state.resources[:seat], tuple(held), *state.resources[seat + 1 :])}
    note = bank_note(state.bank, amount)
    if note is None:
        return {}
    won = (*state.won[:seat], (*state.won[seat], note), *state.won[seat + 1 :])
    return {"won": won, "bank": _without(state.bank, note)}


def reward_text(reward: Reward) -> str:
    kind, amount = reward
    if kind == "usd":
        return format_usd(amount)
    return f"{amount} {kind[:-1] if amount == 1 and kind.endswith('s') else kind}"


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
    return values[0], values[1]


@dataclass(frozen=True, slots=True)
class Tile:
    """What every tile does unless it says otherwise: nothing (see :class:`CasinoTile`)."""

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    effect: ClassVar[str] = ""
    """The effect in one sentence, as the page shows it."""

    def start_memo(self) -> int | None:
        """Its memory when laid (a counter, a holder's seat), None when it keeps nothing."""
        return None

    def on_placed(self, state: GameState, index: int, event: DicePlaced) -> GameState:
        return state

    def before_payout(self, state: GameState, index: int, payout: CasinoPayout) -> CasinoPayout:
        return payout

    def at_round_end(self, settled: GameState, index: int, after: GameState) -> GameState:
        return after

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
        return Pending(CHANCE, (BlackDiceRolled,), what, self, data)

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
    """The face-down tokens (summary, impl.: $60k, $20k, $20k and three blanks), paid in dollars, not cards."""
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
        return resolved(state, event, **reward_changes(state, winner, ("tokens", event.amount)))

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


TILES: dict[str, Tile] = {
    tile.id: tile for tile in (LuckyPunch(), Jackpot(), FiftyFifty(), HighFive(), PayDay(), BlackBox(), MyChoice())
}
"""The tiles built, by code: each tile's two sides share a letter (A1 and A2 are one tile)."""

ALL_CODES: tuple[str, ...] = tuple(f"{letter}{side}" for letter in "ABCDEFGH" for side in (1, 2))
"""The 16 sides of the 8 tiles (summary's table)."""
