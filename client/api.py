"""The narrow API the CLI talks to, so one CLI runs against the local store or a server.

:class:`LocalClient` wraps an in-process :class:`engine.service.GameService`; the HTTP client
(client.remote.RemoteClient) implements the same methods against ``devil serve``.  Everything
crosses this seam as JSON-able data: events and commands as tagged maps.

Methods (``as_name``: a player's name, or None for the referee / the token's own seat):

* ``create(kind, options, seed) -> {"game", "kind", "players", "path"?, "tokens"?}``
* ``resolve(game) -> id``; ``kind(game) -> str``; ``players(game) -> [names]``
* ``view(game, as_name) -> dict``; ``legal(game, as_name) -> [command map]``
* ``events(game, as_name, after=0) -> [{"seq", "actor", "cmd", "time", "event"}]``
* ``public_events(game) -> [...]``: the same entries as a spectator sees them (public facts)
* ``submit(game, command, as_name, command_id) -> {"game", "repeated", "events": [...], "view",
  "receipt"}`` (each event map carries its ``seq``; ``receipt``: engine.receipts)
* ``key() -> {"algorithm", "public"}``; ``seal(game) -> seal | None`` (engine.receipts)
* ``games() -> [row]``: one row per game (engine.game.summary_row: game, kind, title,
  players, created, finished, events, text, summary, phase, round, winners), or
  ``{"game", "error"}`` for a damaged log

:class:`FileClient` answers the reading methods (resolve, kind, players, view, legal, events)
from one .devlog file, without a store: ``devil show PATH`` and ``devil log PATH``.
"""

from __future__ import annotations

from engine.errors import DevilError, UsageError
from engine.game import REFEREE, summary_row
from engine.log import iso_time
from engine.service import CONSOLE, GameService


def mark_voided(entries: list[dict], desk) -> list[dict]:
    """``entries`` (``{"seq", ...}``) with ``"voided": {"by", "reason"}`` added to each record
    a correction voided (``desk``: engine.desk.state.Desk, or None)."""
    if desk is not None and desk.voided:
        for entry in entries:
            mark = desk.mark(entry["seq"])
            if mark is not None:
                entry["voided"] = mark
    return entries


class LocalClient:
    """The CLI's view of an in-process service on a store folder."""

    #: create games with seat entropy (`devil new --seat-entropy`): the console sits every seat
    seat_entropy = False

    def __init__(self, service: GameService):
        self.service = service

    def create(self, kind: str, options: dict, seed: int | None = None) -> dict:
        loaded = self.service.create(kind, options, seed=seed, seat_entropy=self.seat_entropy)
        if self.seat_entropy:  # the console is every seat: each gives a value it keeps
            from client.seating import value_for

            for name in loaded.rules.seats(loaded.state):
                self.service.submit(loaded.game, {"type": "seat_entropy", "player": name,
                                                  "value": value_for(loaded.game, name)},
                                    actor=CONSOLE)
            loaded = self.service.load(loaded.game)
        return {"game": loaded.game, "kind": kind, "players": loaded.rules.seats(loaded.state),
                "path": self.service.store.location(loaded.game),
                "receipt": self.service.receipt(loaded.game, loaded.records[-1])}

    def resolve(self, game: str) -> str:
        return self.service.resolve(game)

    def kind(self, game: str) -> str:
        return self.service.load(game).header.kind

    def players(self, game: str) -> list[str]:
        loaded = self.service.load(game)
        return loaded.rules.seats(loaded.state)

    def _viewer(self, game: str, as_name: str | None):
        return REFEREE if as_name is None else self.service.seat(game, as_name)

    def view(self, game: str, as_name: str | None) -> dict:
        return self.service.view(game, self._viewer(game, as_name))

    def legal(self, game: str, as_name: str) -> list[dict]:
        loaded = self.service.load(game)
        commands = self.service.legal(game, self._viewer(game, as_name))
        return [loaded.rules.commands.to_map(c) for c in commands]

    def events(self, game: str, as_name: str | None, after: int = 0) -> list[dict]:
        loaded = self.service.load(game)
        to_map = loaded.rules.events.to_map
        out = [{"seq": r.seq, "actor": r.actor, "cmd": r.cmd,
                "time": iso_time(loaded.header.created, r.ts), "event": to_map(e)}
               for r, e in self.service.stream(game, self._viewer(game, as_name), after)]
        return mark_voided(out, self.service.desk(game))

    def public_events(self, game: str) -> list[dict]:
        """Every event as a spectator sees it (engine.game.PUBLIC: public facts only)."""
        from engine.game import PUBLIC

        loaded = self.service.load(game)
        to_map = loaded.rules.events.to_map
        return [{"seq": r.seq, "actor": r.actor, "cmd": r.cmd,
                 "time": iso_time(loaded.header.created, r.ts), "event": to_map(e)}
                for r, e in self.service.stream(game, PUBLIC)]

    def submit(self, game: str, command: dict, as_name: str | None,
               command_id: str | None = None) -> dict:
        if as_name is not None:
            command = {**command}
            command.setdefault("player", as_name)
        result = self.service.submit(game, command, actor=CONSOLE, command_id=command_id)
        viewer = self._viewer(game, as_name)
        rules = self.service.load(game).rules
        from engine.desk import DESK_CLASSES

        shown = [(r, e if viewer is REFEREE or type(e) in DESK_CLASSES
                  else rules.redact(e, viewer)) for r, e in zip(result.records, result.events)]
        return {"game": game, "repeated": result.repeated,
                "events": [{"seq": r.seq, **rules.events.to_map(e)} for r, e in shown
                           if e is not None],
                "view": self.service.view(game, viewer), "receipt": result.receipt}

    def key(self) -> dict:
        from engine.receipts import public_key

        return {"algorithm": "ed25519", "public": public_key(self.service.store)}

    def seal(self, game: str) -> dict | None:
        return self.service.seal(game)

    def games(self) -> list[dict]:
        from engine.simulate import stopped

        rows = []
        for game in self.service.store.games():
            try:
                loaded = self.service.load(game)
            except DevilError as exc:
                rows.append({"game": game, "error": exc.message})
                continue
            row = summary_row(game, loaded.header.kind, loaded.header.created, loaded.rules,
                              loaded.state, loaded.version)
            row["stopped"] = stopped(self.service.store, game)
            rows.append(row)
        return rows


class FileClient:
    """The reading half of the client API over one .devlog file (no store, nothing written).

    ``game`` arguments are ignored (the file holds one game).  Raises LogDamaged for a damaged
    file, UsageError for a player the game does not have.
    """

    def __init__(self, path: str):
        from engine.errors import LogDamaged
        from engine.replay import open_log, verify_path

        self.path = path
        check = verify_path(path)  # a re-chained impossible event is damage, named (exit 3)
        if not check.ok:
            raise LogDamaged(check.first_bad_seq or 0, check.reason, path)
        self.log = open_log(path)

    def resolve(self, game: str) -> str:
        return self.log.header.game

    def kind(self, game: str) -> str:
        return self.log.header.kind

    def players(self, game: str) -> list[str]:
        return self.log.names

    def _viewer(self, as_name: str | None):
        if as_name is None:
            return REFEREE
        from engine.seats import seat_named

        return seat_named(self.log.names, as_name, where=self.log.header.game)

    def _pairs(self, viewer):
        """``(record, event)`` as ``viewer`` saw them (events it never saw left out)."""
        from engine.desk import DESK_CLASSES

        redact = self.log.rules.redact
        for record, event in zip(self.log.records, self.log.events):
            shown = event if viewer is REFEREE or type(event) in DESK_CLASSES \
                else redact(event, viewer)
            if shown is not None:
                yield record, shown

    def _state(self, viewer):
        if self.log.desk is not None:  # voids applied (engine.desk.fold)
            from engine.desk.fold import fold

            return fold(self.log.rules, self.log.records, self.log.events, viewer,
                        self.log.desk)[0]
        return self.log.rules.fold(event for _, event in self._pairs(viewer))

    def view(self, game: str, as_name: str | None) -> dict:
        viewer = self._viewer(as_name)
        version = self.log.records[-1].seq if self.log.records else 0
        out = {"game": self.log.header.game, "version": version,
               **self.log.rules.view(self._state(viewer), viewer)}
        if self.log.desk is not None:
            out.update(self.log.desk.summary(self.log.names))
        return out

    def legal(self, game: str, as_name: str) -> list[dict]:
        viewer = self._viewer(as_name)
        rules = self.log.rules
        if viewer is REFEREE:
            return []
        return [rules.commands.to_map(c) for c in rules.legal_commands(self._state(viewer),
                                                                       viewer)]

    def events(self, game: str, as_name: str | None, after: int = 0) -> list[dict]:
        viewer = self._viewer(as_name)
        to_map = self.log.rules.events.to_map
        created = self.log.header.created
        return mark_voided([{"seq": r.seq, "actor": r.actor, "cmd": r.cmd,
                             "time": iso_time(created, r.ts), "event": to_map(e)}
                            for r, e in self._pairs(viewer) if r.seq > after], self.log.desk)
