"""Bots playing whole recorded games fast: in memory, each log encoded once, written once.

A game played command by command through a file store pays one ``fsync`` per command; a
simulation needs only the finished record.  :func:`play_game` plays it with :func:`simulate`
and hands the whole log to the real store with ``import_log`` when the game ends, with its
secret.  ``durable=True`` plays on the real store command by command instead, through
:meth:`engine.service.GameService.submit` (:func:`engine.bots.play_out`).

:func:`simulate` is the service's command path without the service around it, for one
process that owns the game from its first record to its last:

* the game is created by :meth:`engine.service.GameService.create` (on a MemoryStore), so its
  header, first command and secret are the service's own;
* the referee's state is one :class:`engine.fold.Fold`, decided on by the kind's ``decide``
  and advanced with what it decided (the one fold: no other caller of ``evolve``);
* a bot sees its own seat's fold (``GameRules.visible``, as through the service), advanced only
  when the bot is asked to choose; a bot whose class says ``reads_state = False`` (it reads only
  the legal commands) is given None and its seat is not folded at all;
* a seat's legal commands come from the kind's ``legal_choices`` (lazy: a range of bets, not
  every bet object) on the referee's state, which gives the same commands as the seat's own
  fold (tests/core/test_simulate.py); a kind without that hook asks ``legal_commands`` of the
  seat's fold;
* each command's events are encoded once (``engine.log.encode_command``, what every store's
  append writes) with the time the store would stamp: the bytes are those of the same game
  played command by command through the service (tests/core/test_simulate.py compares them).

A game stopped by the turn cap is marked as such: the store keeps a private ``"stopped"``
document beside it (``{"why": "turn cap", "max_rounds": N, "rounds": R, "commands": C}``),
which ``devil games`` shows; its log ends as it stood (in progress).
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from .errors import NotAllowed, UsageError
from .fold import Fold
from .log import encode_command, now_ms
from .store import EventStore

#: the private document that marks a game stopped before its end
STOPPED = "stopped"


@attrs.define
class Played:
    """One simulated game: ``game`` (its id), ``data`` (the whole .devlog), ``secret`` (the
    seed and salt, None for a physical game), ``result`` (:func:`engine.bots.play_out`'s map:
    ``over``, ``capped``, ``commands``, ``rounds``, ``state``)."""

    game: str
    data: bytes
    secret: dict | None
    result: dict


def play_game(store: EventStore, kind: str, options: dict, bots: dict[int, Any], *,
              seed: int | None = None, max_rounds: int = 500, durable: bool = False,
              on_events: Callable | None = None) -> dict:
    """Create a game of ``kind`` with ``options`` and let ``bots`` (seat -> bot) play it out.

    Returns :func:`engine.bots.play_out`'s result (``over``, ``capped``, ``commands``,
    ``rounds``, ``state``: the referee's final state) plus ``game`` (its id in ``store``).
    Raises UsageError for bad options or bots.
    """
    if durable:
        from .bots import play_out
        from .service import GameService

        service = GameService(store)
        game = service.create(kind, options, seed=seed).game
        result = play_out(service, game, bots, max_rounds=max_rounds, on_events=on_events)
    else:
        played = simulate(kind, options, bots, seed=seed, max_rounds=max_rounds,
                          on_events=on_events)
        game, result = played.game, played.result
        from .receipts import Signer

        Signer.of(store)  # the key first: a store holding games never makes one (issue 20.5)
        store.import_log(played.data, played.secret)
        if result["over"]:  # sealed by the store it lands in (engine.receipts)
            from .receipts import seal_stream

            seal_stream(store, game)
    if result["capped"]:
        store.put_private(game, STOPPED, {"why": "turn cap", "max_rounds": max_rounds,
                                          "rounds": result["rounds"],
                                          "commands": result["commands"]})
    return {**result, "game": game}


def simulate(kind: str, options: dict, bots: dict[int, Any], *, seed: int | None = None,
             max_rounds: int = 500, max_commands: int = 100_000,
             on_events: Callable | None = None) -> Played:
    """One game of ``kind`` played by ``bots`` in memory (see the module doc), in the order
    :func:`engine.bots.play_out` plays it: seat by seat, each seat that may act asked once per
    pass, until the game is over, round ``max_rounds + 1`` or ``max_commands`` commands.
    ``on_events(events)`` is called with each command's events.  Raises UsageError for bad
    options or a seat without a bot, IllegalCommand / NotAllowed for a bot's bad command."""
    from .chance import SeededChance
    from .service import GameService
    from .store import MemoryStore

    memory = MemoryStore()
    loaded = GameService(memory, sign=False).create(kind, options, seed=seed)
    game, rules = loaded.game, loaded.rules
    secret = memory.secret(game)
    data = bytearray(memory.log_bytes(game))
    created, seq, link = loaded.header.created, loaded.head.seq, loaded.head.link
    log = list(loaded.events)  # every event so far, decoded (a seat's fold catches up from it)
    referee = Fold(rules).advance(log)
    names = rules.seats(referee.state)
    chance = None if secret is None else SeededChance(secret["seed"], secret["salt"])
    decide, acting_seat, is_over = rules.decide, rules.acting_seat, rules.is_over
    to_map, by_type = rules.events.to_map, rules.commands.by_type
    choices = rules.legal_choices
    seats = range(len(names))
    folds: list = [None] * len(names)  # each seat's Fold, made when its bot first reads it
    reads = [getattr(bots.get(seat), "reads_state", True) for seat in seats]

    def seat_state(seat: int):
        fold = folds[seat]
        if fold is None:
            fold = folds[seat] = Fold(rules, seat)
        if fold.seq < len(log):
            fold.advance(log[fold.seq:], lambda: log[:fold.seq])
        return fold.state

    commands, capped = 0, False
    state = referee.state
    while not is_over(state):
        rounds = getattr(state, "round", 0) or 0
        if rounds > max_rounds or commands >= max_commands:
            capped = True
            break
        acted = False
        for seat in seats:
            if choices is not None:
                legal = choices(state, seat)
                if not legal:
                    continue
                known = seat_state(seat) if reads[seat] else None
            else:
                known = seat_state(seat)
                legal = rules.legal_commands(known, seat)
                if not legal:
                    continue
            bot = bots.get(seat)
            if bot is None:
                raise UsageError(f"seat {seat} ({names[seat]}) has no bot")
            command = bot.choose(known, seat, legal)
            tag = getattr(type(command), "TYPE", None)
            if by_type.get(tag) is not type(command):  # type: ignore[arg-type]  # any TYPE
                command = rules.commands.from_map(command)  # as the service decodes a map
            acting = acting_seat(state, command)
            if acting != seat:  # what the service refuses of a seat (engine.service.commands)
                raise NotAllowed("only the referee may give this command" if acting is None
                                 else f"you sit as {names[seat]} and cannot act as "
                                      f"{names[acting]}")
            events = decide(state, command, chance)
            if events:
                ts = max(0, now_ms() - created)  # the time the store's append stamps
                written = encode_command(link, seq + 1, seat, None, ts,
                                         [to_map(e) for e in events])
                for _, chunk in written:
                    data += chunk
                link = written[-1][0].link
                seq += len(events)
                referee.advance(events)
                log.extend(events)
                state = referee.state
            commands += 1
            acted = True
            if on_events is not None:
                on_events(events)
            if is_over(state):
                break
        if not acted:
            raise UsageError("nobody can act, but the game is not over")
    result = {"over": bool(is_over(state)), "capped": capped, "commands": commands,
              "rounds": getattr(state, "round", None), "state": state}
    return Played(game, bytes(data), secret, result)


def stopped(store: EventStore, game: str) -> dict | None:
    """The mark of a game stopped before its end (see the module doc), or None."""
    try:
        return store.private(game, STOPPED)
    except (OSError, ValueError):
        return None
