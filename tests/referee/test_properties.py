"""Property tests (hypothesis): settlement against an independent oracle, and a robust engine."""

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from referee import (
    BanknotesDealt,
    CasinoId,
    Colour,
    DicePlaced,
    DiceRolled,
    GameState,
    NeutralDiceRolled,
    RefereeError,
    RoundScored,
    apply,
    find_ruleset,
    score_casino,
)
from referee.lasvegas.simulate import default_players, play

NOTES = st.lists(st.sampled_from([10_000 * k for k in range(1, 11)]), max_size=5)
COUNTS = st.dictionaries(st.sampled_from(list(Colour)), st.integers(0, 12), max_size=7)


def oracle(counts, notes, neutral):
    """The rulebook's procedure, written as plainly as possible."""
    present = {o: c for o, c in counts.items() if c > 0}
    histogram = Counter(present.values())
    survivors = sorted((o for o, c in present.items() if histogram[c] == 1), key=lambda o: -present[o])
    pile = sorted(notes, reverse=True)
    paid, returned = [], []
    for owner in survivors:
        if not pile:
            break
        note = pile.pop(0)
        (returned if owner in neutral else paid).append((owner, note))
    return paid, sorted([n for _, n in returned] + pile, reverse=True)


@given(COUNTS, NOTES, st.sets(st.sampled_from(list(Colour)), max_size=2))
def test_score_casino_matches_the_oracle(counts, notes, neutral):
    payout = score_casino(CasinoId(1), counts, notes, neutral)
    paid, returned = oracle(counts, notes, neutral)
    assert [(p.owner, p.banknote_usd) for p in payout.paid] == paid
    assert list(payout.returned) == returned
    # Conservation, and nobody cancelled is paid.
    assert Counter([p.banknote_usd for p in payout.paid] + list(payout.returned)) == Counter(notes)
    assert not {p.owner for p in payout.paid} & set(payout.cancelled)
    for tie in payout.ties:
        assert len(tie.owners) > 1 and all(counts[o] == tie.count for o in tie.owners)


events = st.one_of(
    st.builds(
        BanknotesDealt,
        st.lists(
            st.lists(st.sampled_from([10_000, 50_000, 90_000, 7]), max_size=3).map(tuple), min_size=5, max_size=7
        ).map(tuple),
    ),
    st.builds(NeutralDiceRolled, st.lists(st.integers(0, 7), max_size=3).map(tuple)),
    st.builds(
        DiceRolled,
        st.sampled_from(list(Colour)),
        st.lists(st.integers(0, 7), max_size=9).map(tuple),
        st.lists(st.integers(1, 6), max_size=2).map(tuple),
        st.lists(st.integers(1, 6), max_size=3).map(tuple),
    ),
    st.builds(
        DicePlaced,
        st.sampled_from(list(Colour)),
        st.integers(-1, 8),
        st.integers(-1, 9),
        st.integers(-1, 2),
        st.integers(-1, 3),
    ),
    st.just(RoundScored()),
)


@given(
    st.integers(0, 10_000),
    st.integers(0, 300),
    st.lists(events, min_size=1, max_size=8),
    st.sampled_from(["las-vegas", "las-vegas+neutral+biggy"]),
    st.integers(2, 5),
)
def test_any_event_either_applies_cleanly_or_raises_a_referee_error(seed, steps, extra, name, players):
    """From any point of a random game, arbitrary (mostly illegal) events never corrupt the state."""
    states = [state for _, state in play(find_ruleset(name), default_players(players), seed)]
    state = states[min(steps, len(states) - 1)]
    for event in extra:
        before = state.to_notation()
        try:
            state = apply(state, event)
        except RefereeError:
            assert state.to_notation() == before
        assert GameState.from_notation(state.to_notation()) == state
