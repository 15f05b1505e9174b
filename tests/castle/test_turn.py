"""CASTLE-3, CASTLE-7, CASTLE-8, CASTLE-11: turns, Clairvoyant, Diplomat, pass, knowledge."""

from engine.chance import SeededChance
from engine.game import PUBLIC
from engine.games.castle import RULES
from engine.games.castle import commands as C
from engine.games.castle import events as E

from .helpers import game

FOUR = [("order", "clairvoyant", ["privilege"]), ("brotherhood", "diplomat", ["bag-goblet"]),
        ("order", "doctor", ["bag-key"]), ("brotherhood", "duelist", ["monocle"])]


def test_castle_3_1_one_action_then_next_player():
    g = game(FOUR)
    assert g.refused(C.Pass(player="Ben")).rule == "CASTLE-3.1"
    assert g.refused(C.Trade(player="Ann", to="Ann", item="privilege")).rule == "CASTLE-4.1"
    assert g.refused(C.Trade(player="Ann", to="Ben", item="monocle")).rule == "CASTLE-4.1"
    assert g.refused(C.Attack(player="Ann", defender="Ann")).rule == "CASTLE-6.1"
    assert g.refused(C.Support(player="Ann", side="attacker")).rule == "CASTLE-3.1"
    g.do(C.Pass(player="Ann"))
    assert g.view(None)["turn"] == "Ben"
    g.do(C.Pass(player="Ben"))
    g.do(C.Pass(player="Cid"))
    g.do(C.Pass(player="Dora"))
    assert g.view(None)["turn"] == "Ann" and g.state.turn == 5


def test_castle_8_1_pass():
    g = game(FOUR)
    new = g.do(C.Pass(player="Ann"))
    assert [type(e) for e in new] == [E.TurnPassed, E.TurnStarted]


def test_castle_7_1_clairvoyant_sees_the_pile_and_arranges_two():
    """CASTLE-7.1, CASTLE-7.2 (private choice, public use), CASTLE-3.2 (not the action)."""
    g = game(FOUR, pile=["key-1", "key-2", "key-3"], chance=SeededChance(3, "ee"))
    (used,) = g.do(C.Clairvoyant(player="Ann"))
    assert used.pile == g.state.pile and RULES.redact(used, 1).pile is None
    assert g.view(PUBLIC)["players"][0]["profession"] == "clairvoyant"  # 7.2: the use is public
    assert g.refused(C.Arrange(player="Ann", top=["key-1"])).rule == "CASTLE-7.1"
    assert g.refused(C.Arrange(player="Ann", top=["key-1", "nope"])).rule == "CASTLE-7.1"
    (arr,) = g.do(C.Arrange(player="Ann", top=["key-3", "key-1"]))[:1]
    assert g.state.pile[:2] == ["key-3", "key-1"]
    assert sorted(g.state.pile) == sorted(used.pile)
    red = RULES.redact(arr, 0)
    assert red.pile[:2] == ["key-3", "key-1"] and set(red.pile[2:]) == {None}
    assert set(RULES.redact(arr, 1).pile) == {None}
    # 3.2: not the action: Ann still acts
    assert g.waiting() == ["Ann"] and g.state.top["kind"] == "turn"
    assert g.refused(C.Clairvoyant(player="Ann")).rule == "CASTLE-6.9"
    facts = g.seat_view(0)["knowledge"]
    assert [f["what"] for f in facts] == ["pile", "pile-top"]
    assert g.seat_view(1)["knowledge"] == []


def test_castle_7_1_physical_game_keeps_the_rest_in_order():
    g = game(FOUR, pile=["key-1", "key-2", "key-3"])
    g.do(C.Clairvoyant(player="Ann"))
    before = list(g.state.pile)
    g.do(C.Arrange(player="Ann", top=["key-3", "key-2"]))
    assert g.state.pile == ["key-3", "key-2"] + [c for c in before if c not in ("key-3", "key-2")]


def test_castle_7_3_diplomat_forced_trade_with_effects():
    seats = [("order", "diplomat", ["bag-key"]), ("brotherhood", "thug", ["bag-goblet"]),
             ("order", "doctor", ["privilege"]), ("brotherhood", "duelist", ["monocle"])]
    g = game(seats)
    assert g.refused(C.Diplomat(player="Ann", target="Ann", kind="monocle")).rule == "CASTLE-7.3"
    (used,) = g.do(C.Diplomat(player="Ann", target="Dora", kind="monocle"))
    assert used.holds and g.waiting() == ["Dora"]
    assert g.refused(C.Give(player="Dora", item="bag-goblet", to="Ann")).rule == "CASTLE-7.3"
    (chosen,) = g.do(C.Give(player="Dora", item="monocle", to="Ann"))
    assert RULES.redact(chosen, 0).item == "monocle" and RULES.redact(chosen, 1).item is None
    assert g.waiting() == ["Ann"]
    done = g.do(C.Give(player="Ann", item="bag-key", to="Dora"))[0]
    assert isinstance(done, E.TradeCompleted) and done.diplomat
    assert (done.offered_named, done.returned_named) == ("monocle", "bag")
    assert g.hand("Ann") == ["monocle"] and g.hand("Dora") == ["bag-key"]
    # effects fire (CASTLE-4.8): the Diplomat's card first (CASTLE-4.6): Ann's bag, then
    # Dora's monocle (she gave it away)
    assert g.waiting() == ["Ann"] and g.state.top["effect"] == "bag"
    g.do(C.Choose(player="Ann", option="skip"))
    assert g.waiting() == ["Dora"] and g.state.top["effect"] == "monocle"
    g.do(C.Choose(player="Dora", option="look"))
    # the diplomat still takes the turn's action (3.2)
    assert g.waiting() == ["Ann"] and g.state.top["kind"] == "turn"
    assert g.refused(C.Diplomat(player="Ann", target="Ben", kind="key")).rule == "CASTLE-6.9"


def test_castle_7_3_diplomat_demand_not_met_shows_items_and_ends_the_turn():
    seats = [("order", "diplomat", ["bag-key"]), ("brotherhood", "thug", ["bag-goblet"]),
             ("order", "doctor", ["privilege"]), ("brotherhood", "duelist", ["monocle"])]
    g = game(seats)
    new = g.do(C.Diplomat(player="Ann", target="Cid", kind="key"))
    used, seen, started = new
    assert not used.holds and seen.items == ["privilege"] and seen.reason == "diplomat"
    assert RULES.redact(seen, 1).items is None and RULES.redact(seen, 2).items == ["privilege"]
    assert isinstance(started, E.TurnStarted) and g.view(None)["turn"] == "Ben"
    assert {"about": "Cid", "what": "items", "value": ["privilege"], "reason": "diplomat",
            "turn": 1} in g.seat_view(0)["knowledge"]


def test_castle_7_3_diplomat_cannot_demand_a_bag_for_the_other_bag():
    seats = [("order", "diplomat", ["bag-key"]), ("brotherhood", "thug", ["bag-goblet"]),
             ("order", "doctor", ["privilege"]), ("brotherhood", "duelist", ["monocle"])]
    g = game(seats)
    assert g.refused(C.Diplomat(player="Ann", target="Ben", kind="bag-goblet")).rule == "CASTLE-7.3"


def test_castle_11_1_every_private_look_is_a_knowledge_event_and_views_agree():
    seats = [("order", "diplomat", ["privilege"]), ("brotherhood", "thug", ["bag-goblet"]),
             ("order", "doctor", ["bag-key"]), ("brotherhood", "duelist", ["monocle"])]
    g = game(seats)
    g.play(C.Trade(player="Ann", to="Dora", item="privilege"),
           C.Accept(player="Dora", item="monocle"),
           C.Choose(player="Ann", option="look"), C.Choose(player="Dora", option="look"))
    for seat in (0, 1, 2, 3, PUBLIC):
        assert g.seat_view(seat) == g.view(seat)
    ann = g.view(0)
    assert ann["players"][3]["society"] is None  # a privilege shows items, not the society
    assert [f["what"] for f in ann["knowledge"]] == ["returned-item", "items"]
    assert g.view(3)["players"][0]["society"] == "order"
    assert g.view(1)["knowledge"] == [] and g.view(PUBLIC)["knowledge"] == []
    assert set(g.view(None)["knowledge"]) == {"Ann", "Ben", "Cid", "Dora"}


def test_codec_round_trip_of_commands():
    for c in [C.Pass(player="A"), C.Trade(player="A", to="B", item="key-1", silent=True),
              C.Declare(player="A", kind="society", allies=["B"]), C.Take(player="A", item="x"),
              C.Arrange(player="A", top=["key-1", "key-2"]),
              C.Use(player="A", power="poison-mixer", target="B")]:
        assert RULES.commands.from_map(RULES.commands.to_map(c)) == c
    assert RULES.commands.from_map({"type": "declare", "player": "A"}) == C.Declare(player="A")
