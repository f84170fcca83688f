"""Referees every game's readings kept in folders again, and compares two versions of the interpreter.

For weighing a change to the interpreter on every saved game at once (the readings kept by
``bench/bench_pipeline.py --save-readings DIR``, any tables and rule sets mixed, in subfolders too): one
JSON line per game and way of answering the page (``alone``: the camera alone; Royale also ``passes+chips``,
the passes confirmed and the chips counted, and ``all``, every question answered), then a line of totals per
way. ``--against FILE`` (an earlier run's output) prints only the games whose rounds, casinos or alerts
changed, and both totals::

    python bench/replay_all.py saved/ > before.jsonl      # the referee as it was (git stash, a worktree)
    python bench/replay_all.py saved/ --against before.jsonl

The readings do not depend on the referee, so a replay gives what a full run would (frames/s apart).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bench_pipeline import bench_game, load_readings

WAYS: dict[str, dict[str, bool]] = {
    "alone": {},
    "passes+chips": {"confirm_passes": True, "count_chips": True},
    "all": {"confirm_passes": True, "count_chips": True, "answer_questions": True},
}
"""How the page's questions are answered (Las Vegas asks no pass and counts no chips: ``alone`` only)."""


def replay(path: Path) -> list[dict[str, Any]]:
    """One game's figures per way of answering the page."""
    saved = load_readings(path)
    ways = list(WAYS) if "royale" in saved["rules"] else ["alone"]
    rows = []
    for way in ways:
        result = bench_game(saved["seed"], saved["rounds"], "model", tuple(saved["players"]), rules=saved["rules"],
                            replay=path, **WAYS[way])  # fmt: skip
        rows.append({"game": str(path), "rules": saved["rules"], "players": saved["players"], "way": way,
                     "rounds_settled_right": result["rounds_settled_right"], "rounds": result["rounds"],
                     "casino_counts_right": result["casino_counts_right"],
                     "alerts_and_uncertain": result["alerts_and_uncertain"]})  # fmt: skip
    return rows


def totals(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per way: rounds right of rounds, casinos right of casinos, alerts and questions."""
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        total = out.setdefault(row["way"], {"games": 0, "rounds_right": 0, "rounds": 0, "casinos_right": 0,
                                            "casinos": 0, "alerts_and_uncertain": 0})  # fmt: skip
        right, of = map(int, row["casino_counts_right"].split("/"))
        total["games"] += 1
        total["rounds_right"] += row["rounds_settled_right"]
        total["rounds"] += row["rounds"]
        total["casinos_right"] += right
        total["casinos"] += of
        total["alerts_and_uncertain"] += row["alerts_and_uncertain"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", help="folders of saved readings (*.pkl, searched deeply)")
    parser.add_argument("--against", type=Path, help="an earlier run's output: print what changed")
    args = parser.parse_args()
    paths = sorted({p.resolve() for folder in args.folders for p in folder.rglob("*.pkl")})
    if not paths:
        parser.error(f"no saved readings (*.pkl) in {', '.join(map(str, args.folders))}")
    before: dict[tuple[str, str], dict[str, Any]] = {}
    if args.against:
        for line in args.against.read_text().splitlines():
            row = json.loads(line)
            if "game" in row:
                before[row["game"], row["way"]] = row
    rows = []
    keys = ("rounds_settled_right", "casino_counts_right", "alerts_and_uncertain")
    for path in paths:
        for row in replay(path):
            rows.append(row)
            old = before.get((row["game"], row["way"]))
            if not args.against:
                print(json.dumps(row), flush=True)
            elif old is None or any(old[k] != row[k] for k in keys):
                was = {k: old[k] for k in keys} if old else None
                print(json.dumps({**row, "before": was}), flush=True)
    now = totals(rows)
    if args.against:
        games = {row["game"] for row in rows}
        compared = [row for (game, _), row in before.items() if game in games]
        for way, total in totals(compared).items():
            print(json.dumps({"totals": way, "before": total, "now": now.get(way)}))
    else:
        for way, total in now.items():
            print(json.dumps({"totals": way, **total}))


if __name__ == "__main__":
    main()
