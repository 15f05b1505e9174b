"""Reading a recorded game without a store: the one walk of a .devlog's records.

:func:`load_bytes` scans the bytes (format, hash chain: :func:`engine.log.scan`), decodes every
event with its kind's registry and folds them (engine.fold, voids applied); :func:`fold_bytes`
is the fast path for archives (records folded as they are walked, none kept); :func:`steps`
walks a loaded game event by event as one viewer saw it.
"""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from ..desk.events import DESK_CLASSES
from ..errors import CodecError, LogDamaged
from ..fold import Fold, Unfoldable
from ..game import REFEREE, GameRules, rules_for
from ..log import Header, Record, Walk, read_bytes, scan, walk


@attrs.define
class LoadedLog:
    """A .devlog read without a store: its header, good records, decoded events, rules."""

    path: str | None
    header: Header
    records: list[Record]
    events: list
    rules: GameRules
    torn: int = 0
    #: the referee's desk of the log (engine.desk.state.Desk: voids, disputes), or None when
    #: it holds no desk record
    desk: Any = None

    @property
    def names(self) -> list[str]:
        fold = Fold(self.rules)
        for event in self.events[:4]:
            fold.advance([event])
            try:
                names = self.rules.seats(fold.state)
            except Exception:  # pragma: no cover - a kind whose first event has no players
                continue
            if names:
                return names
        return []

    def effective(self) -> "LoadedLog":
        """The log as it stands with its voids applied: only the game records in force (no
        voided record, no desk record), each with its own sequence number.  What a kind's
        audit reads (a corrected game is audited as corrected)."""
        if self.desk is None:
            return self
        from ..desk.voids import surviving

        pairs = list(surviving(self.records, self.events, self.desk))
        return LoadedLog(self.path, self.header, [r for r, _ in pairs], [e for _, e in pairs],
                         self.rules, self.torn, None)


def decode_all(rules: GameRules, records: list[Record], path: str | None = None) -> list:
    """Every record's event decoded; :class:`LogDamaged` at the first that does not decode."""
    decode = rules.events.from_map
    out = []
    for record in records:
        try:
            out.append(decode(record.event))
        except CodecError as exc:
            raise LogDamaged(record.seq, exc.message, path) from None
    return out


def load_bytes(data: bytes, path: str | None = None) -> LoadedLog:
    """Scan, decode and fold a whole .devlog (raises LogDamaged / UsageError).

    The fold (engine.fold, voids applied) catches a log whose chain was recomputed around an
    impossible event: it is reported as damage at that event's record (``devil verify`` says
    more about why).
    """
    result = scan(data, path)
    rules = rules_for(result.header.kind)
    events = decode_all(rules, result.records, path)
    try:
        fold = Fold(rules).advance(events)
    except Unfoldable as exc:
        raise exc.damage(path) from None
    except LogDamaged as exc:
        raise LogDamaged(exc.seq, exc.reason, path) from None
    return LoadedLog(path, result.header, result.records, events, rules, result.torn, fold.desk)


def open_log(path: str) -> LoadedLog:
    """The .devlog at ``path``, read and decoded (no store, nothing written)."""
    return load_bytes(read_bytes(path), path)


def fold_bytes(data: bytes, path: str | None = None) -> tuple[Header, Any, int]:
    """``(header, state, events)``: a whole .devlog checked (format, hash chain, record shape,
    exactly as :func:`engine.log.scan`) and folded in one pass, without keeping the records.

    The fast path for reading archives.  Records of a last command whose write never finished
    are not folded (they were never acknowledged); an event that does not decode is
    :class:`LogDamaged` at its sequence number.
    """
    try:
        return _fold_bytes(data, path)
    except LogDamaged:
        if not data.endswith(b"\0"):
            raise
        # a torn write followed by zero-fill: scan decides (and raises if it is damage)
        good_end = scan(data, path).good_end
    return _fold_bytes(data[:good_end], path)


#: how many events of whole commands the fast fold hands to engine.fold at once
_CHUNK = 4096


def _fold_bytes(data: bytes, path: str | None) -> tuple[Header, Any, int]:
    info = Walk()
    records = walk(data, info)
    try:
        first = next(records, None)
        assert info.header is not None  # the walk read the header (or raised)
        rules = rules_for(info.header.kind)
        decode = rules.events.from_map
        fold = Fold(rules)
        chunk: list = []  # events of whole commands, not yet folded
        held: list = []  # the events of a command whose last record has not come yet
        if first is not None:
            for obj in _chain_one(first, records):
                try:
                    event = decode(obj[4])
                except CodecError as exc:
                    raise LogDamaged(obj[0], exc.message, path) from None
                if type(event) in DESK_CLASSES:  # a log with the referee's desk: voids applied
                    return _fold_with_desk(data, path)
                if obj[5] == 0 and not held:
                    chunk.append(event)
                    if len(chunk) >= _CHUNK:
                        fold.advance(chunk)
                        chunk = []
                else:
                    held.append(event)
                    if obj[5] == 0:
                        chunk.extend(held)
                        held = []
            fold.advance(chunk)
    except Unfoldable as exc:  # a well-formed log never makes evolve fail (load_bytes too)
        raise exc.damage(path) from None
    except LogDamaged as exc:
        if path is not None and exc.path is None:
            raise LogDamaged(exc.seq, exc.reason, path) from None
        raise
    return info.header, fold.state, fold.seq


def _fold_with_desk(data: bytes, path: str | None) -> tuple[Header, Any, int]:
    """:func:`fold_bytes` of a log holding desk records: the referee's fold, voids applied."""
    from ..fold import fold

    log = load_bytes(data, path)
    return log.header, fold(log.rules, log.events).state, len(log.records)


def _chain_one(first, rest):
    yield first
    yield from rest


def fold_path(path: str) -> tuple[Header, Any, int]:
    """:func:`fold_bytes` of the file at ``path``."""
    return fold_bytes(read_bytes(path), path)


# -- stepping --------------------------------------------------------------------------------
@attrs.define
class Step:
    """One step of a replay: the ``record``, the ``event`` as the viewer saw it, the viewer's
    ``state`` after it (the same object at every step: render it before asking for the next)."""

    record: Record
    event: Any
    state: Any
    #: the referee's desk at this step (engine.desk.state.Desk: the voids of the corrections
    #: so far), None for a log without desk records
    desk: Any = None


def steps(log: LoadedLog, viewer=REFEREE, to: int | None = None) -> Iterator[Step]:
    """The game event by event as ``viewer`` saw it, up to sequence number ``to`` (inclusive).

    For a seat, events are redacted for it; events it never saw (``redact`` gives None) are
    skipped.  The state is the fold of what the viewer saw, so a step can show nothing the
    viewer did not know at that moment.
    """
    fold = Fold(log.rules, viewer)
    for record, shown in fold.steps(log.events, log.records):
        if to is not None and record.seq > to:
            break
        yield Step(record, shown, fold.state, fold.desk)


def view_at(log: LoadedLog, state, viewer, seq: int) -> dict:
    """The kind's view of ``state`` for ``viewer``, with ``game`` and ``version`` added."""
    return {"game": log.header.game, "version": seq, **log.rules.view(state, viewer)}
