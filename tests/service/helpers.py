"""Shared players for the service tests."""

from __future__ import annotations

import time


def atkr_choice(view, me, legal):
    """A simple player that ends games quickly: bet up to 100, draw until the coal total meets
    the highest revealed bet (or 30), then stop."""
    bets = [c for c in legal if c["type"] == "bet"]
    if bets:
        return [c for c in bets if c["amount"] <= 100][-1]
    mine = next(p for p in view["players"] if p["name"] == me)
    target = max([p["bet"] or 0 for p in view["players"]] + [30])
    stops = [c for c in legal if c["type"] == "stop"]
    if stops and mine["total"] >= target:
        return stops[0]
    return next(c for c in legal if c["type"] == "draw")


def play_atkr(server, created, limit=1500, seconds=120.0) -> dict:
    """Play ``created`` (a POST /games answer) to its end on ``server`` (the in-process app or
    a real one, see conftest.py), one RemoteClient per seat token.  Returns how many commands
    each seat gave."""
    game = created["game"]
    seats = {name: server.remote(created["tokens"][name]) for name in created["players"]}
    referee = server.remote(created["tokens"]["referee"])
    acted = {name: 0 for name in seats}
    deadline = time.monotonic() + seconds
    for _ in range(limit):
        assert time.monotonic() < deadline
        if referee.view(game, None)["phase"] == "over":
            return acted
        for name, client in seats.items():
            legal = client.legal(game, None)  # the token's own seat
            if legal:
                command = atkr_choice(client.view(game, None), name, legal)
                result = client.submit(game, command, None)
                assert result["repeated"] is False and result["events"]
                acted[name] += 1
                break
        else:
            raise AssertionError("nobody could act although the game is not over")
    raise AssertionError("the game did not end")


def runs_of_commands(records) -> dict[str, int]:
    """``{command id: number of separate runs of records}`` of a log's records: 1 for every id
    when each command was recorded exactly once (a retry that appended again shows as 2)."""
    runs: dict[str, int] = {}
    previous = None
    for record in records:
        if record.cmd is not None and record.cmd != previous:
            runs[record.cmd] = runs.get(record.cmd, 0) + 1
        previous = record.cmd
    return runs
