"""The organiser's check-in, forfeit, swap and unpair on a store (TOUR-7; docs/tournaments.md,
"No-shows, forfeits and overrides").  Each function takes an
:class:`engine.tournament.organiser.Organiser`; what a table's game says (has it a command
yet? is it over?) is read here, then the tournament command is submitted and decided by
:mod:`engine.tournament.noshow`.  A refusal raises IllegalCommand (the rule id) or UsageError
and records nothing.
"""

from __future__ import annotations

from ..errors import IllegalCommand, UsageError
from ..game import REFEREE
from . import noshow_events as nv
from .rules import PER_TABLE, decide

#: the bot that plays a forfeited seat unless another is named: the first of these the kind has
DEFAULT_BOTS = ("sensible", "cautious", "random")


def has_command(organiser, game: str) -> bool:
    """Whether ``game``'s log holds anything after the records of its creation (a seat's
    command, a referee's report or a desk record; not the time control, ``clock_set``).  A
    game with seat entropy: its seating stage (the seats' commitments, the setup run when the
    last is in) is not a command; but a game of a duplicate round whose shared order is fixed
    (every seat of every table has given its value, TOUR-11.6) counts as begun, since another
    table may have drawn from it."""
    from .. import entropy
    from ..replay import batches
    from ..service import mixing

    from ..desk.clock_events import ClockSet

    loaded = organiser.service.load(game)
    if entropy.opening(loaded.events) is None:
        setup_end = 1 + loaded.records[0].left if loaded.records else 0
        # the time control recorded after creation (the round's deadline, TOUR-8.5) is not one
        return any(type(e) is not ClockSet for e in loaded.events[setup_end:])
    group = mixing.group_of_quiet(organiser.store, game)
    if group is not None and mixing.group_values(organiser.store, group) is not None:
        return True
    kinds = [start for start, _end in batches(loaded.records)
             if not entropy.is_shared(loaded.events[start])
             and type(loaded.events[start]) is not ClockSet]
    return len(kinds) > 1  # the first is the kind's setup, run when the last seat sat


def checkin(organiser, tournament: str, player: str) -> list:
    """Check ``player`` in for the next round to be paired (TOUR-7.1); the events."""
    return organiser.submit(tournament, nv.CheckIn(player=player))


def make_game(organiser, tournament: str, round_: int, number: int, private=None) -> str | None:
    """Create table ``number``'s game (as ``pair`` does) and attach it; its id, or None when the
    game cannot be created here (a table size the game does not take: attach the referee's
    log)."""
    from . import events as ev

    state = organiser.state(tournament)
    created = state.created
    table = state.tables[round_][number - 1]
    options = {k: v for k, v in created.options.items() if k not in PER_TABLE}
    options.update(players=list(table.players), first=table.first,
                   physical=bool(created.options.get("physical")))
    secret = _round_secret(organiser, tournament, state, round_)
    extra: dict = {}
    if secret is not None:  # a duplicate round's table: the round's seed (TOUR-11.2, 11.6)
        from .organiser import _with_mix

        seated = bool(secret.get("seat_entropy"))
        extra = {"seed": secret["seed"], "salt": secret["salt"],
                 "chosen": secret.get("chosen", False), "seat_entropy": seated}
        private = _with_mix(private, tournament, round_)  # its round's group (TOUR-11.8)
    from .clock import round_ends
    extra["deadline"] = round_ends(state, round_)  # TOUR-8.5: the round's end, as pair's games
    try:
        loaded = organiser.service.create(created.game, options, private=private, **extra)
    except UsageError:
        return None
    if secret is not None:  # the round's list of games: this table's entry replaced
        from . import duplicate

        games = [e for e in secret.get("games") or [] if len(e) < 3 or e[2] != number]
        games.append([loaded.game, len(table.players), number])
        games.sort(key=lambda e: e[2] if len(e) > 2 else 0)
        organiser.store.put_private(tournament, duplicate.private_name(round_),
                                    {**secret, "games": games}, replace=True)
    organiser.submit(tournament, ev.Attach(round=round_, table=number, game=loaded.game,
                                           created=loaded.header.created))
    return loaded.game


def _round_secret(organiser, tournament: str, state, round_: int) -> dict | None:
    """A duplicate round's private document (seed, salt, games ...), or None."""
    from . import duplicate

    if not state.furnaces.get(round_):
        return None
    return organiser.store.private(tournament, duplicate.private_name(round_))


def _table_of(state, player: str, rule: str) -> int:
    from .noshow import seat_of
    from .rules import _known, _open

    _open(state)
    if state.round == 0 or state.closed == state.round:
        raise IllegalCommand(rule, "no round is open: a forfeit is for a player seated in the "
                             "round being played (between rounds, `drop` them)")
    _known(state, player, rule)
    return seat_of(state, state.round, player, rule)


def forfeit(organiser, tournament: str, player: str, reason: str, bot: str | None = None,
            private=None) -> dict:
    """``player`` forfeits their seat in the open round (TOUR-7.2, 7.3).

    The table's game has no command yet (or the table has no game) and the game seats one
    fewer: the table is made again without them and, when it had a game, a new game is
    created and attached (the old one stays in the store, attached to nothing).  Otherwise
    their seat is handed to ``bot`` (default: the kind's first of :data:`DEFAULT_BOTS`) in the
    game's log, a
    ``seat_replaced`` record (DESK-7), and the service plays it from then on.  Returns
    ``{"round", "table", "player", "remade", "bot", "game", "old_game", "players",
    "events"}``."""
    from ..bots import bot_names

    state = organiser.state(tournament)
    number = _table_of(state, player, "TOUR-7.2")
    round_ = state.round
    game = state.games.get((round_, number))
    kind = state.created.game
    table = state.tables[round_][number - 1]
    from ..game import rules_for

    fewer_ok = len(table.players) - 1 >= max(1, rules_for(kind).min_players)
    started = game is not None and has_command(organiser, game)
    remake = fewer_ok and not started
    if not remake and game is not None:
        loaded = organiser.service.load(game)
        if loaded.rules.is_over(loaded.state):
            raise IllegalCommand("TOUR-7.3", f"table {number}'s game {game} is finished: its "
                                 "result stands (close the round)")
    if not remake and game is None:
        raise IllegalCommand("TOUR-7.3", f"table {number} has no game attached and cannot be "
                             f"made again with {len(table.players) - 1} player(s): attach its "
                             "game first")
    name = ""
    if not remake and game is not None:
        _check_sat(organiser, game, number, player)
    if not remake:
        names = bot_names(kind)
        name = bot or next((b for b in DEFAULT_BOTS if b in names), names[0])
        if name not in names:
            raise UsageError(f"TOUR-7.3: no bot {name!r} for {kind} (bots: {', '.join(names)})")
    command = nv.Forfeit(player=player, reason=reason, remake=remake, bot=name)
    decide(state, command)  # refused here, before the game's log is touched
    if not remake:
        from ..desk.commands import ReplaceSeat

        assert game is not None
        organiser.service.submit(game, ReplaceSeat(
            seat=player, bot=name, reason=f"forfeit in {tournament}: {reason.strip()}"),
            actor=REFEREE)
    events = organiser.submit(tournament, command)
    new_game = None
    if remake and game is not None:  # a table paired without games waits for its referee's log
        new_game = make_game(organiser, tournament, round_, number, private)
    after = organiser.state(tournament)
    return {"round": round_, "table": number, "player": player, "remade": remake,
            "bot": name or None, "game": new_game if remake else game,
            "old_game": game if remake else None,
            "players": list(after.tables[round_][number - 1].players), "events": events}


def _check_sat(organiser, game: str, number: int, player: str) -> None:
    """A bot cannot take a seat of a seated game that never gave its entropy (the value must
    come from the seat's own client, SEAT-2): refuse the forfeit (TOUR-7.3)."""
    from .. import entropy

    loaded = organiser.service.load(game)
    opened = entropy.opening(loaded.events)
    if opened is None:
        return
    names = opened.players
    seat = names.index(player) if player in names else None
    if seat is not None and entropy.commitments(loaded.events)[seat] is None:
        raise IllegalCommand("TOUR-7.3", f"{player} never gave their seat's entropy at table "
                             f"{number} ({game}), and the game cannot be made again with one "
                             "player fewer: a bot cannot sit for them (SEAT-2); the table "
                             "must wait for them or be adjudicated (TOUR-8)")


def _unstarted(organiser, state, round_: int, numbers, rule: str, what: str) -> None:
    for number in numbers:
        game = state.games.get((round_, number))
        if game is not None and has_command(organiser, game):
            raise IllegalCommand(rule, f"table {number}'s game {game} has a command already: "
                                 f"{what} only before a table's game has begun")


def swap(organiser, tournament: str, first: str, second: str, reason: str,
         private=None) -> dict:
    """Swap ``first``'s and ``second``'s seats in the open round (TOUR-7.4), before either
    table's game has a command; the tables' games are made again and attached.  Returns
    ``{"round", "tables": [{"table", "players", "first", "game", "old_game"}], "events"}``."""
    from .noshow import seat_of

    state = organiser.state(tournament)
    command = nv.Swap(first=first, second=second, reason=reason)
    decide(state, command)
    round_ = state.round
    numbers = sorted({seat_of(state, round_, first, "TOUR-7.4"),
                      seat_of(state, round_, second, "TOUR-7.4")})
    _unstarted(organiser, state, round_, numbers, "TOUR-7.4", "seats are swapped")
    old = {n: state.games.get((round_, n)) for n in numbers}
    events = organiser.submit(tournament, command)
    rows = []
    for number in numbers:
        game = make_game(organiser, tournament, round_, number, private) \
            if old[number] is not None else None
        table = organiser.state(tournament).tables[round_][number - 1]
        rows.append({"table": number, "players": list(table.players), "first": table.first,
                     "game": game, "old_game": old[number]})
    return {"round": round_, "tables": rows, "events": events}


def unpair(organiser, tournament: str, reason: str) -> dict:
    """Undo the open round's pairing (TOUR-7.5) before any of its games has a command; the
    games stay in the store, attached to nothing.  Returns ``{"round", "games", "events"}``
    (``games``: the detached ids)."""
    state = organiser.state(tournament)
    command = nv.Unpair(round=state.round, reason=reason)
    decide(state, command)
    round_ = state.round
    _unstarted(organiser, state, round_, range(1, len(state.tables[round_]) + 1), "TOUR-7.5",
               "a round is unpaired")
    games = [g for (r, _t), g in sorted(state.games.items()) if r == round_]
    return {"round": round_, "games": games, "events": organiser.submit(tournament, command)}


#: the fields of each operation's body (besides "type"), as the HTTP service takes them
FIELDS = {"checkin": {"player"}, "forfeit": {"player", "reason", "bot"},
          "swap": {"first", "second", "reason"}, "unpair": {"reason"}}


def _text(body: dict, key: str, default: str | None = None) -> str:
    value = body.get(key, default)
    if not isinstance(value, str):
        raise UsageError(f"\"{key}\" must be text")
    return value


def run(organiser, tournament: str, kind: str, body: dict, private=None) -> dict:
    """One TOUR-7 operation from a body (``{"type": kind, ...}``, see :data:`FIELDS`), as
    the HTTP service and the local CLI give it; the answer as JSON: ``{"tournament", ...the
    operation's answer..., "events": [maps]}``.  Raises as the operation does."""
    if kind == "checkin":
        answer: dict = {"events": checkin(organiser, tournament, _text(body, "player"))}
    elif kind == "forfeit":
        bot = body.get("bot")
        if bot is not None and not isinstance(bot, str):
            raise UsageError("\"bot\" must be text")
        answer = forfeit(organiser, tournament, _text(body, "player"),
                         _text(body, "reason", ""), bot=bot or None, private=private)
    elif kind == "swap":
        answer = swap(organiser, tournament, _text(body, "first"), _text(body, "second"),
                      _text(body, "reason", ""), private=private)
    elif kind == "unpair":
        answer = unpair(organiser, tournament, _text(body, "reason", ""))
    else:  # pragma: no cover - the callers check the type
        raise UsageError(f"not a TOUR-7 operation: {kind}")
    rules = organiser.service.load(tournament).rules
    answer["events"] = [rules.events.to_map(e) for e in answer["events"]]
    return {"tournament": tournament, **answer}
