"""``devil takeback``: a seat asks to take back its last command; the others answer, or the
referee decides (DESK-12, engine.desk.takeback).  Loaded by client.cli when named."""

from __future__ import annotations

import click

from .cmd_desk import _give
from .options import id_option, json_option


@click.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME",
              help="The seat asking or answering (with --server, a seat's token stands for "
                   "its seat; the referee's token decides).")
@click.option("--consent", is_flag=True, help="Another seat: consent to the open takeback.")
@click.option("--refuse", is_flag=True,
              help="Another seat: refuse it (the request is closed).")
@click.option("--allow", is_flag=True, help="The referee: allow it (with --reason).")
@click.option("--deny", is_flag=True, help="The referee: deny it (with --reason).")
@click.option("--reason", metavar="TEXT",
              help="Why the referee allows or denies it (recorded with the event).")
@id_option
@json_option
@click.pass_obj
def takeback(obj, game, as_name, consent, refuse, allow, deny, reason, command_id, as_json):
    """Take back a seat's last command: ask, answer, or decide (DESK-12).

    Without an answer flag, the seat (--as NAME) asks to take back its last command in
    force. Refused at once when another seat's (or the referee's) command followed it
    (DESK-12.2), or when that command drew, revealed or dealt (DESK-12.3: each game says which
    of its records do, docs/house-rules.md). Every other seat a person plays then answers with
    --consent or --refuse (DESK-12.4), or the referee decides with --allow or --deny and a
    --reason (DESK-12.5). Once granted, a `takeback_granted` record voids the command's
    records: they stay in the log, struck through, and the seat plays again (DESK-12.6).
    A request lapses when any game command follows it.

    \b
    Examples:
      devil takeback k3f9qz --as Ben                 (Ben asks: his last bet)
      devil takeback k3f9qz --as Anna --consent
      devil takeback k3f9qz --as Cleo --consent      (the last consent grants it)
      devil takeback k3f9qz --allow --reason "a misclick, the table agrees"
    """
    given = [name for name, on in (("consent", consent), ("refuse", refuse),
                                   ("allow", allow), ("deny", deny)) if on]
    if len(given) > 1:
        raise click.UsageError(f"give one answer, not --{' and --'.join(given)}")
    answer = given[0] if given else None
    if answer in ("allow", "deny"):
        if not reason:
            raise click.UsageError("the referee's decision needs a --reason (it is recorded)")
        command = {"type": "takeback_decision", "allowed": answer == "allow",
                   "reason": reason}
        if as_name is not None:
            command["player"] = as_name
        _give(obj, game, command, None, command_id, as_json)
        return
    if reason is not None:
        raise click.UsageError("--reason goes with the referee's --allow or --deny")
    if answer is None:
        command: dict = {"type": "takeback"}
    else:
        command = {"type": "takeback_answer", "consent": answer == "consent"}
    if as_name is None and not obj.server:
        raise click.UsageError("name the seat (--as NAME): a takeback is asked and answered "
                               "by the seats (DESK-12)")
    _give(obj, game, command, as_name, command_id, as_json)
