"""Benchmark of the rules engine: complete random games per second and time per turn, on one core.

Run with ``make bench`` (or ``python bench/bench_referee.py``); paste the table into the README.
Timings are the median of several repeats; each repeat plays the same seeded games. When the
independent engine ``lasvegas`` 0.2.0 (PyPI, MIT; ``make bench`` installs it without its pinned
dependencies) is importable, its random 4-player games per second are measured in the same run,
repeats interleaved with ours, so the ratio holds on any machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from models.dice_detector.evaluate import cpu_description
from referee import DicePlaced, DiceRolled, apply, find_ruleset, new_game, preview
from referee.lasvegas.jsonio import settle_json
from referee.lasvegas.simulate import default_players, play, random_game


def _median_seconds(func, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        func()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _random_games(games: int) -> None:
    """The benchmark's workload: ``games`` seeded random 4-player games of Las Vegas."""
    rules, players = find_ruleset("las-vegas"), default_players(4)
    for seed in range(games):
        random_game(rules, players, seed)


def against_lasvegas(games: int, repeats: int) -> dict[str, object] | None:
    """Random 4-player games per second of ``lasvegas`` 0.2.0 and of ours, repeats interleaved."""
    try:
        import lasvegas  # type: ignore[import-not-found]
    except ImportError:
        return None

    def theirs() -> None:
        random.seed(0)
        for _ in range(games):
            lasvegas.Game([], num_players=4).run()

    times: dict[str, list[float]] = {"lasvegas": [], "dice-referee": []}
    for _ in range(repeats):
        for name, func in (("lasvegas", theirs), ("dice-referee", lambda: _random_games(games))):
            started = time.perf_counter()
            func()
            times[name].append(time.perf_counter() - started)
    rates = {name: games / statistics.median(t) for name, t in times.items()}
    return {
        "lasvegas_version": getattr(lasvegas, "__version__", "?"),
        "lasvegas_games_per_s": round(rates["lasvegas"], 1),
        "ours_games_per_s": round(rates["dice-referee"], 1),
        "ratio": round(rates["dice-referee"] / rates["lasvegas"], 2),
    }


def bench(games: int, repeats: int) -> dict[str, object]:
    rules = find_ruleset("las-vegas")
    players = default_players(4)
    seconds = _median_seconds(lambda: _random_games(games), repeats)
    histories = [random_game(rules, players, seed).history for seed in range(games)]
    events = sum(len(h) for h in histories)
    turns = sum(isinstance(e, DiceRolled) for h in histories for e in h)

    def replay_all() -> None:
        for history in histories:
            state = new_game(rules, players)
            for event in history:
                state = apply(state, event)

    replay_s = _median_seconds(replay_all, repeats)
    turn_events = [e for h in histories for e in h if isinstance(e, DiceRolled | DicePlaced)]
    mid_round = [s for _, s in play(rules, players, 1)][60]
    preview_s = _median_seconds(lambda: [preview(mid_round) for _ in range(2000)], repeats) / 2000
    casinos = [{"casino": c, "dice": {"red": c % 3, "blue": 1, "white": 1}, "banknotes": [10000 * (c + 3), 20000]}
               for c in range(1, 7)]  # fmt: skip
    table = {"neutral": ["white"], "casinos": casinos}
    settle_s = _median_seconds(lambda: [settle_json(table) for _ in range(1000)], repeats) / 1000
    return {
        "python": platform.python_version(),
        "processor": cpu_description(),
        "games": games,
        "games_per_s": round(games / seconds, 1),
        "ms_per_game": round(1000 * seconds / games, 3),
        "turns_per_game": round(turns / games, 1),
        "events_per_game": round(events / games, 1),
        "us_per_turn": round(1e6 * seconds / turns, 1),
        "us_per_event_replayed": round(1e6 * replay_s / events, 2),
        "us_per_turn_replayed": round(1e6 * replay_s * len(turn_events) / events / turns, 1),
        "us_per_preview": round(1e6 * preview_s, 1),
        "us_per_settle_json": round(1e6 * settle_s, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a Markdown table")
    args = parser.parse_args()
    result = bench(args.games, args.repeats)
    result["against_lasvegas"] = against_lasvegas(args.games, args.repeats)
    if args.json:
        print(json.dumps(result))
        return
    print("| measure | value |\n|---|---|")
    labels = {
        "games_per_s": "complete random 4-player games per second (play + apply, one core)",
        "ms_per_game": "ms per complete game",
        "turns_per_game": "turns (roll + placement) per game",
        "us_per_turn": "µs per turn in random play (roll drawn, placement chosen, both applied)",
        "us_per_event_replayed": "µs per event when replaying recorded games (apply only)",
        "us_per_turn_replayed": "µs per turn when replaying (roll + placement applied)",
        "us_per_preview": "µs per payout preview of a mid-round table",
        "us_per_settle_json": "µs per `settle` of a 6-casino JSON table",
    }
    for key, label in labels.items():
        print(f"| {label} | {result[key]} |")
    print(
        f"\nPython {result['python']} on {result['processor']}, {result['games']} games, "
        f"median of {args.repeats} repeats."
    )
    other = result["against_lasvegas"]
    if other:
        print(
            f"\nSame run, random 4-player games per second: dice-referee {other['ours_games_per_s']}, "
            f"lasvegas {other['lasvegas_version']} {other['lasvegas_games_per_s']} (ratio {other['ratio']})."
        )
    else:
        print("\n(lasvegas 0.2.0 is not installed: `pip install --no-deps lasvegas==0.2.0 tabulate tqdm` to compare)")


if __name__ == "__main__":
    main()
