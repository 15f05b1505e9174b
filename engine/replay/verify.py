"""``devil verify``: a recorded game checked strictly (see :mod:`engine.replay`).

The format version, the hash chain, the seed commitment against the revealed seed, the seating
stage, and a **strict refold**: the records are grouped into commands (a command's records end
with ``left == 0``); the first batch is re-run through the kind's ``setup``, every later batch
is rebuilt into the command it came from (the kind's ``command_for`` hook) and re-decided from
the fold so far (engine.fold, voids applied): ``decide`` must give exactly the recorded events.
"""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from .. import entropy
from ..chance import SeededChance, commitment as commitment_of
from ..desk.chance import continued
from ..desk.events import DESK_CLASSES, Amended
from ..desk.state import Desk
from ..errors import DevilError, LogDamaged, UsageError
from ..fold import Fold, Unfoldable
from ..game import REFEREE, STREAMS, GameRules, rules_for, takes_reporter
from ..log import REFEREE_ACTOR, VERSION, Header, Record, read_bytes, scan
from .load import decode_all
from .scripted import ChanceMismatch, ScriptedChance


# -- the per-game hook -----------------------------------------------------------------------
def command_hook(rules: GameRules):
    """The kind's ``command_for`` hook (see GameRules.command_for), or None if it has none."""
    return rules.command_for


# -- verification ----------------------------------------------------------------------------
#: what verify, replay and every view say of a game whose creator chose the seed (issue 9.7)
SEED_CHOSEN_NOTE = "chance chosen by the game's creator: reproducible, not secret"


@attrs.define
class Verification:
    """What :func:`verify_bytes` found.  ``checks``: sentences of what holds."""

    ok: bool
    finished: bool
    events: int
    first_bad_seq: int | None = None
    reason: str | None = None
    kind: str | None = None
    game: str | None = None
    commands: int = 0
    seed_checked: bool = False
    seed_chosen: bool = False
    commitment: str | None = None
    physical: bool = False
    torn: int = 0
    checks: list = attrs.field(factory=list)
    #: the corrections' voids ({"from", "to", "by", "reason", "epoch"}) and how many disputes
    voided: list = attrs.field(factory=list)
    disputes: int = 0
    #: a physical game's reported draws in force: ``[(seq, reporter or None), ...]`` (the
    #: seq of each draw's first record; None: no name was given), from the strict refold
    reported: list = attrs.field(factory=list)
    #: the seats' clocks at the last record (engine.clock.Clocks.readings), None without one
    clocks: dict | None = None

    def reporters(self) -> dict[str, int]:
        """How many draws in force each named reporter reported (names in first-report
        order)."""
        counts: dict[str, int] = {}
        for _seq, name in self.reported:
            if name is not None:
                counts[name] = counts.get(name, 0) + 1
        return counts

    def not_named(self) -> int:
        """How many reported draws in force name no reporter (a log from before reporters,
        or a draw reported without a name)."""
        return sum(1 for _seq, name in self.reported if name is None)

    def to_json(self) -> dict:
        return {"ok": self.ok, "finished": self.finished, "events": self.events,
                "first_bad_seq": self.first_bad_seq, "reason": self.reason, "kind": self.kind,
                "game": self.game, "commands": self.commands, "physical": self.physical,
                "seed_checked": self.seed_checked, "seed_chosen": self.seed_chosen,
                "torn_bytes": self.torn,
                "checks": list(self.checks),
                **({"voided": list(self.voided), "disputes": self.disputes}
                   if self.voided or self.disputes else {}),
                **({"reporters": self.reporters(), "draws_not_named": self.not_named()}
                   if self.physical else {}),
                **({"clocks": self.clocks} if self.clocks is not None else {})}


def _desk_check(desk) -> str:
    """The sentence verify says of a log's desk records."""
    parts = []
    corrections = [v for v in desk.voids if not v.amended]
    if desk.amends:  # DESK-9
        parts.append(f"{len(desk.amends)} amendment{'s' if len(desk.amends) != 1 else ''} ("
                     + "; ".join(f"#{a.seq} by #{a.by}: {len(a.reapplied)} re-applied, "
                                 f"{len(a.voided)} no longer fit" for a in desk.amends) + ")")
    if corrections:
        granted = {r.at for r in getattr(desk, "takebacks", {}).values()
                   if r.outcome == "granted"}
        taken = sum(1 for v in corrections if v.by in granted)  # DESK-12.6
        said = [f"{n} {what}{'s' if n != 1 else ''}" for n, what in
                ((len(corrections) - taken, "correction"), (taken, "takeback")) if n]
        voided = sum(1 for by in desk.voided.values()
                     if any(v.by == by for v in corrections))
        parts.append(f"{' and '.join(said)} "
                     f"voiding {voided} record{'s' if voided != 1 else ''} ("
                     + "; ".join((f"#{v.first}" if v.first == v.last else f"#{v.first}-#{v.last}")
                                 + f" by #{v.by}" for v in corrections) + ")")
    if desk.cases:
        open_ = len(desk.open_cases())
        parts.append(f"{len(desk.cases)} dispute{'s' if len(desk.cases) != 1 else ''}"
                     f" ({open_} open)")
    if desk.replaced:  # DESK-7: the bots' commands are re-decided like a person's
        parts.append(f"{len(desk.replaced)} seat{'s' if len(desk.replaced) != 1 else ''} "
                     "played by a bot (" + ", ".join(
                         f"seat {s} by {b!r} from #{at}"
                         for s, (b, _r, at) in sorted(desk.replaced.items())) + ")")
    if desk.ended is not None:
        parts.append(f"adjudicated at record {desk.ended[0]} by {desk.ended[2]}")
    if not parts:  # only the clocks' records (engine.clock): said by their own sentence
        return ""
    return ("referee's desk: " + ", ".join(parts)
            + "; the game is checked with the voids applied")


def _bad(result: Verification, seq: int, reason: str) -> Verification:
    result.ok = False
    result.first_bad_seq = seq
    result.reason = reason
    return result


def batches(records: list[Record]) -> Iterator[tuple[int, int]]:
    """``(start, end)`` index ranges of the records of each command (ends with ``left == 0``)."""
    start = 0
    for index, record in enumerate(records):
        if record.left == 0:
            yield start, index + 1
            start = index + 1
    if start < len(records):  # pragma: no cover - scan drops an unfinished last command
        yield start, len(records)


def verify_path(path: str) -> Verification:
    """:func:`verify_bytes` of the file at ``path``."""
    return verify_bytes(read_bytes(path), path)


def verify_bytes(data: bytes, path: str | None = None, *,
                 shared: dict | None = None) -> Verification:
    """Check a whole .devlog: format, hash chain, seed, strict refold (see the module doc).

    ``shared``: ``{"seed": int, "salt": str}`` revealed by another stream for a game whose
    seed is shared (GameRules.seed_shared: a tournament's duplicate round, TOUR-11.3): it must
    match the game's commitment, and every draw is re-derived from it.  A game that revealed
    its own seed ignores it."""
    result = Verification(ok=True, finished=False, events=0)
    try:
        scanned = scan(data, path)
    except LogDamaged as exc:
        return _bad(result, exc.seq, exc.reason)
    header, records = scanned.header, scanned.records
    result.kind, result.game, result.events, result.torn = header.kind, header.game, \
        len(records), scanned.torn
    result.checks.append(f"format version {VERSION}: readable")
    result.checks.append(f"hash chain: header and {len(records)} records linked")
    if scanned.torn:
        # a write cut short, or the damaged end of an acknowledged command: a reader cannot
        # tell which, so the record is not whole (issue 9.1)
        _bad(result, len(records) + 1,
             f"the last {scanned.torn} bytes (from byte {scanned.good_end}) cannot be read as a "
             "complete command: a write cut short or a damaged end; the next writer sets them "
             "aside beside the log, never deletes them")
    try:
        rules = rules_for(header.kind)
    except UsageError as exc:
        return _bad(result, 0, exc.message)
    try:
        events = decode_all(rules, records)
    except LogDamaged as exc:
        return _bad(result, exc.seq, exc.reason)
    result.checks.append("every event decodes strictly")

    # the plain fold: can every event be applied, and where does the game stand?
    fold = Fold(rules)
    try:
        fold.advance(events)
    except LogDamaged as exc:
        return _bad(result, exc.seq, exc.reason)
    except Unfoldable as exc:  # a well-formed log never makes evolve fail
        return _bad(result, exc.seq, f"{getattr(exc.event, 'TYPE', '?')} cannot be applied at "
                                     f"this point ({exc.cause!r})")
    state, desk = fold.state, fold.desk
    if desk is not None:  # the referee's desk: voids applied as the corrections came
        result.voided = [void.to_json() for void in desk.voids]
        result.disputes = len(desk.cases)
        sentence = _desk_check(desk)
        if sentence:
            result.checks.append(sentence)
    final = state
    try:
        return _check_end(result, rules, header, records, events, final,
                          desk is not None and desk.ended is not None, shared)
    except Exception as exc:  # a state no well-formed log reaches
        return _bad(result, records[-1].seq if records else 0,
                    f"the game's state after the last event cannot be read ({exc!r})")


def _check_end(result: Verification, rules: GameRules, header: Header, records, events, final,
               adjudicated: bool = False, shared: dict | None = None) -> Verification:
    """The seed and the strict refold, once the plain fold of ``events`` gave ``final``;
    ``adjudicated``: the referee ended the game at time (DESK-8), so it is finished though its
    rules never ended it (a digital game's seed stays unrevealed); ``shared``: a shared seed
    revealed elsewhere (see :func:`verify_bytes`)."""
    if not records:
        result.checks.append("the log holds no events yet")
        return result
    result.finished = bool(rules.is_over(final)) or adjudicated
    physical = bool(rules.physical(final))
    result.physical = physical
    committed = rules.commitment(final) if rules.commitment is not None else None
    result.commitment = committed
    revealed = rules.revealed(final) if rules.revealed is not None else None
    seed: Any = None if revealed is None else revealed["seed"]
    salt = None if revealed is None else revealed["salt"]
    is_shared = rules.seed_shared is not None and bool(rules.seed_shared(final))
    if result.finished and not adjudicated and not physical and revealed is None \
            and not is_shared:
        return _bad(result, records[-1].seq, "the game ends but its seed is not revealed")
    from_round = False
    if is_shared and revealed is None and shared is not None:  # TOUR-11.3
        if committed is None or commitment_of(int(shared["seed"]), str(shared["salt"])) \
                != committed:
            return _bad(result, records[-1].seq, "the shared seed revealed by the round does "
                                                 "not match the commitment in this game's "
                                                 "first event (TOUR-11.2)")
        revealed = {"seed": int(shared["seed"]), "salt": str(shared["salt"])}
        if shared.get("seats") is not None:
            revealed["seats"] = list(shared["seats"])
        seed, salt, from_round = revealed["seed"], revealed["salt"], True
        result.checks.append("the shared seed the round revealed matches this game's "
                             "commitment (TOUR-11.3)")
    if revealed is not None and not from_round:
        if physical:
            return _bad(result, records[-1].seq, "a physical game reveals a seed it never had")
        if committed is None or commitment_of(int(seed), str(salt)) != committed:
            return _bad(result, records[-1].seq, "the revealed seed does not match the commitment "
                                                 "published in the first event")
        result.checks.append("the revealed seed matches the commitment in the first event")
    seats = None
    if entropy.opening(events) is not None:  # a game with seat entropy (engine.entropy)
        problem, seats, sentences = entropy.check_seating(header.game, records, events,
                                                          result.finished, committed)
        if problem is not None:
            return _bad(result, *problem)
        result.checks.extend(sentences)
    result.seed_chosen = bool(rules.seed_chosen(final)) if rules.seed_chosen is not None else False
    if rules.notes is not None:
        result.checks.extend(rules.notes(final))
    if result.seed_chosen:
        result.checks.append(f"{SEED_CHOSEN_NOTE} (the first event records it)")

    hook = command_hook(rules)
    if hook is None:
        result.checks.append(f"strict refold: not available for {header.kind} (no command_for "
                             "hook); events were only folded")
        return result
    seeded = revealed is not None
    if seats is not None:
        if revealed is None and not is_shared:  # a forged log: seat entropy is digital games'
            return _bad(result, records[-1].seq, "the seats' values are revealed but no seed is: "
                                                 "seat entropy belongs to a digital game")
        if revealed is not None and "seats" not in revealed:  # (a shared seed brings its own)
            revealed = {**revealed, "seats": seats}
    bad = _refold(rules, hook, records, events, committed, revealed, physical, result)
    if bad is not None:
        return _bad(result, *bad)
    if physical and header.kind in STREAMS:  # a tournament: no chance, every draw public
        result.checks.append(f"strict refold: all {result.commands} commands re-decided to "
                             "exactly the recorded events (pairings recomputed from the "
                             "stream's public seed)")
    elif physical:
        result.checks.append(f"strict refold: all {result.commands} commands re-decided to "
                             "exactly the recorded events (physical game: every chance fact the "
                             "referee reported, a coal or a deal, was possible at its point)")
    elif seeded:
        result.seed_checked = True
        result.checks.append(f"strict refold: all {result.commands} commands re-decided to "
                             "exactly the recorded events; every draw re-derived from the "
                             + ("seed the round revealed" if from_round else "revealed seed")
                             + (" mixed with every seat's revealed value"
                                if seats is not None or (revealed or {}).get("seats") else ""))
    else:
        result.checks.append(f"strict refold: all {result.commands} commands re-decided to "
                             "exactly the recorded events; draws checked as possible only "
                             + ("(the seed is the tournament round's, revealed when the round "
                                "closes: verify the bundle to re-derive them)" if is_shared
                                else "(the seed is revealed when the game ends)"))
    if result.reported:
        result.checks.append(reporters_line(result))
    if adjudicated:
        result.checks.append("finished: adjudicated at time by the referee (DESK-8)"
                             + ("" if physical else "; the seed stays secret"))
    elif result.finished and is_shared:
        result.checks.append("finished: the last event ends the game; its seed is the round's, "
                             "revealed when the round closes (TOUR-11.3)")
    elif result.finished:
        result.checks.append("finished: the last event ends the game"
                             + ("" if physical else " and reveals the seed"))
    else:
        result.checks.append("in progress: the game has not ended (or its end was cut off)")
    return result


def _refold(rules: GameRules, hook, records, events, committed, revealed, physical,
            result: Verification):
    """The strict refold; returns ``(seq, reason)`` of the first bad record, or None."""
    from ..clock import Clocks
    from . import clocks as clock_checks

    to_map = rules.events.to_map
    fold = Fold(rules)  # the log as re-decided so far (voids applied)
    clocks = Clocks()  # the seats' clocks from the records' times (engine.clock)
    number = -1  # the kind's batches (0: its setup); the seating stage's are checked apart
    for start, end in batches(records):
        result.commands += 1
        batch_records, batch_events = records[start:end], events[start:end]
        first_seq = batch_records[0].seq

        def before(start=start):
            return events[:start]

        if len({r.actor for r in batch_records}) != 1 or len({r.cmd for r in batch_records}) != 1:
            return first_seq, "the records of one command name different actors or command ids"
        if entropy.is_shared(batch_events[0]):
            if len(batch_events) != 1:
                return first_seq, "a seating event is a command of its own"
            fold.advance(batch_events, before)
            clock_checks.step(rules, clocks, fold, batch_records, batch_events)
            continue
        if type(batch_events[0]) is Amended:  # DESK-9: the amendment and what it re-applied
            bad = _refold_amend(rules, fold, records, start, end, events, physical, committed,
                                revealed)
            if bad is not None:
                return bad
            _advance_amend(rules, hook, fold, batch_events, first_seq, events, physical, result)
            clock_checks.step(rules, clocks, fold, batch_records, batch_events)
            continue
        bad, own, timeout = clock_checks.check_batch(
            rules, clocks, fold.state, result.commands, batch_records, batch_events, fold.desk,
            lambda start=start: (records[:start], events[:start]))  # (CLOCK-10: the round's)
        if bad is not None:
            return bad
        if own and own == len(batch_events):  # a time control or a flag (CLOCK-1, CLOCK-6)
            fold.advance(batch_events, before)
            clock_checks.step(rules, clocks, fold, batch_records, batch_events)
            continue
        full_records, full_events = batch_records, batch_events
        batch_records, batch_events = batch_records[own:], batch_events[own:]
        at_desk = [type(e) in DESK_CLASSES for e in batch_events]
        if any(at_desk):
            if number < 0 or not all(at_desk):  # before the game's setup
                return first_seq, ("a command of the referee's desk must stand alone, after the "
                                   "game's setup")
            bad = _refold_desk(rules, fold.desk or Desk(), fold.state, records, start, end, events)
            if bad is not None:
                return bad
            fold.advance(batch_events, before)
            clock_checks.step(rules, clocks, fold, batch_records, batch_events)
            continue
        number += 1
        if fold.desk is not None and fold.desk.ended is not None:
            return first_seq, (f"the game was adjudicated at record {fold.desk.ended[0]} "
                               "(DESK-8): nothing more is played after it")
        state = fold.state
        if type(state) is entropy.Seating:
            state = rules.initial()
        epoch = fold.desk.epoch if fold.desk is not None else 0
        try:
            command, answers = hook(state, batch_events)
        except Exception as exc:
            return first_seq, f"no command can have caused this event: {exc}"
        if timeout is not None and rules.commands.to_map(command) != \
                rules.commands.to_map(timeout):
            return first_seq, (f"CLOCK-5: a timeout applies {rules.commands.to_map(timeout)}, "
                               f"not {rules.commands.to_map(command)}")

        def run(chance):
            if number == 0:
                return rules.setup(dict(command), chance)
            return rules.decide(state, command, chance)

        chance: SeededChance | ScriptedChance | None
        if physical:
            chance = None
        elif revealed is not None:
            chance = SeededChance(int(revealed["seed"]), str(revealed["salt"]),
                                  revealed.get("seats"))
        else:
            chance = ScriptedChance(answers, committed, None)
        chance = continued(chance, epoch)  # after a correction the stream goes on (DESK-6)
        if number == 0:
            if batch_records[0].actor != REFEREE_ACTOR:
                return first_seq, "the game's first events must be recorded by the referee"
        else:
            try:
                seat = rules.acting_seat(state, command)
            except DevilError as exc:
                return first_seq, exc.message
            except Exception as exc:  # a rebuilt command no rule can read: an impossible event
                return first_seq, f"no command can have caused this event ({exc!r})"
            actor = batch_records[0].actor
            if actor != REFEREE_ACTOR and actor != seat:
                return first_seq, (f"recorded as given by seat {actor}, but only seat {seat} "
                                   "(or the referee) may give this command")
        try:
            produced = run(chance)
        except (DevilError, ChanceMismatch) as exc:
            return first_seq, f"this command was not possible here: {exc}"
        except Exception as exc:  # e.g. a field a re-chained log set to an impossible value
            return first_seq, f"this command was not possible here ({exc!r})"
        mismatch = _compare(to_map, produced, batch_records, rules.events.from_map)
        if mismatch is not None and revealed is not None and not physical:
            # does the log hold up with its own draws? then the seed is what fails
            try:
                again = run(continued(ScriptedChance(answers, committed, revealed), epoch))
            except (DevilError, ChanceMismatch):
                again = None
            if again is not None and _compare(to_map, again, batch_records,
                                                       rules.events.from_map) is None:
                return mismatch[0], ("this draw does not match the revealed seed: re-derived from "
                                     f"it the rules give {mismatch[2]}, the log records "
                                     f"{mismatch[1]}")
        if mismatch is not None:
            seq, recorded, expected = mismatch
            return seq, f"the log records {recorded}, but the rules give {expected} here"
        try:
            fold.advance(full_events, before)
        except Unfoldable as exc:
            return exc.seq, f"{exc.event.TYPE} cannot be applied at this point ({exc.cause!r})"
        clock_checks.step(rules, clocks, fold, full_records, full_events)
        if physical and number > 0 and takes_reporter(type(command)):  # a reported draw
            result.reported.append((first_seq, command.reporter))
    if clocks.control is not None:
        result.clocks = clocks.readings(clocks.at, rules.seats(fold.state))
        result.checks.append(clock_checks.summary(clocks, rules.seats(fold.state)))
    if result.reported and fold.desk is not None and fold.desk.voided:  # those in force
        result.reported = [(seq, name) for seq, name in result.reported
                           if seq not in fold.desk.voided]
    return None


def reporters_line(result: Verification) -> str:
    """The sentence verify says of a physical game's reported draws: ``"draws reported by:
    Rita 31, Sam 12, not named 4"`` (most first, then by name)."""
    counts = sorted(result.reporters().items(), key=lambda item: (-item[1], item[0]))
    parts = [f"{name} {count}" for name, count in counts]
    if result.not_named():
        parts.append(f"not named {result.not_named()}")
    return "draws reported by: " + ", ".join(parts)


def _refold_desk(rules: GameRules, desk, state, records, start: int, end: int, events):
    """A desk command re-decided (engine.desk.decide) from the log as it stood: ``(seq,
    reason)`` of the first record that differs, or None."""
    from ..desk.amend import left_of
    from ..desk.decide import Log, command_for as desk_command_for, decide as desk_decide
    from ..desk.takeback import History

    batch_records = records[start:end]
    first_seq = batch_records[0].seq
    names = rules.seats(state)
    try:
        command, who = desk_command_for(events[start:end], batch_records[0].actor, names)
        log = Log(first_seq - 1, 1 + records[0].left, left_of(records[:start], events[:start]),
                  names, bool(rules.is_over(state)), bool(rules.physical(state)),
                  history=History(records, events, rules.barrier),  # a takeback's (DESK-12)
                  legacy=True)
        produced = desk_decide(desk, command, who, log)
    except (DevilError, ValueError) as exc:
        return first_seq, f"the referee's desk could not have recorded this: {exc}"
    if type(events[start]).TYPE == "dispute_raised" and who is not REFEREE \
            and events[start].seat != who:
        return first_seq, "a dispute recorded as raised by one seat for another"
    mismatch = _compare(rules.events.to_map, produced, batch_records)
    if mismatch is not None:
        seq, recorded, expected = mismatch
        return seq, f"the log records {recorded}, but the referee's desk gives {expected} here"
    return None


def _advance_amend(rules: GameRules, hook, fold, batch_events, first_seq: int, events, physical,
                   result: Verification) -> None:
    """Fold an amendment's records (already re-decided) command by command, noting each
    re-applied physical draw's reporter as :func:`_refold` does for any other."""
    head = batch_events[0]
    fold.advance(batch_events[:1], lambda: events[:first_seq - 1])
    last = first_seq + len(batch_events) - 1
    cuts = [first_seq + 1, *(at for _of, at in head.reapplied), last + 1]
    for a, b in zip(cuts, cuts[1:]):
        if a >= b:
            continue
        piece = list(events[a - 1:b - 1])
        try:
            command, _answers = hook(fold.state, piece)
        except Exception:  # pragma: no cover - re-decided just before
            command = None
        done = fold.seq
        fold.advance(piece, lambda done=done: events[:done])
        if physical and command is not None and takes_reporter(type(command)):
            result.reported.append((a, command.reporter))


def _refold_amend(rules: GameRules, fold, records, start: int, end: int, events, physical,
                  committed, revealed):
    """An amendment (DESK-9) re-decided from the log before it (engine.desk.amend): the
    replacement and every re-applied command must be exactly the recorded events.  ``(seq,
    reason)`` of the first record that differs, or None."""
    from ..desk.amend import command_for as amend_command_for
    from ..desk.decide import Log, decide as desk_decide

    batch_records = records[start:end]
    first_seq = batch_records[0].seq
    if batch_records[0].actor != REFEREE_ACTOR:
        return first_seq, "an amendment is the referee's (DESK-1), not a seat's"
    state = fold.state
    names = rules.seats(state)
    chance = None if physical else ScriptedChance([], committed, revealed)
    try:
        command = amend_command_for(events[start:end])
        log = Log(first_seq - 1, 1 + records[0].left, lambda seq: records[seq - 1].left, names,
                  bool(rules.is_over(state)), bool(rules.physical(state)), legacy=True)
        produced = desk_decide(fold.desk or Desk(), command, REFEREE, log,
                               (rules, records[:start], events[:start], chance))
    except (DevilError, ValueError) as exc:
        return first_seq, f"the referee's desk could not have recorded this amendment: {exc}"
    mismatch = _compare(rules.events.to_map, produced, batch_records, rules.events.from_map)
    if mismatch is not None:
        seq, recorded, expected = mismatch
        return seq, (f"the log records {recorded}, but the amendment re-decided gives "
                     f"{expected} here")
    return None


def _compare(to_map, produced: list, batch_records: list[Record], from_map=None):
    """``(seq, recorded, expected)`` of the first difference, or None.

    A recorded map that lacks a field added to its event later, with the field's default
    value, is the same event (a log recorded before the field existed): with ``from_map``
    the recorded map is decoded and compared as an event when the maps differ."""
    for index, record in enumerate(batch_records):
        if index >= len(produced):
            return record.seq, _short(record.event), "nothing more from this command"
        expected = to_map(produced[index])
        if expected != record.event and not (
                from_map is not None and set(record.event) < set(expected)
                and _decodes_to(from_map, record.event, produced[index])):
            return record.seq, _short(record.event), _short(expected)
    if len(produced) > len(batch_records):
        return (batch_records[-1].seq, "no more events from this command",
                _short(to_map(produced[len(batch_records)])))
    return None


def _decodes_to(from_map, event_map: dict, event) -> bool:
    try:
        return from_map(event_map) == event
    except Exception:
        return False


def _short(event_map: dict) -> str:
    body = ", ".join(f"{k}={v!r}" for k, v in event_map.items() if k != "type")
    return f"{event_map.get('type')}({body})"
