"""Measures the observation model the camera interpreter uses, on the path the live referee runs.

Rendered games (every benchmark table, seeds kept for this alone: never tuned on, never benchmarked)
are watched by the shipped reader through :class:`vision.pipeline.TablePipeline`; every settled
reading the tracker gives is compared, zone by zone, with the dice the renderer put there (their
boxes through the same calibration). Counted: each face read for each true face, each colour read
for each true colour, Biggys, dice not read (by zone and crowd) and dice read that are not there.
The counts, smoothed, become ``models/observation.json``
(:class:`referee.interpret.model.ObservationModel`)::

    python -m models.observation [--seeds 901 902] [--rounds 1] [--out models/observation.json]
    python -m models.observation --tables royale --out royale.json     # Royale's grey and black dice
    python -m models.observation --counts models/observation.json royale.json   # both, summed
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from referee import Colour, find_ruleset, new_game
from referee.interpret.model import ObservationModel
from referee.readings import DieReading, TableSnapshot
from vision.detect import MODELS, TABLE_CONFIDENCE, DiceDetector, table_reader, weights_digest
from vision.pipeline import TablePipeline
from vision.synth.game import RenderedGame

HERE = Path(__file__).resolve().parent
CROWD_WIDTH = 2
"""Casinos are binned by how many dice lie there, two counts a bin: 0-1, 2-3, ... (a crowd hides dice)."""
CROWD_BINS = 11
"""The last bin holds the casinos with ``CROWD_WIDTH * (CROWD_BINS - 1)`` dice or more (20)."""
CROWDED = 4
"""From this many dice on a casino, more dice hide more: the miss rates of the bins from here on are made
non-decreasing (pooled where a bin measured fewer misses than the one before: chance, with few readings).
Below it a lone die is missed more often than one among a few (it lies at the casino's edge)."""

TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "2p": ("las-vegas", ("black", "white")),
    "3p": ("las-vegas", ("red", "blue", "green")),
    "3p-biggy": ("las-vegas+biggy", ("red", "blue", "green")),
    "4p": ("las-vegas", ("red", "blue", "green", "black")),
    "5p": ("las-vegas", ("red", "blue", "green", "black", "yellow")),
    "6p": ("las-vegas+six-players", ("red", "blue", "green", "black", "yellow", "white")),
    "2p-neutral": ("las-vegas+neutral", ("yellow", "black")),
    "3p-neutral": ("las-vegas+neutral", ("red", "blue", "green")),
    "4p-neutral-biggy": ("las-vegas+neutral+biggy", ("red", "blue", "green", "black")),
}
"""The tables the benchmark (``bench/bench_pipeline.py --config``) and this measurement use: 2 to 6 players in
every base-box colour (white as a player and as the neutral dice), the neutral variant and Biggys.
Name -> (rule set, player colours in seat order)."""

ROYALE_TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "royale-main-4p": ("las-vegas-royale+main", ("red", "blue", "green", "black")),
    "royale-main-5p": ("las-vegas-royale+main", ("red", "blue", "green", "black", "yellow")),
}
"""Las Vegas Royale's main game on its own table, with a black player: the tiles' grey dice (Handicap, Block
It) and black dice lie beside the players' black dice, a confusion the Las Vegas tables never show (measured
on the benchmark's Royale main games: 3 % of grey dice read black). ``--tables royale`` measures them apart
(seeds 901, 902, ... are Royale games never benchmarked either); ``--counts`` sums the two measurements."""

TABLE_SETS = {"las-vegas": TABLES, "royale": ROYALE_TABLES}


FIT_ROUNDS = 20
"""Turns of fitting the crowd rates and the colour factors (they settle within a few)."""
COLOUR_PRIOR = 3.0
"""Pseudo-misses at a factor of 1 added to each colour's count of misses (and of misses expected): the weight of
three hidden dice. Set at 30 when misses were counted per reading (a hidden die stays hidden for ten readings or
so); counted when they begin (:meth:`Counts.miss_rates`), 30 weighed as thirty dice and pulled the factors nearer
1 (grey 1.13 against 1.66 now, green 1.05 against 1.20, black 1.02 against 1.12). The model refitted from the
same counts referees the 30 saved benchmark games exactly as before (``bench/replay_all.py``: 37 of 42 rounds,
250 of 252 casinos, the same alerts)."""

EXTRA_FLOOR = 0.005
"""The least P(a die read that is not there) shipped, whatever the rendered games measure. Rendered tables show
a camera's stray boxes far more rarely than real photos do: 2 boxes on no die for 1,793 dice on stills of the
built-in game (0.11 %) against 32 for 1,384 on the real val photos (2.3 %), and through the live path's
flicker and weak-box rules the rendered games gave 13 for 39,339 dice read (0.03 %, December 2026). Priced
at that, a die read twice costs 8 nats and a traced recovery (a die read twice on a crowded casino taken for a
player's last roll, Royale main game 5 players, seeds 417 and 420) is lost; 0.5 %, what the live path measured
before those rules, is kept as the floor: the measured count stays in the model's source."""

PIP_PRIOR = np.array([[0.5 if abs(i - j) == 1 else 0.05 for j in range(6)] for i in range(6)])
"""Pseudo-counts for the pip table: faces one pip apart are the confusions seen on real dice (2-3, 4-5, 5-6
at a slant, the die reader's audit), so a face never seen misread leans towards its neighbours."""


class _Recorder:
    """Stands in for the referee: keeps the settled readings, and holds the true state for the pipeline."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.snapshots: list[TableSnapshot] = []

    def observe(self, snapshot: TableSnapshot) -> list[object]:
        self.snapshots.append(snapshot)
        return []


def _non_decreasing_from(start: int, missed: list[int], present: list[int]) -> tuple[float, ...]:
    """Add-one miss rates per bin, made non-decreasing from bin ``start`` on.

    From ``start`` on, adjacent bins that fall are pooled until none does, and a bin where no die was
    measured takes the rate of the bin before it (nothing says it is higher).

    Example:
        >>> [round(p, 2) for p in _non_decreasing_from(1, [1, 8, 2, 30, 0], [10, 40, 40, 60, 0])]
        [0.17, 0.13, 0.13, 0.5, 0.5]
    """
    rates = [(m + 1) / (n + 2) for m, n in zip(missed, present, strict=True)]
    blocks: list[list[int]] = []  # [missed, present, bins] pooled, bins from ``start`` on
    for m, n in zip(missed[start:], present[start:], strict=True):
        if not n and blocks:
            blocks[-1][2] += 1
            continue
        blocks.append([m, n, 1])
        while len(blocks) > 1 and (blocks[-2][0] + 1) / (blocks[-2][1] + 2) > (blocks[-1][0] + 1) / (blocks[-1][1] + 2):
            last = blocks.pop()
            blocks[-1] = [blocks[-1][0] + last[0], blocks[-1][1] + last[1], blocks[-1][2] + last[2]]
    pooled = [(m + 1) / (n + 2) for m, n, count in blocks for _ in range(count)]
    return tuple(rates[:start] + pooled)


def _look(die: DieReading) -> str:
    """How a die looks to the reader, as the miss counts are keyed: its colour and face ("white 1")."""
    return f"{die.colour.value} {die.pips}"


class Counts:
    """What was read against what lay there."""

    def __init__(self) -> None:
        self.pips = np.zeros((6, 6), np.int64)
        self.colour: Counter[tuple[str, str]] = Counter()
        self.big: Counter[tuple[bool, bool]] = Counter()
        self.missed: Counter[str] = Counter()
        self.present: Counter[str] = Counter()
        self.missed_look: Counter[str] = Counter()
        """Dice not read by how they look and where they lay ("white 1|casino3": colour, face, crowd)."""
        self.present_look: Counter[str] = Counter()
        self.stay: Counter[str] = Counter()
        """What became of dice that lay unmoved from one reading to the next, by what they were then."""
        self.held_look: Counter[str] = Counter()
        """Of ``present_look``, the dice missed at the reading before (unmoved since): no miss can begin on them."""
        self.held_missed_look: Counter[str] = Counter()
        """Of ``missed_look``, the dice missed at the reading before too: a miss going on, not one beginning."""
        self.phantom: Counter[str] = Counter()
        """What became of each die read on a casino that was not there, at the next reading, followed by its
        track: read again as it was ("same"), with another face ("face"), in another colour of its size
        ("colour"), in another size ("size"), or not read ("gone"). The interpreter's prices for a phantom
        read on (``referee.interpret.table.PHANTOM_FACE_COST``, ``PHANTOM_COLOUR_COST``) are checked on them."""
        self.extra = 0
        self.read = 0

    def add(self, zone: int, truth: list[DieReading], read: list[DieReading],
            was_missed: list[bool | None] | None = None, unmatched: list[DieReading] | None = None,
            ) -> list[bool]:  # fmt: skip
        """One zone of one reading: exact matches first, then same colour, then same face, then any.

        ``was_missed`` says of each true die whether it was missed at the reading before, when it lay
        there unmoved then (None: it arrived since). The dice read then are matched first and those
        missed then last, so that among dice that look alike a die stays hidden rather than the
        misses hopping from die to die; the dice that stayed are counted in ``stay`` by what became
        of them ("missed->missed", "read->missed", ...). Returns, per true die, whether it was missed;
        the dice read that match none are added to ``unmatched``.
        """
        crowd = "tray" if zone == 0 else f"casino{min(len(truth) // CROWD_WIDTH, CROWD_BINS - 1)}"
        self.present[crowd] += len(truth)
        self.present_look.update(f"{_look(t)}|{crowd}" for t in truth)
        self.read += len(read)
        before = was_missed or [None] * len(truth)
        left = sorted(range(len(truth)), key=lambda i: {False: 0, None: 1, True: 2}[before[i]])
        read = list(read)
        for same in (
            lambda t, r: (t.colour, t.pips, t.big) == (r.colour, r.pips, r.big),
            lambda t, r: t.colour == r.colour,
            lambda t, r: t.pips == r.pips,
            lambda t, r: True,
        ):
            for i in list(left):
                t = truth[i]
                match = next((r for r in read if same(t, r)), None)
                if match is None:
                    continue
                left.remove(i)
                read.remove(match)
                if match.pips:
                    self.pips[t.pips - 1, match.pips - 1] += 1
                self.colour[t.colour.value, match.colour.value] += 1
                self.big[t.big, match.big] += 1
        self.missed[crowd] += len(left)
        self.missed_look.update(f"{_look(truth[i])}|{crowd}" for i in left)
        self.extra += len(read)
        if unmatched is not None:
            unmatched.extend(read)
        missed = [i in left for i in range(len(truth))]
        for i, (then, now) in enumerate(zip(before, missed, strict=True)):
            if then is not None:
                self.stay[f"{'missed' if then else 'read'}->{'missed' if now else 'read'}"] += 1
            if then:
                self.held_look[f"{_look(truth[i])}|{crowd}"] += 1
                self.held_missed_look[f"{_look(truth[i])}|{crowd}"] += int(now)
        return missed

    def follow(self, then: dict[int, tuple[int, DieReading]], now: dict[int, tuple[int, DieReading]]) -> None:
        """Counts what became of the phantoms ``then`` (track -> zone, die read) in the reading ``now``."""
        for track, (zone, was) in then.items():
            there, die = now.get(track, (None, None))
            if there != zone or die is None:
                kind = "gone"
            elif die.big != was.big:
                kind = "size"
            elif die.colour != was.colour:
                kind = "colour"
            else:
                kind = "face" if die.pips != was.pips else "same"
            self.phantom[kind] += 1

    def add_counts(self, other: Counts) -> None:
        """Adds the counts of another measurement to these."""
        self.pips += other.pips
        self.colour += other.colour
        self.big += other.big
        self.missed += other.missed
        self.present += other.present
        self.missed_look += other.missed_look
        self.present_look += other.present_look
        self.stay += other.stay
        self.held_look += other.held_look
        self.held_missed_look += other.held_missed_look
        self.phantom += other.phantom
        self.extra += other.extra
        self.read += other.read

    @classmethod
    def from_source(cls, source: dict[str, Any]) -> Counts:
        """The counts kept in a model's ``source`` (to fit it again without watching the games)."""
        counts = cls()
        counts.pips = np.array(source["pips_counts"], np.int64)
        counts.colour = Counter({tuple(k.split("->")): n for k, n in source["colour_counts"].items()})  # type: ignore[misc]
        counts.big = Counter({(k[0] == "T", k[1] == "T"): n for k, n in source["biggy_counts"].items()})
        counts.missed = Counter(source["missed"])
        counts.present = Counter(source["present"])
        counts.missed_look = Counter(source.get("missed_look", {}))
        counts.present_look = Counter(source.get("present_look", {}))
        counts.stay = Counter(source.get("stay", {}))
        counts.held_look = Counter(source.get("held_look", {}))
        counts.held_missed_look = Counter(source.get("held_missed_look", {}))
        counts.phantom = Counter(source.get("phantom", {}))
        counts.extra, counts.read = int(source["extra"]), int(source["dice_read"])
        return counts

    def model(self, source: dict[str, Any]) -> ObservationModel:
        """The counts as probabilities (add-one smoothing; a colour pair never confused gets the floor)."""
        pips = (self.pips + PIP_PRIOR) / (self.pips + PIP_PRIOR).sum(axis=1, keepdims=True)
        trues = sorted({t for t, _ in self.colour})
        total = {t: sum(n for (a, _), n in self.colour.items() if a == t) for t in trues}
        floor = 1.0 / (sum(total.values()) + 1)
        colour = {t: {r: n / (total[t] + 1) for (a, r), n in self.colour.items() if a == t} for t in trues}
        big_n = self.big[True, True] + self.big[True, False]
        normal_n = self.big[False, True] + self.big[False, False]
        miss_tray, miss_casino, factors = self.miss_rates()
        return ObservationModel(
            tuple(tuple(float(p) for p in row) for row in pips),
            colour,
            floor,
            (self.big[True, True] + 1) / (big_n + 2),
            (self.big[False, True] + 1) / (normal_n + 2),
            miss_tray,
            miss_casino,
            CROWD_WIDTH,
            max((self.extra + 1) / (self.read + 2), EXTRA_FLOOR),
            factors,
            self.stay_rates(),
            source,
        )

    def stay_rates(self) -> tuple[float, float] | None:
        """P(missed | missed at the reading before) and P(missed | read at the reading before).

        For dice that did not move (add-one); None where no such dice were counted.
        """
        stay = self.stay
        if not stay:
            return None
        hidden = (stay["missed->missed"] + 1) / (stay["missed->missed"] + stay["missed->read"] + 2)
        arises = (stay["read->missed"] + 1) / (stay["read->missed"] + stay["read->read"] + 2)
        return hidden, arises

    def miss_rates(self) -> tuple[float, tuple[float, ...], dict[str, float]]:
        """The miss rates in the tray and by crowd on casinos, and each colour's factor on them.

        The rates are of misses beginning: the interpreter charges a die's miss once, when it arises, and
        the ``stay`` rates while it goes on (``referee.interpret.table.TableCost``), so a die missed at the
        reading before and missed still (unmoved) is neither a miss nor a die at risk here. Counted per
        reading instead, a die hidden under others for twenty readings was twenty misses: on the rendered
        games of December 2026, 382 of 454 misses went on from the reading before, and the rates were six
        times what the interpreter's charge assumes. (Counts kept without ``held_look``, measured before,
        give the per-reading rates as then.)

        P(missed) = rate(zone, crowd) x factor(colour), fitted by turns: the rates from the misses
        over the dice present weighed by their colour's factor (add-one; casinos made non-decreasing
        from :data:`CROWDED` dice), then each colour's factor from its misses over the misses the
        rates expect of its dice, with :data:`COLOUR_PRIOR` pseudo-misses at a factor of 1. Fitted
        together, a colour missed often does not raise the rate of the crowds its dice lay in for
        every colour (on the nine tables, one lone white die unseen for 41 readings was all the misses
        of lone dice). By colour, not by face: a miss lasts while the die does not move, so a face's
        count is a few dice hidden for many readings (the counts by face are kept in the source all
        the same). A factor is at least 1: the rates already hold the misses that do not depend on
        the colour (two dice touching read as one), and a colour missed less than average is so on a
        few hidden dice, too few to make its misses much dearer than a misread face.
        """
        crowds = ["tray", *(f"casino{k}" for k in range(CROWD_BINS))]
        by_crowd: dict[str, Counter[str]] = {crowd: Counter() for crowd in crowds}
        missed_by: Counter[str] = Counter()
        missed = Counter(self.missed)  # misses beginning: those going on since the reading before taken out
        present = Counter(self.present)
        for key, n in self.held_missed_look.items():
            missed[key.split("|")[1]] -= n
        for key, n in self.held_look.items():
            present[key.split("|")[1]] -= n
        for key, n in (self.present_look - self.held_look).items():
            look, crowd = key.split("|")
            by_crowd[crowd][look.split()[0]] += n
        for key, n in (self.missed_look - self.held_missed_look).items():
            missed_by[key.split("|")[0].split()[0]] += n
        factors = {colour: 1.0 for counts in by_crowd.values() for colour in counts}
        for _ in range(FIT_ROUNDS):
            if factors:
                weighed = {c: sum(n * factors[colour] for colour, n in by_crowd[c].items()) for c in crowds}
            else:  # counts kept without colours (older models): every die alike
                weighed = {c: float(present[c]) for c in crowds}
            tray = (missed["tray"] + 1) / (weighed["tray"] + 2)
            casino = _non_decreasing_from(CROWDED // CROWD_WIDTH, [missed[c] for c in crowds[1:]],
                                          [weighed[c] for c in crowds[1:]])  # fmt: skip
            rates = dict(zip(crowds, (tray, *casino), strict=True))
            expected = {colour: sum(by_crowd[c][colour] * rates[c] for c in crowds) for colour in factors}
            factors = {colour: max(1.0, (missed_by[colour] + COLOUR_PRIOR) / (expected[colour] + COLOUR_PRIOR))
                       for colour in factors}  # fmt: skip
        return tray, casino, {colour: round(f, 4) for colour, f in sorted(factors.items())}


def measure(seeds: list[int], rounds: int, tables: dict[str, tuple[str, tuple[str, ...]]] = TABLES,
            detector: DiceDetector | None = None) -> tuple[Counts, int]:  # fmt: skip
    """The counts over the games of every table and seed; and how many readings they came from."""
    detector = detector or table_reader()
    counts = Counts()
    readings = 0
    for index, (rules, players) in enumerate(tables.values()):
        for seed in seeds:
            game = RenderedGame(seed=1000 * index + seed, players=players, rules=rules, rounds=rounds)
            recorder = _Recorder(new_game(find_ruleset(rules), list(players)))
            pipeline = TablePipeline(detector, recorder)  # type: ignore[arg-type]
            last_missed: dict[tuple[int, int], bool] = {}  # (track, zone) of each true die: missed the reading before
            last_phantoms: dict[int, tuple[int, DieReading]] = {}  # track -> (casino, die read) not there
            for frame in game.frames():
                recorder.state = game.span_of(frame.index).moment.state or recorder.state
                before = len(recorder.snapshots)
                pipeline.process(frame)
                if len(recorder.snapshots) == before or pipeline.calibration is None:
                    continue
                snapshot = recorder.snapshots[-1]
                truth = game.truth(frame.index)
                calibration = pipeline.calibration
                zones = calibration.zones_at(calibration.to_table(truth.centres)) if len(truth) else np.zeros(0, int)
                dice = [DieReading(Colour(str(c)), bool(b), int(p)) for c, b, p in
                        zip(truth.data["colour"], truth.data["biggy"], truth.data["pips"], strict=True)]  # fmt: skip
                read = {0: list(snapshot.tray), **{n: list(d) for n, d in enumerate(snapshot.casinos, start=1)}}
                tracks = [(int(t), int(z)) for t, z in zip(truth.data["track"], zones, strict=True)]
                status: dict[tuple[int, int], bool] = {}
                phantoms: dict[int, tuple[int, DieReading]] = {}
                for zone in range(7):
                    here = [k for k, z in enumerate(zones) if z == zone]
                    was = [last_missed.get(tracks[k]) for k in here]
                    unmatched: list[DieReading] = []
                    missed = counts.add(zone, [dice[k] for k in here], read[zone], was, unmatched)
                    status.update(zip((tracks[k] for k in here), missed, strict=True))
                    phantoms.update((die.track, (zone, die)) for die in unmatched if zone and die.track >= 0)
                counts.follow(last_phantoms, phantoms)
                last_missed, last_phantoms = status, phantoms
                readings += 1
            print(json.dumps({"rules": rules, "players": players, "seed": 1000 * index + seed, "readings": readings}),
                  flush=True)  # fmt: skip
    return counts, readings


def main() -> None:
    """Measures the model and writes it (see the module's description)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[901, 902])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--out", type=Path, default=HERE / "observation.json")
    parser.add_argument("--tables", choices=sorted(TABLE_SETS), default="las-vegas", help="the tables watched: "
                        "the nine Las Vegas benchmark tables, or Royale's main game with a black player")  # fmt: skip
    parser.add_argument("--models", type=Path, help="measure the reader in this folder (dice_detector/ and "
                        "die_reader/: a candidate) instead of the shipped one")  # fmt: skip
    parser.add_argument("--refit", action="store_true", help="fit the model again from the counts kept in --out "
                        "(no games watched)")  # fmt: skip
    parser.add_argument("--counts", type=Path, nargs="+", metavar="MODEL", help="fit the model from the counts "
                        "kept in these models, summed (measurements of other seeds run apart), into --out")  # fmt: skip
    args = parser.parse_args()
    if args.refit or args.counts:
        sources = [json.loads(path.read_text())["source"] for path in args.counts or [args.out]]
        counts = Counts()
        for one in sources:
            counts.add_counts(Counts.from_source(one))
        weights = [one.get("weights") or {} for one in sources]
        if any(w != weights[0] for w in weights):
            parser.error("these counts were measured for different weights: they cannot be summed")
        names = list(dict.fromkeys(name for one in sources for name in one.get("tables", TABLES)))  # older: Las Vegas's
        source = _source(counts, [s for one in sources for s in one["seeds"]], sources[0]["rounds_per_game"],
                         sum(one["readings"] for one in sources), weights[0], names)  # fmt: skip
        args.out.write_text(json.dumps(counts.model(source).to_json(), indent=1) + "\n")
        return
    model = measure_reader(args.models or MODELS, {args.tables: tuple(args.seeds)}, args.rounds)
    args.out.write_text(json.dumps(model.to_json(), indent=1) + "\n")
    print(json.dumps({k: v for k, v in model.source.items() if k != "pips_counts"}))


SHIPPED_SEEDS = {"las-vegas": (901, 902), "royale": (901, 902, 903, 904)}
"""The seeds of the tables each shipped model is measured on (``measure_reader``): games kept for this alone."""


def measure_reader(models: Path = MODELS, seeds: dict[str, tuple[int, ...]] | None = None, rounds: int = 1,
                   ) -> ObservationModel:  # fmt: skip
    """The observation model of the reader in ``models``, measured as the shipped one is.

    Every table of each set of ``seeds`` (by default :data:`SHIPPED_SEEDS`: the nine Las Vegas tables and
    Royale's main game with 4 and 5 players) is watched and the counts summed
    (``python -m models.dice_detector.evaluate --observation`` writes it beside the weights).
    """
    seeds = SHIPPED_SEEDS if seeds is None else seeds
    detector = table_reader(models)
    counts, readings, watched, names = Counts(), 0, [], []
    for name, chosen in seeds.items():
        tables = TABLE_SETS[name]
        part, read = measure(list(chosen), rounds, tables, detector)
        counts.add_counts(part)
        readings += read
        watched += [1000 * k + s for k in range(len(tables)) for s in chosen]
        names += list(tables)
    return counts.model(_source(counts, watched, rounds, readings, weights_digest(models), names))


def _source(counts: Counts, seeds: list[int], rounds: int, readings: int, weights: dict[str, str] | None = None,
            tables: list[str] | None = None) -> dict[str, Any]:  # fmt: skip
    """What a model keeps of how it was measured: the counts themselves, to fit it again, and the reader's weights.

    ``tables``: the names of the tables watched (``TABLES``' by default).
    """
    tables = tables or list(TABLES)
    watched = "the nine benchmark tables" if tables == list(TABLES) else ", ".join(tables)
    return {
        "measured": True,
        "how": f"python -m models.observation: rendered games of {watched}, the shipped reader "
        "through vision.pipeline.TablePipeline, every settled reading against the rendered dice, zone by zone",
        "weights": weights or {},
        "tables": tables,
        "detector_confidence": TABLE_CONFIDENCE,
        "seeds": seeds,
        "rounds_per_game": rounds,
        "readings": readings,
        "dice_present": sum(counts.present.values()),
        "dice_read": counts.read,
        "missed": dict(counts.missed),
        "extra": counts.extra,
        "extra_floor": EXTRA_FLOOR,
        "colour_counts": {f"{t}->{r}": n for (t, r), n in sorted(counts.colour.items())},
        "pips_counts": counts.pips.tolist(),
        "present": dict(counts.present),
        "missed_look": dict(sorted(counts.missed_look.items())),
        "present_look": dict(sorted(counts.present_look.items())),
        "stay": dict(sorted(counts.stay.items())),
        "held_look": dict(sorted(counts.held_look.items())),
        "held_missed_look": dict(sorted(counts.held_missed_look.items())),
        "phantom": dict(sorted(counts.phantom.items())),
        "biggy_counts": {f"{'T' if t else 'F'}{'T' if r else 'F'}": n for (t, r), n in counts.big.items()},
    }


if __name__ == "__main__":
    main()
