"""The registry of game kinds: the one place that lists them.

``KINDS`` maps each kind's short name (as written in logs and on the command line) to its
title, and ``PLAYERS`` to how many players it seats: a light copy of each kind's ``RULES``
(``title``, ``min_players``, ``max_players``, the one source), so that ``devil --help`` and the
commands' help can say them without loading any game (tests/core/test_kind_facts.py checks the
copy equals ``RULES``).  Everything else about a kind is found by convention from its name:

* ``engine.games.<kind>`` exposes ``RULES`` (an :class:`engine.game.GameRules`: the rules, the
  bots, the summary line of ``devil games``, the optional audit);
* ``client.games.<kind>`` holds its CLI commands and text rendering (see client/games).

Adding a game is adding those two folders and one line here.  Importing this module is cheap
(it imports nothing), so the CLI can list kinds without loading any game.
"""

from __future__ import annotations

#: kind -> title (a copy of its ``RULES.title``)
KINDS: dict[str, str] = {
    "atkr": "Auf Teufel komm raus",
    "castle": "Castle of the Devil",
}

#: kind -> (fewest, most) players (a copy of its ``RULES.min_players``, ``RULES.max_players``)
PLAYERS: dict[str, tuple[int, int]] = {
    "atkr": (2, 6),
    "castle": (3, 10),
}


def kinds() -> list[str]:
    """Every registered kind, in registration order."""
    return list(KINDS)


def players_text(kind: str) -> str:
    """How many players ``kind`` seats, as the help texts say it: ``"2 to 6"``."""
    low, high = PLAYERS[kind]
    return f"{low} to {high}"


def engine_module(kind: str) -> str:
    """The dotted name of ``kind``'s engine package (``KeyError`` for an unknown kind)."""
    KINDS[kind]
    return f"{__name__}.{kind}"
