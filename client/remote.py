"""RemoteClient: the CLI's client API (client.api) against a ``devil serve`` service (httpx).

Same methods and return shapes as :class:`client.api.LocalClient`; errors come back as the same
:mod:`engine.errors` exceptions (an :class:`IllegalCommand` keeps its rule), so the CLI prints
the same messages and exits with the same codes as locally.

With a seat's token ``as_name`` may be None (the token's own seat); naming another seat is
refused by the server (NotAllowed, exit 4).  Commands without ``--id`` get a random command id,
and a command whose answer was lost to a network error is resent with the same id, so it is
recorded at most once.
"""

from __future__ import annotations

import json
import time
import uuid
from urllib.parse import quote
from typing import Any, Iterator

import httpx

from engine.errors import (CodecError, DevilError, IllegalCommand, LogDamaged, NotAllowed,
                           StoreUnavailable, UnknownGame, UsageError)

class ServerUnreachable(UsageError):
    """The server could not be reached (connection refused, reset, timed out)."""


#: attempts for a request whose answer was lost (connection errors only)
RETRIES = 3


def error_from(status: int, data: Any) -> DevilError:
    """The engine exception an error answer stands for."""
    if isinstance(data, dict) and isinstance(data.get("error"), str):
        message, code, rule = data["error"], data.get("code"), data.get("rule")
    else:
        message, code, rule = f"the server answered HTTP {status}", None, None
    if code == 1 or (code is None and status in (409, 422) and rule):
        refused = IllegalCommand.__new__(IllegalCommand)
        DevilError.__init__(refused, message)  # the message already starts with the rule id
        refused.rule = rule or ""
        return refused
    if code == 4 or status in (401, 403):
        return NotAllowed(message)
    if code == 3:
        exc = LogDamaged.__new__(LogDamaged)
        DevilError.__init__(exc, message)
        exc.seq, exc.reason, exc.path = -1, message, None
        return exc
    if code == 5 or status == 503:
        return StoreUnavailable(message)  # the server's database is away: try again (exit 5)
    if status == 404:
        return UnknownGame(message)
    if status == 400 and "command" in message:
        return CodecError(message)
    return UsageError(message)


class RemoteClient:
    """The client API over HTTP.  ``server``: the base URL; ``token``: a bearer token (a seat's,
    the referee's, the spectator's, or the organiser key)."""

    #: create games with seat entropy (`devil new --seat-entropy`); each seat then `devil sit`s
    seat_entropy = False
    #: the new game's time control (client.clocks.clock_options), None for none
    clock: dict | None = None

    def __init__(self, server: str, token: str | None = None, *, timeout: float = 30.0,
                 transport: httpx.BaseTransport | None = None):
        self.server = server.rstrip("/")
        self.token = token
        self._http = httpx.Client(base_url=self.server, timeout=timeout, transport=transport)
        self._summaries: dict[str, dict] = {}
        self._game_tokens: dict[str, str] = {}  # referee tokens of games created here
        self._spectator_tokens: dict[str, str] = {}  # and their spectator tokens

    def close(self) -> None:
        self._http.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- plumbing -------------------------------------------------------------------------
    def _headers(self, game: str | None = None, extra: dict | None = None) -> dict:
        headers = {"Accept": "application/json"}
        token = self._game_tokens.get(game) if game else None
        token = token or self.token
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if extra:
            headers.update(extra)
        return headers

    def _request(self, method: str, path: str, *, game: str | None = None,
                 params: dict | None = None, body: Any = None, headers: dict | None = None,
                 retry: bool = False, timeout: float | None = None) -> httpx.Response:
        params = {k: v for k, v in (params or {}).items() if v is not None}
        attempts = RETRIES if retry else 1
        for attempt in range(attempts):
            try:
                kwargs: dict[str, Any] = {"params": params,
                                          "headers": self._headers(game, headers)}
                if body is not None:
                    kwargs["content"] = json.dumps(body).encode("utf-8")
                    kwargs["headers"]["Content-Type"] = "application/json"
                if timeout is not None:
                    kwargs["timeout"] = timeout
                response = self._http.request(method, path, **kwargs)
            except httpx.TransportError as exc:
                if attempt + 1 < attempts:
                    time.sleep(0.2 * (attempt + 1))
                    continue
                raise ServerUnreachable(f"cannot reach the devil server at {self.server}: {exc}"
                                 ) from None
            if response.status_code >= 400:
                try:
                    data = response.json()
                except ValueError:
                    data = None
                raise error_from(response.status_code, data)
            return response
        raise AssertionError("unreachable")  # pragma: no cover

    def _json(self, method: str, path: str, **kwargs) -> Any:
        response = self._request(method, path, **kwargs)
        try:
            return response.json()
        except ValueError:
            raise UsageError(f"the server at {self.server} did not answer JSON") from None

    @staticmethod
    def _path(game: str, tail: str = "") -> str:
        return f"/games/{quote(game, safe='')}{tail}"

    def _summary(self, game: str) -> dict:
        summary = self._summaries.get(game)
        if summary is None:
            summary = self._json("GET", self._path(game), game=game)
            self._summaries[summary["game"]] = summary
            self._summaries[game] = summary
        return summary

    # -- the client API (client.api) ---------------------------------------------------------
    def create(self, kind: str, options: dict, seed: int | None = None) -> dict:
        body: dict[str, Any] = {"kind": kind, "options": options}
        if seed is not None:
            body["seed"] = seed
        if self.seat_entropy:
            body["seat_entropy"] = True
        if getattr(self, "clock", None):  # `devil new --clock ...` (CLOCK-1)
            body["clock"] = dict(self.clock or {})
        created = self._json("POST", "/games", body=body)
        tokens = created.get("tokens") or {}
        if tokens.get("referee"):
            self._game_tokens[created["game"]] = tokens["referee"]
        if tokens.get("spectator"):
            self._spectator_tokens[created["game"]] = tokens["spectator"]
        return created

    def resolve(self, game: str) -> str:
        return self._summary(game)["game"]

    def kind(self, game: str) -> str:
        return self._summary(game)["kind"]

    def players(self, game: str) -> list[str]:
        return list(self._summary(game)["players"])

    def whoami(self, game: str) -> dict:
        """Who the token is in ``game``: ``{"role": "seat"|"referee"|..., "seat"?, "name"?}``."""
        return dict(self._summary(game).get("you") or {})

    def view(self, game: str, as_name: str | None) -> dict:
        return self._json("GET", self._path(game, "/view"), game=game, params={"as": as_name})

    def legal(self, game: str, as_name: str | None) -> list[dict]:
        return self._json("GET", self._path(game, "/legal"), game=game, params={"as": as_name})

    def events(self, game: str, as_name: str | None, after: int = 0) -> list[dict]:
        data = self._json("GET", self._path(game, "/events"), game=game,
                          params={"as": as_name, "after": after})
        return data["events"]

    def public_events(self, game: str) -> list[dict]:
        """Every event as a spectator sees it: asked with the spectator token of a game created
        by this client (else with the client's own token), so the server never sends what the
        table may not see."""
        spectator = self._spectator_tokens.get(game)
        headers = {"Authorization": f"Bearer {spectator}"} if spectator else None
        data = self._json("GET", self._path(game, "/events"), game=game, headers=headers)
        return data["events"]

    def wait_events(self, game: str, as_name: str | None, after: int = 0,
                    wait: float = 25.0) -> dict:
        """Long-poll: ``{"events", "version", "over"}`` after ``after``, waiting up to ``wait``
        seconds for one to arrive."""
        return self._json("GET", self._path(game, "/events"), game=game,
                          params={"as": as_name, "after": after, "wait": wait},
                          timeout=wait + 15.0)

    def stream(self, game: str, as_name: str | None = None, after: int = 0,
               timeout: float = 300.0) -> Iterator[dict]:
        """Server-sent events (``GET /games/{id}/stream``): yields event entries until the game
        is over or the server closes the stream."""
        params = {"as": as_name, "after": after, "timeout": timeout}
        params = {k: v for k, v in params.items() if v is not None}
        with self._http.stream("GET", self._path(game, "/stream"), params=params,
                               headers=self._headers(game, {"Accept": "text/event-stream"}),
                               timeout=httpx.Timeout(30.0, read=timeout + 30.0)) as response:
            if response.status_code >= 400:
                response.read()
                try:
                    data = response.json()
                except ValueError:
                    data = None
                raise error_from(response.status_code, data)
            kind: str | None = None
            data_lines: list[str] = []
            for line in response.iter_lines():
                if line == "":
                    if kind == "event" and data_lines:
                        yield json.loads("\n".join(data_lines))
                    elif kind == "over":
                        return
                    kind, data_lines = None, []
                elif line.startswith(":"):
                    continue
                elif line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    data_lines.append(line[5:].lstrip())

    def submit(self, game: str, command: dict, as_name: str | None,
               command_id: str | None = None) -> dict:
        if as_name is not None:
            command = {**command}
            command.setdefault("player", as_name)
        key = command_id or uuid.uuid4().hex
        return self._json("POST", self._path(game, "/commands"), game=game, body=command,
                          params={"as": as_name}, headers={"Idempotency-Key": key}, retry=True)

    def add_referee(self, game: str, name: str) -> dict:
        """A named referee token of ``game`` (``POST /games/{id}/referees``): ``{"game",
        "name", "role", "token"}``.  Needs the referee's token or the organiser key."""
        return self._json("POST", self._path(game, "/referees"), game=game,
                          body={"name": name})

    def log_bytes(self, game: str) -> bytes:
        """The game's .devlog bytes (the referee only)."""
        return self._request("GET", self._path(game, "/log"), game=game).content

    def games(self) -> list[dict]:
        return self._json("GET", "/games")

    def key(self) -> dict:
        """The server's public signing key: ``{"algorithm", "public"}``."""
        return self._json("GET", "/key")

    def key_history(self) -> dict:
        """The server's key and its rotations: ``{"public", "history"}`` (engine.keys)."""
        return self._json("GET", "/key/history")

    def seal(self, game: str) -> dict | None:
        """A finished game's seal, or None while it runs."""
        try:
            return self._json("GET", self._path(game, "/seal"), game=game)
        except UnknownGame:
            self.resolve(game)  # an unknown game stays an error
            return None
