"""``devil amend``: the referee replaces one recorded fact (engine.desk.amend, DESK-9) and
the later commands are re-applied.  Loaded by client.cli when named.

The command names fields, never a game's rules: ``--coal``, ``--amount`` and ``--item`` are
fields the kinds' commands use (a reported coal, a bet, a reported card), ``--set
FIELD=VALUE`` any other; the kind's ``amend`` hook says which may change.
"""

from __future__ import annotations

import json

import click

from .options import id_option, json_option


def _value(text: str):
    """A ``--set`` value: JSON when it reads as JSON (a number, true, a list), else the
    text itself (a name)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _coal(text: str):
    return 0 if text.lower() == "devil" else _value(text)


@click.command()
@click.argument("game")
@click.argument("seq", type=int)
@click.option("--coal", metavar="VALUE",
              help="A physical draw's coal: 10, 20, 25, 50, 75, 100 or devil.")
@click.option("--amount", type=int, metavar="N", help="A bet's amount (a multiple of 10).")
@click.option("--item", metavar="CARD", help="A reported card (a physical game's draw).")
@click.option("--reporter", metavar="NAME", help="Who reported the amended draw.")
@click.option("--set", "sets", multiple=True, metavar="FIELD=VALUE",
              help="Any other field of the recorded command (repeatable), e.g. --set to=Cleo.")
@click.option("--reason", required=True, metavar="TEXT",
              help="Why (recorded with the amendment and shown with every record it voids).")
@click.option("--dispute", type=int, metavar="N",
              help="The dispute this amendment answers (upheld with --amend; DESK-10.2).")
@click.option("--as", "as_name", metavar="NAME",
              help="Who gives it (only the referee may: a player is refused, exit 4).")
@id_option
@json_option
@click.pass_obj
def amend(obj, game, seq, coal, amount, item, reporter, sets, reason, dispute, as_name,
          command_id, as_json):
    """Amend record SEQ of a game: replace one recorded fact (the referee only; DESK-9).

    The command that holds record SEQ is given again with the fields named, and every later
    command that is still legal is re-applied, in order, as new records (each citing the
    record it re-applies); those the rules now refuse stay voided, listed with their seat and
    the rule that refuses them. Nothing is erased: the old records stay in the log, struck
    through. A digital draw is never amended (chance never rewinds, DESK-6), a bet typed
    wrong is. `devil verify` re-decides the amendment and everything it re-applied.

    \b
    Examples:
      devil amend k3f9qz 9 --coal 50 --reason "it was a 50"
      devil amend k3f9qz 4 --amount 40 --reason "Ben said 40"
      devil amend c7x2pq 31 --item dagger --reason "the card drawn was the dagger"
      devil amend c7x2pq 18 --set to=Cleo --reason "the trade was offered to Cleo"
      devil amend k3f9qz 9 --coal 20 --dispute 1 --reason "as Anna said (dispute 1)"
    """
    fields: dict = {}
    if coal is not None:
        fields["coal"] = _coal(coal)
    if amount is not None:
        fields["amount"] = amount
    if item is not None:
        fields["item"] = item
    if reporter is not None:
        fields["reporter"] = reporter
    for pair in sets:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise click.UsageError(f"--set takes FIELD=VALUE, not {pair!r}")
        fields[name.strip()] = _value(text)
    if not fields:
        raise click.UsageError("name what the record should have said: --coal, --amount, "
                               "--item or --set FIELD=VALUE (DESK-9)")
    command: dict = {"type": "amend", "seq": seq, "fields": fields, "reason": reason,
                     "dispute": dispute}
    if as_name is not None:
        command["player"] = as_name
    from .cmd_desk import _give

    answer = _give(obj, game, command, None, command_id, as_json)
    if as_json or answer is None:
        return
    head = next((e for e in answer.get("events") or [] if e.get("type") == "amended"), None)
    if head is None:
        return
    names = answer.get("players") or []
    for of, seat in head["voided"]:
        who = names[seat] if 0 <= seat < len(names) else "the referee"
        why = head["why"][head["voided"].index([of, seat])]
        click.echo(f"  told {who}: the command at #{of} no longer fits and is void ({why})")
