"""The service's fold cache: every game it has read, folded, and advanced as the log grows.

For every game the cache holds a :class:`Loaded`: the referee's :class:`engine.fold.Fold` and
each viewer's (a seat, or PUBLIC), each the fold of that viewer's stream (engine.fold: the one
visibility rule, voids and seating applied) up to where it was last asked for.  Every call
first reads the records appended since the cached head (``store.read(game, after=head)``, by
this or any process): if the store's link at that position is not the cached link (the log
was cut or replaced), the game is loaded again from the log.  A cold load starts from the
game's snapshot (:mod:`engine.service.snapshots`) when the log confirms it.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

import attrs

from ..errors import CodecError, LogDamaged
from ..fold import Fold, Unfoldable
from ..game import REFEREE, GameRules, rules_for
from ..log import Header, Record
from ..store import loopguard
from ..store.protocol import Batch, EventStore, Head
from . import snapshots


@attrs.define(eq=False)
class Loaded:
    """One game as the service holds it.

    ``referee``: the referee's :class:`engine.fold.Fold` at ``head``; ``folds``: each other
    viewer's Fold (advanced when asked for); ``base``: the sequence number before the first
    record held in memory (0 unless the game was loaded from a snapshot).  ``records`` and
    ``events`` (decoded) are the whole log: reading them on a game loaded from a snapshot reads
    and decodes the part before it once.
    """

    game: str
    header: Header
    rules: GameRules
    referee: Fold
    head: Head
    base: int
    held_records: list[Record]
    held_events: list
    folds: dict = attrs.field(factory=dict)
    snapshot_seq: int = 0
    #: the game's chance once drawn from (engine.service.seating), kept with the game
    chance: Any = None
    fill: Callable[["Loaded"], None] | None = None
    #: the game's clocks (engine.clock.ClockFold), made when first asked for
    #: (engine.service.clocks.clock_of)
    clock: Any = None

    @property
    def state(self):
        """The referee's state at the head (read it, do not change it)."""
        return self.referee.state

    @property
    def desk(self):
        """The referee's desk (engine.desk.state.Desk: voids, disputes), or None while the log
        holds no desk record."""
        return self.referee.desk

    @property
    def version(self) -> int:
        """The sequence number of the last record (the game's version)."""
        return self.head.seq

    @property
    def records(self) -> list[Record]:
        if self.base and self.fill is not None:
            self.fill(self)
        return self.held_records

    @property
    def events(self) -> list:
        if self.base and self.fill is not None:
            self.fill(self)
        return self.held_events

    def appended(self, count: int) -> list:
        """The decoded events of the last ``count`` records."""
        return self.held_events[len(self.held_events) - count:] if count else []


class GameCache:
    """The loaded games of one store, one lock per game (folds advance in place)."""

    def __init__(self, store: EventStore):
        self.store = store
        self._games: dict[str, Loaded] = {}
        self._locks: dict[str, threading.RLock] = {}
        self._locks_lock = threading.Lock()
        #: ``defer(game)``: write the game's due snapshot later, off the event loop (set by
        #: ``devil serve``); None: a due snapshot is written as the fold advances
        self.defer: Callable[[str], None] | None = None

    def lock(self, game: str) -> threading.RLock:
        """The lock of one game: its folds are advanced in place, one thread at a time."""
        with self._locks_lock:
            lock = self._locks.get(game)
            if lock is None:
                lock = self._locks[game] = threading.RLock()
            return lock

    def held(self, game: str) -> Loaded | None:
        """``game`` as last folded, without reading the store (None when not held)."""
        return self._games.get(game)

    def held_games(self) -> list[str]:
        """The ids of the games held (a copy: the cache may change meanwhile)."""
        return list(self._games)

    def refresh(self, game: str) -> Loaded:
        """``game`` advanced by whatever was appended since (call with its lock held).
        Raises UnknownGame, LogDamaged."""
        loaded = self._games.get(game)
        if loaded is None:
            return self._cold(game)
        if loopguard.fresh(game):  # read already for this request, on the loop
            return loaded
        taken = self.take(loaded, self.store.read(game, after=loaded.head.seq))
        assert taken is not None  # read just now, at the head held
        return taken

    def take(self, loaded: Loaded, batch: Batch) -> Loaded | None:
        """``loaded`` advanced by ``batch``, the store's records after ``loaded.head`` (read
        by the caller, e.g. with the store's ``read_async``; call with the game's lock held).
        None if the game moved in the cache meanwhile (read again).  A log that is not the
        one folded (cut, replaced) is loaded again from the store.  Raises UnknownGame,
        LogDamaged."""
        game = loaded.game
        if self._games.get(game) is not loaded or (batch.base is not None
                                                   and batch.base.seq != loaded.head.seq):
            return None
        if (batch.base is None or batch.base.link != loaded.head.link
                or batch.header != loaded.header):
            # the log is not the one folded (cut, replaced): start again from the log
            self._games.pop(game, None)
            return self._cold(game)
        if batch.records:
            self.advance(loaded, batch.records)
        return loaded

    def _cold(self, game: str) -> Loaded:
        """Load ``game`` from its snapshot if the log confirms it, else fold the whole log."""
        loaded = self._from_snapshot(game)
        if loaded is None:
            batch = self.store.read(game, after=0)
            assert batch.base is not None  # read from the start: based on the header
            rules = rules_for(batch.header.kind)
            loaded = Loaded(game, batch.header, rules, Fold(rules), batch.base, 0, [], [],
                            fill=self._fill)
            self.advance(loaded, batch.records)
            if not loaded.held_records:
                raise LogDamaged(1, "the log has a header but no events (an unfinished creation)",
                                 self.store.location(game))
        self._games[game] = loaded
        return loaded

    def _from_snapshot(self, game: str) -> Loaded | None:
        """The game from its snapshot and what follows it, or None when there is no snapshot or
        the log does not confirm it (another link at its position, another game, a damaged or
        foreign file): a snapshot is never trusted."""
        data = self.store.snapshot(game)
        if not data:
            return None
        found = snapshots.read(self.store, data, game)
        if found is None:
            return None
        seq, link, header_link, plain = found
        batch = self.store.read(game, after=seq)
        if batch.base is None or batch.base.link != link or batch.header.link != header_link:
            return None
        rules = rules_for(batch.header.kind)
        try:
            folds = snapshots.folds(rules, seq, plain)
            referee = folds.pop(REFEREE)
            loaded = Loaded(game, batch.header, rules, referee, batch.base, seq, [], [], folds,
                            snapshot_seq=seq, fill=self._fill)
            self.advance(loaded, batch.records)
        except Exception:  # folds that do not hold (a snapshot is never trusted): the log decides
            return None
        return loaded

    def _fill(self, loaded: Loaded) -> None:
        """Read and decode the part of the log before a snapshot (once)."""
        with self.lock(loaded.game):
            if not loaded.base:
                return
            early = self.store.read(loaded.game, after=0).records[: loaded.base]
            at_base = self.store.read(loaded.game, after=loaded.base).base
            if len(early) != loaded.base or at_base is None or early[-1].link != at_base.link:
                raise LogDamaged(len(early), "the log changed under a running service; "
                                 "run `devil verify`", self.store.location(loaded.game))
            loaded.held_events[:0] = self._decode(loaded, early)
            loaded.held_records[:0] = early
            loaded.base = 0

    def _decode(self, loaded: Loaded, records: list[Record]) -> list:
        decode = loaded.rules.events.from_map
        out = []
        for record in records:
            try:
                out.append(decode(record.event))
            except CodecError as exc:
                self._games.pop(loaded.game, None)
                raise LogDamaged(record.seq, exc.message,
                                 self.store.location(loaded.game)) from None
        return out

    def advance(self, loaded: Loaded, records: list[Record]) -> None:
        """Fold ``records`` (which follow ``loaded.head``) into the referee's fold, and write a
        snapshot when one is due."""
        events = self._decode(loaded, records)
        try:
            loaded.referee.advance(events, lambda: loaded.events)
        except Unfoldable as exc:  # an impossible event in a log whose chain was recomputed
            self._games.pop(loaded.game, None)
            raise exc.damage(self.store.location(loaded.game)) from None
        except LogDamaged as exc:  # a correction to a record not before it
            self._games.pop(loaded.game, None)
            raise LogDamaged(exc.seq, f"{exc.reason}; run `devil verify`",
                             self.store.location(loaded.game)) from None
        except BaseException:  # stopped half-way (engine.store.loopguard.NeedsThread while
            # a correction reads the earlier events): the folds are changed in place, so the
            # game is let go and loaded again by whoever asks next
            self._games.pop(loaded.game, None)
            raise
        loaded.held_records.extend(records)
        loaded.held_events.extend(events)
        if records:
            loaded.head = Head(records[-1].seq, records[-1].link)
        if snapshots.due(loaded):
            if self.defer is not None and loopguard.active():
                self.defer(loaded.game)  # not on the event loop: its writes block
            else:
                self.write_snapshot(loaded)

    def fold_of(self, loaded: Loaded, viewer) -> Fold:
        """``viewer``'s fold at the head, advanced from where it was."""
        if viewer is REFEREE:
            return loaded.referee
        fold = loaded.folds.get(viewer)
        if fold is None or fold.seq < loaded.base:
            fold = loaded.folds[viewer] = Fold(loaded.rules, viewer)
        if fold.seq < loaded.head.seq:
            if fold.seq < loaded.base:  # pragma: no cover - reset above
                events, offset = loaded.events, 0
            else:
                events, offset = loaded.held_events, loaded.base
            start = fold.seq
            try:
                fold.advance(events[start - offset:], lambda: loaded.events[:start])
            except BaseException:  # stopped half-way (as in advance): let the game go
                self._games.pop(loaded.game, None)
                raise
        return fold

    def write_due_snapshot(self, game: str) -> None:
        """Write ``game``'s snapshot if one is due (what :attr:`defer` put off), holding its
        lock; nothing for a game not held."""
        with self.lock(game):
            loaded = self._games.get(game)
            if loaded is not None and snapshots.due(loaded):
                self.write_snapshot(loaded)

    def write_snapshot(self, loaded: Loaded) -> None:
        """Save every fold of ``loaded`` (referee, each seat, the public) at its head."""
        from ..game import PUBLIC

        viewers = [PUBLIC, *range(len(loaded.rules.seats(loaded.state)))]
        folds = {viewer: self.fold_of(loaded, viewer) for viewer in viewers}
        folds[REFEREE] = loaded.referee
        snapshots.write(self.store, loaded, folds)
