"""DESK-12 in Castle of the Devil, over HTTP with the seats' tokens.

Worked by hand (digital, seed 3, Anna, Ben, Cleo, Anna starts; records 1-3 are the setup:
game_created, cards_dealt, turn_started): Anna may attack, trade or pass (CASTLE-3.1).

    #4  Anna attacks Ben (attack_declared: public, hides nothing)
    #5  Anna asks to take #4 back; #6 Ben consents; #7 Cleo consents, #8 granted
        -> it is Anna's turn again, with her 7 choices (her 2 items to 2 players, 2 attacks,
           a pass)
    #9  Anna offers her bag-key to Ben face down: Ben sees it (CASTLE-4.1), a reveal, so
        her takeback is refused (DESK-12.3).
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalCommand, NotAllowed

from ..service.conftest import App


def test_a_castle_attack_taken_back_and_an_offer_that_cannot_be(tmp_path):
    app = App(tmp_path / "store")
    try:
        created = app.http.post("/games", json={"kind": "castle", "seed": 3, "options": {
            "players": ["Anna", "Ben", "Cleo"], "first": "Anna"}}).json()
        game, tokens = created["game"], created["tokens"]
        referee = app.remote(tokens["referee"])
        anna, ben, cleo = (app.remote(tokens[n]) for n in ("Anna", "Ben", "Cleo"))
        assert len(anna.legal(game, None)) == 7
        anna.submit(game, {"type": "attack", "defender": "Ben"}, None)  # 4
        with pytest.raises(NotAllowed):  # Ben's token asks as Anna
            ben.submit(game, {"type": "takeback", "player": "Anna"}, None)
        answer = anna.submit(game, {"type": "takeback"}, None)  # 5
        assert [(e["seq"], e["type"], e["seat"], e["first"], e["last"])
                for e in answer["events"]] == [(5, "takeback_asked", 0, 4, 4)]
        with pytest.raises(NotAllowed, match="DESK-1"):  # a seat cannot decide it
            cleo.submit(game, {"type": "takeback_decision", "allowed": True,
                               "reason": "fine"}, None)
        ben.submit(game, {"type": "takeback_answer", "consent": True}, None)  # 6
        answer = cleo.submit(game, {"type": "takeback_answer", "consent": True}, None)
        assert [e["type"] for e in answer["events"]] == ["takeback_answered",
                                                         "takeback_granted"]  # 7, 8
        view = anna.view(game, None)
        assert view["voided"][0]["from"] == view["voided"][0]["to"] == 4
        assert view["turn"] == "Anna"
        assert len(anna.legal(game, None)) == 7  # her turn as it began
        anna.submit(game, {"type": "trade", "to": "Ben", "item": "bag-key"}, None)  # 9
        with pytest.raises(IllegalCommand, match="DESK-12.3.*a reveal at record 9"):
            anna.submit(game, {"type": "takeback"}, None)
        events = referee.events(game, None)
        assert len(events) == 9
        assert events[3]["voided"]["by"] == 8  # the attack stays in the log, void
    finally:
        app.close()
