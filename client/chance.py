"""``devil audit PATH... --chance``: the statistical audit of reported chance across the games
named (engine.chance_audit; docs/chance-audit.md), run on every core and printed as text
(or one JSON document with ``--json``)."""

from __future__ import annotations

import click


def run_chance(sources, jobs: int | None, alpha: float):
    """The chance audit (:class:`engine.chance_audit.ChanceAudit`) of ``sources``
    (client.cmd_tools.Source: .devlog files read on ``jobs`` cores, games of the local store
    in this process).  Tables: a tournament bundle's table numbers where a manifest lists the
    game (engine.archive.bundle_tables), else each game is its own table."""
    import sys

    from engine.archive import bundle_tables, chance_row, run
    from engine.chance_audit import audit

    paths = [source.path for source in sources if source.path is not None]
    with click.progressbar(length=len(sources), label=f"chance of {len(sources)} games",
                           file=sys.stderr) as bar:
        found = iter(run(chance_row, paths, jobs, on_row=lambda row: bar.update(1)))
        rows = []
        for source in sources:
            if source.path is not None:
                rows.append(next(found))
            else:
                rows.append(chance_row(source.label, source.data))
                bar.update(1)
    games = [row["chance"] for row in rows if row["chance"] is not None]
    result = audit(games, alpha, bundle_tables(paths))
    for row in rows:
        if row["chance"] is None:
            result.skipped.append((row["game"] or row["path"], row["reason"]))
    return result


def _p(value: float) -> str:
    return f"{value:.3g}"


def lines(result) -> list[str]:
    """The chance audit as text: a head line, each failing group's test with its heaviest
    draws, the smallest adjusted p-values, the games skipped and why, and the verdict (a line
    starting ``OK`` or ``FAILED``)."""
    tested = len(result.groups)
    out = [f"chance: {result.games} physical games, {result.draws} reported draws, "
           f"{tested} group tests corrected together (weighted Holm), alpha {result.alpha:g}"]
    for group in result.failed:
        out.append(f"  FAILS {group.family} {group.group!r}, {group.test}: observed "
                   f"{group.observed:g}, expected {group.expected:.1f} over {group.n} draws "
                   f"(z {group.z:+.2f}, p {_p(group.p)}{' exact' if group.exact else ''}, "
                   f"adjusted {_p(group.p_adjusted)})")
        for draw, weight in group.heaviest:
            reporter = draw.reporter if draw.reporter is not None else "not named"
            out.append(f"    game {draw.game} #{draw.seq}: {draw.seat} drew, {reporter} "
                       f"reported {draw.reported} (probability {draw.probability:.3f} of "
                       f"{draw.left} left; weighs {weight:+.3f})")
    passing = [group for group in result.groups if not group.failed][:3]
    for group in passing:
        out.append(f"  ok    {group.family} {group.group!r}, {group.test}: z {group.z:+.2f}, "
                   f"p {_p(group.p)}, adjusted {_p(group.p_adjusted)}")
    for game, reason in result.skipped:
        out.append(f"  skipped {game}: {reason}")
    if result.ok:
        out.append(f"OK: chance: no group fails at alpha {result.alpha:g} after correction")
    else:
        names = ", ".join(f"{g.family} {g.group!r} ({g.test})" for g in result.failed)
        out.append(f"FAILED: chance: {len(result.failed)} group test(s) fail at alpha "
                   f"{result.alpha:g} after correction: {names}")
    return out
