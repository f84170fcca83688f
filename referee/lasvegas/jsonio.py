"""JSON shapes shared by the command line, the camera pipeline and the web page.

Events are JSON objects ``{"event": kind, ...}`` (:func:`event_to_json`), one per line of a game
record (:mod:`referee.record`)::

    {"event": "dealt", "casinos": [[60000], [50000], [90000], [70000], [80000], [10000, 40000]]}
    {"event": "rolled", "player": "red", "dice": [1, 2, 3, 3, 5, 6, 6, 6]}
    {"event": "placed", "player": "red", "casino": 6, "dice": 3}
    {"event": "scored"}

Optional fields (``biggies``, ``neutral``) are written only when non-empty.

The *table* shape (input of ``dice-referee settle``, ``casinos`` of the ``watch`` lines)::

    {"game": "las-vegas", "neutral": ["white"],
     "casinos": [{"casino": 1, "dice": {"red": 3, "white": 1}, "biggy": {"red": 1},
                  "banknotes": [60000, 20000]}, ...]}

``dice`` counts normal dice and ``biggy`` counts Biggys per owner; ``game`` (default ``las-vegas``),
``variants``, ``neutral`` and ``biggy`` are optional. ``game`` names any casino dice game of the
registry: with ``"las-vegas-royale"`` each casino holds at most a pair of money cards, and an optional
``"chips": {"red": 2, ...}`` (chips each player holds) is counted in the totals at $10,000 each.

The *payout* shape (its output)::

    {"casinos": [{"casino": 1, "counts": {"red": 5, "white": 1}, "cancelled": [],
                  "paid": [{"owner": "red", "banknote": 60000}], "returned": [20000],
                  "ties": [], "ranking": [...], "reasons": ["red takes $60,000 with 5 dice", ...]}, ...],
     "totals": {"red": 60000}}

``counts`` weigh a Biggy as two dice; ``paid`` lists real players only; ``returned`` lists every note
that goes back under the pile, including notes won by a neutral owner; ``totals`` lists the players
paid (and, where ``chips`` were given, what their chips are worth, also listed as ``"chips_usd"``).
``ties``, ``ranking`` and ``reasons`` explain the result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import ImpossibleTableError, NotationError
from referee.game import find_game
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
from referee.lasvegas.rules import RuleSet
from referee.lasvegas.scoring import CasinoPayout, RoundPayout, score_casino
from referee.lasvegas.state import GameState, outcome, preview
from referee.types import CasinoId, Colour

__all__ = [
    "Table",
    "TableCasino",
    "casino_to_json",
    "event_from_json",
    "event_to_json",
    "page_json",
    "payout_to_json",
    "settle_json",
    "state_table_json",
    "table_from_json",
    "table_view_json",
]


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready dict."""
    if isinstance(event, BanknotesDealt):
        return {"event": "dealt", "casinos": [list(notes) for notes in event.casinos]}
    if isinstance(event, NeutralDiceRolled):
        return {"event": "neutral-rolled", "values": list(event.values)}
    if isinstance(event, DiceRolled):
        out: dict[str, Any] = {"event": "rolled", "player": event.player.value, "dice": list(event.dice)}
        if event.biggies:
            out["biggies"] = list(event.biggies)
        if event.neutral:
            out["neutral"] = list(event.neutral)
        return out
    if isinstance(event, DicePlaced):
        out = {"event": "placed", "player": event.player.value, "casino": int(event.casino), "dice": event.dice}
        if event.biggies:
            out["biggies"] = event.biggies
        if event.neutral:
            out["neutral"] = event.neutral
        return out
    if isinstance(event, Passed):
        return {"event": "passed", "player": event.player.value}
    if isinstance(event, RoundScored):
        return {"event": "scored"}
    if isinstance(event, ResourcesCounted):
        return {"event": "counted", "resource": event.resource, "counts": list(event.counts)}
    raise NotationError(f"not an event: {event!r}")


def _ints(obj: dict[str, Any], key: str, default: Any = None) -> tuple[int, ...]:
    value = obj.get(key, default)
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise NotationError(f"{key!r} must be a list of whole numbers, got {value!r}")
    return tuple(value)


def _int(obj: dict[str, Any], key: str, default: Any = None) -> int:
    value = obj.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise NotationError(f"{key!r} must be a whole number, got {value!r}")
    return value


def event_from_json(obj: Any) -> Event:
    """Parses one event dict (as written by :func:`event_to_json`).

    Raises:
        NotationError: for an unknown event type or a missing or mistyped field.
    """
    if not isinstance(obj, dict):
        raise NotationError(f"an event is a JSON object, got {obj!r}")
    kind = obj.get("event")
    if kind == "dealt":
        casinos = obj.get("casinos")
        if not isinstance(casinos, list):
            raise NotationError(f"'casinos' must be a list of note lists, got {casinos!r}")
        return BanknotesDealt(tuple(_ints({"notes": c}, "notes") for c in casinos))
    if kind == "neutral-rolled":
        return NeutralDiceRolled(_ints(obj, "values"))
    if kind == "rolled":
        return DiceRolled(Colour.from_str(obj.get("player")), _ints(obj, "dice"), _ints(obj, "biggies", []),
                          _ints(obj, "neutral", []))  # fmt: skip
    if kind == "placed":
        return DicePlaced(Colour.from_str(obj.get("player")), _int(obj, "casino"), _int(obj, "dice"),
                          _int(obj, "biggies", 0), _int(obj, "neutral", 0))  # fmt: skip
    if kind == "passed":
        return Passed(Colour.from_str(obj.get("player")))
    if kind == "scored":
        return RoundScored()
    if kind == "counted":
        resource = obj.get("resource")
        if not isinstance(resource, str) or not resource:
            raise NotationError(f"'resource' must name what was counted (e.g. \"chips\"), got {resource!r}")
        return ResourcesCounted(resource, _ints(obj, "counts"))
    raise NotationError(f"unknown event {kind!r}; events: dealt, neutral-rolled, rolled, placed, passed, scored, "
                        "counted")  # fmt: skip


@dataclass(frozen=True, slots=True)
class TableCasino:
    """One casino of a table read from JSON."""

    casino: CasinoId
    """Which casino."""
    dice: tuple[tuple[Colour, int], ...]
    """Normal dice per owner."""
    biggies: tuple[tuple[Colour, int], ...]
    """Biggys per owner."""
    banknotes: tuple[int, ...]
    """Notes in dollars, highest first."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table to settle: casinos with dice and notes, and which colours are neutral."""

    casinos: tuple[TableCasino, ...]
    """The casinos given, in input order."""
    neutral: tuple[Colour, ...]
    """Neutral colours: each is an imaginary owner whose notes go under the pile."""
    biggy_weight: int
    """How many dice a Biggy counts as."""
    rules: RuleSet | None = None
    """The rule set whose payout rule settles it (None: Las Vegas's)."""
    resources: tuple[tuple[Colour, tuple[tuple[str, int], ...]], ...] = ()
    """Resources per player given with the table (Royale's chips), counted in the totals."""

    def counts(self, casino: TableCasino) -> dict[Colour, int]:
        """Weighted dice per owner at one casino."""
        counts = dict(casino.dice)
        for owner, biggies in casino.biggies:
            counts[owner] = counts.get(owner, 0) + self.biggy_weight * biggies
        return counts

    def settle(self) -> RoundPayout:
        """Settles every casino given."""
        pay = self.rules.hooks.pay if self.rules is not None else score_casino
        return RoundPayout(tuple(pay(c.casino, self.counts(c), c.banknotes, self.neutral) for c in self.casinos))

    def resources_usd(self) -> dict[Colour, int]:
        """What the resources given are worth per player (Royale: $10,000 a chip)."""
        worth = dict(self.rules.hooks.resource_usd) if self.rules is not None else {}
        return {player: sum(worth.get(name, 0) * count for name, count in held) for player, held in self.resources}


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise NotationError(f"{what} must be a JSON object, got {value!r}")
    return value


def _whole(value: Any, what: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise NotationError(f"{what} must be a whole number >= {minimum}, got {value!r}")
    return value


def _dice(value: Any, what: str) -> tuple[tuple[Colour, int], ...]:
    counts: dict[Colour, int] = {}
    for name, count in _object(value, what).items():
        colour = Colour.from_str(name)
        if colour in counts:
            raise NotationError(f"{what}: {colour} is given twice")
        counts[colour] = _whole(count, f"{what}[{name!r}]")
    return tuple((colour, count) for colour, count in counts.items() if count)


def table_from_json(obj: Any) -> Table:
    """Reads and checks a table in the JSON table shape.

    Raises:
        NotationError: a missing or mistyped field, an unknown colour, casino or game.
        ImpossibleTableError: more dice or notes than the game has, a casino given twice.
    """
    obj = _object(obj, "a table")
    unknown = set(obj) - {"game", "variants", "neutral", "casinos", "chips"}
    if unknown:
        raise NotationError(f"unknown field(s) {sorted(unknown)}; expected game, variants, neutral, casinos, chips")
    game = obj.get("game", "las-vegas")
    variants = obj.get("variants")
    if variants is not None and (not isinstance(variants, list) or not all(isinstance(v, str) for v in variants)):
        raise NotationError(f"'variants' must be a list of variant names, got {variants!r}")
    if not isinstance(game, str):
        raise NotationError(f"'game' must be a game name, got {game!r}")
    try:
        family = find_game(game)
        rules = family.find_ruleset(game, variants or ())
        # Without variants, accept anything some variant of the game allows.
        every = tuple(getattr(family, "variant_names", ()))
        loosest = rules if variants is not None or not every else family.find_ruleset(game, every)
    except ValueError as error:
        raise NotationError(str(error)) from None
    if not isinstance(rules, RuleSet):
        raise NotationError(f"{family.title} is not a casino dice game: 'settle' cannot settle it")
    neutral_list = obj.get("neutral", [])
    if not isinstance(neutral_list, list):
        raise NotationError(f"'neutral' must be a list of colours, got {neutral_list!r}")
    neutral = tuple(dict.fromkeys(Colour.from_str(name) for name in neutral_list))
    casinos_list = obj.get("casinos")
    if not isinstance(casinos_list, list):
        raise NotationError("'casinos' must be a list of casino objects")

    casinos = []
    seen: set[CasinoId] = set()
    for index, item in enumerate(casinos_list):
        item = _object(item, f"casinos[{index}]")
        extra = set(item) - {"casino", "dice", "biggy", "banknotes"}
        if extra:
            raise NotationError(f"casinos[{index}]: unknown field(s) {sorted(extra)}")
        if "casino" not in item:
            raise NotationError(f"casinos[{index}]: 'casino' (1 to 6) is missing")
        casino = CasinoId.parse(item["casino"])
        if casino in seen:
            raise ImpossibleTableError(f"casino {int(casino)} is given twice")
        seen.add(casino)
        notes = item.get("banknotes", [])
        if not isinstance(notes, list):
            raise NotationError(f"casino {int(casino)}: 'banknotes' must be a list of dollar values")
        denominations = loosest.deck_counts()
        if rules.notes_per_casino and len(notes) > rules.notes_per_casino:
            raise ImpossibleTableError(f"casino {int(casino)}: {len(notes)} cards, but {rules.game} deals "
                                       f"{rules.notes_per_casino} to each casino")  # fmt: skip
        for note in notes:
            if isinstance(note, bool) or note not in denominations:
                values = ", ".join(str(v) for v in sorted(denominations))
                raise ImpossibleTableError(f"casino {int(casino)}: {note!r} is not a banknote of {game} ({values})")
        casinos.append(TableCasino(casino, _dice(item.get("dice", {}), f"casino {int(casino)} dice"),
                                   _dice(item.get("biggy", {}), f"casino {int(casino)} biggy"),
                                   tuple(sorted(notes, reverse=True))))  # fmt: skip
    table = Table(tuple(casinos), neutral, rules.biggy_weight, rules, _resources(obj, rules))
    _check_components(table, loosest, loosest is not rules, game)
    return table


def _resources(obj: dict[str, Any], rules: RuleSet) -> tuple[tuple[Colour, tuple[tuple[str, int], ...]], ...]:
    """The optional per-player resources of a table (``"chips": {"red": 2}``), for a game that has them."""
    names = [name for name, _ in rules.hooks.resources]
    given = [name for name in names if name in obj]
    unknown = sorted(set(obj) & {"chips"} - set(names))
    if unknown:
        raise NotationError(f"{rules.game} has no {unknown[0]}")
    held: dict[Colour, list[tuple[str, int]]] = {}
    for name in given:
        for colour, count in _dice(obj[name], f"'{name}'"):
            held.setdefault(colour, []).append((name, count))
    return tuple((colour, tuple(counts)) for colour, counts in held.items())


def _check_components(table: Table, rules: RuleSet, loose: bool, game: str) -> None:
    dice: Counter[Colour] = Counter()
    biggies: Counter[Colour] = Counter()
    notes: Counter[int] = Counter()
    for casino in table.casinos:
        dice.update(dict(casino.dice))
        biggies.update(dict(casino.biggies))
        notes.update(casino.banknotes)
    neutral_max = max(rules.neutral_total_for(n) for n in range(rules.min_players, rules.max_players + 1))
    max_biggies = rules.biggies_per_player
    max_dice = rules.dice_per_player + (rules.biggies_per_player if loose else 0)
    for colour in sorted({*dice, *biggies}, key=list(Colour).index):
        if colour in table.neutral:
            if biggies[colour]:
                raise ImpossibleTableError(f"{colour} dice are neutral and neutral dice have no Biggy")
            if dice[colour] > neutral_max:
                raise ImpossibleTableError(f"{dice[colour]} neutral {colour} dice: {game} has at most {neutral_max}")
            continue
        if biggies[colour] > max_biggies:
            raise ImpossibleTableError(f"{biggies[colour]} {colour} Biggys: a player has at most {max_biggies}")
        if dice[colour] + (biggies[colour] if loose else 0) > max_dice:
            raise ImpossibleTableError(
                f"{dice[colour] + biggies[colour]} {colour} dice: a player has at most {max_dice}"
                + (" (Biggy included)" if loose else "")
            )
    deck = rules.deck_counts()
    for value, count in sorted(notes.items()):
        if count > deck[value]:
            raise ImpossibleTableError(f"{count} notes of ${value:,}: the {game} deck has {deck[value]}")


def _colours(counts: Mapping[Colour, int]) -> dict[str, int]:
    return {str(colour): count for colour, count in counts.items()}


def casino_to_json(payout: CasinoPayout) -> dict[str, Any]:
    """One casino's payout in the JSON payout shape."""
    return {
        "casino": int(payout.casino),
        "counts": _colours(dict(payout.counts)),
        "cancelled": [str(owner) for owner in payout.cancelled],
        "paid": [{"owner": str(p.owner), "banknote": p.banknote_usd} for p in payout.paid],
        "returned": list(payout.returned),
        "ties": [{"count": tie.count, "owners": [str(o) for o in tie.owners]} for tie in payout.ties],
        "ranking": [
            {"owner": str(p.owner), "count": p.count, "banknote": p.banknote_usd, "neutral": p.neutral}
            for p in payout.ranking
        ],
        "reasons": payout.explain(),
    }


def payout_to_json(payout: RoundPayout) -> dict[str, Any]:
    """A round payout (or live preview) in the JSON payout shape."""
    return {
        "casinos": [casino_to_json(casino) for casino in payout.casinos],
        "totals": _colours(payout.totals()),
    }


def state_table_json(state: GameState) -> dict[str, Any]:
    """The dice and notes a game state has on its casinos, in the table shape (``settle``'s input).

    Example:
        >>> state = GameState.from_notation("las-vegas kr 1 k 3k:50/-:60/-:70/-:80/-:90/-:40,10 - -/-")
        >>> state_table_json(state)["casinos"][0]
        {'casino': 1, 'dice': {'black': 3}, 'biggy': {}, 'banknotes': [50000]}
    """
    casinos = []
    for number, casino in enumerate(state.casinos, start=1):
        dice = {str(p): n for p, n in zip(state.players, casino.dice, strict=True) if n}
        if casino.neutral and state.neutral is not None:
            dice[str(state.neutral)] = casino.neutral
        biggy = {str(p): n for p, n in zip(state.players, casino.biggies, strict=True) if n}
        casinos.append({"casino": number, "dice": dice, "biggy": biggy, "banknotes": list(casino.banknotes)})
    out: dict[str, Any] = {"game": state.ruleset.game, "variants": list(state.ruleset.variants), "casinos": casinos}
    if state.neutral is not None:
        out["neutral"] = [str(state.neutral)]
    return out


def table_view_json(state: GameState) -> dict[str, Any]:
    """Where a game stands, as the camera referee and the live page show it.

    Round, phase, the player to act (None when nobody is to roll or place), the casinos in the table
    shape and the payout preview.
    """
    to_act = state.to_act
    return {
        "round": state.round,
        "phase": state.phase.value,
        "to_act": str(to_act) if to_act is not None else None,
        "casinos": state_table_json(state)["casinos"],
        "preview": payout_to_json(preview(state)),
    }


def page_json(state: GameState, names: Mapping[str, str]) -> dict[str, Any]:
    """A game state for the page: table, live payout preview, turn, scoreboard, final result."""
    view = table_view_json(state)
    result = outcome(state)
    roll = state.roll
    return {
        "ruleset": state.ruleset.name,
        "round": view["round"],
        "rounds": state.ruleset.rounds,
        "phase": view["phase"],
        "to_act": view["to_act"],
        "players": [
            {"colour": str(p), "name": names.get(str(p), str(p)), "money": m} for p, m in state.money().items()
        ],
        "table": view["casinos"],
        "preview": view["preview"],
        "roll": None
        if roll is None
        else {
            "player": str(roll.player),
            "dice": list(roll.dice),
            "biggies": list(roll.biggies),
            "neutral": list(roll.neutral),
        },
        "standings": None
        if result is None
        else [
            {
                "rank": s.rank,
                "colour": str(s.player),
                "name": names.get(str(s.player), str(s.player)),
                "money": s.money_usd,
                "banknotes": s.banknotes,
            }
            for s in result.standings
        ],
        "notation": state.to_notation(),
    }


def settle_json(obj: Any) -> dict[str, Any]:
    """The ``dice-referee settle`` contract: a table in, its payout out.

    Raises:
        NotationError: malformed input.
        ImpossibleTableError: a table the game's components cannot make.
    """
    table = table_from_json(obj)
    out = payout_to_json(table.settle())
    if table.resources:
        worth = table.resources_usd()
        totals = out["totals"]
        for player, usd in worth.items():
            if usd:
                totals[str(player)] = totals.get(str(player), 0) + usd
        out["chips_usd"] = {str(player): usd for player, usd in worth.items()}
    return out
