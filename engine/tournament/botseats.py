"""How a tournament counts a seat a bot played (TOUR-13; docs/tournaments.md).

A seat handed to a bot at the referee's desk (``devil replace GAME SEAT --bot``, DESK-7) for a
player who left, rather than through the organiser's forfeit (TOUR-7.3), and a seat the
referee gave back (``--back``, DESK-11):

* TOUR-13.1 a seat a bot still plays when the game ends scores as a forfeited seat does
  (TOUR-7.3): the player takes the points of the table's last place (with the game's own
  points, the table's lowest), the others are placed among themselves by the game, and the
  bot's win is not the player's (wins tiebreak).  Unlike a forfeit the player is not dropped:
  the desk's replacement says nothing of later rounds.
* TOUR-13.2 a seat given back before the game ended is its player's: the game's place
  counts as theirs (they played it on from where the bot left it), and their row is marked.
* TOUR-13.3 the result records both, read from the game's log (``bots``, ``returned``: the
  names), and the bundle's check compares them with the log again.

:func:`seat_fields` reads them from a log; :func:`marks` and :func:`notes` are what the
standings show.
"""

from __future__ import annotations


def seat_fields(log) -> dict:
    """``{"bots": [names] | None, "returned": [names] | None}`` of a finished game log
    (engine.replay.LoadedLog): the seats a bot plays at its end (TOUR-13.1) and those a bot
    played for a while before the referee gave them back (TOUR-13.2), in seat order; None for
    none (a result read before TOUR-13 has neither)."""
    desk, names = log.desk, log.names
    if desk is None:
        return {"bots": None, "returned": None}
    bots = [names[s] for s in sorted(desk.replaced) if 0 <= s < len(names)]
    back = [names[s] for s in sorted(getattr(desk, "returned", {}))
            if s not in desk.replaced and 0 <= s < len(names)]
    return {"bots": bots or None, "returned": back or None}


def gone(result_or_command) -> list[str]:
    """The names a bot played at the end of a table's game (TOUR-13.1), [] for none."""
    return list(getattr(result_or_command, "bots", None) or [])


def check(command, players: list[str]) -> None:
    """UsageError unless the command's ``bots`` and ``returned`` name the table's players."""
    from ..errors import UsageError

    for field in ("bots", "returned"):
        names = getattr(command, field, None)
        if names is not None and (not isinstance(names, list)
                                  or any(n not in players for n in names)):
            raise UsageError(f"the result's {field} must name the table's players")


def marks(state) -> dict[str, dict[str, list[int]]]:
    """player -> ``{"bot": [rounds], "returned": [rounds]}``: the rounds a bot played the
    player's seat to the end (TOUR-13.1) or for a while (TOUR-13.2); only players with one."""
    out: dict[str, dict[str, list[int]]] = {}
    for (round_, _table), result in sorted(state.results.items()):
        for key in ("bots", "returned"):
            for name in getattr(result, key, None) or []:
                rounds = out.setdefault(name, {}).setdefault(
                    "bot" if key == "bots" else "returned", [])
                if round_ not in rounds:
                    rounds.append(round_)
    return out


def notes(state) -> list[str]:
    """Sentences for under the standings: each table where a bot played a seat (TOUR-13)."""
    out = []
    forfeits = getattr(state, "forfeits", {})
    for (round_, table), result in sorted(state.results.items()):
        left = [n for n in gone(result) if n not in forfeits.get((round_, table), ())]
        if left:
            out.append(f"round {round_}, table {table}: a bot played {', '.join(left)} to the "
                       "end (they left): last place's points, no win (TOUR-13.1)")
        back = [n for n in getattr(result, "returned", None) or []
                if n not in forfeits.get((round_, table), ())]  # a forfeit is TOUR-7.3's
        if back:
            out.append(f"round {round_}, table {table}: a bot played {', '.join(back)} for a "
                       "while; given back, the result is theirs (TOUR-13.2)")
    return out
