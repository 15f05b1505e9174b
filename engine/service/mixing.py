"""Seat entropy mixed across a group of games (a tournament's duplicate round, TOUR-11.6).

Every table of a duplicate round draws from one shared furnace order (TOUR-11).  With seat
entropy (engine.entropy) that order must not be the organiser's alone: it is derived from the
round's committed seed mixed with the value of **every seat of every table** of the round::

    mixed = sha256("devil-mix|" + decimal(seed) + "|" + v(1, 0) + "|" + v(1, 1) ...
                   + "|" + v(k, n-1))

with ``v(t, s)`` the value of seat ``s`` of table ``t``, tables in the round's order, seats in
each table's order (the recipe of engine.chance.mixed_seed over that list).  So every table has
the same order, and nobody (the organiser, who committed to the seed before any seat gave a
value, or any seat) can steer it.  The first draw at any table waits until every seat of every
table has given its value; until then a draw is refused with TOUR-11.6, nothing recorded.

How the service knows the group: each of the round's games keeps the private document
``mix`` = ``{"stream": tournament, "document": name}`` from its creation, and the tournament's
private document ``name`` lists the round's games, ``"games": [[game, seats, table], ...]`` in
table order, once every table's game exists (a table made again replaces its entry).  The
values stay private until each game ends (its ``seats_revealed``); ``devil tournament
verify`` of the bundle re-derives every draw of every table from the seed the round revealed
and every table's revealed values.  Nothing here knows a game's rules.
"""

from __future__ import annotations

from .. import entropy
from ..errors import IllegalCommand

#: the private document a game of a group keeps: where the group's list of games is
DOCUMENT = "mix"


class WaitingForGroup(IllegalCommand):
    """A draw of a grouped game before every seat of every game of the group gave its value."""


def document(stream: str, name: str) -> dict:
    """The ``mix`` document a new game of a group keeps (see the module doc)."""
    return {"stream": stream, "document": name}


def group_of(store, game: str) -> list | None:
    """``[[game, seats, table], ...]``: the group ``game`` draws with, in order; None for a
    game of no group.  Raises WaitingForGroup while the group's list is not written yet."""
    try:
        found = store.private(game, DOCUMENT)
    except (OSError, ValueError):
        found = None
    if not isinstance(found, dict):
        return None
    listed = store.private(str(found.get("stream")), str(found.get("document"))) or {}
    games = listed.get("games") if isinstance(listed, dict) else None
    if not games:
        raise WaitingForGroup("TOUR-11.6", "the round's tables are still being created: its "
                              "shared furnace order mixes every table's seat entropy")
    return [list(entry) for entry in games]


class Replaced(WaitingForGroup):
    """A draw of a game its group no longer lists (a duplicate round's table made again)."""


def check_member(store, game: str) -> None:
    """Refuse any draw of a game of a group that no longer lists it (TOUR-11.8: a duplicate
    round's table made again by a forfeit or a swap leaves its old game in the store, with the
    round's seed: it must draw nothing, or its seats would learn the round's coals).  Raises
    WaitingForGroup while the group's list is not written yet, Replaced once it is without
    ``game``; nothing for a game of no group."""
    _check_listed(game, group_of(store, game))


def _check_listed(game: str, group: list | None) -> None:
    """Replaced (TOUR-11.8) when ``group`` (a group's list) does not list ``game``."""
    if group is not None and game not in [entry[0] for entry in group]:
        raise Replaced("TOUR-11.8", f"{game} no longer stands for a table of its duplicate "
                       "round (the table was made again): it draws nothing")


def values(store, game: str, own: list[str]) -> list[str]:
    """Every value the draws of ``game`` mix in: ``own`` (its seats' values, checked) for a
    game of no group; else every seat's value of every game of its group, in order.  Raises
    WaitingForGroup naming the first table still waiting for a seat's value (TOUR-11.6)."""
    group = group_of(store, game)
    if group is None:
        return list(own)
    _check_listed(game, group)  # its table was made again (TOUR-11.8)
    out: list[str] = []
    for entry in group:
        other, seats = entry[0], entry[1]
        number = entry[2] if len(entry) > 2 else group.index(entry) + 1
        if other == game:
            out.extend(own)
            continue
        for seat in range(int(seats)):
            try:
                kept = store.private(other, entropy.private_name(seat)) or {}
            except (OSError, ValueError):
                kept = {}
            value = kept.get("value") if isinstance(kept, dict) else None
            if not isinstance(value, str) or kept.get("commitment") != \
                    entropy.seat_commitment(other, seat, value):
                raise WaitingForGroup(
                    "TOUR-11.6", f"table {number} ({other}) is still waiting for seat {seat}'s "
                    "entropy: a duplicate round's shared furnace order mixes every seat of "
                    "every table, so no table draws before all have sat (`devil sit`)")
            out.append(value)
    return out


class Waiting:
    """The chance of a grouped game whose table opens before the whole group is in: it has the
    game's ``commitment`` (the setup records it) and refuses any draw with ``refusal``."""

    def __init__(self, commitment: str, refusal: WaitingForGroup):
        self.commitment = commitment
        self._refusal = refusal

    def _refuse(self, *_args, **_kwargs):
        raise self._refusal

    randbelow = shuffled = pick = reveal = _refuse


def group_values(store, games: list) -> list[str] | None:
    """Every seat's value of every game of ``games`` (``[[game, seats, table], ...]``, a
    group's list), in order, as the store keeps them; None when the games were created
    without seat entropy or a value is still missing (nothing to mix yet)."""
    out: list[str] = []
    for entry in games:
        game, seats = entry[0], entry[1]
        for seat in range(int(seats)):
            try:
                kept = store.private(game, entropy.private_name(seat)) or {}
            except (OSError, ValueError):
                kept = {}
            value = kept.get("value") if isinstance(kept, dict) else None
            if not isinstance(value, str):
                return None
            out.append(value)
    return out or None


def group_of_quiet(store, game: str) -> list | None:
    """:func:`group_of`, or None while the group's list is not written yet."""
    try:
        return group_of(store, game)
    except WaitingForGroup:
        return None
