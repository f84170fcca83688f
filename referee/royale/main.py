"""Royale's main game: the basic game with casino tiles laid each round and a bank they pay from.

The seed ("Las Vegas Royale (juego principal)"): at the start of each round 3 random tiles, each on a
random side, are laid by casinos 1, 2 and 3; after the first deal the cards for rounds 2 and 3 are set
aside face down and the rest of the deck lies face up as the "bank". The summary: a variant lays 0 to
6 tiles; both sides of one tile are never in play together. Here the tiles laid are a chance event
(:class:`~referee.royale.events.TilesLaid`, entered or read each round) and so is the bank
(:class:`~referee.royale.events.BankLaid`, round 1); the setup chooses which tiles may be laid and by
which casinos (:func:`main_ruleset`). Tile money that is not a card (Black Box's tokens, Bad Luck's
fines) is kept as the resource ``dollars``, which may go below zero (a debt).

Example:
    >>> rules = main_ruleset(tiles=("A2", "C1", "D1"))
    >>> rules.name
    'las-vegas-royale+main+tiles=A2,C1,D1'
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.errors import IllegalEventError, UnknownRuleSetError
from referee.game import CHANCE
from referee.lasvegas.hooks import LaidTile, Pending, ask, resolved
from referee.lasvegas.rules import RuleSet
from referee.lasvegas.state import GameState
from referee.royale.events import BankLaid, TilesLaid
from referee.royale.rules import CHIP_USD, PAIR, ROYALE, ROYALE_HOOKS
from referee.royale.tiles import ALL_CODES, GREY, TILES
from referee.types import Colour, format_usd

__all__ = ["DEFAULT_CASINOS", "MainGame", "main_ruleset"]

DEFAULT_CASINOS = (1, 2, 3)
"""Where the seed lays the tiles: by casinos 1, 2 and 3 (the others stay empty)."""


@dataclass(frozen=True, slots=True)
class MainGame:
    """The main game's setup: which tiles may be laid, by which casinos; it lays them each round."""

    tiles: tuple[str, ...]
    """Codes of the tile sides that may be laid (``"A2"``), sorted."""
    casinos: tuple[int, ...] = DEFAULT_CASINOS
    """The casinos a tile is laid by each round (0 to 6 of them)."""

    def round_start(self, state: GameState) -> GameState:
        """Asks for the round's tiles (and, in round 1, the bank) before the deal."""
        if self.casinos:
            state = ask(state, self.pending(state, ("setup", "tiles")))
        if state.round == 1:
            state = ask(state, self.pending(state, ("setup", "bank")))
        return state

    def pending(self, state: GameState, data: tuple[Any, ...]) -> Pending:
        """The setup step ``data`` names: ``("setup", "tiles")`` or ``("setup", "bank")``."""
        if data[1] == "tiles":
            where = ", ".join(map(str, self.casinos))
            return Pending(CHANCE, (TilesLaid,), f"lay the casino tiles of round {state.round} by casinos {where}",
                           self, data, dealt=True)  # fmt: skip
        return Pending(CHANCE, (BankLaid,), f"lay the bank: all cards but the {self._kept(state)} for the deals",
                       self, data, dealt=True)  # fmt: skip

    def _kept(self, state: GameState) -> int:
        return PAIR * state.ruleset.casinos * state.ruleset.rounds

    def step(self, state: GameState, event: Any) -> GameState:
        """Lays the tiles or the bank after checking them."""
        if isinstance(event, TilesLaid):
            return resolved(state, event, tiles=self.check_tiles(event.tiles))
        notes = event.notes
        pile = state.pile()
        wanted = sum(pile.values()) - self._kept(state)
        if not isinstance(notes, tuple | list) or len(notes) != wanted:
            given = len(notes) if isinstance(notes, tuple | list) else repr(notes)
            raise IllegalEventError(f"the bank is every card but the {self._kept(state)} kept face down for the "
                                    f"deals: {wanted} cards, not {given}")  # fmt: skip
        for note, count in Counter(notes).items():
            if count > pile.get(note, 0):
                raise IllegalEventError(f"{count} cards of {format_usd(note)} in the bank but the pile holds "
                                        f"{pile.get(note, 0)}")  # fmt: skip
        return resolved(state, event, bank=tuple(sorted(notes, reverse=True)))

    def check_tiles(self, laid: Any) -> tuple[LaidTile, ...]:
        """Tiles laid (``(casino, code)`` pairs), checked: one by each setup casino, allowed, one side of a tile."""
        if not isinstance(laid, tuple | list) or sorted(c for c, _ in laid) != sorted(self.casinos):
            where = ", ".join(map(str, self.casinos))
            raise IllegalEventError(f"one tile is laid by each of casinos {where}, got {laid!r}")
        letters = [code[:1] for _, code in laid]
        for casino, code in laid:
            if code not in self.tiles:
                raise IllegalEventError(
                    f"tile {code!r} by casino {casino} is not in play (tiles: {', '.join(self.tiles)})"
                )
        if len(set(letters)) != len(letters):
            raise IllegalEventError(f"both sides of one tile are never in play together: {laid!r}")
        return tuple(LaidTile(casino, TILES[code], TILES[code].start_memo()) for casino, code in sorted(laid))

    def choices(self, state: GameState) -> tuple[Any, ...]:
        """None: the setup is chance."""
        return ()

    def chance(self, state: GameState, draw: Any) -> Any:
        """Random tiles on random sides (from those allowed), or the bank from the bottom of the pile."""
        assert state.pending is not None
        if state.pending.data[1] == "tiles":
            by_letter: dict[str, list[str]] = {}
            for code in self.tiles:
                by_letter.setdefault(code[0], []).append(code)
            letters = draw.rng.sample(sorted(by_letter), len(self.casinos))
            codes = [draw.rng.choice(by_letter[letter]) for letter in letters]
            return TilesLaid(tuple(zip(self.casinos, codes, strict=True)))
        size = len(draw.pile) - self._kept(state)
        bank = draw.pile[:size]
        del draw.pile[:size]
        return BankLaid(tuple(bank))


def main_ruleset(tiles: Sequence[str] | None = None, casinos: Sequence[int] = DEFAULT_CASINOS) -> RuleSet:
    """The main game's rule set: the tiles that may be laid (default: all 16 sides) by which casinos.

    Raises:
        UnknownRuleSetError: for an unknown tile, a casino outside 1-6, or more casinos than tiles of
            different letters allow.
    """
    codes = tuple(sorted(set(tiles))) if tiles is not None else tuple(sorted(TILES))
    return _main_ruleset(codes, tuple(sorted(set(casinos))), tiles is not None and codes != tuple(sorted(TILES)))


@functools.lru_cache(maxsize=64)
def _main_ruleset(codes: tuple[str, ...], where: tuple[int, ...], named: bool) -> RuleSet:
    """One rule set object per setup: its hooks hold the setup's bound method, equal only to itself."""
    for code in codes:
        if code not in ALL_CODES:
            raise UnknownRuleSetError(f"no tile {code!r}: the tiles are A1 to H2")
    if any(not 1 <= c <= ROYALE.casinos for c in where):
        raise UnknownRuleSetError(f"tiles lie by casinos 1 to 6, not {list(where)}")
    if len(where) > len({code[0] for code in codes}):
        raise UnknownRuleSetError(f"{len(where)} casinos need as many different tiles, not {', '.join(codes)}")
    parts = ["main"]
    if named:
        parts.append("tiles=" + ",".join(codes))
    if where != DEFAULT_CASINOS:
        parts.append("casinos=" + ",".join(map(str, where)))
    setup = MainGame(codes, where)
    extra = tuple(colour for colour, which in ((GREY.colour, ("F1", "F2")), (Colour.BLACK, ("B1",)))
                  if set(which) & set(codes))  # fmt: skip
    hooks = dataclasses.replace(ROYALE_HOOKS, round_start=setup.round_start, extra_colours=extra,
                                resources=(("chips", 2), ("dollars", 0)), signed_resources=("dollars",),
                                resource_usd=(("chips", CHIP_USD), ("dollars", 1)))  # fmt: skip
    name = "+".join([ROYALE.name, *parts])
    return dataclasses.replace(ROYALE, name=name, variants=tuple(parts), hooks=hooks)


def setup_of(state: GameState) -> MainGame | None:
    """The main game's setup of a state's rule set, or None for the basic game."""
    start = state.ruleset.hooks.round_start
    owner = getattr(start, "__self__", None)
    return owner if isinstance(owner, MainGame) else None
