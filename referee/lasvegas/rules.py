"""Rule sets: the numbers of a game and its variants, as data.

A :class:`RuleSet` holds every number the engine needs (players, dice, Biggys, neutral dice, rounds,
banknote deck, minimum bank per casino). Variants are named sets of overrides applied to the base game
in a fixed order, so ``find_ruleset("las-vegas+biggy+neutral")`` and
``find_ruleset("las vegas", ["neutral", "biggys"])`` give the same rule set with the canonical name
``"las-vegas+neutral+biggy"``. Source of every number: ``shared/rules/las-vegas.md``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import UnknownRuleSetError
from referee.game import name_key
from referee.lasvegas.hooks import LAS_VEGAS_HOOKS, Hooks

__all__ = ["RULESETS", "VARIANTS", "RuleSet", "Variant", "find_ruleset"]

Table = tuple[tuple[int, int], ...]
"""A small immutable mapping of int to int, stored as sorted ``(key, value)`` pairs."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The numbers of one game with its variants.

    Example:
        >>> rules = find_ruleset("las-vegas+neutral")
        >>> rules.minimum_usd_for(4), rules.neutral_dice_for(2), rules.neutral_preroll_for(3)
        (50000, 4, 2)
    """

    name: str
    """Canonical name: the game, then its variants in :data:`VARIANTS` order, joined by ``+``."""
    game: str
    """The base game, e.g. ``"las-vegas"``."""
    variants: tuple[str, ...]
    """Canonical names of the variants applied, in :data:`VARIANTS` order."""
    min_players: int
    """Fewest players the rule set allows."""
    max_players: int
    """Most players the rule set allows."""
    rounds: int
    """Rounds in a game."""
    casinos: int
    """Number of casinos, numbered 1..casinos like die faces."""
    dice_per_player: int
    """Normal dice of his own colour each player holds at the start of a round."""
    biggies_per_player: int
    """Biggys (large dice) each player holds at the start of a round."""
    biggy_weight: int
    """How many dice a Biggy counts as at settlement."""
    deck: Table
    """The banknotes: ``(value_usd, how many)`` pairs."""
    minimum_usd: Table
    """``(players, dollars)``: each casino is dealt notes until it holds at least this much."""
    neutral_dice: Table = ()
    """``(players, dice each player rolls)`` for neutral dice; empty when the variant is off."""
    neutral_preroll: Table = ()
    """``(players, dice)`` the start player rolls and places before the first turn of each round."""
    notes_per_casino: int = 0
    """How many notes a deal gives each casino (Royale: a pair of cards); 0: up to the minimum bank."""
    hooks: Hooks = LAS_VEGAS_HOOKS
    """Behaviour that differs from Las Vegas (deal, payout, start player, pass, tiles): see
    :mod:`referee.lasvegas.hooks`."""

    def __post_init__(self) -> None:
        if not 1 <= self.min_players <= self.max_players:
            raise UnknownRuleSetError(f"{self.name}: player range {self.min_players}..{self.max_players}")
        missing = [n for n in range(self.min_players, self.max_players + 1) if n not in dict(self.minimum_usd)]
        if missing:
            raise UnknownRuleSetError(f"{self.name}: no minimum bank for {missing} players")

    @property
    def has_neutral(self) -> bool:
        """True when players also roll neutral dice."""
        return bool(self.neutral_dice)

    def neutral_for(self, players: int) -> bool:
        """True when neutral dice are in play with this many players (Royale: only with 2)."""
        return self.neutral_total_for(players) > 0

    def check_players(self, players: int) -> None:
        """Raises ``UnknownRuleSetError`` unless the rule set allows this many players."""
        if not self.min_players <= players <= self.max_players:
            hint = ""
            if players == 6 and not {"six-players", "eight-players"} & set(self.variants):
                hint = " (the six-players variant allows 6)"
            elif players in (7, 8) and "eight-players" not in self.variants:
                hint = " (the eight-players variant allows up to 8)"
            raise UnknownRuleSetError(
                f"{self.name} is for {self.min_players} to {self.max_players} players, not {players}{hint}"
            )

    def minimum_usd_for(self, players: int) -> int:
        """Minimum bank per casino with this many players."""
        self.check_players(players)
        return dict(self.minimum_usd)[players]

    def neutral_dice_for(self, players: int) -> int:
        """Neutral dice each player rolls with this many players (0 without the variant)."""
        return dict(self.neutral_dice).get(players, 0)

    def neutral_preroll_for(self, players: int) -> int:
        """Neutral dice the start player rolls and places before the first turn of a round."""
        return dict(self.neutral_preroll).get(players, 0)

    def neutral_total_for(self, players: int) -> int:
        """All neutral dice in play with this many players."""
        return self.neutral_dice_for(players) * players + self.neutral_preroll_for(players)

    def deck_counts(self) -> dict[int, int]:
        """The deck as ``{value_usd: count}``."""
        return dict(self.deck)

    def deck_notes(self) -> list[int]:
        """The deck as a list of notes, highest first."""
        return [value for value, count in sorted(self.deck, reverse=True) for _ in range(count)]

    def __repr__(self) -> str:
        return f"find_ruleset({self.name!r})"


@dataclass(frozen=True, slots=True)
class Variant:
    """A named variant: field overrides applied to a base rule set.

    Mapping-valued fields (``deck``, ``minimum_usd``, ``neutral_dice``, ``neutral_preroll``) are
    merged key by key; other fields are replaced.
    """

    name: str
    """Canonical name used in rule-set names."""
    aliases: tuple[str, ...]
    """Other accepted spellings."""
    summary: str
    """One line for ``--help`` and the README."""
    overrides: Mapping[str, Any]
    """Field name to new value (a mapping for mapping-valued fields)."""


_TABLE_FIELDS = ("deck", "minimum_usd", "neutral_dice", "neutral_preroll")

LAS_VEGAS = RuleSet(
    name="las-vegas",
    game="las-vegas",
    variants=(),
    min_players=2,
    max_players=5,
    rounds=4,
    casinos=6,
    dice_per_player=8,
    biggies_per_player=0,
    biggy_weight=2,
    # 54 notes: 6x10k, 8x20k, 8x30k, 6x40k, 6x50k, 5 each of 60k..90k.
    deck=(
        (10_000, 6),
        (20_000, 8),
        (30_000, 8),
        (40_000, 6),
        (50_000, 6),
        (60_000, 5),
        (70_000, 5),
        (80_000, 5),
        (90_000, 5),
    ),
    minimum_usd=tuple((players, 50_000) for players in range(2, 6)),
)

#: The variants of Las Vegas, in the order they are applied and named.
VARIANTS: tuple[Variant, ...] = (
    Variant(
        "neutral",
        ("white", "whites", "neutral-dice", "white-dice"),
        "neutral (white) dice: 4 each with 2 players, 2 each with 3+; with 3 the start player pre-rolls 2",
        {"neutral_dice": {2: 4, 3: 2, 4: 2, 5: 2, 6: 2}, "neutral_preroll": {3: 2}},
    ),
    Variant(
        "min-by-players",
        ("minimum-by-players", "minimum-per-player-count", "min-per-players", "yucata-minimum", "staggered-minimum"),
        "minimum bank per casino by player count: 2p $30k, 3p $40k, 4p $50k, 5p $60k, 6p $70k",
        {"minimum_usd": {2: 30_000, 3: 40_000, 4: 50_000, 5: 60_000, 6: 70_000}},
    ),
    Variant(
        "100k",
        ("100000", "100k-notes", "100000-notes", "hundred-thousand"),
        "five $100,000 notes shuffled into the pile",
        {"deck": {100_000: 5}},
    ),
    Variant(
        "biggy",
        ("biggys", "biggies", "big", "big-dice"),
        "each player replaces one of his 8 dice with a Biggy that counts as two dice",
        {"dice_per_player": 7, "biggies_per_player": 1},
    ),
    Variant(
        "six-players",
        ("6p", "6-players", "6players", "six-player", "sixplayers", "six", "6"),
        "up to 6 players; with 6 the minimum bank is $70,000",
        {"max_players": 6, "minimum_usd": {6: 70_000}},
    ),
    Variant(
        "eight-players",
        ("8p", "8-players", "8players", "eight", "8", "boulevard-players"),
        "Las Vegas Boulevard's extra colours: up to 8 players; minimum bank 6p $70k, 7p $80k, 8p $90k (inferred)",
        {"max_players": 8, "minimum_usd": {6: 70_000, 7: 80_000, 8: 90_000}},
    ),
)

#: Named base games. Variants are combined with ``+`` (see :func:`find_ruleset`).
RULESETS: tuple[RuleSet, ...] = (LAS_VEGAS,)

GAME_ALIASES: tuple[str, ...] = ("lasvegas", "vegas")
"""Other spellings of the game's name (the registry's too: :data:`referee.lasvegas.GAME`)."""

_GAME_ALIASES = {name: LAS_VEGAS for name in (LAS_VEGAS.game, *GAME_ALIASES)}


def _find_variant(name: str) -> Variant:
    key = name_key(name)
    for variant in VARIANTS:
        if key == variant.name or key in variant.aliases:
            return variant
    known = ", ".join(v.name for v in VARIANTS)
    raise UnknownRuleSetError(f"unknown variant {name!r}; variants: {known}")


def _with_variant(rules: RuleSet, variant: Variant) -> dict[str, Any]:
    fields = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}
    for field, value in variant.overrides.items():
        if field in _TABLE_FIELDS:
            merged = dict(fields[field]) | dict(value)
            fields[field] = tuple(sorted(merged.items()))
        else:
            fields[field] = value
    return fields


def find_ruleset(name: str, variants: Iterable[str] = ()) -> RuleSet:
    """Finds a game by name and applies variants, tolerating aliases, case and spacing.

    Args:
        name: a game name, optionally followed by ``+variant`` parts (``"las-vegas+neutral"``).
        variants: more variant names to apply.

    Returns:
        The rule set, with variants applied in :data:`VARIANTS` order.

    Raises:
        UnknownRuleSetError: for an unknown game or variant name.
    """
    if not isinstance(name, str) or not name.strip():
        raise UnknownRuleSetError(f"a game name is a non-empty string, got {name!r}")
    if isinstance(variants, str):
        variants = (variants,)
    return _find_ruleset(name, tuple(variants))


@functools.lru_cache(maxsize=256)
def _find_ruleset(name: str, variants: tuple[str, ...]) -> RuleSet:
    game, *parts = name.split("+")
    base = _GAME_ALIASES.get(name_key(game))
    if base is None:
        known = ", ".join(r.name for r in RULESETS)
        raise UnknownRuleSetError(f"unknown game {game!r}; games: {known}")
    wanted = {_find_variant(v).name for v in [*parts, *variants]}
    chosen = tuple(v for v in VARIANTS if v.name in wanted)
    rules = base
    for variant in chosen:
        fields = _with_variant(rules, variant)
        fields["variants"] = (*rules.variants, variant.name)
        fields["name"] = "+".join((rules.game, *fields["variants"]))
        rules = RuleSet(**fields)
    return rules
