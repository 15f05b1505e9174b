"""Rulings with remedies (DESK-10, issue 24.2): an upheld ruling names its remedy (a
correction, an amendment to follow, or no change with a reason); `disputes` shows dispute,
ruling and remedy together; a correction or an amendment cites the dispute it answers, and
only one whose ruling calls for a change.  A ruling recorded before DESK-10 (upheld, no
remedy) still verifies and reads as "no change"."""

from __future__ import annotations

import json

from engine.replay import verify_bytes, verify_path
from engine.service import GameService
from engine.store import MemoryStore

from .helpers import devil, log_json, ok
from .test_amend import _physical, _round


def _refused(store, game, *args, code=1) -> str:
    before = (store / f"{game}.devlog").read_bytes()
    result = devil(store, *args)
    assert result.exit_code == code, (args, result.output)
    assert (store / f"{game}.devlog").read_bytes() == before  # nothing recorded
    return result.output


def test_a_ruling_names_its_remedy_and_the_amendment_cites_the_dispute(tmp_path):
    store = tmp_path / "store"
    game = _physical(store)
    _round(store, game, 50)  # record 7: the 50 Anna says was a 20
    ok(store, "dispute", game, 7, "I drew a 20, not a 50", "--as", "Anna")  # dispute 1
    out = _refused(store, game, "ruling", game, 1, "--uphold", "--reason", "right")
    assert "DESK-10.1: an upheld dispute names its remedy" in out
    assert "--no-change" in _refused(store, game, "ruling", game, 1, "--reject", "--no-change",
                                     "--reason", "x", code=2)
    assert "one remedy" in _refused(store, game, "ruling", game, 1, "--uphold", "--amend",
                                    "--to", 6, "--reason", "x", code=2)
    ok(store, "ruling", game, 1, "--uphold", "--amend", "--reason", "the coal is a 20")
    listed = ok(store, "disputes", game, "--all")
    assert "dispute 1 (upheld at #" in listed
    assert "  remedy: amendment (pending: none recorded yet)" in listed
    assert "DISPUTE 1 (upheld, amendment pending): Anna on #7" in ok(store, "show", game)

    out = ok(store, "amend", game, 7, "--coal", 20, "--dispute", 1, "--reason", "as ruled")
    amended = next(e["seq"] for e in log_json(store, game) if e["event"]["type"] == "amended")
    assert "answering dispute 1: as ruled" in out
    case = json.loads(ok(store, "disputes", game, "--all", "--json"))[0]
    assert (case["upheld"], case["remedy"], case["answered"]) == (True, "amend", [amended])
    assert case["remedy_text"] == f"amendment #{amended}"
    assert f"  remedy: amendment #{amended}" in ok(store, "disputes", game, "--all")
    assert "amendment pending" not in ok(store, "show", game)
    out = _refused(store, game, "dispute", game, 7, "still a 50", "--as", "Ben")
    assert f"DESK-4: record 7 was already voided by the amendment at record {amended}" in out

    # dispute 2 rejected, 3 upheld with no change, 4 still open: none may be cited
    last = log_json(store, game)[-1]["seq"]
    # Ben's 10 and 20, re-applied after the amended record and the new 20
    ok(store, "dispute", game, amended + 3, "that 10 was mine", "--as", "Ben")  # 2
    ok(store, "ruling", game, 2, "--reject", "--reason", "the log shows Ben drew it")
    ok(store, "dispute", game, amended + 4, "the table was slow", "--as", "Ben")  # 3
    ok(store, "ruling", game, 3, "--uphold", "--no-change", "--reason",
       "right, but it changes no fact of the game")
    ok(store, "dispute", game, 6, "was it a 25?", "--as", "Ben")  # 4
    for number, words in ((2, "was rejected at record"), (3, "was upheld with no change"),
                          (4, "is still open: rule on it first")):
        out = _refused(store, game, "correct", game, "--to", last, "--dispute", number,
                       "--reason", "x")
        assert f"DESK-10.2: dispute {number} {words}" in out
    listed = ok(store, "disputes", game, "--all")
    assert "  remedy: no change: right, but it changes no fact of the game" in listed
    # dispute 4 upheld with a correction: its remedy says where the game went back to
    # (back to Ben's 20, re-applied at amended + 4: his stop and the round's end are voided)
    ok(store, "ruling", game, 4, "--uphold", "--to", amended + 4, "--reason", "undo the stop")
    cases = json.loads(ok(store, "disputes", game, "--all", "--json"))
    assert [c["remedy"] for c in cases] == ["amend", None, "none", "correct"]
    assert cases[3]["remedy_text"] == f"correction back to #{amended + 4}"
    assert verify_path(str(store / f"{game}.devlog")).ok


def test_an_upheld_ruling_recorded_before_remedies_still_verifies_and_reads_as_no_change():
    svc = GameService(MemoryStore())
    game = svc.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna",
                               "physical": True}).game
    svc.submit(game, {"type": "bet", "player": "Anna", "amount": 0})
    svc.submit(game, {"type": "dispute", "player": "Anna", "seq": 3, "text": "I meant 10"})
    head = svc.load(game).version
    # what an engine before DESK-10 recorded for `ruling 1 --uphold --reason right`
    svc.store.append(game, head, -1, None, [{"type": "ruling_given", "dispute": 1,
                                             "upheld": True, "reason": "right", "to": None}])
    check = verify_bytes(svc.store.log_bytes(game))
    assert check.ok, check.reason
    case = svc.view(game, None)["disputes"][0]
    assert case["remedy"] is None
    assert case["remedy_text"] == "no change (no remedy named: recorded before DESK-10)"
