"""DESK-12: takebacks in Auf Teufel komm raus, on the command line and a real store folder.

The game, worked by hand from the rules (digital, seed 7, Anna, Ben, Cleo, Anna starts; the
setup is records 1-2: game_created, round_started):

    #3  Anna bets 60          #4  Ben bets 40 (a sealed bet: nothing revealed)
    #5  Ben asks to take #4 back (takeback 1)
    #6  Anna consents         #7  Cleo consents, #8 takeback 1 granted: #4 void
        -> Ben has his 200 again (ATKR-3.5 moved 40 to the table; the void moves nothing)
    #9  Ben bets 20           #10 Cleo bets 0, #11 the bets revealed (ATKR-3.2)
    #12 Anna draws a coal (ATKR-4.2)

A takeback is then refused across the reveal (Cleo, DESK-12.3), the draw (Anna, DESK-12.3)
and another seat's command (Ben: Cleo's bet followed his, DESK-12.2).
"""

from __future__ import annotations

import json

from engine.replay import verify_bytes

from ..tools.helpers import rechain, split
from .helpers import devil, log_json, ok


def _game(store) -> str:
    return ok(store, "new", "atkr", "--player", "Anna", "--player", "Ben", "--player", "Cleo",
              "--first", "Anna", "--seed", 7).splitlines()[0]


def _refused(store, rule: str, *args) -> str:
    result = devil(store, *args)
    assert result.exit_code == 1, result.output  # refused by the rules
    assert rule in result.output, result.output
    return result.output


def test_a_sealed_bet_taken_back_with_every_seats_consent(tmp_path):
    store = tmp_path / "store"
    game = _game(store)
    ok(store, "bet", game, 60, "--as", "Anna")
    ok(store, "bet", game, 40, "--as", "Ben")
    out = _refused(store, "DESK-12.1", "takeback", game, "--as", "Cleo")
    assert "Cleo has no command to take back (the last command, record 4, is Ben's)" in out
    asked = json.loads(ok(store, "takeback", game, "--as", "Ben", "--json"))
    assert [(e["seq"], e["type"], e["first"], e["last"]) for e in asked["events"]] == [
        (5, "takeback_asked", 4, 4)]
    # one request at a time; the asker does not answer its own; the referee's call needs a
    # reason; a seat cannot decide (DESK-1, exit 4)
    _refused(store, "DESK-12.1", "takeback", game, "--as", "Anna")
    _refused(store, "DESK-12.4", "takeback", game, "--as", "Ben", "--consent")
    assert devil(store, "takeback", game, "--allow").exit_code == 2
    denied = devil(store, "takeback", game, "--as", "Cleo", "--allow", "--reason", "x")
    assert denied.exit_code == 4 and "DESK-1" in denied.output
    ok(store, "takeback", game, "--as", "Anna", "--consent")
    text = ok(store, "show", game, "--as", "Ben")
    assert "TAKEBACK 1 (open, DESK-12): Ben asks to take back #4; consented: Anna" in text
    done = json.loads(ok(store, "takeback", game, "--as", "Cleo", "--consent", "--json"))
    assert [(e["seq"], e["type"]) for e in done["events"]] == [
        (7, "takeback_answered"), (8, "takeback_granted")]
    view = json.loads(ok(store, "show", game, "--as", "Ben", "--json"))
    ben = view["players"][1]
    assert (ben["money"], ben["has_bet"]) == (200, False)  # his 40 back: #4 is void
    assert view["voided"] == [{"from": 4, "to": 4, "by": 8, "epoch": 0,
                               "reason": "taken back by Ben with every seat's consent "
                                         "(DESK-12.4)"}]
    assert view["takebacks"][0]["state"] == "granted"
    assert view["takebacks"][0]["consents"] == ["Anna", "Cleo"]
    # nothing erased: #4 is still in the log, struck through
    entries = log_json(store, game)
    assert entries[3]["event"] == {"type": "bet_placed", "seat": 1, "amount": 40}
    assert entries[3]["voided"]["by"] == 8
    ok(store, "bet", game, 20, "--as", "Ben")  # 9
    ok(store, "bet", game, 0, "--as", "Cleo")  # 10, 11: revealed
    view = json.loads(ok(store, "show", game, "--json"))
    assert [p["bet"] for p in view["players"]] == [60, 20, 0]
    assert [p["money"] for p in view["players"]] == [140, 180, 200]

    _refused(store, "DESK-12.3", "takeback", game, "--as", "Cleo")  # the reveal at #11
    ok(store, "draw", game, "--as", "Anna")  # 12
    out = _refused(store, "DESK-12.3", "takeback", game, "--as", "Anna")
    assert "a draw at record 12 (coal_drawn)" in out
    out = _refused(store, "DESK-12.2", "takeback", game, "--as", "Ben")
    assert "Ben's last command (record 9) was followed by Cleo's command at record 10" in out
    assert len(log_json(store, game)) == 12  # every refusal recorded nothing
    result = devil(store, "verify", game)
    assert result.exit_code == 0, result.output
    assert "referee's desk: 1 takeback voiding 1 record (#4 by #8)" in result.output


def test_a_refused_takeback_the_referee_allows_and_a_lapsed_one(tmp_path):
    store = tmp_path / "store"
    game = _game(store)
    for name, amount in (("Anna", 60), ("Ben", 40), ("Cleo", 0)):  # 3, 4, 5 + 6 revealed
        ok(store, "bet", game, amount, "--as", name)
    ok(store, "draw", game, "--as", "Anna")  # 7
    ok(store, "stop", game, "--as", "Anna")  # 8: Ben's turn; nothing drawn or shown
    ok(store, "takeback", game, "--as", "Anna")  # 9
    ok(store, "takeback", game, "--as", "Ben", "--refuse")  # 10: closed, refused
    view = json.loads(ok(store, "show", game, "--json"))
    assert view["takebacks"][0]["state"] == "refused"
    assert view["takebacks"][0]["refused"] == ["Ben"]
    _refused(store, "DESK-12.4", "takeback", game, "--as", "Cleo", "--consent")
    ok(store, "takeback", game, "--as", "Anna")  # 11: asked again, takeback 2
    allowed = json.loads(ok(store, "takeback", game, "--allow", "--reason",
                            "a misclick: she meant to draw", "--json"))
    assert [(e["seq"], e["type"]) for e in allowed["events"]] == [
        (12, "takeback_ruled"), (13, "takeback_granted")]
    view = json.loads(ok(store, "show", game, "--json"))
    assert view["turn"] == "Anna"  # her stop is void: it is her turn again
    assert view["players"][0]["stopped"] is False
    ok(store, "stop", game, "--as", "Anna")  # 14
    ok(store, "takeback", game, "--as", "Anna")  # 15
    ok(store, "draw", game, "--as", "Ben")  # 16: the game goes on, the request lapses
    _refused(store, "DESK-12.4", "takeback", game, "--as", "Cleo", "--consent")
    view = json.loads(ok(store, "show", game, "--json"))
    assert [t["state"] for t in view["takebacks"]] == ["refused", "granted", "lapsed"]
    assert devil(store, "verify", game).exit_code == 0


def test_verify_re_decides_a_takeback(tmp_path):
    """A log re-chained so only the rules can tell: a takeback of a command that drew, and a
    grant voiding more than the command asked for, fail verify at that record."""
    store = tmp_path / "store"
    game = _game(store)
    for name, amount in (("Anna", 60), ("Ben", 40), ("Cleo", 0)):  # 3, 4, 5 + 6
        ok(store, "bet", game, amount, "--as", name)
    ok(store, "draw", game, "--as", "Anna")  # 7
    ok(store, "stop", game, "--as", "Anna")  # 8
    ok(store, "takeback", game, "--as", "Anna")  # 9
    ok(store, "takeback", game, "--allow", "--reason", "misclick")  # 10, 11
    data = (store / f"{game}.devlog").read_bytes()
    assert verify_bytes(data).ok
    header, _chunks, objs = split(data)

    def tampered(seq, **fields):
        changed = [list(o) for o in objs]
        changed[seq - 1][4] = {**changed[seq - 1][4], **fields}
        return verify_bytes(rechain(header, changed))

    bad = tampered(9, first=7, last=8)  # asked across Anna's draw at #7
    assert (bad.ok, bad.first_bad_seq) == (False, 9)
    bad = tampered(11, first=7)  # the grant voids the draw too
    assert (bad.ok, bad.first_bad_seq) == (False, 11)
