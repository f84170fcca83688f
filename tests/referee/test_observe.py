"""The observer: settled table readings become refereed events, alerts or held-back readings."""

import random
from dataclasses import replace

import pytest

from referee import BanknotesDealt, Colour, DicePlaced, DiceRolled, Phase, find_ruleset, new_game
from referee.lasvegas.observe import Observer, canonical_history, seeded_deal, virtual_deal
from referee.lasvegas.simulate import Dealer, default_players, table_moments
from referee.readings import DieReading, TableSnapshot

RED, BLUE, WHITE = Colour.RED, Colour.BLUE, Colour.WHITE
EMPTY = ((),) * 6
DEAL = BanknotesDealt(((60_000,), (50_000,), (90_000,), (70_000,), (80_000,), (10_000, 40_000)))


def referee_game(rules_name, players, seed, strip_tracks=False, pick_up=True):
    """Feeds every moment of a simulated game to an observer; returns it, the verdicts and the truth."""
    rules = find_ruleset(rules_name)
    observer = Observer(new_game(rules, players), deal=virtual_deal(Dealer(rules, random.Random(seed))))
    verdicts, truth = [], None
    for moment in table_moments(rules, players, seed, pick_up=pick_up):
        snapshot = moment.snapshot
        if strip_tracks:
            strip = lambda dice: tuple(replace(d, track=-1) for d in dice)  # noqa: E731
            snapshot = replace(snapshot, casinos=tuple(map(strip, snapshot.casinos)), tray=strip(snapshot.tray))
        verdicts += observer.observe(snapshot)
        truth = moment.state
    return observer, verdicts, truth


@pytest.mark.parametrize(
    ("rules_name", "players", "seed"),
    [("las-vegas", 2, 1), ("las-vegas", 4, 2), ("las-vegas+neutral", 3, 3), ("las-vegas+neutral+biggy", 5, 4),
     ("las-vegas+biggy", 2, 5), ("las-vegas+neutral", 2, 6)],
)  # fmt: skip
def test_watching_a_whole_game_reproduces_it_exactly(rules_name, players, seed):
    observer, verdicts, truth = referee_game(rules_name, default_players(players), seed)
    assert [v.reason for v in verdicts if v.kind != "event" and v.kind != "cleared"] == []
    assert canonical_history(observer.state.history) == canonical_history(truth.history)
    assert observer.state.phase is Phase.OVER
    assert [v.kind for v in verdicts].count("cleared") == truth.ruleset.rounds


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_without_track_ids_picking_up_the_leftovers_marks_the_next_roll(seed):
    observer, _, truth = referee_game("las-vegas+biggy", default_players(3), seed, strip_tracks=True)
    assert canonical_history(observer.state.history) == canonical_history(truth.history)


@pytest.mark.parametrize("seed", [10, 11])
def test_with_track_ids_a_roll_may_land_before_the_leftovers_are_seen_gone(seed):
    observer, _, truth = referee_game("las-vegas", default_players(2), seed, pick_up=False)
    assert canonical_history(observer.state.history) == canonical_history(truth.history)


def rolled(faces=(1, 3, 3, 5, 6, 6, 6, 2)):
    """A red-and-blue game, dealt, with red's roll in the tray."""
    observer = Observer(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    observer.apply(DEAL)
    tray = tuple(DieReading(RED, False, v, track=i) for i, v in enumerate(faces, start=1))
    verdicts = observer.observe(TableSnapshot(1, 0.1, EMPTY, tray))
    assert [str(v) for v in verdicts] == [f"red rolls {' '.join(map(str, sorted(faces)))}"]
    return observer, tray


def casinos(**dice):
    table = [()] * 6
    for key, value in dice.items():
        table[int(key[1:]) - 1] = tuple(value)
    return tuple(table)


def test_a_placement_of_only_some_dice_of_the_value_is_an_alert_with_the_rule():
    observer, tray = rolled()
    before = observer.state
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c6=tray[4:6]), tray[:4] + tray[6:]))
    assert [v.kind for v in verdicts] == ["alert"]
    assert "6" in verdicts[0].reason and "all" in verdicts[0].reason
    assert observer.state is before
    # Read again (many times a second): said once.
    assert observer.observe(TableSnapshot(3, 0.3, casinos(c6=tray[4:6]), tray[:4] + tray[6:])) == []
    # The player fixes it: the third 6 joins.
    verdicts = observer.observe(TableSnapshot(4, 0.4, casinos(c6=tray[4:7]), tray[:4] + tray[7:]))
    assert [str(v) for v in verdicts] == ["red places 3 dice showing 6 on casino 6"]
    assert observer.state.phase is Phase.ROLL and observer.state.to_act is BLUE


def test_dice_on_two_casinos_at_once_is_an_alert():
    observer, tray = rolled()
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c1=tray[:1], c5=tray[3:4]), tray[1:3] + tray[4:]))
    assert [v.kind for v in verdicts] == ["alert"] and "casinos 1 and 5" in verdicts[0].reason


def test_a_die_showing_a_face_not_rolled_on_a_casino_is_held_back_as_uncertain():
    observer, tray = rolled()
    before = observer.state
    misread = (replace(tray[1], pips=4),)  # red rolled no 4: the reading is wrong, not the player
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c2=misread), tray[:1] + tray[2:]))
    assert [(v.kind, v.reason) for v in verdicts] == [("uncertain", "a red die on casino 2 shows 4")]
    assert observer.state is before


def test_a_placed_die_misread_on_its_casino_does_not_hold_the_game_up():
    observer, tray = rolled()
    observer.observe(TableSnapshot(2, 0.2, casinos(c6=tray[4:7]), tray[:4] + tray[7:]))
    misread = (tray[4], replace(tray[5], pips=5), tray[6])  # a placed 6 now read as 5
    blue = tuple(DieReading(BLUE, False, v, track=20 + i) for i, v in enumerate((1, 2, 3, 4, 5, 6, 6, 6)))
    verdicts = observer.observe(TableSnapshot(3, 0.3, casinos(c6=misread), blue))
    assert [str(v) for v in verdicts] == ["blue rolls 1 2 3 4 5 6 6 6"]


def test_the_placement_of_all_dice_of_a_value_stands_when_one_is_misread_on_the_casino():
    observer, tray = rolled()
    sixes = (tray[4], replace(tray[5], pips=5), tray[6])  # three 6s put on casino 6, one read as 5
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c6=sixes), tray[:4] + tray[7:]))
    assert [str(v) for v in verdicts] == ["red places 3 dice showing 6 on casino 6"]


def test_a_wrong_face_on_a_casino_counts_when_the_counts_do_not_explain_it():
    observer, tray = rolled()
    # Two 6s and the 5 on casino 6, the third 6 left in the tray: the 5 is really there.
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c6=tray[3:6]), tray[:3] + tray[6:]))
    assert [v.kind for v in verdicts] == ["alert"] and "showing 5 on casino 6" in verdicts[0].reason


def test_a_missed_placement_is_caught_up_when_the_next_player_has_moved():
    observer, tray = rolled()
    # Red's three 6s went on casino 6 unseen; blue then rolled (unseen) and put two 2s on casino 2.
    blue = tuple(DieReading(BLUE, False, v, track=20 + i) for i, v in enumerate((2, 2, 1, 3, 4, 5, 5, 6)))
    verdicts = observer.observe(TableSnapshot(5, 0.5, casinos(c6=tray[4:7], c2=blue[:2]), blue[2:]))
    assert [str(v) for v in verdicts] == [
        "red places 3 dice showing 6 on casino 6",
        "blue rolls 1 2 2 3 4 5 5 6",
        "blue places 2 dice showing 2 on casino 2",
    ]
    assert observer.state.to_act is RED


def test_a_roll_taken_back_before_the_catch_up_is_read_from_when_it_was_last_seen():
    observer, tray = rolled()
    sixes = tray[4:7]
    observer.observe(TableSnapshot(2, 0.2, casinos(c6=sixes), tray[:4] + tray[7:]))
    blue = tuple(DieReading(BLUE, False, v, track=20 + i) for i, v in enumerate((1, 2, 3, 4, 5, 6, 6, 6)))
    assert [str(v) for v in observer.observe(TableSnapshot(3, 0.3, casinos(c6=sixes), blue))] == [
        "blue rolls 1 2 3 4 5 6 6 6"
    ]
    # Blue's 1 goes on casino 1 unseen; red rolls its five dice (seen), puts its two 3s on casino 3 and
    # takes the rest back before blue's die is seen at last.
    red = tuple(DieReading(RED, False, v, track=30 + i) for i, v in enumerate((3, 3, 1, 5, 2)))
    assert observer.observe(TableSnapshot(4, 0.4, casinos(c6=sixes), red)) == []
    verdicts = observer.observe(TableSnapshot(5, 0.5, casinos(c1=blue[:1], c3=red[:2], c6=sixes), ()))
    assert [str(v) for v in verdicts] == [
        "blue places 1 die showing 1 on casino 1",
        "red rolls 1 2 3 3 5",
        "red places 2 dice showing 3 on casino 3",
    ]


def test_a_waiting_players_die_read_twice_in_a_crowd_does_not_hold_the_game_up():
    observer, tray = rolled()
    sixes = tray[4:7]
    observer.observe(TableSnapshot(2, 0.2, casinos(c6=sixes), tray[:4] + tray[7:]))
    blue = tuple(DieReading(BLUE, False, v, track=20 + i) for i, v in enumerate((1, 2, 3, 4, 5, 6, 6, 6)))
    observer.observe(TableSnapshot(3, 0.3, casinos(c6=sixes), blue))
    # Blue puts its three 6s on casino 6, where one red 6 is now read twice: 9 red dice can't be.
    crowd = (*sixes, replace(sixes[0], track=40), *blue[5:])
    red_next = tuple(DieReading(RED, False, v, track=50 + i) for i, v in enumerate((1, 3, 3, 5, 2)))
    verdicts = observer.observe(TableSnapshot(4, 0.4, casinos(c6=crowd), blue[:5] + red_next))
    # Red's roll, read with blue's placement, is red's roll (only blue's leftovers are stale).
    assert [str(v) for v in verdicts] == ["blue places 3 dice showing 6 on casino 6", "red rolls 1 2 3 3 5"]


def crowded_casino_six():
    """Red has put three 6s on casino 6 and blue has rolled three 6s: blue's dice and the crowd."""
    observer, tray = rolled()
    observer.observe(TableSnapshot(2, 0.2, casinos(c6=tray[4:7]), tray[:4] + tray[7:]))
    blue = tuple(DieReading(BLUE, False, v, track=20 + i) for i, v in enumerate((1, 2, 3, 4, 5, 6, 6, 6)))
    assert [str(v) for v in observer.observe(TableSnapshot(3, 0.3, casinos(c6=tray[4:7]), blue))] == [
        "blue rolls 1 2 3 4 5 6 6 6"
    ]
    return observer, tray[4:7], blue


def red_rolls_after_the_crowd(faces):
    """:func:`crowded_casino_six`, blue's three 6s placed (six dice on casino 6), then red's roll."""
    observer, sixes, blue = crowded_casino_six()
    six = casinos(c6=sixes + blue[5:])
    assert [str(v) for v in observer.observe(TableSnapshot(4, 0.4, six, blue[:5]))] == [
        "blue places 3 dice showing 6 on casino 6"
    ]
    red = tuple(DieReading(RED, False, v, track=60 + i) for i, v in enumerate(faces))
    assert [str(v) for v in observer.observe(TableSnapshot(5, 0.5, six, red))] == [
        f"red rolls {' '.join(map(str, sorted(faces)))}"
    ]
    return observer, sixes, blue, red


def test_a_placement_partly_hidden_in_a_crowd_counts_when_the_tray_shows_the_rest():
    observer, sixes, blue = crowded_casino_six()
    # Blue puts its three 6s on casino 6; one hides behind the others. The tray shows blue's 1 to 5: no 6 left.
    verdicts = observer.observe(TableSnapshot(4, 0.4, casinos(c6=sixes + blue[5:7]), blue[:5]))
    assert [str(v) for v in verdicts] == ["blue places 3 dice showing 6 on casino 6"]
    assert observer.state.casinos[5].dice == (3, 3)


def test_two_dice_touching_read_as_one_are_the_whole_placement_when_the_tray_shows_the_rest():
    observer, tray = rolled()  # red rolled 1 3 3 5 6 6 6 2
    # Both 3s go on casino 3, touching: one die is read there. The tray shows 1 5 6 6 6 2: no 3 left.
    table = casinos(c3=tray[1:2])
    verdicts = observer.observe(TableSnapshot(2, 0.2, table, tray[:1] + tray[3:]))
    assert [str(v) for v in verdicts] == ["red places 2 dice showing 3 on casino 3"]
    blue = tuple(DieReading(BLUE, False, v, track=20 + i) for i, v in enumerate((1, 2, 3, 4, 5, 6, 6, 6)))
    assert [str(v) for v in observer.observe(TableSnapshot(3, 0.3, table, blue))] == ["blue rolls 1 2 3 4 5 6 6 6"]


def test_the_placing_players_die_read_twice_in_a_crowd_does_not_hold_the_game_up():
    observer, sixes, blue = crowded_casino_six()
    # Blue's three 6s go on casino 6, one read twice: nine blue dice can't be, and blue rolled three 6s.
    crowd = (*sixes, *blue[5:], replace(blue[7], track=99))
    verdicts = observer.observe(TableSnapshot(4, 0.4, casinos(c6=crowd), blue[:5]))
    assert [str(v) for v in verdicts] == ["blue places 3 dice showing 6 on casino 6"]


def test_a_die_read_twice_on_another_casino_of_the_roll_is_told_by_the_tray():
    observer, sixes, blue, red = red_rolls_after_the_crowd((1, 2, 3, 5, 6))
    # Red puts its 5 on casino 5 while a red 6 on casino 6 is read twice: nine red dice. Red rolled a
    # 6 too, but it is still in the tray: the second 6 on casino 6 is the phantom.
    crowd = (*sixes, replace(sixes[0], track=98), *blue[5:])
    verdicts = observer.observe(TableSnapshot(6, 0.6, casinos(c5=red[3:4], c6=crowd), red[:3] + red[4:]))
    assert [str(v) for v in verdicts] == ["red places 1 die showing 5 on casino 5"]


def test_a_die_read_twice_in_a_crowd_without_a_count_to_tell_does_not_hold_the_game_up():
    observer, sixes, blue = crowded_casino_six()
    observer.observe(TableSnapshot(4, 0.4, casinos(c6=sixes + blue[5:]), blue[:5]))
    # One of blue's 6s is read twice for the rest of the round; blue holds 5 dice, so 9 blue dice are
    # not read: only the crowd (6 dice on casino 6) says it is a phantom.
    crowd = casinos(c6=(*sixes, *blue[5:], replace(blue[5], track=97)))
    assert observer.observe(TableSnapshot(5, 0.5, crowd, ())) == []
    red = tuple(DieReading(RED, False, v, track=60 + i) for i, v in enumerate((1, 2, 3, 3, 5)))
    assert [str(v) for v in observer.observe(TableSnapshot(6, 0.6, crowd, red))] == ["red rolls 1 2 3 3 5"]
    with_threes = casinos(c3=red[2:4], c6=crowd[5])
    verdicts = observer.observe(TableSnapshot(7, 0.7, with_threes, red[:2] + red[4:]))
    assert [str(v) for v in verdicts] == ["red places 2 dice showing 3 on casino 3"]
    # Blue's turn comes with the phantom still there: not an early placement, and blue's roll counts.
    assert observer.observe(TableSnapshot(8, 0.8, with_threes, ())) == []
    blue_again = tuple(DieReading(BLUE, False, v, track=70 + i) for i, v in enumerate((1, 2, 4, 4, 5)))
    verdicts = observer.observe(TableSnapshot(9, 0.9, with_threes, blue_again))
    assert [str(v) for v in verdicts] == ["blue rolls 1 2 4 4 5"]
    assert observer.state.casinos[5].dice == (3, 3)


def test_a_stray_box_in_a_crowd_with_a_face_no_die_there_can_show_does_not_hold_the_game_up():
    observer, sixes, blue, red = red_rolls_after_the_crowd((1, 2, 3, 5, 6))
    # Red puts its 6 on casino 6 (7 dice); the crowd also gives a box read as a blue 1, for good.
    stray = DieReading(BLUE, False, 1, track=96)
    crowd = casinos(c6=(*sixes, *blue[5:], red[4], stray))
    verdicts = observer.observe(TableSnapshot(6, 0.6, crowd, red[:4]))
    assert [str(v) for v in verdicts] == ["red places 1 die showing 6 on casino 6"]
    assert observer.observe(TableSnapshot(7, 0.7, crowd, ())) == []  # blue's turn, the stray still there
    # Blue's roll is missed and first seen placed: two 4s on casino 4, the rest in the tray. With the
    # stray, 9 blue dice are read: the stray is the one too many, not a 4 of the placement.
    blue_again = tuple(DieReading(BLUE, False, v, track=70 + i) for i, v in enumerate((1, 2, 4, 4, 5)))
    placed = (*crowd[:3], blue_again[2:4], crowd[4], crowd[5])
    verdicts = observer.observe(TableSnapshot(8, 0.8, placed, (*blue_again[:2], blue_again[4])))
    assert [str(v) for v in verdicts] == ["blue rolls 1 2 4 4 5", "blue places 2 dice showing 4 on casino 4"]
    # On a casino of three dice such a reading is held back: it is not taken for a phantom there.
    observer, tray = rolled()
    observer.observe(TableSnapshot(2, 0.2, casinos(c3=tray[1:3]), tray[:1] + tray[3:]))
    verdicts = observer.observe(TableSnapshot(3, 0.3, casinos(c3=(*tray[1:3], replace(tray[0], track=95))), ()))
    assert [v.kind for v in verdicts] == ["uncertain"] and "a red die on casino 3 shows 1" in verdicts[0].reason


def test_a_die_beside_its_own_on_a_casino_is_still_a_move_when_it_cannot_be_read_twice():
    observer, sixes, blue = crowded_casino_six()
    observer.observe(TableSnapshot(4, 0.4, casinos(c6=sixes + blue[5:]), blue[:5]))
    # Red, to roll, puts a die on casino 6 beside its own 6s first: a move, not a die read twice.
    early = casinos(c6=(*sixes, *blue[5:], DieReading(RED, False, 6, track=61)))
    verdicts = observer.observe(TableSnapshot(5, 0.5, early, ()))
    assert [v.kind for v in verdicts] == ["alert"] and "before red rolled" in verdicts[0].reason
    # Red rolls and puts a 5 on casino 6, crowded, beside its own dice: the wrong casino, not a phantom.
    red = tuple(DieReading(RED, False, v, track=60 + i) for i, v in enumerate((1, 2, 3, 3, 5)))
    observer.observe(TableSnapshot(6, 0.6, casinos(c6=sixes + blue[5:]), red))
    wrong = casinos(c6=(*sixes, *blue[5:], red[4]))
    verdicts = observer.observe(TableSnapshot(7, 0.7, wrong, red[:4]))
    assert [v.kind for v in verdicts] == ["alert"] and "casino of their value (casino 5)" in verdicts[0].reason
    # On a casino with few dice a second die beside a waiting player's own is not taken for a phantom.
    observer, tray = rolled()
    observer.observe(TableSnapshot(2, 0.2, casinos(c3=tray[1:3]), tray[:1] + tray[3:]))
    extra = casinos(c3=(*tray[1:3], replace(tray[1], track=99)))
    blue = tuple(DieReading(BLUE, False, v, track=20 + i) for i, v in enumerate((1, 2, 3, 4, 5, 6, 6, 6)))
    verdicts = observer.observe(TableSnapshot(3, 0.3, extra, blue))
    assert [v.kind for v in verdicts] == ["alert"]


def red_misread_roll_placed_in_a_crowd():
    """Red rolls 1 2 5 6 6, read 1 2 3 5 6, and puts both 6s on crowded casino 6, where one is read."""
    observer, sixes, blue, red = red_rolls_after_the_crowd((1, 2, 3, 5, 6))
    crowd = casinos(c6=(*sixes, *blue[5:], red[4]))  # 8 dice lie there, 7 read
    return observer, red, crowd


def test_a_die_gone_from_the_tray_with_a_placement_went_on_the_casino():
    observer, red, crowd = red_misread_roll_placed_in_a_crowd()
    # The tray shows 1 2 5: the "3" is gone with the placement. Held back while the tray is looked at.
    left = (*red[:2], red[3])
    verdicts = observer.observe(TableSnapshot(6, 0.6, crowd, left))
    assert [v.kind for v in verdicts] == ["uncertain"] and "red's 3 not seen in the tray" in verdicts[0].reason
    assert observer.observe(TableSnapshot(7, 0.7, crowd, left)) == []
    # Red takes the 1 2 5 back, the 3 never seen again: it was a 6, hidden on casino 6.
    verdicts = observer.observe(TableSnapshot(8, 0.8, crowd, ()))
    assert [str(v) for v in verdicts] == [
        "red rolls 1 2 5 6 6 (the roll read again when its dice were placed) (the 3 read in the tray went on "
        "casino 6, hidden there)",
        "red places 2 dice showing 6 on casino 6",
    ]
    assert verdicts[0].replaces is not None and observer.state.held_dice[0] == 3


def test_a_die_missed_in_the_tray_for_a_moment_does_not_change_the_roll():
    observer, red, crowd = red_misread_roll_placed_in_a_crowd()
    assert [v.kind for v in observer.observe(TableSnapshot(6, 0.6, crowd, (*red[:2], red[3])))] == ["uncertain"]
    # The 3 is seen again: the placement is the one 6 read, as the roll said.
    verdicts = observer.observe(TableSnapshot(7, 0.7, crowd, red[:4]))
    assert [str(v) for v in verdicts] == ["red places 1 die showing 6 on casino 6"]
    # On a casino that was empty no die hides: a die missing from the tray was missed there.
    observer, tray = rolled()  # red rolled 1 3 3 5 6 6 6 2
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c3=tray[1:3]), (tray[0], *tray[3:7])))
    assert [str(v) for v in verdicts] == ["red places 2 dice showing 3 on casino 3"]
    # A placement first seen after the leftovers were taken back tells nothing about them.
    observer, red, crowd = red_misread_roll_placed_in_a_crowd()
    assert [str(v) for v in observer.observe(TableSnapshot(6, 0.6, crowd, ()))] == [
        "red places 1 die showing 6 on casino 6"
    ]


def test_a_placed_die_hidden_in_a_crowd_is_not_taken_off_but_two_are():
    observer, sixes, blue = crowded_casino_six()
    observer.observe(TableSnapshot(4, 0.4, casinos(c6=sixes + blue[5:]), blue[:5]))
    red = tuple(DieReading(RED, False, v, track=60 + i) for i, v in enumerate((1, 2, 3, 3, 5)))
    # Six dice on casino 6, five read: one hidden, red's roll goes on.
    verdicts = observer.observe(TableSnapshot(5, 0.5, casinos(c6=sixes[1:] + blue[5:]), red))
    assert [str(v) for v in verdicts] == ["red rolls 1 2 3 3 5"]
    # Four read: two dice taken off.
    verdicts = observer.observe(TableSnapshot(6, 0.6, casinos(c6=sixes[2:] + blue[6:]), red))
    assert [v.kind for v in verdicts] == ["alert"] and "put them back" in verdicts[0].reason


def test_a_placement_hidden_whole_in_a_crowd_is_known_when_the_next_player_rolls():
    observer, sixes, blue, red = red_rolls_after_the_crowd((1, 2, 3, 3, 6))
    # Red's 6 goes on casino 6 unseen (six dice read there, seven lie there); red takes the rest back.
    assert observer.observe(TableSnapshot(6, 0.6, casinos(c6=sixes + blue[5:]), red[:4])) == []
    assert observer.observe(TableSnapshot(7, 0.7, casinos(c6=sixes + blue[5:]), ())) == []
    blue_again = tuple(DieReading(BLUE, False, v, track=70 + i) for i, v in enumerate((1, 2, 3, 4, 5)))
    verdicts = observer.observe(TableSnapshot(8, 0.8, casinos(c6=sixes + blue[5:]), blue_again))
    assert [str(v) for v in verdicts] == ["red places 1 die showing 6 on casino 6", "blue rolls 1 2 3 4 5"]


def test_a_placement_hidden_whole_is_told_by_the_dice_last_seen_in_the_tray_when_two_casinos_could_hide_it():
    observer, sixes, blue, red = red_rolls_after_the_crowd((1, 2, 3, 3, 5))
    six = casinos(c6=sixes + blue[5:])
    observer.observe(TableSnapshot(6, 0.6, casinos(c3=red[2:4], c6=six[5]), (*red[:2], red[4])))
    blue = tuple(DieReading(BLUE, False, v, track=70 + i) for i, v in enumerate((1, 2, 3, 4, 5)))
    observer.observe(TableSnapshot(7, 0.7, casinos(c3=red[2:4], c6=six[5]), blue))
    table = casinos(c3=(*red[2:4], blue[2]), c6=six[5])
    assert [str(v) for v in observer.observe(TableSnapshot(8, 0.8, table, (*blue[:2], *blue[3:])))] == [
        "blue places 1 die showing 3 on casino 3"
    ]
    red = tuple(DieReading(RED, False, v, track=80 + i) for i, v in enumerate((1, 3, 6)))
    assert [str(v) for v in observer.observe(TableSnapshot(9, 0.9, table, red))] == ["red rolls 1 3 6"]
    # Red's 6 goes on casino 6 unseen (a 3 could hide on casino 3 as well); the tray shows the 1 and the 3.
    assert observer.observe(TableSnapshot(10, 1.0, table, red[:2])) == []
    assert observer.observe(TableSnapshot(11, 1.1, table, ())) == []
    blue_again = tuple(DieReading(BLUE, False, v, track=90 + i) for i, v in enumerate((2, 4, 5, 5)))
    verdicts = observer.observe(TableSnapshot(12, 1.2, table, blue_again))
    assert [str(v) for v in verdicts] == ["red places 1 die showing 6 on casino 6", "blue rolls 2 4 5 5"]


def test_the_rounds_last_placement_unseen_is_known_when_the_casinos_are_cleared():
    rules, players = find_ruleset("las-vegas"), default_players(2)
    observer = Observer(new_game(rules, players), deal=virtual_deal(Dealer(rules, random.Random(1))))
    moments = list(table_moments(rules, players, 1))
    hidden: set[int] = set()
    for before, moment, after in zip([None, *moments], moments, [*moments[1:], None], strict=False):
        snapshot = moment.snapshot
        if moment.what == "placed" and after is not None and after.what == "settled":  # never seen
            hidden |= {d.track for d in snapshot.all_dice()} - {d.track for d in before.snapshot.all_dice()}
        unseen = tuple(tuple(d for d in dice if d.track not in hidden) for dice in snapshot.casinos)
        verdicts = observer.observe(replace(snapshot, casinos=unseen))
        assert [v.reason for v in verdicts if v.kind in ("alert", "uncertain")] == []
    assert hidden and canonical_history(observer.state.history) == canonical_history(moments[-1].state.history)


def test_dice_put_on_the_wrong_casino_are_an_alert_with_the_rule():
    observer, tray = rolled()
    before = observer.state
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c4=tray[1:3]), tray[:1] + tray[3:]))  # the two 3s
    assert [(v.kind, v.reason) for v in verdicts] == [
        ("alert", "red put dice showing 3 on casino 4: dice go on the casino of their value (casino 3)")
    ]
    assert observer.state is before


def test_more_dice_of_a_colour_than_exist_is_uncertain():
    observer, tray = rolled()
    extra = (*tray, DieReading(RED, False, 2, track=99))
    verdicts = observer.observe(TableSnapshot(2, 0.2, EMPTY, extra))
    assert [v.kind for v in verdicts] == ["uncertain"] and "9 red dice" in verdicts[0].reason


def test_a_roll_out_of_turn_and_a_partial_roll_are_alerts():
    observer = Observer(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    observer.apply(DEAL)
    blue = tuple(DieReading(BLUE, False, v, track=i) for i, v in enumerate((1, 2, 3, 4, 5, 6, 6, 6)))
    verdicts = observer.observe(TableSnapshot(1, 0.1, EMPTY, blue))
    assert [(v.kind, v.reason) for v in verdicts] == [("alert", "blue dice were rolled, but it is red's turn")]
    seven = tuple(DieReading(RED, False, v, track=10 + i) for i, v in enumerate((1, 2, 3, 4, 5, 6, 6)))
    # Seven of eight dice in the tray: a die missed by the camera, more often than one held back.
    verdicts = observer.observe(TableSnapshot(2, 0.2, EMPTY, seven))
    assert [(v.kind, v.reason) for v in verdicts] == [("uncertain", "7 of red's 8 dice read in the tray")]
    assert observer.state.phase is Phase.ROLL
    # The placement confirms it: the 1 on casino 1 and six dice in the tray. Red kept a die back.
    verdicts = observer.observe(TableSnapshot(3, 0.3, casinos(c1=seven[:1]), seven[1:]))
    assert [(v.kind, v.reason) for v in verdicts] == [
        ("alert", "red rolled 7 dice but holds 8: every die still held must be rolled")
    ]
    assert observer.state.phase is Phase.ROLL


def test_a_roll_seen_without_one_die_is_read_from_its_placement():
    observer = Observer(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    observer.apply(DEAL)
    roll = tuple(DieReading(RED, False, v, track=i) for i, v in enumerate((1, 3, 3, 5, 6, 6, 6, 2), start=1))
    verdicts = observer.observe(TableSnapshot(1, 0.1, EMPTY, roll[:7]))  # the 2 was missed
    assert [v.kind for v in verdicts] == ["uncertain"] and "7 of red's 8 dice" in verdicts[0].reason
    # Red places the two 3s; the tray now shows the other six dice, the 2 among them.
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c3=roll[1:3]), roll[:1] + roll[3:]))
    assert [str(v) for v in verdicts] == ["red rolls 1 2 3 3 5 6 6 6", "red places 2 dice showing 3 on casino 3"]
    assert observer.state.to_act is BLUE and observer.state.casinos[2].dice[0] == 2


def test_a_die_never_seen_in_the_roll_does_not_stop_the_game_once_the_next_player_rolls():
    observer = Observer(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    observer.apply(DEAL)
    roll = tuple(DieReading(RED, False, v, track=i) for i, v in enumerate((1, 3, 3, 5, 6, 6, 6, 2), start=1))
    seen = roll[:7]  # the 2 is never read (two dice touching read as one)
    assert [v.kind for v in observer.observe(TableSnapshot(1, 0.1, EMPTY, seen))] == ["uncertain"]
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c3=seen[1:3]), seen[:1] + seen[3:]))
    assert [v.kind for v in verdicts] == ["alert"]  # dice held back, or one not seen: the players are asked
    # Red takes the rest back and blue rolls: the turn is over; the game goes on with the die unseen.
    blue = tuple(DieReading(BLUE, False, v, track=20 + i) for i, v in enumerate((1, 2, 3, 4, 5, 6, 6, 6)))
    verdicts = observer.observe(TableSnapshot(3, 0.3, casinos(c3=seen[1:3]), blue))
    assert [str(v) for v in verdicts] == [
        "red rolls 1 3 3 5 6 6 6 6 (1 die not seen in the tray, taken to show 6)",
        "red places 2 dice showing 3 on casino 3",
        "blue rolls 1 2 3 4 5 6 6 6",
    ]
    assert observer.state.casinos[2].dice == (2, 0) and observer.state.held_dice == (6, 8)


def test_a_die_seen_in_the_tray_and_then_placed_is_not_counted_twice():
    # Seen in a rendered game (benchmark seed 306): red holds two dice and rolls a 1 and a 6; the 6 is
    # never read. Red puts the 1 on casino 1 among six red dice, where a second die could hide. The 1
    # last seen in the tray is the die placed, not one left behind (no die of the value placed is left),
    # so red's roll is not "1 1, both placed": red keeps a die, which it rolls in its next turn.
    observer = Observer(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    observer.apply(DEAL)
    for event in (DiceRolled(RED, (1, 1, 1, 1, 1, 1, 2, 3)), DicePlaced(RED, 1, 6),
                  DiceRolled(BLUE, (4, 4, 4, 4, 4, 4, 5, 6)), DicePlaced(BLUE, 4, 6)):  # fmt: skip
        observer.apply(event)
    ones = tuple(DieReading(RED, False, 1, track=i) for i in range(6))
    fours = tuple(DieReading(BLUE, False, 4, track=10 + i) for i in range(6))
    die = DieReading(RED, False, 1, track=20)
    verdicts = observer.observe(TableSnapshot(1, 0.1, casinos(c1=ones, c4=fours), (die,)))
    assert [v.kind for v in verdicts] == ["uncertain"] and "1 of red's 2 dice" in verdicts[0].reason
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c1=(*ones, die), c4=fours), ()))
    assert [v.kind for v in verdicts] == ["alert"]  # not "red rolls 1 1": the players are asked
    blue = (DieReading(BLUE, False, 5, track=30), DieReading(BLUE, False, 6, track=31))
    verdicts = observer.observe(TableSnapshot(3, 0.3, casinos(c1=(*ones, die), c4=fours), blue))
    assert [str(v) for v in verdicts] == [
        "red rolls 1 2 (1 die not seen in the tray, taken to show 2)",
        "red places 1 die showing 1 on casino 1",
        "blue rolls 5 6",
    ]
    assert observer.state.held_dice == (1, 2) and observer.state.casinos[0].dice == (7, 0)


def test_a_misread_roll_is_corrected_by_its_placement():
    observer, tray = rolled((1, 3, 3, 5, 6, 6, 6, 4))  # the last die shows 2: read as 4
    misread = observer.state.history[-1]
    before_roll = observer.state.history[:-1]
    shown = replace(tray[7], pips=2)  # placed on casino 2, read right this time
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c2=[shown]), tray[:7]))
    assert [v.kind for v in verdicts] == ["event", "event"]
    assert verdicts[0].replaces == misread and verdicts[0].event == DiceRolled(RED, (1, 2, 3, 3, 5, 6, 6, 6))
    assert verdicts[0].before.history == before_roll
    assert str(verdicts[0]) == "red rolls 1 2 3 3 5 6 6 6 (the roll read again when its dice were placed)"
    assert str(verdicts[1]) == "red places 1 die showing 2 on casino 2"
    assert observer.state.history[len(before_roll)] == DiceRolled(RED, (1, 2, 3, 3, 5, 6, 6, 6))


def test_a_die_misread_as_the_placed_value_in_the_tray_is_read_again_once_the_game_goes_on():
    observer, tray = rolled()  # red 1 3 3 5 6 6 6 2: the third 6 is a 5, misread each time
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c6=tray[4:6]), tray[:4] + tray[6:]))
    assert [v.kind for v in verdicts] == ["alert"] and "left a 6" in verdicts[0].reason
    # The players see no 6 left: blue rolls and puts its two 2s on casino 2.
    blue = tuple(DieReading(BLUE, False, v, track=20 + i) for i, v in enumerate((1, 2, 2, 3, 4, 5, 6, 6)))
    verdicts = observer.observe(TableSnapshot(3, 0.3, casinos(c6=tray[4:6], c2=blue[1:3]), blue[:1] + blue[3:]))
    assert [str(v) for v in verdicts] == [
        "red rolls 1 2 3 3 3 5 6 6 (the roll read again when its dice were placed) "
        "(1 die read as 6 in the tray taken to show 3: the game went on)",
        "red places 2 dice showing 6 on casino 6",
        "blue rolls 1 2 2 3 4 5 6 6",
        "blue places 2 dice showing 2 on casino 2",
    ]
    assert verdicts[0].replaces == DiceRolled(RED, (1, 2, 3, 3, 5, 6, 6, 6))


def test_a_placement_that_the_roll_read_again_does_not_explain_stays_an_alert():
    observer, tray = rolled()
    before = observer.state
    # Two 6s on casino 6 and the third left in the tray: read again, the roll is the same; the rule stands.
    verdicts = observer.observe(TableSnapshot(2, 0.2, casinos(c6=tray[4:6]), tray[:4] + tray[6:]))
    assert [v.kind for v in verdicts] == ["alert"] and verdicts[0].replaces is None
    assert observer.state is before


def test_dice_taken_off_a_casino_mid_round_is_an_alert_until_put_back():
    observer, tray = rolled()
    table = casinos(c6=tray[4:7])
    observer.observe(TableSnapshot(2, 0.2, table, tray[:4] + tray[7:]))
    # One of the three missing: hidden beside the others (two dice touching read as one), no alarm.
    assert observer.observe(TableSnapshot(3, 0.3, casinos(c6=tray[4:6]), tray[:4] + tray[7:])) == []
    verdicts = observer.observe(TableSnapshot(4, 0.4, casinos(c6=tray[4:5]), tray[:4] + tray[7:]))
    assert [v.kind for v in verdicts] == ["alert"] and "shows 1 red dice, but 3" in verdicts[0].reason
    assert "put them back" in verdicts[0].reason
    assert observer.observe(TableSnapshot(5, 0.5, table, tray[:4] + tray[7:])) == []


def test_dice_put_on_a_casino_before_the_roll_is_an_alert():
    observer = Observer(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    observer.apply(DEAL)
    verdicts = observer.observe(TableSnapshot(1, 0.1, casinos(c2=[DieReading(RED, False, 2)]), ()))
    assert [v.kind for v in verdicts] == ["alert"] and "before red rolled" in verdicts[0].reason


def test_without_a_dealer_the_observer_waits_for_the_notes_on_the_table():
    observer = Observer(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    tray = tuple(DieReading(RED, False, v) for v in (1, 1, 2, 2, 3, 3, 4, 4))
    assert observer.observe(TableSnapshot(1, 0.1, EMPTY, tray)) == []
    assert observer.state.phase is Phase.DEAL
    observer.apply(DEAL)
    assert [v.kind for v in observer.observe(TableSnapshot(2, 0.2, EMPTY, tray))] == ["event"]


def test_after_a_settlement_nothing_counts_until_the_casinos_are_cleared():
    rules, players, seed = find_ruleset("las-vegas"), default_players(2), 12
    observer = Observer(new_game(rules, players), deal=virtual_deal(Dealer(rules, random.Random(seed))))
    moments = iter(table_moments(rules, players, seed))
    for moment in moments:
        verdicts = observer.observe(moment.snapshot)
        if moment.what == "settled":
            break
    assert [v.kind for v in verdicts] == []  # settled already, on the last placement
    assert observer.awaiting_clear and observer.state.round == 2
    on_table = moment.snapshot
    blue = tuple(DieReading(BLUE, False, v, track=1000 + v) for v in range(1, 7))
    assert observer.observe(replace(on_table, tray=blue)) == []  # a roll before clearing is not taken
    verdicts = observer.observe(TableSnapshot(999, 999.0, EMPTY, ()))
    assert [v.kind for v in verdicts] == ["cleared", "event"]  # then the next round's deal
    assert observer.state.phase is Phase.ROLL and observer.state.round == 2


def test_an_external_event_that_breaks_the_rules_raises_and_changes_nothing():
    observer, _ = rolled()
    before = observer.state
    with pytest.raises(ValueError, match="red must place dice first"):
        observer.apply(DiceRolled(BLUE, (1, 2, 3, 4, 5, 6, 6, 6)))
    assert observer.state is before


def test_a_resumed_virtual_deal_continues_the_same_pile():
    rules, players, seed = find_ruleset("las-vegas"), default_players(3), 21
    moments = list(table_moments(rules, players, seed))
    halfway = next(m.state for m in moments if m.what == "cleared" and m.state.round == 3)
    initial = new_game(rules, players)
    deal = seeded_deal(initial, seed, halfway.history)
    truth = [e for e in moments[-1].state.history if isinstance(e, BanknotesDealt)]
    assert deal(halfway) == truth[2]
