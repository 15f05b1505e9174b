"""The referee's desk on the command line (engine.desk; docs/commands.md): correct, dispute,
ruling and disputes.  Loaded by client.cli when named.

Each is a command like any other (one event or two in the log, attributed and timed), given
locally (``--as NAME`` for a seat) or with ``--server`` (a seat's token for a dispute, the
referee's for a correction or a ruling).
"""

from __future__ import annotations

import click

from .context import token_seat
from .options import id_option, json_option
from .output import emit, renderer_for
from .submit import print_answer


def _give(obj, game: str, command: dict, as_name: str | None, command_id, as_json: bool
          ) -> dict:
    """Submit a desk ``command`` and print what it recorded (or the answer as JSON); the
    answer."""
    client = obj.client
    game = client.resolve(game)
    if as_name is None and obj.server and command["type"] in ("dispute", "takeback",
                                                              "takeback_answer"):
        as_name = token_seat(obj, game)
    answer = client.submit(game, command, as_name, command_id)
    print_answer(obj, game, answer, command_id, as_json)
    if command["type"] in ("correct", "ruling", "amend"):
        _warn_attached(obj, game, answer)
    return answer


def _warn_attached(obj, game: str, answer: dict) -> None:
    """Warn (on stderr) when ``game`` is attached to a tournament: its result is in use there,
    and `devil tournament amend` takes the corrected one (TOUR-9).  The service's answer
    carries the warnings (``warnings``); on a local store they are read from the store."""
    if obj.server:
        warnings = answer.get("warnings") or []
    else:
        from engine.tournament.adjudicate import attached_warnings
        from engine.tournament.organiser import Organiser

        warnings = attached_warnings(Organiser(obj.client.service), game)
    for line in warnings:
        click.echo(f"warning: {line}", err=True)


reason_option = click.option("--reason", required=True, metavar="TEXT",
                             help="Why (recorded with the event and shown with every record "
                                  "it voids).")


@click.command()
@click.argument("game")
@click.option("--to", "to_seq", type=int, required=True, metavar="SEQ",
              help="Return the game to its state just after this record.")
@reason_option
@click.option("--dispute", type=int, metavar="N",
              help="The dispute this correction answers (DESK-10.2).")
@click.option("--as", "as_name", metavar="NAME",
              help="Who gives it (only the referee may: a player is refused, exit 4).")
@id_option
@json_option
@click.pass_obj
def correct(obj, game, to_seq, reason, dispute, as_name, command_id, as_json):
    """Correct a game: return it to its state after record SEQ (the referee only).

    A `corrected` event is appended: the game's records after SEQ are voided. They stay in
    the log, shown struck through with the reason in `log`, `replay` and every view, and no
    longer count: the table is as it was after SEQ, and play goes on from there. A digital
    game's chance goes on too: the next draw is a new one, never the voided one again.
    SEQ must end a command, be in force and be neither the game's setup nor the last record;
    a finished digital game cannot be corrected (its seed is out). Rules: DESK-1 to DESK-3,
    DESK-6 (docs/house-rules.md).

    \b
    Examples:
      devil log k3f9qz                                   (find the record to go back to)
      devil correct k3f9qz --to 6 --reason "the second coal was a 20, not a 50"
      devil correct k3f9qz --to 6 --dispute 1 --reason "as Anna said (dispute 1)"
    """
    command: dict = {"type": "correct", "to": to_seq, "reason": reason}
    if dispute is not None:
        command["dispute"] = dispute
    if as_name is not None:
        command["player"] = as_name
    _give(obj, game, command, None, command_id, as_json)


@click.command()
@click.argument("game")
@click.argument("seq", type=int)
@click.argument("text")
@click.option("--as", "as_name", metavar="NAME",
              help="The player raising it (with --server, a seat's token stands for its seat).")
@id_option
@json_option
@click.pass_obj
def dispute(obj, game, seq, text, as_name, command_id, as_json):
    """Dispute record SEQ of a game: a seat's complaint, for the referee to rule on.

    The dispute is an event (numbered 1, 2, ... in the game) that every seat sees; the game
    goes on. The referee answers with `devil ruling`. Rule: DESK-4.

    \b
    Example:
      devil dispute k3f9qz 7 "I drew a 20, not a 50" --as Anna
    """
    command = {"type": "dispute", "seq": seq, "text": text}
    _give(obj, game, command, as_name, command_id, as_json)


@click.command()
@click.argument("game")
@click.argument("number", type=int, metavar="DISPUTE")
@click.option("--uphold/--reject", "upheld", default=None,
              help="Uphold the dispute, or reject it (one is required).")
@reason_option
@click.option("--to", "to_seq", type=int, metavar="SEQ",
              help="With --uphold, the remedy a correction: the game goes back to record SEQ "
                   "(as `devil correct`), in the same command.")
@click.option("--amend", "amend_", is_flag=True,
              help="With --uphold, the remedy an amendment: then `devil amend GAME SEQ ... "
                   "--dispute DISPUTE` (DESK-10).")
@click.option("--no-change", "no_change", is_flag=True,
              help="With --uphold, the remedy nothing: the complaint is right but nothing "
                   "changes (the reason says why; DESK-10).")
@click.option("--as", "as_name", metavar="NAME",
              help="Who gives it (only the referee may: a player is refused, exit 4).")
@id_option
@json_option
@click.pass_obj
def ruling(obj, game, number, upheld, reason, to_seq, amend_, no_change, as_name, command_id,
           as_json):
    """Rule on dispute DISPUTE of a game (the referee only): uphold or reject it.

    The ruling is an event. Upheld, it names its remedy (DESK-10.1): --to SEQ corrects the
    game (a `corrected` event follows in the same command), --amend says an amendment
    follows (`devil amend ... --dispute DISPUTE`, which cites it), --no-change that nothing
    changes, the reason saying why. A ruling is final. Rules: DESK-5, DESK-10.

    \b
    Examples:
      devil disputes k3f9qz
      devil ruling k3f9qz 1 --uphold --to 6 --reason "the coal was a 20, as Anna says"
      devil ruling k3f9qz 1 --uphold --amend --reason "the coal was a 20, as Anna says"
      devil ruling k3f9qz 3 --uphold --no-change --reason "right, but Ben played on"
      devil ruling k3f9qz 2 --reject --reason "the log shows the bet as placed"
    """
    if upheld is None:
        raise click.UsageError("say how you rule: --uphold or --reject")
    if to_seq is not None and not upheld:
        raise click.UsageError("--to corrects the game: it comes only with --uphold (DESK-5)")
    remedies = [name for name, given in (("--to", to_seq is not None), ("--amend", amend_),
                                         ("--no-change", no_change)) if given]
    if len(remedies) > 1:
        raise click.UsageError(f"one remedy: {' or '.join(remedies)}, not both (DESK-10.1)")
    if remedies and not upheld:
        raise click.UsageError(f"{remedies[0]} is a remedy: it comes only with --uphold "
                               "(DESK-10.1)")
    command = {"type": "ruling", "dispute": number, "upheld": upheld, "reason": reason,
               "to": to_seq}
    remedy = "correct" if to_seq is not None else "amend" if amend_ else \
        "none" if no_change else None
    if remedy is not None:
        command["remedy"] = remedy
    if as_name is not None:
        command["player"] = as_name
    _give(obj, game, command, None, command_id, as_json)


@click.command()
@click.argument("game")
@click.option("--all", "show_all", is_flag=True, help="Also the disputes already ruled.")
@click.option("--as", "as_name", metavar="NAME",
              help="Read as this player (default: the referee, or the token's seat).")
@json_option
@click.pass_obj
def disputes(obj, game, show_all, as_name, as_json):
    """List a game's open disputes (with --all, the ruled ones too).

    One line per dispute: its number, who raised it about which record (and what that record
    says), when, and the complaint; a ruled one also the ruling and, upheld, its remedy (a
    correction, an amendment (pending until one cites the dispute) or no change) with the
    records that answer it (DESK-10.3). With --json: a list of {dispute, raised, seq, seat,
    player, text, open, ruling, upheld, reason, to, remedy, remedy_text, answered}.

    \b
    Examples:
      devil disputes k3f9qz
      devil disputes k3f9qz --all --json
    """
    client = obj.client
    game = client.resolve(game)
    if as_name is None:
        as_name = token_seat(obj, game)
    view = client.view(game, as_name)
    cases = [case for case in view.get("disputes") or [] if show_all or case["open"]]
    if as_json:
        emit(cases)
        return
    if not cases:
        click.echo(f"{game}: no {'' if show_all else 'open '}disputes")
        return
    names = client.players(game)
    render = renderer_for(client.kind(game))
    entries = {entry["seq"]: entry for entry in client.events(game, as_name)}
    from .desk import entry_line

    for case in cases:
        raised = entries.get(case["raised"], {}).get("time", "")[:19].replace("T", " ")
        state = "open" if case["open"] else ("upheld" if case["upheld"] else "rejected") + \
            f" at #{case['ruling']}"
        click.echo(f"dispute {case['dispute']} ({state}): {case['player']}, #{case['raised']} "
                   f"{raised} UTC: {case['text']}")
        disputed = entries.get(case["seq"])
        if disputed is not None:
            click.echo(f"  about {entry_line(render, disputed, names)}")
        if not case["open"]:
            click.echo(f"  ruling: {case['reason']}")
            if case.get("remedy_text"):  # DESK-10: what the ruling did about it
                click.echo(f"  remedy: {case['remedy_text']}")


@click.command()
@click.argument("game")
@click.argument("seat", metavar="SEAT")
@click.option("--bot", "bot", metavar="KIND",
              help="The bot that plays the seat (`devil bots KIND` lists them).")
@click.option("--back", is_flag=True,
              help="Instead: give the seat back to its player; the bot stops (DESK-11).")
@click.option("--reason", required=True, metavar="TEXT",
              help="Why (recorded with the event; shown in the log).")
@click.option("--as", "as_name", metavar="NAME",
              help="Who gives it (only the referee may: a player is refused, exit 4).")
@id_option
@json_option
@click.pass_obj
def replace(obj, game, seat, bot, back, reason, as_name, command_id, as_json):
    """Hand SEAT (a player's name) to a bot from now on, or give it back (the referee only;
    DESK-7, DESK-11).

    A `seat_replaced` record is appended. From then on, whenever that seat may act, the
    service plays the bot's command as that seat, seeing only that seat's view, until a
    person must act or the game ends; if the seat may act at once, the bot plays at once.
    The bot's choices are drawn from the game id and the log's length, so the same log
    gives the same game again; `devil verify` re-decides every one of them. In a physical
    game the bot makes the seat's decisions; the referee still reports the draws.
    Refused once the game is over or when the seat is a bot's already.

    With --back instead of --bot the seat is its player's again (a `seat_returned` record):
    the bot stops, and the player plays on from the seat as the bot left it; refused when no
    bot plays the seat. A tournament counts such a seat by TOUR-13.

    \b
    Examples:
      devil replace k3f9qz Ben --bot cautious --reason "Ben had to leave"
      devil replace k3f9qz Ben --back --reason "Ben is back"
    """
    if back == (bot is not None):
        raise click.UsageError("say who plays the seat: --bot KIND (a bot takes it) or --back "
                               "(its player takes it back)")
    command = ({"type": "return_seat", "seat": seat, "reason": reason} if back else
               {"type": "replace_seat", "seat": seat, "bot": bot, "reason": reason})
    if as_name is not None:
        command["player"] = as_name
    _give(obj, game, command, None, command_id, as_json)
