"""Castle rules not covered by the other files (that every rule id is cited by some test is
checked for every game by tests/games/test_rule_index.py)."""

import pytest

from engine.errors import UnknownPlayer
from engine.games.castle import commands as C
from engine.games.castle.cards import relic_of

from .helpers import game
from .test_fight import fight, counted, six


def test_castle_1_4_drinks_are_not_items():
    seats = [("order", "priest", ["bag-key"]), ("brotherhood", "thug", ["bag-goblet"]),
             ("order", "doctor", ["key-1"]), ("brotherhood", "duelist", ["goblet-1"]),
             ("brotherhood", "diplomat", ["dagger"])]
    g = game(seats, set_aside="order")
    assert g.state.drinks == [True] * 5 and g.state.count(0) == 1
    assert g.refused(C.Trade(player="Ann", to="Ben", item="drink")).rule == "CASTLE-4.1"
    assert all(getattr(c, "item", None) != "drink" for c in g.legal("Ann"))


def test_castle_5_10_gloves_and_5_13_whip():
    """CASTLE-5.10, CASTLE-5.13: D = 1 + 1 supporter + gloves + whip = 4 against 1."""
    profs = ["clairvoyant", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    items = [["bag-key"], ["bag-goblet"], ["key-1"], ["gloves"], ["whip"], ["privilege"]]
    g = six(profs, items)
    fight(g, "Ann", "Dora", sides={"Eve": "defender"}, uses={"Dora": ["gloves"], "Eve": ["whip"]},
          stop=("choice",))
    c = counted(g)
    assert (c.attacker_total, c.defender_total, c.winner) == (1, 4, 3)


def test_castle_5_14_relics_and_castle_9_3_turned_bags():
    assert relic_of("key-2", False) == "key" and relic_of("goblet-3", False) == "goblet"
    assert relic_of("bag-key", False) is None and relic_of("bag-key", True) == "key"
    assert relic_of("bag-goblet", True) == "goblet" and relic_of("coat-of-arms", True) is None


def test_castle_6_1_attack_names_another_player():
    g = six(["clairvoyant", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"],
            [["bag-key"], ["bag-goblet"], ["key-1"], ["gloves"], ["whip"], ["privilege"]])
    with pytest.raises(UnknownPlayer) as info:  # nothing recorded; exit 2
        g.do(C.Attack(player="Ann", defender="Zed"))
    assert info.value.rule == "CASTLE-6.1"
    g.do(C.Attack(player="Ann", defender="Eve"))
    assert g.view(None)["fight"]["defender"] == "Eve"
