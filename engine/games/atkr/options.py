"""The options of a new Auf Teufel komm raus game and its first events.

Options (a JSON-able map, as ``devil new atkr`` and ``POST /games`` give them):

``players``  unique names in seat order, as many as ``RULES`` seats (ATKR-1.6)
``first``    the start player of round 1, or None: drawn by chance (ATKR-1.7 [house]); in a
             physical game without ``first`` the first seat starts
``physical`` True: played with the box, the referee reports every coal (ATKR-9.3)
``ring``     the furnace's ring capacity, 0 to 47 (ATKR-7.2 [house default 16])
``track``    the money track labels, e.g. ``"0-50,200,300,500,700,1000,1300,1600"`` or a list
             ``["0-50", 200, ...]`` (ATKR-6.1 [house default])
``duplicate`` True: a digital game draws its coals in the furnace order its seed gives every
             table of a tournament's duplicate round (engine.games.atkr.duplicate; TOUR-11)
"""

from __future__ import annotations

from ...errors import UsageError
from . import events as ev
from .state import DEFAULT_RING, DEFAULT_TRACK, DEFAULT_TRACK_LOW, GOAL, START_MONEY

KNOWN = {"players", "first", "physical", "ring", "track", "seed_chosen", "duplicate"}
MAX_LABEL = 1_000_000_000
DEFAULT_TRACK_TEXT = f"0-{DEFAULT_TRACK_LOW}," + ",".join(str(v) for v in DEFAULT_TRACK)


def parse_track(value) -> tuple[int, list[int]]:
    """``(low, labels)`` from ``"0-50,200,300,..."`` or a list of the same items.

    Raises UsageError unless the lowest space is ``0-L`` and the labels are multiples of 10,
    strictly increasing and above L.
    """
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, list) and all(isinstance(item, (str, int)) and not isinstance(item, bool)
                                         for item in value):
        items = list(value)
    else:
        raise UsageError(f"a track is text like \"0-50,200,300\" or a list of the same items, "
                         f"not {value!r}")
    items = [str(item).strip() for item in items if str(item).strip()]
    if len(items) < 2:
        raise UsageError("a track needs a lowest space like 0-50 and at least one label")
    first, rest = items[0], items[1:]
    if "-" not in first:
        raise UsageError(f"the track's first space must be a range like 0-50, not {first!r}")
    low_from, _, low_to = first.partition("-")
    try:
        low_from_value, low = int(low_from), int(low_to)
        labels = [int(item) for item in rest]
    except ValueError:
        raise UsageError(f"track labels are whole numbers: {value!r}") from None
    if low_from_value != 0 or low < 0 or low % 10:
        raise UsageError(f"the lowest track space runs from 0 to a multiple of 10, not {first!r}")
    if low > MAX_LABEL or any(label > MAX_LABEL for label in labels):
        raise UsageError(f"track labels must be at most {MAX_LABEL}")
    previous = low
    for label in labels:
        if label % 10 or label <= previous:
            raise UsageError(f"track labels must be multiples of 10 in increasing order above "
                             f"{low}: {', '.join(map(str, labels))}")
        previous = label
    return low, labels


def setup(options: dict, chance) -> list:
    """The first events of a game: ``game_created`` (every option, the seed commitment) and
    ``round_started`` for round 1.  Raises UsageError for bad options."""
    unknown = set(options) - KNOWN
    if unknown:
        raise UsageError(f"unknown atkr option(s): {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(KNOWN))})")
    from . import RULES

    players = RULES.check_players(options.get("players") or [])
    physical = options.get("physical", False)
    if not isinstance(physical, bool):
        raise UsageError(f"physical must be true or false, not {physical!r}")
    seed_chosen = options.get("seed_chosen", False)
    if not isinstance(seed_chosen, bool) or (seed_chosen and physical):
        raise UsageError("seed_chosen is set by the service: true only for a digital game "
                         "created with a chosen seed")
    if physical != (chance is None):
        raise UsageError("a physical game has no chance generator and a digital one needs one")
    duplicate = options.get("duplicate", False)
    if not isinstance(duplicate, bool) or (duplicate and physical):
        raise UsageError("duplicate is true or false, and only for a digital game: a physical "
                         "game's referee reports the coals drawn (TOUR-11.1)")
    first_name = options.get("first")
    if first_name is not None:
        if first_name not in players:
            raise UsageError(f"the start player {first_name!r} is not among the players")
        first, drawn = players.index(first_name), False
    elif chance is not None:
        first, drawn = chance.randbelow(len(players), "first"), True
    else:
        first, drawn = 0, False
    ring = options.get("ring", DEFAULT_RING)
    if ring is None:
        ring = DEFAULT_RING
    if not isinstance(ring, int) or isinstance(ring, bool) or not 0 <= ring <= 47:
        raise UsageError(f"the ring capacity is a whole number from 0 to 47, not {ring!r}")
    track = options.get("track")
    low, labels = parse_track(track if track is not None else DEFAULT_TRACK_TEXT)
    created = ev.GameCreated(players=players, first=first, first_drawn=drawn, physical=physical,
                             ring=ring, track_low=low, track=labels, start_money=START_MONEY,
                             goal=GOAL, commitment=None if chance is None else chance.commitment,
                             seed_chosen=seed_chosen, duplicate=duplicate or None)
    return [created, ev.RoundStarted(1, first)]
