"""The organiser over HTTP: ``devil --server URL --token KEY tournament ...`` against a
``devil serve --organiser-key KEY`` service (engine/web/tournament.py).  Same methods and
answers as :class:`engine.tournament.organiser.Organiser` for what the CLI uses, with events as
maps; errors come back as the engine's exceptions (RemoteClient), so exit codes are the same."""

from __future__ import annotations

import base64
from urllib.parse import quote


class RemoteOrganiser:
    """``client``: a client.remote.RemoteClient (its token: the organiser key)."""

    remote = True

    def __init__(self, client):
        self.client = client

    def _post(self, path: str, body: dict):
        return self.client._json("POST", path, body=body)  # the client's one request path

    def _command(self, tournament: str, body: dict) -> dict:
        return self._post(f"/tournaments/{quote(tournament)}/commands", body)

    def create(self, options: dict) -> str:
        return self._post("/tournaments", options)["tournament"]

    def resolve(self, text: str) -> str:
        return self.show(text)["tournament"]

    def add(self, tournament: str, player: str) -> list:
        return self._command(tournament, {"type": "add", "player": player})["events"]

    def drop(self, tournament: str, player: str, reason: str = "") -> list:
        return self._command(tournament, {"type": "drop", "player": player,
                                          "reason": reason})["events"]

    def adjust(self, tournament: str, player: str, points: str, reason: str,
               kind: str = "penalty") -> list:
        return self._command(tournament, {"type": "penalty", "player": player, "points": points,
                                          "reason": reason,
                                          "correction": kind == "correction"})["events"]

    def pair(self, tournament: str, seating=None, byes=None, games: bool = True,
             seat_entropy: bool | None = None) -> dict:
        body = {"type": "pair", "games": games}
        if seat_entropy is not None:
            body["seat_entropy"] = seat_entropy
        if seating is not None:
            body["seating"] = seating
        if byes is not None:
            body["byes"] = byes
        return self._command(tournament, body)

    def attach(self, tournament: str, source: str, table=None, data: bytes | None = None) -> dict:
        body: dict = {"type": "attach"}
        if data is not None:
            body["log"] = base64.b64encode(data).decode("ascii")
        else:
            body["game"] = source
        if table is not None:
            body["table"] = table
        return self._command(tournament, body)

    def close_round(self, tournament: str) -> dict:
        return self._command(tournament, {"type": "close-round"})

    def bundle_zip(self, tournament: str) -> bytes:
        """The bundle's .zip, written by the service."""
        return self.client._request("GET", f"/tournaments/{quote(tournament)}/bundle.zip").content

    def standings(self, tournament: str) -> dict:
        return self.client._json("GET", f"/tournaments/{quote(tournament)}/standings")

    def show(self, tournament: str) -> dict:
        view = self.client._json("GET", f"/tournaments/{quote(tournament)}")
        return view
