"""The registry of game kinds: the one place that lists them.

``KINDS`` maps each kind's short name (as written in logs and on the command line) to its
display title.  Everything else about a kind is found by convention from its name:

* ``engine.games.<kind>`` exposes ``RULES`` (an :class:`engine.game.GameRules`: the rules, the
  bots, the summary line of ``devil games``, the optional audit);
* ``client.games.<kind>`` holds its CLI commands and text rendering (see client/games).

Adding a game is adding those two folders and one line here.  Importing this module is cheap
(it imports nothing), so the CLI can list kinds without loading any game.
"""

from __future__ import annotations

#: kind -> title
KINDS: dict[str, str] = {
    "atkr": "Auf Teufel komm raus",
    "castle": "Castle of the Devil",
}


def kinds() -> list[str]:
    """Every registered kind, in registration order."""
    return list(KINDS)


def engine_module(kind: str) -> str:
    """The dotted name of ``kind``'s engine package (``KeyError`` for an unknown kind)."""
    KINDS[kind]
    return f"{__name__}.{kind}"
