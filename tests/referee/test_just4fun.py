"""Just 4 Fun's rules engine: golden scenarios from the rules summary (../shared/rules/just-4-fun.md) and the
seed rulebook's worked examples, and seeded random games with their invariants."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from referee.errors import IllegalEventError, NotationError, OutOfTurnError, UnknownRuleSetError
from referee.just4fun import (
    DECK,
    CardsDrawn,
    HandDiscarded,
    Phase,
    StonePlaced,
    apply,
    event_from_json,
    event_to_json,
    legal_moves,
    narrate,
    new_game,
    outcome,
    owner,
    play,
    ruleset,
)
from referee.just4fun.simulate import violations
from referee.types import Colour

RED, BLUE, GREEN, BLACK, WHITE = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.BLACK, Colour.WHITE
PLAIN = ruleset(layout=range(1, 37))
"""Fields 1-6 in the first row, 7-12 in the second, ...: lines easy to read in a test."""


def table(players=(RED, BLACK, WHITE), stacks=None, hands=None, turn=0, phase=Phase.PLAY, **changes):
    """A game in play on the plain board: ``stacks`` maps a field to each seat's stones."""
    state = new_game(PLAIN, players)
    hands = hands or [(1, 2, 3, 4)] * len(players)
    held = Counter(c for h in hands for c in h)
    pile = tuple(sorted((Counter(DECK) - held).elements()))
    fields = list(state.stacks)
    for number, stack in (stacks or {}).items():
        fields[number - 1] = tuple(stack)
    stones = tuple(20 - sum(f[s] for f in fields) for s in range(len(players)))
    return replace(state, phase=phase, turn=turn, hands=tuple(tuple(sorted(h)) for h in hands), pile=pile,
                   stacks=tuple(fields), stones=stones, **changes)  # fmt: skip


def test_the_deck_the_stones_and_the_board():
    """Summary: 55 cards (1-12 four times, 13-19 once), 20 stones a player, 6x6 fields numbered 1-36."""
    assert len(DECK) == 55 and Counter(DECK)[12] == 4 and Counter(DECK)[13] == 1 and max(DECK) == 19
    rules = ruleset()
    assert rules.stones == 20 and rules.hand == 4 and sorted(rules.layout) == list(range(1, 37))
    assert len(rules.lines()) == 18 + 18 + 18  # rows, columns, diagonals of four on a 6x6 board
    assert (1, 2, 3, 4) in PLAIN.lines() and (1, 8, 15, 22) in PLAIN.lines() and (4, 9, 14, 19) in PLAIN.lines()


def test_the_board_layout_is_a_setting_checked_when_entered():
    mine = list(range(36, 0, -1))
    assert ruleset(layout=mine).position(36) == (0, 0)
    with pytest.raises(UnknownRuleSetError, match="each field 1-36 once"):
        ruleset(layout=[1] * 36)
    with pytest.raises(UnknownRuleSetError):
        ruleset("just-5-fun")


def test_2_to_4_players_of_different_colours():
    for players in ([RED], [RED, BLUE, GREEN, BLACK, WHITE], [RED, RED]):
        with pytest.raises(IllegalEventError, match="2 to 4 players"):
            new_game(PLAIN, players)


def test_each_draws_four_then_the_first_seat_plays_and_draws_back_what_he_played():
    state = new_game(PLAIN, [RED, BLUE])
    assert state.phase is Phase.DEAL and state.to_draw == 4
    with pytest.raises(OutOfTurnError):
        apply(state, CardsDrawn(BLUE, (1, 1, 1, 1)))
    state = apply(apply(state, CardsDrawn(RED, (1, 2, 5, 9))), CardsDrawn(BLUE, (3, 3, 7, 12)))
    assert state.phase is Phase.PLAY and state.turn == 0 and len(state.pile) == 47
    state = apply(state, StonePlaced(RED, (2, 5), 7))
    assert state.phase is Phase.DRAW and state.to_draw == 2 and state.discards == (2, 5)
    with pytest.raises(IllegalEventError, match="draws 2 cards, not 1"):
        apply(state, CardsDrawn(RED, (4,)))
    state = apply(state, CardsDrawn(RED, (4, 19)))
    assert state.hands[0] == (1, 4, 9, 19) and state.turn == 1 and state.phase is Phase.PLAY


@pytest.mark.parametrize("event, message", [
    (StonePlaced(RED, (1, 2), 4), "add up to 3, not field 4"),
    (StonePlaced(RED, (5,), 5), "holds no 5"),
    (StonePlaced(RED, (1, 2, 3, 4, 4), 14), "1 to 4 cards"),
    (StonePlaced(BLACK, (1,), 1), "red's turn"),
    (CardsDrawn(RED, (7,)), "draws after"),
])  # fmt: skip
def test_a_play_against_the_rules_is_refused_with_the_reason(event, message):
    with pytest.raises(IllegalEventError, match=message):
        apply(table(), event)


def test_the_seed_example_two_stones_ahead_blocks_the_others():
    """Seed (Danish): red has two stones on a field and black one; white may not place there, since red already
    has two stones more than white; only red and black still may."""
    state = table(stacks={10: (2, 1, 0)}, hands=[(4, 6, 1, 2)] * 3, turn=2)
    with pytest.raises(IllegalEventError, match="two or more ahead, so white may not place there"):
        apply(state, StonePlaced(WHITE, (4, 6), 10))
    assert StonePlaced(WHITE, (4, 6), 10) not in legal_moves(state)
    assert StonePlaced(BLACK, (4, 6), 10) in legal_moves(replace(state, turn=1))
    after = apply(replace(state, turn=1), StonePlaced(BLACK, (4, 6), 10))
    assert after.stack(10) == (2, 2, 0) and after.secured[9] == -1  # stacked on his own


def test_two_more_than_every_other_player_secures_the_field():
    """Summary: the others' stones leave the game, the stack moves to the centre, nobody else places there.
    Seed: "the opponents can no longer place stones on this field" (the owner may: nothing forbids it)."""
    state = table(stacks={10: (2, 1, 0)}, hands=[(4, 6, 10, 1)] * 3)
    after = apply(state, StonePlaced(RED, (10,), 10))
    assert after.stack(10) == (3, 0, 0) and after.secured[9] == 0 and after.gone == 1
    assert "red secures field 10" in narrate(StonePlaced(RED, (10,), 10), state)
    black = replace(after, phase=Phase.PLAY, turn=1, hands=((1,), (4, 6, 10, 1), (1,)))
    with pytest.raises(IllegalEventError, match="secured by red: nobody else places there"):
        apply(black, StonePlaced(BLACK, (10,), 10))
    again = apply(replace(after, phase=Phase.PLAY, turn=0, hands=((4, 6, 1), *after.hands[1:])),
                  StonePlaced(RED, (4, 6), 10))  # fmt: skip
    assert again.stack(10) == (4, 0, 0)


def test_a_field_is_owned_by_strictly_most_stones():
    state = table(stacks={5: (1, 0, 0), 6: (1, 1, 0), 7: (2, 1, 1)})
    assert (owner(state, 5), owner(state, 6), owner(state, 7), owner(state, 8)) == (0, -1, 0, -1)


@pytest.mark.parametrize("line", [(1, 2, 3, 4), (3, 9, 15, 21), (1, 8, 15, 22), (6, 11, 16, 21)])
def test_owning_four_fields_in_a_line_wins_at_once(line):
    """Seed: the first with majority on four fields in a row, across, down or diagonally, wins; with nobody
    else on them one stone on each is enough."""
    *three, last = line
    state = table(stacks={n: (1, 0, 0) for n in three} | {last: (0, 0, 0), 30: (0, 1, 0)},
                  hands=[(last, 1, 1, 1) if last <= 19 else (last - 19, 19, 1, 1)] + [(1, 2, 3, 4)] * 2)  # fmt: skip
    cards = (last,) if last <= 19 else (last - 19, 19)
    after = apply(state, StonePlaced(RED, cards, last))
    assert after.phase is Phase.OVER and after.winner == 0
    result = outcome(after)
    assert result.winner is RED and result.by == "line" and "in a line" in result.reasons[0]
    with pytest.raises(IllegalEventError, match="game is over"):
        apply(after, CardsDrawn(RED, (1,)))


def test_a_line_with_a_field_shared_does_not_win():
    state = table(stacks={1: (1, 0, 0), 2: (1, 0, 0), 3: (1, 1, 0)}, hands=[(4, 1, 1, 1)] + [(1, 2, 3, 4)] * 2)
    assert apply(state, StonePlaced(RED, (4,), 4)).phase is Phase.DRAW


def test_with_no_legal_play_the_whole_hand_is_thrown_and_four_drawn():
    """Seed: a player whose cards allow no placement puts all four on the discards, draws four and waits."""
    blocked = {n: (0, 2, 0) for n in range(1, 37)}  # black two ahead everywhere
    state = table(stacks=blocked, hands=[(1, 2, 3, 4), (5, 5, 5, 5), (6, 6, 6, 6)])
    assert legal_moves(state) == (HandDiscarded(RED),)
    thrown = apply(state, HandDiscarded(RED))
    assert thrown.hands[0] == () and thrown.to_draw == 4 and thrown.discards[-4:] == (1, 2, 3, 4)
    with pytest.raises(IllegalEventError, match="only when no play is legal"):
        apply(table(), HandDiscarded(RED))


def test_when_the_pile_runs_out_it_is_drawn_whole_then_the_discards_shuffled():
    """Seed: when the pile is empty, the used cards are shuffled into a new pile."""
    state = replace(table(), phase=Phase.DRAW, to_draw=2, hands=((1, 2), (1, 2, 3, 4), (1, 2, 3, 4)))
    rest = Counter(DECK) - Counter((1, 2, 1, 2, 3, 4, 1, 2, 3, 4))
    state = replace(state, pile=(19,), discards=tuple(sorted((rest - Counter((19,))).elements())))
    with pytest.raises(IllegalEventError, match="draws all of it"):
        apply(state, CardsDrawn(RED, (5, 6)))
    after = apply(state, CardsDrawn(RED, (5, 19)))
    assert after.hands[0] == (1, 2, 5, 19) and after.discards == () and 19 not in after.pile
    assert len(after.pile) == len(state.discards) - 1
    with pytest.raises(IllegalEventError, match="pile holds no 19"):
        apply(replace(state, pile=(7, 8, 9)), CardsDrawn(RED, (19, 7)))


def test_the_seed_examples_of_the_final_count():
    """Seed, when every stone is placed: red 2, white 2, black 1 on a field: black's stone goes as the minority,
    then red's and white's as tied, and nobody scores it; black 3, red 2, white 2: only black scores it."""
    state = table(stacks={20: (2, 1, 2), 30: (2, 3, 2), 36: (1, 0, 0)}, phase=Phase.OVER)
    result = outcome(state)
    assert result.points == {RED: 36, BLACK: 30, WHITE: 0} and result.winner is RED and result.by == "points"
    assert any("field 20: red and white tie" in r for r in result.reasons)


def test_equal_points_go_to_the_stone_on_the_highest_field():
    state = table(stacks={10: (1, 0, 0), 26: (1, 0, 0), 36: (0, 1, 0)}, phase=Phase.OVER)
    result = outcome(state)
    assert result.points[RED] == result.points[BLACK] == 36 and result.winner is BLACK
    assert "highest field (36)" in result.reasons[-2]


def test_placing_the_last_stone_ends_the_game_with_the_count():
    state = table(players=(RED, BLUE), stacks={5: (19, 0), 6: (0, 20)}, hands=[(1, 2, 3, 4)] * 2)
    assert state.stones == (1, 0)
    after = apply(state, StonePlaced(RED, (4,), 4))
    assert after.phase is Phase.OVER and outcome(after).winner is RED and outcome(after).points[RED] == 9


def test_a_player_without_stones_is_passed_over():
    state = table(stacks={5: (0, 20, 0)}, hands=[(1, 2, 3, 4)] * 3)
    after = apply(apply(state, StonePlaced(RED, (1,), 1)), CardsDrawn(RED, (7,)))
    assert after.turn == 2 and after.phase is Phase.PLAY


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players):
    """Seeded random games: stones and cards conserved, no placement against the blocking rule, secured fields
    never change, every game ends with a winner by a line or by the count (or nobody on a perfect tie)."""
    colours = [RED, BLUE, GREEN, BLACK][:players]
    ended = Counter()
    for seed in range(25):
        before = None
        for event, state in play(colours, seed):
            cards = Counter(state.pile) + Counter(state.discards) + sum((Counter(h) for h in state.hands), Counter())
            assert cards == Counter(DECK)
            placed = sum(20 - s for s in state.stones)
            assert placed == sum(map(sum, state.stacks)) + state.gone
            if before is not None:
                for number in range(1, 37):
                    holder = before.secured[number - 1]
                    if holder >= 0:
                        assert state.secured[number - 1] == holder
                        assert all(n == 0 for s, n in enumerate(state.stack(number)) if s != holder)
                if isinstance(event, StonePlaced):
                    seat = before.turn
                    mine = before.stack(event.field)[seat]
                    assert all(n < mine + 2 for s, n in enumerate(before.stack(event.field)) if s != seat)
                    assert narrate(event, before).startswith(f"{event.player} plays")
            before = state
        assert state.phase is Phase.OVER
        ended[outcome(state).by] += 1
    assert ended["line"] and sum(ended.values()) == 25


def test_events_round_trip_through_json_and_bad_ones_are_clear_errors():
    for event in (CardsDrawn(RED, (3, 19)), StonePlaced(BLUE, (2, 5), 7), HandDiscarded(GREEN)):
        assert event_from_json(event_to_json(event)) == event
    for bad in ({"event": "placed", "player": "red", "cards": [1]}, {"event": "drawn", "player": "mauve", "cards": []},
                {"event": "placed", "player": "red", "cards": [True], "field": 1}, {"event": "flip", "player": "red"},
                [1, 2]):  # fmt: skip
        with pytest.raises(NotationError):
            event_from_json(bad)


def test_the_invariant_checks_catch_a_broken_state():
    """What :func:`simulate` checks fails where it should: a stone lost, a card made up, a placement two behind,
    a secured field changed."""
    state = table(stacks={10: (3, 0, 0)}, secured=tuple(0 if n == 10 else -1 for n in range(1, 37)))
    assert violations(None, None, state) == []
    lost = replace(state, stones=(state.stones[0] - 1, *state.stones[1:]))
    assert violations(None, None, lost)[0].startswith("stones_conserved")
    made_up = replace(state, pile=(*state.pile, 19))
    assert violations(None, None, made_up)[0].startswith("cards_conserved")
    blocked = table(stacks={11: (0, 2, 0)}, hands=[(5, 6, 1, 2)] * 3)
    cheat = StonePlaced(RED, (5, 6), 11)
    after = replace(blocked, stacks=tuple((1, 2, 0) if n == 11 else s for n, s in enumerate(blocked.stacks, 1)),
                    stones=(19, 18, 20))  # fmt: skip
    assert any(v.startswith("blocking_rule_kept") for v in violations(blocked, cheat, after))
    changed = replace(state, stacks=tuple((3, 1, 0) if n == 10 else s for n, s in enumerate(state.stacks, 1)),
                      stones=(17, 19, 20))  # fmt: skip
    assert [v.split(":")[0] for v in violations(state, None, changed)] == ["secured_fields_never_change"]


def test_the_simulation_of_random_games_holds_every_invariant():
    from referee.just4fun.simulate import INVARIANTS, simulate

    report = simulate([RED, BLUE, GREEN], 10, 11)
    assert report["ok"] and report["invariants"] == dict.fromkeys(INVARIANTS, True)
    assert report["checks"]["blocking_rule_kept"] == report["turns"] > 0


def test_the_game_interface_finds_records_and_replays_just_4_fun():
    from referee.game import CHANCE, GAME_OVER, DiceGame, Game, find_game, game_of, games
    from referee.record import read_record, record_lines

    game = find_game("Just 4 Fun")
    assert isinstance(game, Game) and not isinstance(game, DiceGame) and game in games()
    assert find_game("just4fun") is game and game.find_ruleset("just-4-fun").name == "just-4-fun"
    with pytest.raises(UnknownRuleSetError, match="no variants"):
        game.find_ruleset("just-4-fun+biggy")
    mine = ruleset(layout=list(range(36, 0, -1)))
    *_, (_, last) = play([RED, BLUE, GREEN], 4, mine)
    assert game_of(last) is game and game.next_actor(last) is GAME_OVER
    assert game.next_actor(new_game(mine, [RED, BLUE])) is CHANCE
    lines = list(record_lines(last))
    replayed = read_record(lines)
    assert replayed == last and replayed.history == last.history and replayed.rules.layout == mine.layout
    assert game.outcome(last) == outcome(last) and game.summary_json(last)["over"]
    page = game.page_json(last, {"red": "Ann"})
    assert page["players"][0]["name"] == "Ann" and len(page["fields"]) == 36
    assert sum(sum(f["stones"].values()) for f in page["fields"]) == sum(map(sum, last.stacks))
    broken = [lines[0], *lines[1:5], lines[6]]  # an event left out: the record fails at that line
    with pytest.raises(IllegalEventError, match="line 6"):
        read_record(broken)
    for header in ({"players": "red"}, {"players": ["red", "blue"], "layout": [1, 2]}):
        with pytest.raises((NotationError, UnknownRuleSetError)):
            game.from_header(PLAIN, header)


def test_notation_reads_back_every_state_of_random_games_and_refuses_impossible_ones():
    from referee.just4fun.notation import from_notation, to_notation

    for seed, players in ((1, [RED, BLUE]), (2, [RED, BLUE, GREEN, BLACK])):
        for k, (_, state) in enumerate(play(players, seed, PLAIN)):
            if k % 7 == 0:
                text = to_notation(state)
                assert from_notation(text) == state, text
    text = to_notation(table())
    parts = text.split()
    extra_card = " ".join([*parts[:6], parts[6] + ",19", *parts[7:]])
    stone_lost = " ".join([*parts[:10], "19,20,20", *parts[11:]])
    for bad in (
        text.replace("just-4-fun", "just-5-fun"),
        extra_card,
        stone_lost,
        " ".join([*parts[:2], "nap", *parts[3:]]),
        "",
    ):
        with pytest.raises(NotationError):
            from_notation(bad)


def test_a_game_that_does_not_end_is_reported_not_played_forever(monkeypatch):
    import referee.just4fun.simulate as simulation

    monkeypatch.setattr(simulation, "MOST_EVENTS", 30)
    report = simulation.simulate([RED, BLUE], 2, 1)
    assert not report["ok"] and not report["invariants"]["game_ends"]
    assert all(f.startswith("game_ends: the game did not end (game seed") for f in report["failures"])


def test_an_object_that_is_no_event_is_refused():
    with pytest.raises(IllegalEventError, match="not a Just 4 Fun event"):
        apply(table(), object())
