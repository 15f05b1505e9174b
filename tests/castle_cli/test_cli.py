"""Castle of the Devil through the `devil` command line (CliRunner, a temporary store).

Deals are written to files and played as physical games (no seed), so every card is where
the test put it; expected values are worked out by hand from shared/rules/castle.md.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.games.castle.options import in_play
from engine.games.castle.cards import PROFESSIONS


@pytest.fixture
def devil(tmp_path):
    runner = CliRunner()

    def run(*args, code=0):
        result = runner.invoke(cli, ["--store", str(tmp_path / "store"), *map(str, args)])
        assert result.exit_code == code, (args, result.output, result.stderr)
        return result

    run.tmp = tmp_path
    return run


def write_deal(tmp, name, seats, top, set_aside=None):
    """A deal file: ``seats`` = {player: (society, profession, items)}; the item pile is
    ``top`` followed by every other item in play (canonical order)."""
    n = len(seats)
    playing, _ = in_play(n, False)
    dealt = [c for _, _, items in seats.values() for c in items]
    deal = {"seats": {p: {"society": s, "profession": prof, "items": list(items)}
                      for p, (s, prof, items) in seats.items()},
            "item_pile": list(top) + [c for c in playing if c not in dealt and c not in top],
            "pile_ordered": True,
            "profession_pile": [p for p in PROFESSIONS
                                if p not in [prof for _, prof, _ in seats.values()]]}
    if set_aside:
        deal["set_aside"] = set_aside
    path = tmp / name
    path.write_text(json.dumps(deal))
    return path, deal


THREE = {"Ann": ("order", "priest", ["bag-key", "key-1"]),
         "Ben": ("brotherhood", "thug", ["bag-goblet", "dagger"]),
         "Cid": ("brotherhood", "doctor", ["gloves", "whip"])}

FOUR = {"Ann": ("order", "clairvoyant", ["bag-key"]),
        "Ben": ("brotherhood", "diplomat", ["bag-goblet"]),
        "Cid": ("order", "grand-master", ["gloves"]),
        "Dora": ("brotherhood", "priest", ["dagger"])}


def new_game(devil, path, *extra):
    created = json.loads(devil("new", "castle", "--deal", path, *extra, "--json").stdout)
    return created["game"]


def view(devil, game, who=None):
    args = ["show", game, "--json"] + (["--as", who] if who else [])
    return json.loads(devil(*args).stdout)


def legal_has(legal, wanted: dict) -> bool:
    return any(all(c.get(k) == v for k, v in wanted.items()) for c in legal)


def step(devil, game, who, friendly, wanted):
    """``who`` must be the one the table waits for, ``wanted`` one of the legal commands
    `show --json --as` lists, and nobody else may act; then the friendly command submits it."""
    assert view(devil, game)["waiting_for"] == [who]
    mine = view(devil, game, who)
    assert legal_has(mine["legal"], wanted), (wanted, mine["legal"])
    for other in mine["players"]:
        if other["name"] != who:
            assert view(devil, game, other["name"])["legal"] == []
    return devil(*friendly, "--as", who)


def test_a_whole_castle_game_from_a_deal_file_ends_by_a_declaration(devil):
    # 3 players (CASTLE-2.5: two items each); the set-aside card is the order's, so Ann is
    # the order's only member and her drink counts as a relic (CASTLE-9.4)
    path, _ = write_deal(devil.tmp, "three.json", THREE, top=["key-2"], set_aside="order")
    game = new_game(devil, path, "--first", "Ann")
    start = view(devil, game)
    assert start["options"]["physical"] and start["hand_limit"] == 8  # CASTLE-2.7
    assert start["pile"] == 20 - 6  # 21 items less the black-pearl (2.5), 6 in hands
    step(devil, game, "Ann", ["trade", game, "bag-key", "--to", "Ben"],
         {"type": "trade", "to": "Ben", "item": "bag-key"})
    # Ben may not give back his bag-goblet for a bag (CASTLE-4.4): only the dagger
    ben = view(devil, game, "Ben")
    assert sorted(c["item"] for c in ben["legal"] if c["type"] == "accept") == ["dagger"]
    out = step(devil, game, "Ben", ["accept", game, "dagger"], {"type": "accept", "item": "dagger"})
    assert "Ben names the bag (Ann's effect)" in out.stdout  # CASTLE-4.5, 5.1
    step(devil, game, "Ann", ["choose", game, "draw"], {"type": "choose", "option": "draw"})
    ann = view(devil, game, "Ann")
    assert ann["players"][0]["items"] == ["key-1", "dagger", "key-2"]  # the bag drew key-2
    step(devil, game, "Ben", ["pass", game], {"type": "pass"})
    step(devil, game, "Cid", ["pass", game], {"type": "pass"})
    out = step(devil, game, "Ann", ["declare", game],
               {"type": "declare", "kind": "society", "allies": []})
    assert "right, the order wins" in out.stdout
    end = view(devil, game)
    assert end["phase"] == "over" and end["winners"] == ["Ann"]
    events = json.loads(devil("log", game, "--json").stdout)
    assert events[-1]["event"]["type"] == "game_ended"
    assert events[-1]["event"]["reveal"] is None  # a physical game has no seed
    declared = events[-2]["event"]
    assert declared["right"] is True
    assert declared["revealed"][0]["items"] == ["key-1", "dagger", "key-2"]


# the same commands, friendly and as JSON (names fixed, hand-worked in the comments)
SCRIPT = [
    ("Ann", ["clairvoyant"], {"type": "clairvoyant"}),
    ("Ann", ["arrange", "goblet-1", "key-1"], {"type": "arrange", "top": ["goblet-1", "key-1"]}),
    ("Ann", ["trade", "bag-key", "--to", "Cid"], {"type": "trade", "to": "Cid", "item": "bag-key"}),
    ("Cid", ["accept", "gloves"], {"type": "accept", "item": "gloves"}),
    ("Ann", ["choose", "draw"], {"type": "choose", "option": "draw"}),          # goblet-1
    ("Ben", ["diplomat", "Ann", "gloves"], {"type": "diplomat", "target": "Ann", "kind": "gloves"}),
    ("Ann", ["give", "gloves", "--to", "Ben"], {"type": "give", "item": "gloves", "to": "Ben"}),
    ("Ben", ["give", "bag-goblet", "--to", "Ann"],
     {"type": "give", "item": "bag-goblet", "to": "Ann"}),
    ("Ben", ["choose", "draw"], {"type": "choose", "option": "draw"}),          # key-1
    ("Ben", ["attack", "Cid"], {"type": "attack", "defender": "Cid"}),
    ("Cid", ["pass"], {"type": "pass"}),                                         # priest window
    ("Dora", ["pass"], {"type": "pass"}),
    ("Cid", ["pass"], {"type": "pass"}),                                         # duel (6.5)
    ("Dora", ["support", "attacker"], {"type": "support", "side": "attacker"}),
    ("Ann", ["support", "defender"], {"type": "support", "side": "defender"}),
    ("Ben", ["pass"], {"type": "pass"}),                                         # abilities
    ("Cid", ["use", "grand-master"], {"type": "use", "power": "grand-master"}),
    ("Dora", ["pass"], {"type": "pass"}),
    ("Ann", ["pass"], {"type": "pass"}),
    ("Ben", ["pass"], {"type": "pass"}),
    ("Cid", ["pass"], {"type": "pass"}),
    ("Dora", ["pass"], {"type": "pass"}),                                        # doctor window
    ("Cid", ["choose", "take"], {"type": "choose", "option": "take"}),
    ("Cid", ["take", "key-1"], {"type": "take", "item": "key-1"}),
    ("Cid", ["trade", "key-1", "--to", "Dora"], {"type": "trade", "to": "Dora", "item": "key-1"}),
    ("Dora", ["refuse"], {"type": "refuse"}),
    ("Dora", ["pass"], {"type": "pass"}),
]


def play_script(devil, game, friendly: bool):
    for who, args, command in SCRIPT:
        if friendly:
            step(devil, game, who, [args[0], game, *args[1:]], command)
        else:
            devil("submit", game, json.dumps(command), "--as", who)


def events_of(devil, game, who=None):
    args = ["log", game, "--json"] + (["--as", who] if who else [])
    return [e["event"] for e in json.loads(devil(*args).stdout)]


def test_friendly_commands_record_the_same_events_as_submit(devil):
    path, _ = write_deal(devil.tmp, "four.json", FOUR, top=["key-1", "goblet-1"])
    a = new_game(devil, path, "--first", "Ann")
    b = new_game(devil, path, "--first", "Ann")
    play_script(devil, a, friendly=True)
    play_script(devil, b, friendly=False)
    assert events_of(devil, a) == events_of(devil, b)
    events = events_of(devil, a)
    # the physical Clairvoyant keeps the rest of the pile in order (docs/castle-rules.md)
    arranged = next(e for e in events if e["type"] == "pile_arranged")
    assert arranged["pile"][:3] == ["goblet-1", "key-1", "bag-key"][:2] + [arranged["pile"][2]]
    # the fight, worked by hand (CASTLE-6.6): attacker Ben 1 + Dora 1 = 2;
    # defender Cid 1 + Ann 1 + grand-master 1 = 3: Cid wins
    counted = next(e for e in events if e["type"] == "fight_counted")
    assert (counted["attacker_total"], counted["defender_total"], counted["winner"]) == (2, 3, 2)
    # Ben held the gloves (Diplomat's trade) and key-1 (his bag's draw): Cid saw both
    seen = next(e for e in events if e["type"] == "items_seen" and e["reason"] == "fight")
    assert seen["items"] == ["gloves", "key-1"]
    final = view(devil, a)
    hands = {p["name"]: p["items"] for p in final["players"]}
    assert hands == {"Ann": ["goblet-1", "bag-goblet"], "Ben": ["gloves"],
                     "Cid": ["bag-key", "key-1"], "Dora": ["dagger"]}
    assert final["turn"] == "Ann" and final["turn_number"] == 5


def test_show_as_a_player_never_shows_another_seats_hidden_card(devil):
    path, _ = write_deal(devil.tmp, "four.json", FOUR, top=["key-1", "goblet-1"])
    game = new_game(devil, path, "--first", "Ann")
    play_script(devil, game, friendly=True)
    for who in ("Ann", "Ben", "Cid", "Dora"):
        mine = view(devil, game, who)
        for p in mine["players"]:
            if p["name"] == who:
                assert p["items"] is not None and p["society"] == FOUR[who][0]
                continue
            assert p["items"] is None  # nobody has declared: no other hand is shown
            # used professions are public (CASTLE-6.9); Dora's priest was never used
            public = {"Ann": "clairvoyant", "Ben": "diplomat", "Cid": "grand-master"}
            assert p["profession"] == public.get(p["name"])
            assert p["society"] is None  # nobody looked at a society card
    text = devil("show", game, "--as", "Ann").stdout
    assert "dagger" not in text and "priest" not in text  # Dora's cards, never shown to Ann
    assert "bag-key" not in text  # now in Cid's hand: Ann gave it, but Cid took key-1 since
    # Ann's log as she saw it never names a card she was not shown
    # (the "priest" window is named publicly: drop window names before looking)
    ann_log = json.dumps([{k: v for k, v in e.items() if k != "window"}
                          for e in events_of(devil, game, "Ann")])
    assert "dagger" not in ann_log
    assert "priest" not in ann_log
    # Ben learned Ann's gloves in the Diplomat's trade, so his log may name them
    assert "gloves" in json.dumps(events_of(devil, game, "Ben"))


def test_an_impossible_deal_is_refused_with_the_reason(devil):
    seats = dict(THREE)
    seats["Ben"] = ("brotherhood", "thug", ["bag-goblet", "key-1"])  # key-1 is Ann's too
    path, deal = write_deal(devil.tmp, "twice.json", seats, top=[], set_aside="order")
    assert "dagger" in deal["item_pile"] and "key-1" not in deal["item_pile"]
    result = devil("new", "castle", "--deal", path, code=2)
    assert "item(s) dealt twice: key-1" in result.stderr
    seats = dict(THREE)
    seats["Cid"] = ("order", "doctor", ["gloves", "whip"])  # 2 order + the set-aside order
    path, _ = write_deal(devil.tmp, "split.json", seats, top=[], set_aside="order")
    result = devil("new", "castle", "--deal", path, code=2)
    assert "CASTLE-2.2" in result.stderr
    result = devil("new", "castle", "--player", "Ann", "--player", "Ben", code=2)
    assert "3 to 10 players" in result.stderr


def test_refused_commands_exit_1_with_the_rule(devil):
    path, _ = write_deal(devil.tmp, "three.json", THREE, top=["key-2"], set_aside="order")
    game = new_game(devil, path, "--first", "Ann")
    result = devil("declare", game, "--as", "Ben", code=1)
    assert "CASTLE-3.1" in result.stderr  # not Ben's turn
    devil("trade", game, "bag-key", "--to", "Ben", "--as", "Ann")
    result = devil("accept", game, "bag-goblet", "--as", "Ben", code=1)
    assert "CASTLE-4.4" in result.stderr
    result = devil("accept", game, "dagger", "--as", "Ben", "--json")
    assert json.loads(result.stdout)["events"][0]["type"] == "trade_completed"


def test_new_castle_digital_with_seed_and_options(devil):
    created = json.loads(devil("new", "castle", *sum((["--player", p] for p in
                                                      ["Ann", "Ben", "Cid", "Dora", "Eve"]), []),
                               "--seed", 9, "--variant", "smuggling", "--variant", "scoring",
                               "--beginner", "--house", "sextant_last=false", "--json").stdout)
    game = created["game"]
    events = events_of(devil, game)
    first = events[0]
    assert first["variants"] == ["smuggling", "scoring"] and first["beginner"] is True
    assert first["house"]["sextant_last"] is False and first["physical"] is False
    assert events[1]["drinks"] == [True] * 5  # odd player count (CASTLE-2.3)
    assert sorted(events[1]["removed"]) == ["broken-mirror", "coat", "coat-of-arms", "sextant",
                                            "tome"]  # beginner (CASTLE-2.6)
    text = devil("show", game, "--as", "Ann").stdout
    assert "Ann may:" in text


def test_the_deal_file_shipped_with_the_guide_is_the_tested_one(devil):
    """docs/examples/castle-three.json is the deal of the guide's walk-through (and of
    test_a_whole_castle_game_from_a_deal_file_ends_by_a_declaration)."""
    root = pathlib.Path(__file__).resolve().parents[2]
    shipped = json.loads((root / "docs/examples/castle-three.json").read_text())
    _, deal = write_deal(devil.tmp, "three.json", THREE, top=["key-2"], set_aside="order")
    assert shipped == deal
    game = new_game(devil, root / "docs/examples/castle-three.json", "--first", "Ann")
    assert view(devil, game, "Ann")["turn"] == "Ann"
