"""What of a Castle of the Devil record the referee may amend (the ``amend`` hook, DESK-9;
docs/house-rules.md): a command typed wrong is given again with other fields (a trade's
``to`` or ``item``, an attack's ``defender``, a support's ``side``, a choice's ``option``
...), and a physical game's reported card (a ``draw``'s ``item``, and its ``reporter``);
the new command is decided like any (CASTLE-n.m).  The seat that gave it stays, and a
command stays the command it was (its type).  A digital game's commands that drew by chance
(the Clairvoyant's shuffle) are refused by the desk (DESK-9.2).
"""

from __future__ import annotations

from ...errors import IllegalCommand
from . import commands as cmd


def amend(state, command, fields: dict):
    """The command that replaces ``command`` with ``fields`` changed (``state``: the game
    before it); IllegalCommand (DESK-9.2) for another seat, another type or a field the
    command does not have; a value of the wrong type is a usage error (the codec's)."""
    fields = dict(fields)
    if fields.get("player", command.player) != command.player:
        raise IllegalCommand("DESK-9.2", f"the seat that gave a command stays "
                                         f"({command.player}): amend what it said, not who "
                                         "said it")
    if fields.get("type", command.TYPE) != command.TYPE:
        raise IllegalCommand("DESK-9.2", f"a {command.TYPE} stays a {command.TYPE}: to give "
                                         "another command instead, correct the game "
                                         "(`devil correct`) and give it")
    fields.pop("player", None)
    fields.pop("type", None)
    known = set(cmd.COMMANDS.to_map(command)) - {"type", "player"}
    if type(command) is cmd.Draw:
        known |= {"reporter"}
    wrong = sorted(set(fields) - known)
    if wrong:
        what = ", ".join(sorted(known)) or "nothing"
        raise IllegalCommand("DESK-9.2", f"a {command.TYPE} may have {what} amended, not "
                                         f"{', '.join(wrong)}")
    return cmd.COMMANDS.from_map({**cmd.COMMANDS.to_map(command), **fields})
