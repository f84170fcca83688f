"""Random-play invariants over thousands of seeded games (G14), and determinism of the simulator."""

import pytest

from referee import Colour, DiceRolled, Phase, find_ruleset
from referee.lasvegas.simulate import default_players, random_game, simulate

CASES = [
    ("las-vegas", 2), ("las-vegas", 3), ("las-vegas", 4), ("las-vegas", 5),
    ("las-vegas+neutral", 2), ("las-vegas+neutral", 3), ("las-vegas+neutral", 4),
    ("las-vegas+biggy+100k", 4), ("las-vegas+min-by-players+six-players", 6),
    ("las-vegas+neutral+biggy+six-players+min-by-players+100k", 6),
    ("las-vegas+eight-players", 7), ("las-vegas+eight-players+100k+biggy", 8),
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CASES)
def test_invariants_hold_in_random_games(name, players):
    games = 400 if name == "las-vegas" and players == 4 else 150
    report = simulate(find_ruleset(name), default_players(players), games, seed=20261130)
    summary = report.to_json()
    assert report.failures == []
    assert all(summary["invariants"].values())
    rounds = find_ruleset(name).rounds
    assert summary["checks"]["preview_equals_settlement"] == games * rounds
    assert summary["checks"]["rounds_match_ruleset"] == games
    assert report.rounds == games * rounds


def test_a_settlement_that_forgets_a_casino_is_caught(monkeypatch):
    """The checks can fail: an engine whose settlement skips casino 6 differs from the preview."""
    import referee.lasvegas.state as state_module

    real = state_module.preview

    def forgetful(state):
        payout = real(state)
        return type(payout)(payout.casinos[:5]) if state.phase is Phase.SETTLE else payout

    monkeypatch.setattr(state_module, "preview", forgetful)
    report = simulate(find_ruleset("las-vegas"), default_players(3), 20, seed=1)
    assert not report.ok
    assert report.to_json()["invariants"]["preview_equals_settlement"] is False


def test_a_settlement_that_prints_money_is_caught(monkeypatch):
    """An engine that pays the first player an extra $90,000 note breaks money conservation."""
    import referee.lasvegas.state as state_module

    real = state_module.preview

    class Generous:
        def __init__(self, payout):
            self.payout = payout

        def notes_won(self):
            won = self.payout.notes_won()
            first = next(iter(won), None)
            if first is not None:
                won[first] = [*won[first], 90_000]
            return won

    monkeypatch.setattr(state_module, "preview", lambda state: Generous(real(state)))
    report = simulate(find_ruleset("las-vegas"), default_players(3), 20, seed=1)
    invariants = report.to_json()["invariants"]
    assert invariants["money_conserved"] is False
    # The engine itself then refuses to deal a note its pile no longer holds.
    assert invariants["legal_play_accepted"] is False


def test_same_seed_same_game_other_seed_other_game():
    rules = find_ruleset("las-vegas+neutral")
    a = random_game(rules, default_players(3), 42)
    b = random_game(rules, default_players(3), 42)
    c = random_game(rules, default_players(3), 43)
    assert a.history == b.history
    assert a.history != c.history
    assert a.phase is Phase.OVER


def test_default_players_range():
    assert [p.value for p in default_players(3)] == ["red", "blue", "green"]
    with pytest.raises(ValueError, match="between 1 and 8"):
        default_players(9)


def test_a_seed_keeps_dealing_the_same_game():
    """Benchmarks and the demo name their games by seed: a faster engine must not change them."""
    final = random_game(find_ruleset("las-vegas+neutral+biggy"), default_players(4), 2026)
    assert str(final) == ("las-vegas+neutral+biggy rbgk/w 4 over -:-/-:-/-:-/-:-/-:-/-:- 2,2,2,2 "
                          "30,60,60,70,70,50/20,80,50,80,90/70,40,90,60,50/50,30,80,30,40,10")  # fmt: skip
    assert len(final.history) == 188
    assert final.history[3] == DiceRolled(Colour.BLUE, (4, 6, 4, 5, 4, 5, 5), (6,), (4, 5))
