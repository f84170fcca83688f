"""Tie cancellation and payout order (rules summary "Settlement"), table-driven."""

import pytest

from referee import CasinoId, Colour, ImpossibleTableError, score_casino
from referee.lasvegas.scoring import rank_standings

R, B, G, K, W = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.BLACK, Colour.WHITE


def names(owners):
    return [o.value for o in owners]


@pytest.mark.parametrize(
    ("counts", "notes", "neutral", "paid", "cancelled", "returned"),
    [
        # 5/3/3/1: the two 3s cancel; 5 and 1 are paid, in that order.
        ({R: 5, B: 3, G: 3, K: 1}, [30_000, 60_000], (), [("red", 60_000), ("black", 30_000)], ["blue", "green"], []),
        # 2/2/1/1: nobody is paid; every note goes under the pile.
        ({R: 2, B: 2, G: 1, K: 1}, [50_000, 20_000], (), [], ["red", "blue", "green", "black"], [50_000, 20_000]),
        # A three-way tie at the top leaves the single lower owner the highest note.
        ({R: 4, B: 4, G: 4, K: 1}, [90_000, 10_000], (), [("black", 90_000)], ["red", "blue", "green"], [10_000]),
        # More owners than notes: the third owner gets nothing.
        ({R: 3, B: 2, G: 1}, [70_000], (), [("red", 70_000)], [], []),
        # A lone owner takes only the highest note; the rest go back.
        ({G: 1}, [10_000, 40_000, 20_000], (), [("green", 40_000)], [], [20_000, 10_000]),
        # No dice: all notes return. No notes: nobody is paid.
        ({}, [60_000], (), [], [], [60_000]),
        ({R: 2}, [], (), [], [], []),
        # Zero counts are not owners.
        ({R: 2, B: 0}, [60_000], (), [("red", 60_000)], [], []),
        # Neutral white takes the top note, which goes under the pile (seed example 1).
        ({W: 3, K: 2, R: 1}, [70_000, 20_000], (W,), [("black", 20_000)], [], [70_000]),
        # Neutral cancels a tied player like anyone.
        ({W: 2, R: 2, B: 1}, [70_000, 20_000], (W,), [("blue", 70_000)], ["red", "white"], [20_000]),
        # Several neutral colours are each an imaginary owner of their own.
        ({W: 2, Colour.GREY: 2, R: 1}, [50_000], (W, Colour.GREY), [("red", 50_000)], ["white", "grey"], []),
    ],
)
def test_score_casino(counts, notes, neutral, paid, cancelled, returned):
    payout = score_casino(CasinoId(3), counts, notes, neutral)
    assert [(p.owner.value, p.banknote_usd) for p in payout.paid] == paid
    assert names(payout.cancelled) == cancelled
    assert list(payout.returned) == returned
    # Every note is either paid to a player or returned: nothing is created or lost.
    assert sorted([p.banknote_usd for p in payout.paid] + list(payout.returned)) == sorted(notes)


@pytest.mark.parametrize(
    ("counts", "notes", "message"),
    [
        ({R: -1}, [], "red has -1 dice"),
        ({R: 1.5}, [], "red has 1.5 dice"),
        ({R: True}, [], "red has True dice"),
        ({"red": 2}, [], "'red' is not a colour"),
        ({R: 1}, [0], "0 is not a banknote"),
        ({R: 1}, ["60000"], "'60000' is not a banknote"),
    ],
)
def test_bad_input_is_a_clear_error(counts, notes, message):
    with pytest.raises(ImpossibleTableError, match=message):
        score_casino(CasinoId(1), counts, notes)


def test_ties_report_the_count_and_read_as_a_sentence():
    payout = score_casino(CasinoId(1), {R: 3, B: 3, G: 1, K: 1, W: 1}, [50_000])
    assert [(t.count, names(t.owners)) for t in payout.ties] == [(3, ["red", "blue"]), (1, ["green", "black", "white"])]
    assert payout.ties[0].reason() == "red and blue cancel: 3 dice each"
    assert payout.ties[1].reason() == "green, black and white cancel: 1 die each"


def test_explain_names_every_payment_and_leftover():
    payout = score_casino(CasinoId(2), {W: 4, R: 2, B: 1}, [60_000, 30_000], (W,))
    assert payout.explain() == [
        "white (neutral) takes $60,000 with 4 dice: it goes under the pile",
        "red takes $30,000 with 2 dice",
        "blue gets nothing: no note left for 1 die",
    ]


def test_counts_are_listed_most_dice_first():
    payout = score_casino(CasinoId(4), {K: 1, R: 5, B: 3}, [])
    assert payout.counts == ((R, 5), (B, 3), (K, 1))


@pytest.mark.parametrize(
    ("won", "expected"),
    [
        # Most money wins.
        ({R: [90_000], B: [50_000, 30_000]}, [("red", 1), ("blue", 2)]),
        # Equal money: more banknotes wins (seed p.3).
        ({R: [90_000, 10_000], B: [50_000, 30_000, 20_000]}, [("blue", 1), ("red", 2)]),
        # Equal money and notes: a shared win, and the next player ranks third.
        ({R: [50_000], B: [50_000], G: [10_000]}, [("red", 1), ("blue", 1), ("green", 3)]),
        # Nobody won anything: everyone shares first place.
        ({R: [], B: []}, [("red", 1), ("blue", 1)]),
    ],
)
def test_rank_standings(won, expected):
    assert [(s.player.value, s.rank) for s in rank_standings(won)] == expected
