"""Readers for the built-in rendered game that misread on purpose (shared by the vision and web tests)."""

from collections.abc import Callable

from vision.detections import Detections
from vision.synth.game import RenderedGame


def misreading_first_roll(game: RenderedGame, miss: bool = False) -> tuple[Callable[[int], Detections], int]:
    """A reader of frame indices that reads one die of the first roll one pip off (or, with ``miss``,
    does not see it) while it lies in the tray, and right once it is placed (the first placement puts
    it on its casino).

    Returns the reader and the casino of that placement.
    """
    spans = game.spans
    first_roll = next(i for i, span in enumerate(spans) if span.moment.what == "rolled")
    placing = spans[first_roll + 1]
    assert placing.moment.what == "placed"
    number = placing.moment.event.casino
    track = min(d.track for d in spans[first_roll].moment.snapshot.tray if d.pips == number)

    def read(index: int) -> Detections:
        truth = game.truth(index)
        if index >= placing.first + placing.hand:
            return truth
        chosen = truth.data["track"] == track
        if miss:
            return truth[~chosen]
        truth.data["pips"][chosen] = number % 6 + 1
        return truth

    return read, number
