"""The camera interpreter on hand-built table readings: what a person at the table would see.

Each situation is a failure traced once on rendered games or at a real table (a die hidden in a
crowd, two dice read as one, a die read twice, a move against the rules, a placement not seen),
written as readings. The pipeline reads a still table many times a second: each reading here is
looked at three times, as the pipeline would.

The situations are priced in the nats of the observation model they were traced under
(``fixtures/observation_017e755.json``, measured for the detector shipped at commit 017e755), not the
shipped one: a retrained reader changes the shipped model's numbers, and a hand-built reading that sits
near a decision boundary would then test the new numbers rather than the interpreter's rules. The
shipped model is exercised on whole rendered games (``test_interpret.py``) and by the benchmark.
"""

import random
from dataclasses import replace

import pytest

from referee import BanknotesDealt, Colour, DicePlaced, DiceRolled, Phase, RoundScored, find_ruleset, new_game
from referee.interpret import Interpreter
from referee.lasvegas.camera import LasVegasCamera, canonical_history
from referee.lasvegas.simulate import Dealer, default_players, seeded_deal, table_moments, virtual_deal
from referee.readings import DieReading, TableSnapshot
from tests.referee.fixtures import TRACED_MODEL

RED, BLUE, BLACK, WHITE = Colour.RED, Colour.BLUE, Colour.BLACK, Colour.WHITE
EMPTY = ((),) * 6
DEAL = BanknotesDealt(((60_000,), (50_000,), (90_000,), (70_000,), (80_000,), (10_000, 40_000)))
MODEL = TRACED_MODEL
LOOKS = 3


def interpreter(state, deal=None, model=MODEL):
    return Interpreter(LasVegasCamera(model), state, deal=deal, model=model)


def look(referee, frame, casinos_read, tray):
    """What the referee says about one settled reading, looked at :data:`LOOKS` times."""
    snapshot = TableSnapshot(frame, frame / 10, casinos_read, tuple(tray))
    return [verdict for _ in range(LOOKS) for verdict in referee.observe(snapshot)]


def said(verdicts):
    return [str(v) for v in verdicts if v.kind == "event"]


def kinds(verdicts):
    return [v.kind for v in verdicts]


def dice(colour, faces, first_track):
    return tuple(DieReading(colour, False, v, track=first_track + i) for i, v in enumerate(faces))


def casinos(**placed):
    table = [()] * 6
    for key, value in placed.items():
        table[int(key[1:]) - 1] = tuple(value)
    return tuple(table)


def rolled(faces=(1, 3, 3, 5, 6, 6, 6, 2), model=MODEL):
    """A red-and-blue game, dealt, with red's roll read in the tray."""
    referee = interpreter(new_game(find_ruleset("las-vegas"), ["red", "blue"]), model=model)
    referee.apply(DEAL)
    tray = dice(RED, faces, 1)
    assert said(look(referee, 1, EMPTY, tray)) == [f"red rolls {' '.join(map(str, sorted(faces)))}"]
    return referee, tray


def crowded_casino_six():
    """Red has put three 6s on casino 6 and blue has rolled three 6s: blue's dice and the crowd."""
    referee, tray = rolled()
    assert said(look(referee, 2, casinos(c6=tray[4:7]), tray[:4] + tray[7:])) == [
        "red places 3 dice showing 6 on casino 6"
    ]
    blue = dice(BLUE, (1, 2, 3, 4, 5, 6, 6, 6), 20)
    assert said(look(referee, 3, casinos(c6=tray[4:7]), blue)) == ["blue rolls 1 2 3 4 5 6 6 6"]
    return referee, tray[4:7], blue


@pytest.mark.parametrize("seed", [7, 8])
def test_without_track_ids_the_game_is_refereed_exactly(seed):
    rules, players = find_ruleset("las-vegas+biggy"), default_players(3)
    referee = interpreter(new_game(rules, players), deal=virtual_deal(Dealer(rules, random.Random(seed))))
    truth = None
    for moment in table_moments(rules, players, seed):
        strip = lambda read: tuple(replace(d, track=-1) for d in read)  # noqa: E731
        snapshot = moment.snapshot
        snapshot = replace(snapshot, casinos=tuple(map(strip, snapshot.casinos)), tray=strip(snapshot.tray))
        verdicts = referee.observe(snapshot)
        assert [v.reason for v in verdicts if v.kind == "alert"] == []
        truth = moment.state
    assert canonical_history(referee.state.history) == canonical_history(truth.history)


# --- moves against the rules: an alert with the rule, and the game as the table makes it right ---


def test_a_placement_of_only_some_dice_of_the_value_is_an_alert_until_the_rest_join():
    referee, tray = rolled()
    verdicts = look(referee, 2, casinos(c6=tray[4:6]), tray[:4] + tray[6:])  # a 6 left in the tray
    alerts = [v.reason for v in verdicts if v.kind == "alert"]
    assert alerts == ["red left a 6 in the tray: all dice of the chosen value must be placed"]
    # the third 6 joins: the placement is said then, as it lies
    joined = look(referee, 3, casinos(c6=tray[4:7]), tray[:4] + tray[7:])
    assert said(joined) == ["red places 3 dice showing 6 on casino 6"]
    assert referee.state.casinos[5].dice == (3, 0)
    assert referee.state.phase is Phase.ROLL and referee.state.to_act is BLUE


def test_a_roll_out_of_turn_is_an_alert_and_changes_nothing():
    referee = interpreter(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    referee.apply(DEAL)
    before = referee.state
    verdicts = look(referee, 1, EMPTY, dice(BLUE, (1, 2, 3, 4, 5, 6, 6, 6), 1))
    assert [(v.kind, v.reason) for v in verdicts] == [("alert", "blue dice were rolled, but it is red's turn")]
    assert referee.state is before


def test_dice_put_on_a_casino_of_a_value_not_rolled_are_an_alert_and_change_nothing():
    referee, tray = rolled()
    before = referee.state
    verdicts = look(referee, 2, casinos(c4=tray[1:3]), tray[:1] + tray[3:])  # the two 3s on casino 4
    assert [(v.kind, v.reason) for v in verdicts] == [
        ("alert", "red rolled no 4 (rolled 1, 2, 3, 5, 6): dice go on the casino of a value rolled")
    ]
    assert referee.state is before


def test_more_dice_of_a_colour_than_exist_is_an_alert():
    referee, tray = rolled()
    verdicts = look(referee, 2, EMPTY, (*tray, DieReading(RED, False, 2, track=99)))
    assert [(v.kind, v.reason) for v in verdicts] == [("alert", "9 red dice: a player has 8")]


def test_casinos_cleared_before_the_round_is_over_are_the_rounds_end_not_dice_taken_off():
    """Traced (Royale main game, seed 403): a placement unseen and taken for a pass, so the round was not over
    when the table was cleared after its last die; the table was told to put back every die of every casino."""
    referee, _, _ = crowded_casino_six()  # red put three 6s on casino 6, blue rolled
    verdicts = [v for frame in (4, 5, 6) for v in look(referee, frame, EMPTY, ())]
    assert [v.reason for v in verdicts if v.kind == "alert"] == [
        "the casinos were cleared, but the round is not over (red and blue still hold dice): enter the moves "
        "not seen, or undo"
    ]


def test_dice_put_on_a_casino_before_the_roll_are_an_alert():
    referee = interpreter(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    referee.apply(DEAL)
    verdicts = look(referee, 1, casinos(c2=[DieReading(RED, False, 2)]), ())
    assert kinds(verdicts) == ["alert"] and "before red rolled" in verdicts[0].reason


def test_dice_taken_off_a_casino_mid_round_are_an_alert_once_it_lasts():
    referee, tray = rolled()
    look(referee, 2, casinos(c6=tray[4:7]), tray[:4] + tray[7:])
    # One of the three not read: hidden beside the others (two dice touching read as one), no alarm.
    assert look(referee, 3, casinos(c6=tray[4:6]), tray[:4] + tray[7:]) == []
    verdicts = look(referee, 4, casinos(c6=tray[4:5]), tray[:4] + tray[7:])
    assert kinds(verdicts) == ["alert"] and "casino 6 shows 1 red dice, but 3" in verdicts[0].reason
    assert look(referee, 5, casinos(c6=tray[4:7]), tray[:4] + tray[7:]) == []  # put back
    assert referee.state.casinos[5].dice == (3, 0)


@pytest.mark.parametrize("miss", [0.02, 0.001], ids=["cheap-miss", "dear-miss"])
def test_one_die_hidden_for_good_is_no_alert_whatever_a_miss_costs_and_two_are(miss):
    """A die hidden beside others is the reader's commonest lasting error, whatever the model prices it at.
    Traced: the reader measured at the table's detector threshold misses fewer dice, so a die hidden among
    three cost 5.1 nats, over the third of alert_cost under which one error had to stay, and a die hidden
    for good was alerted as taken off (at 0.001, 6.9 nats)."""
    model = replace(MODEL, miss_casino=(miss,) * len(MODEL.miss_casino), _memo={}, _miss_memo={})
    referee, tray = rolled(model=model)
    look(referee, 2, casinos(c6=tray[4:7]), tray[:4] + tray[7:])
    for frame in range(3, 8):  # one of the three not read, reading after reading
        assert look(referee, frame, casinos(c6=tray[4:6]), tray[:4] + tray[7:]) == []
    verdicts = look(referee, 8, casinos(c6=tray[4:5]), tray[:4] + tray[7:])
    assert kinds(verdicts) == ["alert"] and "casino 6 shows 1 red dice, but 3" in verdicts[0].reason


# --- the reader's errors: the game goes on as it was played -------------------------------------


def test_dice_seen_on_two_casinos_at_once_are_asked_and_change_nothing():
    referee, tray = rolled()
    before = referee.state
    verdicts = look(referee, 2, casinos(c1=tray[:1], c5=tray[3:4]), tray[1:3] + tray[4:])
    assert kinds(verdicts) == ["uncertain"]
    assert "casino 1" in verdicts[0].reason and "casino 5" in verdicts[0].reason
    assert referee.state is before


def test_a_doubt_is_asked_on_a_new_reading_while_an_old_alert_stands():
    """Traced (seed 8104): while an old misfit lasted, every question was kept back like one about the
    alert's own reading, and red's placement (casino 6 or 3, as likely) was never asked about."""
    referee, tray = rolled()
    referee._strain = referee._standing = 100.0  # an alert said before stands: its misfit lasts
    split = casinos(c1=tray[:1], c5=tray[3:4])  # red's 1 on casino 1 and its 5 on casino 5: which was placed?
    ninth = DieReading(RED, False, 2, track=99)  # with a red die too many in the tray, the misfit lasts
    verdicts = [
        v
        for frame, face in ((2, 2), (3, 4), (4, 6))  # the table read anew: the stray die's face
        for v in look(referee, frame, split, (*tray[1:3], *tray[4:], replace(ninth, pips=face)))
    ]
    assert kinds(verdicts) == ["uncertain"]
    assert "casino 1" in verdicts[0].reason and "casino 5" in verdicts[0].reason


def test_a_doubt_is_asked_when_it_outlasts_a_reading_whichever_history_leads():
    """Traced (seed 5054, six players): two histories a fraction of a nat apart traded the lead at every
    reading, the question waited for the same order twice, and nothing was said or asked for the last
    twenty turns of the round."""
    from referee.interpret.decode import _History
    from referee.lasvegas.state import apply, place_all

    referee, tray = rolled()
    roll = referee._histories[0].events  # the events since the interpreter's anchor: the roll said
    placements = [place_all(referee.state, casino) for casino in (1, 5)]
    one, five = (_History(apply(referee.state, event), (*roll, event), 0.0, ("", "")) for event in placements)
    snapshot = TableSnapshot(2, 0.2, casinos(c1=tray[:1], c5=tray[3:4]), tray[1:3] + tray[4:])
    referee._histories = [one, five]
    assert referee._unsure(snapshot) == []  # the first reading in doubt: not yet asked
    referee._histories = [five, one]  # the other leads now: the same doubt
    verdicts = referee._unsure(snapshot)
    assert kinds(verdicts) == ["uncertain"]
    assert "casino 1" in verdicts[0].reason and "casino 5" in verdicts[0].reason


def test_a_die_on_a_casino_showing_a_face_not_rolled_is_held_back():
    referee, tray = rolled()
    before = referee.state
    misread = (replace(tray[1], pips=4),)  # red rolled no 4: the reading is wrong, not the player
    assert look(referee, 2, casinos(c2=misread), tray[:1] + tray[2:]) == []
    assert referee.state is before


def test_a_placed_die_misread_on_its_casino_does_not_hold_the_game_up():
    referee, tray = rolled()
    look(referee, 2, casinos(c6=tray[4:7]), tray[:4] + tray[7:])
    misread = (tray[4], replace(tray[5], pips=5), tray[6])  # a placed 6 now read as 5
    blue = dice(BLUE, (1, 2, 3, 4, 5, 6, 6, 6), 20)
    assert said(look(referee, 3, casinos(c6=misread), blue)) == ["blue rolls 1 2 3 4 5 6 6 6"]


def test_a_rival_that_disputes_what_was_said_is_asked_about_and_does_not_silence_the_game():
    """Traced (seed 5091, six players): a history 1.2 nats behind the best disputed a placement said seven
    moves before; every history agreed on all that came after, but nothing more was said (what every
    history close to the best agrees on stopped at the disputed placement) and nothing was asked (the
    question looked for where they part only after what was said), for the last 25 moves of the round."""
    from referee.interpret.decode import _History
    from referee.lasvegas.state import apply, place_all

    referee, tray = rolled()  # red rolled 1 3 3 5 6 6 6 2, said
    game = referee.game
    (roll,) = referee._histories[0].events  # the events since the interpreter's anchor: the roll said
    rival_roll = replace(roll, dice=(1, 3, 3, 5, 6, 6, 6, 6))  # the 2 a 6 misread, placed and hidden since

    def history(first, cost):
        rolled_state = apply(referee._anchor, first)
        placed = apply(rolled_state, place_all(rolled_state, 6))
        events = (first, place_all(rolled_state, 6))
        return _History(placed, events, cost, ("", ""), game.expected(placed))

    referee._histories = [history(roll, 0.0), history(rival_roll, 1.0)]
    referee._said = list(referee._histories[0].events)
    referee.state = referee._histories[0].state
    sixes, blue = tray[4:7], dice(BLUE, (1, 2, 3, 4, 5, 6, 6, 6), 20)
    verdicts = look(referee, 3, casinos(c6=sixes), blue) + look(referee, 4, casinos(c6=sixes), blue)
    assert said(verdicts) == ["blue rolls 1 2 3 4 5 6 6 6"]
    # asked about what the table can count, the dice red put there (the two rolls part by a face the table may
    # no longer see: ``Interpreter._asking``)
    assert [v.reason for v in verdicts if v.kind == "uncertain"] == [
        "is it red places 3 dice showing 6 on casino 6, or red places 4 dice showing 6 on casino 6?"
    ]


def test_at_the_clearing_what_was_said_stands_unless_another_history_is_likelier_by_the_margin():
    """Traced (seed 5091): the last moves of a round were not said, and at the cleared table the history
    the readings liked best by 0.25 nats was taken, against the one said, and the round paid wrong."""
    from referee import GameState
    from referee.interpret.decode import _History
    from referee.lasvegas.state import apply, place_all

    start = GameState.from_notation("las-vegas rb 1 r 4r3b:60/3r4b:50/-:90/-:70/-:80/-:40,10 - -/-")
    referee = interpreter(start)

    def history(red_face, cost):  # red rolls its last die and places it, then blue its last, a 5
        events, state = [], start
        for player, face in ((RED, red_face), (BLUE, 5)):
            for event in (DiceRolled(player, (face,)), None):
                event = event or place_all(state, face)
                state = apply(state, event)
                events.append(event)
        return _History(state, tuple(events), cost, ("",) * 4, referee.game.expected(state))

    said_three = history(3, 0.5)
    referee._histories = [history(4, 0.0), said_three]  # the red 4 liked better, by less than the margin
    referee._said = list(said_three.events[:1])  # "red rolls 3" was said
    referee.state = apply(start, said_three.events[0])
    verdicts = look(referee, 9, EMPTY, ())
    assert said(verdicts)[:1] == ["red places 1 die showing 3 on casino 3"]
    assert not any(v.replaces for v in verdicts) and referee.state.round == 2


def test_a_placement_partly_hidden_in_a_crowd_counts_when_the_tray_shows_the_rest():
    referee, sixes, blue = crowded_casino_six()
    # Blue puts its three 6s on casino 6; one hides behind the others. The tray shows blue's 1 to 5.
    verdicts = look(referee, 4, casinos(c6=sixes + blue[5:7]), blue[:5])
    assert said(verdicts) == ["blue places 3 dice showing 6 on casino 6"]
    assert referee.state.casinos[5].dice == (3, 3)


def test_a_die_hidden_in_a_pile_stays_placed_while_dice_are_put_beside_it():
    """Traced (seeds 6004, 8002): a die hidden for good on a casino was charged again at every die put
    beside it, until a history that had not placed it (a roll misread) looked cheaper."""
    referee, tray = rolled()  # red rolled 1 3 3 5 6 6 6 2
    pile = list(tray[4:6])  # red's third 6 is on casino 6 but hidden from now on
    assert said(look(referee, 2, casinos(c6=pile), tray[:4] + tray[7:])) == ["red places 3 dice showing 6 on casino 6"]
    turns = [(BLUE, (1, 2, 3, 4, 5, 5, 6, 6), 20), (RED, (1, 2, 3, 6, 6), 40), (BLUE, (1, 2, 2, 3, 6, 6), 60)]
    frame = 3
    for colour, faces, track in turns:
        roll = dice(colour, faces, track)
        sixes = [d for d in roll if d.pips == 6]
        look(referee, frame, casinos(c6=pile), roll)
        pile += sixes
        verdicts = look(referee, frame + 1, casinos(c6=pile), [d for d in roll if d.pips != 6])
        assert not any(v.replaces for v in verdicts), [str(v) for v in verdicts]
        frame += 2
    assert referee.state.casinos[5].dice == (5, 4)  # red 3 + 2, blue 2 + 2: the hidden die still counts


def test_a_roll_never_read_is_not_taken_to_hold_only_the_face_placed():
    """Traced (seed 3093, four players): green's roll and its placement of one 3 were never read; seen only
    from the 3 on casino 3 with black's roll in the tray, its five dice not seen were all taken to show
    the face seen, a 3, and four 3s were booked on casino 3 where one lay."""
    referee = interpreter(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    referee.apply(DEAL)
    placed, blue = dice(RED, (3,), 1), dice(BLUE, (1, 2, 2, 4, 5, 5, 6, 6), 20)
    look(referee, 2, casinos(c3=placed), ())  # the 3 on the casino, the tray empty: before the roll?
    verdicts = [v for frame in (3, 4) for v in look(referee, frame, casinos(c3=placed), blue)]  # blue's roll
    assert "red places 1 die showing 3 on casino 3" in said(verdicts)
    assert referee.state.casinos[2].dice == (1, 0) and referee.state.to_act is BLUE


def test_two_dice_touching_read_as_one_are_the_whole_placement_when_the_tray_shows_the_rest():
    referee, tray = rolled()  # red rolled 1 3 3 5 6 6 6 2
    table = casinos(c3=tray[1:2])  # both 3s on casino 3, touching: one die read there
    assert said(look(referee, 2, table, tray[:1] + tray[3:])) == ["red places 2 dice showing 3 on casino 3"]
    blue = dice(BLUE, (1, 2, 3, 4, 5, 6, 6, 6), 20)
    assert said(look(referee, 3, table, blue)) == ["blue rolls 1 2 3 4 5 6 6 6"]


def test_the_placing_players_die_read_twice_in_a_crowd_does_not_change_the_placement():
    referee, sixes, blue = crowded_casino_six()
    crowd = (*sixes, *blue[5:], replace(blue[7], track=99))  # nine blue dice can't be
    assert said(look(referee, 4, casinos(c6=crowd), blue[:5]))[:1] == ["blue places 3 dice showing 6 on casino 6"]
    assert referee.state.casinos[5].dice == (3, 3)


def test_a_die_read_twice_on_another_casino_of_the_roll_is_told_by_the_tray():
    referee, sixes, blue = crowded_casino_six()
    six = casinos(c6=sixes + blue[5:])
    assert said(look(referee, 4, six, blue[:5])) == ["blue places 3 dice showing 6 on casino 6"]
    red = dice(RED, (1, 2, 3, 5, 6), 60)
    assert said(look(referee, 5, six, red)) == ["red rolls 1 2 3 5 6"]
    # Red puts its 5 on casino 5 while a red 6 on casino 6 is read twice: red's own 6 is still in the tray.
    crowd = (*sixes, replace(sixes[0], track=98), *blue[5:])
    verdicts = look(referee, 6, casinos(c5=red[3:4], c6=crowd), red[:3] + red[4:])
    assert said(verdicts) == ["red places 1 die showing 5 on casino 5"]


def test_a_roll_first_read_with_its_placement_keeps_the_placed_dice_when_the_tray_shows_one_too_many():
    """Red's roll never read still: the first reading shows two 3s on casino 3 and, in the tray, the six
    other dice and a red die that is not there (nine red dice read, eight held). The dice new on the
    casino are the placement; the die too many is one of the tray's."""
    referee = interpreter(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    referee.apply(DEAL)
    placed = dice(RED, (3, 3), 1)
    tray = dice(RED, (1, 2, 4, 5, 6, 6, 6), 3)
    assert said(look(referee, 1, casinos(c3=placed), tray)) == [
        "red rolls 1 2 3 3 4 5 6 6", "red places 2 dice showing 3 on casino 3"
    ]  # fmt: skip


def test_a_placement_hidden_whole_is_known_when_the_casinos_are_cleared():
    rules, players = find_ruleset("las-vegas"), default_players(2)
    referee = interpreter(new_game(rules, players), deal=virtual_deal(Dealer(rules, random.Random(1))))
    moments = list(table_moments(rules, players, 1))
    hidden: set[int] = set()
    for before, moment, after in zip([None, *moments], moments, [*moments[1:], None], strict=False):
        snapshot = moment.snapshot
        if moment.what == "placed" and after is not None and after.what == "settled":  # the last, never seen
            hidden |= {d.track for d in snapshot.all_dice()} - {d.track for d in before.snapshot.all_dice()}
        unseen = tuple(tuple(d for d in read if d.track not in hidden) for read in snapshot.casinos)
        verdicts = referee.observe(replace(snapshot, casinos=unseen))
        assert [v.reason for v in verdicts if v.kind == "alert"] == []
    assert hidden and canonical_history(referee.state.history) == canonical_history(moments[-1].state.history)


def test_a_last_roll_and_placement_never_seen_end_the_round_when_the_casinos_are_cleared():
    """Traced (Royale seed 404, five players): the round's last moves were not seen, no history had the round
    over when the casinos were cleared, the round never settled, and every reading of the next round was
    taken for this one's (2 of 18 casinos right). At the clearing the histories are carried on to the round's
    end by moves no reading showed, those the last table read explains best; said as not seen."""
    rules, players = find_ruleset("las-vegas"), default_players(2)
    moments = list(table_moments(rules, players, 1))
    last = max(k for k, moment in enumerate(moments) if moment.what == "rolled")  # the game's last roll
    assert [m.what for m in moments[last + 1 : last + 4]] == ["placed", "settled", "cleared"]
    referee = interpreter(moments[last - 1].state, deal=virtual_deal(Dealer(rules, random.Random(1))))
    # the table before it; then, a hand over the table, the roll, its placement and the settlement never read
    verdicts = referee.observe(moments[last - 1].snapshot) + referee.observe(moments[last - 1].snapshot)
    verdicts += referee.observe(moments[last + 3].snapshot)
    assert [v.reason for v in verdicts if v.kind == "alert"] == []
    events = [v for v in verdicts if v.kind == "event"]
    assert "not seen before the casinos were cleared" in events[0].reason
    roll, placement, settled = (v.event for v in events[:3])
    assert roll.player is placement.player is moments[last].state.history[-1].player
    assert isinstance(roll, DiceRolled) and isinstance(placement, DicePlaced) and isinstance(settled, RoundScored)
    assert referee.state.phase is Phase.OVER and any(v.kind == "cleared" for v in verdicts)


# --- the round's frame: deals, clearing, corrections ---------------------------------------------


def test_without_a_dealer_the_interpreter_waits_for_the_notes_to_be_entered():
    referee = interpreter(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    tray = tuple(DieReading(RED, False, v) for v in (1, 1, 2, 2, 3, 3, 4, 4))
    assert look(referee, 1, EMPTY, tray) == []
    assert referee.state.phase is Phase.DEAL
    referee.apply(DEAL)
    assert kinds(look(referee, 2, EMPTY, tray)) == ["event"]


def test_after_a_settlement_nothing_counts_until_the_casinos_are_cleared():
    rules, players, seed = find_ruleset("las-vegas"), default_players(2), 12
    referee = interpreter(new_game(rules, players), deal=virtual_deal(Dealer(rules, random.Random(seed))))
    for moment in table_moments(rules, players, seed):
        referee.observe(moment.snapshot)
        if moment.what == "settled":
            break
    assert referee.awaiting_clear and referee.state.round == 2
    blue = tuple(DieReading(BLUE, False, v, track=1000 + v) for v in range(1, 7))
    assert referee.observe(replace(moment.snapshot, tray=blue)) == []  # a roll before clearing is not taken
    verdicts = referee.observe(TableSnapshot(999, 999.0, EMPTY, ()))
    assert kinds(verdicts) == ["cleared", "event"]  # then the next round's deal
    assert referee.state.phase is Phase.ROLL and referee.state.round == 2


def test_an_event_entered_by_hand_that_breaks_the_rules_raises_and_changes_nothing():
    referee, _ = rolled()
    before = referee.state
    with pytest.raises(ValueError, match="red must place dice first"):
        referee.apply(DiceRolled(BLUE, (1, 2, 3, 4, 5, 6, 6, 6)))
    assert referee.state is before


def test_a_resumed_virtual_deal_continues_the_same_pile():
    rules, players, seed = find_ruleset("las-vegas"), default_players(3), 21
    moments = list(table_moments(rules, players, seed))
    halfway = next(m.state for m in moments if m.what == "cleared" and m.state.round == 3)
    deal = seeded_deal(new_game(rules, players), seed, halfway.history)
    truth = [e for e in moments[-1].state.history if isinstance(e, BanknotesDealt)]
    assert deal(halfway) == truth[2]


def test_a_die_back_as_it_was_read_before_it_went_unseen_is_not_charged_its_misreading_again():
    """Traced (seed 8144, four players with the neutral dice and Biggys): a blue die among eleven on casino 2
    was read black, then unseen, then black again, six times in a round. At each return the true table paid
    blue read as black anew, while a history in which black had placed a third die there (its roll's 3 taken
    for a 2, a die too many read in its next roll) paid nothing, won, and the round was paid wrong."""
    referee = interpreter(new_game(find_ruleset("las-vegas"), ["black", "blue"]))
    referee.apply(DEAL)
    black = dice(BLACK, (1, 2, 2, 3, 5, 6, 6, 6), 1)
    assert said(look(referee, 1, EMPTY, black)) == ["black rolls 1 2 2 3 5 6 6 6"]
    twos = black[1:3]
    assert said(look(referee, 2, casinos(c2=twos), black[:1] + black[3:])) == [
        "black places 2 dice showing 2 on casino 2"
    ]
    blue = dice(BLUE, (2, 2, 2, 2, 4, 5, 6, 6), 20)
    assert said(look(referee, 3, casinos(c2=twos), blue)) == ["blue rolls 2 2 2 2 4 5 6 6"]
    assert said(look(referee, 4, casinos(c2=twos + blue[:4]), blue[4:])) == ["blue places 4 dice showing 2 on casino 2"]
    as_black = replace(blue[3], colour=BLACK)  # from now on blue's fourth 2 is unseen and read black by turns
    piles = {"c2": [*twos, *blue[:3]]}
    frame, verdicts, flicker = 5, [], 0
    turns = [(BLACK, (1, 3, 5, 6, 6, 6)), (BLUE, (4, 5, 6, 6)), (BLACK, (1, 3, 5, 6, 6)), (BLUE, (4, 5, 6)),
             (BLACK, (1, 3, 5, 6)), (BLUE, (4, 5))]  # fmt: skip
    for colour, faces in turns:  # each player puts one die, his last, on its casino
        roll = dice(colour, faces, 10 * frame)
        for tray in (roll, roll, roll[:-1], roll[:-1]):
            if tray is not roll and roll[-1] not in piles.setdefault(f"c{faces[-1]}", []):
                piles[f"c{faces[-1]}"].append(roll[-1])
            table = {**piles, "c2": piles["c2"] + [as_black] * (flicker % 2)}
            verdicts += look(referee, frame, casinos(**table), tray)
            frame, flicker = frame + 1, flicker + 1
    assert not any(v.replaces for v in verdicts), said(verdicts)
    assert referee.state.casinos[1].dice == (2, 4)  # black 2, blue 4, as placed


def test_the_biggy_read_as_a_normal_die_in_the_roll_is_told_by_the_dice_placed():
    """Traced (Royale seed 352, five players): black's roll read with no Biggy, dark dice all about one size,
    the largest his 2 (25 mm), his Biggy 4 among them read as a normal die (22 mm). Taken for the Biggy by
    size, the 2 stayed the Biggy in every history, and black's Biggy put on casino 4 was booked as a normal
    die read as a Biggy."""
    referee = interpreter(new_game(find_ruleset("las-vegas+biggy"), ["black", "blue"]))
    referee.apply(DEAL)
    sizes = (19.0, 19.5, 26.0, 19.2, 18.8, 19.4, 24.5, 19.1)  # the 3 the largest, the Biggy (a 6) next
    read = tuple(DieReading(BLACK, False, face, track=i + 1, size_mm=size)
                 for i, (face, size) in enumerate(zip((1, 2, 3, 4, 5, 5, 6, 6), sizes, strict=True)))  # fmt: skip
    verdicts = look(referee, 1, EMPTY, read)
    biggy = replace(read[6], big=True)  # on the casino, read as the Biggy it is
    verdicts += look(referee, 2, casinos(c6=(read[7], biggy)), read[:6])
    verdicts += look(referee, 3, casinos(c6=(read[7], biggy)), read[:6])
    assert said(verdicts)[-1] == "black places 1 die and 1 Biggy showing 6 on casino 6", said(verdicts)
    assert referee.state.casinos[5].biggies == (1, 0) and referee.state.casinos[5].dice == (1, 0)


def test_a_tiles_black_dice_and_a_players_leftovers_are_taken_away_apart():
    """Traced (Royale main game, seed 401): after My Choice, the tile's 2 black dice were taken from the arena
    while blue's leftovers 1 5 5 still lay there. With all the tray's optional dice going together, that
    reading cost two misses (12 nats) and "blue rolls 1 5 5" and a pass were booked. Each group is gone or
    there as a whole: the black dice gone cost what a group gone costs, the leftovers read as they lie."""
    from referee.interpret.table import GONE_COST, Expected, TableCost

    leftovers = [Expected("blue", False, v, optional=True) for v in (1, 5, 5)]
    black = [Expected("black", False, v, optional=True, group=1) for v in (4, 5)]
    read = {0: tuple(DieReading(BLUE, False, v) for v in (1, 5, 5))}
    cost = TableCost(MODEL, read)({0: (*leftovers, *black)})
    assert cost == pytest.approx(GONE_COST + TableCost(MODEL, read)({0: tuple(leftovers)}), abs=0.05)
    both = {0: (*read[0], DieReading(BLACK, False, 4), DieReading(BLACK, False, 5))}
    assert TableCost(MODEL, both)({0: (*leftovers, *black)}) < 0.1  # both there
    assert TableCost(MODEL, {0: ()})({0: (*leftovers, *black)}) == pytest.approx(2 * GONE_COST, abs=0.05)
    # each group read gone stays gone: the leftovers read gone, then read again, were there then, missed
    # (traced, seed 393: red's last die rolled showing the leftover's face was taken for the leftover)
    gone, again = TableCost(MODEL, {0: ()}), TableCost(MODEL, read)
    table = {0: (*leftovers, *black)}
    assert gone(table) == pytest.approx(2 * GONE_COST, abs=0.05)
    assert again(table, table, gone) > 3 * GONE_COST


def test_a_roll_read_with_one_die_twice_is_told_by_the_dice_placed_and_those_left():
    """Traced (Royale seed 391, five players): red's roll of seven dice and a Biggy 3 read with nine dice, the
    Biggy also read as a normal 3. The newest eight dice kept a 3 too many and dropped a 4: no roll tried held
    the true faces, the referee asked which of two wrong rolls it was while the table played on, and three
    players' moves were booked wrong. Any die read may be the one read twice; the dice placed and left tell."""
    referee = interpreter(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    referee.apply(DEAL)
    read = dice(RED, (6, 1, 2, 2, 3, 4, 5, 5, 6), 1)  # a 2 read twice; the die tracked first, a 6, would go
    verdicts = look(referee, 1, EMPTY, read)
    fives, left = read[6:8], (read[0], read[1], read[2], read[4], read[5], read[8])
    verdicts += look(referee, 2, casinos(c5=fives), left)
    # the 2 read twice, or (every face tried since) a 6 seen read as a 2: the same roll
    assert [text.split(" (")[0] for text in said(verdicts)] == [
        "red rolls 1 2 3 4 5 5 6 6",
        "red places 2 dice showing 5 on casino 5",
    ]
    assert referee.state.held_dice[0] == 6


def test_a_die_read_twice_is_dearer_than_the_oldest_die_left_out():
    """A roll read with a die too many: the newest dice are the roll (free); another die taken for the one read
    twice costs ``READ_TWICE_COST`` (traced: Royale seed 397, a history needing a die fewer took blue's 5 for a
    die read twice, free, and the pass before it was lost)."""
    from referee.lasvegas.camera import READ_TWICE_COST

    state = new_game(find_ruleset("las-vegas"), ["red", "blue"])
    state = LasVegasCamera(MODEL).apply(state, DEAL)
    read = dice(RED, (6, 1, 2, 2, 3, 4, 5, 5, 6), 1)
    candidates = list(LasVegasCamera(MODEL).candidates(state, {0: read}))
    newest = [c for c in candidates if "read twice" not in c.note and len(c.events) == 1]
    twice = [c for c in candidates if "read twice" in c.note]
    assert newest and min(c.cost for c in newest) == 0
    assert twice and min(c.cost for c in twice) == READ_TWICE_COST


def royale_histories(*histories):
    """A dealt three-player Royale game whose interpreter weighs these histories: (roll faces, the event after
    it, cost) each, red's roll holding a Biggy 3; and a reading to look at."""
    from referee.interpret.decode import _History
    from referee.lasvegas.state import apply

    cards = ((30_000, 30_000), (40_000, 30_000), (40_000, 40_000), (70_000, 30_000), (70_000, 60_000), (80_000, 50_000))
    start = apply(new_game(find_ruleset("las-vegas-royale"), ["red", "blue", "green"]), BanknotesDealt(cards))
    referee = Interpreter(LasVegasCamera(MODEL), start, model=MODEL)

    def history(faces, then, cost):
        roll = DiceRolled(RED, faces, (3,), ())
        state = apply(apply(start, roll), then)
        return _History(state, (roll, then), cost, ("", ""), referee.game.expected(state))

    referee._histories = [history(*h) for h in histories]
    return referee, TableSnapshot(1, 0.1, EMPTY, ())


def test_the_table_is_asked_what_a_player_did_not_which_face_a_die_nobody_saw_showed():
    """Traced (Royale main game, seed 341): green rolled with a die unseen and passed; his next roll, read with a
    die unseen too, made the histories where he had placed a die of the first roll (never seen on its casino)
    as likely. The two best were such placements, with the unseen die filled in as a 5 put on casino 5 or a 1
    (and a 6 put on casino 6): the table was asked which roll it was, for 30 seconds, and nothing was said
    meanwhile. Asked whether he passed or placed, it answers, and the pass is kept."""
    from referee.lasvegas.events import DicePlaced, Passed

    referee, snapshot = royale_histories(((1, 1, 3, 4, 4, 5, 6), DicePlaced(RED, 5, 1, 0, 0), 0.0),
                                         ((1, 1, 1, 3, 4, 4, 6), DicePlaced(RED, 6, 1, 0, 0), 0.0),
                                         ((1, 1, 1, 3, 4, 4, 6), Passed(RED), 2.0))  # fmt: skip
    assert referee._unsure(snapshot) == []  # asked once the doubt outlasts a reading
    (asked,) = referee._unsure(snapshot)
    assert asked.kind == "uncertain" and asked.reason == (
        "is it red places 1 die showing 6 on casino 6, or red pays 1 chip to pass and takes his dice back "
        "(1 chip left)?"
    )
    assert said(referee.choose(Passed(RED))) == [
        "red rolls 1 1 1 3 4 4 6, Biggy 3",
        "red pays 1 chip to pass and takes his dice back (1 chip left)",
    ]


def test_the_table_is_asked_how_many_dice_a_player_put_there_not_which_roll_it_was():
    """Traced (Royale main game, seed 351): green's roll read with a 6 as a 5, then his two 6s on casino 6; the
    history with the roll as read took one of them for a die read twice, 1.9 nats behind, and the table was
    asked which roll it was while three players moved on."""
    from referee.lasvegas.events import DicePlaced

    referee, snapshot = royale_histories(((1, 1, 2, 3, 3, 6, 6), DicePlaced(RED, 6, 2, 0, 0), 0.0),
                                         ((1, 1, 2, 3, 3, 5, 6), DicePlaced(RED, 6, 1, 0, 0), 1.9))  # fmt: skip
    referee._unsure(snapshot)
    (asked,) = referee._unsure(snapshot)
    assert asked.reason == "is it red places 2 dice showing 6 on casino 6, or red places 1 die showing 6 on casino 6?"
    assert said(referee.choose(DicePlaced(RED, 6, 2, 0, 0))) == [
        "red rolls 1 1 2 3 3 6 6, Biggy 3",
        "red places 2 dice showing 6 on casino 6",
    ]


def test_a_phantom_read_on_in_another_colour_does_not_make_a_neutral_die_of_it():
    """Traced (seed 8201, four players with the neutral dice and Biggys): a box on the side of a die on casino 5
    was read as a die of its own, a blue 5 and a green 5 by turns, for the whole round. Each change of colour
    was charged as a new phantom, while a history in which the roller had put both his neutral dice there
    (the roll's 6 taken for a 5, the second white die read blue or green by turns: a misread colour that
    flickers costs nothing more) caught up, won, and the round was paid wrong. A phantom read on in another
    colour is the same phantom (``PHANTOM_COLOUR_COST``)."""
    referee = interpreter(new_game(find_ruleset("las-vegas+neutral"), ["red", "blue"]))
    referee.apply(DEAL)
    own, neutral = dice(RED, (1, 2, 3, 5, 5, 5, 6, 6), 1), dice(WHITE, (5, 6, 2, 3), 10)
    assert said(look(referee, 1, EMPTY, own + neutral)) == ["red rolls 1 2 3 5 5 5 6 6, neutral 2 3 5 6"]
    fives = own[3:6] + neutral[:1]
    assert said(look(referee, 2, casinos(c5=fives), own[:3] + own[6:] + neutral[1:])) == [
        "red places 3 dice and 1 neutral die showing 5 on casino 5"
    ]
    verdicts = look(referee, 3, casinos(c5=fives), ())  # red takes the rest back
    for frame in range(4, 16):  # the phantom read a blue 5, a red 5, a red 5, a blue 5, ...
        phantom = DieReading(RED if frame % 3 else BLUE, False, 5, track=90)
        verdicts += look(referee, frame, casinos(c5=(*fives, phantom)), ())
    assert set(kinds(verdicts)) <= {"alert"}, said(verdicts)  # "dice appeared on casino 5", nothing revised
    assert referee.state.casinos[4].dice == (3, 0) and referee.state.casinos[4].neutral == 1


def test_a_die_read_twice_by_turns_is_one_phantom_not_a_misread_die_and_a_phantom_by_turns():
    """Traced (seed 5171, six players): a white die among eleven on casino 2 was read green for good and now and
    then white as well (two boxes on one die). The true table paid that die misread (10 nats) at each reading
    its white box was lost, and a new phantom (5) at each reading it came back, while a history in which green's
    roll was misread and his die put on casino 2 (the green box explained, his true die on casino 6 a phantom)
    paid once; it won, and the round was paid wrong. The die read in another look is one phantom throughout,
    charged its staying, and the die it stands beside is hidden now and then (``TableCost._phantom_fits``)."""
    referee = interpreter(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    referee.apply(DEAL)
    red = dice(RED, (1, 2, 2, 3, 4, 5, 6, 6), 1)
    assert said(look(referee, 1, EMPTY, red)) == ["red rolls 1 2 2 3 4 5 6 6"]
    other = DieReading(BLUE, False, 2, track=50)  # red's second 2 read blue ...
    twice = DieReading(RED, False, 2, track=51)  # ... and now and then red too
    verdicts = look(referee, 2, casinos(c2=(red[1], other)), red[:1] + red[3:])
    verdicts += look(referee, 3, casinos(c2=(red[1], other)), ())
    blue = dice(BLUE, (1, 3, 3, 4, 4, 5, 5, 6), 20)
    verdicts += look(referee, 4, casinos(c2=(red[1], other, twice)), blue)
    verdicts += look(referee, 5, casinos(c2=(red[1], other), c6=blue[7:]), blue[:7])
    verdicts += look(referee, 6, casinos(c2=(red[1], other), c6=blue[7:]), ())
    assert said(verdicts) == ["red places 2 dice showing 2 on casino 2", "blue rolls 1 3 3 4 4 5 5 6",
                              "blue places 1 die showing 6 on casino 6"]  # fmt: skip
    assert referee.state.casinos[1].dice == (2, 0) and referee.state.casinos[5].dice == (0, 1)


def test_a_normal_die_read_as_the_biggy_and_the_biggy_not_seen_are_told_by_the_dice_placed():
    """Traced (Royale seeds 401 and 402, five players): red's roll read with a normal 2 read as the Biggy and
    the Biggy 4 not read at all. No roll tried held a Biggy 4, so red's Biggy and die then put on casino 4 were
    taken for dice put there before the roll (an alert), and a normal 4 was booked there. The Biggy may be
    among the dice not seen, the die read as it a normal die (``camera._biggy_unseen``)."""
    referee = interpreter(new_game(find_ruleset("las-vegas+biggy"), ["red", "blue"]))
    referee.apply(DEAL)
    normal = dice(RED, (6, 1, 4, 3, 2, 6), 1)
    read_big = DieReading(RED, True, 2, track=7)  # a normal 2 read as the Biggy; the Biggy (a 4) not read
    verdicts = look(referee, 1, EMPTY, (*normal, read_big))
    placed = (normal[2], DieReading(RED, True, 4, track=8))  # on the casino, the Biggy read as it is
    rest = (*normal[:2], *normal[3:], replace(read_big, big=False))
    verdicts += look(referee, 2, casinos(c4=placed), rest)
    verdicts += look(referee, 3, casinos(c4=placed), ())
    assert said(verdicts)[-1] == "red places 1 die and 1 Biggy showing 4 on casino 4", said(verdicts)
    assert "alert" not in kinds(verdicts)
    assert referee.state.casinos[3].biggies == (1, 0) and referee.state.casinos[3].dice == (1, 0)


def test_the_biggy_read_as_a_normal_die_of_another_face_is_told_by_the_dice_placed():
    """Traced (Royale basic game 440, five players): black's Biggy 1 was read as a normal 2 in the tray, and the
    largest die read (that 2) was taken for his Biggy, as a 2 or one of the two faces a 2 is most often
    misread from (a 1 the third); no roll tried held a Biggy 1, his die and Biggy put on casino 1 were booked
    as a die alone, and his Biggy later on casino 4: round 1 paid wrong. Every face measured misread as
    another is tried for a die seen (``camera._misread``), the die taken for the Biggy by size too."""
    referee = interpreter(new_game(find_ruleset("las-vegas+biggy"), ["red", "blue"]))
    referee.apply(DEAL)
    assert MODEL.misread_from(2) == (3, 1) and MODEL.confusable(6, 2)  # a 6 read as 2: seen, the third
    normal = tuple(replace(d, size_mm=16.0) for d in dice(RED, (4, 1, 4, 3, 5, 3, 2), 1))
    biggy = DieReading(RED, False, 2, track=8, size_mm=19.0)  # the Biggy 6 read as a normal 2, the largest
    verdicts = look(referee, 1, EMPTY, (*normal, biggy))
    placed = (DieReading(RED, True, 6, track=9),)  # on the casino, the Biggy read as it is
    verdicts += look(referee, 2, casinos(c6=placed), normal)
    verdicts += look(referee, 3, casinos(c6=placed), ())
    assert said(verdicts)[-1] == "red places 1 Biggy showing 6 on casino 6", said(verdicts)
    assert "alert" not in kinds(verdicts)
    assert referee.state.casinos[5].biggies == (1, 0) and referee.state.casinos[5].dice == (0, 0)


def test_a_face_misread_as_never_measured_is_told_by_the_dice_placed():
    """Traced (Royale main game 444, five players, round 3): yellow's four 2s were read in the tray as three
    2s and a 4, a misreading the observation model never saw; only the faces a 4 is most often misread
    from were tried for it, so no roll held four 2s, the four put on casino 2 were booked as three (an
    alert that dice lay there before the next roll), and the fourth went to a later placement of his
    elsewhere: two casinos wrong. Every other face is tried for a die seen, one never seen read so at the
    model's floor and ``UNSEEN_MISREAD_COST`` more; his rolls after, a die fewer than three booked would
    leave him, tell."""
    referee = interpreter(new_game(find_ruleset("las-vegas"), ["red", "blue"]))
    referee.apply(DEAL)
    assert 2 not in MODEL.misread_from(4) and not MODEL.confusable(2, 4)  # never seen
    red = dice(RED, (2, 2, 2, 4, 5, 5, 6, 6), 1)  # the 4 is a 2; no die read is often misread from a 2
    twos = (*red[:3], replace(red[3], pips=2, track=30))
    blue = dice(BLUE, (1, 3, 3, 4, 5, 5, 6, 6), 20)
    again = dice(RED, (4, 5, 5, 6), 40)  # his 4 dice left
    blue_again = dice(BLUE, (2, 2, 4, 4, 5, 1), 50)
    placed, blue_placed = casinos(c2=twos), casinos(c2=twos, c6=blue[6:])
    red_again = casinos(c2=twos, c5=again[1:3], c6=blue[6:])
    blue_again_placed = casinos(c2=twos, c4=blue_again[2:4], c5=again[1:3], c6=blue[6:])
    table = [(EMPTY, red), (placed, red[4:]), (placed, ()), (placed, blue), (blue_placed, blue[:6]), (blue_placed, ()),
             (blue_placed, again), (red_again, (again[0], again[3])), (red_again, ()), (red_again, blue_again),
             (blue_again_placed, ()), (blue_again_placed, dice(RED, (6, 6), 60))]  # fmt: skip
    for frame, (on_casinos, tray) in enumerate(table, 1):
        look(referee, frame, on_casinos, tray)
    assert [casino.dice for casino in referee.state.casinos[:5]] == [(0, 0), (4, 0), (0, 0), (0, 2), (2, 0)]
    assert referee.state.history[-1] == DiceRolled(RED, (6, 6))
