"""The contract every game implements, and the registry of game kinds.

A game is a *decider* (docs/architecture.md)::

    decide(state, command, chance) -> [event, ...]      # pure; raises IllegalCommand
    evolve(state, event) -> state                        # pure fact application; never raises
    fold(events) = reduce(evolve, events, initial())
    view(state, viewer) -> dict                          # JSON-able, what `viewer` sees
    redact(event, viewer) -> event | None                # the event as `viewer` may see it
    legal_commands(state, seat) -> [command, ...]        # every command `seat` may submit now

``viewer`` is a seat index (0-based, seat order as created), :data:`REFEREE` (sees
everything) or :data:`PUBLIC` (a spectator: public facts only).  A seat's view must be
computable from that seat's redacted stream alone: the service computes it as
``view(fold(redact(e, seat) for e in events), seat)``, so hidden information can leak only
through ``redact``.  ``legal_commands`` is called with the seat's own redacted fold.

``evolve`` may update ``state`` in place and return it (folds are hot); callers that need an
old state keep a copy (``copy.deepcopy``).  ``decide`` never mutates ``state``.

``chance`` is a :class:`engine.chance.SeededChance` for digital games and ``None`` for physical
ones (played with the box and recorded by a referee, who reports every draw and deal in the
commands themselves).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Protocol

import attrs

from .codec import Registry
from .desk.events import DESK_CLASSES as _DESK_CLASSES, Amended as _Amended
from .errors import UsageError
from .games import KINDS, engine_module

#: the seating stage's event tags (engine.entropy.SHARED_EVENTS): a takeback never crosses one
_SEATING = frozenset({"table_opened", "seat_committed", "seats_revealed"})

#: The viewer who sees everything.
REFEREE: None = None
#: The viewer who sees only public facts (a spectator).
PUBLIC: int = -1


class Chance(Protocol):  # pragma: no cover - typing only
    """What ``decide`` may ask of chance (engine.chance.SeededChance implements it)."""

    commitment: str

    def randbelow(self, n: int, *label: Any) -> int: ...
    def shuffled(self, items: list, *label: Any) -> list: ...
    def pick(self, counts: list[int], *label: Any) -> int: ...
    def reveal(self) -> dict[str, Any]: ...


@attrs.frozen
class GameRules:
    """One game kind, as the shared machinery (log, store, service, CLI) sees it.

    * ``kind``: the short name used in logs and on the command line (a key of
      :data:`engine.games.KINDS`).
    * ``title``: the kind's name in every text (help, errors, tables, ``devil games``);
      ``min_players`` / ``max_players``: how many players a game seats, checked by
      :meth:`check_players` citing ``players_rule``.  The one source of these: the light
      manifest :data:`engine.games.KINDS` / :data:`engine.games.PLAYERS` copies them for the
      CLI's help (tests/core/test_kind_facts.py checks they agree).  A stream that is not
      played at a table (a tournament) leaves the counts 0.
    * ``events`` / ``commands``: the codec registries of the kind's tagged classes.
    * ``setup(options, chance) -> [event]``: the first events of a new game from a JSON-able
      options map (``players`` and the kind's own options); raises :class:`UsageError` for bad
      options.  The first event records every option, house rules included, and the chance
      commitment (``None`` for a physical game).
    * ``initial() -> state``; ``evolve``; ``decide``; ``view``; ``redact``;
      ``legal_commands``: see the module docstring.  ``events`` also decodes the referee's
      desk events (:mod:`engine.desk`: ``corrected``, ``dispute_raised``, ``ruling_given``),
      registered here for every kind; ``evolve`` is never given one and raises on a type it
      does not know; ``redact`` is never asked about one (every viewer sees them whole).
    * ``acting_seat(state, command) -> int | None``: the seat a command acts for; ``None``
      when only the referee may submit it (e.g. a coal reported in a physical game).
    * ``is_over(state) -> bool``; ``seats(state) -> list[str]`` (names in seat order).
    * ``physical(state) -> bool``: whether chance comes from the referee.
    * ``command_for(state, events) -> (command, answers)`` (optional, used by ``devil verify``
      and the strict refold in :mod:`engine.replay`): the command that produced ``events`` (one
      command's records) from ``state``, and the chance answers it drew, in the order ``decide``
      asks for them (``pick`` -> index, ``randbelow`` -> int, ``shuffled`` -> permutation).
      For the first batch ``state`` is ``initial()`` and the "command" is the options map
      ``setup`` was given.  Raise ``ValueError`` when no command can have produced ``events``.
      ``None``: :mod:`engine.replay` uses its built-in hook for the kind, if it has one.
    * ``summary(state) -> dict`` (optional): where the game stands, for ``devil games`` and
      ``GET /games``, computed from the state a viewer knows (public facts only).  JSON-able,
      with at least ``phase`` (str), ``round`` (int: the kind's count of rounds or turns),
      ``turn`` (the name of whose turn it is, or None), ``winners`` (names; [] while running)
      and ``text`` (one line such as ``"round 3, bets"``).  ``None``: :meth:`summarize` gives
      a bare ``{"phase": "over"|"running", ...}``.
    * ``commitment(state) -> str | None`` (optional): the chance commitment published in the
      first event (None for a physical game); ``revealed(state) -> {"seed", "salt"} | None``:
      the seed revealed when a digital game ends; ``seed_chosen(state) -> bool``: whether the
      game's creator chose the seed (reproducible, not secret: the first event records it).
      Read by ``devil verify`` (:mod:`engine.replay`).  ``None``: the kind has no chance to
      check.
    * ``bots() -> {name: class}`` (optional): the kind's bots, each built as
      ``cls(rng=random.Random, **params)`` (see :mod:`engine.bots`); loaded on demand.
    * ``audit(log) -> result`` (optional): a kind's own audit of a recorded game
      (:class:`engine.replay.LoadedLog`), for ``devil audit``.  The result has ``ok`` (bool)
      and ``to_json() -> dict``; the client renders it as text (client.games.<kind>).  Raises
      :class:`UsageError` for a log it cannot audit.  ``None``: the kind has no audit.
      The result may have ``chart() -> spec`` (engine.chart): the accounts round by round,
      for ``devil audit --chart`` and the audit page; and ``totals() -> {"totals": {name:
      int}, "players": {name: {name: int}}, "lowest": [names], "top": name}`` with
      ``transfer_rows() -> [[round, seq, rule, payer, payee, amount]]``: the game's part of
      an archive's ledger (engine.ledger, ``devil audit PATH... --csv/--json``).
    * ``chance(log) -> engine.chance_audit.GameDraws`` (optional): every draw a referee
      reported in a recorded physical game (the log with its voids applied), with the exact
      probability of what was reported given what was left and the scores of the tests the
      kind declares, for ``devil audit --chance`` (docs/chance-audit.md).  ``None``: the
      kind's games are not in the chance audit.
    * ``notes(state) -> [str]`` (optional): sentences ``devil verify`` reports about how the
      game was set up (e.g. the rules text, a game started from a position).
    * ``placings(state) -> dict`` (optional): how a finished game places its players, for
      tournaments (engine.tournament): ``{"places": [int per seat, 1 = best; tied seats share
      a place], "share": bool (tied seats share the points of the places they span; False:
      each takes the points of its own place), "points": [int per seat] or None (the game's
      own points replace the scale, e.g. a personal score), "measure": the name of the value
      summed for the tiebreak (e.g. "money"), "values": [int per seat], "winners": [seat]}``.
      ``None``: the kind cannot be played in a tournament.
    * ``adjudicated(rules, events) -> dict`` (optional): the same map for a game the referee
      ended at time (DESK-8, an ``adjudicated`` desk record), from the kind's events in force
      (voids applied, no desk records) and ``rules`` (this GameRules, to fold them), with
      ``"rule"``: the house rule it follows.  ``None``: such a game cannot be adjudicated.
    * ``legal_choices(state, seat) -> sequence`` (optional): :attr:`legal_commands` built
      lazily, for bots in bulk (:mod:`engine.simulate`): a sequence of the same commands in the
      same order, each built only when asked for, with whatever compact description the kind's
      bots read (e.g. a range of bets).  It gives the same commands from the referee's state
      as from the seat's own fold (tests/core/test_simulate.py checks it), so a simulation asks
      it of the one state it decides on.  ``None``: simulations use ``legal_commands`` on the
      seat's fold.  ``legal_commands`` stays what everything else asks.
    * ``record(log) -> dict | None`` (optional): the kind's part of the regulator's record of
      a recorded game (:class:`engine.replay.LoadedLog`, the whole log, voided records and
      the desk's included), for ``devil audit --record`` (:mod:`engine.record`,
      docs/record.md): ``{"rules_version": str, "setup": {option: value}, "money": {...} or
      None (a kind without a bank), "rounds": [{"round", "seq", plain facts..., fact lists
      of dicts whose keys are engine.record.COLUMNS}], "result": {...}, "audit": {"ok",
      "problems"} or None, "phases": {seq: the phase that record belongs to}}``; None when
      the log holds nothing of the kind's yet.  ``None``: the record has the common fields
      only.
    * ``takeback_barrier(event) -> "draw" | "reveal" | "deal" | None`` (optional): what one
      of the kind's events does that a takeback may not cross (DESK-12.3, engine.desk.takeback):
      a draw (chance), a reveal (anything a seat learns that it did not know: a bet shown, a
      card seen) or a deal; None for an event a takeback may void.  ``None``: the kind allows
      no takeback.
    * ``amend(state, command, fields) -> command`` (optional; DESK-9, ``devil amend``): the
      command that replaces ``command`` (a command the log records, rebuilt by
      ``command_for``; ``state``: the referee's fold before it) when the referee amends the
      ``fields`` given (a map of field -> value, e.g. ``{"coal": 50}``).  The kind says which
      fields of which commands may be amended (never the seat that gave it) and raises
      :class:`engine.errors.IllegalCommand` (a ``DESK-9.n`` rule id, or its own) for any
      other; the replacement is then decided like any command.  ``None``: nothing of the
      kind's records may be amended.
    * ``duplicate`` (optional): the name of the kind's boolean game option that makes a
      digital game draw by the order its seed gives (a tournament's duplicate round creates
      every table's game with it and with the round's seed, TOUR-11).  ``None``: the kind
      plays no duplicate rounds.
    * ``seed_shared(state) -> bool`` (optional): whether a digital game's seed is another
      stream's, revealed there and not by the game's end (a duplicate round's game: its
      tournament's round reveals the seed when it closes, TOUR-11.3).  ``devil verify`` then
      accepts a finished game that revealed no seed, and re-derives its draws when it is given
      the seed (``verify_bytes(..., shared=...)``).
    * ``to_move(state) -> [seat]`` (optional): the seats whose clock runs in the referee's
      ``state`` (CLOCK-2, engine.clock): the seats the game waits for a decision from (not the
      referee's report of a draw).  ``None``: the kind's games take no clock.
    * ``timeout(state, seat) -> command | None`` (optional): the command the service applies
      for ``seat`` when its time runs out in a game created ``on_timeout="act"`` (CLOCK-5; the
      kind's house rule in docs/house-rules.md), decided from the referee's ``state`` like any
      command; None when the kind has no action to take there (the seat is flagged, CLOCK-6).
    * ``window(view, legal) -> dict | None`` (optional): whether the seat whose own ``view``
      and ``legal`` commands these are is asked in a window where a pass could tell what it
      holds, for the seat's page's auto-pass (engine.web.autopass, PAGE-20): ``{"name",
      "rules": [rule ids], "pass": the seat's pass command, "nothing_to_use": bool}`` or None.
      ``None``: the kind has no such windows.
    """

    kind: str
    title: str
    events: Registry
    commands: Registry
    setup: Callable[[dict, Any], list]
    initial: Callable[[], Any]
    evolve: Callable[[Any, Any], Any]
    decide: Callable[[Any, Any, Any], list]
    view: Callable[[Any, Any], dict]
    redact: Callable[[Any, Any], Any]
    legal_commands: Callable[[Any, int], list]
    acting_seat: Callable[[Any, Any], "int | None"]
    is_over: Callable[[Any], bool]
    seats: Callable[[Any], list]
    physical: Callable[[Any], bool]
    min_players: int = 0
    max_players: int = 0
    players_rule: str = ""
    command_for: "Callable[[Any, list], tuple[Any, list]] | None" = None
    summary: "Callable[[Any], dict] | None" = None
    commitment: "Callable[[Any], str | None] | None" = None
    revealed: "Callable[[Any], dict | None] | None" = None
    seed_chosen: "Callable[[Any], bool] | None" = None
    bots: "Callable[[], dict] | None" = None
    audit: "Callable[[Any], Any] | None" = None
    chance: "Callable[[Any], Any] | None" = None
    notes: "Callable[[Any], list] | None" = None
    placings: "Callable[[Any], dict] | None" = None
    adjudicated: "Callable[[Any, list], dict] | None" = None
    legal_choices: "Callable[[Any, int], Any] | None" = None
    record: "Callable[[Any], dict | None] | None" = None
    duplicate: str | None = None
    seed_shared: "Callable[[Any], bool] | None" = None
    amend: "Callable[[Any, Any, dict], Any] | None" = None
    takeback_barrier: "Callable[[Any], str | None] | None" = None
    to_move: "Callable[[Any], list] | None" = None
    timeout: "Callable[[Any, int], Any] | None" = None
    window: "Callable[[dict, list], dict | None] | None" = None

    def barrier(self, event) -> "str | None":
        """What ``event`` (one of the kind's, or the seating stage's) does that no takeback may
        cross (DESK-12.3): ``"draw"``, ``"reveal"`` or ``"deal"``, or None.  The kind says it
        (its ``takeback_barrier`` hook); the seating stage deals (a seat's value mixes into
        every draw); a kind without the hook allows no takeback (every event is ``"deal"``)."""
        if self.takeback_barrier is None or getattr(type(event), "TYPE", None) in _SEATING:
            return "deal"
        return self.takeback_barrier(event)

    def __attrs_post_init__(self):
        # the referee's desk (corrections, disputes, rulings) writes its events into every
        # kind's log; ``evolve`` never sees them (engine.desk folds them)
        from .desk.events import register

        register(self.events)

    def visible(self, event, viewer):
        """**The one visibility rule**: ``event`` as ``viewer`` may see it, or None when the
        viewer sees nothing of it.  The referee sees every event whole; the referee's desk's
        records (engine.desk) and the seating stage's (engine.entropy) are public, whole, for
        every viewer (an amendment's replacement reduced to its type and player for everyone
        but its seat: engine.desk.amend.shown_to); any other event is the kind's
        ``redact(event, viewer)`` (a seat's or the public's redacted form: a face-down trade
        without its items, a sealed bet without its amount).  Every stream, view, page,
        answer and bundle goes through this (each kind's rules say what its seats may see);
        engine.fold folds what it returns.
        """
        if viewer is REFEREE:
            return event
        if type(event) in _DESK_CLASSES:
            if type(event) is _Amended:  # its replacement may hold a hidden fact (DESK-9.5)
                from .desk.amend import shown_to

                return shown_to(event, viewer)
            return event
        return self.redact(event, viewer)

    def fold(self, events, state=None):
        """``reduce(evolve, events, state or initial())`` through :class:`engine.fold.Fold`
        (the one caller of ``evolve``): the kind's own events from ``state`` (a whole log, desk
        records included, folds with :func:`engine.fold.fold`)."""
        from .fold import Fold

        return Fold(self, state=state).advance(list(events)).state

    def check_players(self, players) -> list[str]:
        """A new game's player names checked against this kind's counts
        (:func:`check_players` with ``min_players``, ``max_players``, ``title`` and
        ``players_rule``); raises UsageError."""
        return check_players(players, self.min_players, self.max_players, self.title,
                             self.players_rule)

    def summarize(self, state) -> dict:
        """The ``summary`` hook's map for ``state`` (see the class docstring), or a bare one
        (phase over/running, round 0, no turn, no winners) for a kind without the hook."""
        if self.summary is not None:
            return self.summary(state)
        over = bool(self.is_over(state))
        return {"phase": "over" if over else "running", "round": 0, "turn": None,
                "winners": [], "text": "over" if over else "in progress"}


#: streams in the store that are not games but are recorded, verified and replayed like one
#: (kind -> the module whose ``RULES`` decides them)
STREAMS: dict[str, str] = {"tournament": "engine.tournament"}


def rules_for(kind: str) -> GameRules:
    """The :class:`GameRules` of ``kind`` (registered in :mod:`engine.games`, with the shared
    seating stage of games with seat entropy: :func:`engine.entropy.staged`; or a stream of
    :data:`STREAMS` such as a tournament); raises :class:`UsageError` for an unknown kind."""
    if kind in STREAMS:
        return importlib.import_module(STREAMS[kind]).RULES
    if kind not in KINDS:
        raise UsageError(f"unknown game kind {kind!r} (known: {', '.join(sorted(KINDS))})")
    module_name = engine_module(kind)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:  # a kind still being built
        raise UsageError(f"game kind {kind!r} is not available in this version") from exc
    staged = _STAGED.get(kind)
    if staged is None or staged[0] is not module.RULES:
        from .entropy import staged as with_seating

        staged = _STAGED[kind] = (module.RULES, with_seating(module.RULES))
    return staged[1]


#: kind -> (its RULES, the same with the shared seating stage of engine.entropy)
_STAGED: dict = {}


MAX_NAME = 32
#: names that stand for roles, not players (compared without case)
ROLE_NAMES = frozenset({"referee", "spectator"})


def check_players(players, low: int, high: int, title: str, rule: str) -> list[str]:
    """The player names of a new game's options, checked: a list of ``low`` to ``high`` unique
    names of 1 to 32 printable characters (no newline can forge a line of a log listing), none
    of them a role's name (:data:`ROLE_NAMES`, any case).  Names are stripped of surrounding
    blanks.  Raises UsageError citing ``rule``."""
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise UsageError("players must be a list of names")
    players = [p.strip() for p in players]
    for name in players:
        if len(name) > MAX_NAME or not name.isprintable():
            raise UsageError(f"a player's name is 1 to {MAX_NAME} printable characters, "
                             f"not {name!r}")
        if name.casefold() in ROLE_NAMES:
            raise UsageError(f"a player cannot be called {name!r}: "
                             f"{' and '.join(sorted(ROLE_NAMES))} name the game's roles "
                             "(tokens, --as); give the player another name")
    if not low <= len(players) <= high:
        raise UsageError(f"{title} takes {low} to {high} players, not {len(players)} ({rule})")
    if len(set(players)) != len(players):
        raise UsageError(f"every player needs a unique name ({rule})")
    return players


def check_reporter(reporter, physical: bool, rule: str, digital: str) -> str:
    """The name of whoever reports a physical draw (the referee), checked: 1 to 32 printable
    characters, stripped (as a player's name, :data:`MAX_NAME`).  Raises IllegalCommand citing
    ``rule`` in a digital game (``digital`` says who draws there) or for a bad name."""
    from .errors import IllegalCommand

    if not physical:
        raise IllegalCommand(rule, f"in a digital game {digital}: nobody reports a draw, so a "
                                   "reporter cannot be given")
    if not isinstance(reporter, str) or not reporter.strip() or len(reporter.strip()) > MAX_NAME \
            or not reporter.isprintable():
        raise IllegalCommand(rule, f"a draw's reporter is named by 1 to {MAX_NAME} printable "
                                   f"characters, not {reporter!r}")
    return reporter.strip()


def takes_reporter(command_class) -> bool:
    """Whether commands of ``command_class`` (a kind's attrs command class, or None) are
    reported draws: a ``reporter`` field names who reported the chance fact in a physical
    game (issue 23.4; each kind's reported draw command).  Read by the service (a named
    referee token's name) and by ``devil verify`` (who reported each draw), so neither names
    a kind's command."""
    return command_class is not None and attrs.has(command_class) and any(
        field.name == "reporter" for field in attrs.fields(command_class))


def seat_of(names: list[str], name: str, rule: str) -> int:
    """The seat index of player ``name``; raises :class:`UnknownPlayer` citing ``rule`` if the
    game has no such player (exit 2, like an unknown game; nothing is recorded), with the
    players' names and a suggestion.  Exact: a command names its player as the game spells it
    (:mod:`engine.seats`)."""
    if name in names:  # the common case, without the import (decide asks for every command)
        return names.index(name)
    from .seats import seat_named

    return seat_named(names, name, rule, fold_case=False)


def summary_row(game: str, kind: str, created_ms: int, rules: GameRules, state, version: int,
                desk=None) -> dict:
    """One row of ``devil games`` / ``GET /games`` from the state a viewer knows.

    ``{"game", "kind", "title", "players": [names], "created": ISO 8601 UTC,
    "finished": bool, "events": version, "text": the summary line, "summary": the kind's
    summary map}`` plus, for older readers, ``phase``, ``round`` and ``winners`` copied from
    the summary.  ``desk``: the game's engine.desk.state.Desk, if any: a game the referee
    ended at time (DESK-8) is finished, and its line says so.
    """
    from .log import iso_time

    summary = rules.summarize(state)
    finished = bool(rules.is_over(state))
    text = summary.get("text", "")
    ended = getattr(desk, "ended", None)  # the referee ended it at time (DESK-8)
    if ended is not None and not finished:
        finished = True
        text = f"ended at time by the referee ({ended[2]}) at #{ended[0]}; was: {text}"
    return {"game": game, "kind": kind, "title": rules.title, "players": rules.seats(state),
            "created": iso_time(created_ms, 0), "finished": finished,
            "events": version, "text": text, "summary": summary,
            "phase": summary.get("phase"), "round": summary.get("round"),
            "winners": list(summary.get("winners") or [])}
