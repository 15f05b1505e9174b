"""Helpers for the adjudication and amendment tests: one round of a physical Auf Teufel komm raus
game played as tests.tournament.helpers.quick_atkr plays it, so a game can be stopped in the
middle, corrected and played again."""

from __future__ import annotations

from engine.games.atkr import commands as A

from .helpers import DEVIL

#: round 1 and round 2 of quick_atkr: seat 0's coals (everyone else draws a devil)
ROUND1 = [100, 100]
ROUND2 = [75, 75, 75] + [50] * 7 + [25]


def play_round(service, game: str, players: list[str], bets: dict[str, int],
               coals: list[int]) -> None:
    """Every player bets ``bets[name]``; seat 0 (``players[0]``) draws ``coals`` and stops,
    every other player draws a devil (in turn order)."""
    for name in players:
        service.submit(game, A.Bet(player=name, amount=bets[name]))
    for _ in range(len(players)):
        state = service.state(game)
        name = players[state.turn]
        if name == players[0]:
            for coal in coals:
                service.submit(game, A.Draw(player=name, coal=coal))
            service.submit(game, A.Stop(player=name))
        else:
            service.submit(game, A.Draw(player=name, coal=DEVIL))


def round_one(service, game: str, players: list[str]) -> None:
    """quick_atkr's round 1: everyone bets 200; seat 0 ends with 700, the others 600."""
    play_round(service, game, players, {p: 200 for p in players}, ROUND1)
