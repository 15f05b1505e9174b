"""Duplicate rounds (docs/tournaments.md, TOUR-11): every table of a round draws from the same
committed furnace order, so luck is the same everywhere.

``--duplicate`` (``duplicate`` in TournamentCreated): for a game kind with the
:attr:`engine.game.GameRules.duplicate` hook, digital only (TOUR-11.1).  The tournament's game
options then carry the kind's duplicate option, so every table's game must have it (TOUR-4.2).
Each round:

* ``pair``: the organiser draws the round's secret seed and salt (kept in the tournament
  stream's private document ``furnace<aa..>``), and ``round_paired`` records the commitment
  ``furnace = sha256("devil-commit|" + salt + "|" + seed)`` (engine.chance.commitment) before
  any game exists; every table's game is created with that seed (the kind derives the shared
  order from it, in its engine.games.<kind>.duplicate).
  Every table's game commits to exactly that seed and salt (its first event's commitment is
  the round's), and its end reveals nothing: a table that finishes first must not tell the
  tables still playing their coals to come (TOUR-11.3).
* attaching a game checks that it commits to the round's seed and that every draw re-derives
  from the round's secret seed (TOUR-11.2);
* ``close-round`` reveals the seed and salt in ``round_closed`` (``furnace_seed``,
  ``furnace_salt``), checked against the commitment (TOUR-11.3), so a bundle's check
  (``devil tournament verify``) re-derives every draw of every table from it.

The duplicate score (TOUR-11.5) compares each seat with the same seat at the other tables of
the round: see :func:`scores`.  Nothing here knows a game's rules.
"""

from __future__ import annotations

import re
from fractions import Fraction

#: the new tournament's options this module reads
OPTIONS = ("duplicate",)
_HEX = re.compile(r"^[0-9a-f]{64}$")


def check(options: dict, kind: str, game_options: dict) -> tuple[bool, dict]:
    """``(duplicate, the games' options)`` for a new tournament: with ``duplicate`` the kind's
    duplicate option is set in the games' options.  Raises UsageError (TOUR-11.1) for a kind
    without duplicate rounds or a physical tournament."""
    from ..errors import UsageError
    from ..game import rules_for

    duplicate = options.get("duplicate", False)
    if duplicate is None:
        duplicate = False
    if not isinstance(duplicate, bool):
        raise UsageError("duplicate is true or false (TOUR-11.1)")
    if not duplicate:
        return False, game_options
    option = rules_for(kind).duplicate
    if option is None:
        raise UsageError(f"{kind} games have no duplicate rounds (TOUR-11.1): only a kind whose "
                         "draws can follow a shared order")
    if (game_options or {}).get("physical"):
        raise UsageError("duplicate rounds are for digital games (TOUR-11.1): at a physical "
                         "table the box decides the draws")
    return True, {**(game_options or {}), option: True}


def tiebreak(name: str, options: dict) -> bool:
    """Whether ``name`` is the duplicate score's tiebreak (``duplicate``) in a tournament whose
    options ask for duplicate rounds (TOUR-11.5)."""
    return name == "duplicate" and options.get("duplicate") is True


def private_name(round_: int) -> str:
    """The tournament stream's private document with round ``round_``'s seed: ``furnaceab``
    for round 1 (two letters, base 26)."""
    return "furnace" + chr(ord("a") + round_ // 26) + chr(ord("a") + round_ % 26)


def draw_secret() -> dict:
    """A round's new secret: ``{"seed": 0..2**63-1, "salt": 32 hex digits}``."""
    import secrets

    return {"seed": secrets.randbelow(2**63), "salt": secrets.token_hex(16)}


def commit(secret: dict) -> str:
    """The commitment recorded in round_paired (engine.chance.commitment)."""
    from ..chance import commitment

    return commitment(int(secret["seed"]), str(secret["salt"]))


def check_pair(created, furnace) -> str:
    """The ``furnace`` commitment a Pair command records: 64 hex digits in a duplicate
    tournament, empty in any other.  Raises IllegalCommand (TOUR-11.2)."""
    from ..errors import IllegalCommand

    if not getattr(created, "duplicate", False):
        if furnace:
            raise IllegalCommand("TOUR-11.2", "this tournament has no duplicate rounds: a round "
                                 "commits to no furnace order")
        return ""
    if not isinstance(furnace, str) or not _HEX.match(furnace):
        raise IllegalCommand("TOUR-11.2", "a duplicate round is paired with the commitment to "
                             "its furnace order (64 hex digits)")
    return furnace


def check_close(state, round_: int, seed, salt) -> tuple[int, str]:
    """``(furnace_seed, furnace_salt)`` that a Close command reveals: the round's seed and
    salt, matching the commitment recorded when it was paired; ``(0, "")`` for a round without
    one.  Raises IllegalCommand (TOUR-11.3)."""
    from ..errors import IllegalCommand

    committed = state.furnaces.get(round_, "")
    if not committed:
        if seed not in (None, 0) or salt not in (None, ""):
            raise IllegalCommand("TOUR-11.3", f"round {round_} committed to no furnace order")
        return 0, ""
    if type(seed) is not int or not isinstance(salt, str) or \
            commit({"seed": seed, "salt": salt}) != committed:
        raise IllegalCommand("TOUR-11.3", f"round {round_} closes by revealing its furnace "
                             "seed, which must match the commitment recorded when it was paired")
    return seed, salt


def check_game(data: bytes, committed: str, secret: dict | None, game: str,
               round_: int) -> None:
    """TOUR-11.2: a duplicate round's game must have been played with the round's seed: its
    log (``data``) commits to exactly the round's ``committed`` seed, and with the round's
    ``secret`` (``{"seed", "salt"}``, the organiser's; None: only the commitment is checked)
    every draw re-derives.  Raises IllegalCommand."""
    from ..errors import IllegalCommand

    problem = game_problem(data, committed, secret, game)
    if problem is not None:
        raise IllegalCommand("TOUR-11.2", f"{problem} (round {round_}): every table of a "
                             "duplicate round draws from the same order")


def game_problem(data: bytes, committed: str, shared: dict | None, label: str) -> str | None:
    """What is wrong with a duplicate round's game log ``data`` (TOUR-11.2, 11.3): its first
    event must commit to the round's seed (``committed``, recorded in round_paired); with
    ``shared`` (the round's seed and salt, revealed when it closed, or the organiser's secret)
    its every draw must re-derive from that seed (engine.replay.verify_bytes).  A game that
    revealed a seed of its own was not a duplicate game.  ``label`` names the game; None when
    it is right."""
    from ..replay import load_bytes, verify_bytes

    try:
        log = load_bytes(data)
        final = log.rules.fold(log.effective().events)
    except Exception as exc:  # already named by the log's own check
        return f"{label} cannot be read ({getattr(exc, 'message', exc)})"
    rules = log.rules
    own = rules.commitment(final) if rules.commitment is not None else None
    if own != committed:
        return (f"{label} was not created with the round's furnace seed: its commitment "
                f"{own} is not the round's {committed}")
    if rules.seed_shared is None or not rules.seed_shared(final):
        return f"{label} is not a duplicate game: its draws are its own, not the round's order"
    if rules.revealed is not None and rules.revealed(final) is not None:
        return (f"{label} revealed the round's seed at its end: the tables still playing "
                "could read their coals to come (TOUR-11.3)")
    if shared is None:
        return None
    check = verify_bytes(data, shared=shared)
    if not check.ok:
        return (f"{label} does not re-derive from the round's seed: record "
                f"{check.first_bad_seq}: {check.reason}")
    if not check.seed_checked:
        return f"{label}'s draws could not be re-derived from the round's seed"
    return None


def round_seats(state, round_: int, logs: dict) -> tuple[list | None, str | None]:
    """``(values, problem)``: every seat's revealed value of every table of duplicate round
    ``round_``, tables in order (TOUR-11.6), from ``logs`` (game -> its log's bytes); ``values``
    None for a round whose games were created without seat entropy; ``problem`` names a
    table whose values cannot be read (so no table of the round can be re-derived)."""
    from .. import entropy
    from ..replay import load_bytes

    values: list[str] = []
    seated = plain = 0
    for (r, table), game in sorted(state.games.items()):
        if r != round_:
            continue
        try:
            events = load_bytes(logs[game]).events
        except Exception:
            return None, f"round {round_}'s table {table} ({game}) cannot be read"
        if entropy.opening(events) is None:
            plain += 1
            continue
        seated += 1
        shown = entropy.revealed_values(events)
        if shown is None:
            return None, (f"round {round_}'s table {table} ({game}) has not revealed its "
                          "seats' values: the round's shared order mixes every table's "
                          "(TOUR-11.6), so no table of the round can be re-derived")
        values.extend(shown)
    if seated and plain:
        return None, (f"round {round_} has tables with and without seat entropy: its shared "
                      "order mixes every table's (TOUR-11.6)")
    return (values if seated else None), None


def bundle_problem(state, round_: int, data: bytes, label: str,
                   seats: list | None = None) -> str | None:
    """What a bundle's check finds wrong with a game of a duplicate round (TOUR-11.2, 11.3):
    its commitment is not the round's, or, once the round has closed and revealed its seed,
    a draw does not re-derive from it (mixed with ``seats``, every seat's value of every
    table, when the round's games had seat entropy: :func:`round_seats`).  None when it is
    right or not a duplicate round."""
    committed = state.furnaces.get(round_)
    if not committed:
        return None
    shared = None
    if round_ in state.revealed:
        seed, salt = state.revealed[round_][:2]
        shared = {"seed": seed, "salt": salt}
        if seats is not None:
            shared["seats"] = list(seats)
    return game_problem(data, committed, shared, label)


def check_public(state, game: str) -> None:
    """TOUR-11.7: a table of a duplicate round is shown on the public spectator link only once
    its round has closed: every table draws the same coals, so a table further on would tell a
    slower one its coals to come.  Raises NotAllowed (403) before that."""
    from ..errors import NotAllowed

    round_, table = state.attached[game]
    if state.furnaces.get(round_) and round_ not in state.revealed:
        raise NotAllowed(f"TOUR-11.7: table {table} of round {round_} plays a duplicate round: "
                         "every table draws the same coals, so no table is shown to the public "
                         "before the round closes")


def scores(state) -> dict[str, Fraction]:
    """name -> duplicate score (TOUR-11.5), for every player who played a recorded table of a
    duplicate round: at each round, seat s of a table is compared with seat s at the other
    tables of that round with the same number of players and a result: its value (the
    measure, e.g. final money) minus the mean of theirs; alone at its size it scores 0.  The
    scores of a player's rounds are added up.  Only rounds that committed to a furnace order
    count (the final, paired from the standings, too)."""
    out: dict[str, Fraction] = {}
    for round_, tables in state.tables.items():
        if not state.furnaces.get(round_):
            continue
        played = [(table, state.results[(round_, n)]) for n, table in enumerate(tables, 1)
                  if (round_, n) in state.results]
        for table, result in played:
            size = len(table.players)
            peers = [r for t, r in played if len(t.players) == size and r is not result]
            for seat, name in enumerate(table.players):
                score = Fraction(0)
                if peers:
                    mean = Fraction(sum(r.values[seat] for r in peers), len(peers))
                    score = result.values[seat] - mean
                out[name] = out.get(name, Fraction(0)) + score
    return out


def annotate(state, rows: list[dict]) -> list[dict]:
    """The standings rows of a duplicate tournament each gain ``duplicate`` (the player's
    duplicate score, TOUR-11.5: a number, an int when whole) and ``duplicate_exact`` (its
    fraction as text).  Other tournaments' rows are returned as they are."""
    if not getattr(state.created, "duplicate", False):
        return rows

    def number(value: Fraction):  # as engine.tournament.standings.number (which imports this)
        return value.numerator if value.denominator == 1 else round(float(value), 4)

    found = scores(state)
    for row in rows:
        value = found.get(row["player"], Fraction(0))
        row["duplicate"] = number(value)
        row["duplicate_exact"] = str(value)
    return rows
