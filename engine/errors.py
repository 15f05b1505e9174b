"""The errors the engine raises.  Every one carries a message meant for a person.

The CLI maps them to exit codes (see docs/commands.md):

* :class:`IllegalCommand` -> 1 (refused by the rules; nothing recorded)
* :class:`UsageError`, :class:`CodecError` of a command, :class:`UnknownGame` -> 2
* :class:`LogDamaged` -> 3
* :class:`NotAllowed` -> 4 (authenticated, but not allowed to do that)
* :class:`StoreUnavailable` -> 5 (the store, e.g. the database, cannot be reached now: try again)
"""

from __future__ import annotations


class DevilError(Exception):
    """Base class of every error the engine raises on purpose."""

    exit_code = 2

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.message


class IllegalCommand(DevilError):
    """A command the rules refuse.

    ``rule`` is the id of the rule it broke (a game's rule id such as ``"XYZ-3.1"``); the message
    is a sentence a player understands and always starts with the rule id.
    """

    exit_code = 1

    def __init__(self, rule: str, message: str):
        self.rule = rule
        super().__init__(f"{rule}: {message}")


class UsageError(DevilError):
    """A command or option that is malformed (not a rules question)."""

    exit_code = 2


class UnknownPlayer(UsageError):
    """A command naming a player the game does not have: refused with the rule that says so
    (``rule``; the message starts with it, as a rules refusal does) and nothing recorded, but
    a usage error (exit 2) like an unknown game, as docs/commands.md says."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        super().__init__(f"{rule}: {message}")


class CodecError(DevilError):
    """A map that does not decode to a known event or command (unknown type or field)."""

    exit_code = 2


class UnknownGame(DevilError):
    """No game with that id in the store."""

    exit_code = 2


class LogDamaged(DevilError):
    """A .devlog file that is damaged anywhere but a torn last record.

    ``seq`` is the sequence number of the first bad record (0 is the header).
    """

    exit_code = 3

    def __init__(self, seq: int, reason: str, path: str | None = None):
        self.seq = seq
        self.reason = reason
        self.path = path
        where = f"{path}: " if path else ""
        super().__init__(f"{where}record {seq} is bad: {reason}")


class ConcurrencyConflict(DevilError):
    """The stream moved on since the caller read it (optimistic concurrency)."""

    exit_code = 2


class NotAllowed(DevilError):
    """The caller may not do this (acting as another seat, reading another seat's view)."""

    exit_code = 4


class StoreUnavailable(DevilError):
    """The store cannot be reached right now (the database is down or the connection was cut).

    Nothing was recorded unless the message says it may have been (a commit whose answer was
    lost): resending the same command with the same command id is always safe.  The HTTP
    service answers 503; the CLI exits 5."""

    exit_code = 5
