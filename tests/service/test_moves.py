"""A seat's legal commands as shapes (GET /games/{id}/moves, engine/web/moves.py) and the table
page's files (engine/web/pages/table.py), over the in-process app: what each token may ask,
the shapes worked out from the rules, the headers every page answer carries, and the two
catalogues word every event of Auf Teufel komm raus."""

from __future__ import annotations

import json
from importlib import resources

from engine.games.atkr.events import EVENTS
from engine.web.moves import shapes
from tests.service.conftest import auth

PLAYERS = ["Anna", "Ben", "Cleo"]


def new_game(http, **body) -> dict:
    body.setdefault("options", {"players": PLAYERS, "first": "Anna"})
    answer = http.post("/games", json={"kind": "atkr", **body})
    assert answer.status_code == 201, answer.text
    return answer.json()


def moves(http, created, name, as_name=None):
    query = f"?as={as_name}" if as_name else ""
    return http.get(f"/games/{created['game']}/moves{query}",
                    headers=auth(created["tokens"][name]))


def command(http, created, name, body):
    return http.post(f"/games/{created['game']}/commands", json=body,
                     headers={**auth(created["tokens"][name]), "Idempotency-Key": body["type"]
                              + name + str(body.get("amount", ""))})


def test_moves_follow_the_rules_through_a_bet_and_a_turn(http):
    created = new_game(http, seed=77)
    # ATKR-3.1: every multiple of 10 from 0 to all of one's money (200, ATKR-1.3): 21 amounts
    answer = moves(http, created, "Anna")
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    body = answer.json()
    assert body["seat"] == "Anna" and body["version"] == 2  # game_created, round_started
    assert body["moves"] == [{"type": "bet", "fixed": {"player": "Anna"},
                              "inputs": [{"name": "amount",
                                          "values": list(range(0, 201, 10))}]}]
    assert command(http, created, "Anna", {"type": "bet", "amount": 200}).status_code == 201
    assert moves(http, created, "Anna").json()["moves"] == []  # one bet per round (ATKR-3.1)
    for name in ("Ben", "Cleo"):
        assert command(http, created, name, {"type": "bet", "amount": 20}).status_code == 201
    # ATKR-4.1: the start player, Anna, draws first; ATKR-4.2: at least one coal, so no stop
    # yet; a digital game's draw names no coal (ATKR-9.3: the furnace draws)
    assert moves(http, created, "Anna").json()["moves"] == [
        {"type": "draw", "fixed": {"player": "Anna", "coal": None}, "inputs": []}]
    assert moves(http, created, "Ben").json()["moves"] == []
    # the referee asks for a seat by name; without one, and a spectator, are refused
    assert moves(http, created, "referee", "Anna").json()["seat"] == "Anna"
    for name, as_name in (("referee", None), ("spectator", None)):
        refused = moves(http, created, name, as_name)
        assert refused.status_code == 400 and refused.json()["code"] == 2
    refused = moves(http, created, "Ben", "Anna")  # a seat asks only as itself
    assert refused.status_code == 403 and refused.json()["code"] == 4
    assert http.get(f"/games/{created['game']}/moves").status_code == 401


def test_a_seated_game_offers_the_seat_its_entropy_made_by_the_page(http):
    created = new_game(http, seat_entropy=True)
    assert moves(http, created, "Ben").json()["moves"] == [
        {"type": "seat_entropy", "fixed": {"player": "Ben"},
         "inputs": [{"name": "value", "random": 32}]}]
    value = "ab" * 32
    sat = http.post(f"/games/{created['game']}/commands",
                    json={"type": "seat_entropy", "value": value},
                    headers={**auth(created["tokens"]["Ben"]), "Idempotency-Key": "sit-ben"})
    assert sat.status_code == 201, sat.text
    assert moves(http, created, "Ben").json()["moves"] == []  # one value per seat (SEAT-2)
    assert moves(http, created, "Anna").json()["moves"][0]["type"] == "seat_entropy"


def test_shapes_of_commands_that_vary_in_two_fields_list_the_legal_combinations():
    legal = [{"type": "trade", "player": "Anna", "target": "Ben", "item": "key"},
             {"type": "trade", "player": "Anna", "target": "Cleo", "item": "key"},
             {"type": "trade", "player": "Anna", "target": "Ben", "item": "dagger"},
             {"type": "pass", "player": "Anna"}]
    assert shapes(legal) == [
        {"type": "trade", "fixed": {"player": "Anna"},
         "inputs": [{"name": "target", "values": ["Ben", "Cleo"]},
                    {"name": "item", "values": ["key", "dagger"]}],
         "options": [{"target": "Ben", "item": "key"}, {"target": "Cleo", "item": "key"},
                     {"target": "Ben", "item": "dagger"}]},
        {"type": "pass", "fixed": {"player": "Anna"}, "inputs": []}]
    assert shapes([]) == []


def test_the_table_page_and_its_files_carry_the_policy_and_no_game_data(http):
    created = new_game(http)
    page = http.get(f"/games/{created['game']}/table")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "default-src 'none'" in policy
    assert "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
    assert page.headers["referrer-policy"] == "no-referrer"
    assert not any(name in page.text for name in PLAYERS)  # the shell holds no game data
    assert '<script type="module" src="/pages/table.js">' in page.text
    for path, media in (("/pages/table.js", "text/javascript"), ("/pages/table.css", "text/css"),
                        ("/pages/i18n/de.json", "application/json")):
        answer = http.get(path)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith(media)
        assert answer.headers["content-security-policy"] == policy
    for path in ("/pages/i18n/xx.json", "/pages/i18n/EN.json", "/pages/replay.html",
                 "/pages/__init__.py"):
        assert http.get(path).status_code == 404, path


def test_both_catalogues_word_every_atkr_event_and_every_command():
    from engine.desk.events import DESK_TYPES

    folder = resources.files("engine.web.pages").joinpath("i18n")
    catalogues = {lang: json.loads(folder.joinpath(f"{lang}.json").read_text("utf-8"))
                  for lang in ("en", "de")}
    assert set(catalogues["en"]["ui"]) == set(catalogues["de"]["ui"])
    for lang, catalogue in catalogues.items():
        words = catalogue["kinds"]["atkr"]
        types = {key.split(".")[0] for key in words["events"]}
        assert types == set(EVENTS.by_type) - DESK_TYPES, lang
        # the referee's desk and the seating stage are worded once for every kind
        assert DESK_TYPES | {"table_opened", "seat_committed", "seats_revealed"} == \
            set(catalogue["shared"]["events"]), lang
        assert set(words["verbs"]) == {"bet", "draw", "stop", "seat_entropy"}, lang
    assert catalogues["de"]["kinds"]["atkr"]["verbs"]["bet"] == "Setzen"


def test_a_physical_games_seat_is_offered_no_coal_to_report(http):
    created = new_game(http, options={"players": PLAYERS, "first": "Anna", "physical": True})
    for name in PLAYERS:
        assert command(http, created, name, {"type": "bet", "amount": 0}).status_code == 201
    # ATKR-9.3: the referee reports every coal of a physical game; ATKR-4.2: no stop before a
    # coal, so Anna, whose turn it is (ATKR-4.1), has nothing to send herself
    assert moves(http, created, "Anna").json()["moves"] == []
    reported = http.post(f"/games/{created['game']}/commands?as=Anna",
                         json={"type": "draw", "coal": 25},
                         headers={**auth(created["tokens"]["referee"]), "Idempotency-Key": "c1"})
    assert reported.status_code == 201, reported.text
    assert moves(http, created, "Anna").json()["moves"] == [
        {"type": "stop", "fixed": {"player": "Anna"}, "inputs": []}]
