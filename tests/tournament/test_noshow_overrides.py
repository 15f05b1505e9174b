"""Check-in (TOUR-7.1), swap (TOUR-7.4), unpair (TOUR-7.5), a bot that plays a replaced seat
(DESK-7), and the four operations over HTTP; every case worked from the rules."""

import pytest
from starlette.testclient import TestClient

from engine.errors import IllegalCommand
from engine.games.atkr import commands as A
from engine.replay import verify_bytes
from engine.store import MemoryStore
from engine.tournament import noshow_ops as ops
from engine.web import create_app

from .helpers import by_player, fixed, organiser

KEY = "organiser-secret"
AUTH = {"Authorization": f"Bearer {KEY}"}


def _verifies(d, game):
    check = verify_bytes(d.store.log_bytes(game))
    assert check.ok, check.reason


def test_check_in_pairs_only_the_checked_in_and_counts_for_one_round():
    d = organiser()
    plain = d.create(fixed(list("ABC"), size=(3, 3), game="atkr"))
    with pytest.raises(IllegalCommand, match="TOUR-7.1.*without check-in"):
        ops.checkin(d, plain, "A")
    # swiss, 7 registered, tables of exactly 3: 6 checked in make 2 tables and no bye; G, who
    # did not check in, is neither seated nor given a bye (no bye points)
    t = d.create({"name": "Doors open", "game": "atkr", "rounds": 2, "table_size": [3, 3],
                  "players": list("ABCDEFG"), "seed": 5, "check_in": True})
    for name in "ABCDEF":
        assert ops.checkin(d, t, name)[0].round == 1
    with pytest.raises(IllegalCommand, match="TOUR-7.1.*checked in for round 1 already"):
        ops.checkin(d, t, "A")
    paired = d.pair(t, games=False)
    seated = sorted(p for row in paired["tables"] for p in row["players"])
    assert seated == list("ABCDEF") and paired["byes"] == []
    assert by_player(d.standings(t))["G"]["byes"] == 0
    # check-ins do not carry over: nobody is checked in for round 2 yet
    assert d.state(t).active(2) == [] and d.state(t).active(2, checked=False) == list("ABCDEFG")
    d.drop(t, "G", "went home")
    with pytest.raises(IllegalCommand, match="TOUR-7.1.*G does not play round 2"):
        ops.checkin(d, t, "G")
    view = d.service.view(t)
    assert view["check_in"] is True and view["checkins"] == {"1": list("ABCDEF")}
    _verifies(d, t)


def test_a_fixed_seating_needs_the_players_checked_in():
    d = organiser()
    t = d.create(fixed(list("ABCD"), size=(2, 2), game="atkr", check_in=True))
    for name in "ABC":
        ops.checkin(d, t, name)
    with pytest.raises(IllegalCommand, match="TOUR-2.2.*D does not play round 1"):
        d.pair(t, seating=[list("AB"), list("CD")], games=False)
    done = d.pair(t, seating=[list("AB")], byes=["C"], games=False)
    assert done["byes"] == ["C"]  # D, not checked in, has no bye


def test_swap_remakes_both_tables_games_and_keeps_the_start_seat():
    d = organiser()
    t = d.create(fixed(list("ABCDEF"), size=(3, 3), game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABC"), list("DEF")])
    old = dict(d.state(t).games)
    with pytest.raises(IllegalCommand, match="TOUR-7.4.*needs its reason"):
        ops.swap(d, t, "A", "E", "")
    done = ops.swap(d, t, "A", "E", "A and E came in each other's places")
    # seat 0 starts (fixed format): table 1 is now E B C, E starting; table 2 D A F, D starting
    assert [(r["table"], r["players"], r["first"]) for r in done["tables"]] == [
        (1, list("EBC"), "E"), (2, list("DAF"), "D")]
    state = d.state(t)
    for number, row in enumerate(done["tables"], 1):
        assert row["old_game"] == old[(1, number)] and row["game"] != row["old_game"]
        assert d.service.players(state.games[(1, number)]) == row["players"]
        assert old[(1, number)] not in state.attached
    assert state.firsts == {"E": 1, "D": 1, "A": 0}
    # once a table's game has a command, its seats stay
    d.service.submit(state.games[(1, 1)], A.Bet(player="E", amount=100))
    version = d.service.load(t).version
    with pytest.raises(IllegalCommand, match="TOUR-7.4.*has a command already"):
        ops.swap(d, t, "B", "D", "mistake")
    assert d.service.load(t).version == version
    with pytest.raises(IllegalCommand, match="TOUR-7.4.*two different players"):
        ops.swap(d, t, "B", "B", "mistake")
    _verifies(d, t)


def test_unpair_undoes_the_last_pairing_and_the_round_pairs_again():
    d = organiser()
    t = d.create({"name": "Oops", "game": "atkr", "rounds": 2, "table_size": [3, 3],
                  "players": list("ABCDEF"), "seed": 9, "options": {"physical": True}})
    with pytest.raises(IllegalCommand, match="TOUR-7.5.*no round is open"):
        ops.unpair(d, t, "mistake")
    first = d.pair(t)
    done = ops.unpair(d, t, "paired before F's drop")
    assert done["round"] == 1 and done["games"] == [r["game"] for r in first["tables"]]
    state = d.state(t)
    assert (state.round, state.tables, state.games, state.firsts) == (0, {}, {}, {
        r["first"]: 0 for r in first["tables"]})
    d.drop(t, "F", "went home")
    d.add(t, "G")  # plays from round 1: nothing is paired
    again = d.pair(t)
    assert sorted(p for r in again["tables"] for p in r["players"]) == list("ABCDEG")
    d.service.submit(again["tables"][1]["game"],
                     A.Bet(player=again["tables"][1]["players"][0], amount=100))
    with pytest.raises(IllegalCommand, match="TOUR-7.5.*table 2's game .* has a command"):
        ops.unpair(d, t, "mistake")
    with pytest.raises(IllegalCommand, match="TOUR-7.5.*needs its reason"):
        ops.unpair(d, t, " ")
    _verifies(d, t)


def _bot_game(seed: int):
    """A digital 3-seat game: Ben's seat handed to the cautious bot before anyone acts; Ann
    and Cy bet 10 each time they may, draw until a devil or they stop (always stop)."""
    from engine.desk.commands import ReplaceSeat
    from engine.service import GameService

    service = GameService(MemoryStore(), sign=False)
    game = service.create("atkr", {"players": ["Ann", "Ben", "Cy"], "first": "Ann"},
                          seed=seed).game
    service.submit(game, ReplaceSeat(seat="Ben", bot="cautious", reason="Ben left"))
    for _ in range(2000):
        loaded = service.load(game)
        if loaded.rules.is_over(loaded.state):
            break
        for seat in (0, 2):
            legal = service.legal(game, seat)
            if legal:
                pick = next((c for c in legal if type(c).__name__ == "Stop"),
                            next((c for c in legal if getattr(c, "amount", None) == 10),
                                 legal[0]))
                service.submit(game, pick, actor=seat)
                break
    return service, game


def test_a_replaced_seat_is_played_by_its_bot_and_a_rerun_gives_the_same_game():
    from engine.bots import make_bot
    from engine.fold import fold
    from engine.replay import batches
    from engine.service.autoplay import bot_rng

    service, game = _bot_game(4)
    loaded = service.load(game)
    rules, events, records = loaded.rules, list(loaded.events), loaded.records
    assert rules.is_over(loaded.state)
    replaced = loaded.desk.replaced
    assert list(replaced) == [1] and replaced[1][:2] == ("cautious", "Ben left")
    assert verify_bytes(service.store.log_bytes(game)).ok
    # every command recorded as Ben's seat after the replacement is the bot's choice again:
    # the same bot, seeded from the game id, the log's length before it and the seat, seeing
    # Ben's stream only
    played = 0
    for start, end in batches(records):
        if records[start].actor != 1 or records[start].seq <= replaced[1][2]:
            continue
        before = events[:start]
        seat_view = fold(rules, before, 1).state
        legal = rules.legal_commands(seat_view, 1)
        again = make_bot("atkr", "cautious", bot_rng(game, start, 1)).choose(seat_view, 1, legal)
        recorded, _ = rules.command_for(fold(rules, before).state, events[start:end])
        assert rules.commands.to_map(again) == rules.commands.to_map(recorded)
        played += 1
    assert played >= 3  # the bot bet, at least, in each of the game's rounds


def test_the_operations_over_http():
    store = MemoryStore()
    with TestClient(create_app(store, KEY)) as http:
        t = http.post("/tournaments", headers=AUTH, json={
            "name": "Net", "game": "atkr", "format": "fixed", "rounds": 2, "table_size": [3, 4],
            "players": list("ABCDEFG"), "seed": 1, "check_in": True}).json()["tournament"]

        def post(body, auth=AUTH):
            return http.post(f"/tournaments/{t}/commands", json=body, headers=auth)

        assert post({"type": "checkin", "player": "A"}, {}).status_code == 401
        for name in "ABCDEFG":
            assert post({"type": "checkin", "player": name}).status_code == 200
        again = post({"type": "checkin", "player": "A"})
        assert again.status_code == 409 and again.json()["rule"] == "TOUR-7.1"
        assert post({"type": "checkin", "player": "A", "x": 1}).status_code == 400
        assert post({"type": "pair", "seating": [list("ABCD"), list("EFG")]}).status_code == 200
        swapped = post({"type": "swap", "first": "A", "second": "E", "reason": "clubs"})
        assert swapped.status_code == 200, swapped.text
        body = swapped.json()
        assert [r["players"] for r in body["tables"]] == [list("EBCD"), list("AFG")]
        assert set(body["tokens"]) == {r["game"] for r in body["tables"]}
        gone = post({"type": "forfeit", "player": "B", "reason": "no-show"})
        assert gone.status_code == 200, gone.text
        made = gone.json()
        assert made["remade"] and made["players"] == list("ECD")
        assert set(made["tokens"][made["game"]]) == {"referee", "spectator", "E", "C", "D"}
        refused = post({"type": "unpair", "reason": "oops"})
        assert refused.status_code == 409 and refused.json()["rule"] == "TOUR-7.5"
        none = post({"type": "forfeit", "player": "B", "reason": ""})
        assert none.status_code in (400, 409)
        schema = http.get("/openapi.json").json()
        text = schema["paths"]["/tournaments/{tournament}/commands"]["post"]["summary"] + \
            schema["paths"]["/tournaments/{tournament}/commands"]["post"].get("description", "")
        assert "forfeit" in text and "unpair" in text


def test_a_no_show_at_a_table_paired_without_games_waits_for_the_referees_log():
    d = organiser()
    t = d.create(fixed(list("ABCD"), size=(2, 4), game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABCD")], games=False)
    done = ops.forfeit(d, t, "A", "no-show")
    # seat 0 (A) started: B, the next seat, starts the table made again; A takes the 4th
    # place's point on 6,4,2,1,0 and no game is created (the referee's log is attached)
    assert (done["remade"], done["game"], done["players"]) == (True, None, list("BCD"))
    state = d.state(t)
    assert state.tables[1][0].first == "B" and state.games == {}
    assert by_player(d.standings(t))["A"]["points"] == 1
    with pytest.raises(IllegalCommand,
                       match="TOUR-7.2: A already forfeited at table 1 of round 1"):
        ops.forfeit(d, t, "A", "again")
