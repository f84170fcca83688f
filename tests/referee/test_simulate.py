"""Random-play invariants over thousands of seeded games (G14), and determinism of the simulator."""

import pytest

from referee import Phase, find_ruleset
from referee.simulate import default_players, random_game, simulate

CASES = [
    ("las-vegas", 2), ("las-vegas", 3), ("las-vegas", 4), ("las-vegas", 5),
    ("las-vegas+neutral", 2), ("las-vegas+neutral", 3), ("las-vegas+neutral", 4),
    ("las-vegas+biggy+100k", 4), ("las-vegas+min-by-players+six-players", 6),
    ("las-vegas+neutral+biggy+six-players+min-by-players+100k", 6),
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


def test_a_broken_engine_is_caught(monkeypatch):
    """The invariant checks can fail: a settlement that forgets to pay casino 6 is reported."""
    import referee.state as state_module

    real = state_module.preview

    def forgetful(state):
        payout = real(state)
        if state.phase is Phase.SETTLE:
            return type(payout)(payout.casinos[:5])
        return payout

    monkeypatch.setattr(state_module, "preview", forgetful)
    report = simulate(find_ruleset("las-vegas"), default_players(3), 20, seed=1)
    assert not report.ok
    assert report.to_json()["invariants"]["money_conserved"] is False


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
    with pytest.raises(ValueError, match="between 1 and 7"):
        default_players(9)
