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
                        "adjudicated", "seat_returned", "takeback_asked", "takeback_answered",
                        "takeback_ruled", "takeback_granted", "amended", "clock_set",
                        "clock_expired"})


def _seat(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def describe_desk(data: dict, names: list[str]) -> str:
    """One sentence for a desk event given as a tagged map."""
    tag = data.get("type")
    if tag == "corrected":
        answers = (f", answering dispute {data['dispute']}" if data.get("dispute") is not None
                   else "")
        return (f"Referee corrects the game back to #{data['to']} (correction "
                f"{data['epoch']}{answers}; what followed is void): {data['reason']}")
    if tag == "amended":
        return amended_sentence(data)
    if tag == "dispute_raised":
        return (f"{_seat(names, data['seat'])} disputes #{data['about']} (dispute "
                f"{data['dispute']}): {data['text']}")
    if tag == "ruling_given":
        verdict = "upholds" if data["upheld"] else "rejects"
        back = f", and returns the game to #{data['to']}" if data.get("to") is not None else ""
        remedy = {"amend": ", to be put right by an amendment",
                  "none": ", with no change"}.get(data.get("remedy") or "", "")
        return f"Referee {verdict} dispute {data['dispute']}{back}{remedy}: {data['reason']}"
    if tag == "seat_replaced":
        return (f"Referee hands {_seat(names, data['seat'])}'s seat to the bot "
                f"{data['bot']!r} (plays it from now on): {data['reason']}")
    if tag == "adjudicated":
        return f"Referee ends the game at time ({data['rule']}): {data['reason']}"
    if tag == "seat_returned":
        return (f"Referee gives {_seat(names, data['seat'])}'s seat back to its player (the "
                f"bot stops): {data['reason']}")
    if tag == "takeback_asked":
        span = (f"#{data['first']}" if data["first"] == data["last"]
                else f"#{data['first']}-#{data['last']}")
        return (f"{_seat(names, data['seat'])} asks to take back {span} (takeback "
                f"{data['number']})")
    if tag == "takeback_answered":
        said = "consents to" if data["consent"] else "refuses"
        return f"{_seat(names, data['seat'])} {said} takeback {data['number']}"
    if tag == "takeback_ruled":
        said = "allows" if data["allowed"] else "denies"
        return f"Referee {said} takeback {data['number']}: {data['reason']}"
    if tag == "takeback_granted":
        span = (f"#{data['first']}" if data["first"] == data["last"]
                else f"#{data['first']}-#{data['last']}")
        return f"Takeback {data['number']} granted: {span} void ({data['reason']})"
    if tag in ("clock_set", "clock_expired"):  # the clocks (engine.clock, CLOCK-1 to 9)
        from .clocks import describe_clock

        return describe_clock(data, names)
    raise ValueError(f"{tag!r} is not a desk event")  # pragma: no cover


def amended_sentence(data: dict) -> str:
    """One sentence for an ``amended`` record (DESK-9): what was amended, why, and which later
    commands were re-applied and which voided."""
    fields = ", ".join(f"{k}={v}" for k, v in data["command"].items()
                       if k not in ("type", "player")) or "(what it says is hidden)"
    answers = f", answering dispute {data['dispute']}" if data.get("dispute") is not None else ""
    again = ", ".join(f"#{of} as #{at}" for of, at in data["reapplied"]) or "none"
    void = ", ".join(f"#{of}" for of, _seat in data["voided"])
    return (f"Referee amends #{data['about']} to {data['command']['type']} {fields}"
            f"{answers}: {data['reason']}; re-applied: {again}"
            + (f"; no longer fit, void: {void}" if void else ""))


def strike(text: str) -> str:
    """``text`` struck through: ``~~text~~``, styled so a terminal strikes it too (click
    drops the style when the output is not a terminal)."""
    return click.style(f"~~{text}~~", strikethrough=True)


def voided_line(line: str, mark: dict | None, reapplied: dict | None = None) -> str:
    """A listing's ``line`` as it reads when ``mark`` (``{"by", "reason", "reapplied_as"?}``,
    from an entry's ``voided``) says the record is void, or ``reapplied`` (``{"of", "by"}``)
    that an amendment re-applied it; ``line`` unchanged otherwise."""
    if reapplied:
        line = f"{line}  [re-applied #{reapplied['of']} by the amendment at #{reapplied['by']}]"
    if not mark:
        return line
    again = (f"; re-applied as #{mark['reapplied_as']}" if mark.get("reapplied_as") is not None
             else "")
    return f"{strike(line)}  [VOID by #{mark['by']}: {mark['reason']}{again}]"


def entry_line(render, entry: dict, names: list[str]) -> str:
    """``#SEQ  sentence`` of a log entry (``{"seq", "event", "voided"?}``), struck through
    when void."""
    text = render.describe_map(entry["event"], names)
    return f"#{entry['seq']:<4} " + voided_line(text, entry.get("voided"),
                                                 entry.get("reapplied"))


def desk_lines(view: dict) -> list[str]:
    """What a view's ``voided`` and ``disputes`` (engine.desk.state.Desk.summary) say, a line
    each, for the text under a table."""
    out = []
    for void in view.get("voided") or []:
        span = (f"#{void['from']}" if void["from"] == void["to"]
                else f"#{void['from']}-#{void['to']}")
        what = ("amendment" if void.get("amended") else "takeback"
                if any(t["state"] == "granted" and t["at"] == void["by"]
                       for t in view.get("takebacks") or []) else "correction")
        out.append(f"VOID: {span} by the {what} at #{void['by']}: {void['reason']}")
    for case in view.get("disputes") or []:
        if case["open"]:
            out.append(f"DISPUTE {case['dispute']} (open): {case['player']} on #{case['seq']}: "
                       f"{case['text']}")
        elif case.get("remedy") == "amend" and not case.get("answered"):
            out.append(f"DISPUTE {case['dispute']} (upheld, amendment pending): "
                       f"{case['player']} on #{case['seq']}")
    for amend in view.get("amended") or []:
        for gone in amend["voided"]:
            who = gone["player"] or "the referee"
            out.append(f"AMENDED at #{amend['by']}: {who}'s command at #{gone['of']} no longer "
                       f"fits and is void (DESK-9.3): {gone['why']}")
    for seat in view.get("replaced") or []:
        out.append(f"BOT: {seat['player']}'s seat is played by the bot {seat['bot']!r} from "
                   f"#{seat['at']} (DESK-7): {seat['reason']}")
    for request in view.get("takebacks") or []:
        if request["state"] == "open":
            out.append(f"TAKEBACK {request['takeback']} (open, DESK-12): {request['player']} "
                       f"asks to take back #{request['from']}"
                       + (f"-#{request['to']}" if request["to"] != request["from"] else "")
                       + "; consented: " + (", ".join(request["consents"]) or "nobody yet"))
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
