"""Value types: colours, casinos, dice, and their text forms."""

import pytest

from referee import CasinoId, Colour, Die, NotationError


@pytest.mark.parametrize(
    ("text", "colour"),
    [("red", Colour.RED), ("  Blue ", Colour.BLUE), ("gray", Colour.GREY), ("Purple", Colour.VIOLET)],
)
def test_colour_from_str(text, colour):
    assert Colour.from_str(text) is colour


@pytest.mark.parametrize("text", ["magenta", "", 3, None])
def test_unknown_colour_is_a_clear_error(text):
    with pytest.raises(NotationError, match="colour"):
        Colour.from_str(text)


def test_colour_letters_are_unique_and_round_trip():
    letters = [c.letter for c in Colour]
    assert len(set(letters)) == len(letters)
    assert all(Colour.from_letter(c.letter) is c for c in Colour)
    with pytest.raises(NotationError, match="unknown colour letter"):
        Colour.from_letter("z")


@pytest.mark.parametrize("obj", [Colour.RED, Die(Colour.GREEN, big=True), Die(Colour.BLUE), CasinoId(4)])
def test_repr_evaluates_back(obj):
    assert eval(repr(obj)) == obj


@pytest.mark.parametrize(("value", "ok"), [(1, True), (6, True), (0, False), (7, False), (True, False), ("3", False)])
def test_casino_id_parse(value, ok):
    if ok:
        assert CasinoId.parse(value) == value
    else:
        with pytest.raises(NotationError, match="numbered 1 to 6"):
            CasinoId.parse(value)
