"""The JSON every client receives, built once for the local client and HTTP alike.

``devil ... --json`` (client.api.LocalClient) and the HTTP service's bodies (engine.web) come
from these functions, so they are equal by construction (docs/commands.md, docs/service.md):

* :func:`event_entry` / :func:`events_answer`: an event of a viewer's stream,
  ``{"seq", "actor", "cmd", "time", "event", "voided"?}``;
* :func:`view_answer`: a viewer's view, ``{"game", "version", ...the kind's view, "voided"?,
  "disputes"?, "damage"?}``;
* :func:`submit_answer`: what a command did, ``{"game", "kind", "players", "repeated",
  "events": [{"seq", ...event map}], "view", "receipt"}``: all a client prints, from the
  service's one read of the store;
* :func:`summary_row`: a row of ``devil games`` / ``GET /games``;
* a name the game does not have: :func:`engine.seats.seat_named`, the one error for it.

Everything a viewer is shown of an event goes through :meth:`engine.game.GameRules.visible`.
"""

from __future__ import annotations

from .game import PUBLIC, REFEREE, summary_row  # noqa: F401 (summary_row: one of the answers)
from .log import iso_time


def event_entry(record, shown, viewer, created: int, to_map, desk=None) -> dict:
    """One event of ``viewer``'s stream: ``{"seq", "actor", "cmd", "time", "event"}`` and, for a
    record a correction voided, ``"voided": {"by", "reason"}`` (``"reapplied_as": SEQ`` too
    when an amendment re-applied it); for the first record of a command an amendment
    re-applied, ``"reapplied": {"of", "by"}`` (DESK-9).

    ``shown``: the event as the viewer sees it (GameRules.visible); ``created``: the header's
    time (ms); ``to_map``: the kind's event encoder; ``desk``: engine.desk.state.Desk or None.
    A seat sees its own command ids only and a spectator none (PUBLIC is -1, as the referee's
    actor code is: the spectator is no actor): an id may say what a hidden command was.
    """
    own = viewer is not REFEREE and viewer != PUBLIC and record.actor == viewer
    entry = {"seq": record.seq, "actor": record.actor,
             "cmd": record.cmd if viewer is REFEREE or own else None,
             "time": iso_time(created, record.ts), "event": to_map(shown)}
    if desk is not None:
        mark = desk.mark(record.seq)
        if mark is not None:
            entry["voided"] = mark
        if desk.amends:  # DESK-9: the first record of a command an amendment re-applied
            again = desk.reapplied_of(record.seq)
            if again is not None:
                entry["reapplied"] = again
    return entry


def events_answer(loaded, pairs, viewer, desk=None) -> list[dict]:
    """:func:`event_entry` of every ``(record, shown)`` pair of ``loaded`` (a game of the
    service, or engine.replay.LoadedLog) for ``viewer``."""
    to_map, created = loaded.rules.events.to_map, loaded.header.created
    if desk is not None and not desk.voided:
        desk = None
    return [event_entry(record, shown, viewer, created, to_map, desk) for record, shown in pairs]


def view_answer(loaded, fold, viewer, damage=None) -> dict:
    """The view of ``viewer`` whose :class:`engine.fold.Fold` is ``fold``: ``{"game",
    "version", ...the kind's view}`` plus the desk's ``voided`` and ``disputes`` (every view
    shows them) and ``damage`` (bytes the store set aside, until acknowledged)."""
    rules = loaded.rules
    out = {"game": loaded.header.game, "version": fold.seq, **rules.view(fold.state, viewer)}
    if fold.desk is not None:
        out.update(fold.desk.summary(rules.seats(fold.state), fold.seq))
    if damage:
        out["damage"] = damage
    return out


def submit_answer(service, result, viewer, *, with_legal: bool = False) -> dict:
    """What a command did, as ``viewer`` may see it: ``{"game", "kind", "players",
    "repeated", "events": [{"seq", ...event map}], "view", "receipt"}``; ``view`` carries
    ``legal`` (command maps) with ``with_legal``.  ``result``: engine.service.Submitted, whose
    ``loaded`` is the game just after the command (nothing more is read but the damage
    check)."""
    loaded = result.loaded if result.loaded is not None else service.load(result.game)
    rules = loaded.rules
    visible, to_map = rules.visible, rules.events.to_map
    events = []
    for record, event in zip(result.records, result.events):
        shown = visible(event, viewer)
        if shown is not None:
            events.append({"seq": record.seq, **to_map(shown)})
    view = service.view_of(loaded, viewer)
    if with_legal:
        view["legal"] = legal_answer(service, loaded, viewer)
    return {"game": result.game, "kind": loaded.header.kind,
            "players": rules.seats(loaded.state), "repeated": result.repeated,
            "events": events, "view": view, "receipt": result.receipt}


def legal_answer(service, loaded, viewer) -> list[dict]:
    """Every command ``viewer`` may submit now, as command maps ([] for the referee and the
    public: legal commands belong to a seat)."""
    if viewer is REFEREE or viewer == PUBLIC:
        return []
    to_map = loaded.rules.commands.to_map
    return [to_map(command) for command in service.legal_of(loaded, viewer)]
