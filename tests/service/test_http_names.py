"""Over HTTP, names are found as the CLI finds them (engine.seats: any case when unambiguous),
and a spectator sees no command ids, the referee's included (engine.answers.event_entry)."""

from __future__ import annotations

from .conftest import auth


def _game(http):
    made = http.post("/games", json={"kind": "atkr", "seed": 4,
                                     "options": {"players": ["Anna", "Ben"], "first": "Anna"}})
    assert made.status_code == 201, made.text
    return made.json()


def test_as_and_player_in_another_case_name_the_seat(http):
    made = _game(http)
    game, tokens = made["game"], made["tokens"]
    # Anna's own token reading ?as=anna is Anna reading (it was 403: "cannot read as anna")
    view = http.get(f"/games/{game}/view", params={"as": "anna"},
                    headers=auth(tokens["Anna"]))
    assert view.status_code == 200 and view.json()["players"][0]["money"] == 200
    # the referee acting ?as=anna records Anna's bet (it was 400: no player called 'anna')
    bet = http.post(f"/games/{game}/commands", params={"as": "anna"},
                    json={"type": "bet", "amount": 60},
                    headers={**auth(tokens["referee"]), "Idempotency-Key": "r1"})
    assert bet.status_code == 201, bet.text
    assert bet.json()["events"][0] == {"seq": 3, "type": "bet_placed", "seat": 0, "amount": 60}
    # Ben's token naming himself "BEN" in the body (it was 400 ATKR-9.2)
    ben = http.post(f"/games/{game}/commands", json={"type": "bet", "player": "BEN",
                                                     "amount": 40},
                    headers={**auth(tokens["Ben"]), "Idempotency-Key": "b1"})
    assert ben.status_code == 201, ben.text
    # Ben's token naming Anna in any case is still acting for another seat
    other = http.post(f"/games/{game}/commands", json={"type": "draw", "player": "ANNA"},
                      headers={**auth(tokens["Ben"]), "Idempotency-Key": "b2"})
    assert other.status_code == 403


def test_a_spectator_sees_no_command_id_of_the_referee(http):
    made = _game(http)
    game, tokens = made["game"], made["tokens"]
    for name, amount in (("Anna", 60), ("Ben", 40)):
        assert http.post(f"/games/{game}/commands", json={"type": "bet", "amount": amount},
                         headers={**auth(tokens[name]), "Idempotency-Key": f"{name}-1"}
                         ).status_code == 201
    corrected = http.post(f"/games/{game}/commands",
                          json={"type": "correct", "to": 3, "reason": "Ben meant 50"},
                          headers={**auth(tokens["referee"]),
                                   "Idempotency-Key": "the-referees-own-note"})
    assert corrected.status_code == 201, corrected.text
    seen = http.get(f"/games/{game}/events", headers=auth(tokens["spectator"])).json()
    assert [e["cmd"] for e in seen["events"]] == [None] * len(seen["events"])
    referee = http.get(f"/games/{game}/events", headers=auth(tokens["referee"])).json()
    assert referee["events"][-1]["cmd"] == "the-referees-own-note"
    anna = http.get(f"/games/{game}/events", headers=auth(tokens["Anna"])).json()
    assert [e["cmd"] for e in anna["events"] if e["cmd"]] == ["Anna-1"]
