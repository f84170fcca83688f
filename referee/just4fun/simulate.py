"""Seeded random games of Just 4 Fun: a dealer that shuffles the pile, players that play at random.

The referee never draws cards: :func:`play` is the table (a shuffled pile, each player choosing among his
legal moves), feeding every event to :func:`~referee.just4fun.state.apply` like a camera or the page would.

Example:
    >>> last = None
    >>> for event, state in play(["red", "blue", "green"], seed=7):
    ...     last = state
    >>> last.phase.value, sum(last.rules.stones - s for s in last.stones) == sum(map(sum, last.stacks)) + last.gone
    ('over', True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from referee.just4fun.events import CardsDrawn, Event
from referee.just4fun.rules import Rules
from referee.just4fun.state import Phase, State, apply, legal_moves, new_game
from referee.types import Colour

__all__ = ["play"]


def play(players: Sequence[Colour | str], seed: int | random.Random = 0, rules: Rules | None = None,
         ) -> Iterator[tuple[Event | None, State]]:  # fmt: skip
    """A random legal game: ``(None, first state)``, then each event with the state after it."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    state = new_game(rules, players)
    yield None, state
    order: list[int] = list(state.pile)
    rng.shuffle(order)  # the pile, top last
    while state.phase is not Phase.OVER:
        player = state.players[state.turn]
        if state.phase in (Phase.DEAL, Phase.DRAW):
            wanted = min(state.to_draw, len(state.pile) + len(state.discards))
            cards: list[int] = []
            while len(cards) < wanted:
                if not order:  # the pile ran out: the discards (those of before this draw) shuffled anew
                    order = list(state.discards)
                    rng.shuffle(order)
                cards.append(order.pop())
            event: Event = CardsDrawn(player, tuple(sorted(cards)))
        else:
            moves = legal_moves(state)
            event = moves[rng.randrange(len(moves))]
        state = apply(state, event)
        yield event, state
