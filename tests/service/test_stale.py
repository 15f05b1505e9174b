"""The server never serves a stale game (issue 9.5): its folds are keyed by the head (last
sequence number and link) that the store reports, so a log that changed without changing its
size is read again."""

from __future__ import annotations


from tests.service.conftest import App
from engine.store import FileStore, MemoryStore

GAME = "atkr-stale1"
KEY = "organiser-key-for-tests"
SETUP = [{"type": "game_created", "players": ["Anna", "Ben"], "first": 0, "first_drawn": False,
          "physical": True, "ring": 16, "track_low": 50,
          "track": [200, 300, 500, 700, 1000, 1300, 1600], "start_money": 200, "goal": 1600,
          "commitment": None},
         {"type": "round_started", "round": 1, "start": 0}]


def _log_with_bet(amount: int) -> bytes:
    memory = MemoryStore()
    memory.create("atkr", GAME, -1, SETUP, None, created=1_700_000_000_000)
    memory.append(GAME, 2, 0, "bet-1", [{"type": "bet_placed", "seat": 0, "amount": amount}],
                  ts=1000)
    return memory.log_bytes(GAME)


def test_a_log_changed_without_changing_its_size_is_served_fresh(tmp_path):
    sixty, seventy = _log_with_bet(60), _log_with_bet(70)
    assert len(sixty) == len(seventy) and sixty != seventy
    store = FileStore(str(tmp_path))
    store.import_log(sixty)
    client = App(tmp_path, organiser_key=KEY).http
    auth = {"Authorization": f"Bearer {KEY}"}
    first = client.get(f"/games/{GAME}/view", headers=auth).json()
    assert [p["bet"] for p in first["players"]][0] == 60
    with open(store.path(GAME), "r+b") as handle:  # same size, other content
        handle.write(seventy)
    again = client.get(f"/games/{GAME}/view", headers=auth).json()
    assert [p["bet"] for p in again["players"]][0] == 70
    events = client.get(f"/games/{GAME}/events", headers=auth).json()["events"]
    assert events[-1]["event"] == {"type": "bet_placed", "seat": 0, "amount": 70}
