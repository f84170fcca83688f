"""Rule sets and variants as data (rules summary "Components" and "Variants")."""

import pytest

from referee import UnknownRuleSetError, find_ruleset
from referee.lasvegas.rules import VARIANTS


def test_base_game_numbers():
    rules = find_ruleset("las-vegas")
    assert (rules.min_players, rules.max_players, rules.rounds, rules.casinos) == (2, 5, 4, 6)
    assert (rules.dice_per_player, rules.biggies_per_player, rules.biggy_weight) == (8, 0, 2)
    deck = rules.deck_counts()
    assert sum(deck.values()) == 54
    assert deck == {10_000: 6, 20_000: 8, 30_000: 8, 40_000: 6, 50_000: 6, 60_000: 5, 70_000: 5, 80_000: 5, 90_000: 5}
    assert all(rules.minimum_usd_for(n) == 50_000 for n in range(2, 6))
    assert not rules.has_neutral


def test_neutral_dice_by_player_count():
    rules = find_ruleset("las-vegas+neutral")
    assert [rules.neutral_dice_for(n) for n in range(2, 6)] == [4, 2, 2, 2]
    assert [rules.neutral_preroll_for(n) for n in range(2, 6)] == [0, 2, 0, 0]
    # 8 white dice in the box serve 2-4 players exactly.
    assert [rules.neutral_total_for(n) for n in range(2, 5)] == [8, 8, 8]


def test_summary_allows_more_players_with_neutral_dice_than_the_seed_rulebook():
    """The seed rulebook's variant is for 2 to 4 players ("VARIATION (2 TILL 4 SPELARE)"); our rules
    summary follows yucata, which allows neutral dice with up to 6 players (Boulevard's 2 extra whites
    make 5). We follow the summary."""
    assert find_ruleset("las-vegas+neutral").max_players == 5
    assert find_ruleset("las-vegas+neutral+six-players").neutral_total_for(6) == 12


def test_minimum_by_players_and_six_players():
    rules = find_ruleset("las-vegas+min-by-players+six-players")
    assert [rules.minimum_usd_for(n) for n in range(2, 7)] == [30_000, 40_000, 50_000, 60_000, 70_000]
    six = find_ruleset("las-vegas+six-players")
    assert [six.minimum_usd_for(n) for n in (2, 5, 6)] == [50_000, 50_000, 70_000]
    with pytest.raises(UnknownRuleSetError, match="2 to 5 players, not 6"):
        find_ruleset("las-vegas").minimum_usd_for(6)


def test_eight_players_from_boulevard():
    rules = find_ruleset("las-vegas+eight-players")
    assert rules.max_players == 8
    assert [rules.minimum_usd_for(n) for n in (2, 5, 6, 7, 8)] == [50_000, 50_000, 70_000, 80_000, 90_000]


def test_biggy_replaces_one_die_and_100k_adds_five_notes():
    biggy = find_ruleset("las-vegas+biggy")
    assert (biggy.dice_per_player, biggy.biggies_per_player) == (7, 1)
    assert find_ruleset("las-vegas+100k").deck_counts()[100_000] == 5
    assert len(find_ruleset("las-vegas+100k").deck_notes()) == 59


@pytest.mark.parametrize(
    ("name", "variants", "canonical"),
    [
        ("las-vegas", (), "las-vegas"),
        ("Las Vegas", ["Biggys", "white"], "las-vegas+neutral+biggy"),
        ("las-vegas+biggy+neutral", (), "las-vegas+neutral+biggy"),
        ("vegas+6p+100000", ("biggy",), "las-vegas+100k+biggy+six-players"),
        ("las_vegas+neutral", ("neutral",), "las-vegas+neutral"),
    ],
)
def test_find_ruleset_is_alias_tolerant_and_canonical(name, variants, canonical):
    rules = find_ruleset(name, variants)
    assert rules.name == canonical
    assert find_ruleset(rules.name) == rules
    assert eval(repr(rules), {"find_ruleset": find_ruleset}) == rules


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("monopoly", "unknown game 'monopoly'"),
        ("las-vegas+kickers", "unknown variant 'kickers'"),
        ("", "non-empty"),
        (None, "non-empty"),
    ],
)
def test_unknown_names_are_clear_errors(name, message):
    with pytest.raises(UnknownRuleSetError, match=message):
        find_ruleset(name)


def test_every_variant_has_a_summary_and_unique_names():
    spellings = [n for v in VARIANTS for n in (v.name, *v.aliases)]
    assert len(spellings) == len(set(spellings))
    assert all(v.summary for v in VARIANTS)
