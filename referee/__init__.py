"""dice-referee's rules engines: pure, deterministic, standard library only.

Every game implements one interface (:class:`referee.game.Game`) and is found in a registry by name
(:func:`find_game`); games live in their own packages (Las Vegas (alea 2012) and its variants in
:mod:`referee.lasvegas`). Shared by all: errors, colours, the record (:mod:`referee.record`), what a
camera reads (:mod:`referee.readings`) and the camera interpreter (:mod:`referee.interpret`).

The names below are Las Vegas's, as before the games had packages (Las Vegas Royale, :mod:`referee.royale`,
is a rule set of the same engine; :func:`find_ruleset` finds any game's rule sets): a :class:`GameState` is frozen
and :func:`apply` is its only transition; dice rolls and banknote deals are input events, so a
camera can feed what really happened and every game replays from its record.

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
from referee.game import Game, find_game, find_ruleset, game_of, games, register
from referee.lasvegas import GAME as LAS_VEGAS
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
from referee.lasvegas.hooks import Hooks
from referee.lasvegas.rules import RULESETS, VARIANTS, RuleSet, Variant
from referee.lasvegas.scoring import (
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
from referee.lasvegas.state import (
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
from referee.lasvegas.table import Problem, validate
from referee.readings import DieReading, TableSnapshot
from referee.types import DENOMINATIONS_USD, CasinoId, Colour, Die, Ownerless, format_usd

__all__ = [
    "CHANCE",
    "DENOMINATIONS_USD",
    "GAME_OVER",
    "LAS_VEGAS",
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
    "Game",
    "GameState",
    "Hooks",
    "IllegalDealError",
    "IllegalEventError",
    "IllegalPlacementError",
    "IllegalRollError",
    "ImpossibleTableError",
    "NeutralDiceRolled",
    "NotationError",
    "OutOfTurnError",
    "Outcome",
    "Ownerless",
    "Passed",
    "Payment",
    "Phase",
    "Problem",
    "RefereeError",
    "ResourcesCounted",
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
    "find_game",
    "find_ruleset",
    "format_usd",
    "game_of",
    "games",
    "legal_placements",
    "new_game",
    "next_actor",
    "outcome",
    "place_all",
    "preview",
    "register",
    "replay",
    "score_casino",
    "score_round",
    "standings",
    "validate",
]
