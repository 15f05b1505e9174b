"""A tournament's settings (docs/tournaments.md, TOUR-1 to TOUR-3 and each feature's rows):
the first event made from the options of ``devil tournament new`` / ``POST /tournaments``
(:func:`setup`), with the checks of a player's name and attributes.  Pure: no I/O."""

from __future__ import annotations

from ..errors import UsageError
from ..game import MAX_NAME, ROLE_NAMES, rules_for
from . import duplicate, events as ev, finals
from .standings import TIEBREAKS, fraction
from .swiss import settings as swiss_settings

FORMATS = ("swiss", "fixed")
DEFAULT_POINTS = [6, 4, 2, 1, 0]
#: game options that differ from table to table (the players, the start, a fixed deal)
PER_TABLE = ("players", "first", "deal", "seed_chosen", "physical")
MAX_PLAYERS = 5000
MAX_ROUNDS = 50
#: a player's attributes (a players file's further columns): at most this many, each named
#: in at most MAX_COLUMN characters and valued in at most MAX_VALUE
MAX_COLUMNS, MAX_COLUMN, MAX_VALUE = 16, 32, 80


def check_name(name, what: str = "a player's name") -> str:
    """A player's name as games take it (1 to 32 printable characters, not a role's name)."""
    if not isinstance(name, str) or not name.strip():
        raise UsageError(f"{what} must be a non-empty text")
    name = name.strip()
    if len(name) > MAX_NAME or not name.isprintable():
        raise UsageError(f"{what} is 1 to {MAX_NAME} printable characters, not {name!r}")
    if name.casefold() in ROLE_NAMES:
        raise UsageError(f"a player cannot be called {name!r} (a role's name)")
    return name


def check_attributes(attributes, players: list[str]) -> dict[str, dict[str, str]]:
    """The players' attributes as recorded: ``{name: {column: value}}`` with text columns and
    values (at most :data:`MAX_COLUMNS` a player, names of 1 to :data:`MAX_COLUMN` printable
    characters, values of at most :data:`MAX_VALUE`), only registered players, in
    registration order, none with an empty map.  UsageError with the reason."""
    if attributes is None:
        return {}
    if not isinstance(attributes, dict):
        raise UsageError("the players' attributes are a map: name -> {column: value}")
    registered = set(players)
    unknown = [n for n in attributes if n not in registered]
    if unknown:
        raise UsageError(f"attributes for {unknown[0]!r}, who is not registered")
    out = {}
    for name in players:
        extra = attributes.get(name)
        if extra is None:
            continue
        if not isinstance(extra, dict) or len(extra) > MAX_COLUMNS:
            raise UsageError(f"{name}'s attributes are a map of at most {MAX_COLUMNS} columns")
        for column, value in extra.items():
            if (not isinstance(column, str) or not column.strip() or len(column) > MAX_COLUMN
                    or not column.isprintable() or column.strip().casefold() == "name"):
                raise UsageError(f"{name}'s attribute {column!r}: a column is named in 1 to "
                                 f"{MAX_COLUMN} printable characters (not name)")
            if not isinstance(value, str) or len(value) > MAX_VALUE or not value.isprintable():
                raise UsageError(f"{name}'s {column} is at most {MAX_VALUE} printable "
                                 f"characters, not {value!r}")
        if extra:
            out[name] = dict(extra)
    return out


def normal_options(kind: str, options: dict, low: int, high: int) -> dict:
    """The games' options as the kind records them, checked by setting up a throwaway game at
    each allowed size (so a bad option, or a table size the game does not allow, is refused
    here, before anything is recorded).  Per-table options (:data:`PER_TABLE`) are left out
    except ``physical``."""
    from ..chance import SeededChance

    rules = rules_for(kind)
    if rules.placings is None:
        raise UsageError(f"{kind} games cannot be played in a tournament (no placings)")
    if not isinstance(options, dict):
        raise UsageError("the games' options are a map")
    physical = options.get("physical", False)
    if not isinstance(physical, bool):
        raise UsageError("physical must be true or false")
    given = {k: v for k, v in options.items() if k not in PER_TABLE}
    normal: dict | None = None
    for size in sorted({low, high}):
        names = [f"P{i + 1}" for i in range(size)]
        try:
            events = rules.setup({**given, "players": names}, SeededChance(0, "0" * 32))
        except UsageError as exc:
            raise UsageError(f"tables of {size}: {exc.message}") from None
        assert rules.command_for is not None  # a kind a tournament plays rebuilds its setup
        command, _ = rules.command_for(rules.initial(), events)
        normal = {k: v for k, v in command.items() if k not in PER_TABLE}
    assert normal is not None  # one table size at least
    normal["physical"] = physical
    return normal


def setup(options: dict, chance=None) -> list:
    """The first event from the new tournament's options (see :class:`ev.TournamentCreated`;
    ``table_size`` is ``[min, max]``).  Raises UsageError with the reason."""
    known = {"name", "game", "options", "format", "points", "bye_points", "rounds",
             "table_size", "tiebreaks", "players", "seed", "physical", "attributes",
             "check_in", *finals.OPTIONS, *duplicate.OPTIONS, "pairing", "allow_repeats",
             "avoid_same_club", "round_time"}
    unknown = set(options) - known
    if unknown:
        raise UsageError(f"unknown tournament option(s): {', '.join(sorted(unknown))}")
    name = options.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 80 or not name.isprintable():
        raise UsageError("a tournament's name is 1 to 80 printable characters")
    kind = options.get("game")
    if not isinstance(kind, str):
        raise UsageError("name the tournament's game kind")
    size = options.get("table_size")
    if (not isinstance(size, list) or len(size) != 2 or not all(type(s) is int for s in size)
            or not 1 <= size[0] <= size[1]):
        raise UsageError(f"table sizes are MIN-MAX with 1 <= MIN <= MAX, not {size!r}")
    low, high = size
    dup, given = duplicate.check(options, kind, options.get("options") or {})
    game_options = normal_options(kind, given, low, high)
    fmt = options.get("format", "swiss")
    if fmt not in FORMATS:
        raise UsageError(f"the format is one of {', '.join(FORMATS)}, not {fmt!r}")
    points = options.get("points", DEFAULT_POINTS)
    if (not isinstance(points, list) or not 1 <= len(points) <= 50
            or not all(type(p) is int and 0 <= p <= 10**6 for p in points)):
        raise UsageError(f"points by place are whole numbers from 0 up, e.g. 6,4,2,1,0; "
                         f"not {points!r}")
    bye = options.get("bye_points")
    if bye is None:
        bye = points[len(points) // 2]
    try:
        bye_points = str(fraction(bye))
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"a bye's points are a number, not {bye!r}") from None
    rounds = options.get("rounds")
    if type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS:
        raise UsageError(f"the number of rounds is 1 to {MAX_ROUNDS}, not {rounds!r}")
    tiebreaks = options.get("tiebreaks", list(TIEBREAKS))
    aliases = {"money": "measure", "score": "measure"}
    if not isinstance(tiebreaks, list) or not all(isinstance(t, str) for t in tiebreaks):
        raise UsageError("tiebreaks are a list of names")
    tiebreaks = [aliases.get(t, t) for t in tiebreaks]
    if any(t not in TIEBREAKS and not duplicate.tiebreak(t, options) for t in tiebreaks) \
            or len(set(tiebreaks)) != len(tiebreaks):
        raise UsageError(f"tiebreaks are drawn once each from opponents, money/score, wins "
                         "(and duplicate, in a duplicate tournament: TOUR-11.5) (a seeded draw "
                         f"always comes last), not {options.get('tiebreaks')!r}")
    players = options.get("players") or []
    if not isinstance(players, list):
        raise UsageError("players are a list of names")
    players = [check_name(p) for p in players]
    if len(set(players)) != len(players):
        twice = sorted({p for p in players if players.count(p) > 1})
        raise UsageError(f"every player needs a unique name (TOUR-1.1): {', '.join(twice)} "
                         "registered twice")
    if len(players) > MAX_PLAYERS:
        raise UsageError(f"at most {MAX_PLAYERS} players")
    attributes = check_attributes(options.get("attributes"), players)
    check_in = options.get("check_in", False)
    if not isinstance(check_in, bool):
        raise UsageError("check_in is true or false")
    seed = options.get("seed")
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise UsageError("the tournament's seed is a whole number from 0 to 2**63 - 1")
    final_table, final_tables = finals.check(options, low, high)
    from .clock import check_round_time
    return [ev.TournamentCreated(
        name=name.strip(), game=kind, options=game_options, format=fmt, points=list(points),
        bye_points=bye_points, rounds=rounds, table_min=low, table_max=high,
        tiebreaks=tiebreaks, players=players, seed=seed, attributes=attributes,
        check_in=check_in, final_table=final_table, final_tables=final_tables,
        duplicate=dup, **swiss_settings(options, fmt),
        round_time=check_round_time(options.get("round_time")))]


# -- evolve ----------------------------------------------------------------------------------
