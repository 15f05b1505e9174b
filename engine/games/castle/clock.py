"""Castle of the Devil's clock hooks (CLOCK-2, CASTLE-H2; engine.clock).

Whose clock runs: every seat the game waits for (engine.games.castle.state.waiting_for): the
active player on its turn, the receiver of an offer, each seat still choosing the sextant's
item, the fight's seat asked now ...; not a physical game's draw from the pile, which the
referee reports.

Its timeout action (CASTLE-H2) is the seat's least committal legal command: on its turn it
passes (CASTLE-8.1), offered an item it refuses (4.2), in a fight it supports neither side
(``neutral``, 6.3) and passes a window, declines an optional effect (``skip``, 4.6), takes
nothing where it may (6.8b, r2 rules); where it must choose (an item to give away, to pass
or to hand over, the winner's look or take, the Clairvoyant's order), the first legal command
in the order ``devil show`` lists them.
"""

from __future__ import annotations

from . import commands as cmd
from .state import State, waiting_for


def to_move(state: State) -> list[int]:
    """The seats whose clock runs in the referee's ``state`` (see the module doc)."""
    if state.over or not state.dealt:
        return []
    frame = state.top
    if frame is not None and frame["kind"] == "draw":
        return []  # the referee reports the card (CASTLE-7.1)
    return list(waiting_for(state))


def _preferred(command) -> bool:
    kind = type(command)
    return (kind in (cmd.Pass, cmd.Refuse)
            or (kind is cmd.Support and command.side == "neutral")
            or (kind is cmd.Choose and command.option == "skip")
            or (kind is cmd.Take and command.item is None))


def timeout(state: State, seat: int):
    """CASTLE-H2: the command a timeout applies for ``seat`` (see the module doc), or None
    when the seat has no legal command."""
    from .view import legal_commands

    legal = legal_commands(state, seat)
    for command in legal:
        if _preferred(command):
            return command
    return legal[0] if legal else None
