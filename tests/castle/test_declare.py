"""CASTLE-9 and CASTLE-10.2, 10.3: declaring victory, prophecy, scoring, the end of the game."""

import pytest

from engine.chance import SeededChance
from engine.games.castle import RULES
from engine.games.castle import commands as C
from engine.games.castle import events as E

from .helpers import NAMES, end_turn_by_passing, game

FILL = ["privilege", "monocle", "dagger", "gloves", "whip", "casting-knives", "poison-ring",
        "black-pearl"]
PROFS = ["priest", "thug", "doctor", "duelist", "diplomat", "hypnotist", "bodyguard",
         "grand-master", "poison-mixer", "clairvoyant"]


def table(socs, items, set_aside=None, pile=None, **opts):
    """A game where seat i has society socs[i] and items[i] (others filled in)."""
    used = {c for h in items for c in h}
    fill = [c for c in FILL if c not in used]
    hands = [list(h) if h else [fill.pop(0)] for h in items]
    return game([(socs[i], PROFS[i], hands[i]) for i in range(len(socs))],
                pile=pile, set_aside=set_aside, **opts)


def ended(g):
    return g.last(E.GameEnded)[-1]


def winners(g):
    return [NAMES[s] for s in ended(g).winners]


FIVE = ["order", "brotherhood", "order", "brotherhood", "brotherhood"]


def test_castle_9_2_right_with_a_drink_at_5_players():
    """Order is the smaller society (the set-aside card is order): Ann's key, Cid's key and
    Ann's drink make three (CASTLE-9.4)."""
    g = table(FIVE, [["key-1"], ["bag-goblet"], ["key-2"], ["bag-key"], []], set_aside="order",
              chance=SeededChance(7, "cd"), variants=["scoring"])
    new = g.do(C.Declare(player="Ann", allies=["Cid"]))
    decl, end = new
    assert decl.right and decl.winning_society == "order"
    assert [r.player for r in decl.revealed] == [0, 2] and decl.revealed[1].items == ["key-2"]
    assert winners(g) == ["Ann", "Cid"]
    assert end.reveal == E.Reveal(seed=7, salt="cd")
    assert end.points == {"Ann": 3, "Ben": 0, "Cid": 2, "Dora": 0, "Eve": 0}
    assert RULES.is_over(g.state) and g.view(None)["winners"] == ["Ann", "Cid"]
    assert g.seat_view(1)["players"][2]["items"] == ["key-2"]  # laid open
    assert RULES.legal_commands(g.state, 1) == []


def test_castle_9_4_drink_at_7_players_only_for_the_smaller_society():
    socs = ["brotherhood", "order", "brotherhood", "order", "brotherhood", "order", "order"]
    items = [["goblet-1"], ["key-1"], ["goblet-2"], ["key-2"], ["bag-key"], ["bag-goblet"], []]
    g = table(socs, items, set_aside="brotherhood")
    g.do(C.Declare(player="Ann", allies=["Cid"]))
    assert winners(g) == ["Ann", "Cid", "Eve"]
    # the larger society's drink does not count: Ben's key and Dora's key are two
    g = table(socs, items, set_aside="brotherhood")
    end_turn_by_passing(g, "Ben")
    g.do(C.Declare(player="Ben", allies=["Dora"]))
    assert not g.last(E.Declared)[0].right and winners(g) == ["Ann", "Cid", "Eve"]


SIX = ["order", "brotherhood", "order", "brotherhood", "order", "brotherhood"]


@pytest.mark.parametrize("allies, why", [
    (["Ben", "Cid"], "enemy named"),
    (["Eve", "Cid"], "ally without relic"),
    (["Cid"], "too few"),
])
def test_castle_9_2_wrong_declarations_lose(allies, why):
    g = table(SIX, [["key-1"], ["goblet-1"], ["key-2"], ["bag-key"], ["privilege"], ["bag-goblet"]],
              variants=["scoring"])
    g.do(C.Declare(player="Ann", allies=allies))
    assert not g.last(E.Declared)[0].right, why
    assert winners(g) == ["Ben", "Dora", "Fay"]
    assert ended(g).points == {"Ann": 0, "Ben": 2, "Cid": 0, "Dora": 2, "Eve": 0, "Fay": 2}


def test_castle_9_1_needs_a_relic_and_no_black_pearl():
    g = table(SIX,
              [["bag-key"], ["goblet-1"], ["key-2"], ["black-pearl"], ["key-1"], ["bag-goblet"]])
    assert g.refused(C.Declare(player="Ann", allies=["Cid", "Eve"])).rule == "CASTLE-9.1"
    end_turn_by_passing(g, "Dora")
    exc = g.refused(C.Declare(player="Dora", allies=[]))
    assert exc.rule == "CASTLE-5.7"
    assert not any(isinstance(c, C.Declare) for c in g.legal("Dora"))


def test_castle_9_3_bag_before_the_pile_runs_out_is_no_relic():
    g = table(SIX, [["key-1"], ["goblet-1"], ["bag-key"], ["goblet-2"], ["key-2"], ["bag-goblet"]])
    g.do(C.Declare(player="Ann", allies=["Cid", "Eve"]))
    assert not g.last(E.Declared)[0].right


def empty_the_pile(g):
    """Every player attacks its left neighbour and everyone passes: ties draw the pile empty."""
    while g.state.pile:
        who = g.view(None)["turn"]
        g.do(C.Attack(player=who, defender=NAMES[(g.seat(who) + 1) % len(g.names)]))
        g.pass_fight()
        if g.state.top["kind"] == "limit":  # pragma: no cover - not with these piles
            raise AssertionError("hand limit")


def test_castle_9_3_bags_turn_into_relics_when_the_pile_runs_out():
    socs = ["order", "brotherhood"] * 5
    items = [["key-1"], ["goblet-1"], ["bag-key"], ["goblet-2"], ["key-2"], ["bag-goblet"],
             [], [], [], []]
    g = table(socs, items)
    assert len(g.state.pile) == 10
    empty_the_pile(g)
    assert g.state.bags_turned and any(isinstance(e, E.BagsTurned) for e in g.events)
    assert g.view(None)["bags_are_relics"]
    # 4.4: now the bags may be exchanged for each other
    end_turn_by_passing(g, "Cid")
    g.play(C.Trade(player="Cid", to="Fay", item="bag-key"),
           C.Accept(player="Fay", item="bag-goblet"))
    done = g.last(E.TradeCompleted)[-1]
    assert done.offered_named is None and done.returned_named is None  # no bag effect any more
    g.do(C.Trade(player="Dora", to="Cid", item="goblet-2"))
    g.do(C.Accept(player="Cid", item="bag-goblet"))
    end_turn_by_passing(g, "Ann")
    # Cid gave his bag (a key) away: naming him is wrong although Ann and Eve hold three keys
    assert g.hand("Ann") == ["key-1", "key-3"]
    g.do(C.Declare(player="Ann", allies=["Eve", "Cid"]))
    assert not g.last(E.Declared)[0].right


def test_castle_9_3_bag_counts_once_the_pile_is_empty():
    socs = ["order", "brotherhood"] * 5
    items = [["key-1"], ["goblet-1"], ["bag-key"], ["goblet-2"], ["key-2"], ["bag-goblet"],
             [], [], [], []]
    g = table(socs, items)
    empty_the_pile(g)
    end_turn_by_passing(g, "Ann")
    g.do(C.Declare(player="Ann", allies=["Cid", "Eve"]))
    assert g.last(E.Declared)[0].right
    assert winners(g) == ["Ann", "Cid", "Eve", "Gus", "Ida"]


def test_castle_9_5_coat_of_arms_alone():
    socs = SIX
    items = [["key-1"], ["bag-goblet"], ["bag-key"], ["privilege"], ["monocle"], ["dagger"]]
    g = table(socs, items, pile=["coat-of-arms", "goblet-1", "key-2"], variants=["scoring"])
    for _ in range(3):
        end_turn_by_passing(g, "Ann")
        if g.state.count(0) == 3:
            assert g.refused(C.Declare(player="Ann", kind="coat-of-arms")).rule == "CASTLE-9.5"
        g.do(C.Attack(player="Ann", defender="Ben"))
        g.pass_fight()
    end_turn_by_passing(g, "Ann")
    assert g.hand("Ann") == ["coat-of-arms", "goblet-1", "key-1", "key-2"]
    assert g.refused(C.Declare(player="Ann", kind="coat-of-arms",
                               allies=["Cid"])).rule == "CASTLE-9.5"
    g.do(C.Declare(player="Ann", kind="coat-of-arms"))
    assert winners(g) == ["Ann"]
    assert ended(g).points["Ann"] == 4 and sum(ended(g).points.values()) == 4


def test_castle_9_5_failed_coat_of_arms_loses_under_the_house_option():
    items = [["key-1"], ["bag-goblet"], ["bag-key"], ["privilege"], ["monocle"], ["dagger"]]
    g = table(SIX, items, pile=["coat-of-arms"], house={"coat_of_arms_refused": False})
    g.do(C.Attack(player="Ann", defender="Ben"))
    g.pass_fight()
    end_turn_by_passing(g, "Ann")
    g.do(C.Declare(player="Ann", kind="coat-of-arms"))
    assert winners(g) == ["Ben", "Dora", "Fay"]


def test_castle_10_2_prophecy():
    items = [["bag-goblet"], ["goblet-1"], ["bag-key"], ["goblet-2"], ["key-1"], ["goblet-3"]]
    g = table(SIX, items, variants=["prophecy", "scoring"])
    assert g.refused(C.Declare(player="Ann", kind="prophecy", allies=[])).rule == "CASTLE-10.2"
    g.do(C.Declare(player="Ann", kind="prophecy", allies=["Ben", "Dora", "Fay"]))
    assert winners(g) == ["Ann", "Cid", "Eve"]
    assert ended(g).points == {"Ann": 3, "Ben": 0, "Cid": 1, "Dora": 0, "Eve": 2, "Fay": 0}
    g = table(SIX, items, variants=["prophecy"])
    g.do(C.Declare(player="Ann", kind="prophecy", allies=["Ben", "Dora"]))
    assert winners(g) == ["Ben", "Dora", "Fay"]
    g = table(SIX, items)
    assert g.refused(C.Declare(player="Ann", kind="prophecy", allies=["Ben"])).rule == "CASTLE-10.2"


def test_castle_10_3_scoring_five_for_three_own_relics():
    socs = ["order", "brotherhood", "order", "brotherhood"]
    g = table(socs, [["key-1"], ["bag-goblet"], ["bag-key"], ["goblet-1"]], pile=["key-2", "key-3"],
              variants=["scoring"])
    for _ in range(2):
        end_turn_by_passing(g, "Ann")
        g.do(C.Attack(player="Ann", defender="Ben"))
        g.pass_fight()
    end_turn_by_passing(g, "Ann")
    g.do(C.Declare(player="Ann"))
    assert ended(g).points == {"Ann": 5, "Ben": 0, "Cid": 1, "Dora": 0}
