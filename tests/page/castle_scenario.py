"""The Castle of the Devil game the page tests play (tests/page/test_table_page.py's short
test, tests/page/test_castle_table.py's whole game): four seats dealt by hand, so what each
seat may know is worked out from the rules (CASTLE-2.1, 2.4: one item each, both secret bags
among them; the rest of the items is the pile, top first in the box's order)."""

from __future__ import annotations

from engine.games.castle.cards import ALL_ITEMS

PLAYERS = ["Ann", "Ben", "Cid", "Dora"]
#: seat -> (society, profession, the one starting item)
CARDS = {"Ann": ("order", "grand-master", "dagger"),
         "Ben": ("brotherhood", "thug", "bag-key"),
         "Cid": ("order", "bodyguard", "bag-goblet"),
         "Dora": ("brotherhood", "doctor", "gloves")}
HELD = {card for _, _, card in CARDS.values()}
DEAL = {"seats": {name: {"society": s, "profession": p, "items": [i]}
                  for name, (s, p, i) in CARDS.items()},
        "item_pile": [card for card in ALL_ITEMS if card not in HELD]}


def new_game(server) -> dict:
    """A new digital game of :data:`DEAL` over ``server``'s HTTP API, Ann to start: its
    ``{"game", "players", "tokens"}``."""
    answer = server.http.post("/games", json={"kind": "castle", "seed": 7, "options": {
        "players": PLAYERS, "first": "Ann", "deal": DEAL}})
    assert answer.status_code == 201, answer.text
    return answer.json()
