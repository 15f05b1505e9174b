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
* ``key() -> {"algorithm", "public"}``; ``key_history() -> {"public", "history"}``
  (engine.keys; ``public`` None and ``problem`` when the key cannot be loaded);
  ``seal(game) -> seal | None`` (engine.receipts)
* ``games() -> [row]``: one row per game (engine.game.summary_row: game, kind, title,
  players, created, finished, events, text, summary, phase, round, winners), or
  ``{"game", "error"}`` for a damaged log

:class:`FileClient` answers the reading methods (resolve, kind, players, view, legal, events)
from one .devlog file, without a store: ``devil show PATH`` and ``devil log PATH``.
"""

from __future__ import annotations

from engine.errors import DevilError
from engine.game import REFEREE
from engine.service import CONSOLE, GameService


class LocalClient:
    """The CLI's view of an in-process service on a store folder."""

    #: create games with seat entropy (`devil new --seat-entropy`): the console sits every seat
    seat_entropy = False
    #: the new game's time control (`devil new --clock/--move-time/--on-timeout`: a map of
    #: client.clocks.control_of), None for none
    clock: dict | None = None

    def __init__(self, service: GameService):
        self.service = service

    def create(self, kind: str, options: dict, seed: int | None = None) -> dict:
        from engine.clock import from_map

        loaded = self.service.create(kind, options, seed=seed, seat_entropy=self.seat_entropy,
                                     clock=from_map(self.clock))
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
        self.service.apply_timeouts(game)  # the timeouts due now first (CLOCK-5)
        return self.service.view(game, self._viewer(game, as_name))

    def legal(self, game: str, as_name: str) -> list[dict]:
        from engine.answers import legal_answer

        viewer = self._viewer(game, as_name)
        return legal_answer(self.service, self.service.load(game), viewer)

    def events(self, game: str, as_name: str | None, after: int = 0) -> list[dict]:
        return self._events(game, self._viewer(game, as_name), after)

    def public_events(self, game: str) -> list[dict]:
        """Every event as a spectator sees it (engine.game.PUBLIC: public facts only)."""
        from engine.game import PUBLIC

        return self._events(game, PUBLIC, 0)

    def _events(self, game: str, viewer, after: int) -> list[dict]:
        from engine.answers import events_answer

        service = self.service
        with service.cache.lock(game):
            loaded = service.load(game)
            return events_answer(loaded, service.stream_of(loaded, viewer, after), viewer,
                                 loaded.desk)

    def submit(self, game: str, command: dict, as_name: str | None,
               command_id: str | None = None) -> dict:
        from engine.answers import submit_answer
        from engine.seats import seat_named

        if as_name is not None:
            command = {**command}
            command.setdefault("player", as_name)
        result = self.service.submit(game, command, actor=CONSOLE, command_id=command_id)
        loaded = result.loaded
        viewer = REFEREE if as_name is None else \
            seat_named(loaded.rules.seats(loaded.state), as_name, where=game)
        return submit_answer(self.service, result, viewer)

    def key(self) -> dict:
        from engine.receipts import public_key

        return {"algorithm": "ed25519", "public": public_key(self.service.store)}

    def key_history(self) -> dict:
        """``{"public", "history"}``: the key now and its rotations (engine.keys.history)."""
        from engine.keys.history import history
        from engine.receipts import SigningKeyDamaged, public_key

        entries = history(self.service.store)
        try:
            return {"public": public_key(self.service.store), "history": entries}
        except SigningKeyDamaged as exc:  # the history helps decide how to rotate: shown too
            return {"public": None, "history": entries, "problem": exc.message}

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
            from engine.answers import summary_row

            row = summary_row(game, loaded.header.kind, loaded.header.created, loaded.rules,
                              loaded.state, loaded.version, loaded.desk)
            row["stopped"] = stopped(self.service.store, game)
            damage = self.service.store.damage(game)
            if damage:  # bytes set aside from its end, until the referee acknowledges them
                row["damage"] = damage
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
            assert check.reason is not None  # a failed check says why
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

    def _fold(self, viewer):
        from engine.fold import fold

        return fold(self.log.rules, self.log.events, viewer)

    def view(self, game: str, as_name: str | None) -> dict:
        from engine.answers import view_answer

        viewer = self._viewer(as_name)
        return view_answer(self.log, self._fold(viewer), viewer)

    def legal(self, game: str, as_name: str) -> list[dict]:
        viewer = self._viewer(as_name)
        rules = self.log.rules
        if viewer is REFEREE:
            return []
        return [rules.commands.to_map(c)
                for c in rules.legal_commands(self._fold(viewer).state, viewer)]

    def events(self, game: str, as_name: str | None, after: int = 0) -> list[dict]:
        from engine.answers import events_answer

        viewer = self._viewer(as_name)
        visible = self.log.rules.visible
        pairs = [(r, shown) for r, e in zip(self.log.records, self.log.events)
                 if r.seq > after and (shown := visible(e, viewer)) is not None]
        return events_answer(self.log, pairs, viewer, self.log.desk)
