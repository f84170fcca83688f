"""Golden scenarios: worked examples of the rulebook, replayed event by event."""

import pytest

from tests.referee.scenario import SCENARIOS, run

FILES = sorted(SCENARIOS.glob("*.txt"))


def test_there_are_scenarios():
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    run(path)
