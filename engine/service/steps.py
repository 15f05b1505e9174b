"""The command path's blocking steps, named, so one path serves a thread and an event loop.

A command (:mod:`engine.service.commands`) is decided in memory; only its durable writes block.
The path is written as a generator that *yields* each blocking step and receives its result
(or has its exception raised at the ``yield``):

* :class:`Append`: ``store.append(game, expected, actor, cmd, events)`` (durable when it
  returns: the answer is built only after it);
* :class:`Call`: any other write that waits for the disk (a private document, a seal), or a
  read the path needs only now and then (a command id's records, a seat's value);
* :class:`Refresh`: the game as the cache holds it, advanced by the store's new records.

:func:`run` drives such a generator in the calling thread (the local CLI, tests, the thread
pool: the store's own calls, exactly as before); :func:`run_async` drives it on an event loop,
handing appends to the store's group-commit writer (:class:`engine.store.group.GroupWriter`)
and other writes to a worker thread, so that everything in memory (the folds, decide, the
answer) runs on the loop without a thread hop and only the durable write leaves it.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Generator

import attrs


@attrs.frozen
class Append:
    """Append one command's ``events`` to ``game`` at version ``expected`` (EventStore.append)."""

    game: str
    expected: int
    actor: int
    cmd: str | None
    events: list
    #: the record time (ms since the header's created) the service decided at (a game with a
    #: clock, engine.clock: CLOCK-3); None: the store stamps its own now
    ts: int | None = None


@attrs.frozen
class Refresh:
    """``cache.refresh(game)``: the game advanced by what the store has since the cache's head
    (engine.service.cache.GameCache; on the loop the read may be the store's asynchronous
    one).  Not a write: a path is the same whichever way it is read."""

    cache: Any
    game: str
    #: the driver may answer with the game as held, without reading, when the store tells it
    #: nobody else has appended to it since it was last read (a command's first decision:
    #: its append's version check catches a stale one, and a refusal reads again)
    trust: bool = False


@attrs.frozen
class Call:
    """``fn(*args)``: a write that waits for the disk (not an append)."""

    fn: Callable
    args: tuple = ()


#: a command path: yields Append / Call, receives their results, returns its own
Steps = Generator[Any, Any, Any]


def run(steps: Steps, store, refresh: Callable | None = None) -> Any:
    """Drive ``steps`` here, each blocking step called in this thread (a Refresh as
    ``refresh(cache, game, trust)`` when given, else ``cache.refresh(game)``); its return
    value."""
    try:
        step = next(steps)
        while True:
            try:
                if type(step) is Append:
                    result = store.append(step.game, step.expected, step.actor, step.cmd,
                                          step.events, *(() if step.ts is None else (step.ts,)))
                elif type(step) is Refresh:
                    result = step.cache.refresh(step.game) if refresh is None \
                        else refresh(step.cache, step.game, step.trust)
                else:
                    result = step.fn(*step.args)
            except Exception as exc:  # raised inside the path, at its yield
                step = steps.throw(exc)
            else:
                step = steps.send(result)
    except StopIteration as stop:
        return stop.value


async def run_async(steps: Steps, append: Callable[..., Awaitable],
                    call: Callable[..., Awaitable],
                    refresh: Callable[..., Awaitable] | None = None) -> Any:
    """Drive ``steps`` on the running event loop: ``await append(game, expected, actor, cmd,
    events)`` for an Append, ``await call(fn, *args)`` for a Call, ``await refresh(cache,
    game, trust)`` for a Refresh (without ``refresh``: ``cache.refresh(game)`` here, for a store
    whose reads are local); its return value.  A BaseException that is not an Exception
    (engine.store.loopguard.NeedsThread) is not given to the path: it ends it.  If the
    caller is cancelled the path is closed (its locks released; an append already handed to
    the writer may still be recorded, unanswered, as a lost answer is: a retry with the same
    command id answers it)."""
    try:
        step = next(steps)
        while True:
            try:
                if type(step) is Append:
                    result = await append(step.game, step.expected, step.actor, step.cmd,
                                          step.events, *(() if step.ts is None else (step.ts,)))
                elif type(step) is Refresh:
                    result = step.cache.refresh(step.game) if refresh is None \
                        else await refresh(step.cache, step.game, step.trust)
                else:
                    result = await call(step.fn, *step.args)
            except Exception as exc:
                step = steps.throw(exc)
            else:
                step = steps.send(result)
    except StopIteration as stop:
        return stop.value
    finally:
        steps.close()
