"""What the desk knows of a log: its voids, its disputes and how many corrections it holds.

Built from the desk's own records (:meth:`Desk.apply`), which every viewer sees whole, so the
referee and every seat compute the same :class:`Desk` from their streams.
"""

from __future__ import annotations

import attrs

from . import takeback
from .events import (Adjudicated, Amended, Corrected, DisputeRaised, RulingGiven, SeatReplaced,
                     SeatReturned)


@attrs.define
class Void:
    """The records ``first`` to ``last`` voided by the correction at record ``by``: the game's
    records in that range that no earlier correction voided (desk records among them, such as
    a dispute, are never voided); ``first - 1`` is the record the game returned to and
    ``last`` the last record the correction voided.  ``reason``: the referee's."""

    first: int
    last: int
    by: int
    reason: str
    epoch: int
    #: True when an amendment (DESK-9) voided them, not a correction
    amended: bool = False

    def to_json(self) -> dict:
        """``{"from", "to", "by", "reason", "epoch"}`` (sequence numbers, inclusive), and
        ``"amended": true`` when an amendment voided them (DESK-9)."""
        out = {"from": self.first, "to": self.last, "by": self.by, "reason": self.reason,
               "epoch": self.epoch}
        if self.amended:
            out["amended"] = True
        return out


@attrs.define
class Case:
    """Dispute number ``number``: raised at record ``raised`` by seat ``seat`` about record
    ``seq`` with ``text``; once ruled, ``ruling`` is the ruling's record, ``upheld`` and
    ``reason`` what it said and ``to`` the record a correction returned the game to."""

    number: int
    raised: int
    seq: int
    seat: int
    text: str
    ruling: int | None = None
    upheld: bool | None = None
    reason: str | None = None
    to: int | None = None
    #: the ruling's remedy (DESK-10.1: "correct", "amend", "none"; None: rejected, or upheld
    #: before DESK-10) and the records of the corrections and amendments citing the dispute
    remedy: str | None = None
    answered: list = attrs.field(factory=list)

    @property
    def open(self) -> bool:
        return self.ruling is None

    def remedy_text(self) -> str | None:
        """What the ruling did about the dispute, in words (None while open or rejected)."""
        if self.open or not self.upheld:
            return None
        cited = ", ".join(f"#{seq}" for seq in self.answered)
        if self.remedy == "correct" or (self.remedy is None and self.to is not None):
            return f"correction back to #{self.to}" + (f"; also answered by {cited}"
                                                       if cited else "")
        if self.remedy == "amend":
            return f"amendment {cited}" if cited else "amendment (pending: none recorded yet)"
        if self.remedy == "none":
            return "no change: " + str(self.reason) + (f"; answered by {cited}" if cited
                                                        else "")
        return ("no change (no remedy named: recorded before DESK-10)"
                + (f"; answered by {cited}" if cited else ""))

    def to_json(self, names: list[str] | None = None) -> dict:
        """``{"dispute", "raised", "seq", "seat", "player", "text", "open", "ruling",
        "upheld", "reason", "to", "remedy", "remedy_text", "answered"}`` (``answered``: the
        records of the corrections and amendments citing it, DESK-10.2)."""
        player = names[self.seat] if names and 0 <= self.seat < len(names) else None
        return {"dispute": self.number, "raised": self.raised, "seq": self.seq,
                "seat": self.seat, "player": player, "text": self.text, "open": self.open,
                "ruling": self.ruling, "upheld": self.upheld, "reason": self.reason,
                "to": self.to, "remedy": self.remedy, "remedy_text": self.remedy_text(),
                "answered": list(self.answered)}


@attrs.define
class Amendment:
    """The amendment at record ``by`` (DESK-9): record ``seq`` amended (its command began
    after ``to``) to ``command`` for ``reason``; ``reapplied``: ``[of, at]`` pairs (the
    original command's first record, its re-applied first record); ``voided``: ``[of, seat,
    why]`` of each later command that no longer fits; ``dispute``: the one it answers."""

    by: int
    seq: int
    to: int
    command: dict
    reason: str
    reapplied: list
    voided: list
    dispute: int | None = None
    #: the seat whose command was amended (-1: the referee's)
    seat: int = -1

    def to_json(self, names: list[str] | None = None, viewer=None) -> dict:
        """``{"by", "seq", "to", "command", "reason", "dispute", "reapplied": [{"of", "at"}],
        "voided": [{"of", "seat", "player", "why"}]}``; for ``viewer`` (a seat, -1 the public;
        None the referee) the command and the refusals reduced as DESK-9.5 says
        (engine.desk.amend.shown_to)."""
        def who(seat):
            return names[seat] if names and 0 <= seat < len(names) else None

        seated = viewer is not None and viewer >= 0
        command = dict(self.command)
        if viewer is not None and not (seated and self.seat == viewer):
            command = {k: v for k, v in command.items() if k in ("type", "player")}

        def told(seat, why):
            return why if viewer is None or (seated and seat == viewer) else why.split(":", 1)[0]
        return {"by": self.by, "seq": self.seq, "to": self.to, "command": command,
                "reason": self.reason, "dispute": self.dispute,
                "reapplied": [{"of": of, "at": at} for of, at in self.reapplied],
                "voided": [{"of": of, "seat": seat, "player": who(seat), "why": told(seat, why)}
                           for of, seat, why in self.voided]}


@attrs.define
class Desk:
    """The desk's state after some records of a log.

    ``voids``: every correction's :class:`Void`, in log order; ``voided``: voided sequence
    number -> the correction that voided it; ``desk_seqs``: the sequence numbers of the desk's
    own records; ``cases``: dispute number -> :class:`Case`; ``epoch``: corrections so far;
    ``replaced``: seat -> ``(bot name, reason, record)`` of each seat a bot plays (DESK-7).
    ``ended``: ``(seq, reason, rule)`` of the ``adjudicated`` record that ended the game at
    time (DESK-8), or None.  ``returned``: seat -> ``[(bot name, from record, to record)]``
    of each spell a bot played the seat before the referee gave it back (DESK-11).
    ``takebacks``: request number -> :class:`engine.desk.takeback.Request` (DESK-12).
    """

    voids: list = attrs.field(factory=list)
    voided: dict = attrs.field(factory=dict)
    desk_seqs: set = attrs.field(factory=set)
    cases: dict = attrs.field(factory=dict)
    epoch: int = 0
    replaced: dict = attrs.field(factory=dict)
    ended: tuple | None = None
    returned: dict = attrs.field(factory=dict)
    takebacks: dict = attrs.field(factory=dict)
    #: the amendments (:class:`Amendment`, DESK-9) in log order
    amends: list = attrs.field(factory=list)

    def apply(self, seq: int, event) -> bool:
        """Take in the desk record ``seq``; True when it is a correction (every fold must then
        be rebuilt without the records it voided).  ValueError for a correction to a record
        that is not before it (a damaged log)."""
        self.desk_seqs.add(seq)
        kind = type(event)
        if kind is Corrected or kind is Amended:
            if not 0 <= event.to < seq:  # only a damaged or forged log says so
                raise ValueError(f"a correction at record {seq} cannot return to record "
                                 f"{event.to}")
            self.epoch += 1
            newly = [s for s in range(event.to + 1, seq)
                     if s not in self.desk_seqs and s not in self.voided]
            for s in newly:
                self.voided[s] = seq
            last = newly[-1] if newly else seq - 1
            self.voids.append(Void(event.to + 1, last, seq, event.reason, event.epoch,
                                   kind is Amended))
            if kind is Amended:
                self.amends.append(Amendment(
                    seq, event.about, event.to, dict(event.command), event.reason,
                    [list(p) for p in event.reapplied],
                    [[of, seat, why] for (of, seat), why in zip(event.voided, event.why)],
                    event.dispute, event.seat))
            self._cite(seq, event.dispute)
            return True
        if kind is DisputeRaised:
            self.cases[event.dispute] = Case(event.dispute, seq, event.about, event.seat,
                                             event.text)
        elif kind is SeatReplaced:
            self.replaced[event.seat] = (event.bot, event.reason, seq)
        elif kind is SeatReturned:
            spell = self.replaced.pop(event.seat, None)
            if spell is not None:
                self.returned.setdefault(event.seat, []).append((spell[0], spell[2], seq))
        elif kind in takeback.EVENTS:
            span = takeback.apply(self, seq, event)
            if span is not None:  # granted (DESK-12.6): the command's records voided
                first, last, reason = span
                for s in range(first, last + 1):
                    if s not in self.desk_seqs and s not in self.voided:
                        self.voided[s] = seq
                self.voids.append(Void(first, last, seq, reason, self.epoch))
                return True
        elif kind is Adjudicated:
            if self.ended is None:
                self.ended = (seq, event.reason, event.rule)
        elif kind is RulingGiven:
            case = self.cases.get(event.dispute)
            if case is not None:
                case.ruling, case.upheld, case.reason, case.to = (seq, event.upheld, event.reason,
                                                                  event.to)
                case.remedy = event.remedy
        return False

    def _cite(self, seq: int, dispute: int | None) -> None:
        case = None if dispute is None else self.cases.get(dispute)
        if case is not None:
            case.answered.append(seq)

    def reapplied_of(self, seq: int) -> dict | None:
        """``{"of", "by"}`` when record ``seq`` begins a command an amendment re-applied
        (``of``: the original's first record; ``by``: the amendment's record), else None."""
        for amend in self.amends:
            for of, at in amend.reapplied:
                if at == seq:
                    return {"of": of, "by": amend.by}
        return None

    def reapplied_as(self, seq: int) -> dict | None:
        """``{"at", "by"}`` when record ``seq`` begins a command an amendment voided and
        re-applied (``at``: its new first record), else None."""
        for amend in self.amends:
            for of, at in amend.reapplied:
                if of == seq:
                    return {"at": at, "by": amend.by}
        return None

    def skip(self, seq: int) -> bool:
        """Whether a fold leaves record ``seq`` out (a voided record or one of the desk's)."""
        return seq in self.voided or seq in self.desk_seqs

    def void_of(self, seq: int) -> Void | None:
        """The :class:`Void` that voided record ``seq``, or None."""
        by = self.voided.get(seq)
        if by is None:
            return None
        for void in self.voids:
            if void.by == by:
                return void
        return None  # pragma: no cover - every voided seq has its correction

    def mark(self, seq: int) -> dict | None:
        """What a listing adds to record ``seq`` when it is voided: ``{"by", "reason"}``,
        with ``"reapplied_as"`` (its new first record) when an amendment re-applied it."""
        void = self.void_of(seq)
        if void is None:
            return None
        mark: dict = {"by": void.by, "reason": void.reason}
        moved = self.reapplied_as(seq) if self.amends else None
        if moved is not None and moved["by"] == void.by:
            mark["reapplied_as"] = moved["at"]
        return mark

    def open_cases(self) -> list:
        return [case for case in self.cases.values() if case.open]

    def summary(self, names: list[str] | None = None, last: int | None = None,
                viewer=None) -> dict:
        """What every view adds: ``{"voided": [Void.to_json()], "disputes": [Case.to_json()],
        "replaced": [...], "returned": [{"seat", "player", "bot", "from", "to"}],
        "takebacks": [Request.to_json()], "adjudicated": {"seq", "reason", "rule"},
        "amended": [Amendment.to_json()]}`` (the keys present only when the log has such
        records).  ``last``: the log's last sequence number (an open takeback with a game
        record after it is shown ``lapsed``); ``viewer``: whom the amendments are shown to
        (None: the referee, whole)."""
        out: dict = {}
        if self.voids:
            out["voided"] = [void.to_json() for void in self.voids]
        if self.cases:
            out["disputes"] = [case.to_json(names) for case in self.cases.values()]
        if self.replaced:
            out["replaced"] = [
                {"seat": seat, "player": names[seat] if names and 0 <= seat < len(names)
                 else None, "bot": bot, "reason": reason, "at": at}
                for seat, (bot, reason, at) in sorted(self.replaced.items())]
        if self.returned:
            out["returned"] = [
                {"seat": seat, "player": names[seat] if names and 0 <= seat < len(names)
                 else None, "bot": bot, "from": start, "to": end}
                for seat, spells in sorted(self.returned.items()) for bot, start, end in spells]
        if self.takebacks:
            out["takebacks"] = [
                request.to_json(names, last is not None and request.outcome is None
                                and takeback.lapsed(self, request, last))
                for request in self.takebacks.values()]
        if self.ended is not None:
            out["adjudicated"] = {"seq": self.ended[0], "reason": self.ended[1],
                                  "rule": self.ended[2]}
        if self.amends:
            out["amended"] = [amend.to_json(names, viewer) for amend in self.amends]
        return out

    # -- plain data for snapshots (a snapshot may hold data, not classes of its own) ----------
    def to_plain(self) -> dict:
        return {"voids": [attrs.astuple(v) for v in self.voids], "voided": dict(self.voided),
                "desk_seqs": set(self.desk_seqs),
                "cases": [attrs.astuple(c) for c in self.cases.values()], "epoch": self.epoch,
                "replaced": {s: list(r) for s, r in self.replaced.items()},
                "returned": {s: [list(x) for x in r] for s, r in self.returned.items()},
                "takebacks": [attrs.astuple(r, recurse=False) for r in self.takebacks.values()],
                **({} if self.ended is None else {"ended": tuple(self.ended)}),
                **({"amends": [attrs.astuple(a, recurse=False) for a in self.amends]}
                   if self.amends else {})}

    @classmethod
    def from_plain(cls, data: dict) -> "Desk":
        cases = [Case(*c) for c in data["cases"]]
        return cls([Void(*v) for v in data["voids"]], dict(data["voided"]),
                   set(data["desk_seqs"]), {c.number: c for c in cases}, int(data["epoch"]),
                   {int(s): tuple(r) for s, r in (data.get("replaced") or {}).items()},
                   None if data.get("ended") is None else tuple(data["ended"]),
                   {int(s): [tuple(x) for x in r] for s, r in
                    (data.get("returned") or {}).items()},
                   {r[0]: _request(r) for r in data.get("takebacks") or []},
                   [Amendment(*a) for a in data.get("amends") or []])


def _request(row) -> "takeback.Request":
    """A :class:`engine.desk.takeback.Request` from its plain tuple (a snapshot's)."""
    number, asked, seat, first, last, answers, outcome, at, reason = row
    return takeback.Request(number, asked, seat, first, last, dict(answers), outcome, at, reason)
