"""A tournament as a decider (docs/tournaments.md; rule ids TOUR-n.m).

The same shape as a game (engine.game): ``setup(options)`` gives the first event,
``decide(state, command)`` checks a command and returns the facts it causes (or raises
IllegalCommand / UsageError, recording nothing), ``evolve`` applies one fact.  There is no
hidden chance: every draw comes from the public seed in ``tournament_created``, so
``devil verify`` re-decides every command, pairings included.  What a game's log says is
checked before a result is submitted (engine.tournament.organiser): the rules here do no I/O.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from ..errors import IllegalCommand, UsageError
from ..game import rules_for
from . import events as ev
from . import noshow
from . import duplicate, finals
from .pairing import repeats, seat, swiss
from .swiss import GROUPS, recorded as swiss_recorded
from .checks import check_open
from .settings import (  # noqa: F401 (the settings are read from here too)
    DEFAULT_POINTS, FORMATS, MAX_COLUMN, MAX_COLUMNS, MAX_PLAYERS, MAX_ROUNDS, MAX_VALUE, PER_TABLE,
    check_attributes, check_name, normal_options, setup)
from .standings import compute, fraction, table_points


@attrs.define
class TournamentState:
    """The fold of a tournament stream.

    ``created`` (the first event); ``players`` (registration order); ``joined``/``dropped``:
    name -> the first round they play / no longer play; ``round``: the last paired round;
    ``closed``: the last closed round; ``tables``/``byes``: round -> tables / bye names;
    ``games``: (round, table) -> game id; ``attached``: game id -> (round, table);
    ``results``: (round, table) -> ResultRecorded; ``adjustments``; ``finished``; ``firsts``:
    name -> games started (for balancing); ``attributes``: name -> the player's attributes
    (club, rating, ...; registration); ``checkins``: round -> names checked in (TOUR-7.1);
    ``forfeits``: (round, table) -> names who forfeited there (TOUR-7.2, 7.3);
    ``paired_at``: round -> when it was paired (ms, the
    round time's start); ``adjudicated``: (round, table) -> TableAdjudicated; ``amendments``:
    every ResultAmended, in order (engine.tournament.adjudicate, .amend)."""

    created: Any = None
    players: list = attrs.field(factory=list)
    joined: dict = attrs.field(factory=dict)
    dropped: dict = attrs.field(factory=dict)
    round: int = 0
    closed: int = 0
    tables: dict = attrs.field(factory=dict)
    byes: dict = attrs.field(factory=dict)
    games: dict = attrs.field(factory=dict)
    attached: dict = attrs.field(factory=dict)
    results: dict = attrs.field(factory=dict)
    adjustments: list = attrs.field(factory=list)
    finished: bool = False
    ranking: list = attrs.field(factory=list)
    firsts: dict = attrs.field(factory=dict)
    attributes: dict = attrs.field(factory=dict)
    #: the spectator link is open (TournamentPublished; TOUR-12.1)
    public: bool = False
    checkins: dict = attrs.field(factory=dict)
    forfeits: dict = attrs.field(factory=dict)
    #: round -> the commitment to its furnace seed / its revealed (seed, salt) (TOUR-11)
    furnaces: dict = attrs.field(factory=dict)
    revealed: dict = attrs.field(factory=dict)
    paired_at: dict = attrs.field(factory=dict)
    adjudicated: dict = attrs.field(factory=dict)
    amendments: list = attrs.field(factory=list)

    def active(self, round_: int, checked: bool = True) -> list[str]:
        """Players who play round ``round_`` (registered by then, not dropped), in
        registration order; with ``checked`` and a check-in tournament only those checked in
        for it (TOUR-7.1)."""
        out = [p for p in self.players if self.joined[p] <= round_
               and not (p in self.dropped and self.dropped[p] <= round_)]
        return noshow.pool(self, round_, out) if checked else out

    def places(self) -> dict[str, list[float]]:
        """name -> each earlier seat as a fraction of the way round its table (0 first)."""
        out: dict[str, list[float]] = {}
        for tables in self.tables.values():
            for table in tables:
                last = max(1, len(table.players) - 1)
                for index, name in enumerate(table.players):
                    out.setdefault(name, []).append(index / last)
        return out

    def met(self) -> dict[str, set]:
        """name -> everyone they sat at a table with."""
        out: dict[str, set] = {}
        for tables in self.tables.values():
            for table in tables:
                for name in table.players:
                    out.setdefault(name, set()).update(p for p in table.players if p != name)
        return out


def initial() -> TournamentState:
    return TournamentState()


# -- setup -----------------------------------------------------------------------------------
def evolve(state: TournamentState, event) -> TournamentState:
    """Apply one fact (in place)."""
    t = type(event)
    if t is ev.TournamentCreated:
        state.created = event
        state.players = list(event.players)
        state.joined = {p: 1 for p in event.players}
        state.attributes = {p: dict(a) for p, a in event.attributes.items()}
    elif t is ev.PlayerAdded:
        state.players.append(event.player)
        state.joined[event.player] = event.round
    elif t is ev.PlayerDropped:
        state.dropped[event.player] = event.round
    elif t is ev.RoundPaired:
        state.round = event.round
        state.tables[event.round] = list(event.tables)
        state.byes[event.round] = list(event.byes)
        if event.furnace:
            state.furnaces[event.round] = event.furnace
        for table in event.tables:
            state.firsts[table.first] = state.firsts.get(table.first, 0) + 1
        if event.at is not None:
            state.paired_at[event.round] = event.at
    elif t is ev.GameAttached:
        state.games[(event.round, event.table)] = event.game
        state.attached[event.game] = (event.round, event.table)
    elif t is ev.ResultRecorded:
        state.results[(event.round, event.table)] = event
    elif t is ev.RoundClosed:
        state.closed = event.round
        if event.furnace_salt:
            state.revealed[event.round] = (event.furnace_seed, event.furnace_salt)
    elif t is ev.PointsAdjusted:
        state.adjustments.append(event)
    elif t is ev.TournamentFinished:
        state.finished = True
        state.ranking = list(event.ranking)
    elif t is ev.TournamentPublished:
        state.public = event.public
    elif t in noshow.EVENT_TYPES:
        noshow.apply(state, event)
    elif t in (ev.TableAdjudicated, ev.ResultAmended):
        from .amend import evolve_late
        evolve_late(state, event)
    return state


# -- decide ----------------------------------------------------------------------------------
def _known(state: TournamentState, name: str, rule: str) -> str:
    from ..seats import seat_named

    if name not in state.joined:
        seat_named(list(state.joined), name, rule, where="this tournament", fold_case=False,
                   listing=f"{len(state.players)} registered; see `devil tournament standings`")
    return name


def _open(state: TournamentState) -> None:
    check_open(state)


def _table(state: TournamentState, round_: int, table: int, rule: str):
    if round_ != state.round or state.closed >= round_:
        open_ = "none is open" if state.closed == state.round else f"round {state.round} is"
        raise IllegalCommand(rule, f"round {round_} is not the open round ({open_})")
    tables = state.tables.get(round_, [])
    if not 1 <= table <= len(tables):
        raise IllegalCommand(rule, f"round {round_} has tables 1 to {len(tables)}, not {table}")
    return tables[table - 1]


def pairing(state: TournamentState, round_: int
            ) -> tuple[list[tuple[list[str], str]], list[str], int]:
    """The swiss pairing of round ``round_`` from ``state`` (see engine.tournament.pairing):
    ``([(seat order, first), ...], byes, repeats)``.  Raises IllegalCommand when the active
    players cannot fill a table."""
    created = state.created
    active = state.active(round_)
    met = state.met()
    if round_ == 1:
        from .standings import draw_key
        ranked = sorted(active, key=lambda p: draw_key(created.seed, "order", p))
        points: dict[str, Fraction | int] = {p: 0 for p in active}
    else:
        totals = compute(state)
        points = {t.player: t.points for t in totals}
        live = set(active)
        ranked = [t.player for t in totals if t.player in live]
    byes_had = {p: len([1 for names in state.byes.values() if p in names]) for p in active}
    if created.pairing == GROUPS:  # TOUR-2.5 to 2.9
        from .swiss import pair_state
        return pair_state(state, round_, ranked, points, met, byes_had)
    try:
        tables, byes = swiss(ranked, created.table_min, created.table_max, met, points, byes_had)
    except ValueError as exc:
        raise IllegalCommand("TOUR-2.1", str(exc)) from None
    seated = seat(tables, state.firsts, created.seed, round_, state.places())
    return seated, byes, repeats(tables, met)


def _fixed(state: TournamentState, round_: int, seating, byes) -> tuple[list, list[str], int]:
    created = state.created
    if not isinstance(seating, list) or not seating:
        raise UsageError("a fixed round needs its seating: tables of player names")
    active = state.active(round_)
    live = set(active)
    seen: dict[str, int] = {}
    out = []
    for number, table in enumerate(seating, 1):
        if not isinstance(table, list) or not all(isinstance(p, str) for p in table):
            raise UsageError(f"table {number} of the seating is not a list of names")
        if not created.table_min <= len(table) <= created.table_max:
            raise IllegalCommand("TOUR-2.2", f"table {number} seats {len(table)} players; tables "
                                 f"seat {created.table_min} to {created.table_max}")
        for name in table:
            _known(state, name, "TOUR-2.2")
            if name not in live:
                raise IllegalCommand("TOUR-2.2", f"{name} does not play round {round_} "
                                     "(dropped, or registered for a later round)")
            if name in seen:
                raise IllegalCommand("TOUR-2.2", f"{name} is seated at two tables of round "
                                     f"{round_} (tables {seen[name]} and {number})")
            seen[name] = number
        out.append((list(table), table[0]))
    byes = list(byes or [])
    for name in byes:
        _known(state, name, "TOUR-2.2")
        if name in seen:
            raise IllegalCommand("TOUR-2.2", f"{name} is seated at table {seen[name]} and "
                                 "given a bye in the same round")
    missing = [p for p in active if p not in seen and p not in byes]
    if missing:
        raise IllegalCommand("TOUR-2.2", f"the seating leaves out {', '.join(missing)}: seat "
                             "every active player once, or give them a bye")
    return out, byes, repeats([t for t, _ in out], state.met())


def decided(state: TournamentState, round_: int, table: int) -> str | None:
    """Why table ``table`` of round ``round_`` takes no other game (TOUR-4.3: its result is
    recorded already), or None."""
    result = state.results.get((round_, table))
    if result is None:
        return None
    return (f"table {table} of round {round_} has its result already, from {result.game}: a "
            "table's result is recorded once, from its own game")


def decide(state: TournamentState, command, chance=None) -> list:
    """The facts ``command`` causes (see the module doc).  Raises IllegalCommand (rule id
    TOUR-n.m), UnknownPlayer or UsageError; never changes ``state``."""
    if state.created is None:
        raise IllegalCommand("TOUR-1.1", "the tournament has not been created")
    created = state.created
    t = type(command)
    if t is ev.Add:
        _open(state)
        name = check_name(command.player)
        if name in state.joined:
            raise IllegalCommand("TOUR-1.1", f"{name} is already registered")
        if len(state.players) >= MAX_PLAYERS:
            raise IllegalCommand("TOUR-1.1", f"at most {MAX_PLAYERS} players")
        finals.check_add(state)
        return [ev.PlayerAdded(player=name, round=state.round + 1)]
    if t is ev.Drop:
        _open(state)
        _known(state, command.player, "TOUR-1.2")
        if command.player in state.dropped:
            raise IllegalCommand("TOUR-1.2", f"{command.player} has already dropped out")
        reason = command.reason.strip() if isinstance(command.reason, str) else ""
        return [ev.PlayerDropped(player=command.player, round=state.round + 1, reason=reason)]
    if t is ev.Pair:
        _open(state)
        round_ = command.round
        if state.closed != state.round:
            raise IllegalCommand("TOUR-5.1", f"round {state.round} is not closed yet: close it "
                                 "(every table's result recorded) before pairing the next")
        if round_ != state.round + 1:
            raise IllegalCommand("TOUR-5.1", f"the next round is {state.round + 1}, not {round_}")
        if round_ > finals.last_round(created):
            raise IllegalCommand("TOUR-5.1", f"the tournament has {created.rounds} rounds"
                                 + (" and a final" if finals.has_final(created) else ""))
        if finals.is_final(created, round_):
            if command.seating is not None or command.byes is not None:
                raise UsageError("the final is seated by the Swiss standings (TOUR-10.2): "
                                 "give no seating")
            seated, byes, count = finals.pairing(
                state, round_, [t.player for t in compute(state)], repeats)
        elif created.format == "swiss":
            if command.seating is not None or command.byes is not None:
                raise UsageError("a swiss round is paired by the rules; a seating is given only "
                                 "in the fixed format")
            seated, byes, count = pairing(state, round_)
        else:
            seated, byes, count = _fixed(state, round_, command.seating, command.byes)
        furnace = duplicate.check_pair(created, command.furnace)
        tables = [ev.PairedTable(players=players, first=first) for players, first in seated]
        return [ev.RoundPaired(round=round_, tables=tables, byes=byes, repeats=count,
                               furnace=furnace, at=command.at)]
    if t is ev.Attach:
        _open(state)
        _table(state, command.round, command.table, "TOUR-4.2")
        if command.game in state.attached:
            r, tb = state.attached[command.game]
            raise IllegalCommand("TOUR-4.2", f"{command.game} is already attached to table {tb} "
                                 f"of round {r}: a log counts once")
        taken = decided(state, command.round, command.table)
        if taken is not None:
            raise IllegalCommand("TOUR-4.3", taken)
        own = state.games.get((command.round, command.table))
        if own is not None:
            raise IllegalCommand("TOUR-4.3", f"table {command.table} of round {command.round} "
                                 f"already has its game {own}: a table's result is recorded "
                                 "once, from its own game")
        return [ev.GameAttached(round=command.round, table=command.table, game=command.game,
                                created=command.created)]
    if t is ev.RecordResult:
        _open(state)
        table = _table(state, command.round, command.table, "TOUR-4.3")
        if state.games.get((command.round, command.table)) != command.game:
            raise IllegalCommand("TOUR-4.3", f"{command.game} is not the game of table "
                                 f"{command.table} of round {command.round}")
        if (command.round, command.table) in state.results:
            raise IllegalCommand("TOUR-4.3", f"table {command.table} of round {command.round} "
                                 "has its result already")
        n = len(table.players)
        if (len(command.places) != n or len(command.values) != n
                or not all(1 <= p <= n for p in command.places)
                or any(w not in table.players for w in command.winners)
                or (command.points is not None and len(command.points) != n)):
            raise UsageError("the result does not fit the table's seats")
        points = table_points(created.points, command.places, command.share, command.points)
        if command.adjudicated is not None and (command.round, command.table) not in \
                state.adjudicated:
            raise IllegalCommand("TOUR-8.2", f"{command.game} was ended at time at the desk: "
                                 "its table takes it through `devil tournament adjudicate`")
        from . import botseats

        botseats.check(command, list(table.players))
        points = noshow.forfeit_points(state, command.round, command.table, command.places,
                                       command.share, points, command.points,
                                       also=botseats.gone(command))  # TOUR-13.1
        return [ev.ResultRecorded(
            round=command.round, table=command.table, game=command.game, seq=command.seq,
            link=command.link, places=list(command.places), values=list(command.values),
            winners=list(command.winners), points=[str(p) for p in points],
            measure=command.measure, share=command.share, scored=command.points is not None,
            adjudicated=command.adjudicated, bots=command.bots, returned=command.returned)]
    if t is ev.Close:
        _open(state)
        round_ = command.round
        if round_ != state.round or state.closed >= round_:
            raise IllegalCommand("TOUR-5.2", f"round {round_} is not the open round")
        waiting = [str(n) for n in range(1, len(state.tables[round_]) + 1)
                   if (round_, n) not in state.results]
        if waiting:
            raise IllegalCommand("TOUR-5.2", f"round {round_} cannot close: table(s) "
                                 f"{', '.join(waiting)} have no finished game's result yet")
        seed, salt = duplicate.check_close(state, round_, command.furnace_seed,
                                           command.furnace_salt)
        out: list[ev.RoundClosed | ev.TournamentFinished] = [
            ev.RoundClosed(round=round_, furnace_seed=seed, furnace_salt=salt)]
        if round_ == finals.last_round(created):
            after = evolve(_copy(state), out[0])
            out.append(ev.TournamentFinished(ranking=finals.final_ranking(
                after, [t.player for t in compute(after)])))
        return out
    if t is ev.Adjust:
        _open(state)
        _known(state, command.player, "TOUR-3.5")
        try:
            amount = fraction(command.points)
        except (ValueError, ZeroDivisionError):
            raise UsageError(f"points are a number such as -2 or 1.5, "
                             f"not {command.points!r}") from None
        if command.kind not in ("penalty", "correction"):
            raise UsageError("an adjustment is a penalty or a correction")
        reason = command.reason.strip() if isinstance(command.reason, str) else ""
        if not reason:
            raise IllegalCommand("TOUR-3.5", "a penalty or correction needs its reason")
        return [ev.PointsAdjusted(player=command.player, points=str(amount), kind=command.kind,
                                  reason=reason, round=max(state.round, 1))]
    if t is ev.Publish:
        if type(command.public) is not bool:
            raise UsageError("publish: \"public\" is true or false")
        if command.public == state.public:
            raise IllegalCommand("TOUR-12.1", "the spectator link is already "
                                 + ("open" if state.public else "closed"))
        return [ev.TournamentPublished(public=command.public)]
    if t in noshow.TYPES:
        _open(state)
        return noshow.decide(state, command)
    if t in (ev.Adjudicate, ev.Amend):
        from .amend import decide_late
        return decide_late(state, command)
    raise UsageError(f"not a tournament command: {type(command).__name__}")


def _copy(state: TournamentState) -> TournamentState:
    return attrs.evolve(state, results=dict(state.results), tables=dict(state.tables),
                        byes=dict(state.byes), adjustments=list(state.adjustments),
                        dropped=dict(state.dropped), forfeits=dict(state.forfeits),
                        revealed=dict(state.revealed))


def command_for(state: TournamentState, events: list) -> tuple[Any, list]:
    """The command (for the first batch: the options) that gave ``events``; ValueError if none."""
    first = events[0]
    t = type(first)
    if state.created is None:
        if t is not ev.TournamentCreated:
            raise ValueError("a tournament begins with tournament_created")
        return ({"name": first.name, "game": first.game, "options": dict(first.options),
                 "format": first.format, "points": list(first.points),
                 "bye_points": first.bye_points, "rounds": first.rounds,
                 "table_size": [first.table_min, first.table_max],
                 "tiebreaks": list(first.tiebreaks), "players": list(first.players),
                 "seed": first.seed,
                 "attributes": {p: dict(a) for p, a in first.attributes.items()},
                 "final_table": first.final_table, "final_tables": first.final_tables,
                 "duplicate": first.duplicate,
                 **({"check_in": True} if first.check_in else {}),
                 **swiss_recorded(first),
                 **({} if first.round_time is None else {"round_time": first.round_time})}, [])
    if t is ev.PlayerAdded:
        return ev.Add(player=first.player), []
    if t is ev.PlayerDropped:
        return ev.Drop(player=first.player, reason=first.reason), []
    if t is ev.RoundPaired:
        if state.created.format == "fixed" and not finals.is_final(state.created, first.round):
            return ev.Pair(round=first.round, seating=[list(tb.players) for tb in first.tables],
                           byes=list(first.byes), furnace=first.furnace or None,
                           at=first.at), []
        return ev.Pair(round=first.round, furnace=first.furnace or None, at=first.at), []
    if t is ev.GameAttached:
        return ev.Attach(round=first.round, table=first.table, game=first.game,
                         created=first.created), []
    if t is ev.ResultRecorded:
        own = [int(fraction(p)) for p in first.points] if first.scored else None
        return ev.RecordResult(
            round=first.round, table=first.table, game=first.game, seq=first.seq,
            link=first.link, places=list(first.places), values=list(first.values),
            winners=list(first.winners), measure=first.measure, share=first.share,
            points=own, adjudicated=first.adjudicated, bots=first.bots,
            returned=first.returned), []
    if t is ev.RoundClosed:
        revealed = bool(first.furnace_salt)  # a duplicate round (TOUR-11.3)
        return ev.Close(round=first.round,
                        furnace_seed=first.furnace_seed if revealed else None,
                        furnace_salt=first.furnace_salt if revealed else None), []
    if t is ev.PointsAdjusted:
        return ev.Adjust(player=first.player, points=first.points, reason=first.reason,
                         kind=first.kind), []
    if t is ev.TournamentPublished:
        return ev.Publish(public=first.public), []
    again = noshow.command_for(first)
    if again is not None:
        return again, []
    if t in (ev.TableAdjudicated, ev.ResultAmended):
        from .amend import command_late
        return command_late(first), []
    raise ValueError(f"no command gives {first.TYPE} first")


def measure_of(state: TournamentState) -> str:
    """The name of the value summed for the measure tiebreak (the game kind's placings
    ``measure``, e.g. final money): from a recorded result, else from a throwaway game."""
    for result in state.results.values():
        return result.measure
    from ..chance import SeededChance

    rules = rules_for(state.created.game)
    try:
        names = [f"P{i + 1}" for i in range(state.created.table_min)]
        options = {k: v for k, v in state.created.options.items() if k != "physical"}
        game = rules.fold(rules.setup({**options, "players": names}, SeededChance(0, "0" * 32)))
        assert rules.placings is not None  # a kind a tournament plays places its players
        return rules.placings(game)["measure"]
    except Exception:  # pragma: no cover - the options were checked at creation
        return "measure"

