"""``devil serve``'s side of the clocks (engine.clock, CLOCK-5, CLOCK-9): the timeouts due are
recorded on every request that names a game (:func:`tick`, from ``Api.game_for``) and by a
background task (:func:`run`) that looks, every :data:`INTERVAL` seconds, at every game this
node holds whose clock runs, so a game nobody touches still times out.

A game this node has not loaded since it started is not looked at by the task: the first
request naming it records every timeout that fell due meanwhile, each at the time it is
recorded (CLOCK-9).
"""

from __future__ import annotations

import asyncio
import contextlib

from ..errors import DevilError

#: how often the background task looks at the running clocks (seconds)
INTERVAL = 1.0


def _idle(loaded) -> bool:
    """Whether a held game certainly has no clock (no desk record, or known to have none)."""
    return loaded.desk is None or loaded.clock is False


async def tick(api, game: str) -> None:
    """Record ``game``'s timeouts due now (engine.service.clocks.apply_due), holding its lock,
    in the thread pool; nothing for a game known to have no clock."""
    loaded = api.service.cache.held(game)
    if loaded is not None and _idle(loaded):
        return
    with contextlib.suppress(DevilError):  # the request answers for itself
        await api.call(game, api.service.apply_timeouts, game)


async def run(api, interval: float = INTERVAL) -> None:
    """Forever: every ``interval`` seconds, :func:`tick` each held game whose clock runs."""
    from ..service.clocks import running

    while True:
        await asyncio.sleep(interval)
        for game in api.service.cache.held_games():
            loaded = api.service.cache.held(game)
            if loaded is None or _idle(loaded):
                continue
            try:
                busy = running(loaded)
            except Exception:  # a game being reloaded: the next round looks again
                continue
            if busy:
                await tick(api, game)
