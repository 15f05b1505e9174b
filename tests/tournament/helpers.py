"""Helpers for the tournament tests: an organiser on a store, physical Auf Teufel komm raus games
played to a chosen end, Castle of the Devil games that end by a declaration from a deal."""

from __future__ import annotations

from engine.games.atkr import commands as A
from engine.games.castle import commands as C
from engine.service import GameService
from engine.store import MemoryStore
from engine.tournament.organiser import Organiser

DEVIL = 0


def organiser(store=None) -> Organiser:
    return Organiser(GameService(store or MemoryStore()))


def fixed(players, rounds=2, size=(4, 4), **more) -> dict:
    return {"name": "Hand-worked cup", "format": "fixed", "rounds": rounds,
            "table_size": list(size), "players": list(players), "seed": 11, **more}


def quick_atkr(service, players: list[str], bets2: dict[str, int], **options) -> str:
    """A physical game of ``players`` (seat order; seat 0 starts) that ends after two rounds.

    Round 1: everyone bets 200 (all they have); seat 0 draws 100, 100 and stops, everyone else
    draws a devil.  H = 200, so every bet wins, and 200 is the highest bet: each is paid 2 x
    (ATKR-5.3, 5.5): 200 - 200 + 3 x 200 = 600.  Seat 0 also takes the prizes for the highest
    total and the most coals (ATKR-5.6, 5.7): 700.  Pawns: 700 alone on the 700 space, the
    others share the space below it, so nobody enters a pact (ATKR-6.2).
    Round 2: bets ``bets2`` (seat 0's too); seat 0 draws 75, 75, 75, 50 x 7, 25 = 600 in 11
    coals, everyone else a devil (no pacts: nobody pays).  H = 600: a bet equal to the
    highest bet gets 3 x back in all, a smaller one 2 x, 0 nothing; seat 0 takes 100 in
    prizes again.  Whoever bet 600 ends with 1800 (seat 0: 2000) and the game ends (ATKR-8.1).
    Returns the game id.
    """
    game = service.create("atkr", {"players": list(players), "first": players[0],
                                   "physical": True, **options}).game
    drawer = players[0]
    for bets, coals in (({p: 200 for p in players}, [100, 100]),
                        (bets2, [75, 75, 75] + [50] * 7 + [25])):
        for name in players:
            service.submit(game, A.Bet(player=name, amount=bets[name]))
        for _ in range(len(players)):
            state = service.state(game)
            name = players[state.turn]
            if name == drawer:
                for coal in coals:
                    service.submit(game, A.Draw(player=name, coal=coal))
                service.submit(game, A.Stop(player=name))
            else:
                service.submit(game, A.Draw(player=name, coal=DEVIL))
    return game


PROFS = ["priest", "thug", "doctor", "duelist", "diplomat", "hypnotist"]


def castle_deal(players: list[str], order: set[str]) -> dict:
    """A deal for six players: the members of ``order`` (three) hold a key each, the
    brotherhood the two bags and a goblet (CASTLE-2.4: one item each, both bags dealt)."""
    from engine.games.castle.options import in_play

    keys = iter(["key-1", "key-2", "key-3"])
    others = iter(["bag-key", "bag-goblet", "goblet-1"])
    seats = {}
    for i, name in enumerate(players):
        mine = "order" if name in order else "brotherhood"
        item = next(keys) if mine == "order" else next(others)
        seats[name] = {"society": mine, "profession": PROFS[i], "items": [item]}
    dealt = {s["items"][0] for s in seats.values()}
    playing, _ = in_play(len(players), False)
    return {"seats": seats, "item_pile": [c for c in playing if c not in dealt],
            "profession_pile": ["bodyguard", "clairvoyant", "grand-master", "poison-mixer"]}


def castle_declared(service, players: list[str], order: set[str], allies: list[str],
                    **options) -> str:
    """A physical game from :func:`castle_deal` in which seat 0 declares at once, naming
    ``allies`` (CASTLE-9.2: right, their society wins; wrong, the other society wins)."""
    game = service.create("castle", {"players": list(players), "first": players[0],
                                     "deal": castle_deal(players, order), "physical": True,
                                     **options}).game
    service.submit(game, C.Declare(player=players[0], allies=list(allies)))
    return game


def by_player(standings: dict) -> dict:
    return {row["player"]: row for row in standings["standings"]}
