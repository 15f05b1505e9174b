"""Replay, verify and audit: the shared commands on recorded games (docs/tools.md).
Loaded by client.cli when named.

They take ``PATH|GAME``: an existing .devlog file (no store needed), else a game id (or a
unique part of one) in the local store.  ``audit`` runs the kind's own audit (the ``audit``
hook of its GameRules) and renders it with the kind's client part.
"""

from __future__ import annotations

import click

from engine.errors import UsageError

from .common import emit, json_option, renderer_for, source_path


# -- replay ------------------------------------------------------------------------------------
@click.command()
@click.argument("source", metavar="PATH|GAME")
@click.option("--as", "as_name", metavar="NAME",
              help="Show only what this player knew at each moment (default: the referee).")
@click.option("--to", "to_seq", type=click.IntRange(0), metavar="SEQ",
              help="Stop after this sequence number.")
@click.option("--step", is_flag=True, help="Wait for a key between events (q quits).")
@click.option("--events-only", is_flag=True, help="One line per event, without the table.")
@json_option
@click.pass_obj
def replay(obj, source, as_name, to_seq, step, events_only, as_json):
    """Walk a recorded game event by event, showing the table after each.

    Works on any .devlog file, without a store.  With --as, every event and every table is what
    that player saw at that moment: other players' bets stay sealed until they are revealed.
    """
    from engine.game import REFEREE
    from engine.replay import open_log, steps, view_at

    log = open_log(source_path(obj, source))
    names = log.names
    viewer = REFEREE
    if as_name is not None:
        if as_name not in names:
            raise UsageError(f"there is no player called {as_name!r} in this game "
                             f"(players: {', '.join(names)})")
        viewer = names.index(as_name)
    render = renderer_for(log.header.kind)
    to_map = log.rules.events.to_map
    out = []
    for item in steps(log, viewer, to_seq):
        view = view_at(log, item.state, viewer, item.record.seq)
        if as_json:
            out.append({"seq": item.record.seq, "event": to_map(item.event), "view": view})
            continue
        click.echo(f"#{item.record.seq:<5} {render.describe(item.event, names)}")
        if not events_only and view.get("phase") != "setup":  # no table before round 1
            click.echo(render.table(view, as_name))
            click.echo("")
        if step:
            click.echo("-- any key for the next event, q to quit --", err=True)
            key = click.getchar()
            if key in ("q", "Q", "\x03", "\x04"):
                break
    if as_json:
        emit({"game": log.header.game, "kind": log.header.kind, "as": as_name, "steps": out})


# -- verify ------------------------------------------------------------------------------------
@click.command()
@click.argument("source", metavar="PATH|GAME")
@click.option("--finished", "need_finished", is_flag=True,
              help="Also fail (exit 3) unless the game is finished: its last event ends it "
                   "(and reveals the seed).")
@json_option
@click.pass_context
def verify(ctx, source, need_finished, as_json):
    """Check a recorded game: format, hash chain, seed, and a strict re-fold.

    Every command is rebuilt from its events and decided again: it must give exactly the
    recorded events (every draw re-derived from the revealed seed, every payout from the
    rules).  Prints what holds, or the first bad record and why.  Exit 0 if it holds, 3 if not.

    \b
    Examples:
      devil verify replays/GAME.devlog
      devil verify k3f9qz --finished --json
    """
    from engine.replay import verify_path

    path = source_path(ctx.obj, source)
    result = verify_path(path)
    failed = not result.ok or (need_finished and not result.finished)
    if as_json:
        data = result.to_json()
        data["path"] = path
        emit(data)
    else:
        state = "finished" if result.finished else "in progress (not finished)"
        if result.ok:
            click.echo(f"OK  {path}: {result.kind} game {result.game}, {result.events} events, "
                       f"{state}")
            for check in result.checks:
                click.echo(f"  - {check}")
            if need_finished and not result.finished:
                click.echo("FAILED: the game is not finished (its end may have been cut off)")
        else:
            click.echo(f"BAD {path}: record {result.first_bad_seq}: {result.reason}")
            for check in result.checks:
                click.echo(f"  - {check}")
    if failed:
        ctx.exit(3)


# -- audit -------------------------------------------------------------------------------------
@click.command()
@click.argument("source", metavar="PATH|GAME")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Also write every transfer to FILE as CSV (round,seq,from,to,amount,rule).")
@json_option
@click.pass_context
def audit(ctx, source, csv_path, as_json):
    """Audit a recorded game with its kind's own checks (a game with a bank: its ledger).

    The ledger lists every bet, the highest total, every payout and loss with its rule id and
    payer, every pact payment and who covered it; each player's money from the start through
    every transfer; the most the bank was ever down.  Payouts are re-derived from the bets and
    draws: a recorded payout that differs is reported with its sequence number, and the exit
    code is 3.  A kind without an audit is a usage error (exit 2).

    \b
    Example:
      devil audit replays/GAME.devlog --csv ledger.csv
    """
    from engine.replay import open_log

    from .games import audit_renderer

    log = open_log(source_path(ctx.obj, source))
    rules = log.rules
    render = audit_renderer(rules.kind)
    if rules.audit is None or render is None:
        raise UsageError(f"{rules.title} ({rules.kind}) games have no audit; `devil verify` "
                         "checks any recorded game")
    result = rules.audit(log)
    if csv_path:
        with open(csv_path, "w", newline="") as handle:
            handle.write(render.csv(result))
    if as_json:
        emit(result.to_json())
    else:
        click.echo(render.text(result))
    if not result.ok:
        ctx.exit(3)
