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
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from referee.errors import RefereeError
from referee.just4fun.events import CardsDrawn, Event, StonePlaced
from referee.just4fun.rules import Rules, ruleset
from referee.just4fun.state import (
    Phase,
    State,
    apply,
    cards_to_draw,
    legal_moves,
    new_game,
    outcome,
    unaccounted,
)
from referee.types import Colour

__all__ = ["INVARIANTS", "MOST_EVENTS", "play", "simulate", "violations"]

MOST_EVENTS = 5000
"""Events a random game may take before :func:`play` gives it up (a game that cannot end: ``game_ends`` fails)."""

INVARIANTS = ("stones_conserved", "cards_conserved", "blocking_rule_kept", "secured_fields_never_change",
              "game_ends", "legal_play_accepted")  # fmt: skip
"""What :func:`simulate` checks in every game (after every event where it applies)."""


def play(players: Sequence[Colour | str], seed: int | random.Random = 0, rules: Rules | None = None,
         ) -> Iterator[tuple[Event | None, State]]:  # fmt: skip
    """A random legal game: ``(None, first state)``, then each event with the state after it."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    state = new_game(rules, players)
    yield None, state
    order: list[int] = list(state.pile)
    rng.shuffle(order)  # the pile, top last
    for _ in range(MOST_EVENTS):  # a game of 2-4 players takes fewer than 400
        if state.phase is Phase.OVER:
            return
        player = state.players[state.turn]
        if state.phase in (Phase.DEAL, Phase.DRAW):
            wanted = cards_to_draw(state)
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


def violations(before: State | None, event: Event | None, after: State) -> list[str]:
    """The invariants ``after`` breaks ("name: what"), given the state ``before`` and the ``event`` between.

    Those of every state (:func:`~referee.just4fun.state.unaccounted`: stones and cards conserved); a stone
    placed where an opponent was two or more ahead; a secured field whose holder or stones changed other than
    by its holder's stone.
    """
    found = unaccounted(after)
    if before is None:
        return found
    if isinstance(event, StonePlaced):
        seat, stack = before.turn, before.stack(event.field)
        if any(n >= stack[seat] + 2 for s, n in enumerate(stack) if s != seat):
            found.append(f"blocking_rule_kept: {event.player} placed on field {event.field} against {stack}")
    for index, holder in enumerate(before.secured):
        if holder < 0:
            continue
        stack = after.stacks[index]
        if after.secured[index] != holder or any(n for s, n in enumerate(stack) if s != holder):
            found.append(f"secured_fields_never_change: field {index + 1} secured by seat {holder} is now {stack}")
    return found


def simulate(players: Sequence[Colour | str], games: int, seed: int, rules: Rules | None = None) -> dict[str, Any]:
    """Plays ``games`` random games and checks :data:`INVARIANTS`; returns the JSON summary.

    ``dice-referee simulate --game just-4-fun`` prints it (shaped like the dice games': ``invariants``,
    ``checks``, ``ok``, ``failures``). Game ``i`` uses the ``i``-th 64-bit draw of ``random.Random(seed)``,
    named with any failure.

    Raises:
        IllegalEventError: for players the game does not allow.
    """
    rules = rules or ruleset()
    new_game(rules, players)  # the players checked once: 2 to 4 of different colours, else IllegalEventError
    master = random.Random(seed)
    checks: Counter[str] = Counter()
    failures: list[str] = []
    wins: Counter[str] = Counter()
    ended: Counter[str] = Counter()
    events = turns = 0
    started = time.perf_counter()
    for _ in range(games):
        game_seed = master.getrandbits(64)
        before: State | None = None
        try:
            for event, state in play(players, random.Random(game_seed), rules):
                failures += [f"{v} (game seed {game_seed})" for v in violations(before, event, state)]
                checks.update(("stones_conserved", "cards_conserved"))
                if isinstance(event, StonePlaced):
                    checks["blocking_rule_kept"] += 1
                    turns += 1
                checks["secured_fields_never_change"] += sum(h >= 0 for h in state.secured)
                events += event is not None
                before = state
        except RefereeError as error:  # the engine refused an event of a legal random game
            failures.append(f"legal_play_accepted: {error} (game seed {game_seed})")
            continue
        checks["legal_play_accepted"] += 1
        checks["game_ends"] += 1
        if before is None or before.phase is not Phase.OVER:
            failures.append(f"game_ends: the game did not end (game seed {game_seed})")
            continue
        result = outcome(before)
        ended[result.by] += 1
        wins[result.winner.value if result.winner else "nobody"] += 1
    seconds = time.perf_counter() - started
    failed = {f.split(":", 1)[0] for f in failures}
    return {
        "ruleset": rules.name,
        "players": [p.value if isinstance(p, Colour) else Colour.from_str(p).value for p in players],
        "games": games,
        "seed": seed,
        "events": events,
        "turns": turns,
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 1) if seconds else None,
        "us_per_turn": round(1e6 * seconds / turns, 2) if turns else None,
        "invariants": {name: name not in failed for name in INVARIANTS},
        "checks": {name: checks[name] for name in INVARIANTS},
        "ok": not failures,
        "failures": failures,
        "wins": dict(wins),
        "won_by": dict(ended),
    }
