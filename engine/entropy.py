"""Chance nobody can choose (issue 13.3): every seat adds entropy before the first draw.

A digital game created with seat entropy does not start at once.  Its log begins with a
**seating** stage, the same for every kind (no kind's rules are involved):

1. ``table_opened`` (the referee, at creation): the players, the server's commitment to its
   secret seed (engine.chance) and the game's options.  No draw has been made.
2. ``seat_committed`` (one command per seat, as that seat): the seat's commitment
   ``sha256("devil-seat|" + game + "|" + decimal(seat) + "|" + value)`` to a random ``value``
   (64 hex digits) its client made and sent.  The service keeps the value private (the store's
   private document ``seat<a|b|c...>``), like the seed.
3. Once every seat has committed, the service runs the kind's own setup (deal, start player)
   as the referee: the kind's first events follow, and the game goes on as any other.
4. When the game ends, ``seats_revealed`` (the referee) publishes every seat's value; the
   kind's last event has revealed the seed and salt.

Every draw, the setup's included, is derived from the **mixed seed**::

    mixed = sha256("devil-mix|" + decimal(seed) + "|" + value_0 + "|" + ... + "|" + value_n-1)

(hex) instead of ``decimal(seed)`` (engine.chance: ``r = sha256(mixed + "|" + label)``).  The
server committed to its seed before any seat sent its value, and no seat knows the seed or the
other seats' values, so neither the server nor any seat alone can steer a draw; ``devil verify``
re-derives every draw from the revealed seed and values and checks each value against the
commitment recorded before the first draw.  docs/log-format.md has a worked example.

Rule ids cited in refusals: SEAT-1 (no command of the game before every seat gave its
entropy), SEAT-2 (one value per seat, 64 lowercase hex digits).

:func:`staged` wraps a kind's :class:`~engine.game.GameRules` so that every shared part (the
service, verify, replay, views) folds, shows and redacts these events; the kind never sees
them.  Logs without a seating stage fold, verify and replay exactly as before.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import ClassVar

import attrs

from .chance import mixed_seed  # noqa: F401 (the seed material, documented here)
from .codec import Registry
from .errors import IllegalCommand, UsageError

#: how a seat's random value is written: 32 bytes as 64 lowercase hex digits (SEAT-2)
VALUE = re.compile(r"^[0-9a-f]{64}$")


def seat_commitment(game: str, seat: int, value: str) -> str:
    """The commitment (64 hex digits) recorded for seat ``seat``'s ``value`` in ``game``."""
    return hashlib.sha256(f"devil-seat|{game}|{seat}|{value}".encode()).hexdigest()


def private_name(seat: int) -> str:
    """The store's private document holding seat ``seat``'s value: ``seata``, ``seatb``, ..."""
    if not 0 <= seat < 26:
        raise UsageError("seat entropy takes at most 26 seats")
    return "seat" + chr(ord("a") + seat)


def seat_documents(store, game: str) -> dict:
    """``{"seats": {name: document}}``: the seats' values a store keeps for ``game`` (for
    `devil export --secret`), or ``{}`` for a game without seat entropy."""
    found = {}
    for seat in range(26):
        document = store.private(game, private_name(seat))
        if document is None:
            break
        found[private_name(seat)] = document
    return {"seats": found} if found else {}


def put_seat_documents(store, game: str, exported) -> None:
    """Keep the seats' values of an exported secret (`devil import --secret`)."""
    seats = exported.get("seats") if isinstance(exported, dict) else None
    for name, document in (seats or {}).items():
        if isinstance(document, dict) and name in {private_name(s) for s in range(26)}:
            store.put_private(game, name, document, replace=True)


# -- the shared events and command ------------------------------------------------------------
@attrs.frozen(slots=True)
class TableOpened:
    """A seated game's first event (public): ``players`` in seat order, the server's seed
    ``commitment`` (engine.chance), the new game's ``options`` as canonical JSON text."""

    TYPE: ClassVar[str] = "table_opened"
    players: list[str]
    commitment: str
    options: str


@attrs.frozen(slots=True)
class SeatCommitted:
    """Seat ``seat`` committed to its random value (public): ``commitment`` =
    :func:`seat_commitment`."""

    TYPE: ClassVar[str] = "seat_committed"
    seat: int
    commitment: str


@attrs.frozen(slots=True)
class SeatsRevealed:
    """After the game's end (public): every seat's value, in seat order."""

    TYPE: ClassVar[str] = "seats_revealed"
    values: list[str]


@attrs.frozen(slots=True)
class SeatEntropy:
    """A seat's first command in a seated game: ``player`` gives its random ``value`` (64 hex
    digits; only its commitment is recorded until the end)."""

    TYPE: ClassVar[str] = "seat_entropy"
    player: str
    value: str


SHARED_EVENTS = (TableOpened, SeatCommitted, SeatsRevealed)
SHARED_TYPES = frozenset(SHARED_EVENTS)


class Seating:
    """The state of a seated game before its setup: players, the server's commitment, the
    options, and each seat's commitment (None until given).  (A plain class: building an
    attrs class costs start-up time every cold command pays.)"""

    __slots__ = ("players", "commitment", "options", "committed")

    def __init__(self, players: list[str], commitment: str, options: dict, committed: list):
        self.players, self.commitment = players, commitment
        self.options, self.committed = options, committed

    def __eq__(self, other) -> bool:
        return type(other) is Seating and all(getattr(self, k) == getattr(other, k)
                                              for k in self.__slots__)

    def __repr__(self) -> str:
        return f"Seating(players={self.players!r}, committed={self.committed!r})"

    @property
    def waiting(self) -> list[str]:
        """The names of the seats that have not given their entropy yet."""
        return [name for name, c in zip(self.players, self.committed) if c is None]

    def copy(self) -> "Seating":
        return Seating(list(self.players), self.commitment, dict(self.options),
                       list(self.committed))


def is_shared(event) -> bool:
    """Whether ``event`` belongs to the seating stage (not to the kind)."""
    return type(event) in SHARED_TYPES


def opening(events: list) -> TableOpened | None:
    """The ``table_opened`` event of a seated game's ``events``, or None (an older game, or
    one created without seat entropy)."""
    return events[0] if events and type(events[0]) is TableOpened else None


def commitments(events: list) -> list:
    """Each seat's recorded commitment (None where missing), from a seated game's events."""
    first = opening(events)
    if first is None:
        return []
    out: list = [None] * len(first.players)
    for event in events[1:]:
        if type(event) is SeatCommitted:
            if 0 <= event.seat < len(out):
                out[event.seat] = event.commitment
        elif not is_shared(event) and type(event) not in _desk_classes():  # a clock_set may
            break                                                          # come between
    return out


def _desk_classes():
    from .desk.events import DESK_CLASSES  # the referee's desk writes into every log

    return DESK_CLASSES


def revealed_values(events: list) -> list[str] | None:
    """The values of ``seats_revealed`` (after the last event of a finished seated game; only
    the referee's desk's records may follow it), or None."""
    desk = _desk_classes()
    for event in reversed(events):
        if type(event) is SeatsRevealed:
            return list(event.values)
        if type(event) not in desk:
            return None
    return None


def options_text(options: dict) -> str:
    """Options as the canonical JSON text ``table_opened`` records."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


# -- the kind's rules with the seating stage --------------------------------------------------
def _seating_view(state: Seating, viewer, kind: str = "") -> dict:
    waiting = state.waiting
    return {"kind": kind, "phase": "seating", "players": [
                {"name": name, "entropy_given": c is not None}
                for name, c in zip(state.players, state.committed)],
            "waiting_for": waiting, "seed_commitment": state.commitment,
            "text": "seating: waiting for the entropy of " + ", ".join(waiting)
                    if waiting else "seating: every seat is in; the game starts"}


def staged(rules):
    """``rules`` (a kind's GameRules) with the seating stage: the shared events decode and fold
    (a :class:`Seating` state until the kind's first event), views, seats and summaries of a
    seating game are the stage's own, and the kind's functions never see a shared event."""
    kind_evolve, kind_redact, kind_view = rules.evolve, rules.redact, rules.view
    kind_initial, kind_seats = rules.initial, rules.seats
    shared = SHARED_TYPES

    def evolve(state, event):
        cls = type(event)
        if cls in shared:
            if cls is TableOpened:
                return Seating(list(event.players), event.commitment, json.loads(event.options),
                               [None] * len(event.players))
            if cls is SeatCommitted and type(state) is Seating:
                state.committed[event.seat] = event.commitment
            return state
        if type(state) is Seating:
            state = kind_initial()
        return kind_evolve(state, event)

    def redact(event, viewer):
        return event if type(event) in shared else kind_redact(event, viewer)

    def view(state, viewer):
        return (_seating_view(state, viewer, rules.kind) if type(state) is Seating
                else kind_view(state, viewer))

    def seats(state):
        return list(state.players) if type(state) is Seating else kind_seats(state)

    def legal_commands(state, seat):
        return [] if type(state) is Seating else rules.legal_commands(state, seat)

    kind_choices = rules.legal_choices

    def legal_choices(state, seat):
        return () if type(state) is Seating else kind_choices(state, seat)

    def acting_seat(state, command):
        if type(command) is SeatEntropy:
            from .seats import seat_named

            return seat_named(seats(state), command.player, "SEAT-2", fold_case=False)
        if type(state) is Seating:
            raise IllegalCommand("SEAT-1", "the game starts once every seat has given its "
                                 "entropy (`devil sit`); waiting for "
                                 + ", ".join(state.waiting))
        return rules.acting_seat(state, command)

    def decide(state, command, chance):
        if type(state) is Seating or type(command) is SeatEntropy:
            raise IllegalCommand("SEAT-1", "the game starts once every seat has given its "
                                 "entropy (`devil sit`)")
        return rules.decide(state, command, chance)

    def when_playing(hook, default):
        if hook is None:
            return None
        return lambda state: default(state) if type(state) is Seating else hook(state)

    def command_for(state, events):
        if events and type(events[0]) in shared:
            raise ValueError("the seating stage is checked by engine.entropy, not the kind")
        return rules.command_for(state, events)

    def audit(log):
        own = without_seating(log)
        if not own.records:  # SEAT-1: no bet, draw or payout before every seat is in
            from .errors import UsageError

            raise UsageError(f"game {log.header.game} is still seating (SEAT-1): nothing has "
                             "been played yet, so there is nothing to audit")
        return rules.audit(own)

    def record(log):
        own = without_seating(log)
        return rules.record(own) if own.records else None  # SEAT-1: nothing played yet

    import attrs as _attrs

    return _attrs.evolve(
        rules,
        events=Registry(rules.events.name, [*rules.events.by_type.values(), *SHARED_EVENTS]),
        commands=Registry(rules.commands.name, [*rules.commands.by_type.values(), SeatEntropy]),
        evolve=evolve, redact=redact, view=view, seats=seats, legal_commands=legal_commands,
        legal_choices=None if kind_choices is None else legal_choices,
        acting_seat=acting_seat, decide=decide,
        is_over=lambda state: False if type(state) is Seating else rules.is_over(state),
        physical=lambda state: False if type(state) is Seating else rules.physical(state),
        summary=lambda state: ({"phase": "seating", "round": 0, "turn": None, "winners": [],
                                "text": _seating_view(state, None)["text"]}
                               if type(state) is Seating else rules.summarize(state)),
        commitment=when_playing(rules.commitment, lambda state: state.commitment),
        revealed=when_playing(rules.revealed, lambda state: None),
        seed_chosen=when_playing(rules.seed_chosen, lambda state: False),
        notes=when_playing(rules.notes, lambda state: []),
        command_for=None if rules.command_for is None else command_for,
        audit=None if rules.audit is None else audit,
        record=None if rules.record is None else record,
    )


def without_seating(log):
    """A LoadedLog (engine.replay) without the seating stage's records: what a kind's own tools
    (its audit) read.  Sequence numbers stay those of the log."""
    pairs = [(r, e) for r, e in zip(log.records, log.events) if not is_shared(e)]
    if len(pairs) == len(log.records):
        return log
    return attrs.evolve(log, records=[r for r, _ in pairs], events=[e for _, e in pairs])


# -- verify -----------------------------------------------------------------------------------
def check_seating(game: str, records: list, events: list, finished: bool, committed):
    """The seating stage of a seated game's log checked (engine.replay.verify_bytes):
    ``(problem, values, sentences)``: ``problem`` is ``(seq, reason)`` of the first record
    that breaks the stage's rules, or None; ``values`` every seat's revealed value (None while
    unrevealed), each checked against the commitment the seat recorded before the first draw;
    ``sentences`` what holds.  ``committed``: the seed commitment the kind's first event
    published (it must be the table's)."""
    table = events[0]
    n = len(table.players)
    if records[0].actor != -1 or records[0].left != 0:
        return (records[0].seq, "table_opened must be the referee's own command"), None, []
    given: list = [None] * n
    started = None  # index of the kind's first event
    revealed = None
    desk = _desk_classes()
    last = max((i for i, e in enumerate(events) if type(e) not in desk), default=0)
    for index in range(1, len(events)):
        record, event = records[index], events[index]
        cls = type(event)
        if cls in desk:  # the referee's desk (engine.desk) checks its own records
            continue
        if cls is TableOpened:
            return (record.seq, "a second table_opened"), None, []
        if cls is SeatCommitted:
            if started is not None:
                return (record.seq, "a seat's entropy after the game started (SEAT-1)"), None, []
            if not 0 <= event.seat < n or record.actor != event.seat or record.left != 0:
                return (record.seq, "seat_committed must be its own seat's own command"), None, []
            if given[event.seat] is not None:
                return (record.seq, f"seat {event.seat} gave its entropy twice (SEAT-2)"), None, []
            if not VALUE.match(event.commitment):
                return (record.seq, "a seat's commitment is 64 hex digits"), None, []
            given[event.seat] = event.commitment
        elif cls is SeatsRevealed:
            if index != last or record.actor != -1 or not finished:
                return (record.seq, "seats_revealed comes once, from the referee, as the last "
                                    "record of a finished game"), None, []
            revealed = (record, event)
        elif started is None:
            started = index
            if None in given:
                missing = [table.players[s] for s, c in enumerate(given) if c is None]
                return (record.seq, "the game started (its first draw) before every seat gave "
                                    f"its entropy: {', '.join(missing)} had not (SEAT-1)"), None, []
    sentences = [f"seating: all {n} seats committed to their entropy before the first draw"
                 if started is not None else
                 f"seating: {n - given.count(None)} of {n} seats have given their entropy; "
                 "no draw yet"]
    if started is not None and committed is not None and committed != table.commitment:
        return (records[started].seq, "the game's seed commitment is not the one the table "
                                      "opened with"), None, []
    if revealed is None:
        if finished:
            return (records[-1].seq, "the game ends but the seats' values are not revealed"), \
                None, []
        return None, None, sentences
    record, event = revealed
    values = list(event.values)
    if len(values) != n or not all(isinstance(v, str) and VALUE.match(v) for v in values):
        return (record.seq, f"seats_revealed must give {n} values of 64 hex digits"), None, []
    for seat, value in enumerate(values):
        if seat_commitment(game, seat, value) != given[seat]:
            return (record.seq, f"the value revealed for {table.players[seat]} does not match "
                                "the commitment that seat recorded"), None, []
    sentences.append("every seat's revealed value matches the commitment it recorded")
    return None, values, sentences
