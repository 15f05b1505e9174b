"""Check-in, forfeits and the organiser's overrides as rules of the tournament stream (TOUR-7;
docs/tournaments.md, "No-shows, forfeits and overrides").

Pure like :mod:`engine.tournament.rules`, which dispatches here: :func:`decide` checks one of
the commands of :mod:`engine.tournament.noshow_events` against the stream's state and returns
its events (or raises IllegalCommand naming the TOUR-7.m rule, UsageError); :func:`apply`
applies one of its events.  What a table's game says (has it a command yet?) is checked by the
organiser (:mod:`engine.tournament.noshow_ops`) before a command is submitted: no I/O here.

* TOUR-7.1 check-in: with ``check_in`` set at creation, only players checked in for a round
  are paired in it (:func:`pool`); a check-in counts for one round (each round needs its own);
  a player not checked in is not paired and scores nothing that round (no bye points).
* TOUR-7.2 forfeit, table made again: when the table's game has no command yet and the game
  seats one player fewer, the table is made again without the player.
* TOUR-7.3 forfeit, seat played by a bot: otherwise the seat is handed to a bot in the game's
  log (DESK-7).  Either way the player takes the points of the last place of the table as it
  was paired (:func:`forfeit_points`), the others are placed among themselves by the game, and
  the player is dropped from the later rounds.
* TOUR-7.4 swap and TOUR-7.5 unpair: before any of the tables' games has a command.
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import IllegalCommand, UsageError
from . import events as ev
from . import noshow_events as nv
from .checks import check_reason
from .standings import scale_at, table_points

TYPES = tuple(nv.COMMAND_CLASSES)
EVENT_TYPES = tuple(nv.EVENT_CLASSES)


def pool(state, round_: int, active: list[str]) -> list[str]:
    """The players paired in round ``round_`` out of ``active`` (TOUR-7.1): all of them, or
    with check-in only those checked in for that round."""
    if not getattr(state.created, "check_in", False):
        return active
    present = set(state.checkins.get(round_, ()))
    return [p for p in active if p in present]


def _reason(text, rule: str, what: str) -> str:
    return check_reason(text, rule, f"{what} needs its reason (--reason): it is recorded")


def _open_round(state, rule: str, what: str) -> int:
    if state.round == 0 or state.closed == state.round:
        raise IllegalCommand(rule, f"no round is open: {what} is for the round being played")
    return state.round


def seat_of(state, round_: int, player: str, rule: str) -> int:
    """The table (from 1) ``player`` sits at in round ``round_``; IllegalCommand when none."""
    for number, table in enumerate(state.tables.get(round_, []), 1):
        if player in table.players:
            return number
    if player in state.byes.get(round_, []):
        hint = ("no seat to swap" if rule == "TOUR-7.4"
                else "no seat to give up (drop them from the next round instead)")
        raise IllegalCommand(rule, f"{player} has a bye in round {round_}: {hint}")
    forfeited = [table for (r, table), names in state.forfeits.items()
                 if r == round_ and player in names]
    if forfeited:
        raise IllegalCommand(rule, f"{player} already forfeited at table {forfeited[0]} of "
                             f"round {round_}")
    raise IllegalCommand(rule, f"{player} is not seated in round {round_}")


def _known(state, name, rule: str) -> str:
    """``name`` when registered; UnknownPlayer (a UsageError) citing ``rule`` otherwise."""
    from ..seats import seat_named

    if name not in state.joined:
        seat_named(list(state.joined), name, rule, where="this tournament", fold_case=False,
                   listing=f"{len(state.players)} registered; see `devil tournament standings`")
    return name


def decide(state, command) -> list:
    """The events of a TOUR-7 command (see the module doc), in a tournament not finished yet
    (rules.decide checks TOUR-5.3 first); never changes ``state``."""
    t = type(command)
    if t is nv.CheckIn:
        created = state.created
        if not created.check_in:
            raise IllegalCommand("TOUR-7.1", "this tournament pairs every active player: it was "
                                 "created without check-in (`tournament new --check-in`)")
        _known(state, command.player, "TOUR-7.1")
        round_ = state.round + 1  # the next round to be paired
        if round_ > created.rounds:
            raise IllegalCommand("TOUR-7.1", f"the tournament has {created.rounds} rounds: "
                                 "there is none left to check in for")
        if command.player not in state.active(round_, checked=False):
            raise IllegalCommand("TOUR-7.1", f"{command.player} does not play round {round_} "
                                 "(dropped, or registered for a later round)")
        if command.player in state.checkins.get(round_, ()):
            raise IllegalCommand("TOUR-7.1", f"{command.player} is checked in for round "
                                 f"{round_} already")
        return [nv.PlayerCheckedIn(player=command.player, round=round_)]
    if t is nv.Forfeit:
        return _forfeit(state, command)
    if t is nv.Swap:
        round_ = _open_round(state, "TOUR-7.4", "a swap")
        a, b = command.first, command.second
        _known(state, a, "TOUR-7.4")
        _known(state, b, "TOUR-7.4")
        if a == b:
            raise IllegalCommand("TOUR-7.4", "a swap needs two different players")
        ta, tb = seat_of(state, round_, a, "TOUR-7.4"), seat_of(state, round_, b, "TOUR-7.4")
        for number in sorted({ta, tb}):
            if (round_, number) in state.results:
                raise IllegalCommand("TOUR-7.4", f"table {number} of round {round_} has its "
                                     "result already: its seats are played")
        reason = _reason(command.reason, "TOUR-7.4", "a swap")
        return [nv.SeatsSwapped(round=round_, first=a, second=b, reason=reason)]
    if t is nv.Unpair:
        round_ = _open_round(state, "TOUR-7.5", "unpair")
        if command.round != round_:
            raise IllegalCommand("TOUR-7.5", f"only the last pairing (round {round_}) can be "
                                 f"undone, not round {command.round}'s")
        done = sorted(tb for (r, tb) in state.results if r == round_)
        if done:
            raise IllegalCommand("TOUR-7.5", f"round {round_} has results already (table(s) "
                                 f"{', '.join(map(str, done))}): it cannot be unpaired")
        if any(r == round_ for (r, _t) in state.forfeits):
            raise IllegalCommand("TOUR-7.5", f"a forfeit is recorded in round {round_}: it "
                                 "cannot be unpaired")
        reason = _reason(command.reason, "TOUR-7.5", "unpair")
        return [nv.RoundUnpaired(round=round_, reason=reason)]
    raise UsageError(f"not a tournament command: {t.__name__}")  # pragma: no cover


def _forfeit(state, command) -> list:
    from ..game import rules_for

    round_ = _open_round(state, "TOUR-7.2", "a forfeit")
    player = command.player
    _known(state, player, "TOUR-7.2")
    number = seat_of(state, round_, player, "TOUR-7.2")
    if (round_, number) in state.results:
        raise IllegalCommand("TOUR-7.2", f"table {number} of round {round_} has its result "
                             f"already: {player}'s game is played")
    reason = _reason(command.reason, "TOUR-7.2", "a forfeit")
    table = state.tables[round_][number - 1]
    if command.remake:
        least = max(1, rules_for(state.created.game).min_players)
        if len(table.players) - 1 < least:
            raise IllegalCommand("TOUR-7.2", f"table {number} cannot be made again with "
                                 f"{len(table.players) - 1} player(s): a "
                                 f"{state.created.game} game seats at least {least}")
        bot = ""
    else:
        if state.games.get((round_, number)) is None:
            raise IllegalCommand("TOUR-7.3", f"table {number} has no game attached: a bot plays "
                                 "a seat of a game (attach it first)")
        bot = command.bot if isinstance(command.bot, str) else ""
        if not bot:
            raise UsageError("name the bot that plays the seat")
    out: list = [nv.PlayerForfeited(round=round_, table=number, player=player, reason=reason,
                                    remade=bool(command.remake), bot=bot)]
    if player not in state.dropped:
        out.append(ev.PlayerDropped(player=player, round=round_ + 1, reason=f"forfeit: {reason}"))
    return out


def _detach(state, round_: int, number: int) -> None:
    game = state.games.pop((round_, number), None)
    if game is not None:
        state.attached.pop(game, None)


def apply(state, event) -> None:
    """Apply a TOUR-7 event to ``state`` (in place)."""
    t = type(event)
    if t is nv.PlayerCheckedIn:
        state.checkins.setdefault(event.round, []).append(event.player)
    elif t is nv.PlayerForfeited:
        key = (event.round, event.table)
        tables = state.tables[event.round] = list(state.tables[event.round])
        table = tables[event.table - 1]
        state.forfeits.setdefault(key, []).append(event.player)
        if event.remade:
            players = list(table.players)
            index = players.index(event.player)
            rest = [p for p in players if p != event.player]
            first = table.first
            if first == event.player:
                first = players[(index + 1) % len(players)]
                state.firsts[event.player] -= 1
                state.firsts[first] = state.firsts.get(first, 0) + 1
            tables[event.table - 1] = ev.PairedTable(players=rest, first=first)
            _detach(state, event.round, event.table)
            points = scale_at(state.created.points, len(players))
            state.adjustments.append(ev.PointsAdjusted(
                player=event.player, points=str(points), kind="forfeit",
                reason=f"forfeit at table {event.table} of round {event.round} (the last of "
                       f"{len(players)} places, TOUR-7.2): {event.reason}", round=event.round))
    elif t is nv.SeatsSwapped:
        tables = state.tables[event.round] = list(state.tables[event.round])
        swap = {event.first: event.second, event.second: event.first}
        for number, table in enumerate(tables, 1):
            if event.first in table.players or event.second in table.players:
                first = swap.get(table.first, table.first)
                if first != table.first:
                    state.firsts[table.first] -= 1
                    state.firsts[first] = state.firsts.get(first, 0) + 1
                tables[number - 1] = ev.PairedTable(
                    players=[swap.get(p, p) for p in table.players], first=first)
                _detach(state, event.round, number)
    elif t is nv.RoundUnpaired:
        round_ = event.round
        for number, table in enumerate(state.tables.pop(round_, []), 1):
            state.firsts[table.first] -= 1
            _detach(state, round_, number)
        state.byes.pop(round_, None)
        state.round = round_ - 1


def forfeit_points(state, round_: int, number: int, places: list[int], share: bool,
                   points: list[Fraction], own: list[int] | None, also=()) -> list[Fraction]:
    """The points of a table's seats when players at it forfeited to a bot (TOUR-7.3): each
    forfeiting player takes the last place's points (the game's own points: the table's
    lowest); the others are placed among themselves (a seat's place counts the other
    non-forfeiting seats placed before it, ties kept) and score by those places.  ``points``
    unchanged when nobody at the table forfeited.  ``also``: more names counted so, the seats
    a bot played to the end after the referee handed them over (TOUR-13.1)."""
    gone = [p for p in state.forfeits.get((round_, number), ())]
    gone += [p for p in also if p not in gone]
    names = state.tables[round_][number - 1].players
    seats = [i for i, name in enumerate(names) if name in gone]
    if not seats:
        return points
    n = len(names)
    if own is not None:
        low = min(Fraction(v) for v in own)
        return [low if i in seats else Fraction(own[i]) for i in range(n)]
    others = [i for i in range(n) if i not in seats]
    among = [1 + sum(1 for j in others if places[j] < places[i]) for i in others]
    scored = table_points(state.created.points, among, share)
    out = [Fraction(scale_at(state.created.points, n))] * n
    for i, value in zip(others, scored):
        out[i] = value
    return out


def command_for(first) -> object | None:
    """The command that gave a batch starting with ``first`` (a TOUR-7 event), or None."""
    t = type(first)
    if t is nv.PlayerCheckedIn:
        return nv.CheckIn(player=first.player)
    if t is nv.PlayerForfeited:
        return nv.Forfeit(player=first.player, reason=first.reason, remake=first.remade,
                          bot=first.bot)
    if t is nv.SeatsSwapped:
        return nv.Swap(first=first.first, second=first.second, reason=first.reason)
    if t is nv.RoundUnpaired:
        return nv.Unpair(round=first.round, reason=first.reason)
    return None


def view(state) -> dict:
    """What the tournament's view adds: ``check_in`` (the setting), ``checkins`` (round ->
    names), ``forfeits`` (``[{"round", "table", "players"}]``)."""
    return {"check_in": bool(getattr(state.created, "check_in", False)),
            "checkins": {str(r): list(p) for r, p in sorted(state.checkins.items())},
            "forfeits": [{"round": r, "table": tb, "players": list(p)}
                         for (r, tb), p in sorted(state.forfeits.items())]}
