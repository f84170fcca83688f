"""Las Vegas Royale's basic game as data and hooks on the Las Vegas engine.

Source of every number: ``shared/rules/las-vegas-royale.md`` (the summary) and the seed rulebook
``shared/seeds/004_0f20c0e38b0e53af.txt`` (Spanish). What differs from Las Vegas, and where:

- 3 rounds; per colour 7 normal dice and 1 Biggy that counts as two (:data:`ROYALE`);
- the 90 money cards, $30k to $100k (:data:`DECK`, a setting: the summary's one implementation);
- six pairs of cards, the pair with the highest total at casino 6 down to the lowest at casino 1,
  equal totals ordered by the higher single card (:func:`draw_pairs`, checked by :func:`check_pairs`);
- two cards per casino: the most dice take the higher, the runner-up after tie cancellation the lower,
  and when one owner is left the lower goes under the pile: exactly Las Vegas's payout of a casino's
  notes by rank, so the engine's own (:func:`referee.lasvegas.scoring.score_casino`) is kept;
- 2 chips each at the start and 2 more each later round on top of those left; after rolling a player
  may pay 1 chip to place nothing and take his dice back (the engine's pass);
- the next start player: whoever took the higher card at casino 6, else casino 5, and so on down
  (:func:`start_from_casino_six`);
- at the end each chip is worth $10,000; equal money, most cards plus chips; still equal, several
  winners (:func:`money_cards_and_chips`);
- with 2 players, each round starts with the 8 dice of a colour nobody plays rolled onto the casinos;
  they settle as an imaginary player whose cards go under the pile (the engine's neutral pre-roll).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from referee.errors import IllegalDealError, UnknownRuleSetError
from referee.game import name_key
from referee.lasvegas.events import BanknotesDealt
from referee.lasvegas.hooks import Hooks, check_in_pile, notes_dealt, pass_left
from referee.lasvegas.rules import RuleSet
from referee.lasvegas.scoring import Standing, rank_money
from referee.lasvegas.state import GameState, preview
from referee.types import format_usd

__all__ = [
    "CHIP_USD",
    "DECK",
    "ROYALE",
    "check_pairs",
    "draw_pairs",
    "find_ruleset",
    "money_cards_and_chips",
    "pair_order",
    "start_from_casino_six",
]

GAME_NAME = "las-vegas-royale"
GAME_ALIASES: tuple[str, ...] = ("royale", "lasvegasroyale", "vegas-royale", "las-vegas-royal")

DECK: tuple[tuple[int, int], ...] = (
    (30_000, 11),
    (40_000, 11),
    (50_000, 13),
    (60_000, 15),
    (70_000, 13),
    (80_000, 11),
    (90_000, 9),
    (100_000, 7),
)
"""The 90 money cards (summary: "one implementation uses ...; not confirmed by the rulebook: keep it a
setting"). ``dataclasses.replace(ROYALE, deck=...)`` plays another distribution."""

CHIP_USD = 10_000
"""What an unspent chip is worth at the end (seed, "Fin del juego")."""

PAIR = 2
"""Cards dealt to each casino (seed, "Preparar")."""


def pair_order(pair: tuple[int, ...]) -> tuple[int, int]:
    """How pairs rank for the casinos: by total, then by the higher card (seed, "Preparar")."""
    return sum(pair), max(pair, default=0)


def draw_pairs(pile: list[int], casinos: int) -> tuple[tuple[int, ...], ...]:
    """Draws six pairs from the top of ``pile`` (its end) and lays them out, lowest total at casino 1.

    Example:
        >>> draw_pairs([90_000, 30_000, 50_000, 40_000, 60_000, 100_000, 30_000, 30_000, 70_000, 40_000,
        ...             80_000, 50_000], 6)[-1]
        (100000, 60000)
    """
    pairs = []
    for _ in range(casinos):
        pair = tuple(sorted((pile.pop() for _ in range(min(PAIR, len(pile)))), reverse=True))
        pairs.append(pair)
    return tuple(sorted(pairs, key=pair_order))


def check_pairs(state: GameState, event: BanknotesDealt) -> None:
    """Checks a Royale deal: two cards from the pile at each casino, the pairs in order of value.

    Raises:
        IllegalDealError: for a card not in the pile, a casino without exactly two cards, or pairs
            out of order (a lower total above a higher one; equal totals: the higher card goes higher).
    """
    rules = state.ruleset
    dealt = notes_dealt(state, event, "money card", "a pair of money cards")
    casinos = event.casinos
    pile = state.pile()
    enough = sum(pile.values()) >= rules.notes_per_casino * rules.casinos
    for number, cards in enumerate(casinos, start=1):
        if len(cards) != rules.notes_per_casino and enough:
            raise IllegalDealError(f"casino {number} got {len(cards)} cards: each casino gets a pair")
    check_in_pile(pile, dealt, "cards")
    for number in range(1, len(casinos)):
        lower, higher = tuple(casinos[number - 1]), tuple(casinos[number])
        if pair_order(lower) > pair_order(higher):
            raise IllegalDealError(
                f"casino {number} got {_pair(lower)} and casino {number + 1} {_pair(higher)}: the pair with "
                "the higher total goes to the higher casino (equal totals: the pair with the higher card)"
            )


def _pair(cards: tuple[int, ...]) -> str:
    return " + ".join(format_usd(c) for c in cards) or "nothing"


def start_from_casino_six(state: GameState) -> int:
    """The next round's start seat: who takes the highest card paid at casino 6, else at 5, and so on.

    The seed: "the player who won the highest money card at casino 6 starts the next round (or the
    winner at the next lower casino, should nobody have won anything there)". Where the imaginary
    player of the 2-player game takes the higher card, the player paid the lower one at that casino
    is its winner among the players (impl.). Nobody paid anywhere: the start passes left.
    """
    payout = preview(state)
    for casino in sorted(payout.casinos, key=lambda c: int(c.casino), reverse=True):
        paid = sorted(casino.paid, key=lambda p: p.banknote_usd or 0, reverse=True)
        if paid:
            return state.players.index(paid[0].owner)
    return pass_left(state)


def worth(state: GameState, seat: int) -> int:
    """A player's money: his cards, and each resource at what it is worth.

    A chip counts $10,000; the main game's dollars (Black Box's tokens less Bad Luck's fines) face value.
    """
    hooks = state.ruleset.hooks
    usd = dict(hooks.resource_usd)
    held = zip((name for name, _ in hooks.resources), state.resources[seat], strict=True)
    return sum(state.won[seat]) + sum(usd.get(name, 0) * count for name, count in held)


def money_cards_and_chips(state: GameState) -> tuple[Standing, ...]:
    """Royale's standings: money with each chip at $10,000; then most cards plus chips; still equal, shared.

    Each standing's ``money_usd`` is :func:`worth` (chips and, in the main game, dollars included) and its
    ``banknotes`` counts cards and chips.
    """
    chips = state.resource("chips")
    return rank_money({player: (worth(state, seat), len(state.won[seat]) + chips[seat])
                       for seat, player in enumerate(state.players)})  # fmt: skip


ROYALE_HOOKS = Hooks(
    deal=check_pairs,
    draw=draw_pairs,
    next_start=start_from_casino_six,
    rank=money_cards_and_chips,
    resources=(("chips", 2),),
    resource_usd=(("chips", CHIP_USD),),
    resources_per_round=(("chips", 2),),
    pass_cost=(("chips", 1),),
)

ROYALE = RuleSet(
    name=GAME_NAME,
    game=GAME_NAME,
    variants=(),
    min_players=2,
    max_players=5,  # 35 small and 5 large dice: five colours (seed, "Componentes")
    rounds=3,
    casinos=6,
    dice_per_player=7,
    biggies_per_player=1,
    biggy_weight=2,
    deck=DECK,
    minimum_usd=tuple((players, 0) for players in range(2, 6)),  # no minimum bank: a pair per casino
    neutral_dice=((2, 0),),  # 2 players: no neutral dice in hand ...
    neutral_preroll=((2, 8),),  # ... but 8 of an unused colour rolled onto the casinos each round
    notes_per_casino=PAIR,
    hooks=ROYALE_HOOKS,
)
"""The basic game (the main game's casino tiles come on top of it)."""

RULESETS: tuple[RuleSet, ...] = (ROYALE,)


def find_ruleset(name: str, variants: Iterable[str] = ()) -> RuleSet:
    """Royale's rule set by name (``"las-vegas-royale"`` or an alias), the basic game or the main game.

    The main game is the variant ``main``, with optional parts ``tiles=A1,A2,...`` (the tiles that
    may be laid; default every tile built) and ``casinos=1,2,3`` (where they lie; ``casinos=`` for
    none): ``"las-vegas-royale+main+tiles=A2,C1,D1"``. See :mod:`referee.royale.main`.

    Raises:
        UnknownRuleSetError: for another game, an unknown variant or a tile that is not built.
    """
    if not isinstance(name, str) or not name.strip():
        raise UnknownRuleSetError(f"a game name is a non-empty string, got {name!r}")
    if isinstance(variants, str):
        variants = (variants,)
    return _find(name, tuple(variants))


@functools.lru_cache(maxsize=64)
def _find(name: str, variants: tuple[str, ...]) -> RuleSet:
    game, *parts = name.split("+")
    if name_key(game) not in (GAME_NAME, *GAME_ALIASES):
        raise UnknownRuleSetError(f"unknown game {game!r}; this is {GAME_NAME}")
    wanted = [p.strip() for p in (*parts, *variants) if p.strip()]
    if not wanted:
        return ROYALE
    options: dict[str, tuple[str, ...]] = {}
    for part in wanted:
        key, has_value, value = part.partition("=")
        key = name_key(key)
        if key in ("main", "main-game") and not has_value:
            options["main"] = ()
        elif key in ("tiles", "casinos") and has_value:
            options[key] = tuple(v.strip() for v in value.split(",") if v.strip())
        else:
            raise UnknownRuleSetError(f"unknown variant {part!r}; {GAME_NAME} has the variant 'main' (the main game "
                                      "with casino tiles), with 'tiles=A1,A2,...' and 'casinos=1,2,3'")  # fmt: skip
    from referee.royale.main import DEFAULT_CASINOS, main_ruleset

    try:
        casinos = tuple(int(c) for c in options["casinos"]) if "casinos" in options else DEFAULT_CASINOS
    except ValueError:
        raise UnknownRuleSetError(f"casinos={','.join(options['casinos'])}: casino numbers 1 to 6") from None
    return main_ruleset(tuple(c.upper() for c in options["tiles"]) if "tiles" in options else None, casinos)
