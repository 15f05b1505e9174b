"""The money of many audited games added up: one ledger across an archive (``devil audit
PATH... --csv FILE / --json``, docs/tools.md).

No game term is named here.  A kind's audit result may have ``totals()`` (engine.game, the
``audit`` hook) giving ``{"totals": {name: int}, "players": {player name: {name: int}},
"lowest": [names], "top": name}`` and ``transfer_rows()`` giving ``[[round, seq, rule, payer,
payee, amount]]``; engine.archive.audit_row puts them in each game's row.  This module only

* adds the named integers up, per kind (two kinds' totals are never mixed): over the whole
  archive, per tournament (a game a tournament bundle's manifest.json lists,
  engine.tournament.bundle) and per player by name (a player's totals add up over the games
  they played; ``games`` counts them).  A total named in ``lowest`` combines by its minimum
  instead of its sum;
* keeps the ``top`` games ranked by the ``top`` total (lowest first when that total is one of
  ``lowest``, else highest first; ties in path order), at most N of them;
* lays the rows out for the CSV (:data:`COLUMNS`, :func:`transfer_records`,
  :meth:`ArchiveLedger.game_records`, :meth:`ArchiveLedger.total_records`).

Rows are added one at a time in path order (engine.archive.imap), so nothing but the running
totals and the N top games is held: the transfers are written out and dropped by the caller.
"""

from __future__ import annotations

import bisect
import os
from typing import Iterable, Iterator

from .errors import UsageError

#: the ledger CSV's columns (docs/tools.md); ``record`` says what a row is: ``transfer``,
#: ``game`` (one total of one game), ``tournament``, ``player``, ``archive`` (totals of the
#: archive, a tournament, a player) or ``top`` (a game ranked by the kind's ``top`` total)
COLUMNS = ["record", "path", "kind", "game", "tournament", "round", "seq", "rule", "payer",
           "payee", "amount", "total", "player", "rank"]
#: the ``transfer_rows()`` fields, in order, as the JSON names them
TRANSFER_FIELDS = ("round", "seq", "rule", "payer", "payee", "amount")


def _record(record: str, **fields) -> list:
    return [record] + [fields.get(column, "") for column in COLUMNS[1:]]


def transfer_records(row: dict, tournament: str | None = None) -> list[tuple]:
    """The CSV rows (tuples in :data:`COLUMNS` order) of the transfers of one audit row (its
    ``transfers``: engine.archive.audit_row with ``transfers=True``); [] for a row without."""
    head = ("transfer", row["path"], row.get("kind") or "", row.get("game") or "",
            tournament or "")
    tail = ("", "", "")
    return [(*head, *t, *tail) for t in row.get("transfers") or ()]


def transfer_maps(row: dict) -> list[dict]:
    """The transfers of one audit row as JSON objects ``{"round", "seq", "rule", "payer",
    "payee", "amount"}``."""
    return [dict(zip(TRANSFER_FIELDS, t)) for t in row.get("transfers") or ()]


class LedgerGroup:
    """The totals of a group of games of one kind (an archive, a tournament): ``games`` (how
    many were added), ``totals`` (name -> int: summed, or the minimum for a name in
    ``lowest``) and ``players`` (name -> {name -> int}, summed, with ``games``)."""

    def __init__(self) -> None:
        self.games = 0
        self.totals: dict[str, int] = {}
        self.players: dict[str, dict[str, int]] = {}

    def add(self, row: dict) -> None:
        """Add one game's ``totals`` and ``players`` (see the module docstring)."""
        self.games += 1
        lowest = set(row.get("lowest") or ())
        for name, value in row["totals"].items():
            if name not in self.totals:
                self.totals[name] = value
            elif name in lowest:
                self.totals[name] = min(self.totals[name], value)
            else:
                self.totals[name] += value
        for player, values in (row.get("players") or {}).items():
            mine = self.players.setdefault(player, {"games": 0})
            mine["games"] += 1
            for name, value in values.items():
                mine[name] = mine.get(name, 0) + value

    def to_json(self) -> dict:
        """``{"games", "totals", "players"}`` (players sorted by name)."""
        return {"games": self.games, "totals": dict(self.totals),
                "players": {name: dict(self.players[name]) for name in sorted(self.players)}}


class KindLedger:
    """One kind's part of an archive's ledger: ``all`` (a :class:`LedgerGroup`), each
    tournament's group, and the ``top`` games."""

    def __init__(self, top: int) -> None:
        self.all = LedgerGroup()
        self.tournaments: dict[str, LedgerGroup] = {}
        self.limit = top
        self.top_total: str | None = None
        self.lowest_first = True
        self.top: list[tuple] = []  # (sort key, arrival, entry), at most ``limit``
        self.arrivals = 0

    def add(self, row: dict, tournament: str | None) -> None:
        self.all.add(row)
        if tournament is not None:
            self.tournaments.setdefault(tournament, LedgerGroup()).add(row)
        name = row.get("top")
        if name is None or name not in row["totals"] or self.limit == 0:
            return
        self.top_total = name
        self.lowest_first = name in (row.get("lowest") or ())
        value = row["totals"][name]
        key = value if self.lowest_first else -value
        self.arrivals += 1
        entry = {"path": row["path"], "game": row.get("game"), "tournament": tournament,
                 "value": value}
        bisect.insort(self.top, (key, self.arrivals, entry))
        del self.top[self.limit:]

    def top_json(self) -> dict:
        """``{"total", "order": "lowest"|"highest", "games": [{"rank", "path", "game",
        "tournament", "value"}]}``."""
        return {"total": self.top_total, "order": "lowest" if self.lowest_first else "highest",
                "games": [{"rank": rank, **entry}
                          for rank, (_, _, entry) in enumerate(self.top, 1)]}


class ArchiveLedger:
    """The ledger of an archive, built one audit row at a time in path order.

    ``tournaments``: game id -> tournament id (:func:`tournaments_of`), ``names``: tournament
    id -> its name; ``top``: how many games to rank (``--top``, 0 or more).  Rows without
    ``totals`` (damaged, skipped, a kind whose audit gives none) are not added."""

    def __init__(self, top: int = 5, tournaments: dict[str, str] | None = None,
                 names: dict[str, str] | None = None) -> None:
        self.limit = top
        self.tournament_of = tournaments or {}
        self.names = names or {}
        self.kinds: dict[str, KindLedger] = {}
        self.seen: set[str] = set()
        #: games added more than once (the same game id in two files): counted each time
        self.repeated: list[str] = []

    def tournament(self, row: dict) -> str | None:
        """The tournament whose bundle lists the row's game, or None."""
        return self.tournament_of.get(row.get("game") or "")

    def add(self, row: dict) -> bool:
        """Add one audit row; whether it had totals to add."""
        if not isinstance(row.get("totals"), dict) or row.get("status") == "damaged":
            return False
        kind = row.get("kind") or ""
        game = row.get("game") or ""
        if game in self.seen:
            self.repeated.append(game)
        self.seen.add(game)
        self.kinds.setdefault(kind, KindLedger(self.limit)).add(row, self.tournament(row))
        return True

    def to_json(self) -> dict:
        """``{kind: {"games", "totals", "players", "tournaments": {id: {"name", "games",
        "totals", "players"}}, "top": {...}}}`` (see docs/tools.md)."""
        out = {}
        for kind, part in self.kinds.items():
            block = part.all.to_json()
            block["tournaments"] = {tid: {"name": self.names.get(tid), **group.to_json()}
                                    for tid, group in sorted(part.tournaments.items())}
            block["top"] = part.top_json()
            out[kind] = block
        return out

    def game_records(self, row: dict) -> list[list]:
        """The CSV rows of one game's totals (``record`` "game"), [] for a row without."""
        if not isinstance(row.get("totals"), dict) or row.get("status") == "damaged":
            return []
        common = {"path": row["path"], "kind": row.get("kind") or "",
                  "game": row.get("game") or "", "tournament": self.tournament(row) or ""}
        return [_record("game", total=name, amount=value, **common)
                for name, value in row["totals"].items()]

    def total_records(self) -> Iterator[list]:
        """The CSV rows of the totals, after every game's: per kind the archive's totals
        (``archive``), each player's (``player``), each tournament's and its players'
        (``tournament`` and ``player`` with the tournament filled in), then the ``top``
        games (``rank`` 1, 2, ...)."""
        for kind, block in self.to_json().items():
            yield from _group_records(kind, block, "archive", "")
            for tid, group in block["tournaments"].items():
                yield from _group_records(kind, group, "tournament", tid)
            top = block["top"]
            for entry in top["games"]:
                yield _record("top", path=entry["path"], kind=kind, game=entry["game"] or "",
                              tournament=entry["tournament"] or "", total=top["total"],
                              amount=entry["value"], rank=entry["rank"])


def _group_records(kind: str, group: dict, record: str, tournament: str) -> Iterator[list]:
    yield _record(record, kind=kind, tournament=tournament, total="games",
                  amount=group["games"])
    for name, value in group["totals"].items():
        yield _record(record, kind=kind, tournament=tournament, total=name, amount=value)
    for player, values in group["players"].items():
        for name, value in values.items():
            yield _record("player", kind=kind, tournament=tournament, player=player,
                          total=name, amount=value)


def tournaments_of(sources: Iterable[str]) -> tuple[dict[str, str], dict[str, str]]:
    """``(game id -> tournament id, tournament id -> name)`` of every tournament bundle among
    the folders ``sources`` (a folder holding a manifest.json of the bundle format,
    engine.tournament.bundle; folders inside them are searched too).  A manifest that is not
    a bundle's is ignored; UsageError for a bundle manifest that cannot be read."""
    from .jsonsafe import loads
    from .tournament.bundle import FORMAT, MAX_FILE

    games: dict[str, str] = {}
    names: dict[str, str] = {}
    for source in sources:
        if not os.path.isdir(source):
            continue
        for folder, dirs, files in os.walk(source):
            dirs.sort()
            if "manifest.json" not in files:
                continue
            path = os.path.join(folder, "manifest.json")
            try:
                with open(path, "rb") as handle:
                    manifest = loads(handle.read(MAX_FILE + 1), path)
            except OSError as exc:
                raise UsageError(f"cannot read {path}: {exc.strerror}") from None
            if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
                continue
            tid = manifest.get("tournament")
            logs = manifest.get("logs")
            if not isinstance(tid, str) or not isinstance(logs, list):
                raise UsageError(f"{path}: a tournament bundle manifest without its "
                                 "tournament or its logs")
            names[tid] = str(manifest.get("name") or tid)
            for entry in logs:
                if isinstance(entry, dict) and entry.get("role") == "game" \
                        and isinstance(entry.get("game"), str):
                    games[entry["game"]] = tid
    return games, names
