"""Say why (issue 10.4) in the renderer: a fight's count with its parts, a wrong declaration
with what made it wrong (client/games/castle/render.py)."""

from __future__ import annotations

from client.games.castle import render
from engine.game import PUBLIC
from engine.games.castle import RULES
from engine.games.castle import commands as C
from engine.games.castle import events as E
from tests.castle.helpers import from_position, position
from tests.castle.test_rules_r2 import duel_after_a_supporter_and_his_whip, five


def test_the_count_is_told_with_its_parts_and_the_voided_ones_marked():
    """Cid supports the defender and shows the whip, then Ann calls a duel: A = 1 + 1 = 2,
    D = 1 (Cid's support and whip void)."""
    g = duel_after_a_supporter_and_his_whip()
    counted = g.last(E.FightCounted)[0]
    text = render.describe(RULES.redact(counted, PUBLIC), g.names)
    assert text == ("Count: attacker 2, defender 1 (attacker: 1 (own) + 1 (Ann's duelist); "
                    "defender: 1 (own) + 0 (Cid supports; void: a duel, CASTLE-6.5) + "
                    "0 (Cid's whip; void: a duel, CASTLE-6.5)): Ann wins (CASTLE-6.6)")
    view = dict(RULES.view(g.state, 2), game="g1")
    table = render.table(view, "Cid")
    assert "attacker: 1 (own) + 1 (Ann's duelist)" in table
    assert view["fight"]["result"]["parts"][2] == {"side": "defender", "source": "support",
                                                   "player": "Cid", "value": 0, "void": "duel"}


def test_a_wrong_declaration_says_whose_drink_did_not_count():
    g = five(ann=["key-1"], cid=["key-2"], ben=["goblet-1"], dora=["goblet-2"], active="Ben")
    declared = g.do(C.Declare(player="Ben", allies=["Dora"]))[0]
    text = render.describe(declared, g.names)
    assert "wrong, the order wins" in text
    assert text.endswith("Why wrong: Ben and the allies named hold 2 goblet(s) counting, 1 short "
                         "of three (CASTLE-9.2); Ben's Drink of Power does not count: the "
                         "brotherhood is not the smaller society (CASTLE-9.4)")


def test_a_take_of_nothing_and_a_reported_draw_are_told():
    names = ["Ann", "Ben"]
    assert render.describe(E.ItemTaken(winner=0, loser=1, item=None, given_back=None, took=False),
                           names) == "Ann takes nothing from Ben (CASTLE-6.8b)"
    assert "to be reported" in render.describe(E.DrawAwaited(player=1, reason="tie"), names)


def test_the_table_shows_advanced_3p_cards_and_a_pile_known_as_a_set():
    from tests.castle.test_rules_r2 import CLAIR
    seats = {"Ann": (["order", "order", "brotherhood"], "thug", ["monocle", "bag-key"]),
             "Ben": (["brotherhood", "brotherhood", "order"], "doctor", ["dagger", "bag-goblet"]),
             "Cid": (["order", "brotherhood", "brotherhood"], "priest", ["whip", "key-1"])}
    g = from_position(position(seats, set_aside="order", active="Ann", variants=["advanced-3p"]))
    table = render.table(dict(RULES.view(g.state, 0), game="g1"), "Ann")
    assert "order [order, order, brotherhood]" in table
    g = from_position(position(CLAIR, ordered=False, active="Ann"))
    table = render.table(dict(RULES.view(g.state, 0), game="g2"), "Ann")
    assert "item pile known only as a set below its top 0" in table


def test_a_physical_draw_and_a_hidden_seat_are_described():
    """A tie in a physical game (CASTLE-6.6; the pile's order unknown, CASTLE-7.1): Ben draws
    and the card is to be reported; a seat the viewer may not see is "someone"."""
    text = render.describe(E.DrawAwaited(player=1, reason="tie"), ["Ann", "Ben", "Cid"])
    assert text == ("Ben draws from the item pile (tie, CASTLE-6.6); the card drawn is to be "
                    "reported (CASTLE-7.1)")
    assert render.describe(E.TurnPassed(player=None), ["Ann"]) == "someone passes (CASTLE-8.1)"
