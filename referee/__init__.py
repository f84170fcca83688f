"""dice-referee's rules engine: pure, deterministic, standard library only.

The engine referees Las Vegas (alea 2012) and its variants. A :class:`GameState` is frozen and
:func:`apply` is its only transition; dice rolls and banknote deals are input events, so a camera can
feed what really happened and every game replays from its record.

Example:
    >>> from referee import find_ruleset, new_game, apply, BanknotesDealt, DiceRolled, place_all, preview
    >>> state = new_game(find_ruleset("las-vegas"), ["red", "blue"])
    >>> state = apply(state, BanknotesDealt(((60_000,), (50_000,), (90_000,), (70_000,), (80_000,),
    ...                                      (10_000, 40_000))))
    >>> state = apply(state, DiceRolled(Colour.RED, (1, 3, 3, 5, 6, 6, 6, 2)))
    >>> state = apply(state, place_all(state, 3))
    >>> preview(state).totals()
    {Colour.RED: 90000}
"""

from referee.errors import (
    IllegalDealError,
    IllegalEventError,
    IllegalPlacementError,
    IllegalRollError,
    ImpossibleTableError,
    NotationError,
    OutOfTurnError,
    RefereeError,
    UnknownRuleSetError,
)
from referee.events import BanknotesDealt, DicePlaced, DiceRolled, Event, NeutralDiceRolled, RoundScored
from referee.rules import RULESETS, VARIANTS, RuleSet, Variant, find_ruleset
from referee.scoring import (
    CasinoPayout,
    Outcome,
    Payment,
    RoundPayout,
    Standing,
    Termination,
    Tie,
    score_casino,
    score_round,
)
from referee.state import (
    CHANCE,
    GAME_OVER,
    SETTLEMENT,
    Casino,
    GameState,
    Phase,
    Turn,
    apply,
    legal_placements,
    new_game,
    next_actor,
    outcome,
    place_all,
    preview,
    replay,
    standings,
)
from referee.table import DieReading, Problem, TableSnapshot, validate
from referee.types import DENOMINATIONS_USD, CasinoId, Colour, Die, format_usd

__all__ = [
    "CHANCE",
    "DENOMINATIONS_USD",
    "GAME_OVER",
    "RULESETS",
    "SETTLEMENT",
    "VARIANTS",
    "BanknotesDealt",
    "Casino",
    "CasinoId",
    "CasinoPayout",
    "Colour",
    "DicePlaced",
    "DiceRolled",
    "Die",
    "DieReading",
    "Event",
    "GameState",
    "IllegalDealError",
    "IllegalEventError",
    "IllegalPlacementError",
    "IllegalRollError",
    "ImpossibleTableError",
    "NeutralDiceRolled",
    "NotationError",
    "OutOfTurnError",
    "Outcome",
    "Payment",
    "Phase",
    "Problem",
    "RefereeError",
    "RoundPayout",
    "RoundScored",
    "RuleSet",
    "Standing",
    "TableSnapshot",
    "Termination",
    "Tie",
    "Turn",
    "UnknownRuleSetError",
    "Variant",
    "apply",
    "find_ruleset",
    "format_usd",
    "legal_placements",
    "new_game",
    "next_actor",
    "outcome",
    "place_all",
    "preview",
    "replay",
    "score_casino",
    "score_round",
    "standings",
    "validate",
]
