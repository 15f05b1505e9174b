"""CASTLE-3.3, CASTLE-4, CASTLE-5.1 to 5.8, CASTLE-10.1: trades, item effects, the hand limit."""

import pytest

from engine.game import PUBLIC
from engine.games.castle import RULES
from engine.games.castle import commands as C
from engine.games.castle import events as E

from .helpers import end_turn_by_passing, game, tie_fight

# Ann (order, priest), Ben (brotherhood, thug), Cid (order, doctor), Dora (brotherhood, duelist)
FOUR = [("order", "priest", ["privilege"]), ("brotherhood", "thug", ["bag-goblet"]),
        ("order", "doctor", ["bag-key"]), ("brotherhood", "duelist", ["monocle"])]


def four(items=None, pile=None, **opts):
    seats = [(s, p, list(items[i]) if items else it) for i, (s, p, it) in enumerate(FOUR)]
    return game(seats, pile=pile, **opts)


def draw_by_tie(g, name, victim):
    """``name`` gets the top pile item by a tie fight on their turn (CASTLE-6.6)."""
    end_turn_by_passing(g, name)
    tie_fight(g, name, victim)


def test_castle_4_1_offer_is_seen_by_the_receiver_only():
    g = four()
    (offer,) = g.do(C.Trade(player="Ann", to="Ben", item="privilege"))
    assert RULES.redact(offer, 1).item == "privilege"
    assert RULES.redact(offer, 2).item is None and RULES.redact(offer, PUBLIC).item is None
    assert g.waiting() == ["Ben"]
    assert g.seat_view(1)["pending"][0]["item"] == "privilege"
    assert g.seat_view(2)["pending"][0]["item"] is None
    assert {"about": "Ann", "what": "offered-item", "value": "privilege", "reason": "trade",
            "turn": 1} in g.seat_view(1)["knowledge"]


def test_castle_4_2_refuse_ends_the_turn_and_nothing_moves():
    g = four()
    g.play(C.Trade(player="Ann", to="Ben", item="privilege"), C.Refuse(player="Ben"))
    assert g.hand("Ann") == ["privilege"] and g.hand("Ben") == ["bag-goblet"]
    assert g.view(None)["turn"] == "Ben"


def test_castle_4_2_accept_swaps_and_the_active_player_must_take():
    g = four()
    g.play(C.Trade(player="Ann", to="Cid", item="privilege"),
           C.Accept(player="Cid", item="bag-key"))
    assert g.hand("Ann") == ["bag-key"] and g.hand("Cid") == ["privilege"]
    # the privilege's effect belongs to Ann, who gave it away (4.5)
    assert g.waiting() == ["Ann"]
    assert g.refused(C.Accept(player="Cid", item="privilege")).rule == "CASTLE-4.6"


def test_castle_4_2_must_give_back_another_own_item():
    g = four()
    g.do(C.Trade(player="Ann", to="Ben", item="privilege"))
    assert g.refused(C.Accept(player="Ben", item="privilege")).rule == "CASTLE-4.2"
    assert g.refused(C.Accept(player="Ben", item="monocle")).rule == "CASTLE-4.2"


@pytest.mark.parametrize("card", ["black-pearl", "broken-mirror"])
def test_castle_4_3_pearl_and_mirror_cannot_be_refused(card):
    items = [["black-pearl"], ["bag-goblet"], ["bag-key"], ["monocle"]]
    g = four(items, pile=["broken-mirror"])
    if card == "broken-mirror":
        draw_by_tie(g, "Ann", "Dora")
        end_turn_by_passing(g, "Ann")
    g.do(C.Trade(player="Ann", to="Ben", item=card))
    exc = g.refused(C.Refuse(player="Ben"))
    assert exc.rule == "CASTLE-4.3" and str(exc).startswith("CASTLE-4.3: ")
    assert all(not isinstance(c, C.Refuse) for c in g.legal("Ben"))
    g.do(C.Accept(player="Ben", item="bag-goblet"))
    assert card in g.hand("Ben")


def test_castle_4_4_case_b_bag_offered_to_holder_of_only_the_other_bag():
    """Worked case B: Ben's only item is bag-goblet, Ann offers bag-key: Ben must refuse."""
    items = [["bag-key"], ["bag-goblet"], ["privilege"], ["monocle"]]
    g = four(items)
    g.do(C.Trade(player="Ann", to="Ben", item="bag-key"))
    assert g.refused(C.Accept(player="Ben", item="bag-goblet")).rule == "CASTLE-4.4"
    assert g.legal("Ben") == [C.Refuse(player="Ben")]
    g.do(C.Refuse(player="Ben"))
    assert g.hand("Ann") == ["bag-key"] and g.hand("Ben") == ["bag-goblet"]
    assert g.view(None)["turn"] == "Ben" and g.state.top["kind"] == "turn"


def test_castle_4_4_accepted_bag_needs_a_non_bag_back_and_5_1_draw():
    items = [["bag-key"], ["bag-goblet"], ["privilege"], ["monocle"]]
    g = four(items, pile=["key-1", "goblet-1"])
    draw_by_tie(g, "Ann", "Cid")  # Ann: bag-key, key-1
    end_turn_by_passing(g, "Ben")
    draw_by_tie(g, "Ben", "Dora")  # Ben: bag-goblet, goblet-1
    end_turn_by_passing(g, "Ann")
    g.do(C.Trade(player="Ann", to="Ben", item="bag-key"))
    assert g.refused(C.Accept(player="Ben", item="bag-goblet")).rule == "CASTLE-4.4"
    (done,) = g.do(C.Accept(player="Ben", item="goblet-1"))
    # CASTLE-5.1: the table learns that a bag moved, not which
    assert done.offered_named == "bag" and RULES.redact(done, 2).offered is None
    assert g.waiting() == ["Ann"]
    top = g.state.pile[0]
    drawn = g.do(C.Choose(player="Ann", option="draw"))[0]
    assert drawn.item == top and top in g.hand("Ann")
    assert RULES.redact(drawn, 1).item is None


def test_castle_4_5_effect_cards_are_named_others_move_silently():
    g = four()
    (done,) = g.play(C.Trade(player="Ann", to="Dora", item="privilege"),
                     C.Accept(player="Dora", item="monocle"))[-1:]
    assert (done.offered_named, done.returned_named) == ("privilege", "monocle")
    items = [["key-1"], ["bag-goblet"], ["bag-key"], ["goblet-1"]]
    g = four(items)
    done = g.play(C.Trade(player="Ann", to="Dora", item="key-1"),
                  C.Accept(player="Dora", item="goblet-1"))[1]
    assert done.offered_named is None and done.returned_named is None
    assert g.view(None)["turn"] == "Ben"


def test_castle_4_6_offered_effect_first_then_returned_5_2_5_3():
    """Ann gives the monocle, Dora gives back the privilege: Ann's monocle look comes first,
    then Dora looks at Ann's items (as they are after the trade)."""
    items = [["monocle"], ["bag-goblet"], ["bag-key"], ["privilege"]]
    g = four(items)
    g.play(C.Trade(player="Ann", to="Dora", item="monocle"),
           C.Accept(player="Dora", item="privilege"))
    assert g.waiting() == ["Ann"] and g.state.top["effect"] == "monocle"
    (seen,) = g.do(C.Choose(player="Ann", option="look"))
    assert isinstance(seen, E.SocietySeen) and seen.society == "brotherhood"
    assert RULES.redact(seen, 1).society is None
    assert g.seat_view(0)["players"][3]["society"] == "brotherhood"
    assert g.waiting() == ["Dora"] and g.state.top["effect"] == "privilege"
    (seen,) = g.do(C.Choose(player="Dora", option="look"))[:1]
    assert isinstance(seen, E.ItemsSeen) and seen.items == ["privilege"]
    assert g.view(None)["turn"] == "Ben"


def test_castle_4_6_monocle_returned_for_privilege_both_looks_in_order():
    """CASTLE-5.2, CASTLE-5.3. The privilege offered, the monocle returned: Ann looks at Cid's
    items, then Cid at Ann's society."""
    items = [["privilege"], ["bag-goblet"], ["monocle"], ["bag-key"]]
    g = four(items)
    new = g.play(C.Trade(player="Ann", to="Cid", item="privilege"),
                 C.Accept(player="Cid", item="monocle"),
                 C.Choose(player="Ann", option="look"), C.Choose(player="Cid", option="look"))
    looks = [e for e in new if isinstance(e, (E.ItemsSeen, E.SocietySeen))]
    assert [(type(e).__name__, e.viewer, e.owner) for e in looks] == [
        ("ItemsSeen", 0, 2), ("SocietySeen", 2, 0)]
    assert looks[0].items == ["privilege"] and looks[1].society == "order"


def test_castle_4_6_effects_are_optional():
    g = four()
    g.play(C.Trade(player="Ann", to="Dora", item="privilege"),
           C.Accept(player="Dora", item="monocle"))
    (skip,) = g.do(C.Choose(player="Ann", option="skip"))
    assert isinstance(skip, E.EffectDeclined)
    assert not any(isinstance(e, E.ItemsSeen) for e in g.events)


@pytest.mark.parametrize("last", [True, False])
def test_castle_4_6_sextant_resolves_last(last):
    items = [["bag-key"], ["bag-goblet"], ["key-1"], ["privilege"]]
    g = four(items, pile=["sextant"], house={"sextant_last": last})
    draw_by_tie(g, "Ann", "Ben")
    end_turn_by_passing(g, "Ann")
    g.play(C.Trade(player="Ann", to="Dora", item="sextant"),
           C.Accept(player="Dora", item="privilege"))
    assert g.state.top["effect"] == ("privilege" if last else "sextant")


def test_castle_4_7_case_c_broken_mirror_silences_the_trade():
    """CASTLE-5.8. Worked case C: Ann offers the broken mirror, Dora returns the monocle: nobody
    looks, neither card is named."""
    items = [["bag-key"], ["bag-goblet"], ["key-1"], ["monocle"]]
    g = four(items, pile=["broken-mirror"])
    draw_by_tie(g, "Ann", "Ben")
    end_turn_by_passing(g, "Ann")
    new = g.play(C.Trade(player="Ann", to="Dora", item="broken-mirror"),
                 C.Accept(player="Dora", item="monocle"))
    done = new[1]
    assert done.offered_named is None and done.returned_named is None
    assert isinstance(new[-1], E.TurnStarted) and g.view(None)["turn"] == "Ben"
    assert "monocle" in g.hand("Ann") and "broken-mirror" in g.hand("Dora")


def test_castle_5_4_tome_swaps_professions_fresh():
    """Ann uses her clairvoyant (spent), then trades the tome to Ben: they swap, each learns the
    other's, and Ben's clairvoyant is fresh again (CASTLE-6.9)."""
    seats = [("order", "clairvoyant", ["bag-key"]), ("brotherhood", "thug", ["bag-goblet"]),
             ("order", "doctor", ["privilege"]), ("brotherhood", "duelist", ["monocle"])]
    g = game(seats, pile=["key-1", "key-2", "tome"])
    g.do(C.Clairvoyant(player="Ann"))
    g.do(C.Arrange(player="Ann", top=["tome", "key-1"]))
    assert g.state.pile[:2] == ["tome", "key-1"] and g.state.prof_used[0]
    tie_fight(g, "Ann", "Ben")
    assert "tome" in g.hand("Ann")
    end_turn_by_passing(g, "Ann")
    g.play(C.Trade(player="Ann", to="Ben", item="tome"), C.Accept(player="Ben", item="bag-goblet"))
    (swap,) = g.do(C.Choose(player="Ann", option="swap"))[:1]
    assert isinstance(swap, E.ProfessionsSwapped)
    assert g.state.professions[:2] == ["thug", "clairvoyant"]
    assert g.state.prof_used[:2] == [False, False]
    assert RULES.redact(swap, 2).first_now is None
    assert g.seat_view(0)["players"][1]["profession"] == "clairvoyant"
    assert g.seat_view(1)["players"][0]["profession"] == "thug"
    assert g.seat_view(2)["players"][0]["profession"] is None
    # Ben gave back a bag: his effect comes after Ann's tome (4.6)
    assert g.waiting() == ["Ben"] and g.state.top["effect"] == "bag"
    g.do(C.Choose(player="Ben", option="skip"))
    end_turn_by_passing(g, "Ben")
    assert C.Clairvoyant(player="Ben") in g.legal("Ben")


def test_castle_5_5_coat_takes_a_profession_from_the_pile():
    items = [["bag-key"], ["bag-goblet"], ["key-1"], ["privilege"]]
    g = four(items, pile=["coat"])
    draw_by_tie(g, "Ann", "Ben")
    end_turn_by_passing(g, "Ann")
    new = g.play(C.Trade(player="Ann", to="Dora", item="coat"),
                 C.Accept(player="Dora", item="privilege"))
    seen = [e for e in new if isinstance(e, E.ProfessionPileSeen)]
    assert seen and sorted(seen[0].pile) == sorted(g.state.prof_pile)
    assert RULES.redact(seen[0], 1).pile is None
    opts = {c.option for c in g.legal("Ann")}
    assert "bodyguard" in opts and "skip" in opts and "thug" not in opts
    g.do(C.Choose(player="Ann", option="bodyguard"))
    assert g.state.professions[0] == "bodyguard" and "priest" in g.state.prof_pile
    assert "bodyguard" not in g.state.prof_pile


def test_castle_5_6_sextant_everyone_passes_one_item():
    """CASTLE-5.6; CASTLE-4.8: the items passed fire no effect.  With the house option
    sextant_last (CASTLE-4.6, default off) Dora's privilege resolves before Ann's sextant."""
    items = [["bag-key"], ["bag-goblet"], ["key-1"], ["privilege"]]
    g = four(items, pile=["sextant"], house={"sextant_last": True})
    draw_by_tie(g, "Ann", "Ben")
    end_turn_by_passing(g, "Ann")
    g.play(C.Trade(player="Ann", to="Dora", item="sextant"),
           C.Accept(player="Dora", item="privilege"),
           C.Choose(player="Dora", option="skip"))
    g.do(C.Choose(player="Ann", option="left"))
    assert sorted(g.waiting()) == ["Ann", "Ben", "Cid", "Dora"]
    assert g.refused(C.Give(player="Ben", item="bag-goblet", to="Ann")).rule == "CASTLE-5.6"
    g.play(C.Give(player="Ann", item="privilege", to="Ben"),
           C.Give(player="Ben", item="bag-goblet", to="Cid"),
           C.Give(player="Cid", item="key-1", to="Dora"))
    new = g.do(C.Give(player="Dora", item="sextant", to="Ann"))
    passed = new[1]
    assert isinstance(passed, E.SextantPassed)
    assert g.hand("Ann") == ["bag-key", "sextant"] and g.hand("Ben") == ["privilege"]
    assert g.hand("Cid") == ["bag-goblet"] and g.hand("Dora") == ["key-1"]
    # Ben sees what he gave and what he got, nothing else
    assert RULES.redact(passed, 1).items == ["privilege", "bag-goblet", None, None]
    assert RULES.redact(passed, PUBLIC).items == [None] * 4
    assert not any(isinstance(e, E.ItemsSeen) for e in new)  # no effect fired (4.8)


def test_castle_10_1_smuggling_keeps_an_effect_silent():
    g = four(variants=["smuggling"])
    new = g.play(C.Trade(player="Ann", to="Dora", item="privilege", silent=True),
                 C.Accept(player="Dora", item="monocle"))
    done = new[1]
    assert done.offered_named is None and done.returned_named == "monocle"
    assert RULES.redact(new[0], 2).silent is None
    assert g.waiting() == ["Dora"]  # only the monocle fires
    g2 = four()
    assert g2.refused(C.Trade(player="Ann", to="Dora", item="privilege",
                              silent=True)).rule == "CASTLE-10.1"


def test_castle_3_3_hand_limit_give_away_without_effect():
    """5 players (limit 5): Ann draws by ties until she holds 6 and must give one away; the
    receiver cannot refuse and no effect fires (CASTLE-3.3, 4.8)."""
    seats = [("order", "priest", ["bag-key"]), ("brotherhood", "thug", ["bag-goblet"]),
             ("order", "doctor", ["key-1"]), ("brotherhood", "duelist", ["goblet-1"]),
             ("brotherhood", "hypnotist", ["dagger"])]
    g = game(seats, pile=["privilege", "monocle", "key-2", "key-3", "goblet-2"], set_aside="order")
    for _ in range(4):
        end_turn_by_passing(g, "Ann")
        tie_fight(g, "Ann", "Ben")
        assert g.state.count(0) <= 5
    end_turn_by_passing(g, "Ann")
    tie_fight(g, "Ann", "Ben")
    assert g.state.count(0) == 6
    assert any(isinstance(e, E.HandLimitExceeded) for e in g.events[-3:])
    assert g.waiting() == ["Ann"] and g.state.top["kind"] == "limit"
    assert g.refused(C.Pass(player="Ann")).rule == "CASTLE-3.3"
    assert g.refused(C.Pass(player="Ben")).rule == "CASTLE-3.3"
    (given, started) = g.do(C.Give(player="Ann", item="privilege", to="Cid"))
    assert isinstance(given, E.ItemGiven) and RULES.redact(given, 1).item is None
    assert isinstance(started, E.TurnStarted)
    assert "privilege" in g.hand("Cid") and g.state.count(0) == 5
