"""The standings page of a tournament: one self-contained HTML file (``devil tournament
standings T --html FILE``) with each player's points by round drawn as an inline SVG chart
(issue 13).  No script, no external file."""

from __future__ import annotations

import html


def _chart(by_round: dict, rounds: int, top: float, big: float, width: int = 160,
           height: int = 36) -> str:
    """An SVG of one player's points per round (bars, on one scale for every player: ``big``
    is the most points anyone took in a round) and running total (line, scaled to ``top``, the
    highest total)."""
    if rounds <= 0:
        return ""
    step = width / rounds
    per_round = [float(by_round.get(str(r), 0)) for r in range(1, rounds + 1)]
    running, total = [], 0.0
    for value in per_round:
        total += value
        running.append(total)
    big = max(big, 1.0)
    parts = [f'<svg class="chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             f'role="img" aria-label="points by round: '
             f'{html.escape(", ".join(f"round {i}: {v:g}" for i, v in enumerate(per_round, 1)))}">']
    for index, value in enumerate(per_round):
        h = max(0.0, value) / big * (height - 4)
        x = index * step + 1
        parts.append(f'<rect x="{x:.1f}" y="{height - h:.1f}" width="{step - 2:.1f}" '
                     f'height="{h:.1f}" fill="#9ec5e8"><title>round {index + 1}: {value:g}'
                     '</title></rect>')
    scale = top if top > 0 else 1.0
    points = " ".join(f"{(i + 0.5) * step:.1f},"
                      f"{height - 2 - max(0.0, v) / scale * (height - 4):.1f}"
                      for i, v in enumerate(running))
    parts.append(f'<polyline points="{points}" fill="none" stroke="#1f4e79" stroke-width="1.5"/>')
    parts.append("</svg>")
    return "".join(parts)


def _tables(paired: list, link=None) -> list[str]:
    """The served page's list of every round's tables, each game linked to its replay page
    (``/games/{id}/replay``, engine.web.pages: it asks for a token, a seat's shows what that seat
    knew).  ``paired``: the tournament view's ``paired`` list; ``link(game) -> html``, when
    given, links each game instead (a published tournament's public spectator page)."""
    lines = ["<h2>Tables</h2>", "<table><thead><tr><th>round</th><th>table</th>"
             "<th class=player>players (seat order)</th><th class=player>game</th></tr>"
             "</thead><tbody>"]
    for round_view in paired:
        for number, table in enumerate(round_view.get("tables", []), 1):
            game = table.get("game")
            players = html.escape(", ".join(map(str, table.get("players", []))))
            cell = (link(game) if link is not None and game else
                    f'<a href="/games/{html.escape(game)}/replay">{html.escape(game)}</a>'
                    if game else "no game attached")
            lines.append(f"<tr><td>{round_view.get('round')}</td><td>{number}</td>"
                         f"<td class=player>{players}</td><td class=player>{cell}</td></tr>")
    lines.append("</tbody></table>")
    return lines


def page(data: dict, paired: list | None = None, link=None, tail: str = "") -> str:
    """The HTML page of ``data`` (``Organiser.standings``'s map).  ``paired`` (the served page
    only: the tournament view's rounds) adds every table with a link to its game's replay
    page; the offline file (`standings --html`) has no server to link to.  ``data["history"]``
    (engine.tournament.history.lines), when present, is shown under the standings; ``link``:
    see :func:`_tables`; ``tail``: HTML put last (the served page's live script)."""
    from .history import html_list

    measure = data["measure"]
    rounds = max([data.get("rounds") or 0, data.get("round") or 0])
    rows = data["standings"]
    top = max([float(r["points"]) for r in rows] + [1.0])
    big = max([abs(float(v)) for r in rows for v in r["by_round"].values()] + [1.0])
    title = html.escape(f"{data['name']}: standings after round {data['round']}")
    lines = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{title}</title>",
             "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
             "td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:right}"
             "td.player,th.player{text-align:left}tr.dropped{color:#888}</style></head><body>",
             f"<h1>{title}</h1>",
             f"<p>{html.escape(data['tournament'])} &middot; {html.escape(data['game'])} &middot; "
             f"{'finished' if data['finished'] else 'in progress'}. The chart shows each "
             "round's points (bars) and the running total (line).</p>",
             "<table><thead><tr><th>rank</th><th class=player>player</th><th>points</th>"
             "<th>played</th><th>byes</th><th>opponents' points</th><th>wins</th>"
             f"<th>{html.escape(measure)}</th><th>points by round</th></tr></thead><tbody>"]
    for row in rows:
        css = ' class="dropped"' if row["dropped"] else ""
        name = html.escape(row["player"]) + (" (dropped)" if row["dropped"] else "")
        lines.append(f"<tr{css}><td>{row['rank']}</td><td class=player>{name}</td>"
                     f"<td>{row['points']:g}</td><td>{row['played']}</td><td>{row['byes']}</td>"
                     f"<td>{row['opponents_points']:g}</td><td>{row['wins']}</td>"
                     f"<td>{row[measure]}</td>"
                     f"<td>{_chart(row['by_round'], rounds, top, big)}</td></tr>")
    lines.append("</tbody></table>")
    if data.get("history"):
        lines.append(html_list(data["history"]))
    if paired:
        lines.extend(_tables(paired, link))
    if tail:
        lines.append(tail)
    lines.append("</body></html>")
    return "\n".join(lines) + "\n"
