"""Runner for the golden scenario files in ``tests/referee/scenarios/*.txt``.

One directive per line (``#`` starts a comment):

- ``game RULESET PLAYER... [neutral=COLOUR]`` or ``start NOTATION``: the starting state (any game of
  the registry played with dice: Las Vegas, Las Vegas Royale).
- Events: ``deal 60 / 50 / 40,10 / 90 / 70 / 80`` (thousands per casino), ``preroll 3 6``,
  ``roll PLAYER 1 3 3 [* BIGGY...] [+ NEUTRAL...]``, ``place PLAYER CASINO [DICE [BIGGYS [NEUTRAL]]]``
  (without counts: every rolled die of that value), ``pass PLAYER``, ``score``; Royale's main game:
  ``tiles 1:A2 2:C1 3:D1``, ``lay-bank 30*11,40*11`` (thousands * count), ``black 3 4`` (the 2 black
  dice), ``choose PLAYER CHOICE [AMOUNT]`` (a tile's decision).
- ``error ERRORCLASS text``: the event on the line before must raise that error with ``text`` in its
  message; the state stays as it was.
- Checks: ``notation TEXT``, ``next PLAYER|chance|settlement|game-over``,
  ``payout CASINO: paid red 60 black 30; cancelled blue green; returned 20`` (parts optional,
  ``-`` for none), ``money red 90 blue 0``, ``winners red [blue]``, ``legal CASINO...`` (the casinos
  the player to act may choose), ``chips red 2 blue 3`` (Royale), ``starts PLAYER`` (this round's
  start player), ``final red 1 190 5`` (rank, money with chips counted, cards plus chips),
  ``dollars red 20`` (thousands, outside cards), ``memo CASINO VALUE|-`` (the tile's memory), ``asks TEXT|-`` (the
  step pending, a part of its words), ``bank-is 30*11,...``, ``choices CHOICE[:AMOUNT]...``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import referee
from referee import (
    BanknotesDealt,
    DicePlaced,
    DiceRolled,
    GameState,
    NeutralDiceRolled,
    Passed,
    RoundScored,
    apply,
    legal_placements,
    next_actor,
    outcome,
    place_all,
    preview,
)
from referee.game import find_game, find_ruleset, game_of
from referee.royale.events import BankLaid, BlackDiceRolled, TileChoice, TilesLaid
from referee.types import Colour

SCENARIOS = Path(__file__).with_name("scenarios")


@dataclass
class Line:
    number: int
    verb: str
    args: list[str]
    text: str


def parse(path: Path) -> list[Line]:
    lines = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.split("#", 1)[0].strip()
        if text:
            verb, _, rest = text.partition(" ")
            lines.append(Line(number, verb, rest.split(), rest.strip()))
    return lines


def _faces(tokens: list[str]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    groups: dict[str, list[int]] = {"": [], "*": [], "+": []}
    key = ""
    for token in tokens:
        if token in ("*", "+"):
            key = token
        else:
            groups[key].append(int(token))
    return tuple(groups[""]), tuple(groups["*"]), tuple(groups["+"])


def event_for(line: Line, state: GameState):
    if line.verb == "deal":
        return BanknotesDealt(tuple(
            tuple(int(n) * 1000 for n in part.split(",") if n.strip() not in ("", "-"))
            for part in line.text.split("/")
        ))  # fmt: skip
    if line.verb == "preroll":
        return NeutralDiceRolled(tuple(int(v) for v in line.args))
    if line.verb == "roll":
        return DiceRolled(Colour.from_str(line.args[0]), *_faces(line.args[1:]))
    if line.verb == "place":
        player, casino, *counts = line.args
        if not counts:
            event = place_all(state, int(casino))
            return DicePlaced(Colour.from_str(player), event.casino, event.dice, event.biggies, event.neutral)
        return DicePlaced(Colour.from_str(player), int(casino), *(int(c) for c in counts))
    if line.verb == "pass":
        return Passed(Colour.from_str(line.args[0]))
    if line.verb == "tiles":
        return TilesLaid(tuple((int(part.split(":")[0]), part.split(":")[1]) for part in line.args))
    if line.verb == "lay-bank":
        return BankLaid(_cards(line.text))
    if line.verb == "black":
        return BlackDiceRolled(tuple(int(v) for v in line.args))
    if line.verb == "choose":
        player, choice, *amount = line.args
        return TileChoice(Colour.from_str(player), choice, int(amount[0]) if amount else 0)
    if line.verb == "score":
        return RoundScored()
    return None


def _cards(text: str) -> tuple[int, ...]:
    return tuple(int(value) * 1000 for part in text.split(",") for value, count in [part.split("*")]
                 for _ in range(int(count)))  # fmt: skip


def check(line: Line, state: GameState) -> None:
    where = f"line {line.number}: {line.verb} {line.text}"
    game = game_of(state)
    if line.verb == "notation":
        assert game.to_notation(state) == line.text, where
        assert game.from_notation(line.text) == state, where
    elif line.verb == "dollars":
        pairs = {k: int(v) for k, v in zip(line.args[::2], line.args[1::2], strict=True)}
        tokens = {p.value: n // 1000 for p, n in zip(state.players, state.resource("dollars"), strict=True)}
        assert pairs == {k: tokens[k] for k in pairs}, f"{where}: {tokens}"
    elif line.verb == "memo":
        laid = next(t for t in state.tiles if t.casino == int(line.args[0]))
        memo = (
            "-"
            if laid.memo is None
            else ",".join(map(str, laid.memo))
            if isinstance(laid.memo, tuple)
            else str(laid.memo)
        )
        assert memo == line.args[1], f"{where}: memo {memo}"
    elif line.verb == "asks":
        what = state.pending.what if state.pending is not None else "-"
        assert (line.text in what) if line.text != "-" else what == "-", f"{where}: asks {what!r}"
    elif line.verb == "bank-is":
        assert state.bank == tuple(sorted(_cards(line.text), reverse=True)), f"{where}: bank {state.bank}"
    elif line.verb == "choices":
        got = [f"{c.choice}:{c.amount}" if c.amount else c.choice for c in game.legal_moves(state)]
        assert got == line.args, f"{where}: choices {got}"
    elif line.verb == "next":
        actor = next_actor(state)
        name = actor.value if isinstance(actor, Colour) else actor.value.replace(" ", "-")
        assert name == line.text, f"{where}: next is {name}"
    elif line.verb == "payout":
        casino_text, _, spec = line.text.partition(":")
        payout = preview(state).casinos[int(casino_text) - 1]
        for part in filter(None, (p.strip() for p in spec.split(";"))):
            key, *values = part.split()
            values = [] if values == ["-"] else values
            if key == "paid":
                got = [v for p in payout.paid for v in (p.owner.value, str(p.banknote_usd // 1000))]
            elif key == "cancelled":
                got = [str(c).replace(" ", "-") for c in payout.cancelled]
            elif key == "returned":
                got = [str(n // 1000) for n in payout.returned]
            else:
                raise AssertionError(f"{where}: unknown payout part {key!r}")
            assert got == values, f"{where}: {key} is {got}"
    elif line.verb == "money":
        pairs = dict(zip(line.args[::2], line.args[1::2], strict=True))
        money = {p.value: v // 1000 for p, v in state.money().items()}
        assert {k: int(v) for k, v in pairs.items()} == {k: money[k] for k in pairs}, f"{where}: {money}"
    elif line.verb == "winners":
        result = outcome(state)
        assert result is not None, f"{where}: the game is not over"
        assert [w.value for w in result.winners] == line.args, f"{where}: {result.winners}"
    elif line.verb == "legal":
        assert [str(p.casino) for p in legal_placements(state)] == line.args, where
    elif line.verb == "chips":
        pairs = {k: int(v) for k, v in zip(line.args[::2], line.args[1::2], strict=True)}
        chips = {p.value: n for p, n in zip(state.players, state.resource("chips"), strict=True)}
        assert pairs == {k: chips[k] for k in pairs}, f"{where}: {chips}"
    elif line.verb == "starts":
        assert state.players[state.start].value == line.text, f"{where}: {state.players[state.start]} starts"
    elif line.verb == "final":
        result = outcome(state)
        assert result is not None, f"{where}: the game is not over"
        player, rank, money, cards = line.args
        got = {s.player.value: (s.rank, s.money_usd // 1000, s.banknotes) for s in result.standings}
        assert got[player] == (int(rank), int(money), int(cards)), f"{where}: {got}"
    else:
        raise AssertionError(f"{where}: unknown directive")


def run(path: Path) -> GameState:
    lines = parse(path)
    state: GameState | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.verb == "game":
            names = [a for a in line.args[1:] if "=" not in a]
            options = dict(a.split("=", 1) for a in line.args[1:] if "=" in a)
            rules = find_ruleset(line.args[0])
            state = find_game(rules.game).new_game(rules, names, **options)
            continue
        if line.verb == "start":
            state = find_game(line.args[0]).from_notation(line.text)
            continue
        assert state is not None, f"line {line.number}: no game or start line yet"
        event = event_for(line, state)
        if event is None:
            check(line, state)
            continue
        expected = lines[index] if index < len(lines) and lines[index].verb == "error" else None
        if expected is None:
            state = apply(state, event)
            continue
        index += 1
        error_name, *words = expected.args
        error_class = getattr(referee, error_name)
        try:
            apply(state, event)
        except error_class as error:
            assert " ".join(words) in str(error), f"line {expected.number}: message was {error}"
        else:
            raise AssertionError(f"line {line.number}: {line.text} should raise {error_name}")
    assert state is not None
    return state
