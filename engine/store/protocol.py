"""The one seam to storage: the :class:`EventStore` protocol.

A store keeps, for every game, one append-only stream of records in the .devlog record format
(engine.log): a header, then records ``[seq, actor, cmd, ts, event, left, link]`` hash-chained
by their links.  It also keeps a few private documents beside each stream (the secret seed, the
service's token hashes) and an optional snapshot of the service's folds.  Nothing outside
``engine/store/`` knows where or how: not a path, a file size or a lock.

Every store gives the same guarantees, checked by one contract test suite
(tests/store/test_contract.py) run against each implementation:

* ``append`` with an expected version is atomic: it appends one command's records only if the
  stream's last sequence number is ``expected``, else raises
  :class:`~engine.errors.ConcurrencyConflict` naming both versions; a command id already in the
  stream raises :class:`DuplicateCommand`.  Two writers can never both append seq N.
* a returned append is durable (the file store fsyncs; PostgreSQL commits).
* ``read(after)`` returns the records with ``seq > after`` and the link of the record at
  ``after`` (``base``), so a reader that holds a fold at ``after`` can check the new records
  continue the chain it folded.
* ``wait(after, timeout)`` returns as soon as the stream's head is past ``after``, whichever
  process appended.
* every write (a creation, an import, an appended command) adds one leaf to the store's
  transparency log (``tlog_*``: engine.tlog) before it returns; leaves are never removed.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import attrs

from ..errors import ConcurrencyConflict, UnknownGame, UsageError
from ..log import Header, Record


#: the characters of a game id's random part: no l, o, 0, 1 (easy to read aloud)
_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def random_game_id(kind: str) -> str:
    """A random id: ``kind``, a dash and 6 characters easy to read aloud (``KIND-k3f9qz``)."""
    import secrets

    return f"{kind}-" + "".join(secrets.choice(_ALPHABET) for _ in range(6))


def new_id(kind: str, exists) -> str:
    """A :func:`random_game_id` for which ``exists(id)`` is False (what every store's
    ``new_game_id`` answers)."""
    while True:
        game = random_game_id(kind)
        if not exists(game):
            return game


@attrs.frozen(slots=True)
class Head:
    """Where a stream ends: the last sequence number (0 for a header-only stream) and the link
    of that record (the header's link for 0).  Two reads with equal heads saw the same stream."""

    seq: int
    link: bytes


@attrs.frozen
class Batch:
    """What :meth:`EventStore.read` returns.

    ``header``; ``records``: every record with ``seq > after``, in order; ``base``: the
    :class:`Head` at ``after`` (the link the first returned record chains from), or ``None``
    when the stream has no record ``after`` any more (it is shorter than the reader thought:
    read it again from 0); ``head``: the stream's head after these records.
    """

    header: Header
    records: list[Record]
    base: Head | None
    head: Head


def resolve_id(text: str, games: list[str], where: str) -> str:
    """The one id of ``games`` that ``text`` names: the id itself, or at least 3 characters that
    begin or end exactly one id, or begin the part after its dash (``k3f``, ``9qz``,
    ``KIND-k3`` for ``KIND-k3f9qz``).  Every store resolves with this.  Raises UsageError for
    an empty text, UnknownGame when none or several match (``where`` names the store)."""
    if not text:
        raise UsageError("name a game: its id, or a unique beginning or end of it")
    if text in games:
        return text
    if len(text) < 3:
        raise UnknownGame(f"{text!r} is too short to name a game: give its id, or at least "
                          "3 characters of its beginning or end (see `devil games`)")
    matches = [g for g in games
               if g.startswith(text) or g.endswith(text) or g.partition("-")[2].startswith(text)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise UnknownGame(f"no game {text!r} in {where} (see `devil games`)")
    raise UnknownGame(f"{text!r} matches several games: {', '.join(matches)}")


class DuplicateCommand(ConcurrencyConflict):
    """A command id that is already in the stream (one command id, one command)."""


def check_append(game: str, at: int, expected: int, cmd: str | None, used: bool) -> None:
    """What every store checks before an append: the stream is at ``expected`` (it is at
    ``at``: ConcurrencyConflict naming both) and the command id ``cmd`` is not ``used``
    (DuplicateCommand)."""
    if at != expected:
        raise ConcurrencyConflict(f"{game} moved on: it is at version {at}, the command "
                                  f"expected version {expected}; read it again")
    if cmd is not None and used:
        raise DuplicateCommand(f"command id {cmd!r} is already in {game}")


@runtime_checkable
class EventStore(Protocol):
    """Where games' event streams live.  Game ids look like ``<kind>-<6 to 32 of a-z0-9>``.

    Errors: :class:`~engine.errors.UnknownGame` for a game that is not there,
    :class:`~engine.errors.UsageError` for a malformed id or an id that exists already,
    :class:`~engine.errors.LogDamaged` for a stream that fails its checks,
    :class:`~engine.errors.ConcurrencyConflict` / :class:`DuplicateCommand` from ``append``.

    Two optional capabilities (not part of the protocol's checks): ``local = True`` says that
    reads are a few system calls on local files or memory that never wait for another
    process's lock, so an event loop may make them (``devil serve`` then runs everything but
    the durable write on its loop); ``append_many(requests)`` is a group commit (several
    appends written and made durable together, each answered with its records or its error:
    :class:`engine.store.group.GroupWriter` uses it).
    """

    def create(self, kind: str, game: str, actor: int, events: list[dict],
               secret: dict | None = None, created: int | None = None,
               private: dict[str, dict] | None = None) -> list[Record]:
        """Create ``game``'s stream with its header and first events (tagged maps, one command)
        and keep ``secret`` and the ``private`` documents (name -> JSON-able map, e.g. the
        service's ``"tokens"``) beside it: all or nothing (the game exists only once all are
        in place).  ``created``: the header's time (ms since the epoch; default now)."""

    def append(self, game: str, expected: int, actor: int, cmd: str | None, events: list[dict],
               ts: int | None = None) -> list[Record]:
        """Append one command's events (tagged maps) if the stream is at version ``expected``;
        return their records.  ``ts`` (ms since the header's ``created``) defaults to now."""

    def read(self, game: str, after: int = 0) -> Batch:
        """The records after sequence number ``after`` (see :class:`Batch`)."""

    def head(self, game: str) -> Head:
        """The stream's current :class:`Head` (cheap: no records are decoded)."""

    def command(self, game: str, cmd: str) -> list[Record] | None:
        """The records command id ``cmd`` wrote, or None if the stream has no such command."""

    def wait(self, game: str, after: int, timeout: float) -> Head:
        """Block until the head is past ``after`` (an append by any process) or ``timeout``
        seconds pass; return the head then."""

    def games(self) -> list[str]:
        """Every game id in the store, oldest first."""

    def exists(self, game: str) -> bool:
        """Whether ``game`` is in the store (False for a malformed id)."""

    def new_game_id(self, kind: str) -> str:
        """A fresh id for a new game of ``kind`` that no stream of the store has yet
        (:func:`new_id`: ``KIND-`` and 6 characters easy to read aloud)."""

    def resolve(self, text: str) -> str:
        """The game id ``text`` names: an id, or 3+ characters that begin or end exactly one id
        (or begin the part after its dash).  UnknownGame when none or several match."""

    def secret(self, game: str) -> dict | None:
        """The secret kept at creation (a digital game's seed), or None."""

    def private(self, game: str, name: str) -> dict | None:
        """A private document of ``game`` (e.g. ``"tokens"``), or None."""

    def put_private(self, game: str, name: str, document: dict, *, replace: bool = False) -> None:
        """Keep a private document durably; UsageError if it exists and not ``replace``."""

    def store_private(self, name: str) -> dict | None:
        """A private document of the store itself, not of one game (the service's signing key,
        ``"signing"``), or None.  Names are 1 to 16 lowercase letters."""

    def put_store_private(self, name: str, document: dict) -> dict:
        """Keep a store-wide private document once (created, never replaced: the first writer
        wins a race) and return the document now kept, which is another writer's if it came
        first."""

    def log_bytes(self, game: str) -> bytes:
        """The stream as .devlog bytes: header and every record of a complete command."""

    def import_log(self, data: bytes, secret: dict | None = None) -> str:
        """Add a whole stream given as .devlog bytes (checked; a torn tail is refused) and
        return its game id; UsageError if that game exists."""

    def snapshot(self, game: str) -> bytes | None:
        """The last snapshot saved for ``game``, or None.  Never trusted: the reader checks it
        against the stream."""

    def save_snapshot(self, game: str, data: bytes) -> None:
        """Keep ``data`` as ``game``'s snapshot (replacing the last one; best effort)."""

    def damage(self, game: str) -> list[dict]:
        """What could not be read as records and is not yet acknowledged by the referee:
        ``{"file", "offset", "size", "time", "acknowledged"}`` per piece (``file`` None for
        bytes still at the end of the log).  Empty for a sound stream."""

    def acknowledge_aside(self, game: str, file: str, by: str) -> dict:
        """Mark a set-aside piece as seen by the referee; UsageError for an unknown one."""

    def warnings(self) -> list[str]:
        """Sentences about the store a person should act on (e.g. files others may read)."""

    def location(self, game: str | None = None) -> str:
        """Where ``game`` (or the store) lives, for messages: a path or a URL."""

    def tlog_size(self) -> int:
        """How many leaves the store's transparency log has (engine.tlog: one per write, the
        game's head after it, added before the write is acknowledged; only ever added)."""

    def tlog_entries(self, start: int = 0, end: int | None = None) -> list[bytes]:
        """The leaf entries ``start`` to ``end`` (engine.tlog.leaves), oldest first."""

    def tlog_hashes(self, end: int | None = None) -> list[bytes]:
        """The RFC 6962 leaf hashes (32 bytes each) of the first ``end`` leaves (default all)."""
