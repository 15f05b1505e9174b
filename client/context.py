"""The context every ``devil`` command shares: the store or server it talks to (``--store``,
``--server``, ``--token``), whether it prints JSON, and the client API (client.api) made on
first use; ``check_token`` refuses a token no HTTP header can carry."""

from __future__ import annotations


from engine.errors import UsageError


class Context:
    """What every command shares: the store folder, the server and token (or None), whether
    the output (and errors) are JSON, and the client API (client.api), made on first use."""

    def __init__(self, store: str, server: str | None = None, token: str | None = None):
        self.store_dir = store
        self.server = server
        # a token pasted with a trailing newline or blank is still the token
        self.token = token.strip() if isinstance(token, str) else token
        self.json = False
        self._client = None

    def use_store(self, store: str) -> None:
        """``--store`` given after the subcommand (:func:`store_option`): the store to use.
        UsageError if a store was opened already (a group's option before it needed one)."""
        if store == self.store_dir:
            return
        if self._client is not None:
            raise UsageError(f"--store {store} comes too late here: the store "
                             f"{self.store_dir} is open already; give it first "
                             f"(devil --store {store} ...)")
        self.store_dir = store

    @property
    def client(self):
        """The API the commands use (client.api): local, or remote with --server."""
        if self._client is None:
            if self.server:
                from .remote import RemoteClient
                check_token(self.token)
                self._client = RemoteClient(self.server, self.token)
            else:
                from engine.service import GameService
                from engine.store import open_store

                from .api import LocalClient
                self._client = LocalClient(GameService(open_store(self.store_dir)))
        return self._client


def check_token(token: str | None) -> None:
    """UsageError (exit 2) for a token no HTTP header can carry: a token is printable ASCII
    without spaces (the service's are ``GAME.`` and URL-safe base64).  The message names the
    first bad character and its position, never the token (a secret)."""
    if not token:
        return
    for position, char in enumerate(token, 1):
        if not "!" <= char <= "~":
            what = {"\n": "a line break", "\r": "a carriage return", "\t": "a tab",
                    " ": "a space"}.get(char, f"the character {char!r}" if char.isprintable()
                                        else f"the control character U+{ord(char):04X}")
            raise UsageError(f"the token (--token / DEVIL_TOKEN) has {what} at character "
                             f"{position} of {len(token)}: a token is printable ASCII without "
                             "spaces; copy it again (surrounding blanks and line breaks are "
                             "dropped by themselves)")


def local_service(obj: Context, store_dir: str | None = None):
    """A GameService on ``store_dir``, else on the local store; UsageError with --server
    (play and simulate run locally)."""
    from engine.service import GameService
    from engine.store import open_store

    if store_dir is not None:
        return GameService(open_store(store_dir))
    if obj.server:
        raise UsageError("play and simulate run against the local store, not --server")
    return obj.client.service


def token_seat(obj: Context, game: str) -> str | None:
    """With --server: the name of the seat the token belongs to (None for the referee or a
    spectator); locally None."""
    if not obj.server:
        return None
    you = obj.client.whoami(game)
    return you.get("name") if you.get("role") == "seat" else None
