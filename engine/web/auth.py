"""Tokens of the network service (issue 5): who a bearer token is, in which game.

Creating a game over HTTP hands out one secret token per role: the ``referee``, a
``spectator`` and one per seat.  A token reads ``<game>.<secret>``: the game id in front lets
the service find the game's token book without an index, the secret (``secrets.token_urlsafe``,
256 bits) is what proves the role.  Only SHA-256 hashes of the tokens are kept, in a sidecar
file beside the game's log::

    the store's private document "tokens" of the game (the file store: <game>.tokens.json,
    mode 0600, written atomically)
    {"version": 1, "game": "KIND-k3f9qz",
     "tokens": {"<sha256 hex>": "referee" | "spectator" | <seat index>, ...}}

A **named referee token** (``POST /games/{id}/referees``, issue 23.4: a referee who reports
the draws of a physical game under their own name) is kept as ``{"role": "referee", "name":
"Rita"}``; a book holding one is version 2 (a version-1 book, which has none, reads as
before).  A draw submitted with such a token records that name as its reporter
(:func:`reporter_for`).

so the .devlog stays readable with msgpack alone and the local CLI keeps working on the same
store folder.  A game without a token book (created by the local CLI) can be reached over HTTP
only with the organiser key, which acts as the referee of every game.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading

import attrs

from ..errors import DevilError, StoreUnavailable

REFEREE_ROLE = "referee"
SPECTATOR_ROLE = "spectator"


@attrs.frozen
class Role:
    """Who a request speaks for: ``kind`` is ``"referee"``, ``"spectator"``, ``"seat"`` or
    ``"organiser"`` (the organiser key: the referee of every game); ``seat`` is the seat index
    for ``"seat"``; ``game`` the game the token belongs to (None for the organiser); ``name``
    the referee's name on a named referee token (None on any other)."""

    kind: str
    game: str | None = None
    seat: int | None = None
    #: a named referee token's name (who reports the draws it submits); None otherwise
    name: str | None = None

    @property
    def is_referee(self) -> bool:
        return self.kind in ("referee", "organiser")


def token_hash(token: str) -> str:
    """The SHA-256 hex digest stored for ``token``."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def game_of_token(token: str) -> str | None:
    """The game id a token names (the part before the first dot), or None."""
    game, dot, secret = token.partition(".")
    return game if dot and game and secret else None


def keys_equal(given: str, expected: str) -> bool:
    """Constant-time comparison of two secrets."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


class TokenBook:
    """The token hashes of the games in a store (the store's private ``"tokens"`` documents)."""

    def __init__(self, store):
        self.store = store
        self._cache: dict[str, dict[str, object]] = {}
        self._lock = threading.Lock()

    def mint(self, game: str, seats: list[str]) -> tuple[dict[str, str], dict]:
        """New tokens for ``game``: the plain tokens ``{"referee": t, "spectator": t, <name>: t,
        ...}`` (returned once, never stored) and the private document of their hashes to keep
        with the game (``{"version", "game", "tokens": {hash: role}}``)."""
        plain: dict[str, str] = {}
        hashes: dict[str, object] = {}
        roles: list[tuple[str, object]] = [("referee", REFEREE_ROLE), ("spectator", SPECTATOR_ROLE)]
        roles += [(name, seat) for seat, name in enumerate(seats)]
        for label, role in roles:
            token = f"{game}.{secrets.token_urlsafe(32)}"
            plain[label] = token
            hashes[token_hash(token)] = role
        return plain, {"version": 1, "game": game, "tokens": hashes}

    def issue(self, game: str, seats: list[str]) -> dict[str, str]:
        """Mint tokens for an existing ``game`` and keep their hashes; the plain tokens.
        Raises UsageError if the game already has tokens."""
        plain, document = self.mint(game, seats)
        self.store.put_private(game, "tokens", document)
        with self._lock:
            self._cache[game] = document["tokens"]
        return plain

    def _hashes(self, game: str, fresh: bool = False) -> dict[str, object] | None:
        if not fresh:
            with self._lock:
                cached = self._cache.get(game)
            if cached is not None:
                return cached
        if not re.match(r"^[a-z]+-[a-z0-9]{4,32}$", game):
            return None  # not a game id: no such token
        try:
            data = self.store.private(game, "tokens")
        except StoreUnavailable:
            raise  # not an unknown token: the database is away (503)
        except (OSError, ValueError, DevilError):
            return None
        hashes = data.get("tokens") if isinstance(data, dict) else None
        if not isinstance(hashes, dict):
            return None
        with self._lock:
            self._cache[game] = hashes
        return hashes

    def add_referee(self, game: str, name: str) -> str:
        """A new referee token of ``game`` bound to ``name`` (already checked: see
        :func:`referee_name`), its hash added to the game's book, which becomes version 2 (a
        game created by the local CLI, which has none, gets a book holding just this token);
        the plain token, returned once.  The caller holds the game's lock."""
        data = self.store.private(game, "tokens")
        if not isinstance(data, dict) or not isinstance(data.get("tokens"), dict):
            data = {"version": 2, "game": game, "tokens": {}}
        token = f"{game}.{secrets.token_urlsafe(32)}"
        hashes = dict(data["tokens"])
        hashes[token_hash(token)] = {"role": REFEREE_ROLE, "name": name}
        self.store.put_private(game, "tokens", {**data, "version": 2, "tokens": hashes},
                               replace=True)
        with self._lock:
            self._cache[game] = hashes
        return token

    def has_tokens(self, game: str) -> bool:
        return self._hashes(game) is not None

    def role(self, token: str) -> Role | None:
        """The role ``token`` proves, or None for a token no game issued."""
        game = game_of_token(token)
        if game is None or "/" in game or game.startswith("."):
            return None
        hashes = self._hashes(game)
        if not hashes:
            return None
        digest = token_hash(token)
        found = _find(hashes, digest)
        if found is None:  # a referee token issued since (by another node): read the book again
            hashes = self._hashes(game, fresh=True)
            found = None if not hashes else _find(hashes, digest)
        if found is None:
            return None
        if isinstance(found, dict):  # a named referee token (version 2)
            name = found.get("name")
            if found.get("role") == REFEREE_ROLE and isinstance(name, str) and name:
                return Role("referee", game, name=name)
            return None
        if found == REFEREE_ROLE:
            return Role("referee", game)
        if found == SPECTATOR_ROLE:
            return Role("spectator", game)
        if isinstance(found, int) and not isinstance(found, bool):
            return Role("seat", game, found)
        return None


def _find(hashes: dict, digest: str):
    """The role stored for ``digest`` in a book's ``hashes`` (None if absent), compared in
    constant time over the (few) entries."""
    found = None
    for stored, role in hashes.items():
        if hmac.compare_digest(stored, digest):
            found = role
    return found


def referee_name(value) -> str:
    """A named referee token's name from a request body: 1 to 32 printable characters, blanks
    around it dropped (as a player's name: engine.game.MAX_NAME).  Raises ValueError with a
    sentence for anything else."""
    from ..game import MAX_NAME

    if not isinstance(value, str) or not value.strip() or len(value.strip()) > MAX_NAME \
            or not value.isprintable():
        raise ValueError(f'a referee\'s "name" is 1 to {MAX_NAME} printable characters, '
                         f"not {value!r}")
    return value.strip()


def reporter_for(role: Role, command: dict, takes_reporter: bool, physical: bool) -> dict:
    """``command`` (a command map from a request body) with the reporter a named referee token
    stands for (issue 23.4): in a physical game, a command whose class takes a ``reporter``
    (``takes_reporter``: a reported draw) given with a named referee token records the
    token's name; a body ``reporter`` naming anyone else is refused (NotAllowed, 403: nothing
    is recorded); the same name in another case is the token's.  Any other token (the unnamed
    referee's, the organiser key) keeps the body's reporter, or none, for the rules to check.
    Never mutates ``command``."""
    from ..errors import NotAllowed

    if role.name is None or not takes_reporter or not physical:
        return command
    given = command.get("reporter")
    if given is not None and (not isinstance(given, str)
                              or given.strip().casefold() != role.name.casefold()):
        raise NotAllowed(f"this referee token reports as {role.name}: a draw it submits "
                         f"cannot name another reporter ({given!r}); leave \"reporter\" out, "
                         "or use that referee's own token")
    return {**command, "reporter": role.name}
