"""The JSON table and payout shapes behind ``dice-referee settle``."""

import pytest

from referee import ImpossibleTableError, NotationError
from referee.lasvegas.jsonio import settle_json

EXAMPLE = {
    "game": "las-vegas",
    "neutral": ["white"],
    "casinos": [{"casino": 1, "dice": {"red": 3, "white": 1}, "biggy": {"red": 1}, "banknotes": [60000, 20000]}],
}


def test_contract_example():
    out = settle_json(EXAMPLE)
    casino = out["casinos"][0]
    assert {k: casino[k] for k in ("casino", "counts", "cancelled", "paid", "returned")} == {
        "casino": 1,
        "counts": {"red": 5, "white": 1},
        "cancelled": [],
        "paid": [{"owner": "red", "banknote": 60000}],
        "returned": [20000],
    }
    assert out["totals"] == {"red": 60000}
    assert casino["reasons"][0] == "red takes $60,000 with 5 dice"


def test_neutral_notes_go_back_and_ties_are_explained():
    out = settle_json({"neutral": ["white"], "casinos": [
        {"casino": 2, "dice": {"white": 3, "black": 2, "red": 2, "blue": 1}, "banknotes": [70000, 30000]},
        {"casino": 5, "dice": {"green": 2}, "biggy": {"blue": 1}, "banknotes": [90000]},
    ]})  # fmt: skip
    two, five = out["casinos"]
    assert two["paid"] == [{"owner": "blue", "banknote": 30000}]
    assert two["returned"] == [70000]
    assert two["cancelled"] == ["red", "black"]
    assert two["ties"] == [{"count": 2, "owners": ["red", "black"]}]
    # A Biggy counts as two dice: blue's Biggy ties with green's two dice.
    assert five["counts"] == {"blue": 2, "green": 2}
    assert five["paid"] == [] and five["returned"] == [90000]
    assert out["totals"] == {"blue": 30000}


def test_input_order_of_casinos_is_kept_and_missing_casinos_are_allowed():
    out = settle_json({"casinos": [{"casino": 6, "dice": {"red": 1}, "banknotes": [50000]},
                                   {"casino": 2, "banknotes": [60000]}]})  # fmt: skip
    assert [c["casino"] for c in out["casinos"]] == [6, 2]
    assert out["totals"] == {"red": 50000}


@pytest.mark.parametrize(
    ("table", "error", "message"),
    [
        ([], NotationError, "must be a JSON object"),
        ({}, NotationError, "'casinos' must be a list"),
        ({"casinos": [], "players": 3}, NotationError, "unknown field"),
        ({"game": "yahtzee", "casinos": []}, NotationError, "unknown game"),
        ({"game": 3, "casinos": []}, NotationError, "'game' must be a game name"),
        ({"variants": "neutral", "casinos": []}, NotationError, "'variants' must be a list"),
        ({"neutral": "white", "casinos": []}, NotationError, "'neutral' must be a list"),
        ({"casinos": [{"dice": {}}]}, NotationError, "'casino' \\(1 to 6\\) is missing"),
        ({"casinos": [{"casino": 7}]}, NotationError, "numbered 1 to 6"),
        ({"casinos": [{"casino": 1, "dice": {"red": -1}}]}, NotationError, "whole number >= 0"),
        ({"casinos": [{"casino": 1, "dice": {"red": 1.5}}]}, NotationError, "whole number >= 0"),
        ({"casinos": [{"casino": 1, "dice": {"mauve": 1}}]}, NotationError, "unknown colour 'mauve'"),
        ({"casinos": [{"casino": 1, "dice": {"red": 1, "Red": 1}}]}, NotationError, "red is given twice"),
        ({"casinos": [{"casino": 1, "dice": [1]}]}, NotationError, "must be a JSON object"),
        ({"casinos": [{"casino": 1, "banknotes": 50000}]}, NotationError, "'banknotes' must be a list"),
        ({"casinos": [{"casino": 1, "pips": 3}]}, NotationError, "unknown field"),
        ({"casinos": [{"casino": 1}, {"casino": 1}]}, ImpossibleTableError, "casino 1 is given twice"),
        ({"casinos": [{"casino": 1, "banknotes": [55000]}]}, ImpossibleTableError, "55000 is not a banknote"),
        (
            {"casinos": [{"casino": 1, "dice": {"red": 6}}, {"casino": 2, "dice": {"red": 3}}]},
            ImpossibleTableError,
            "9 red dice: a player has at most 8",
        ),
        (
            {"casinos": [{"casino": 1, "dice": {"red": 8}, "biggy": {"red": 1}}]},
            ImpossibleTableError,
            "9 red dice: a player has at most 8 \\(Biggy included\\)",
        ),
        ({"casinos": [{"casino": 1, "biggy": {"red": 2}}]}, ImpossibleTableError, "2 red Biggys"),
        (
            {"neutral": ["white"], "casinos": [{"casino": 1, "biggy": {"white": 1}}]},
            ImpossibleTableError,
            "neutral dice have no Biggy",
        ),
        (
            {"neutral": ["white"], "casinos": [{"casino": 1, "dice": {"white": 13}}]},
            ImpossibleTableError,
            "13 neutral white dice",
        ),
        (
            {"casinos": [{"casino": c, "banknotes": [90000]} for c in range(1, 7)]},
            ImpossibleTableError,
            "6 notes of \\$90,000: the las-vegas deck has 5",
        ),
        # With explicit variants the limits are that rule set's: no Biggys in the base game.
        (
            {"variants": [], "casinos": [{"casino": 1, "biggy": {"red": 1}}]},
            ImpossibleTableError,
            "a player has at most 0",
        ),
        (
            {"variants": ["biggy"], "casinos": [{"casino": 1, "dice": {"red": 8}}]},
            ImpossibleTableError,
            "8 red dice: a player has at most 7",
        ),
    ],
)
def test_malformed_and_impossible_tables(table, error, message):
    with pytest.raises(error, match=message):
        settle_json(table)


def test_variants_widen_the_deck():
    out = settle_json({"variants": ["100k"], "casinos": [{"casino": 1, "dice": {"red": 1}, "banknotes": [100000]}]})
    assert out["totals"] == {"red": 100000}
