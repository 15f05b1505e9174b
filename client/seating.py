"""The seating stage of a game with seat entropy, as the CLI shows and joins it
(engine.entropy).  Kind-agnostic: :class:`Renderer` wraps a kind's renderer so that every
command renders the stage's events and views, and hands the rest to the kind.

A seat's random value is made here (``secrets.token_hex(32)``) and kept until the game
reveals it, in the client's config folder (client.receipts.config_dir)::

    <config>/entropy/<game>.json     {"<player>": "<value>", ...}   (0600)

so the seat can check at the end that the value the service revealed is its own.
"""

from __future__ import annotations

import json
import os
import secrets

SHARED = ("table_opened", "seat_committed", "seats_revealed")


def describe_shared(data: dict, names: list[str]) -> str:
    """One line for a seating event's map."""
    kind = data.get("type")
    if kind == "table_opened":
        return (f"Table opened for {', '.join(data.get('players', []))}: seed committed "
                f"{str(data.get('commitment'))[:16]}...; waiting for every seat's entropy")
    if kind == "seat_committed":
        seat = data.get("seat")
        name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else seat
        return f"{name} gave its entropy (commitment {str(data.get('commitment'))[:16]}...)"
    values = data.get("values") or []
    return "Seats' entropy revealed: " + ", ".join(
        f"{names[i] if i < len(names) else i} {str(v)[:12]}..." for i, v in enumerate(values))


class Renderer:
    """A kind's renderer module with the seating stage in front of it."""

    def __init__(self, kind_render):
        self._kind = kind_render

    def __getattr__(self, name):
        return getattr(self._kind, name)

    def describe_map(self, data: dict, names: list[str]) -> str:
        if isinstance(data, dict) and data.get("type") in SHARED:
            return describe_shared(data, names)
        return self._kind.describe_map(data, names)

    def describe(self, event, names: list[str]) -> str:
        if getattr(type(event), "TYPE", None) in SHARED:
            from engine.entropy import SHARED_EVENTS
            from engine.codec import Registry

            return describe_shared(Registry("seating event", SHARED_EVENTS).to_map(event), names)
        return self._kind.describe(event, names)

    def table(self, view: dict, you: str | None = None) -> str:
        if view.get("phase") != "seating":
            return self._kind.table(view, you)
        lines = [f"{view.get('game', '')}  seating (seat entropy): the game starts when every "
                 "seat is in"]
        for player in view.get("players", []):
            mark = "in" if player.get("entropy_given") else "waiting"
            star = "*" if player.get("name") == you else " "
            lines.append(f" {star} {player.get('name'):<16} {mark}")
        return "\n".join(lines)

    def next_hint(self, view: dict) -> str:
        if view.get("phase") != "seating":
            return self._kind.next_hint(view)
        waiting = view.get("waiting_for") or []
        return ("Waiting for the entropy of: " + ", ".join(waiting)
                + f" (each runs `devil sit {view.get('game', 'GAME')}`)") if waiting else ""

    def summarize_legal(self, commands: list[dict]) -> str:
        if not commands:
            return "nothing now"
        return self._kind.summarize_legal(commands)


# -- a seat's value, kept until the reveal -------------------------------------------------------
def _path(game: str) -> str:
    from .receipts import config_dir

    folder = os.path.join(config_dir(), "entropy")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return os.path.join(folder, f"{game}.json")


def kept_values(game: str) -> dict:
    """``{player: value}`` this client made for ``game`` (empty if none)."""
    try:
        with open(_path(game)) as handle:
            data = json.load(handle)
    except (FileNotFoundError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def value_for(game: str, player: str) -> str:
    """The value this client gives for ``player`` in ``game``: the one it kept (a retry sends
    the same value), else a new one (32 random bytes), kept (0600) before it is sent."""
    values = kept_values(game)
    if player not in values:
        values[player] = secrets.token_hex(32)
        path = _path(game)
        tmp = path + ".tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            json.dump(values, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    return values[player]


def check_kept(result, read) -> None:
    """When this client made a seat's value for the verified game (``result``: an
    engine.replay.Verification of the log ``read()`` returns), check the log revealed exactly
    that value: a sentence in ``result.checks``, or the result failed naming the seat."""
    kept = kept_values(result.game) if result.game else {}
    if not kept or not result.ok:
        return
    from engine.log import scan

    records = scan(read()).records
    if not records or records[0].event.get("type") != "table_opened":
        return
    players = records[0].event.get("players") or []
    last = records[-1].event
    if last.get("type") != "seats_revealed":
        result.checks.append("this client's seat value(s) for " + ", ".join(sorted(kept))
                             + " are kept until the game reveals them")
        return
    for name, value in sorted(kept.items()):
        if name in players and last["values"][players.index(name)] != value:
            result.ok = False
            result.first_bad_seq = records[-1].seq
            result.reason = (f"the value revealed for {name} is not the one this client made "
                             "and sent for that seat")
            result.checks.append(result.reason)
            return
    result.checks.append("the value(s) revealed for " + ", ".join(sorted(kept))
                         + " are the ones this client made")


def sit_first(obj, game: str, name: str | None, as_json: bool) -> bool:
    """Give ``name``'s value to ``game`` if it is seating and waits for that seat (its first
    command was refused with SEAT-1); whether it did."""
    if not name or name == "referee":
        return False
    view = obj.client.view(game, name)
    if view.get("phase") != "seating" or name not in (view.get("waiting_for") or []):
        return False
    import click

    from .receipts import keep

    result = obj.client.submit(game, {"type": "seat_entropy", "value": value_for(game, name)},
                               name, None)
    keep(result.get("receipt"), obj.server or obj.store_dir)
    click.echo(f"({name} gave its entropy first: a game with seat entropy starts once every "
               "seat has)", err=True)
    return True
