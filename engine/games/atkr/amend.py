"""What of an Auf Teufel komm raus record the referee may amend (the ``amend`` hook, DESK-9;
docs/house-rules.md):

* a bet's ``amount`` (a bet typed wrong), in any game: the bet is decided again (ATKR-3.1);
* a physical game's reported coal (``coal``: 10, 20, 25, 50, 75, 100, or 0 / ``"devil"``)
  and who reported it (``reporter``): the coal must have been in the furnace (ATKR-9.3);
* nothing else: a stop has no field to amend, the seat that gave a command stays, and a
  digital draw is the furnace's (DESK-9.2: chance never rewinds, DESK-6).
"""

from __future__ import annotations

from ...errors import IllegalCommand
from . import commands as cmd

#: the fields each command may have amended, in a physical game and in a digital one
_AMENDABLE = {(cmd.Bet, True): {"amount"}, (cmd.Bet, False): {"amount"},
              (cmd.Draw, True): {"coal", "reporter"}, (cmd.Draw, False): set()}


def amend(state, command, fields: dict):
    """The command that replaces ``command`` (a bet or a draw the log records; ``state``: the
    game before it) with ``fields`` changed; IllegalCommand (DESK-9.2) for a field that may
    not change.  ``"devil"`` stands for the devil's 0, as at the command line."""
    fields = dict(fields)
    if fields.get("player", command.player) != command.player:
        raise IllegalCommand("DESK-9.2", f"the seat that gave a command stays "
                                         f"({command.player}): amend what it said, not who "
                                         "said it")
    fields.pop("player", None)
    allowed = _AMENDABLE.get((type(command), bool(state.physical)), set())
    if type(command) is cmd.Draw and not state.physical:
        raise IllegalCommand("DESK-9.2", "a digital draw is the furnace's, not a typing "
                                         "mistake: chance never rewinds (DESK-6), so it is "
                                         "not amended")
    wrong = sorted(set(fields) - allowed)
    if wrong:
        what = ", ".join(sorted(allowed)) or "nothing"
        raise IllegalCommand("DESK-9.2", f"a {command.TYPE} may have {what} amended, not "
                                         f"{', '.join(wrong)}")
    if isinstance(fields.get("coal"), str) and fields["coal"].lower() == "devil":
        fields["coal"] = 0
    return cmd.COMMANDS.from_map({**cmd.COMMANDS.to_map(command), **fields})
