"""Just 4 Fun (Kosmos 2005): the rules engine. Cards are played, stones stacked on a 6x6 board, no dice.

The engine is standard library only, like every game's: :mod:`.rules` (the deck, stones and the board's
numbering, a setting), :mod:`.events` (cards drawn, a stone placed, a hand thrown; JSON),
:mod:`.state` (:func:`apply`, the legal moves, ownership, securing, four in a line, the final count) and
:mod:`.simulate` (seeded random games), :mod:`.notation`, and :data:`GAME` behind the game interface
(registered: records replay, ``find_game("just-4-fun")``). Summary of the rules: ``../shared/rules/just-4-fun.md``.
"""

from referee.game import register
from referee.just4fun.events import CardsDrawn, Event, HandDiscarded, StonePlaced, event_from_json, event_to_json
from referee.just4fun.game import GAME
from referee.just4fun.rules import DECK, DEFAULT_LAYOUT, Rules, ruleset
from referee.just4fun.simulate import play
from referee.just4fun.state import Outcome, Phase, State, apply, legal_moves, narrate, new_game, outcome, owner

register(GAME)

__all__ = [
    "DECK",
    "DEFAULT_LAYOUT",
    "GAME",
    "CardsDrawn",
    "Event",
    "HandDiscarded",
    "Outcome",
    "Phase",
    "Rules",
    "State",
    "StonePlaced",
    "apply",
    "event_from_json",
    "event_to_json",
    "legal_moves",
    "narrate",
    "new_game",
    "outcome",
    "owner",
    "play",
    "ruleset",
]
