"""The seat-entropy ceremony (engine.entropy) and a digital game's secret chance.

A game created with seat entropy waits until every seat has committed to a random value it
keeps (``seat_committed``, the value private in the store); then the service runs the kind's
setup with the mixed chance as the referee (``open_table``), and when the game ends it
publishes every seat's value (``seats_revealed``).  :func:`chance` loads the secret seed,
checks it against the game's commitment and, for a seated game, mixes in every seat's value.
"""

from __future__ import annotations

import json

from .. import entropy
from . import mixing
from ..chance import SeededChance, commitment as commitment_of
from ..entropy import SeatEntropy, Seating
from ..errors import ConcurrencyConflict, DevilError, IllegalCommand, NotAllowed
from ..game import REFEREE
from ..log import REFEREE_ACTOR
from .steps import Append, Call, Steps

#: ``actor`` for a trusted console (the local CLI): the command acts for the seat it names,
#: or as the referee where only the referee may give it.
CONSOLE = "console"


class SecretDamaged(DevilError):
    """A digital game's secret seed is missing, unreadable or not the committed one."""

    exit_code = 3


def authorise(loaded, seat: int, actor) -> int:
    """The actor code a seat's entropy is recorded with; NotAllowed for another seat, and
    for the referee (over HTTP): a seat's value must come from the seat's own client."""
    if actor == CONSOLE:
        return seat
    if actor is REFEREE:
        raise NotAllowed("a seat's entropy comes from that seat's own client (its token), "
                         "not from the referee: that is what makes the draws fair")
    if actor != seat:
        names = loaded.rules.seats(loaded.state)
        raise NotAllowed(f"you sit as {names[actor]} and cannot act as {names[seat]}")
    return seat


def decide_seating(service, loaded, command, actor):
    """A command while the game is seating, or a seat's entropy: ``("open", None)`` when every
    seat is in but the table never opened (open it, then decide the command again);
    ``("repeated", records)`` for a value the seat gave already; else ``("commit", seat,
    event)``, the seat's commitment to append (its value is kept private first).  Raises
    IllegalCommand (SEAT-1, SEAT-2), NotAllowed.  A commitment comes with ``(game, name,
    document)``: the seat's value, to keep private (:func:`keep_value`) before the commitment
    is appended."""
    rules, state, game = loaded.rules, loaded.state, loaded.game
    if type(command) is not SeatEntropy:
        if type(state) is Seating and not state.waiting:  # in, but the table never opened
            return ("open", None)
        rules.acting_seat(state, command)  # SEAT-1: waiting for ...
        raise AssertionError("unreachable")  # pragma: no cover
    seat = rules.acting_seat(state, command)
    authorise(loaded, seat, actor)
    name = rules.seats(state)[seat]
    if type(state) is not Seating:
        raise IllegalCommand("SEAT-2", f"{name} cannot give entropy now: "
                             + ("the game has started" if entropy.opening(loaded.events)
                                else "this game was created without seat entropy"))
    if not isinstance(command.value, str) or not entropy.VALUE.match(command.value):
        raise IllegalCommand("SEAT-2", "a seat's value is 64 lowercase hex digits (32 "
                                       "random bytes); `devil sit` makes one")
    commitment = entropy.seat_commitment(game, seat, command.value)
    given = state.committed[seat]
    if given is not None:
        if given != commitment:
            raise IllegalCommand("SEAT-2", f"{name} has given its entropy already: one "
                                           "value per seat")
        done = [r for r, e in zip(loaded.records, loaded.events)
                if type(e) is entropy.SeatCommitted and e.seat == seat]
        return ("repeated", done)
    private = (game, entropy.private_name(seat), {"value": command.value,
                                                   "commitment": commitment})
    return ("commit", seat, entropy.SeatCommitted(seat, commitment), private)


def keep_value(store, game: str, name: str, document: dict) -> None:
    """Keep a seat's value as the game's private document ``name`` (durable when it returns)."""
    store.put_private(game, name, document, replace=True)


def open_table(service, loaded, ts: int | None = None) -> Steps:
    """Run the kind's setup with the mixed chance once every seat is in (the referee's
    records), or None if another writer did it first (steps: engine.service.steps).  ``ts``:
    the records' time in a game with a clock (engine.service.clocks.time_of)."""
    first = entropy.opening(loaded.events)
    assert first is not None  # only a seated game's table is opened
    options = json.loads(first.options)
    chance_ = yield Call(_table_chance, (service.store, loaded.game, first.commitment, loaded))
    events = loaded.rules.setup(dict(options), chance_)
    maps = [loaded.rules.events.to_map(e) for e in events]
    try:
        records = yield Append(loaded.game, loaded.head.seq, REFEREE_ACTOR, None, maps, ts)
    except ConcurrencyConflict:
        return None
    loaded.chance = None if type(chance_) is mixing.Waiting else chance_
    service.cache.advance(loaded, records)
    return records


def reveal_seats(service, loaded, ts: int | None = None) -> Steps:
    """At the end of a seated game: append ``seats_revealed`` (every seat's value) once; the
    records appended (steps: engine.service.steps).  ``ts``: as for :func:`open_table`."""
    opened = entropy.opening(loaded.events)
    if opened is None or entropy.revealed_values(loaded.events) is not None:
        return []
    # this table's own values (a grouped game's chance mixes its group's: engine.service.mixing)
    event = entropy.SeatsRevealed((yield Call(own_values, (service.store, loaded.game, loaded))))
    records = yield Append(loaded.game, loaded.head.seq, REFEREE_ACTOR, None,
                           [loaded.rules.events.to_map(event)], ts)
    service.cache.advance(loaded, records)
    return records


def _table_chance(store, game: str, commitment: str, loaded):
    """The chance a seated table opens with: :func:`chance`, or :class:`engine.service.mixing.
    Waiting` while its group's values are not all in (TOUR-11.6)."""
    try:
        return chance(store, game, commitment, loaded)
    except mixing.WaitingForGroup as exc:  # the table opens; its draws wait
        return mixing.Waiting(commitment, exc)


def chance(store, game: str, commitment: str | None, loaded=None) -> SeededChance:
    """The secret chance of a digital game, checked against its public ``commitment``;
    for a game with seat entropy (``loaded`` given), mixed with every seat's value, each
    checked against the commitment the seat recorded.

    Raises :class:`SecretDamaged` if the secret is missing, unreadable or does not match.
    """
    try:
        secret = store.secret(game)
    except (OSError, ValueError) as exc:
        raise SecretDamaged(f"the secret seed file of {game} cannot be read ({exc})") from None
    if secret is None:
        raise SecretDamaged(f"the secret seed of {game} is missing from the store; "
                            "no digital draw can be made (a game imported while running needs "
                            "its secret: `devil export GAME -o FILE --secret SFILE` where it was, "
                            "`devil import FILE --secret SFILE` here)")
    try:
        chance_ = SeededChance(secret["seed"], secret["salt"])
    except (KeyError, TypeError, ValueError) as exc:
        raise SecretDamaged(f"the secret seed file of {game} is malformed ({exc})") from None
    if commitment is not None and commitment_of(chance_.seed, chance_.salt) != commitment:
        raise SecretDamaged(f"the secret seed of {game} does not match the commitment in its "
                            "first event; refusing to draw from it")
    rules = loaded.rules if loaded is not None else None
    if rules is not None and rules.seed_shared is not None and rules.seed_shared(loaded.state):
        mixing.check_member(store, game)  # a duplicate round's replaced table (TOUR-11.8)
    if loaded is not None and entropy.opening(loaded.events) is not None:
        values = mixing.values(store, game, own_values(store, game, loaded))
        chance_ = SeededChance(chance_.seed, chance_.salt, values)
    return chance_


def own_values(store, game: str, loaded) -> list[str]:
    """Every seat's value of the seated game ``loaded``, each checked against the commitment
    the seat recorded.  Raises :class:`SecretDamaged` for a value missing or not matching."""
    values = []
    for seat, recorded in enumerate(entropy.commitments(loaded.events)):
        try:
            kept = store.private(game, entropy.private_name(seat)) or {}
        except (OSError, ValueError):
            kept = {}
        value = kept.get("value")
        if recorded is None or not isinstance(value, str) \
                or entropy.seat_commitment(game, seat, value) != recorded:
            raise SecretDamaged(f"seat {seat}'s value in {game} is missing or does not "
                                "match the commitment it recorded; refusing to draw")
        values.append(value)
    return values


class LazyChance:
    """The game's chance, loaded (and checked) only when ``decide`` first asks for it, so a
    command that needs no chance (a bet) never depends on the secret; kept with the game."""

    def __init__(self, store, loaded):
        self._store, self._loaded = store, loaded

    def __getattr__(self, name: str):
        loaded = self._loaded
        if loaded.chance is None:
            commitment = getattr(loaded.state, "commitment", None)
            loaded.chance = chance(self._store, loaded.game, commitment, loaded)
        return getattr(loaded.chance, name)
