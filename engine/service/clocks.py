"""The service's side of the clocks (engine.clock, CLOCK-1 to CLOCK-9): the one place that reads
the wall clock for a game.

* :func:`set_clock`: a new game's time control, recorded as its second command;
* :func:`clock_of`: the game's :class:`engine.clock.ClockFold`, kept with the game the service
  holds and advanced with its records;
* :func:`expire_steps` / :func:`apply_due`: every timeout that is due at "now" recorded
  (``clock_expired``, and in a game created ``on_timeout="act"`` the kind's timeout command's
  events in the same command), earliest first, until none is due;
* :func:`stamp`: the time (ms since the header's created) a seat's command is decided and
  recorded at, checked against the seat's clock first (CLOCK-6, CLOCK-7).

The service calls :func:`expire_steps` before every command (engine.service.GameService
.submit_steps), the HTTP app on every request naming a game and from a background task of
``devil serve`` (engine.web.clocktick); "now" is the service's ``clock()`` (ms since 1970),
passed in, never read by the rules.
"""

from __future__ import annotations

from ..clock import ACT, FLAG, ClockExpired, ClockFold, ClockSet, waiting
from ..errors import ConcurrencyConflict, DevilError
from ..game import REFEREE
from ..log import REFEREE_ACTOR, now_ms
from .. import roundclock
from . import steps

#: the most timeouts recorded in one call (a seat out of time may time out at each of its
#: turns in a row; a game never loops forever here)
MAX_TIMEOUTS = 1000


def set_clock(service, game: str, control: ClockSet) -> None:
    """Record ``control`` as ``game``'s time control: its own command, right after the first
    (CLOCK-1).  Called by GameService.create."""
    loaded = service.load(game)
    ts = max(0, service.clock() - loaded.header.created)
    records = service.store.append(game, loaded.head.seq, REFEREE_ACTOR, None,
                                   [loaded.rules.events.to_map(control)], ts)
    with service.cache.lock(game):
        service.cache.advance(loaded, records)


def clock_of(loaded) -> ClockFold | None:
    """The clocks of the game ``loaded`` holds, advanced to its head (None for a kind without
    clocks).  Kept on the Loaded (``clock``) and advanced with what was appended since."""
    rules = loaded.rules
    if rules.to_move is None or loaded.desk is None:  # a clock_set is one of the desk's records
        return None
    fold = getattr(loaded, "clock", None)
    if fold is False:
        return None
    if fold is None and not declared(loaded.records):
        loaded.clock = False  # the second command is not a time control: never will be
        return None
    if fold is None or fold.seq > loaded.head.seq:
        fold = loaded.clock = ClockFold(rules)
    if fold.seq < loaded.head.seq:
        records, events = loaded.records, loaded.events
        fold.advance(records[fold.seq:], events[fold.seq:], lambda: events)
    return fold


def declared(records) -> bool:
    """Whether a log's second command is a time control (``clock_set``, CLOCK-1)."""
    if not records:
        return False
    second = records[0].left + 1
    return len(records) > second and isinstance(records[second].event, dict) \
        and records[second].event.get("type") == ClockSet.TYPE


def has_clock(loaded) -> bool:
    """Whether the game has a time control (a ``clock_set`` record)."""
    fold = clock_of(loaded)
    return fold is not None and fold.clocks.control is not None


def readings(service, loaded, now: int | None = None) -> dict | None:
    """Every seat's clock at ``now`` (ms since 1970; default the service's clock), as
    :meth:`engine.clock.Clocks.readings` gives it, or None for a game without a clock."""
    fold = clock_of(loaded)
    if fold is None or fold.clocks.control is None:
        return None
    now = service.clock() if now is None else now
    names = loaded.rules.seats(loaded.state)
    return fold.clocks.readings(max(fold.clocks.at, now - loaded.header.created), names)


def time_of(service, loaded) -> int | None:
    """The ``ts`` any record of a game with a clock is recorded at now (the service's clock,
    never before the last record's; CLOCK-3), or None without a clock (the store stamps it)."""
    fold = clock_of(loaded)
    if fold is None or fold.clocks.control is None:
        return None
    return max(fold.clocks.at, service.clock() - loaded.header.created)


def stamp(service, loaded, acting) -> int | None:
    """The ``ts`` a game command of seat ``acting`` (REFEREE for the referee) is recorded at
    in a game with a clock (None without one: the store stamps it), after checking the seat's
    clock (CLOCK-6: a flagged seat plays nothing more; CLOCK-7: its time must not have run
    out).  Raises IllegalCommand."""
    fold = clock_of(loaded)
    if fold is None or fold.clocks.control is None:
        return None
    ts = max(fold.clocks.at, service.clock() - loaded.header.created)
    if acting is not REFEREE and isinstance(acting, int) and acting >= 0:
        fold.clocks.check_move(acting, ts)
    return ts


def expire_steps(service, game: str, now: int | None = None) -> steps.Steps:
    """Record every timeout of ``game`` due at ``now`` (ms since 1970; default the service's
    clock), earliest first, until none is due (CLOCK-5, CLOCK-6), the round's deadline
    among them (CLOCK-10, engine.roundclock: the game adjudicated); the records appended."""
    appended: list = []
    held = service.cache.held(game)
    if held is not None and (held.desk is None or held.clock is False):
        return appended  # a game known to have no clock: no read of the store for it
    for _ in range(MAX_TIMEOUTS):
        with service.cache.lock(game):
            loaded = service.cache.refresh(game)
            fold = clock_of(loaded)
            if fold is None or fold.clocks.control is None:
                return appended
            at = max(fold.clocks.at, (service.clock() if now is None else now)
                     - loaded.header.created)
            due = fold.clocks.expired(at)
            rules, state = loaded.rules, loaded.state
            deadline = roundclock.due(fold.clocks, rules, state, loaded.desk, at)
            if not due and deadline is None:
                return appended
            if deadline is not None and (not due or deadline <= due[0][0]):  # CLOCK-10
                events = roundclock.timeout_events(rules, loaded.records, loaded.events,
                                                   loaded.desk, deadline)
            else:
                events = _seat_timeout(service, loaded, fold, due[0])
            maps = [rules.events.to_map(e) for e in events]
            head = loaded.head.seq
        try:
            records = yield steps.Append(game, head, REFEREE_ACTOR, None, maps, at)
        except ConcurrencyConflict:
            continue  # another writer moved the game on: look again
        with service.cache.lock(game):
            service.cache.advance(loaded, records)
            appended.extend(records)
            if rules.is_over(loaded.state):
                from . import seating

                appended.extend((yield from seating.reveal_seats(service, loaded, at)) or [])
        if service.signing.enabled and rules.is_over(loaded.state):
            yield from service.seal_steps(game)
    return appended


def _seat_timeout(service, loaded, fold, due: tuple) -> list:
    """The events of seat timeout ``due`` (``(when, seat, limit)``): ``clock_expired`` and, in
    a game that acts, the kind's timeout command's events (CLOCK-5, CLOCK-6)."""
    when, seat, limit = due
    rules, state = loaded.rules, loaded.state
    action, follow = fold.clocks.action(seat, limit), []
    if action == ACT:
        command = rules.timeout(state, seat) if rules.timeout is not None else None
        try:
            follow = [] if command is None else _decided(service, loaded, command)
        except DevilError:
            follow = []
        if not follow:  # nothing to play for the seat: flagged instead (CLOCK-6)
            action = FLAG
    return [ClockExpired(seat, limit, action, when), *follow]


def _decided(service, loaded, command) -> list:
    """The events of the timeout ``command`` (the kind's ``decide`` on the referee's state with
    the game's chance, after a correction continued as every command's, DESK-6)."""
    from .seating import LazyChance

    rules, state = loaded.rules, loaded.state
    chance = None if rules.physical(state) else LazyChance(service.store, loaded)
    if loaded.desk is not None and loaded.desk.epoch:
        from ..desk.chance import continued

        chance = continued(chance, loaded.desk.epoch)
    return rules.decide(state, command, chance)


def apply_due(service, game: str, now: int | None = None) -> list:
    """:func:`expire_steps` run here (the CLI, tests, the server's thread pool)."""
    return steps.run(expire_steps(service, game, now), service.store)


def running(loaded) -> bool:
    """Whether a clock of the game runs, or its round's deadline is still ahead (CLOCK-10;
    for the server's background task)."""
    fold = clock_of(loaded)
    if fold is None or fold.clocks.control is None:
        return False
    clocks = fold.clocks
    if clocks.control.deadline is not None and not clocks.round_over \
            and (loaded.desk is None or loaded.desk.ended is None) \
            and not loaded.rules.is_over(loaded.state):
        return True  # the round's deadline is looked at even while no seat's clock runs
    return bool(clocks.running and waiting(loaded.rules, loaded.state, loaded.desk))


def default_clock() -> int:
    """The service's clock: now, ms since 1970 (UTC)."""
    return now_ms()
