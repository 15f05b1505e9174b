"""Duplicate rounds (TOUR-11): every table of a round draws from the same committed furnace
order; the duplicate score compares each seat with the same seat at the other tables.

The draw rule (engine.games.atkr.duplicate) and the score are worked by hand on small cases;
a real duplicate round of two digital tables shows the same coals drawn at both, the
commitment checked when the round closes, and every log re-derived by verify."""

from fractions import Fraction

import pytest

from engine.errors import IllegalCommand, UsageError
from engine.games.atkr import commands as A
from engine.games.atkr.duplicate import COALS, furnace_order, next_coal
from engine.games.atkr.state import COAL_COUNTS
from engine.replay import verify_bytes
from engine.tournament import events as ev
from engine.tournament.duplicate import scores
from engine.tournament.rules import evolve, initial, setup

from .helpers import organiser

DEVIL = 0
PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def counts(**kinds) -> list[int]:
    """Furnace counts in COAL_KINDS order (100, 75, 50, 25, 20, 10, devil)."""
    order = ["c100", "c75", "c50", "c25", "c20", "c10", "devil"]
    return [kinds.get(k, 0) for k in order]


def test_the_next_coal_walks_the_order_skipping_what_the_furnace_no_longer_holds():
    order = [50, 50, DEVIL, 10, 100, 50]
    # a furnace that held one 50, the devil and the 10: 50, devil, 10 (the second 50 skipped)
    held = counts(c50=1, c10=1, devil=1)
    assert [next_coal(order, held, j) for j in range(3)] == [50, DEVIL, 10]
    with pytest.raises(ValueError):
        next_coal(order, held, 3)
    # the whole furnace: the order itself
    full = counts(c100=1, c50=3, c10=1, devil=1)
    assert [next_coal(order, full, j) for j in range(6)] == order


def test_a_rounds_order_is_a_shuffle_of_the_48_coals_and_the_same_for_the_same_seed():
    assert len(COALS) == 48 and sum(COAL_COUNTS) == 48
    one = furnace_order(7, 1)
    assert sorted(one) == sorted(COALS) and one == furnace_order(7, 1)
    assert one != furnace_order(7, 2) and one != furnace_order(8, 1)


def _state(values_by_table: list[list[int]], sizes_players: list[list[str]], furnace="ab" * 32):
    """A tournament state folded from hand-made events: one duplicate round whose tables
    (players in seat order) have the given values (final money)."""
    state = initial()
    players = [p for table in sizes_players for p in table]
    created = setup({"name": "Dup", "game": "atkr", "rounds": 1, "table_size": [3, 4],
                     "players": players, "seed": 1, "duplicate": True})[0]
    evolve(state, created)
    evolve(state, ev.RoundPaired(round=1, tables=[ev.PairedTable(players=t, first=t[0])
                                                  for t in sizes_players],
                                 byes=[], repeats=0, furnace=furnace))
    for number, (table, values) in enumerate(zip(sizes_players, values_by_table), 1):
        evolve(state, ev.ResultRecorded(
            round=1, table=number, game=f"atkr-{number}", seq=1, link="00", places=[1] * len(table),
            values=values, winners=[], points=["0"] * len(table), measure="money", share=True,
            scored=False))
    return state


def test_the_duplicate_score_by_hand():
    """Three tables of 4 and one of 3 (TOUR-11.5).  Seat 0 at the tables of 4: 2000, 1800,
    800: table 1's seat 0 scores 2000 - (1800 + 800) / 2 = 700, table 2's 1800 - 1400 = 400,
    table 3's 800 - 1900 = -1100.  Seat 3: 600, 0, 900: 600 - 450 = 150, 0 - 750 = -750,
    900 - 300 = 600.  The table of 3 has no table of its size to compare with: 0 each."""
    tables = [["A1", "A2", "A3", "A4"], ["B1", "B2", "B3", "B4"], ["C1", "C2", "C3", "C4"],
              ["D1", "D2", "D3"]]
    values = [[2000, 100, 100, 600], [1800, 100, 400, 0], [800, 100, 250, 900], [5, 6, 7]]
    got = scores(_state(values, tables))
    assert got["A1"] == 700 and got["B1"] == 400 and got["C1"] == -1100
    assert got["A4"] == 150 and got["B4"] == -750 and got["C4"] == 600
    assert got["A2"] == got["B2"] == got["C2"] == 0
    # seat 2: 100, 400, 250: 100 - 325, 400 - 175, 250 - 250
    assert (got["A3"], got["B3"], got["C3"]) == (-225, 225, 0)
    assert got["D1"] == got["D2"] == got["D3"] == 0
    # equal money at equal seats everywhere: every score 0; thirds are kept exact
    three = scores(_state([[100, 0, 0], [0, 0, 0], [0, 0, 0]], [["x", "y", "z"], ["p", "q", "r"],
                                                                  ["s", "t", "u"]]))
    assert three["x"] == 100 and three["p"] == Fraction(-50)


def test_the_duplicate_score_as_a_tiebreak():
    """Everyone on 0 points (no points by place are recorded here): with the duplicate
    tiebreak first, table 1's seat 0 (+700) leads, table 3's seat 0 (-1100) is last of the
    tables of 4 (TOUR-11.5).  Scores as in the test above: A1 700, C4 600, B1 400, B3 225,
    A4 150, four at 0, A3 -225, B4 -750, C1 -1100."""
    from engine.tournament.standings import compute

    tables = [["A1", "A2", "A3", "A4"], ["B1", "B2", "B3", "B4"], ["C1", "C2", "C3", "C4"]]
    values = [[2000, 100, 100, 600], [1800, 100, 400, 0], [800, 100, 250, 900]]
    state = _state(values, tables)
    import attrs

    state.created = attrs.evolve(state.created, tiebreaks=["duplicate"])
    ranked = [t.player for t in compute(state)]
    assert ranked[:3] == ["A1", "C4", "B1"] and ranked[-1] == "C1"
    with pytest.raises(UsageError, match="TOUR-11.5"):
        setup({"name": "Dup", "game": "atkr", "rounds": 1, "table_size": [4, 4],
               "players": ["A"], "seed": 1, "tiebreaks": ["duplicate"]})


def play(service, game: str, stop_at: int) -> None:
    """Play a digital game to its end: everyone bets twice ``stop_at`` (or all they have),
    each seat draws until its coals reach ``stop_at`` (or it busts)."""
    for _ in range(2000):
        state = service.state(game)
        if state.phase == "over":
            return
        if state.phase == "bet":
            for seat, name in enumerate(state.players):
                if not state.bet_in[seat]:
                    amount = min(state.money[seat], 2 * stop_at)
                    service.submit(game, A.Bet(player=name, amount=amount))
            continue
        name = state.players[state.turn]
        if state.coals[state.turn] and sum(state.coals[state.turn]) >= stop_at:
            service.submit(game, A.Stop(player=name))
        else:
            service.submit(game, A.Draw(player=name))
    raise AssertionError("the game did not end")


def round_one_coals(service, game: str) -> list[int]:
    """Every coal drawn in the game's first round, in order."""
    from engine.games.atkr import events as E

    out = []
    for _record, event in service.stream(game):
        if type(event) is E.RoundStarted and event.round == 2:
            break
        if type(event) is E.CoalDrawn:
            out.append(event.coal)
    return out


def test_a_duplicate_round_of_two_digital_tables():
    d = organiser()
    t = d.create({"name": "Dup cup", "game": "atkr", "rounds": 1, "table_size": [4, 4],
                  "players": PLAYERS, "seed": 5, "duplicate": True})
    created = d.state(t).created
    assert created.duplicate and created.options["duplicate"] is True
    paired = d.pair(t, game_seed=lambda round_, table: 4256)  # reproducible: games that end
    state = d.state(t)
    assert len(state.furnaces[1]) == 64  # the commitment, recorded before any game existed
    games = [row["game"] for row in paired["tables"]]
    play(d.service, games[0], stop_at=30)
    play(d.service, games[1], stop_at=60)  # another way of playing: other coals counts
    first, second = (round_one_coals(d.service, g) for g in games)
    # both furnaces were full at the start: the same coals in the same order, as far as the
    # shorter table drew
    short = min(len(first), len(second))
    assert short >= 4 and first[:short] == second[:short]
    from engine.games.atkr import RULES

    for g in games:  # finished, but the round's seed is not revealed by a table (TOUR-11.3):
        # a table still playing could otherwise read its coals to come from this log
        check = verify_bytes(d.store.log_bytes(g))
        assert check.ok and check.finished and not check.seed_checked, check.reason
        assert RULES.revealed(d.service.state(g)) is None
        assert RULES.commitment(d.service.state(g)) == state.furnaces[1]  # the round's
    # a game of another seed is refused for a table of this round (TOUR-11.2)
    stray = d.service.create("atkr", {"players": paired["tables"][0]["players"],
                                      "first": paired["tables"][0]["first"],
                                      "duplicate": True}, seed=99).game
    play(d.service, stray, stop_at=30)
    with pytest.raises(IllegalCommand, match="TOUR-11.2"):
        d.check_log(t, d.store.log_bytes(stray), table=1)
    for g in games:
        d.attach(t, g)
    # closing with another seed than the committed one is refused, nothing recorded (TOUR-11.3)
    version = d.service.load(t).version
    with pytest.raises(IllegalCommand, match="TOUR-11.3"):
        d.submit(t, ev.Close(round=1, furnace_seed=1, furnace_salt="00" * 16))
    assert d.service.load(t).version == version
    closed = d.close_round(t)
    assert closed["collected"] == 0 and closed["finished"]
    state = d.state(t)
    seed, salt = state.revealed[1]
    for g in games:  # the seed the round revealed re-derives every draw of every table
        check = verify_bytes(d.store.log_bytes(g), shared={"seed": seed, "salt": salt})
        assert check.ok and check.seed_checked, check.reason
        wrong = verify_bytes(d.store.log_bytes(g), shared={"seed": seed + 1, "salt": salt})
        assert not wrong.ok and "TOUR-11.2" in wrong.reason
    rows = {r["player"]: r for r in d.standings(t)["standings"]}
    for number in (0, 1):  # each seat against the same seat at the other table
        table = paired["tables"][number]["players"]
        other = paired["tables"][1 - number]["players"]
        money = d.service.state(games[number]).money
        theirs = d.service.state(games[1 - number]).money
        for seat, name in enumerate(table):
            assert rows[name]["duplicate"] == money[seat] - theirs[seat]
            assert rows[name]["duplicate"] == -rows[other[seat]]["duplicate"]
    assert verify_bytes(d.store.log_bytes(t)).ok  # Pair and Close re-decided, commitment too


def test_refusals():
    d = organiser()
    base = {"name": "Dup", "rounds": 1, "table_size": [4, 4], "players": PLAYERS, "seed": 5,
            "duplicate": True}
    with pytest.raises(UsageError, match=r"castle games have no duplicate rounds \(TOUR-11.1\)"):
        d.create({**base, "game": "castle"})
    with pytest.raises(UsageError, match=r"for digital games \(TOUR-11.1\)"):
        d.create({**base, "game": "atkr", "options": {"physical": True}})
    with pytest.raises(UsageError, match="TOUR-11.1"):
        d.create({**base, "game": "atkr", "duplicate": "yes"})
    plain = d.create({**base, "game": "atkr", "duplicate": False})
    with pytest.raises(IllegalCommand, match="TOUR-11.2"):
        d.submit(plain, ev.Pair(round=1, furnace="ab" * 32))
    dup = d.create({**base, "game": "atkr"})
    with pytest.raises(IllegalCommand, match="TOUR-11.2.*--no-games"):
        d.pair(dup, games=False)
    with pytest.raises(IllegalCommand, match="TOUR-11.2"):
        d.submit(dup, ev.Pair(round=1))


def test_the_bundle_checks_each_tables_seed(tmp_path):
    """A bundle of a closed duplicate round verifies; the same bundle whose stream claims
    another revealed seed is caught (TOUR-11.2) by the check of every table's log."""
    from engine.tournament import duplicate
    from engine.tournament.bundle import verify, write

    d = organiser()
    t = d.create({"name": "Dup cup", "game": "atkr", "rounds": 1, "table_size": [4, 4],
                  "players": PLAYERS[:4], "seed": 5, "duplicate": True})
    paired = d.pair(t, game_seed=lambda round_, table: 4256)
    play(d.service, paired["tables"][0]["game"], stop_at=30)
    d.close_round(t)
    result = verify(write(d.store, t, str(tmp_path / "b")) and str(tmp_path / "b"))
    assert result["ok"], result["problems"]
    state = d.state(t)
    game = paired["tables"][0]["game"]
    data = d.store.log_bytes(game)
    assert duplicate.bundle_problem(state, 1, data, f"game {game}") is None
    state.revealed[1] = (1, "00" * 16)
    problem = duplicate.bundle_problem(state, 1, data, f"game {game}")
    assert problem is not None and "TOUR-11.2" in problem


def test_duplicate_rounds_over_http():
    """Over HTTP with the organiser's key: a castle tournament is refused (400, TOUR-11.1);
    an atkr one pairs its round with the commitment and creates both tables' games with
    their seat tokens, each game with the duplicate option."""
    from starlette.testclient import TestClient

    from engine.store import MemoryStore
    from engine.web import create_app

    store = MemoryStore()
    auth = {"Authorization": "Bearer key"}
    with TestClient(create_app(store, "key")) as http:
        body = {"name": "Net dup", "game": "atkr", "rounds": 1, "table_size": [4, 4],
                "players": PLAYERS, "seed": 5, "duplicate": True}
        bad = http.post("/tournaments", headers=auth, json={**body, "game": "castle"})
        assert bad.status_code == 400 and "TOUR-11.1" in bad.json()["error"]
        t = http.post("/tournaments", headers=auth, json=body).json()["tournament"]
        paired = http.post(f"/tournaments/{t}/commands", headers=auth,
                           json={"type": "pair"}).json()
        games = [row["game"] for row in paired["tables"]]
        assert len(games) == 2 and all(row["tokens"] for row in paired["tables"])
        shown = http.get(f"/tournaments/{t}", headers=auth).json()
        assert shown["duplicate"] is True
        early = http.post(f"/tournaments/{t}/commands", headers=auth,
                          json={"type": "close-round"})
        assert early.status_code == 409 and early.json()["rule"] == "TOUR-5.2"
        rows = http.get(f"/tournaments/{t}/standings").json()["standings"]
        assert all(row["duplicate"] == 0 for row in rows)
    d = organiser(store)
    assert len(d.state(t).furnaces[1]) == 64
    assert all(d.service.state(g).duplicate for g in games)


def test_the_order_is_the_recipe_of_log_format_md():
    """docs/log-format.md's recipe with nothing but hashlib: the engine agrees."""
    import hashlib

    def r(seed, n, *label):
        text = str(seed) + "|" + "|".join(str(part) for part in label)
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") % n

    coals = [100] * 2 + [75] * 3 + [50] * 7 + [25] * 9 + [20] * 9 + [10] * 9 + [0] * 9
    for i in range(47, 0, -1):
        j = r(7, i + 1, "furnace", 3, i)
        coals[i], coals[j] = coals[j], coals[i]
    assert coals == furnace_order(7, 3)


def _sit(service, game: str, players: list[str], values: list[str]) -> None:
    from engine.service.seating import CONSOLE

    for name, value in zip(players, values):
        service.submit(game, {"type": "seat_entropy", "player": name, "value": value},
                       actor=CONSOLE)


def test_a_duplicate_round_with_seat_entropy_mixes_every_seat_of_every_table(tmp_path):
    """TOUR-11.6: with seat entropy the round's shared order is the round's seed mixed with
    every seat's value of every table, tables in order; no table draws before all have sat;
    each table reveals its own values at its end, the round its seed at its close, and the
    bundle re-derives every draw of both tables from them."""
    import hashlib

    from engine.chance import SeededChance
    from engine.tournament.bundle import verify, write

    d = organiser()
    t = d.create({"name": "Fair dup", "game": "atkr", "rounds": 1, "table_size": [4, 4],
                  "players": PLAYERS, "seed": 5, "duplicate": True})
    paired = d.pair(t, game_seed=lambda round_, table: 4256, seat_entropy=True)
    games = [row["game"] for row in paired["tables"]]
    tables = [row["players"] for row in paired["tables"]]
    values = [[f"{10 * t + s:02d}" * 32 for s in range(4)] for t in (1, 2)]  # chosen by hand
    _sit(d.service, games[0], tables[0], values[0])
    for seat, name in enumerate(tables[0]):
        d.service.submit(games[0], A.Bet(player=name, amount=60))
    state = d.service.state(games[0])
    version = d.service.load(games[0]).version
    with pytest.raises(IllegalCommand, match=r"TOUR-11.6.*table 2"):
        d.service.submit(games[0], A.Draw(player=state.players[state.turn]))
    assert d.service.load(games[0]).version == version  # nothing recorded
    _sit(d.service, games[1], tables[1], values[1])
    play(d.service, games[0], stop_at=30)
    play(d.service, games[1], stop_at=60)
    # the order by hand: sha256("devil-mix|4256|" + the 8 values in table, seat order)
    every = values[0] + values[1]
    mixed = hashlib.sha256(("devil-mix|4256|" + "|".join(every)).encode()).hexdigest()
    assert SeededChance(4256, "", every)._prefix == mixed.encode()
    order = SeededChance(4256, "", every).shuffled(list(COALS), "furnace", 1)
    assert order != furnace_order(4256, 1)  # not the organiser's seed alone
    first, second = (round_one_coals(d.service, g) for g in games)
    short = min(len(first), len(second))
    assert short >= 4 and first[:short] == second[:short] == order[:short]
    for g in games:
        d.attach(t, g)
    d.close_round(t)
    seed, salt = d.state(t).revealed[1]
    assert seed == 4256
    for g, own in zip(games, values):
        data = d.store.log_bytes(g)
        alone = verify_bytes(data)  # the table alone: finished, its own values revealed
        assert alone.ok and alone.finished and not alone.seed_checked, alone.reason
        mixed_check = verify_bytes(data, shared={"seed": seed, "salt": salt, "seats": every})
        assert mixed_check.ok and mixed_check.seed_checked, mixed_check.reason
        own_only = verify_bytes(data, shared={"seed": seed, "salt": salt, "seats": own})
        assert not own_only.ok  # one table's values alone do not give the round's order
    result = verify(write(d.store, t, str(tmp_path / "b")) and str(tmp_path / "b"))
    assert result["ok"], result["problems"]
    assert any("every seat's value of every table" in c and "TOUR-11.6" in c
               for c in result["checks"])


def test_seat_entropy_over_http():
    """POST pair with seat_entropy: every table's game waits for its seats' tokens; a table
    whose seats have all sat may bet, but its first draw is refused (409, TOUR-11.6) while the
    other table still waits; once every seat of both tables has sat, it draws."""
    from starlette.testclient import TestClient

    from engine.store import MemoryStore
    from engine.web import create_app

    auth = {"Authorization": "Bearer key"}
    with TestClient(create_app(MemoryStore(), "key")) as http:
        body = {"name": "Net fair dup", "game": "atkr", "rounds": 1, "table_size": [4, 4],
                "players": PLAYERS, "seed": 5, "duplicate": True}
        t = http.post("/tournaments", headers=auth, json=body).json()["tournament"]
        paired = http.post(f"/tournaments/{t}/commands", headers=auth,
                           json={"type": "pair", "seat_entropy": True}).json()
        bad = http.post(f"/tournaments/{t}/commands", headers=auth,
                        json={"type": "pair", "seat_entropy": "yes"})
        assert bad.status_code == 400

        sent = iter(range(1000))

        def send(row, name, command):
            token = {"Authorization": f"Bearer {row['tokens'][name]}",
                     "Idempotency-Key": f"k{next(sent)}"}
            return http.post(f"/games/{row['game']}/commands", headers=token, json=command)

        one, two = paired["tables"]
        for seat, name in enumerate(one["players"]):
            assert send(one, name, {"type": "seat_entropy", "value": f"{seat:02d}" * 32}
                        ).status_code == 201
        for name in one["players"]:
            assert send(one, name, {"type": "bet", "amount": 40}).status_code == 201
        first = one["first"]
        refused = send(one, first, {"type": "draw"})
        assert refused.status_code == 409 and refused.json()["rule"] == "TOUR-11.6"
        assert "table 2" in refused.json()["error"]
        for seat, name in enumerate(two["players"]):
            assert send(two, name, {"type": "seat_entropy", "value": f"{seat + 4:02d}" * 32}
                        ).status_code == 201
        assert send(one, first, {"type": "draw"}).status_code == 201


def test_a_forfeit_in_a_seated_duplicate_round():
    """TOUR-7.2 with TOUR-11.6: a table whose seats have not all sat is made again without the
    no-show, its new game with the round's seed and in the round's mix; once every seat of
    every table has sat (the shared order fixed) a forfeit hands the seat to a bot instead,
    though nobody has bet yet.  The remade table then plays, and its draws re-derive from the
    round's seed mixed with every seat of both tables."""
    from engine.tournament import noshow_ops as ops

    d = organiser()
    t = d.create({"name": "Fair dup", "game": "atkr", "rounds": 1, "table_size": [3, 4],
                  "players": PLAYERS, "seed": 5, "duplicate": True})
    paired = d.pair(t, game_seed=lambda round_, table: 4256, seat_entropy=True)
    committed = d.state(t).furnaces[1]
    one = paired["tables"][0]
    gone = one["players"][1]
    _sit(d.service, one["game"], [one["players"][0]], ["aa" * 32])  # one seat sat, not gone
    out = ops.forfeit(d, t, gone, "did not come")
    assert out["remade"] and out["players"] == [p for p in one["players"] if p != gone]
    from engine.games.atkr import RULES

    remade = out["game"]
    assert d.service.load(remade).events[0].commitment == committed  # the round's
    assert RULES.commitment(d.service.state(remade)) == committed
    games = [remade, paired["tables"][1]["game"]]
    tables = [out["players"], paired["tables"][1]["players"]]
    values = [[f"{10 * t + s:02d}" * 32 for s in range(len(p))] for t, p in ((1, tables[0]),
                                                                           (2, tables[1]))]
    for g, players, own in zip(games, tables, values):
        _sit(d.service, g, players, own)
    late = tables[1][2]
    bot = ops.forfeit(d, t, late, "left before the first bet")
    assert not bot["remade"] and bot["game"] == games[1]  # the shared order is fixed
    play(d.service, games[0], stop_at=30)
    state = d.service.state(games[0])
    assert state.phase == "over"
    check = verify_bytes(d.store.log_bytes(games[0]),
                         shared={"seed": 4256, "salt": d.store.private(t, "furnaceab")["salt"],
                                 "seats": values[0] + values[1]})
    assert check.ok and check.seed_checked, check.reason
