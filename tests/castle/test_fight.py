"""CASTLE-6 and CASTLE-5.9 to 5.15: the fight and its windows."""

import pytest

from engine.game import PUBLIC
from engine.games.castle import RULES
from engine.games.castle import commands as C
from engine.games.castle import events as E

from .helpers import end_turn_by_passing, game

# Ann order, Ben brotherhood, Cid order, Dora brotherhood, Eve order, Fay brotherhood
SOCS = ["order", "brotherhood", "order", "brotherhood", "order", "brotherhood"]


def six(profs, items, pile=None, **opts):
    return game([(SOCS[i], profs[i], items[i]) for i in range(6)], pile=pile, **opts)


def fight(g, attacker, defender, sides=None, uses=None, hypnotise=None, stop=("doctor",)):
    """Attack and run the windows: ``sides`` {name: side} (default neutral); ``uses``
    {name: [power or (power, target)]} used in turn in the ability round; everything else
    passes.  Stops at a stage in ``stop`` or when the fight is over."""
    g.do(C.Attack(player=attacker, defender=defender))
    sides = sides or {}
    uses = {k: list(v) for k, v in (uses or {}).items()}
    for _ in range(300):
        f = g.state.fight()
        if f is None or f["stage"] in stop:
            return f
        who = g.names[f["ask"]]
        st = f["stage"]
        if st == "support":
            g.do(C.Support(player=who, side=sides.get(who, "neutral")))
        elif st == "hypnotist" and hypnotise == g.names[f["last_supporter"]]:
            g.do(C.Use(player=who, power="hypnotist"))
        elif st == "abilities" and uses.get(who):
            u = uses[who].pop(0)
            power, target = (u, None) if isinstance(u, str) else u
            g.do(C.Use(player=who, power=power, target=target))
        else:
            g.do(C.Pass(player=who))
    raise AssertionError("fight did not end")


def counted(g):
    return [e for e in g.events if isinstance(e, E.FightCounted)][-1]


BASE_PROFS = ["clairvoyant", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
BASE_ITEMS = [["bag-key"], ["bag-goblet"], ["casting-knives"], ["key-1"], ["goblet-1"],
              ["privilege"]]


def test_case_a_supporters_knives_and_bodyguard():
    """CASTLE-1.5 (support declarations stand for the person cards). Worked case A: S1, S2
    support A, S2 shows knives; S3 supports D with the bodyguard:
    A = 1 + 2 + 1 = 4, D = 1 + 1 + 1 = 3; A wins and chooses (CASTLE-6.3, 6.5, 6.6, 6.8)."""
    g = six(BASE_PROFS, BASE_ITEMS)
    fight(g, "Ann", "Dora", sides={"Ben": "attacker", "Cid": "attacker", "Eve": "defender"},
          uses={"Cid": ["casting-knives"], "Eve": ["bodyguard"]}, stop=("choice",))
    c = counted(g)
    assert (c.attacker_total, c.defender_total, c.winner) == (4, 3, 0)
    assert g.waiting() == ["Ann"]
    new = g.do(C.Choose(player="Ann", option="look"))
    soc, prof = new[1], new[2]
    assert soc.society == "brotherhood" and prof.profession == "duelist"
    assert RULES.redact(soc, 1).society is None and RULES.redact(prof, PUBLIC).profession is None
    assert g.seat_view(0)["players"][3]["society"] == "brotherhood"
    assert g.seat_view(0)["players"][3]["profession"] == "duelist"
    assert g.view(None)["turn"] == "Ben"
    # the casting knives went back to Cid's hand (5.15)
    assert g.hand("Cid") == ["casting-knives"]


def test_castle_6_3_support_order_is_clockwise_and_public():
    g = six(BASE_PROFS, BASE_ITEMS)
    end_turn_by_passing(g, "Cid")
    g.do(C.Attack(player="Cid", defender="Ann"))
    asked = []
    while g.state.fight()["stage"] == "priest":
        who = g.waiting()[0]
        asked.append(who)
        g.do(C.Pass(player=who))
    assert asked == ["Dora", "Eve", "Fay", "Ann", "Ben"]  # 6.2: all but the attacker, from its left
    # CASTLE-6.5: attacker then defender may call a duel before the support round
    assert g.state.fight()["stage"] == "duel" and g.waiting() == ["Cid"]
    g.do(C.Pass(player="Cid"))
    g.do(C.Pass(player="Ann"))
    assert g.waiting() == ["Dora"]
    assert g.refused(C.Support(player="Eve", side="attacker")).rule == "CASTLE-6.3"
    (sup,) = g.do(C.Support(player="Dora", side="defender"))[:1]
    assert RULES.redact(sup, PUBLIC) == sup


def test_castle_6_2_priest_against_attacker_with_one_item():
    profs = ["clairvoyant", "priest", "doctor", "duelist", "bodyguard", "grand-master"]
    g = six(profs, BASE_ITEMS)
    g.do(C.Attack(player="Ann", defender="Dora"))
    assert g.waiting() == ["Ben"]
    new = g.do(C.Use(player="Ben", power="priest"))
    assert isinstance(new[-1], E.TurnStarted) and g.view(None)["turn"] == "Ben"
    assert g.hand("Ann") == ["bag-key"] and g.hand("Ben") == ["bag-goblet"]
    assert g.view(PUBLIC)["players"][1]["profession"] == "priest"


def test_castle_6_2_priest_against_attacker_with_two_items_and_6_9_once_only():
    seats = [("order", "clairvoyant", ["bag-key", "dagger"]),
             ("brotherhood", "priest", ["bag-goblet", "tome"]),
             ("order", "doctor", ["key-1", "gloves"])]
    g = game(seats, set_aside="brotherhood")
    g.do(C.Attack(player="Ann", defender="Cid"))
    g.do(C.Use(player="Ben", power="priest"))
    assert g.waiting() == ["Ann"]
    assert g.refused(C.Give(player="Ann", item="dagger", to="Cid")).rule == "CASTLE-6.2"
    new = g.do(C.Give(player="Ann", item="dagger", to="Ben"))
    assert new[0].reason == "priest" and RULES.redact(new[0], 2).item is None
    assert g.hand("Ann") == ["bag-key"] and "dagger" in g.hand("Ben")
    assert g.view(None)["turn"] == "Ben"
    end_turn_by_passing(g, "Cid")
    g.do(C.Attack(player="Cid", defender="Ann"))
    # Ben's priest is spent and public: he is not asked again (6.9, 6.10); Ann is
    assert g.state.fight()["stage"] == "priest" and g.state.fight()["queue"] == [0]


def test_castle_6_4_hypnotised_supporter_cannot_use_an_item():
    profs = ["hypnotist", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    items = [["bag-key"], ["bag-goblet"], ["key-1"], ["goblet-1"], ["whip"], ["privilege"]]
    g = six(profs, items)
    f = fight(g, "Ann", "Dora", sides={"Eve": "defender"}, hypnotise="Eve", stop=("abilities",))
    assert f["hypnotised"] == 4
    assert any(isinstance(e, E.PowerUsed) and e.power == "hypnotist" and e.target == 4
               for e in g.events)
    seen_asked = set()
    while g.state.fight() and g.state.fight()["stage"] == "abilities":
        who = g.waiting()[0]
        seen_asked.add(who)
        assert RULES.legal_commands(g.state, 4) == []
        assert g.refused(C.Use(player="Eve", power="whip")).rule == "CASTLE-6.4"
        g.do(C.Pass(player=who))
    assert "Eve" not in seen_asked
    c = counted(g)
    assert (c.attacker_total, c.defender_total) == (1, 1)


def test_castle_6_5_duelist_voids_two_supporters_and_knives():
    profs = ["clairvoyant", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    g = six(profs, BASE_ITEMS)
    fight(g, "Ann", "Dora", sides={"Ben": "attacker", "Cid": "attacker"},
          uses={"Cid": ["casting-knives"], "Dora": ["duelist"]}, stop=("doctor", "choice"))
    c = counted(g)
    assert (c.attacker_total, c.defender_total, c.winner) == (1, 2, 3)
    # after the duel Cid is no supporter: his knives cannot be used again
    assert g.state.fight()["duel"] == 3


def test_castle_6_5_late_poison_mixer_overruled_by_doctor():
    profs = ["clairvoyant", "diplomat", "doctor", "thug", "bodyguard", "poison-mixer"]
    items = [["dagger"], ["bag-goblet"], ["key-1"], ["bag-key"], ["goblet-1"], ["privilege"]]
    g = six(profs, items)
    fight(g, "Ann", "Dora", uses={"Ann": ["dagger"], "Fay": [("poison-mixer", "Dora")]})
    c = counted(g)
    assert (c.attacker_total, c.defender_total) == (2, 1)
    assert c.winner == 3 and c.by_poison_mixer
    # doctor window: clockwise from the attacker, face-down professions only
    while g.waiting() != ["Cid"]:
        g.do(C.Pass(player=g.waiting()[0]))
    new = g.do(C.Use(player="Cid", power="doctor"))
    assert not any(isinstance(e, (E.FightChoiceMade, E.ItemTaken, E.FightTied)) for e in new)
    assert isinstance(new[-1], E.TurnStarted) and g.view(None)["turn"] == "Ben"
    assert g.hand("Ann") == ["dagger"] and g.hand("Dora") == ["bag-key"]


def test_castle_6_6_tie_with_the_poison_ring_on_a_supporter():
    """Ben holds the poison ring but supports: he cannot use it; 2:2 is a tie and the
    attacker draws the top item of the pile."""
    profs = ["clairvoyant", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    items = [["bag-key"], ["poison-ring"], ["key-1"], ["bag-goblet"], ["goblet-1"], ["privilege"]]
    g = six(profs, items, pile=["monocle"])
    fight(g, "Ann", "Dora", sides={"Ben": "attacker", "Eve": "defender"}, stop=("abilities",))
    while g.waiting() != ["Ben"]:
        g.do(C.Pass(player=g.waiting()[0]))
    assert g.refused(C.Use(player="Ben", power="poison-ring")).rule == "CASTLE-5.11"
    g.pass_fight()
    c = counted(g)
    assert (c.attacker_total, c.defender_total, c.winner) == (2, 2, None)
    tied = g.last(E.FightTied)[-1]
    assert tied.drew and tied.item == "monocle" and "monocle" in g.hand("Ann")
    assert RULES.redact(tied, 1).item is None


def test_castle_5_11_poison_ring_wins_a_tie_for_the_attacker():
    profs = ["clairvoyant", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    items = [["poison-ring"], ["bag-key"], ["key-1"], ["bag-goblet"], ["goblet-1"], ["privilege"]]
    g = six(profs, items)
    fight(g, "Ann", "Dora", uses={"Ann": ["poison-ring"]}, stop=("choice",))
    c = counted(g)
    assert (c.attacker_total, c.defender_total, c.winner, c.by_poison_ring) == (1, 1, 0, True)


def test_castle_6_7_doctor_cancels_a_tie_draw_house_rule():
    profs = ["clairvoyant", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    for house, draws in ((True, False), (False, True)):
        g = six(profs, BASE_ITEMS, house={"doctor_cancels_tie_draw": house})
        fight(g, "Ann", "Dora")
        while g.waiting() != ["Cid"]:
            g.do(C.Pass(player=g.waiting()[0]))
        g.do(C.Use(player="Cid", power="doctor"))
        assert (g.state.count(0) == 2) == draws


def test_case_d_taking_the_losers_last_item():
    """Worked case D / CASTLE-6.8b, 3.4: the winner takes the loser's only item and gives one
    of their own back; the loser still holds one item."""
    profs = ["thug", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    items = [["bag-key"], ["bag-goblet"], ["key-1"], ["goblet-1"], ["monocle"], ["privilege"]]
    g = six(profs, items, pile=["dagger"])
    # first Ann gets a second item by a tie (so she has something to give back besides)
    fight(g, "Ann", "Ben", stop=())
    end_turn_by_passing(g, "Ann")
    fight(g, "Ann", "Dora", uses={"Ann": ["thug"]}, stop=("choice",))
    new = g.do(C.Choose(player="Ann", option="take"))
    choice, seen = new
    assert choice.choice == "take" and RULES.redact(choice, PUBLIC) == choice
    assert seen.items == ["goblet-1"] and RULES.redact(seen, 1).items is None
    assert g.refused(C.Take(player="Ann", item="goblet-1")).rule == "CASTLE-3.4"
    assert g.refused(C.Take(player="Ann", item="goblet-1", give_back="whip")).rule == "CASTLE-6.8"
    taken = g.do(C.Take(player="Ann", item="goblet-1", give_back="dagger"))[0]
    assert g.hand("Dora") == ["dagger"] and g.hand("Ann") == ["bag-key", "goblet-1"]
    assert RULES.redact(taken, 2).item is None and RULES.redact(taken, 3).given_back == "dagger"
    assert g.seat_view(2)["players"][3]["item_count"] == 1


def test_castle_6_8_take_from_a_loser_with_two_items_gives_nothing_back():
    profs = ["thug", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    g = six(profs, BASE_ITEMS, pile=["dagger"])
    end_turn_by_passing(g, "Dora")
    fight(g, "Dora", "Cid", stop=())  # tie: Dora draws the dagger
    end_turn_by_passing(g, "Ann")
    fight(g, "Ann", "Dora", uses={"Ann": ["thug"]}, stop=("choice",))
    g.do(C.Choose(player="Ann", option="take"))
    assert g.refused(C.Take(player="Ann", item="dagger", give_back="bag-key")).rule == "CASTLE-6.8"
    g.do(C.Take(player="Ann", item="dagger"))
    assert g.hand("Ann") == ["bag-key", "dagger"] and g.hand("Dora") == ["key-1"]


def test_castle_6_9_permanent_profession_reused_once_only_not():
    profs = ["thug", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    g = six(profs, BASE_ITEMS)
    fight(g, "Ann", "Dora", uses={"Ann": ["thug"]}, stop=("choice",))
    assert g.refused(C.Take(player="Ann", item="key-1")).rule == "CASTLE-6.8"
    g.do(C.Choose(player="Ann", option="look"))
    end_turn_by_passing(g, "Ann")
    fight(g, "Ann", "Ben", uses={"Ann": ["thug"]}, stop=("choice",))
    assert counted(g).attacker_total == 2
    g.do(C.Choose(player="Ann", option="look"))
    end_turn_by_passing(g, "Cid")
    fight(g, "Cid", "Dora", uses={"Dora": ["duelist"]}, stop=("choice",))
    g.do(C.Choose(player="Dora", option="look"))
    end_turn_by_passing(g, "Cid")
    g.do(C.Attack(player="Cid", defender="Dora"))
    g.pass_fight("abilities")
    while g.waiting() != ["Dora"]:
        g.do(C.Pass(player=g.waiting()[0]))
    assert g.refused(C.Use(player="Dora", power="duelist")).rule == "CASTLE-6.9"


@pytest.mark.parametrize("power, rule",
                         [("dagger", "CASTLE-5.9"), ("casting-knives", "CASTLE-5.12")])
def test_castle_5_9_5_12_items_only_for_their_side(power, rule):
    profs = ["clairvoyant", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    items = [["bag-key"], ["bag-goblet"], ["key-1"], [power], ["goblet-1"], ["privilege"]]
    g = six(profs, items)
    fight(g, "Ann", "Dora", stop=("abilities",))
    while g.waiting() != ["Dora"]:
        g.do(C.Pass(player=g.waiting()[0]))
    assert g.refused(C.Use(player="Dora", power=power)).rule == rule


def test_castle_5_15_item_shown_once_per_fight():
    profs = ["clairvoyant", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    items = [["dagger"], ["bag-goblet"], ["key-1"], ["bag-key"], ["goblet-1"], ["privilege"]]
    g = six(profs, items)
    fight(g, "Ann", "Dora", stop=("abilities",))
    g.do(C.Use(player="Ann", power="dagger"))
    g.do(C.Pass(player=g.waiting()[0]))
    while g.state.fight()["stage"] == "abilities" and g.waiting() != ["Ann"]:
        g.do(C.Pass(player=g.waiting()[0]))
    assert g.refused(C.Use(player="Ann", power="dagger")).rule == "CASTLE-5.15"


def test_castle_6_10_windows_do_not_depend_on_who_holds_what():
    """The same fight with the dagger in different hands asks the same seats in the same order."""
    profs = ["clairvoyant", "diplomat", "doctor", "duelist", "bodyguard", "grand-master"]
    runs = []
    for items in ([["dagger"], ["bag-goblet"], ["key-1"], ["bag-key"], ["goblet-1"], ["privilege"]],
                  [["key-1"], ["bag-goblet"], ["dagger"], ["bag-key"], ["goblet-1"],
                   ["privilege"]]):
        g = six(profs, items)
        g.do(C.Attack(player="Ann", defender="Dora"))
        asked = []
        while g.state.fight():
            f = g.state.fight()
            asked.append((f["stage"], g.waiting()))
            who = g.waiting()[0]
            if f["stage"] == "support":
                g.do(C.Support(player=who, side="attacker" if who == "Cid" else "neutral"))
            elif f["stage"] == "choice":
                g.do(C.Choose(player=who, option="look"))
            else:
                g.do(C.Pass(player=who))
        runs.append(asked)
    assert runs[0] == runs[1]
