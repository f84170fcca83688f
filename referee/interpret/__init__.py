"""The camera interpreter, shared by every game: readings in, the most likely legal history out.

- :mod:`referee.interpret.model`: the reader's observation model (measured, shipped with the weights);
- :mod:`referee.interpret.table`: the cost of a reading against the table a state shows;
- :mod:`referee.interpret.decode`: the beam over histories, what is said and when.

A game plugs in through :class:`~referee.interpret.decode.Game` (Las Vegas: :mod:`referee.lasvegas.camera`).
Standard library only; no game's rules import it.
"""

from referee.interpret.decode import Candidate, Game, Interpreter, Verdict
from referee.interpret.model import ObservationModel
from referee.interpret.table import Expected, TableCost, zone_cost

__all__ = ["Candidate", "Expected", "Game", "Interpreter", "ObservationModel", "TableCost", "Verdict", "zone_cost"]
