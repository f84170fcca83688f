"""The game interface, the registry, the shared record, and the extension points of the dice engine."""

import dataclasses
import random

import pytest

from referee import (
    BanknotesDealt,
    CasinoId,
    Colour,
    DicePlaced,
    DiceRolled,
    Game,
    Hooks,
    IllegalEventError,
    Ownerless,
    Passed,
    Phase,
    RoundScored,
    UnknownRuleSetError,
    apply,
    find_game,
    find_ruleset,
    game_of,
    games,
    new_game,
    place_all,
    preview,
    register,
    standings,
)
from referee._fast import fast_evolve
from referee.game import CHANCE, SETTLEMENT, replay
from referee.lasvegas import GAME, LasVegas
from referee.lasvegas.hooks import LaidTile
from referee.lasvegas.scoring import CasinoPayout, score_casino
from referee.lasvegas.simulate import play, random_game
from referee.record import read_record, record_lines

RED, BLUE = Colour.RED, Colour.BLUE
DEAL = BanknotesDealt(((60_000,), (50_000,), (90_000,), (70_000,), (80_000,), (10_000, 40_000)))


def test_las_vegas_is_registered_and_implements_the_interface():
    assert isinstance(GAME, Game)
    assert GAME in games()
    for name in ("las-vegas", "Las Vegas", "lasvegas", "vegas+biggy", "las-vegas+neutral+biggy"):
        assert find_game(name) is GAME
    with pytest.raises(UnknownRuleSetError, match="unknown game 'monopoly'; games: las-vegas"):
        find_game("monopoly")


def test_a_second_game_of_the_same_name_is_refused():
    assert register(GAME) is GAME
    with pytest.raises(ValueError, match="already registered"):
        register(LasVegas())


def test_a_whole_game_through_the_interface_equals_the_engine():
    """Play a random game using only the interface, and compare with the engine's own random game."""
    truth = random_game(find_ruleset("las-vegas+neutral"), ["red", "blue", "green"], 3)
    game = game_of(truth)
    state = game.new_game(game.find_ruleset("las-vegas+neutral"), ["red", "blue", "green"])
    for event in truth.history:
        actor = game.next_actor(state)
        if isinstance(event, DicePlaced):
            assert actor is event.player and event in game.legal_moves(state)
        else:
            assert actor in (CHANCE, SETTLEMENT) and game.legal_moves(state) == ()
        before = state
        state = game.apply(state, game.event_from_json(game.event_to_json(event)))
        assert game.narrate(event, before)
        assert game.from_notation(game.to_notation(state)) == state
    assert state == truth and game.outcome(state) == game.outcome(truth) is not None
    assert game.preview(state).totals() == {}


def test_the_record_replays_through_the_registry_and_fails_at_the_exact_line():
    state = random_game(find_ruleset("las-vegas+biggy"), ["red", "blue"], 4)
    lines = list(record_lines(state))
    assert read_record(lines) == state and read_record(lines).history == state.history
    broken = [*lines[:5], lines[3], *lines[6:]]
    with pytest.raises(IllegalEventError, match=r"^line 6: event 5: "):
        read_record(broken)


def test_replay_names_the_event_that_fails():
    state = new_game(find_ruleset("las-vegas"), ["red", "blue"])
    with pytest.raises(IllegalEventError, match="event 2: no deal now"):
        replay(state, [DEAL, DEAL])


def test_history_is_every_event_in_order_and_not_part_of_equality():
    events = [e for e, _ in play(find_ruleset("las-vegas"), ["red", "blue"], 5)][1:]
    final = random_game(find_ruleset("las-vegas"), ["red", "blue"], 5)
    assert final.history == tuple(events)
    assert final.recent(2) == tuple(events[-2:]) and final.recent(0) == () and final.recent(10**6) == tuple(events)
    again = replay(new_game(final.ruleset, final.players), events)
    assert again == final and again.history == final.history
    assert dataclasses.replace(final, log=None) == final


def test_named_field_changes_copy_the_rest_and_refuse_unknown_fields():
    state = new_game(find_ruleset("las-vegas"), ["red", "blue"])
    evolve = fast_evolve(type(state))
    changed = evolve(state, round=3, turn=1)
    assert (changed.round, changed.turn, changed.players, changed.casinos) == (3, 1, state.players, state.casinos)
    with pytest.raises(TypeError):
        evolve(state, rounds=3)


# --- the extension points, each exercised by a rule set that uses it --------------------------------


def rolled(hooks: Hooks, faces=(1, 3, 3, 5, 6, 6, 6, 2)):
    rules = dataclasses.replace(find_ruleset("las-vegas"), hooks=hooks)
    state = apply(new_game(rules, ["red", "blue"]), DEAL)
    return apply(state, DiceRolled(RED, faces))


def test_las_vegas_has_no_pass():
    state = rolled(Hooks())
    with pytest.raises(IllegalEventError, match="has no pass"):
        apply(state, Passed(RED))
    assert all(isinstance(move, DicePlaced) for move in GAME.legal_moves(state))


def test_a_pass_costs_its_resource_and_keeps_the_dice():
    hooks = Hooks(resources=(("chips", 1),), resources_per_round=(("chips", 2),), pass_cost=(("chips", 1),))
    state = rolled(hooks)
    assert state.resource("chips") == (1, 1) and Passed(RED) in GAME.legal_moves(state)
    passed = apply(state, Passed(RED))
    assert passed.resource("chips") == (0, 1)
    assert (passed.phase, passed.to_act, passed.held_dice, passed.roll) == (Phase.ROLL, BLUE, (8, 8), None)
    again = apply(apply(passed, DiceRolled(BLUE, (1, 1, 1, 1, 2, 2, 2, 2))), DicePlaced(BLUE, 1, 4))
    again = apply(again, DiceRolled(RED, (1, 3, 3, 5, 6, 6, 6, 2)))
    assert Passed(RED) not in GAME.legal_moves(again)
    with pytest.raises(IllegalEventError, match="red has 0 chips: a pass costs 1"):
        apply(again, Passed(RED))
    with pytest.raises(KeyError, match="no 'money'"):
        again.resource("money")


def _play_round(state, seed=0):
    rng = random.Random(seed)
    while state.phase is not Phase.SETTLE:
        if state.phase is Phase.ROLL:
            held = state.held_dice[state.turn]
            state = apply(state, DiceRolled(state.to_act, tuple(rng.randint(1, 6) for _ in range(held))))
        state = apply(state, place_all(state, rng.choice(state.roll.dice)))
    return state


def test_resources_grow_each_round_and_the_start_player_follows_its_hook():
    hooks = Hooks(resources=(("chips", 0),), resources_per_round=(("chips", 2),), next_start=lambda s: s.start)
    state = _play_round(rolled(hooks))
    after = apply(state, RoundScored())
    assert after.resource("chips") == (2, 2)
    assert after.start == 0 and apply(after, DEAL).to_act is RED  # the start card stayed with red
    plain = apply(_play_round(rolled(Hooks())), RoundScored())
    assert plain.resources == ()
    assert apply(plain, DEAL).to_act is BLUE  # Las Vegas: it passes left


def two_notes(casino, counts, banknotes, neutral) -> CasinoPayout:
    """A casino that pays at most its two highest notes (the others go back under the pile)."""
    notes = sorted(banknotes, reverse=True)
    payout = score_casino(casino, counts, notes[:2], neutral)
    return dataclasses.replace(payout, returned=tuple(sorted((*payout.returned, *notes[2:]), reverse=True)))


def test_the_payout_and_the_ranking_follow_their_hooks():
    rules = dataclasses.replace(find_ruleset("las-vegas"), hooks=Hooks(pay=two_notes, rank=lambda s: ()))
    four = BanknotesDealt(((10_000, 20_000, 30_000, 40_000),) * 2 + ((50_000,),) * 4)
    rules_plain = find_ruleset("las-vegas")
    with pytest.raises(IllegalEventError):
        apply(new_game(rules_plain, ["red", "blue", "green"]), four)  # Las Vegas's deal refuses it ...
    rules = dataclasses.replace(rules, hooks=dataclasses.replace(rules.hooks, deal=lambda s, e: None))
    state = apply(new_game(rules, ["red", "blue", "green"]), four)  # ... a deal hook allows it
    state = apply(state, DiceRolled(RED, (1, 1, 1, 2, 2, 2, 2, 2)))
    state = apply(state, DicePlaced(RED, 1, 3))
    state = apply(state, DiceRolled(BLUE, (1, 1, 2, 2, 2, 2, 2, 2)))
    state = apply(state, DicePlaced(BLUE, 1, 2))
    state = apply(state, DiceRolled(GREEN := Colour.GREEN, (1, 3, 3, 3, 3, 3, 3, 3)))
    state = apply(state, DicePlaced(GREEN, 1, 1))
    casino = preview(state).casinos[0]
    assert [(p.owner, p.banknote_usd) for p in casino.ranking] == [(RED, 40_000), (BLUE, 30_000), (GREEN, None)]
    assert casino.returned == (20_000, 10_000)
    assert standings(state) == ()


class DoubleFirstNote:
    """A test tile on one casino: counts its placements, doubles nothing, pays its first note twice."""

    casino = 3

    def __init__(self):
        self.placed, self.ended = [], 0

    def on_placed(self, state, index, event):
        assert state.tiles[index].tile is self
        self.placed.append((event.casino, state.casinos[2].dice))
        return state

    def before_payout(self, state, index, payout):
        first = payout.ranking[:1] if payout.casino == state.tiles[index].casino else ()
        if not first or first[0].banknote_usd is None:
            return payout
        extra = dataclasses.replace(first[0], banknote_usd=first[0].banknote_usd)
        return dataclasses.replace(payout, ranking=(first[0], extra, *payout.ranking[1:]))

    def on_turn(self, state, index):
        return state

    def refuses(self, state, index, casino):
        return ""

    def at_round_end(self, settled, index, after):
        self.ended += 1
        assert after.tiles == () and settled.tiles[index].tile is self
        return after


def test_casino_tiles_act_on_placement_before_payout_and_at_round_end():
    tile = DoubleFirstNote()
    state = rolled(Hooks())
    state = state.evolve(tiles=(LaidTile(3, tile),))
    state = apply(state, place_all(state, 3))
    assert tile.placed == [(3, (2, 0))]
    state = apply(state, DiceRolled(BLUE, (1, 1, 1, 1, 1, 1, 1, 1)))
    state = apply(state, place_all(state, 1))
    assert len(tile.placed) == 1  # not its casino
    assert preview(state).totals()[RED] == 2 * 90_000
    state = apply(_play_round(state), RoundScored())
    assert tile.ended == 1


def test_dice_owned_by_nobody_may_share_a_players_colour():
    extra = Ownerless("extra", Colour.BLACK)
    payout = score_casino(CasinoId(2), {Colour.BLACK: 2, extra: 3, RED: 2}, [50_000, 20_000], (extra,))
    assert payout.paid == () and [t.owners for t in payout.ties] == [(RED, Colour.BLACK)]
    assert payout.returned == (50_000, 20_000)
    assert "extra black (neutral) takes" in " ".join(payout.explain())


def test_a_placement_of_no_dice_on_a_value_not_rolled_is_refused():
    state = rolled(Hooks())
    with pytest.raises(IllegalEventError, match="rolled no 4"):
        apply(state, DicePlaced(RED, 4, 0))
