"""Benchmark of the rules engine: complete random games per second and time per turn, on one core.

Run with ``make bench`` (or ``python bench/bench_referee.py``); paste the table into the README.
Timings are the median of several repeats; each repeat plays the same seeded games.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from referee import DicePlaced, DiceRolled, apply, find_ruleset, new_game, preview
from referee.jsonio import settle_json
from referee.simulate import default_players, play, random_game


def _median_seconds(func, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        func()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench(games: int, repeats: int) -> dict[str, object]:
    rules = find_ruleset("las-vegas")
    players = default_players(4)
    seconds = _median_seconds(lambda: [random_game(rules, players, seed) for seed in range(games)], repeats)
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
    print(f"\nPython {result['python']}, {result['games']} games, median of {args.repeats} repeats.")


if __name__ == "__main__":
    main()
