"""The camera interpreter: readings explained by the most likely legal history.

Whole simulated games are fed moment by moment as the camera would read them, with the misreadings
traced in rendered benchmark games done to them (a die read in another colour, a die hidden, a die read
twice, a move not seen, a die missed in a roll); the game the interpreter refereed must be the true one.

The injected errors are priced in the observation model they were traced under
(``fixtures/observation_017e755.json``), not the shipped one: they come far more often than the shipped
reader makes them (a die read in another colour every third move, where the reader measured reads only
blue as black, 0.3 % of blue dice), and which of two near explanations wins depends on the model's
numbers. Under the shipped model of December 2026 four of these situations decide otherwise
(``docs/interpreter.md``); the shipped model and reader are exercised together on rendered games
(``tests/vision/test_pipeline.py``, the benchmark).
"""

import itertools
import math
import random
from collections import Counter
from dataclasses import replace

import pytest

from referee import Colour, DicePlaced, DiceRolled, Phase, find_ruleset, new_game
from referee.interpret import Interpreter, ObservationModel
from referee.interpret.table import GONE_COST, Expected, TableCost, zone_cost
from referee.lasvegas.camera import LasVegasCamera, canonical_history
from referee.lasvegas.events import BanknotesDealt
from referee.lasvegas.simulate import Dealer, default_players, table_moments, virtual_deal
from referee.readings import DieReading, TableSnapshot
from tests.referee.fixtures import TRACED_MODEL

MODEL = TRACED_MODEL


def watch(rules_name, players, seed, corrupt=None, pick_up=True):
    """Feeds a simulated game's moments (``corrupt(k, moment, snapshot)`` may change or drop them)."""
    rules = find_ruleset(rules_name)
    interpreter = Interpreter(LasVegasCamera(MODEL), new_game(rules, players),
                              deal=virtual_deal(Dealer(rules, random.Random(seed))), model=MODEL)  # fmt: skip
    verdicts, truth = [], None
    for k, moment in enumerate(table_moments(rules, players, seed, pick_up=pick_up)):
        snapshot = corrupt(k, moment, moment.snapshot) if corrupt else moment.snapshot
        if snapshot is not None:
            verdicts += interpreter.observe(snapshot)
        truth = moment.state
    return interpreter, verdicts, truth


def same_game(interpreter, truth):
    return canonical_history(interpreter.state.history) == canonical_history(truth.history)


@pytest.mark.parametrize(
    ("rules_name", "players", "seed"),
    [("las-vegas", 2, 1), ("las-vegas", 4, 2), ("las-vegas+neutral", 3, 3), ("las-vegas+neutral+biggy", 5, 4),
     ("las-vegas+biggy", 2, 5), ("las-vegas+neutral", 2, 6), ("las-vegas+six-players", 6, 7)],
)  # fmt: skip
def test_a_whole_game_read_right_is_refereed_exactly(rules_name, players, seed):
    interpreter, verdicts, truth = watch(rules_name, default_players(players), seed)
    assert [v.reason for v in verdicts if v.kind in ("alert", "uncertain")] == []
    assert same_game(interpreter, truth) and interpreter.state.phase is Phase.OVER
    assert [v.kind for v in verdicts].count("cleared") == truth.ruleset.rounds


def test_leftovers_still_in_the_tray_when_the_next_roll_lands():
    interpreter, _, truth = watch("las-vegas", default_players(2), 10, pick_up=False)
    assert same_game(interpreter, truth)


def _dice(snapshot):
    return [(zone, i) for zone, dice in enumerate((snapshot.tray, *snapshot.casinos)) for i in range(len(dice))]


def _with_zone(snapshot, zone, dice):
    if zone == 0:
        return replace(snapshot, tray=tuple(dice))
    casinos = list(snapshot.casinos)
    casinos[zone - 1] = tuple(dice)
    return replace(snapshot, casinos=tuple(casinos))


def _zone(snapshot, zone):
    return list(snapshot.tray if zone == 0 else snapshot.casinos[zone - 1])


def corrupt_one_die_per_move(kind, seed, every=3):
    """Every ``every``-th roll or placement moment, one die misread as ``kind`` says (seeded)."""
    rng = random.Random(seed)

    def corrupt(k, moment, snapshot):
        if moment.what not in ("rolled", "placed") or k % every:
            return snapshot
        if kind == "unseen":  # the move not seen at all: its reading never comes
            return None if moment.what == "placed" else snapshot
        zones = [z for z in range(7) if _zone(snapshot, z) and (kind != "colour" or z == 0)]
        if not zones:
            return snapshot
        zone = rng.choice(zones)
        dice = _zone(snapshot, zone)
        i = rng.randrange(len(dice))
        if kind == "colour":  # read in another player's colour
            others = [c for c in moment.state.players if c is not dice[i].colour]
            dice[i] = replace(dice[i], colour=rng.choice(others))
        elif kind == "hidden":
            del dice[i]
        elif kind == "twice":
            dice.append(replace(dice[i], track=-1))
        return _with_zone(snapshot, zone, dice)

    return corrupt


@pytest.mark.parametrize("kind", ["colour", "hidden", "twice", "unseen"])
@pytest.mark.parametrize(
    ("rules_name", "players", "seed"),
    [("las-vegas", 4, 21), ("las-vegas+neutral", 3, 22), ("las-vegas+neutral+biggy", 4, 23), ("las-vegas", 5, 24)],
)  # fmt: skip
def test_a_misreading_of_each_kind_does_not_change_the_game(kind, rules_name, players, seed):
    interpreter, verdicts, truth = watch(rules_name, default_players(players), seed,
                                         corrupt_one_die_per_move(kind, seed))  # fmt: skip
    assert same_game(interpreter, truth), [str(v) for v in verdicts if v.kind != "event"]


def test_a_die_missed_in_the_roll_is_told_by_the_dice_the_player_holds_later():
    """A black-and-white table (traced): two of white's three 1s unseen in the tray, one of them on casino 1."""
    rules = find_ruleset("las-vegas")
    players = ["black", "white"]
    moments = list(table_moments(rules, players, 31))
    first_white = next(k for k, m in enumerate(moments) if m.what == "rolled" and m.event.player is Colour.WHITE)

    def corrupt(k, moment, snapshot):
        if k == first_white:  # only the roll's first die is seen
            return replace(snapshot, tray=snapshot.tray[:1] + snapshot.tray[3:])
        return snapshot

    interpreter, _verdicts, truth = watch("las-vegas", players, 31, corrupt)
    assert same_game(interpreter, truth)


@pytest.mark.parametrize("beam", [1, 24])
def test_the_face_of_a_die_not_seen_is_decided_when_it_is_placed_whatever_the_beam(beam):
    """The six ways of filling in a die not seen are equally likely until it is seen: they take one
    place in the beam together, so even a beam of one keeps the roll the placement then tells."""
    deal = BanknotesDealt(((60_000,), (50_000,), (90_000,), (70_000,), (20_000, 30_000), (10_000, 40_000)))
    interpreter = Interpreter(LasVegasCamera(MODEL), new_game(find_ruleset("las-vegas"), ["red", "blue"]),
                              deal=lambda state: deal, model=MODEL, beam=beam)  # fmt: skip
    red = [DieReading(Colour.RED, False, v, track=k) for k, v in enumerate((3, 3, 1, 2, 4, 5, 6, 6), start=1)]
    unseen_four = tuple(d for d in red if d.pips != 4)
    said = [str(v) for v in interpreter.observe(TableSnapshot(1, 0.1, ((),) * 6, unseen_four))]
    said += [str(v) for v in interpreter.observe(TableSnapshot(2, 0.2, ((), (), (), (red[4],), (), ()), unseen_four))]
    assert said[1:] == ["red rolls 1 2 3 3 4 5 6 6 (1 die not seen in the tray (taken to show 4))",
                        "red places 1 die showing 4 on casino 4"]  # fmt: skip


def _hide(dice, player, faces):
    """``dice`` without one die of ``player`` per face in ``faces``."""
    dice = list(dice)
    for face in faces:
        dice.remove(next(d for d in dice if d.colour is player and d.pips == face))
    return tuple(dice)


def _roll_to_hide(moments):
    """The first roll of six dice or more placed next, with two dice of the value placed and a die of
    another face whose hiding leaves a third face seen most: (its moment, the value placed, the other face)."""
    for k, (roll, placement) in enumerate(itertools.pairwise(moments)):
        if roll.what != "rolled" or placement.what != "placed" or len(roll.snapshot.tray) < 6:
            continue
        value = placement.event.casino
        faces = Counter(d.pips for d in roll.snapshot.tray if d.colour is roll.event.player)
        others = sorted(f for f in faces if f != value)
        if faces[value] < 2 or not others:
            continue
        shown = faces - Counter([value, value, others[-1]])
        if min(shown, key=lambda f: (-shown[f], f)) not in (value, others[-1]):
            return k, value, others[-1]
    raise AssertionError("no such roll in this game")


def _assert_refereed_but_unseen_faces(interpreter, verdicts, truth):
    """Nothing alerted or asked, and the game the true one but for the faces of dice never seen (how many
    dice each roll had, and every placement)."""
    assert [str(v) for v in verdicts if v.kind in ("alert", "uncertain")] == []

    def moves(history):
        return [len(e.dice) if isinstance(e, DiceRolled) else e for e in history]

    assert moves(interpreter.state.history) == moves(truth.history)


@pytest.mark.parametrize(("rules_name", "players", "seed"), [("las-vegas", 4, 40), ("las-vegas+six-players", 6, 45)])
def test_a_roll_with_three_dice_unseen_is_told_by_the_dice_placed_from_it(rules_name, players, seed):
    """Traced (seed 5044, six players): white's roll read with three dice unseen, two of them the value
    placed next and one another face that stays unseen in the tray. The unseen dice were all taken to show
    the face seen most, so the true roll was no candidate: the placement did not fit, and one die too many
    was booked on casino 3 for the rest of the round."""
    rules, colours = find_ruleset(rules_name), default_players(players)
    k, value, other = _roll_to_hide(list(table_moments(rules, colours, seed)))

    def corrupt(i, moment, snapshot):
        if i == k:
            return replace(snapshot, tray=_hide(snapshot.tray, moment.event.player, [value, value, other]))
        if i == k + 1:  # the other face stays unseen among the dice left in the tray
            return replace(snapshot, tray=_hide(snapshot.tray, moment.event.player, [other]))
        return snapshot

    _assert_refereed_but_unseen_faces(*watch(rules_name, colours, seed, corrupt))


@pytest.mark.parametrize(
    ("rules_name", "players", "seed"), [("las-vegas+neutral", 3, 50), ("las-vegas+neutral+biggy", 4, 51)]
)
def test_a_neutral_die_misread_in_the_roll_is_read_again_when_it_is_placed(rules_name, players, seed):
    """Traced (seed 7053, neutral): green's neutral 3 read as a 2 in the roll. Only the player's own dice
    were tried as misread, so the roll with a neutral 3 was no candidate, green's placement of a die and
    the neutral 3 on casino 3 did not fit, and the round was paid wrong."""
    colours = default_players(players)
    moments = list(table_moments(find_ruleset(rules_name), colours, seed))
    k, placement = next((k, placed) for k, (rolled, placed) in enumerate(itertools.pairwise(moments))
                        if rolled.what == "rolled" and placed.what == "placed" and placed.event.neutral)  # fmt: skip
    value = placement.event.casino
    read = next(face for face in range(1, 7) if face != value and value in MODEL.misread_from(face))

    def corrupt(i, moment, snapshot):
        if i != k:
            return snapshot
        tray = list(snapshot.tray)
        j = next(j for j, d in enumerate(tray) if d.colour is Colour.WHITE and d.pips == value)
        tray[j] = replace(tray[j], pips=read)
        return replace(snapshot, tray=tuple(tray))

    interpreter, verdicts, truth = watch(rules_name, colours, seed, corrupt)
    assert [str(v) for v in verdicts if v.kind == "alert"] == []
    assert same_game(interpreter, truth)


def _roll_hiding_others(moments):
    """The first roll of six dice or more placed next, with three dice of other faces than the value placed
    whose hiding leaves the value placed the face seen most and each face hidden seen still: (its moment,
    the value, the faces hidden)."""
    for k, (roll, placement) in enumerate(itertools.pairwise(moments)):
        if roll.what != "rolled" or placement.what != "placed" or len(roll.snapshot.tray) < 6:
            continue
        value = placement.event.casino
        faces = Counter(d.pips for d in roll.snapshot.tray if d.colour is roll.event.player)
        for hidden in sorted(set(itertools.combinations(sorted(f for f in faces.elements() if f != value), 3))):
            shown = faces - Counter(hidden)
            if min(shown, key=lambda f: (-shown[f], f)) == value and all(shown[f] for f in hidden):
                return k, value, list(hidden)
    raise AssertionError("no such roll in this game")


@pytest.mark.parametrize(
    ("rules_name", "players", "seed"),
    [("las-vegas", 5, 61), ("las-vegas", 2, 60)],
)
def test_three_dice_unseen_in_the_roll_are_not_taken_for_the_face_placed(rules_name, players, seed):
    """Traced (seed 64, black and white): white's roll of eight read with a 2 and two 6s unseen, and they
    stayed unseen among the dice left after white placed the three 4s. Dice unseen beyond two were taken
    to show the face seen most, the 4, so every roll tried held four 4s: four were booked on casino 4,
    the table was told again and again to put back a die never there, and the round was paid wrong.
    They may show any face seen (the face seen most first)."""
    rules, colours = find_ruleset(rules_name), default_players(players)
    k, _value, hidden = _roll_hiding_others(list(table_moments(rules, colours, seed)))

    def corrupt(i, moment, snapshot):
        if i in (k, k + 1):  # unseen in the roll, and among the dice left in the tray
            return replace(snapshot, tray=_hide(snapshot.tray, moment.event.player, hidden))
        return snapshot

    _assert_refereed_but_unseen_faces(*watch(rules_name, colours, seed, corrupt))


@pytest.mark.parametrize(
    ("rules_name", "players", "seed"),
    [("las-vegas+neutral+biggy", 4, 70), ("las-vegas+neutral", 3, 71)],
)
def test_a_die_misread_in_a_roll_with_a_neutral_die_unseen_is_read_again_when_placed(rules_name, players, seed):
    """Traced (seed 8054, neutral and Biggys): blue's roll read with a 2 as a 3 and the neutral die unseen.
    A misread was tried only in rolls read whole, and the six faces the unseen die may show crowded the
    beam, so the true roll was no candidate: blue's three 2s on casino 2 were booked as two and a
    phantom, and the round was paid wrong. Seed 71: the misread roll (9 nats) was pruned, the beam full
    of the six ways of filling in the unseen die behind each of five older histories; the ways of filling
    in a die not seen now take one place in the beam together."""
    colours = default_players(players)
    moments = list(table_moments(find_ruleset(rules_name), colours, seed))
    k, value = next((k, placed.event.casino) for k, (rolled, placed) in enumerate(itertools.pairwise(moments))
                    if rolled.what == "rolled" and placed.what == "placed" and placed.event.dice
                    and len(rolled.event.neutral) == 1 and placed.event.casino not in rolled.event.neutral)  # fmt: skip
    read = max(
        (face for face in range(1, 7) if face != value and value in MODEL.misread_from(face)),
        key=lambda face: MODEL.pips[value - 1][face - 1],
    )  # the reader's likeliest misreading of it

    def corrupt(i, moment, snapshot):
        if i not in (k, k + 1):
            return snapshot
        tray = [d for d in snapshot.tray if d.colour is not Colour.WHITE]  # the neutral die unseen in both
        if i == k:
            j = next(j for j, d in enumerate(tray) if d.pips == value)
            tray[j] = replace(tray[j], pips=read)
        return replace(snapshot, tray=tuple(tray))

    interpreter, verdicts, truth = watch(rules_name, colours, seed, corrupt)
    assert [str(v) for v in verdicts if v.kind == "alert"] == []

    def moves(history):  # the face of the neutral die never seen cannot be known
        return [replace(e, neutral=()) if isinstance(e, DiceRolled) else e for e in history]

    assert moves(canonical_history(interpreter.state.history)) == moves(canonical_history(truth.history))


@pytest.mark.parametrize(
    ("rules_name", "players", "seed"), [("las-vegas", 5, 73), ("las-vegas", 4, 2), ("las-vegas+neutral", 3, 6)]
)
def test_a_die_read_twice_is_not_taken_for_the_last_roll_and_placement_of_the_round(rules_name, players, seed):
    """Traced (seed 4073, five players): the last die of the round was black's; one of black's 1s on casino 1,
    among ten dice, was read twice a reading before black rolled. A roll never read in the tray was free,
    so "black rolls 1 and places it on casino 1" cost less than a die read twice, and the round was settled
    there, before black's true roll was read."""
    colours = default_players(players)
    rules = find_ruleset(rules_name)
    moments = list(table_moments(rules, colours, seed))
    k = next(k for k, m in enumerate(moments) if m.what in ("placed", "picked-up") and m.state.phase is Phase.ROLL
             and sum(m.state.held_dice) + sum(m.state.held_biggies) + sum(m.state.held_neutral) == 1
             and m.state.held_dice[m.state.turn] == 1)  # fmt: skip
    state = moments[k].state
    player = state.players[state.turn]
    casino = next(number for number, c in enumerate(state.casinos, start=1) if c.dice[state.turn])
    end = next(j for j in range(k, len(moments)) if moments[j].what == "settled")
    interpreter = Interpreter(LasVegasCamera(MODEL), new_game(rules, colours),
                              deal=virtual_deal(Dealer(rules, random.Random(seed))), model=MODEL)  # fmt: skip
    for i, moment in enumerate(moments):
        snapshot = moment.snapshot
        if k <= i < end:  # read right once, then with one of the player's dice there read twice
            if i == k:
                interpreter.observe(snapshot)
            twice = [*_zone(snapshot, casino), DieReading(player, False, casino)]
            snapshot = replace(_with_zone(snapshot, casino, twice), frame_index=snapshot.frame_index + 1)
        interpreter.observe(snapshot)
    assert same_game(interpreter, moments[-1].state)


def test_a_round_settled_at_the_cleared_table_goes_on_to_the_next_round():
    """Traced (a neutral game): the last placement of a round not seen, the round was settled only when
    the casinos were seen cleared, and the interpreter then waited for another clearing, missing the
    next round's pre-roll and every move after it."""
    rules, players = "las-vegas+neutral", default_players(3)
    moments = list(table_moments(find_ruleset(rules), players, 22))
    first_clear = next(k for k, m in enumerate(moments) if m.what == "cleared")
    last_placed = max(k for k, m in enumerate(moments[:first_clear]) if m.what == "placed")

    def corrupt(k, moment, snapshot):  # the last placement and the settled table never read
        return None if last_placed <= k < first_clear else snapshot

    interpreter, verdicts, truth = watch(rules, players, 22, corrupt)
    assert same_game(interpreter, truth) and interpreter.state.phase is Phase.OVER
    assert [v.kind for v in verdicts].count("cleared") == truth.ruleset.rounds


def test_an_illegal_placement_is_an_alert_with_the_rule_and_changes_nothing():
    rules = find_ruleset("las-vegas")
    interpreter = Interpreter(LasVegasCamera(MODEL), new_game(rules, ["red", "blue"]),
                              deal=virtual_deal(Dealer(rules, random.Random(1))), model=MODEL)  # fmt: skip
    red = [DieReading(Colour.RED, False, v) for v in (3, 3, 1, 2, 4, 5, 6, 6)]
    interpreter.observe(TableSnapshot(1, 0.1, ((),) * 6, tuple(red)))
    assert isinstance(interpreter.state.history[-1], DiceRolled)
    before = interpreter.state
    # one 3 put on casino 3, the other left in the tray
    verdicts = interpreter.observe(TableSnapshot(2, 0.2, ((), (), (red[0],), (), (), ()), tuple(red[1:])))
    verdicts += interpreter.observe(TableSnapshot(3, 0.3, ((), (), (red[0],), (), (), ()), tuple(red[1:])))
    assert [v.kind for v in verdicts] == ["alert"]
    assert "all dice of the chosen value must be placed" in verdicts[0].reason
    assert interpreter.state is before and verdicts[0].candidates


def test_dice_taken_off_a_casino_are_alerted_once_while_the_others_play_on():
    """Traced (seed 8074): a white die unseen on casino 3 for the rest of the round was alerted again at
    each of ten moves of the other players. Here two of red's dice are taken off their casino for good."""
    rules_name, colours, seed = "las-vegas", default_players(3), 12
    moments = list(table_moments(find_ruleset(rules_name), colours, seed))
    k, placed = next((k, m.event) for k, m in enumerate(moments) if m.what == "placed" and m.event.dice >= 2)
    end = next(j for j in range(k, len(moments)) if moments[j].what == "settled")

    def corrupt(i, moment, snapshot):
        if not k < i < end:
            return snapshot
        taken = _zone(snapshot, placed.casino)
        for _ in range(2):
            taken.remove(next(d for d in taken if d.colour is placed.player))
        return _with_zone(snapshot, placed.casino, taken)

    _, verdicts, _ = watch(rules_name, colours, seed, corrupt)
    alerts = [v.reason for v in verdicts if v.kind == "alert"]
    moves = sum(m.what == "placed" for m in moments[k + 1 : end])
    assert alerts and "put them back" in alerts[0] and moves >= 4
    assert len(alerts) == len(set(alerts)) < moves, alerts


def test_a_reading_costs_least_against_the_table_that_lies_there():
    red3 = [Expected("red", False, 3)] * 2
    read = [DieReading(Colour.RED, False, 3)] * 2
    assert zone_cost(MODEL, 3, red3, read) < zone_cost(MODEL, 3, red3, read[:1]) < zone_cost(MODEL, 3, red3, [])
    assert zone_cost(MODEL, 3, red3, read) < zone_cost(MODEL, 3, red3, [*read, read[0]])
    blue = [DieReading(Colour.BLUE, False, 3)] * 2
    assert zone_cost(MODEL, 3, red3, read) < zone_cost(MODEL, 3, red3, blue)
    optional = [Expected("red", False, 3, optional=True)]
    assert zone_cost(MODEL, 0, optional, []) < zone_cost(MODEL, 0, red3[:1], [])  # a leftover may be gone


def test_a_die_hidden_in_a_growing_pile_is_charged_once_not_at_every_die_added():
    blue = [Expected("blue", False, 2)] * 4
    white = Expected("white", False, 2)
    read = [DieReading(Colour.BLUE, False, 2)] * 4
    first = TableCost(MODEL, {2: read})  # the white die placed with the blues is not seen
    hidden = first({2: [*blue, white]})
    assert hidden > 0
    more = TableCost(MODEL, {2: [*read, DieReading(Colour.RED, False, 2)]})  # a red die joins; white still unseen
    joined = [*blue, white, Expected("red", False, 2)]
    assert more({2: joined}, {2: [*blue, white]}, first) < hidden / 10
    # a table that had no white die there pays nothing either way; where a blue die then goes unseen
    # too, the table pays for that die (its misfit grew by it), not again for the white one
    assert more({2: [*blue, Expected("red", False, 2)]}, {2: blue}, first) < 0.1
    gone = TableCost(MODEL, {2: read[:3]})
    charged = gone({2: [*blue, white]}, {2: [*blue, white]}, first)
    # the blue die going unseen pays its miss in full, the white one its staying hidden (within what the
    # blue die's reading cost then: a die read as it lies, a hundredth of a nat)
    assert charged == pytest.approx(gone({2: [*blue, white]}) - hidden + MODEL.stay_cost(), abs=0.05) and charged > 2


def test_dice_unseen_in_the_roll_that_stay_in_the_tray_are_not_charged_again_when_a_die_moves():
    """Traced (seed 31, black and white): white's roll read with two dice unseen, one 3 then put on casino 3.

    Either the two unseen dice stayed in the tray (two 1s, the truth), or they were 3s that went to
    casino 3 with the one seen there and are unseen again. The first history's misses were charged at
    the roll; the second's dice moved, so they are read anew and their misses charged again.
    """

    def white(*faces, optional=False):
        return [Expected("white", False, f, optional) for f in faces]

    def read(*faces):
        return [DieReading(Colour.WHITE, False, f) for f in faces]

    rolled = TableCost(MODEL, {0: read(2, 2, 3, 4, 4, 5)})
    ones, threes = {0: white(1, 1, 2, 2, 3, 4, 4, 5)}, {0: white(2, 2, 3, 3, 3, 4, 4, 5)}
    assert rolled(ones) == pytest.approx(rolled(threes))  # two dice unseen either way
    placed = TableCost(MODEL, {0: read(2, 2, 4, 4, 5), 3: read(3)})
    stayed = placed({0: white(1, 1, 2, 2, 4, 4, 5, optional=True), 3: white(3)}, ones, rolled)
    moved = placed({0: white(2, 2, 4, 4, 5, optional=True), 3: white(3, 3, 3)}, threes, rolled)
    assert stayed < 0.1 and moved > stayed + 4
    # the dice that stay in the tray go together: one of them gone while the rest are read is a miss
    assert placed({0: white(2, 2, 4, 4, 5, 6, optional=True)}) > placed({0: white(2, 2, 4, 4, 5, optional=True)}) + 2


def test_leftovers_unseen_since_the_roll_are_still_there_not_taken_back():
    """Traced (the seed-60 case of the three-dice test): blue's roll of eight read with three 3s unseen;
    blue placed the three 5s and the tray then showed a 4 and a 3. The leftovers were all there (three
    misses) or all taken back (the 4 and the 3 then phantoms), chosen by what each cost whole: the three
    misses, already charged at the roll, cost more than two phantoms, so the true history was charged
    13 nats and a history with a fourth 5 placed and hidden won."""

    def blue(*faces, optional=False):
        return [Expected("blue", False, f, optional) for f in faces]

    def read(*faces):
        return [DieReading(Colour.BLUE, False, f) for f in faces]

    rolled = TableCost(MODEL, {0: read(4, 5, 5, 5, 3)})
    roll = {0: blue(3, 3, 3, 3, 4, 5, 5, 5)}
    placed = TableCost(MODEL, {0: read(4, 3), 5: read(5, 5, 5)})
    assert placed({0: blue(3, 3, 3, 3, 4, optional=True), 5: blue(5, 5, 5)}, roll, rolled) < 0.2
    # taken back for good: the dice read in the tray now are phantoms, charged
    assert placed({5: blue(5, 5, 5)}, roll, rolled) > 10


def test_a_die_read_then_and_unseen_now_is_charged_its_miss_whatever_it_was_read_as_then():
    """Traced (the seed-22 case of the hidden-dice test, three players with the neutral dice): red rolled
    1 1 1 2 4 4, placed the 1s, and one 4 went unseen in the tray. A history in which the roll held a 5
    read as 4 paid that misreading at the roll, and it was taken as paid for the die's going unseen
    now; the true 4 paid its miss in full, and the roll was revised to 1 1 1 2 4 5."""

    def red(*faces, optional=False):
        return [Expected("red", False, f, optional) for f in faces]

    def read(*faces):
        return [DieReading(Colour.RED, False, f) for f in faces]

    rolled = TableCost(MODEL, {0: read(1, 1, 1, 2, 4, 4)})
    true_roll, misread_roll = {0: red(1, 1, 1, 2, 4, 4)}, {0: red(1, 1, 1, 2, 4, 5)}
    assert rolled(misread_roll) > rolled(true_roll) + 4  # the misreading, paid at the roll
    placed = TableCost(MODEL, {0: read(2, 4), 1: read(1, 1, 1)})
    true_now = placed({0: red(2, 4, 4, optional=True), 1: red(1, 1, 1)}, true_roll, rolled)
    misread_now = placed({0: red(2, 4, 5, optional=True), 1: red(1, 1, 1)}, misread_roll, rolled)
    miss = MODEL.miss_cost(3, "tray", "red")
    assert true_now == pytest.approx(miss, abs=0.1) and misread_now == pytest.approx(miss, abs=0.1)


def test_a_die_misread_for_good_stays_paid_when_another_of_its_look_goes_unseen_beside_it():
    """Traced (Royale seed 392, five players): four black 2s on casino 2 among ten dice, one read red for
    good; then another black die went unseen. Paired by cost, the die read red was taken for the one gone
    unseen, and its misreading charged again (10 nats) beside the new miss; a history that had taken
    blue's pass for a blue die placed there paid the miss only, and won."""
    table = {2: [Expected("black", False, 2)] * 4 + [Expected("red", False, 2)] * 2}
    black, red = DieReading(Colour.BLACK, False, 2), DieReading(Colour.RED, False, 2)
    then = TableCost(MODEL, {2: [black] * 3 + [red] * 3})  # one black die read red
    assert then(table) > 5
    now = TableCost(MODEL, {2: [black] * 2 + [red] * 3})  # and another black die unseen
    assert now(table, table, then) == pytest.approx(MODEL.miss_cost(6, "casino", "black"), abs=0.1)
    # the die read red read black again, and another one unseen: that die's miss, its misreading over
    back = TableCost(MODEL, {2: [black] * 3 + [red] * 2})
    assert back(table, table, then) == pytest.approx(MODEL.miss_cost(6, "casino", "black"), abs=0.1)


def test_a_phantom_read_on_in_another_face_or_colour_is_the_same_lasting_error():
    """Traced (seed 7004, neutral): a green die read on casino 6 that is not there, lasting the whole round,
    its face read 1, then 6, then 1 again. Charged as a new phantom at each change of face, the true
    history came to cost more than one that moved a green placement there from another casino. The same
    with its colour on a casino (seed 8201: a box on a die's side read as a blue 5 and a green 5 by turns),
    not in the rolling area, whose dice move; read as a Biggy it is another thing read: a new phantom."""

    def green(*faces):
        return [DieReading(Colour.GREEN, False, f) for f in faces]

    blue = DieReading(Colour.BLUE, False, 6)
    table = {6: [Expected("green", False, 6)] * 2}
    then = TableCost(MODEL, {6: green(6, 6, 1)})
    assert then(table) == pytest.approx(MODEL.extra_cost(), abs=0.1)  # the phantom
    same = TableCost(MODEL, {6: green(6, 6, 1)})(table, table, then)
    other_face = TableCost(MODEL, {6: green(6, 6, 6)})(table, table, then)
    other_colour = TableCost(MODEL, {6: [*green(6, 6), blue]})(table, table, then)
    new_phantom = TableCost(MODEL, {6: [*green(6, 6), replace(blue, big=True)]})(table, table, then)
    assert same < 0.1 < other_face < new_phantom - 3
    assert other_colour == pytest.approx(other_face + math.log(6), abs=0.01)
    assert new_phantom == pytest.approx(MODEL.extra_cost(), abs=0.1)
    tray = {0: [Expected("green", False, 6)] * 2}
    then = TableCost(MODEL, {0: green(6, 6, 1)})
    assert TableCost(MODEL, {0: [*green(6, 6), blue]})(tray, tray, then) == pytest.approx(new_phantom, abs=0.1)


def test_leftovers_read_gone_that_are_read_again_were_there_and_missed():
    """Traced (Royale seed 352, four players): red rolled 1 3, put the 1 on casino 1 and took the 3 back (the
    tray read empty), then rolled his last die: a 3. That 3 was taken for the leftover come back, free, and
    the pass that followed (the tray empty again) for the leftover taken back: the pass was lost."""
    leftover = {0: [Expected("red", False, 3, optional=True)], 1: [Expected("red", False, 1)]}
    one = [DieReading(Colour.RED, False, 1)]
    empty = TableCost(MODEL, {1: one})
    before = TableCost(MODEL, {0: [DieReading(Colour.RED, False, 3)], 1: one})
    assert empty(leftover, leftover, before) < 1  # taken back: gone costs little
    again = TableCost(MODEL, {0: [DieReading(Colour.RED, False, 3)], 1: one})
    # read again after the reading that showed it gone: there all along, missed in that reading
    missed = MODEL.miss_cost(1, "tray", "red") - GONE_COST
    assert again(leftover, leftover, empty) == pytest.approx(missed, abs=0.1) and missed > 3
    # a new roll of one die lying where the leftover lay is read as it lies, as before
    rolled = {0: [Expected("red", False, 3)], 1: [Expected("red", False, 1)]}
    assert again(rolled, leftover, empty) < 0.1


def test_a_die_back_on_a_casino_as_it_was_read_before_it_went_unseen_costs_its_staying():
    """Traced (seed 8144): a blue die among eleven on casino 2 read black, unseen, black again, six times in a
    round; the true table paid blue read as black at each return."""
    table = {2: [Expected("blue", False, 2)] * 4 + [Expected("black", False, 2)] * 2}
    blue, black = [DieReading(Colour.BLUE, False, 2)] * 3, [DieReading(Colour.BLACK, False, 2)] * 2
    first = TableCost(MODEL, {2: blue + black + black[:1]})  # the fourth blue read black
    misread = first(table) - first({2: table[2][:3] + [Expected("black", False, 2)] * 3})
    assert misread > 4
    unseen = TableCost(MODEL, {2: blue + black})
    unseen(table, table, first)
    back = TableCost(MODEL, {2: blue + black + black[:1]})
    assert back(table, table, unseen) < 0.1  # read as before: its misreading was charged when it arose
    # read as another colour than before, it is a new misreading
    other = TableCost(MODEL, {2: blue + black + [DieReading(Colour.GREEN, False, 2)]})
    assert other(table, table, unseen) > 4


def test_a_face_misread_by_turns_on_a_die_lying_still_is_charged_once():
    """Traced (seed 2162, three players with Biggys): red's 2 on casino 2 read 3, 2, 3 by turns; each return
    to 3 charged the true table a misread face anew, and a history in which red's roll held a 3 (misread as
    2) and red had put it there won."""
    table = {2: [Expected("red", False, 2)] * 2 + [Expected("red", True, 2)]}

    def read(*faces):
        return {2: [*(DieReading(Colour.RED, False, f) for f in faces), DieReading(Colour.RED, True, 2)]}

    first = TableCost(MODEL, read(3, 2))
    assert first(table) > 4  # a 2 read as 3: the misreading, charged when it arises
    right = TableCost(MODEL, read(2, 2))
    assert right(table, table, first) < 0.1
    again = TableCost(MODEL, read(3, 2))
    assert again(table, table, right) < 0.1  # read 3 again, as before: the same error, lasting
    other = TableCost(MODEL, read(2, 1))
    assert other(table, table, right) > 4  # another misreading is new


def test_the_shipped_observation_model_was_measured_and_round_trips(tmp_path):
    shipped = ObservationModel.default()
    assert shipped.source.get("measured") is True
    path = tmp_path / "model.json"
    import json

    path.write_text(json.dumps(shipped.to_json()))
    assert ObservationModel.load(path).to_json() == shipped.to_json()
    path.write_text("{}")
    with pytest.raises(ValueError, match="is not an observation model"):
        ObservationModel.load(path)


def test_the_interpreter_prices_readings_in_its_camera_s_model_unless_given_another():
    """A camera built with a model weighs its candidates in it; the interpreter then weighs readings alike."""
    state = new_game(find_ruleset("las-vegas"), ["red", "blue"])
    assert Interpreter(LasVegasCamera(MODEL), state).model is MODEL
    assert Interpreter(LasVegasCamera(), state).model == ObservationModel.default()
    other = ObservationModel.generic()
    assert Interpreter(LasVegasCamera(MODEL), state, model=other).model is other


def test_events_said_carry_the_candidates_weighed():
    _interpreter, verdicts, _ = watch("las-vegas", default_players(3), 41)
    placed = [v for v in verdicts if isinstance(v.event, DicePlaced)]
    assert placed and all(v.candidates and v.candidates[0][1] == 0 for v in placed)


def test_a_die_the_tracker_saw_lying_on_a_casino_is_not_taken_for_a_placement_not_seen():
    """A die the tracker read on a casino at the reading before (the same id: the same die, unmoved) was not
    put there since. Traced (Royale main game 424, five players): a blue phantom read for good among eight
    dice on casino 2 from green's turn on, its size read now normal, now Biggy (each change a new phantom),
    was taken at blue's turn for his roll and placement, neither seen; his true roll was then out of turn
    and two casinos were paid wrong. Here: a phantom blue 2 lies on casino 2 from red's first placement to
    the round's end, read as a Biggy every third reading."""
    count = itertools.count()

    def phantom(k, moment, snapshot):
        if moment.state.round != 1 or moment.what in ("cleared", "settled"):
            return snapshot
        placed = [e for e in moment.state.history if isinstance(e, DicePlaced)]
        if not placed:
            return snapshot
        die = DieReading(Colour.BLUE, next(count) % 3 == 1, 2, track=9999)
        return _with_zone(snapshot, 2, [*_zone(snapshot, 2), die])

    interpreter, verdicts, truth = watch("las-vegas+biggy", [Colour.RED, Colour.BLUE], 4, phantom)
    assert not any("not seen" in v.reason for v in verdicts if v.kind == "event")
    assert same_game(interpreter, truth)
