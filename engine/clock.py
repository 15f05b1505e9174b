"""Clocks (CLOCK-1 to CLOCK-9, docs/house-rules.md): per-seat time controls as a pure fold of
recorded times.

A game created with a clock has, as its second command, a ``clock_set`` record (the time
control: a Fischer clock ``base`` + ``increment`` per move, a limit per move ``move``, and what
a timeout does, ``on_timeout``).  Every record's ``ts`` (ms since the log header's
``created``, stamped by the service when it decided the command) is the service's clock; the
clocks are computed from those times alone (:class:`Clocks`), never from a wall clock: the
service passes "now" in.  Whose clock runs after a command is the kind's ``to_move`` hook
(engine.game.GameRules); a seat's clock runs from the record after which it came to move
until its own command (a move: the increment is added) or until it no longer is to move.

When a seat's time runs out the service records ``clock_expired`` (actor -1, the service's
act like the referee's), in the same command as the kind's timeout command's events when the
game was created ``on_timeout="act"`` (the kind's ``timeout`` hook: its house rule), alone
when ``"flag"`` (the seat is flagged for the referee and plays nothing more, CLOCK-6).

Times are integers in milliseconds.  Both events are public (every stream carries them whole)
and never reach a kind's ``evolve``: they are registered with the desk's events
(engine.desk.clock_events, in engine.desk.events.DESK_CLASSES).
"""

from __future__ import annotations

import re
import attrs

from .desk.clock_events import ACT, CLOCK_CLASSES, FLAG, ClockExpired, ClockSet
from .errors import IllegalCommand, UsageError

SECOND = 1000
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE
#: the longest base time or move time (a day), and the largest increment (an hour)
MAX_TIME = 24 * HOUR
MAX_INCREMENT = HOUR
ON_TIMEOUT = (ACT, FLAG)
#: a tournament round's deadline as a ``clock_expired`` limit, and what it does (CLOCK-10)
ROUND, ADJUDICATE = "round", "adjudicate"

__all__ = ["ACT", "CLOCK_CLASSES", "FLAG", "ClockExpired", "ClockSet", "ClockFold", "Clocks"]

_PART = re.compile(r"(\d{1,6})(h|m|s|ms)")




# -- time controls as text ---------------------------------------------------------------------
def parse_duration(text: str, what: str) -> int:
    """``"20m"``, ``"90s"``, ``"1h30m"``, ``"500ms"`` as ms (a bare number is seconds).
    UsageError for anything else (CLOCK-1)."""
    raw = str(text).strip().lower()
    if len(raw) > 40:
        raise UsageError(f"CLOCK-1: {what} is a time such as 20m, 90s or 1h30m, not "
                         f"{raw[:40]!r}...")
    if raw.isdigit():
        return int(raw) * SECOND
    pos, total = 0, 0
    for match in _PART.finditer(raw):
        if match.start() != pos:
            break
        number, unit = int(match.group(1)), match.group(2)
        total += number * {"h": HOUR, "m": MINUTE, "s": SECOND, "ms": 1}[unit]
        pos = match.end()
    if not raw or pos != len(raw):
        raise UsageError(f"CLOCK-1: {what} is a time such as 20m, 90s or 1h30m, not {text!r}")
    return total


def parse_clock(text: str) -> tuple[int, int]:
    """``"20m+10s"`` as ``(base, increment)`` ms (no ``+``: no increment).  UsageError."""
    base_text, _, inc_text = str(text).partition("+")
    base = parse_duration(base_text, "a clock's base time")
    increment = parse_duration(inc_text, "a clock's increment") if inc_text else 0
    return base, increment


def control(clock: str | None = None, move_time: str | None = None,
            on_timeout: str = ACT) -> ClockSet | None:
    """The :class:`ClockSet` of ``devil new``'s ``--clock``, ``--move-time``, ``--on-timeout``
    (None when neither time is given).  UsageError naming CLOCK-1 for bad values."""
    if clock is None and move_time is None:
        return None
    base, increment = parse_clock(clock) if clock is not None else (None, 0)
    move = parse_duration(move_time, "a move time") if move_time is not None else None
    return checked(ClockSet(base, increment, move, on_timeout))


def from_map(settings: dict | None) -> ClockSet | None:
    """The :class:`ClockSet` of a map ``{"clock": "20m+10s"?, "move_time": "2m"?,
    "on_timeout": "act"|"flag"?}`` (``devil new``'s options, POST /games's ``"clock"``), None
    for an empty one; UsageError naming CLOCK-1 for anything else."""
    if not settings:
        return None
    if not isinstance(settings, dict):
        raise UsageError("CLOCK-1: a clock is a map of clock, move_time and on_timeout")
    unknown = set(settings) - {"clock", "move_time", "on_timeout"}
    if unknown:
        raise UsageError(f"CLOCK-1: a clock is given by clock, move_time and on_timeout, not "
                         f"{', '.join(sorted(map(str, unknown)))}")
    for key in ("clock", "move_time", "on_timeout"):
        if settings.get(key) is not None and not isinstance(settings[key], str):
            raise UsageError(f"CLOCK-1: {key} is text such as '20m+10s', not "
                             f"{settings[key]!r}"[:200])
    made = control(settings.get("clock"), settings.get("move_time"),
                   settings.get("on_timeout") or ACT)
    if made is None:
        raise UsageError("CLOCK-1: on_timeout needs a clock (--clock or --move-time)")
    return made


def checked(event: ClockSet) -> ClockSet:
    """``event`` if its times are in range (CLOCK-1: a base and a move time of 1 s to 24 h, an
    increment of 0 to 1 h only with a base, ``on_timeout`` act or flag; CLOCK-10: a round's
    ``deadline`` of 0 ms or more, which may stand alone); UsageError."""
    for name, value in (("base time", event.base), ("move time", event.move)):
        if value is not None and (type(value) is not int or not SECOND <= value <= MAX_TIME):
            raise UsageError(f"CLOCK-1: a {name} is 1s to 24h, not {value!r} ms")
    deadline = getattr(event, "deadline", None)
    if deadline is not None and (type(deadline) is not int or deadline < 0):
        raise UsageError(f"CLOCK-10: a round's deadline is ms from the game's creation, not "
                         f"{deadline!r}")
    if event.base is None and event.move is None and deadline is None:
        raise UsageError("CLOCK-1: a clock needs a base time (--clock) or a move time "
                         "(--move-time)")
    if type(event.increment) is not int or not 0 <= event.increment <= MAX_INCREMENT \
            or (event.increment and event.base is None):
        raise UsageError(f"CLOCK-1: an increment is 0 to 1h and needs a base time, not "
                         f"{event.increment!r} ms")
    if event.on_timeout not in ON_TIMEOUT:
        raise UsageError(f"CLOCK-1: on a timeout the service acts ('act') or flags the seat "
                         f"('flag'), not {event.on_timeout!r}")
    return event


def duration_text(ms: int | None) -> str:
    """``ms`` as a clock shows it: ``"19:58.4"`` (minutes, seconds, tenths), ``"1:02:03"`` from
    an hour, ``"-"`` for None."""
    if ms is None:
        return "-"
    ms = max(0, int(ms))
    hours, rest = divmod(ms, HOUR)
    minutes, rest = divmod(rest, MINUTE)
    if hours:
        return f"{hours}:{minutes:02d}:{rest // SECOND:02d}"
    return f"{minutes}:{rest // SECOND:02d}.{rest % SECOND // 100}"


def readings_text(clocks: dict | None) -> str | None:
    """One line of a view's ``clocks`` (:meth:`Clocks.readings`): ``CLOCKS (20m+10s, on
    timeout: act): >Anna 19:58.4  Ben 20:00.0  Cleo 0:00.0 flagged`` (``>``: the clock runs;
    a move time left in brackets; ``[n timeouts]``); None without clocks (CLOCK-8)."""
    if not clocks:
        return None
    parts = []
    for seat in clocks["seats"]:
        text = (">" if seat["running"] else "") + seat["player"]
        if seat["remaining"] is not None:
            text += f" {duration_text(seat['remaining'])}"
        if seat["running"] and seat["move_left"] is not None:
            text += f" (move {duration_text(seat['move_left'])})"
        if seat["flagged"]:
            text += " flagged"
        elif seat["timeouts"]:
            text += f" [{seat['timeouts']} timeout{'s' if seat['timeouts'] != 1 else ''}]"
        parts.append(text)
    return f"CLOCKS ({clocks['control']['text']}): " + "  ".join(parts)


def control_text(event: ClockSet) -> str:
    """The control as ``devil new`` takes it: ``"20m+10s, 2m a move, on timeout: act"``; a
    tournament round's deadline adds ``"round ends 30:00.0 into the game"`` (CLOCK-10)."""
    def short(ms: int) -> str:
        parts = []
        for unit, size in (("h", HOUR), ("m", MINUTE), ("s", SECOND)):
            if ms >= size:
                parts.append(f"{ms // size}{unit}")
                ms %= size
        if ms or not parts:
            parts.append(f"{ms}ms")
        return "".join(parts)

    out = []
    if event.base is not None:
        out.append(short(event.base) + (f"+{short(event.increment)}" if event.increment else ""))
    if event.move is not None:
        out.append(f"{short(event.move)} a move")
    if event.base is not None or event.move is not None:
        out.append(f"on timeout: {event.on_timeout}")
    if getattr(event, "deadline", None) is not None:
        out.append(f"round ends {duration_text(event.deadline)} into the game")
    return ", ".join(out)


# -- the fold ------------------------------------------------------------------------------------
@attrs.define
class Clocks:
    """Every seat's clock after some commands of a log (a pure fold of their times).

    ``control``: the game's :class:`ClockSet` (None: the game has no clock, nothing runs);
    ``remaining``: seat -> ms left at the start of its running move (or now, when stopped);
    ``running``: seat -> the ``ts`` its current move started (only seats whose clock runs);
    ``flagged``: seats flagged for the referee (CLOCK-6); ``timeouts``: seat -> how many
    timeouts it had; ``moves``: seat -> how many of its own moves it made with the clock on;
    ``at``: the ``ts`` of the last command folded; ``bots``: seats the referee handed to a bot
    (DESK-7), whose clock no longer runs (CLOCK-6); ``round_over``: the round's deadline was
    recorded as passed (CLOCK-10).
    """

    control: ClockSet | None = None
    remaining: dict = attrs.field(factory=dict)
    running: dict = attrs.field(factory=dict)
    flagged: set = attrs.field(factory=set)
    timeouts: dict = attrs.field(factory=dict)
    moves: dict = attrs.field(factory=dict)
    at: int = 0
    bots: set = attrs.field(factory=set)
    round_over: bool = False

    def step(self, ts: int, actor: int, events: list, to_move: list[int], seats: int) -> None:
        """Fold one command recorded at ``ts`` by ``actor`` (a seat, or -1) whose decoded
        ``events`` left the game waiting for ``to_move`` (the kind's hook on the referee's
        state after it; [] when the game is over): CLOCK-2 to CLOCK-6."""
        self.at = ts
        expired = set()
        for event in events:
            cls = type(event)
            if cls is ClockSet and self.control is None:
                self.control = event
                self.remaining = {s: event.base for s in range(seats)} \
                    if event.base is not None else {}
            elif getattr(cls, "TYPE", None) == "seat_replaced":  # DESK-7: a bot has no clock
                self._charge(event.seat, ts)
                self.flagged.discard(event.seat)
                self.bots.add(event.seat)
            elif cls is ClockExpired and event.limit == ROUND:  # CLOCK-10: no seat's own
                self.round_over = True
            elif cls is ClockExpired:
                expired.add(event.seat)
                self._charge(event.seat, ts)
                if event.limit == "clock":
                    self.remaining[event.seat] = 0
                self.timeouts[event.seat] = self.timeouts.get(event.seat, 0) + 1
                if event.action == FLAG:
                    self.flagged.add(event.seat)
        control = self.control
        if control is None:
            return
        from .desk.events import DESK_CLASSES

        # a move is a game command: a seat's desk record (a dispute, a takeback asked or
        # answered) neither stops its clock nor earns the increment (CLOCK-3)
        desk_only = bool(events) and all(type(e) in DESK_CLASSES for e in events)
        moved = actor if actor >= 0 and not expired and not desk_only else None
        waiting = set(to_move)
        for seat in list(self.running):
            if seat == moved or seat not in waiting:
                self._charge(seat, ts)
                if seat == moved:
                    self.moves[seat] = self.moves.get(seat, 0) + 1
                    if control.base is not None:
                        self.remaining[seat] += control.increment
        for seat in to_move:
            if seat not in self.running and seat not in self.flagged and seat not in self.bots:
                self.running[seat] = ts

    def _charge(self, seat: int, ts: int) -> None:
        """Stop ``seat``'s clock at ``ts``, taking the time its move took from what it had."""
        start = self.running.pop(seat, None)
        if start is not None and seat in self.remaining:
            self.remaining[seat] = max(0, self.remaining[seat] - max(0, ts - start))

    def due(self, seat: int) -> tuple[int, str] | None:
        """``(ts, limit)``: when ``seat``'s running clock runs out (``"clock"``: its time,
        ``"move"``: the move time; the earlier, the clock when both fall together), or None
        when its clock does not run."""
        start = self.running.get(seat)
        control = self.control
        if start is None or control is None:
            return None
        out: tuple[int, str] | None = None
        if control.base is not None:
            out = (start + self.remaining.get(seat, 0), "clock")
        if control.move is not None and (out is None or start + control.move < out[0]):
            out = (start + control.move, "move")
        return out

    def action(self, seat: int, limit: str) -> str:
        """What ``seat``'s timeout of ``limit`` does: the game's ``on_timeout``, except that a
        game created to act flags the seat when its whole time ran out and every other
        seat's has too (CLOCK-5.1: the clock alone would play the game out, or on forever)."""
        control = self.control
        assert control is not None
        if control.on_timeout != ACT or limit != "clock":
            return control.on_timeout
        others = [s for s in self.remaining if s != seat and s not in self.bots]
        if all(self.remaining.get(s, 0) == 0 or s in self.flagged for s in others):
            return FLAG
        return ACT

    def expired(self, now: int) -> list[tuple[int, int, str]]:
        """``[(due, seat, limit)]`` of every running clock that has run out at ``now`` (ms since
        the header's created), earliest first (CLOCK-5)."""
        out = []
        for seat in sorted(self.running):
            due = self.due(seat)
            if due is not None and due[0] <= now:
                out.append((due[0], seat, due[1]))
        return sorted(out)

    def check_move(self, seat: int, ts: int) -> None:
        """IllegalCommand unless ``seat`` may still move at ``ts``: CLOCK-6 (a flagged seat
        plays nothing more), CLOCK-7 (a move is made before its time runs out) and CLOCK-10
        (nor after the round's deadline)."""
        if self.control is None:
            return
        deadline = self.control.deadline
        if deadline is not None and ts >= deadline:
            raise IllegalCommand("CLOCK-10", f"the round's time ran out "
                                 f"{duration_text(ts - deadline)} ago: the game is adjudicated "
                                 "at time (TOUR-8.5)")
        if seat in self.flagged:
            raise IllegalCommand("CLOCK-6", "this seat's time ran out and it was flagged for "
                                 "the referee: it plays nothing more (the referee may hand it "
                                 "to a bot or end the game at time)")
        due = self.due(seat)
        if due is not None and ts >= due[0]:
            what = "time" if due[1] == "clock" else "move time"
            raise IllegalCommand("CLOCK-7", f"this seat's {what} ran out "
                                 f"{duration_text(ts - due[0])} ago")

    def readings(self, now: int, names: list[str]) -> dict | None:
        """What every view shows (CLOCK-8): ``{"control": {"base", "increment", "move",
        "on_timeout", "text"}, "at": now, "seats": [{"seat", "player", "remaining" (ms or
        None without a base), "running", "move_left" (ms or None), "flagged", "timeouts",
        "moves"}]}`` (``control`` has ``deadline`` too when the round has one, CLOCK-10) at
        ``now`` (ms since the header's created), or None without a clock."""
        control = self.control
        if control is None:
            return None
        seats = []
        for seat, name in enumerate(names):
            start = self.running.get(seat)
            spent = max(0, now - start) if start is not None else 0
            left = self.remaining.get(seat)
            seats.append({
                "seat": seat, "player": name,
                "remaining": None if left is None else max(0, left - spent),
                "running": start is not None,
                "move_left": (max(0, control.move - spent)
                              if control.move is not None and start is not None else None),
                "flagged": seat in self.flagged, "timeouts": self.timeouts.get(seat, 0),
                "moves": self.moves.get(seat, 0)})
        return {"control": {"base": control.base, "increment": control.increment,
                            "move": control.move, "on_timeout": control.on_timeout,
                            "text": control_text(control),
                            **({} if control.deadline is None
                               else {"deadline": control.deadline})},
                "at": now, "seats": seats}

    def copy(self) -> "Clocks":
        """An independent copy."""
        return Clocks(self.control, dict(self.remaining), dict(self.running), set(self.flagged),
                      dict(self.timeouts), dict(self.moves), self.at, set(self.bots),
                      self.round_over)


def waiting(rules, state, desk=None) -> list[int]:
    """The seats whose clock runs in ``state`` (the referee's): the kind's ``to_move`` hook
    (CLOCK-2); [] for a kind without one, a game over, one adjudicated (DESK-8) or still
    seating."""
    hook = getattr(rules, "to_move", None)
    if hook is None or type(state).__name__ == "Seating" or rules.is_over(state):
        return []
    if desk is not None and desk.ended is not None:
        return []
    return list(hook(state))


class ClockFold:
    """The clocks of one game, advanced with its records command by command: its own referee
    :class:`engine.fold.Fold` (the state after each command gives ``to_move``) and the
    :class:`Clocks`.  ``seq``: the last record folded."""

    def __init__(self, rules):
        from .fold import Fold

        self.rules = rules
        self.fold = Fold(rules)
        self.clocks = Clocks()
        self.seq = 0
        self._pending: list = []

    def advance(self, records: list, events: list, before=None) -> "ClockFold":
        """Fold ``records`` (and their decoded ``events``), which follow ``seq``; a command's
        records are taken once its last record (``left == 0``) is in.  ``before()``: the
        events of records 1 to ``seq`` (needed only after a correction)."""
        rules, fold, clocks = self.rules, self.fold, self.clocks
        pending = self._pending
        for record, event in zip(records, events):
            pending.append((record, event))
            if record.left:
                continue
            batch = [e for _, e in pending]
            first = pending[0][0]
            start = fold.seq
            earlier = before
            fold.advance(batch, (lambda: list(earlier())[:start]) if earlier else None)
            self.seq = record.seq
            self._pending = pending = []
            if clocks.control is None and not any(type(e) is ClockSet for e in batch):
                continue
            names = rules.seats(fold.state)
            clocks.step(first.ts, first.actor, batch, waiting(rules, fold.state, fold.desk),
                        len(names))
        return self
