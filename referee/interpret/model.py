"""The observation model: how likely the reader's reading of a die is, given the die that lies there.

Measured from the shipped reader on rendered games it was not trained or benchmarked on
(``python -m models.observation``) and shipped beside the weights as ``models/observation.json``; the
interpreter, the benchmarks and the model card use the same numbers. What it holds:

- ``pips``: P(read face | true face), a 6x6 table (rows: the true face);
- ``colour``: P(read colour | true colour) for the colours measured; a pair never seen confused
  gets ``colour_floor``;
- ``biggy``: P(read Biggy | true Biggy) and P(read Biggy | normal die);
- ``miss``: P(a die lying there is not read) where it was read at the reading before or has just come
  (a miss beginning: the interpreter charges a hidden die once, and ``stay`` while it goes on), in the
  tray and on casinos by how crowded they are,
  times a factor for the die's colour (``miss_colour``: a white die on the light felt is missed more
  often than a red one);
- ``extra``: P(a die read that is not there) per zone reading (a die read twice in a crowd, a stray box);
- ``stay``: how a miss lasts while the die does not move: P(missed | missed at the reading before) and
  P(missed | read at the reading before).

Costs are negative log-likelihoods (nats): the interpreter adds them up and prefers the table
that costs least.

Example:
    >>> model = ObservationModel.default()
    >>> model.die_cost("red", False, 3, "red", False, 3) < model.die_cost("red", False, 3, "blue", False, 3)
    True
    >>> round(model.miss_cost(0, "tray"), 2) == round(-math.log(model.miss_tray), 2)
    True
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["ObservationModel"]


def _log(p: float) -> float:
    return -math.log(max(p, 1e-12))


@dataclass(frozen=True)
class ObservationModel:
    """The reader's error rates; see the module's description."""

    pips: tuple[tuple[float, ...], ...]
    """P(read face j+1 | true face i+1), rows summing to 1."""
    colour: Mapping[str, Mapping[str, float]]
    """P(read colour | true colour), for the true colours measured."""
    colour_floor: float
    """P(read this other colour | true colour) for a pair never seen confused."""
    biggy_hit: float
    """P(read as a Biggy | a Biggy)."""
    biggy_false: float
    """P(read as a Biggy | a normal die)."""
    miss_tray: float
    """P(a die in the tray is not read)."""
    miss_casino: tuple[float, ...]
    """P(a die on a casino is not read), by crowd: index k for casinos holding ``crowd_width`` * k dice up to
    the next bin (the last: more)."""
    crowd_width: int
    """How many crowd sizes a bin of ``miss_casino`` holds."""
    extra: float
    """P(one die read that is not there), per die read."""
    miss_colour: Mapping[str, float] = field(default_factory=dict)
    """How much likelier than the average die in its zone and crowd a die of this colour is missed (at
    least 1; a colour not listed: 1)."""
    stay: tuple[float, float] | None = None
    """For a die that does not move from one reading to the next: P(missed now | missed then) and
    P(missed now | read then) (None: not measured; a die's miss is then charged as on its arrival)."""
    source: Mapping[str, Any] = field(default_factory=dict)
    """How and on what it was measured."""
    _memo: dict[tuple[str, bool, int, str, bool, int], float] = field(default_factory=dict, repr=False, compare=False)
    _miss_memo: dict[tuple[int, str, str], float] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def default(cls) -> ObservationModel:
        """The shipped model (``models/observation.json``), or a generic one where none is shipped."""
        path = Path(__file__).resolve().parents[2] / "models" / "observation.json"
        if path.is_file():
            return cls.load(path)
        return cls.generic()

    @classmethod
    def generic(cls) -> ObservationModel:
        """Round numbers for a reader never measured: 2 % of faces and 1 % of colours misread, 3 % missed."""
        pips = tuple(tuple(0.98 if i == j else 0.004 for j in range(6)) for i in range(6))
        return cls(pips, {}, 0.002, 0.95, 0.02, 0.03, (0.02, 0.04, 0.08), 4, 0.01, source={"measured": False})

    @classmethod
    def load(cls, path: Path) -> ObservationModel:
        """Reads a model written by :meth:`to_json`.

        Raises:
            ValueError: for a file that is not such a model (named in the message).
        """
        try:
            return cls.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path} is not an observation model: {error}") from None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> ObservationModel:
        """The model from its JSON object."""
        pips = tuple(tuple(float(p) for p in row) for row in obj["pips"])
        if len(pips) != 6 or any(len(row) != 6 for row in pips):
            raise ValueError("pips must be a 6x6 table")
        colour = {str(t): {str(r): float(p) for r, p in row.items()} for t, row in obj["colour"].items()}
        return cls(pips, colour, float(obj["colour_floor"]), float(obj["biggy_hit"]), float(obj["biggy_false"]),
                   float(obj["miss_tray"]), tuple(float(p) for p in obj["miss_casino"]),
                   int(obj.get("crowd_width", 4)), float(obj["extra"]),
                   {str(k): float(v) for k, v in obj.get("miss_colour", {}).items()},
                   tuple(float(p) for p in obj["stay"]) if obj.get("stay") else None,  # type: ignore[arg-type]
                   dict(obj.get("source", {})))  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The JSON object :meth:`from_json` reads."""
        return {
            "pips": [[round(p, 5) for p in row] for row in self.pips],
            "colour": {t: {r: round(p, 5) for r, p in row.items()} for t, row in self.colour.items()},
            "colour_floor": self.colour_floor,
            "biggy_hit": round(self.biggy_hit, 5),
            "biggy_false": round(self.biggy_false, 5),
            "miss_tray": round(self.miss_tray, 5),
            "miss_casino": [round(p, 5) for p in self.miss_casino],
            "crowd_width": self.crowd_width,
            "extra": round(self.extra, 5),
            "miss_colour": {k: round(v, 4) for k, v in self.miss_colour.items()},
            "stay": [round(p, 5) for p in self.stay] if self.stay else None,
            "source": dict(self.source),
        }

    # --- costs (nats) ---------------------------------------------------------------------------

    def colour_p(self, true: str, read: str) -> float:
        """P(read colour | true colour)."""
        row = self.colour.get(true)
        if row is None:
            return 1 - 5 * self.colour_floor if read == true else self.colour_floor
        return row.get(read, 1 - 5 * self.colour_floor if read == true else self.colour_floor)

    def die_cost(self, true_colour: str, true_big: bool, true_pips: int, colour: str, big: bool, pips: int) -> float:
        """The cost of reading (colour, big, pips) where a die (true_colour, true_big, true_pips) lies.

        ``true_pips`` 0 means any face (a die whose face the game does not fix); ``pips`` 0 an unreadable face.
        """
        key = (true_colour, true_big, true_pips, colour, big, pips)
        cost = self._memo.get(key)
        if cost is None:
            cost = self._memo[key] = self._die_cost(*key)
        return cost

    def _die_cost(self, true_colour: str, true_big: bool, true_pips: int, colour: str, big: bool, pips: int) -> float:
        cost = _log(self.colour_p(true_colour, colour))
        if true_pips and pips:
            cost += _log(self.pips[true_pips - 1][pips - 1])
        p_big = self.biggy_hit if true_big else self.biggy_false
        return cost + _log(p_big if big else 1 - p_big)

    def miss_cost(self, crowd: int, zone: str, colour: str = "") -> float:
        """The cost of not reading a die that lies in ``zone`` ("tray" or "casino") among ``crowd`` dice.

        With its ``colour``, the rate is scaled by that colour's factor (``miss_colour``), to at most one
        miss in two.
        """
        key = (crowd, zone, colour)
        cost = self._miss_memo.get(key)
        if cost is None:
            cost = self._miss_memo[key] = self._miss_cost(*key)
        return cost

    def _miss_cost(self, crowd: int, zone: str, colour: str) -> float:
        if zone == "tray":
            p = self.miss_tray
        else:
            bins = self.miss_casino
            p = bins[min(crowd // self.crowd_width, len(bins) - 1)]
        if colour:
            p = min(0.5, p * self.miss_colour.get(colour, 1.0))
        return _log(p)

    def stay_cost(self) -> float | None:
        """The cost, at each reading, of an error lasting while its dice do not move.

        A die hidden staying hidden: ``-log P(missed | missed at the reading before)``; None where not measured.
        """
        return None if self.stay is None else _log(self.stay[0])

    def extra_cost(self) -> float:
        """The cost of a die read that is not there."""
        return _log(self.extra)

    def misread_from(self, face: int, count: int = 2) -> tuple[int, ...]:
        """The ``count`` true faces a die read as ``face`` most often shows, other than ``face``, likeliest first."""
        others = sorted((t for t in range(1, 7) if t != face), key=lambda t: (-self.pips[t - 1][face - 1], t))
        return tuple(others[:count])

    def confusable(self, true: int, face: int) -> bool:
        """Whether a die showing ``true`` is read as ``face`` more often than the matrix's floor.

        Above the floor: seen so when the model was measured, or one pip apart (the measurement's prior leans
        towards neighbours, the confusions seen on real dice); the confusions never seen share the floor.
        """
        floor = min(min(row) for row in self.pips)
        return self.pips[true - 1][face - 1] > floor * 1.001
