"""The one fold: the only caller of a kind's ``evolve`` (docs/architecture.md, "The one fold").

A game's state as a viewer knows it is the fold of the viewer's stream::

    state(viewer) = reduce(evolve, [rules.visible(e, viewer) for e in log if in force], initial())

where :meth:`engine.game.GameRules.visible` is the one visibility rule (a seat's redacted event,
or nothing) and "in force" applies the referee's desk (engine.desk): a record voided by a
correction is not folded, and the desk's own records are never folded by the game (they build
the fold's :class:`engine.desk.state.Desk`).  The seating stage of seat entropy is folded by the
rules themselves (:func:`engine.entropy.staged` wraps every kind's rules).

:class:`Fold` is that fold for one viewer, **incremental**: it is advanced with the records that
follow what it has folded, by the service (the referee's fold and each viewer's), by
:mod:`engine.replay` (load, steps, verify), the bots' table and the local client.  When a
``corrected`` record comes, the fold is rebuilt from the start without the voided records
(corrections are rare: the cost is one fold of the log), from the events before it that the
caller hands over (``before``).

Snapshots (:func:`snapshot_bytes`, :func:`read_snapshot`) hold every fold of a game at one
position, as data only: a snapshot is never trusted (the service checks it against the log).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from .desk.events import DESK_CLASSES
from .desk.state import Desk
from .errors import LogDamaged

#: the viewer who sees everything (engine.game.REFEREE)
REFEREE = None

#: the snapshot format this version writes and reads
SNAPSHOT_FORMAT = 2


class Unfoldable(Exception):
    """An event that the kind's ``evolve`` cannot apply (a log whose chain was recomputed
    around an impossible event): ``seq`` (its record), ``event``, ``cause`` (what evolve
    raised)."""

    def __init__(self, seq: int, event, cause: BaseException):
        super().__init__(seq, event, cause)
        self.seq, self.event, self.cause = seq, event, cause

    def reason(self) -> str:
        """``"<type> cannot be applied at this point (<error>); run `devil verify`"``."""
        return (f"{getattr(self.event, 'TYPE', type(self.event).__name__)} cannot be applied "
                f"at this point ({type(self.cause).__name__}: {self.cause}); run `devil verify`")

    def damage(self, path: str | None = None) -> LogDamaged:
        """The :class:`LogDamaged` this is for a reader of the log at ``path``."""
        return LogDamaged(self.seq, self.reason(), path)


class Fold:
    """One viewer's fold of one game's records, advanced record by record.

    ``rules``: the kind's :class:`engine.game.GameRules`; ``viewer``: REFEREE, PUBLIC or a seat
    index; ``state``: the game as the viewer knows it after record ``seq`` (the kind's state
    object, updated in place: read it, do not change it); ``desk``: the voids and disputes so
    far (:class:`engine.desk.state.Desk`), None until the first desk record.
    """

    __slots__ = ("rules", "viewer", "state", "seq", "desk")

    def __init__(self, rules, viewer=REFEREE, *, state=None, seq: int = 0,
                 desk: Desk | None = None):
        self.rules, self.viewer, self.seq, self.desk = rules, viewer, seq, desk
        self.state = rules.initial() if state is None else state

    def __repr__(self) -> str:
        return f"Fold(viewer={self.viewer!r}, seq={self.seq})"

    def advance(self, events: Sequence, before: Callable[[], Sequence] | None = None) -> "Fold":
        """Fold ``events``: the decoded events of records ``seq + 1``, ``seq + 2``, ...

        ``before()``: the decoded events of records 1 to ``seq`` (the whole log before these),
        asked for only when a correction makes the fold start again.  Raises
        :class:`Unfoldable` for an event the rules cannot apply, :class:`LogDamaged` for a
        correction to a record that is not before it.
        """
        if not events:
            return self
        if self.desk is None and self.viewer is REFEREE:  # the hot path: nothing to redact
            evolve, state, index = self.rules.evolve, self.state, 0
            try:
                for index, event in enumerate(events):
                    state = evolve(state, event)
            except Exception as exc:
                self.state = state
                if type(events[index]) not in DESK_CLASSES:
                    raise Unfoldable(self.seq + index + 1, events[index], exc) from None
                start, done = self.seq, events[:index]
                self.seq += index
                for _ in self._walk(events[index:], lambda: [*_earlier(before, start), *done]):
                    pass
                return self
            self.state = state
            self.seq += len(events)
            return self
        for _ in self._walk(events, before):
            pass
        return self

    def steps(self, events: Sequence, records: Sequence,
              before: Callable[[], Sequence] | None = None) -> Iterator[tuple[Any, Any]]:
        """Fold ``events`` one at a time, yielding ``(record, shown)`` after each record the
        viewer sees (``records``: the matching log records; ``shown``: the event as the viewer
        sees it, a desk record whole).  Between two steps ``state`` and ``desk`` are the game
        just after that record."""
        for index, shown in self._walk(events, before):
            yield records[index], shown

    def _walk(self, events: Sequence, before: Callable[[], Sequence] | None
              ) -> Iterator[tuple[int, Any]]:
        rules, viewer = self.rules, self.viewer
        visible, evolve = rules.visible, rules.evolve
        start = self.seq
        for index, event in enumerate(events):
            seq = start + index + 1
            if type(event) in DESK_CLASSES:
                if self.desk is None:
                    self.desk = Desk()
                event = visible(event, viewer)  # whole, but an amendment's hidden parts
                try:
                    corrected = self.desk.apply(seq, event)
                except ValueError as exc:
                    raise LogDamaged(seq, str(exc)) from None
                if corrected:
                    self._rebuild([*_earlier(before, start), *events[:index]])
                self.seq = seq
                yield index, event
                continue
            shown = visible(event, viewer)
            self.seq = seq
            if shown is None:
                continue
            try:
                self.state = evolve(self.state, shown)
            except Exception as exc:
                raise Unfoldable(seq, event, exc) from None
            yield index, shown

    def _rebuild(self, earlier: Sequence) -> None:
        """The state again from the start: ``earlier`` (records 1, 2, ...) less what the desk
        leaves out (voided records, its own)."""
        assert self.desk is not None  # called for a correction, which the desk applied
        rules, viewer, skip = self.rules, self.viewer, self.desk.skip
        visible, evolve = rules.visible, rules.evolve
        state = rules.initial()
        for index, event in enumerate(earlier):
            if skip(index + 1):
                continue
            shown = visible(event, viewer)
            if shown is not None:
                try:
                    state = evolve(state, shown)
                except Exception as exc:
                    raise Unfoldable(index + 1, event, exc) from None
        self.state = state


def _earlier(before: Callable[[], Sequence] | None, seq: int) -> Sequence:
    """The events of records 1 to ``seq`` from ``before`` (a fold from record 0 needs none)."""
    if not seq:
        return ()
    if before is None:
        raise ValueError("a fold that does not start at the log's first record needs the "
                         "earlier events to apply a correction (before=...)")
    events = before()
    if len(events) != seq:
        raise ValueError(f"before() gave {len(events)} events, not the {seq} before the fold")
    return events


def copy_state(state):
    """A deep copy of a state (for callers that keep old states while folding in place)."""
    import copy

    return state.copy() if hasattr(state, "copy") else copy.deepcopy(state)


def fold(rules, events: Sequence, viewer=REFEREE) -> Fold:
    """The :class:`Fold` of a whole log's decoded ``events`` (records 1, 2, ...) for
    ``viewer``: ``fold(...).state`` is the game as ``viewer`` knows it at the end."""
    return Fold(rules, viewer).advance(events)


# -- snapshots ---------------------------------------------------------------------------------
def snapshot_bytes(game: str, kind: str, header_link: bytes, seq: int, link: bytes,
                   folds: dict) -> bytes:
    """Every fold of ``game`` at record ``seq`` (whose link is ``link``) as snapshot bytes:
    ``folds`` maps a viewer to its :class:`Fold` (all at ``seq``)."""
    import pickle

    plain = {viewer: (f.state, None if f.desk is None else f.desk.to_plain())
             for viewer, f in folds.items()}
    return pickle.dumps({"format": SNAPSHOT_FORMAT, "game": game, "kind": kind,
                         "header_link": header_link, "seq": seq, "link": link, "folds": plain},
                        protocol=pickle.HIGHEST_PROTOCOL)


def read_snapshot(data: bytes, game: str) -> "tuple[int, bytes, bytes, dict] | None":
    """``(seq, link, header_link, {viewer: (state, desk)})`` from snapshot bytes of ``game``
    (build the folds with :func:`snapshot_folds`), or None for bytes that are not this
    version's snapshot of that game (damaged, foreign, older).  Only data is read: a pickle
    naming any class but a game's own state classes is refused."""
    try:
        snap = _unpickle(data)
        if not (isinstance(snap, dict) and snap.get("format") == SNAPSHOT_FORMAT
                and snap.get("game") == game):
            return None
        seq, link, header_link, plain = (snap["seq"], snap["link"], snap["header_link"],
                                         snap["folds"])
        if type(seq) is not int or seq < 1 or not isinstance(plain, dict) or REFEREE not in plain:
            return None
        for value in plain.values():
            if not (isinstance(value, tuple) and len(value) == 2):
                return None
        return seq, link, header_link, plain
    except Exception:  # an unreadable or foreign snapshot: the caller folds from the log
        return None


def snapshot_folds(rules, seq: int, plain: dict) -> dict:
    """``{viewer: Fold}`` at record ``seq`` from :func:`read_snapshot`'s plain folds.  Raises
    ValueError (or another error of bad data) for a state that is not the kind's (or the
    seating stage's) or a desk that is not one."""
    from .entropy import Seating

    kinds = (type(rules.initial()), Seating)
    out = {}
    for viewer, (state, desk) in plain.items():
        if type(state) not in kinds:
            raise ValueError(f"a snapshot's state is a {type(state).__name__}")
        out[viewer] = Fold(rules, viewer, state=state, seq=seq,
                           desk=None if desk is None else Desk.from_plain(desk))
    return out


def _unpickle(data: bytes):
    """A snapshot's contents, refusing every class but the games' own attrs classes (their
    states), the seating stage's state and plain containers.  Raises pickle.UnpicklingError
    (or another error of a damaged pickle)."""
    import io
    import pickle

    import attrs

    plain = {("builtins", "set"), ("builtins", "frozenset"), ("collections", "OrderedDict"),
             ("engine.entropy", "Seating")}

    class Unpickler(pickle.Unpickler):
        def find_class(self, module: str, name: str):
            if (module, name) in plain:
                return super().find_class(module, name)
            if module.startswith("engine.games.") and "." not in name:
                found = super().find_class(module, name)
                if isinstance(found, type) and attrs.has(found):
                    return found
            raise pickle.UnpicklingError(f"a snapshot may not hold {module}.{name}")

    return Unpickler(io.BytesIO(data)).load()
