"""A tournament's history: the events an organiser, a player or the public must see beside the
standings (late entries, drops, penalties and corrections, and whatever other parts record:
forfeits, adjudications, amendments, ...), as lines for every page and text output
(docs/tournaments.md, "What organisers print and watch").

One dispatch table, :data:`DESCRIBERS`: ``{event class: describer}``.  A describer takes the
event and the :class:`HistoryContext` and returns the line's text (or None to leave the event out).
Events without a describer (pairings, attachments, results, closes: the routine of a round,
shown by the pairings and standings themselves) are not history.  A new event kind plugs in
with one call, in the module that defines it or in this one::

    from engine.tournament.history import register
    register(ev.Forfeited, "forfeit", lambda e, ctx: f"{e.player} forfeits table {e.table}")

Every page and output (``pairings``, ``slips``, ``standings``, the served pages) calls
:func:`lines`, so the new kind shows everywhere at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from . import events as ev
from . import noshow_events as _noshow
from .standings import fraction, show


@attrs.define
class HistoryContext:
    """What a describer may need besides its event: ``round`` (the last paired round when the
    event was recorded: 0 before round 1), ``closed`` (the last closed round then)."""

    round: int = 0
    closed: int = 0


@attrs.define(frozen=True)
class Describer:
    """One entry of :data:`DESCRIBERS`: ``kind`` (a short word: ``"late entry"``,
    ``"penalty"``, ...; the pages' first column and the JSON's ``kind``) and ``text(event,
    context) -> str | None``."""

    kind: str | Callable[[Any], str]
    text: Callable[[Any, HistoryContext], str | None]


#: event class -> its describer (see :func:`register`)
DESCRIBERS: dict[type, Describer] = {}


def register(event_class: type, kind: str | Callable[[Any], str],
             text: Callable[[Any, HistoryContext], str | None]) -> None:
    """Show events of ``event_class`` in the history: ``kind`` names the line (a text, or a
    function of the event, e.g. penalty or correction), ``text(event, context)`` words it (None:
    this one is not shown).  Registering a class again replaces its describer."""
    DESCRIBERS[event_class] = Describer(kind, text)


def _round_of(event, context: HistoryContext) -> int:
    """The round a line belongs to: the event's own ``round`` field, else the round then."""
    value = getattr(event, "round", None)
    return value if isinstance(value, int) else context.round


def lines(events: Iterable, upto: int | None = None) -> list[dict]:
    """The history of a tournament stream (its events, in order): ``[{"seq", "round",
    "kind", "text"}]`` (``seq``: the event's position in the stream, from 1).  ``upto``: only
    the events up to round ``upto``'s RoundClosed (the same cut as ``standings --after``)."""
    out: list[dict] = []
    context = HistoryContext()
    for seq, event in enumerate(events, 1):
        t = type(event)
        describer = DESCRIBERS.get(t)
        if describer is not None:
            text = describer.text(event, context)
            if text is not None:
                kind = describer.kind if isinstance(describer.kind, str) else describer.kind(event)
                out.append({"seq": seq, "round": _round_of(event, context), "kind": kind,
                            "text": text})
        if t is ev.RoundPaired:
            context.round = event.round
        elif t is ev.RoundClosed:
            context.closed = event.round
            if upto is not None and event.round >= upto:
                break
    return out


def text_lines(history: list[dict]) -> list[str]:
    """The history as text lines (``round 2  penalty  Ben: -1 (late)``) for the CLI: the kinds
    in a column as wide as the longest of them (at least 11)."""
    width = max([11] + [len(h["kind"]) for h in history])
    return [f"round {h['round']:<3} {h['kind']:<{width}} {h['text']}" for h in history]


def html_list(history: list[dict]) -> str:
    """The history as an HTML section (every text escaped); "" when there is none."""
    import html

    if not history:
        return ""
    rows = "".join(f"<tr><td>{h['round']}</td><td class=player>{html.escape(h['kind'])}</td>"
                   f"<td class=player>{html.escape(h['text'])}</td></tr>" for h in history)
    return ("<section class=history><h2>History</h2><table><thead><tr><th>round</th>"
            "<th class=player>what</th><th class=player>details</th></tr></thead><tbody>"
            f"{rows}</tbody></table></section>")


def _points(text: str) -> str:
    value = fraction(text)
    return ("+" if value > 0 else "") + show(value)


register(ev.PlayerAdded, "late entry",
         lambda e, c: f"{e.player} registered late: plays from round {e.round}")
register(ev.PlayerDropped, "drop",
         lambda e, c: f"{e.player} dropped: not paired from round {e.round}"
         + (f" ({e.reason})" if e.reason else ""))
register(ev.PointsAdjusted, lambda e: e.kind,
         lambda e, c: f"{e.player}: {_points(e.points)} "
         f"point{'' if abs(fraction(e.points)) == 1 else 's'} ({e.reason})")
register(ev.TournamentPublished, "spectator link",
         lambda e, c: "the public spectator link opened" if e.public
         else "the public spectator link closed")


def _reason(text: str) -> str:
    return f" ({text})" if text else ""


# check-in, forfeits, swaps and unpairings (TOUR-7; engine/tournament/noshow_events.py)
register(_noshow.PlayerCheckedIn, "check-in", lambda e, c: None)  # one a player a round: noise
register(_noshow.PlayerForfeited, "forfeit",
         lambda e, c: f"{e.player} forfeits round {e.round}, table {e.table}: "
         + ("the table was made again without them" if e.remade
            else f"their seat is played by the bot {e.bot or 'of the game'}")
         + _reason(e.reason))
register(_noshow.SeatsSwapped, "swap",
         lambda e, c: f"{e.first} and {e.second} swapped seats in round {e.round}"
         + _reason(e.reason))
register(_noshow.RoundUnpaired, "unpair",
         lambda e, c: f"round {e.round}'s pairing undone" + _reason(e.reason))


# time limits and amended results (TOUR-8, TOUR-9; engine/tournament/amend.py)
register(ev.TableAdjudicated, "adjudication",
         lambda e, c: f"round {e.round} table {e.table} ({e.game}) ended"
         + (" by the referee's call (no round time)" if e.ends is None
            else " at time before the round time ran out (the referee's call)" if e.forced
            else " at time")
         + _reason(e.reason))
register(ev.ResultAmended, "amendment",
         lambda e, c: f"round {e.round} table {e.table}'s result amended from {e.game}'s record "
         f"#{e.seq} (was #{e.was_seq})" + _reason(e.reason)
         + (f"; round {e.standing[0]} stands as paired" if len(e.standing) == 1 else
            f"; rounds {', '.join(map(str, e.standing))} stand as paired" if e.standing
            else ""))
