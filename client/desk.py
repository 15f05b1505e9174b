"""The referee's desk in text (engine.desk): how corrections, disputes and rulings read, and
how a voided record is shown: struck through (``~~...~~``, and the terminal's strike-through
where it has one), with the correction that voided it and the reason.

:class:`DeskAware` wraps a kind's renderer (client.output.renderer_for): its ``describe`` and
``describe_map`` read the desk's events too, so every listing (log, replay, submit) does.
"""

from __future__ import annotations

import click

#: the desk's event tags (engine.desk.events.DESK_TYPES, without importing the engine)
DESK_TYPES = frozenset({"corrected", "dispute_raised", "ruling_given", "seat_replaced",
                        "adjudicated", "clock_set", "clock_expired"})


def _seat(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def describe_desk(data: dict, names: list[str]) -> str:
    """One sentence for a desk event given as a tagged map."""
    tag = data.get("type")
    if tag == "corrected":
        return (f"Referee corrects the game back to #{data['to']} (correction "
                f"{data['epoch']}; what followed is void): {data['reason']}")
    if tag == "dispute_raised":
        return (f"{_seat(names, data['seat'])} disputes #{data['about']} (dispute "
                f"{data['dispute']}): {data['text']}")
    if tag == "ruling_given":
        verdict = "upholds" if data["upheld"] else "rejects"
        back = f", and returns the game to #{data['to']}" if data.get("to") is not None else ""
        return f"Referee {verdict} dispute {data['dispute']}{back}: {data['reason']}"
    if tag == "seat_replaced":
        return (f"Referee hands {_seat(names, data['seat'])}'s seat to the bot "
                f"{data['bot']!r} (plays it from now on): {data['reason']}")
    if tag == "adjudicated":
        return f"Referee ends the game at time ({data['rule']}): {data['reason']}"
    if tag in ("clock_set", "clock_expired"):  # the clocks (engine.clock, CLOCK-1 to 9)
        from .clocks import describe_clock

        return describe_clock(data, names)
    raise ValueError(f"{tag!r} is not a desk event")  # pragma: no cover


def strike(text: str) -> str:
    """``text`` struck through: ``~~text~~``, styled so a terminal strikes it too (click
    drops the style when the output is not a terminal)."""
    return click.style(f"~~{text}~~", strikethrough=True)


def voided_line(line: str, mark: dict | None) -> str:
    """A listing's ``line`` as it reads when ``mark`` (``{"by", "reason"}``, from an entry's
    ``voided``) says the record is void; ``line`` unchanged otherwise."""
    if not mark:
        return line
    return f"{strike(line)}  [VOID by #{mark['by']}: {mark['reason']}]"


def entry_line(render, entry: dict, names: list[str]) -> str:
    """``#SEQ  sentence`` of a log entry (``{"seq", "event", "voided"?}``), struck through
    when void."""
    text = render.describe_map(entry["event"], names)
    return f"#{entry['seq']:<4} " + voided_line(text, entry.get("voided"))


def desk_lines(view: dict) -> list[str]:
    """What a view's ``voided`` and ``disputes`` (engine.desk.state.Desk.summary) say, a line
    each, for the text under a table."""
    out = []
    for void in view.get("voided") or []:
        span = (f"#{void['from']}" if void["from"] == void["to"]
                else f"#{void['from']}-#{void['to']}")
        out.append(f"VOID: {span} by the correction at #{void['by']}: {void['reason']}")
    for case in view.get("disputes") or []:
        if case["open"]:
            out.append(f"DISPUTE {case['dispute']} (open): {case['player']} on #{case['seq']}: "
                       f"{case['text']}")
    for seat in view.get("replaced") or []:
        out.append(f"BOT: {seat['player']}'s seat is played by the bot {seat['bot']!r} from "
                   f"#{seat['at']} (DESK-7): {seat['reason']}")
    ended = view.get("adjudicated")
    if ended:
        out.append(f"ENDED AT TIME by the referee at #{ended['seq']} ({ended['rule']}, DESK-8): "
                   f"{ended['reason']}; nothing more is played")
    return out


class DeskAware:
    """A kind's renderer module that also describes the desk's events (the same functions:
    ``describe``, ``describe_map``, ``table``, ``summarize_legal``, ``next_hint``, ...)."""

    def __init__(self, render):
        self._render = render

    def describe_map(self, data: dict, names: list[str]) -> str:
        if data.get("type") in DESK_TYPES:
            return describe_desk(data, names)
        return self._render.describe_map(data, names)

    def describe(self, event, names: list[str]) -> str:
        if getattr(type(event), "TYPE", None) in DESK_TYPES:
            import attrs

            return describe_desk({"type": type(event).TYPE, **attrs.asdict(event)}, names)
        return self._render.describe(event, names)

    def __getattr__(self, name: str):
        return getattr(self._render, name)
