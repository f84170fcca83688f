"""Just 4 Fun's state and its one transition, :func:`apply`: the rules as the summary gives them.

A turn (``../shared/rules/just-4-fun.md``; the seed rulebook's own words in brackets where they settle a
doubt): play 1-4 cards of your hand whose sum names a field; put one stone on your spot of that field
(stacked on yours); draw back to 4 (from the pile, shuffled again from the discards when it runs out). You
may not place where an opponent has two or more stones more than you. Two more than every other player
secures a field: the others' stones leave the game, your stack moves to the centre and nobody else may
place there ["the opponents can no longer place stones on this field"]. A field is owned by the player
with strictly most stones. Owning four fields in a straight line wins at once. A player who can place
nowhere throws his whole hand and draws a new one. When every stone is placed, minority stones leave each
field, then stones tied for most [seed's example: red 2, white 2, black 1: black's goes, then red's and
white's]; each adds up the numbers of the fields where he still has stones; most wins, and on a tie the
one with a stone on the highest field.

Where the sources are silent (impl.): a player whose stones are all placed is passed over while others
still have stones; a draw takes what the pile and the discards hold when both run short; the player who
secured a field may still place there (only "the opponents" may not, in the seed's words).

The pile's order is chance: cards drawn arrive as :class:`~referee.just4fun.events.CardsDrawn` events, and
are checked against what the pile can hold (the deck less the hands and the discards).

Example:
    >>> from referee.just4fun.events import CardsDrawn, StonePlaced
    >>> state = new_game(ruleset(layout=range(1, 37)), ["red", "blue"])
    >>> state = apply(state, CardsDrawn(Colour.RED, (1, 2, 5, 9)))
    >>> state = apply(state, CardsDrawn(Colour.BLUE, (3, 3, 7, 12)))
    >>> state = apply(state, StonePlaced(Colour.RED, (2, 5), 7))
    >>> state.stack(7), state.hands[0], state.to_draw
    ((1, 0), (1, 9), 2)
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from referee.errors import IllegalEventError, OutOfTurnError
from referee.just4fun.events import CardsDrawn, Event, HandDiscarded, StonePlaced
from referee.just4fun.rules import SIDE, Rules, ruleset
from referee.types import Colour

__all__ = [
    "Outcome",
    "Phase",
    "State",
    "apply",
    "cards_to_draw",
    "legal_moves",
    "narrate",
    "new_game",
    "outcome",
    "owner",
    "refused",
    "threats",
    "unaccounted",
]

FIELDS = SIDE * SIDE


class Phase(enum.Enum):
    """What the next event is."""

    DEAL = "deal"
    """A player's first hand is drawn (seat by seat)."""
    PLAY = "play"
    """The player to move places a stone (or, able to place nowhere, throws his hand)."""
    DRAW = "draw"
    """The player who moved draws back to a full hand."""
    OVER = "over"
    """Four in a line, or every stone placed: nothing more is accepted."""


@dataclass(frozen=True, slots=True)
class State:
    """A Just 4 Fun table. Per field (by number, index ``number - 1``) the stones of each seat."""

    rules: Rules
    players: tuple[Colour, ...]
    phase: Phase
    turn: int
    """The seat to move (or to draw)."""
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    """The cards face down, sorted (their order is chance)."""
    discards: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]
    secured: tuple[int, ...]
    """Per field the seat that secured it, or -1."""
    stones: tuple[int, ...]
    """Stones each seat has still to place."""
    to_draw: int = 0
    """Cards the player in :attr:`Phase.DRAW` draws."""
    winner: int = -1
    """The seat with four in a line (-1: none)."""
    gone: int = 0
    """Stones that left the game (the others' stones on a field secured)."""
    history: tuple[Event, ...] = field(default=(), compare=False)
    """The events so far (not part of what the state is: two games at the same table are equal)."""

    @property
    def ruleset(self) -> Rules:
        """The rules (named like every game's)."""
        return self.rules

    def stack(self, number: int) -> tuple[int, ...]:
        """The stones of each seat on field ``number``."""
        return self.stacks[number - 1]

    def seat(self, player: Colour) -> int:
        """The seat of ``player``.

        Raises:
            IllegalEventError: for a colour nobody plays.
        """
        try:
            return self.players.index(player)
        except ValueError:
            raise IllegalEventError(f"{player} does not play in this game") from None


def new_game(rules: Rules | None, players: Sequence[Colour | str]) -> State:
    """A game about to start: every player's first hand to be drawn, the first seat to move.

    Raises:
        IllegalEventError: for a number of players the rules do not allow, or a colour twice.
    """
    rules = rules or ruleset()
    colours = tuple(p if isinstance(p, Colour) else Colour.from_str(p) for p in players)
    fewest, most = rules.players
    if not fewest <= len(colours) <= most or len(set(colours)) != len(colours):
        raise IllegalEventError(f"Just 4 Fun is for {fewest} to {most} players of different colours, "
                                f"not {[c.value for c in colours]}")  # fmt: skip
    n = len(colours)
    return State(rules, colours, Phase.DEAL, 0, ((),) * n, rules.deck, (), ((0,) * n,) * FIELDS, (-1,) * FIELDS,
                 (rules.stones,) * n, to_draw=rules.hand)  # fmt: skip


def owner(state: State, number: int) -> int:
    """The seat with strictly most stones on field ``number`` (-1: nobody)."""
    stack = state.stack(number)
    most = max(stack)
    return stack.index(most) if most and stack.count(most) == 1 else -1


def apply(state: State, event: Event) -> State:
    """The state after ``event``.

    Raises:
        IllegalEventError: when the rules refuse it (why, in words); nothing changes.
    """
    if not isinstance(event, CardsDrawn | StonePlaced | HandDiscarded):
        raise IllegalEventError(f"not a Just 4 Fun event: {event!r}")
    if state.phase is Phase.OVER:
        raise IllegalEventError("the game is over")
    seat = state.seat(event.player)
    if seat != state.turn:
        raise OutOfTurnError(f"it is {state.players[state.turn]}'s turn, not {event.player}'s")
    if isinstance(event, CardsDrawn):
        return _drawn(state, seat, event)
    if state.phase is not Phase.PLAY:
        raise IllegalEventError(f"{event.player} draws {state.to_draw} cards first")
    if isinstance(event, StonePlaced):
        return _placed(state, seat, event)
    if isinstance(event, HandDiscarded):
        if legal_placements(state):
            raise IllegalEventError(f"{event.player} can place a stone: a hand is thrown only when no play is legal")
        hand = state.hands[seat]
        return replace(state, phase=Phase.DRAW, hands=_set(state.hands, seat, ()),
                       discards=_sorted(state.discards + hand), to_draw=len(hand),
                       history=(*state.history, event))  # fmt: skip
    raise AssertionError("unreachable: every event type is handled above")


def _drawn(state: State, seat: int, event: CardsDrawn) -> State:
    if state.phase not in (Phase.DEAL, Phase.DRAW):
        raise IllegalEventError(f"{event.player} places a stone now, he draws after")
    pile, discards = Counter(state.pile), Counter(state.discards)
    wanted = cards_to_draw(state)
    if len(event.cards) != wanted:
        raise IllegalEventError(f"{event.player} draws {wanted} cards, not {len(event.cards)}")
    drawn = Counter(event.cards)
    if len(state.pile) >= wanted:
        if drawn - pile:
            raise IllegalEventError(f"the pile holds no {_words(drawn - pile)} (it holds {_words(pile)})")
    else:  # the pile runs out: all of it, then the discards shuffled into a new pile
        if pile - drawn:
            raise IllegalEventError(f"the pile runs out: {event.player} draws all of it ({_words(pile)}) first")
        if drawn - pile - discards:
            raise IllegalEventError(f"neither the pile nor the discards hold {_words(drawn - pile - discards)}")
        pile, discards = discards, Counter()
        drawn = drawn - Counter(state.pile)
    hands = _set(state.hands, seat, _sorted(state.hands[seat] + event.cards))
    after = replace(state, hands=hands, pile=_sorted((pile - drawn).elements()), discards=_sorted(discards.elements()),
                    history=(*state.history, event))  # fmt: skip
    if state.phase is Phase.DEAL:
        if seat + 1 < len(state.players):
            return replace(after, turn=seat + 1, to_draw=state.rules.hand)
        return replace(after, phase=Phase.PLAY, turn=0, to_draw=0)
    return _next_turn(replace(after, to_draw=0), seat)


def _placed(state: State, seat: int, event: StonePlaced) -> State:
    player, number = event.player, event.field
    hand = Counter(state.hands[seat])
    played = Counter(event.cards)
    if not 1 <= len(event.cards) <= state.rules.hand:
        raise IllegalEventError(f"a play is 1 to {state.rules.hand} cards, not {len(event.cards)}")
    if played - hand:
        raise IllegalEventError(f"{player} holds no {_words(played - hand)} (holds {_words(hand)})")
    if sum(event.cards) != number:
        raise IllegalEventError(f"the cards {_words(played)} add up to {sum(event.cards)}, not field {number}")
    why = refused(state, seat, number)
    if why:
        raise IllegalEventError(why)
    stack = list(state.stack(number))
    stack[seat] += 1
    secured, gone = state.secured, state.gone
    if secured[number - 1] < 0 and all(stack[seat] >= n + 2 for s, n in enumerate(stack) if s != seat):
        gone += sum(stack) - stack[seat]
        stack = [n if s == seat else 0 for s, n in enumerate(stack)]  # the others' stones leave the game
        secured = _set(secured, number - 1, seat)
    hands = _set(state.hands, seat, _sorted((hand - played).elements()))
    after = replace(state, phase=Phase.DRAW, hands=hands, discards=_sorted(state.discards + event.cards),
                    stacks=_set(state.stacks, number - 1, tuple(stack)), secured=secured, gone=gone,
                    stones=_set(state.stones, seat, state.stones[seat] - 1), to_draw=len(event.cards),
                    history=(*state.history, event))  # fmt: skip
    if _four(after, seat, number):
        return replace(after, phase=Phase.OVER, winner=seat, to_draw=0)
    if not any(after.stones):
        return replace(after, phase=Phase.OVER, to_draw=0)
    return after


def refused(state: State, seat: int, number: int) -> str:
    """Why ``seat`` may not place on field ``number`` now ("" when he may)."""
    player = state.players[seat]
    if not 1 <= number <= FIELDS:
        return f"there is no field {number} (1-{FIELDS})"
    if not state.stones[seat]:
        return f"{player} has no stones left"
    holder = state.secured[number - 1]
    if holder >= 0 and holder != seat:
        return f"field {number} is secured by {state.players[holder]}: nobody else places there"
    stack = state.stack(number)
    ahead = [s for s, n in enumerate(stack) if s != seat and n >= stack[seat] + 2]
    if ahead:
        return (f"{state.players[ahead[0]]} has {stack[ahead[0]]} stones on field {number} against {player}'s "
                f"{stack[seat]}: two or more ahead, so {player} may not place there")  # fmt: skip
    return ""


def cards_to_draw(state: State) -> int:
    """How many cards the player to draw takes: what he is owed, or what the pile and the discards still hold."""
    return min(state.to_draw, len(state.pile) + len(state.discards))


def legal_placements(state: State) -> tuple[StonePlaced, ...]:
    """Every stone the player to move may place, with each different set of his cards that names its field."""
    if state.phase is not Phase.PLAY:
        return ()
    seat = state.turn
    hand = state.hands[seat]
    found: dict[tuple[int, ...], StonePlaced] = {}  # the cards name their field: equal cards, one placement
    for size in range(1, min(state.rules.hand, len(hand)) + 1):
        for cards in itertools.combinations(hand, size):
            number = sum(cards)
            if cards not in found and number <= FIELDS and not refused(state, seat, number):
                found[cards] = StonePlaced(state.players[seat], cards, number)
    return tuple(found.values())


def unaccounted(state: State) -> list[str]:
    """What ``state`` breaks of what every state of a game keeps ("name: what"; empty when nothing).

    ``stones_conserved``: the stones placed are on the board or left the game (secured fields);
    ``cards_conserved``: the pile, the discards and the hands hold the deck, each card once.
    """
    found = []
    placed = sum(state.rules.stones - s for s in state.stones)
    if placed != sum(map(sum, state.stacks)) + state.gone:
        found.append(f"stones_conserved: {placed} placed, {sum(map(sum, state.stacks))} on the board, "
                     f"{state.gone} gone")  # fmt: skip
    cards = Counter(state.pile) + Counter(state.discards) + sum((Counter(h) for h in state.hands), Counter())
    if cards != Counter(state.rules.deck):
        found.append("cards_conserved: the pile, the discards and the hands are not the deck")
    return found


def legal_moves(state: State) -> tuple[Event, ...]:
    """The decisions open to the player to move: his placements, or throwing his hand when there is none.

    Draws are chance (not listed): feed them as :class:`CardsDrawn`.
    """
    if state.phase is not Phase.PLAY:
        return ()
    placements = legal_placements(state)
    return placements or (HandDiscarded(state.players[state.turn]),)


def _next_turn(state: State, seat: int) -> State:
    """The next seat clockwise that still has stones, to play."""
    n = len(state.players)
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if state.stones[nxt]:
            return replace(state, phase=Phase.PLAY, turn=nxt)
    return replace(state, phase=Phase.OVER)


def _four(state: State, seat: int, number: int) -> bool:
    """True when ``seat`` owns every field of some line of four through field ``number`` (his last stone)."""
    return any(all(owner(state, n) == seat for n in line) for line in state.rules.lines_through(number))


def threats(state: State) -> list[tuple[int, tuple[int, ...], int]]:
    """Lines of four a player is one field from: (seat, the line, the field he lacks), each once.

    He owns three of its fields, and the fourth is one he may still come to own (not secured by another).
    """
    found = []
    for line in state.rules.lines():
        owners = [owner(state, n) for n in line]
        for seat in set(owners) - {-1}:
            lacking = [n for n, o in zip(line, owners, strict=True) if o != seat]
            if len(lacking) == 1 and state.secured[lacking[0] - 1] in (-1, seat):
                found.append((seat, line, lacking[0]))
    return found


@dataclass(frozen=True)
class Outcome:
    """The game's result (or what it would be if it ended now), with its reasons."""

    winner: Colour | None
    """None: not decided (a game still on that no line has ended, or two players alike to the last rule)."""
    by: str
    """``"line"``, ``"points"`` or ``""`` (still on)."""
    points: dict[Colour, int]
    """Per player, the sum of the fields he keeps stones on after the minority and tied stones leave."""
    reasons: tuple[str, ...]


def outcome(state: State) -> Outcome:
    """Who won and why; while the game is on, the points as they would be counted now."""
    kept: dict[int, int] = {}
    reasons = []
    for number in range(1, FIELDS + 1):
        stack = state.stack(number)
        if not any(stack):
            continue
        held = owner(state, number)
        if held >= 0:
            kept[number] = held
        else:
            tied = [state.players[s].value for s, n in enumerate(stack) if n == max(stack)]
            reasons.append(f"field {number}: {' and '.join(tied)} tie with {max(stack)} stones: theirs go too")
    points = {p: sum(n for n, s in kept.items() if s == seat) for seat, p in enumerate(state.players)}
    if state.winner >= 0:
        player = state.players[state.winner]
        line = next(line for line in state.rules.lines() if all(owner(state, n) == state.winner for n in line))
        return Outcome(player, "line", points, (f"{player} owns fields {', '.join(map(str, line))} in a line",))
    if state.phase is not Phase.OVER:
        return Outcome(None, "", points, tuple(reasons))
    best = max(points.values())
    leaders = [p for p in state.players if points[p] == best]
    if len(leaders) > 1:
        top = {p: max((n for n, s in kept.items() if state.players[s] is p), default=0) for p in leaders}
        highest = max(top.values())
        tie = [p for p in leaders if top[p] == highest]
        reasons.append(f"{' and '.join(p.value for p in leaders)} tie with {best}: the stone on the highest field "
                       f"({highest}) decides")  # fmt: skip
        leaders = tie
    winner = leaders[0] if len(leaders) == 1 else None
    return Outcome(winner, "points", points, (*reasons, f"{winner or 'nobody'} wins with {best} points"))


def narrate(event: Event, before: State) -> str:
    """The event in words, as the page says it."""
    player = event.player
    if isinstance(event, CardsDrawn):
        return f"{player} draws {len(event.cards)} card{'s' * (len(event.cards) != 1)}"
    if isinstance(event, HandDiscarded):
        return f"{player} can place nowhere and throws his hand"
    after = apply(before, event)
    cards = " + ".join(map(str, event.cards))
    text = f"{player} plays {cards} and places a stone on field {event.field}"
    if after.secured[event.field - 1] >= 0 and before.secured[event.field - 1] < 0:
        text += f": {player} secures field {event.field}"
    if after.winner >= 0:
        text += f"; {player} owns four fields in a line and wins"
    return text


def _set(values: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (*values[:index], value, *values[index + 1 :])


def _sorted(cards: object) -> tuple[int, ...]:
    return tuple(sorted(cards))  # type: ignore[call-overload]


def _words(cards: Counter[int]) -> str:
    return " ".join(map(str, sorted(cards.elements()))) or "nothing"
