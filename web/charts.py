"""Server-side SVG charts (no JavaScript library, no CDN: the page works offline)."""

from __future__ import annotations

import itertools
from html import escape

from referee import GameState, RoundScored

__all__ = ["money_chart_svg"]

_INK = {"white": "#999999", "yellow": "#d4b000", "grey": "#777777", "black": "#222222"}


def money_chart_svg(states: list[GameState], names: dict[str, str], width: int = 560, height: int = 260) -> str:
    """Each player's money after every settled round, as a line chart (an SVG document)."""
    if not states:
        return '<svg xmlns="http://www.w3.org/2000/svg"/>'
    players = [str(p) for p in states[0].players]
    rows = [{p: 0 for p in players}]
    for before, after in itertools.pairwise(states):
        newest = after.recent(1)
        if newest and isinstance(newest[0], RoundScored) and before is not after:
            rows.append({str(p): m for p, m in after.money().items()})
    top = max(max(row.values()) for row in rows) or 1
    left, right, upper, lower = 70, 110, 20, 40
    plot_w, plot_h = width - left - right, height - upper - lower
    rounds = max(len(rows) - 1, 1)

    def x(i: int) -> float:
        return left + plot_w * i / rounds

    def y(money: int) -> float:
        return upper + plot_h * (1 - money / top)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>']  # fmt: skip
    for k in range(5):
        money = top * k / 4
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(int(money)):.1f}" y2="{y(int(money)):.1f}" '
                     'stroke="#ddd"/>')  # fmt: skip
        parts.append(f'<text x="{left - 6}" y="{y(int(money)) + 4:.1f}" text-anchor="end">${money / 1000:,.0f}k</text>')
    for i in range(len(rows)):
        parts.append(f'<text x="{x(i):.1f}" y="{height - lower + 18}" text-anchor="middle">'
                     f'{"start" if i == 0 else f"round {i}"}</text>')  # fmt: skip
    for player in players:
        colour = _INK.get(player, player)
        points = " ".join(f"{x(i):.1f},{y(row[player]):.1f}" for i, row in enumerate(rows))
        parts.append(f'<polyline fill="none" stroke="{escape(colour)}" stroke-width="3" points="{points}"/>')
        last = rows[-1][player]
        label = escape(names.get(player, player))
        parts.append(f'<text x="{x(len(rows) - 1) + 8:.1f}" y="{y(last) + 4:.1f}" fill="{escape(colour)}">'
                     f"{label} ${last:,}</text>")  # fmt: skip
    parts.append("</svg>")
    return "\n".join(parts)
