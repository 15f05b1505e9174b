"""The corrected rules text (docs/rules/castle.md, issue 10), one test per changed rule id.

Every game here starts from a position (engine.games.castle.position, the format of
``devil new castle --position FILE``); the outcomes are worked by hand from the new text in
the comments.  Seats are clockwise in the order written; "left" is the next seat clockwise.
"""

import pytest

from engine.chance import SeededChance
from engine.errors import UsageError
from engine.game import PUBLIC
from engine.games.castle import RULES
from engine.games.castle import commands as C
from engine.games.castle import events as E

from .helpers import check_views, from_position, position


def run_fight(g, uses=None, sides=None, duel=(), stop=("choice",)):
    """Drive the open fight: ``sides`` {name: side} (default neutral), ``uses`` {name: power}
    used once when that player is first asked in the ability round, ``duel`` names who calls
    a duel in the duel window; everyone else passes.  Stops at a stage in ``stop``."""
    uses = dict(uses or {})
    sides = sides or {}
    for _ in range(200):
        f = g.state.fight()
        if f is None or f["stage"] in stop:
            return f
        who = g.waiting()[0]
        if f["stage"] == "support":
            g.do(C.Support(player=who, side=sides.get(who, "neutral")))
        elif f["stage"] == "duel" and who in duel:
            g.do(C.Use(player=who, power="duelist"))
        elif f["stage"] == "abilities" and who in uses:
            g.do(C.Use(player=who, power=uses.pop(who)))
        else:
            g.do(C.Pass(player=who))
    raise AssertionError("the fight did not end")


FOUR = {"Ann": ("order", "thug", ["sextant", "key-1"]),
        "Ben": ("brotherhood", "doctor", ["goblet-1"]),
        "Cid": ("order", "priest", ["dagger"]),
        "Dora": ("brotherhood", "bodyguard", ["privilege", "gloves"])}


# -- CASTLE-4.6 -----------------------------------------------------------------------------------

def test_castle_4_6_sextant_offered_by_the_active_player_resolves_before_the_privilege():
    """Ann (active) offers the sextant, Dora hands back the privilege.  4.6: the card the active
    player gave away resolves first, no sextant exception: Ann turns the sextant first, the
    items go round, then Dora's privilege looks at Ann's hand as it is after the passes."""
    g = from_position(position(FOUR, active="Ann"))
    g.play(C.Trade(player="Ann", to="Dora", item="sextant"),
           C.Accept(player="Dora", item="privilege"))
    done = g.last(E.TradeCompleted)[0]
    assert (done.offered_named, done.returned_named) == ("sextant", "privilege")
    assert g.waiting() == ["Ann"] and g.state.top["effect"] == "sextant"
    g.do(C.Choose(player="Ann", option="left"))
    # left = clockwise: Ann -> Ben -> Cid -> Dora -> Ann
    g.play(C.Give(player="Ann", item="privilege", to="Ben"),
           C.Give(player="Ben", item="goblet-1", to="Cid"),
           C.Give(player="Cid", item="dagger", to="Dora"))
    g.do(C.Give(player="Dora", item="sextant", to="Ann"))
    assert g.hand("Ann") == ["key-1", "sextant"] and g.hand("Dora") == ["dagger", "gloves"]
    assert g.waiting() == ["Dora"] and g.state.top["effect"] == "privilege"
    (seen,) = g.do(C.Choose(player="Dora", option="look"))[:1]
    assert seen.items == ["key-1", "sextant"] and seen.owner == 0
    # CASTLE-11.1: each seat learned the card the sextant passed it
    assert {"about": "Ann", "what": "received-item", "value": "privilege", "reason": "sextant",
            "turn": 1} in g.view(1)["knowledge"]
    check_views(g.events, g.state)


def test_castle_4_6_sextant_last_is_a_house_option_default_off():
    g = from_position(position(FOUR, active="Ann"))
    assert g.state.house["sextant_last"] is False
    g = from_position(position(FOUR, active="Ann", house={"sextant_last": True}))
    g.play(C.Trade(player="Ann", to="Dora", item="sextant"),
           C.Accept(player="Dora", item="privilege"))
    assert g.waiting() == ["Dora"] and g.state.top["effect"] == "privilege"


DIPLO = {"Ann": ("order", "diplomat", ["monocle", "key-1"]),
         "Ben": ("brotherhood", "thug", ["privilege", "goblet-1"]),
         "Cid": ("order", "doctor", ["dagger"]),
         "Dora": ("brotherhood", "priest", ["gloves"])}


def test_castle_4_6_and_4_8_the_diplomats_card_resolves_first_in_the_diplomats_exchange():
    """7.3: Ann (Diplomat) demands a privilege from Ben, who holds one; Ann hands back the
    monocle.  4.8: a trade, both effects fire; 4.6: the Diplomat is the active player, so her
    monocle first (she sees Ben's society), then Ben's privilege (he sees Ann's items: key-1
    and the privilege she just got)."""
    g = from_position(position(DIPLO, active="Ann"))
    g.play(C.Diplomat(player="Ann", target="Ben", kind="privilege"),
           C.Give(player="Ben", item="privilege", to="Ann"),
           C.Give(player="Ann", item="monocle", to="Ben"))
    done = g.last(E.TradeCompleted)[0]
    assert done.diplomat and (done.offered_named, done.returned_named) == ("privilege", "monocle")
    assert g.waiting() == ["Ann"] and g.state.top["effect"] == "monocle"
    (soc,) = g.do(C.Choose(player="Ann", option="look"))[:1]
    assert (soc.owner, soc.society) == (1, "brotherhood")
    assert g.waiting() == ["Ben"] and g.state.top["effect"] == "privilege"
    (seen,) = g.do(C.Choose(player="Ben", option="look"))[:1]
    assert (seen.owner, seen.items) == (0, ["key-1", "privilege"])
    assert g.waiting() == ["Ann"] and g.state.top["kind"] == "turn"  # 3.2: still her action


def test_castle_4_6_old_logs_keep_the_target_card_first():
    """Under the old text (castle-2006) the target's card resolved first."""
    g = from_position(position(DIPLO, active="Ann"), rules="castle-2006")
    g.play(C.Diplomat(player="Ann", target="Ben", kind="privilege"),
           C.Give(player="Ben", item="privilege", to="Ann"),
           C.Give(player="Ann", item="monocle", to="Ben"))
    assert g.waiting() == ["Ben"] and g.state.top["effect"] == "privilege"


# -- CASTLE-7.3 -----------------------------------------------------------------------------------

def test_castle_7_3_a_diplomat_may_name_the_only_kind_it_holds():
    """Ann's only item is the dagger; she names dagger of Ben (any kind may be named).  Ben
    holds none: he shows her his items and her turn ends."""
    seats = {"Ann": ("order", "diplomat", ["dagger"]), "Ben": ("brotherhood", "thug", ["goblet-1"]),
             "Cid": ("order", "doctor", ["key-1"]), "Dora": ("brotherhood", "priest", ["gloves"])}
    g = from_position(position(seats, active="Ann"))
    assert C.Diplomat(player="Ann", target="Ben", kind="dagger") in g.legal("Ann")
    used, seen, started = g.do(C.Diplomat(player="Ann", target="Ben", kind="dagger"))
    assert not used.holds and seen.items == ["goblet-1"] and seen.viewer == 0
    assert isinstance(started, E.TurnStarted) and started.player == 1
    # the old text refused it (citing CASTLE-4.4): old logs keep that
    old = from_position(position(seats, active="Ann"), rules="castle-2006")
    assert old.refused(C.Diplomat(player="Ann", target="Ben", kind="dagger")).rule == "CASTLE-4.4"


# -- CASTLE-6.4, 6.5 -------------------------------------------------------------------------------

SIX = {"Ann": ("order", "hypnotist", ["key-1"]), "Ben": ("brotherhood", "thug", ["goblet-1"]),
       "Cid": ("order", "doctor", ["casting-knives"]), "Dora": ("brotherhood", "priest", ["whip"])}


def test_castle_6_4_only_a_player_who_declared_for_a_side_can_be_hypnotised():
    g = from_position(position(SIX, active="Ann"))
    g.do(C.Attack(player="Ann", defender="Ben"))
    run_fight(g, stop=("support",))
    g.do(C.Support(player="Cid", side="neutral"))
    assert g.state.fight()["stage"] == "support" and g.waiting() == ["Dora"]  # no window
    g.do(C.Support(player="Dora", side="defender"))
    assert g.state.fight()["stage"] == "hypnotist" and g.waiting() == ["Ann"]
    g.do(C.Use(player="Ann", power="hypnotist"))
    f = g.state.fight()
    assert f["hypnotised"] == 3
    # Dora, hypnotised, may use nothing: the refusal cites CASTLE-6.4
    assert g.refused(C.Use(player="Dora", power="whip")).rule == "CASTLE-6.4"
    run_fight(g, stop=("doctor",))
    counted = g.last(E.FightCounted)[0]
    assert (counted.attacker_total, counted.defender_total) == (1, 1)
    assert E.CountPart(side="defender", source="support", player=3, value=0,
                       void="hypnotist") in counted.parts


DUEL = {"Ann": ("order", "duelist", ["key-1"]), "Ben": ("brotherhood", "thug", ["goblet-1"]),
        "Cid": ("brotherhood", "doctor", ["whip"]), "Dora": ("order", "priest", ["dagger"])}


@pytest.mark.parametrize("bonus", [True, False])
def test_castle_6_5_duel_called_before_the_support_round_skips_it(bonus):
    """After the priest window the attacker (then the defender) may call a duel: the support
    round is skipped.  Count: A = 1 + duelist 1 (option duelist_bonus, default on) = 2,
    D = 1: Ann wins; without the bonus 1:1, a tie."""
    g = from_position(position(DUEL, active="Ann", house={"duelist_bonus": bonus}))
    g.do(C.Attack(player="Ann", defender="Ben"))
    run_fight(g, stop=("duel",))
    assert g.waiting() == ["Ann"]
    g.do(C.Use(player="Ann", power="duelist"))
    run_fight(g, stop=("choice", "tie"))
    assert not g.last(E.SupportDeclared)
    counted = g.last(E.FightCounted)[0]
    assert (counted.attacker_total, counted.defender_total) == ((2, 1) if bonus else (1, 1))
    assert counted.parts[-1] == E.CountPart(side="attacker", source="duelist", player=0,
                                            value=1 if bonus else 0,
                                            void=None if bonus else "no-bonus")


def duel_after_a_supporter_and_his_whip():
    """The DUEL position: Ann attacks Ben, Cid supports the defender and shows his whip in the
    ability round, then Ann calls the duel; played on to the winner's choice."""
    g = from_position(position(DUEL, active="Ann"))
    g.do(C.Attack(player="Ann", defender="Ben"))
    run_fight(g, sides={"Cid": "defender"}, stop=("abilities",))
    while g.waiting() != ["Cid"]:
        g.do(C.Pass(player=g.waiting()[0]))
    g.do(C.Use(player="Cid", power="whip"))
    while g.waiting() != ["Ann"]:
        g.do(C.Pass(player=g.waiting()[0]))
    g.do(C.Use(player="Ann", power="duelist"))
    run_fight(g, stop=("choice",))
    return g


def test_castle_6_5_duelist_still_usable_in_the_ability_round_after_supports():
    """Cid supports the defender with his whip shown; Ann then calls the duel: the support
    and the whip are void (A = 1 + 1 = 2, D = 1)."""
    g = duel_after_a_supporter_and_his_whip()
    counted = g.last(E.FightCounted)[0]
    assert (counted.attacker_total, counted.defender_total, counted.winner) == (2, 1, 0)
    voids = {(p.source, p.void) for p in counted.parts if p.value == 0}
    assert voids == {("support", "duel"), ("whip", "duel")}


# -- CASTLE-6.6 -----------------------------------------------------------------------------------

def test_castle_6_6_a_tie_draw_that_empties_the_pile_turns_the_bags_at_once():
    seats = {"Ann": ("order", "thug", ["bag-key", "key-1", "key-2", "key-3", "goblet-1"]),
             "Ben": ("brotherhood", "doctor",
                     ["bag-goblet", "goblet-2", "goblet-3", "dagger", "gloves"]),
             "Cid": ("order", "priest",
                     ["poison-ring", "casting-knives", "whip", "privilege", "tome"]),
             "Dora": ("brotherhood", "bodyguard",
                      ["monocle", "black-pearl", "broken-mirror", "coat-of-arms", "sextant"])}
    g = from_position(position(seats, pile=["coat"], active="Ann"))
    g.do(C.Attack(player="Ann", defender="Ben"))
    new = []
    for _ in range(30):
        if g.state.fight() is None:
            break
        new += g.do(C.Pass(player=g.waiting()[0]) if g.state.fight()["stage"] != "support"
                    else C.Support(player=g.waiting()[0], side="neutral"))
    kinds = [type(e).__name__ for e in new]
    tied = kinds.index("FightTied")
    assert kinds[tied + 1] == "BagsTurned"  # at once, before anything else (9.3)
    assert "coat" in g.hand("Ann") and g.state.bags_turned


# -- CASTLE-6.8 -----------------------------------------------------------------------------------

TAKE = {"Ann": ("order", "thug", ["key-1", "dagger"]),
        "Ben": ("brotherhood", "doctor", ["goblet-1", "gloves"]),
        "Cid": ("order", "priest", ["whip"]), "Dora": ("brotherhood", "bodyguard", ["privilege"])}


def test_castle_6_8_the_winner_may_take_none():
    """Ann attacks Ben and uses her thug: 2:1 (the dagger unshown).  She chooses take, sees
    Ben's goblet-1 and gloves, and takes nothing: every hand stays as it was."""
    g = from_position(position(TAKE, active="Ann"))
    g.do(C.Attack(player="Ann", defender="Ben"))
    run_fight(g, uses={"Ann": "thug"})
    g.do(C.Choose(player="Ann", option="take"))
    assert C.Take(player="Ann", item=None) in g.legal("Ann")
    (taken,) = g.do(C.Take(player="Ann"))[:1]
    assert taken.took is False and RULES.redact(taken, PUBLIC).took is False
    assert g.hand("Ann") == ["dagger", "key-1"] and g.hand("Ben") == ["gloves", "goblet-1"]
    assert g.view(None)["turn"] == "Ben"
    # the old text: a take was compulsory
    old = from_position(position(TAKE, active="Ann"), rules="castle-2006")
    old.do(C.Attack(player="Ann", defender="Ben"))
    run_fight(old, uses={"Ann": "thug"})
    old.do(C.Choose(player="Ann", option="take"))
    assert old.refused(C.Take(player="Ann")).rule == "CASTLE-6.8"


def test_castle_6_8_the_item_just_taken_may_be_given_back():
    seats = dict(TAKE, Ben=("brotherhood", "doctor", ["goblet-1"]),
                 Dora=("brotherhood", "bodyguard", ["privilege", "gloves"]))
    g = from_position(position(seats, active="Ann"))
    g.do(C.Attack(player="Ann", defender="Ben"))
    run_fight(g, uses={"Ann": "thug"})
    g.do(C.Choose(player="Ann", option="take"))
    g.do(C.Take(player="Ann", item="goblet-1", give_back="goblet-1"))
    assert g.hand("Ben") == ["goblet-1"] and g.hand("Ann") == ["dagger", "key-1"]


# -- CASTLE-7.1, 7.2: a physical Clairvoyant and reported draws -----------------------------------

CLAIR = {"Ann": ("order", "clairvoyant", ["bag-key", "key-1", "key-2", "key-3", "goblet-1"]),
         "Ben": ("brotherhood", "thug", ["bag-goblet", "goblet-2", "goblet-3", "dagger", "gloves"]),
         "Cid": ("order", "doctor", ["poison-ring", "casting-knives", "whip", "privilege"]),
         "Dora": ("brotherhood", "priest",
                  ["monocle", "black-pearl", "broken-mirror", "coat-of-arms"])}


def tie(g, attacker, defender):
    g.do(C.Attack(player=attacker, defender=defender))
    run_fight(g, stop=())


def test_castle_7_1_physical_clairvoyant_then_a_reported_draw_not_in_the_pile_is_refused():
    """A physical game whose pile (tome, coat, sextant) is known only as a set.  Ann's
    Clairvoyant puts sextant, tome on top: the engine knows those two in order and the rest
    (the coat) only as a set.  Three tie draws: Ann draws the sextant and Ben the tome with
    nothing reported; Cid's draw must be reported: the tome (now Ben's) and the dagger are
    refused (CASTLE-7.1), the coat is accepted, and the bags turn at once."""
    g = from_position(position(CLAIR, ordered=False, active="Ann"))
    assert g.state.physical and g.view(None)["pile_order_known"] == 0
    (used,) = g.do(C.Clairvoyant(player="Ann"))
    assert sorted(used.pile) == ["coat", "sextant", "tome"]
    (arranged,) = g.do(C.Arrange(player="Ann", top=["sextant", "tome"]))[:1]
    assert arranged.known == 2 and arranged.pile[:2] == ["sextant", "tome"]
    # 7.2: the Clairvoyant learns the two on top in order and the set of the rest
    facts = {f["what"]: f["value"] for f in g.view(0)["knowledge"]}
    assert facts["pile-top"] == ["sextant", "tome"]
    assert sorted(facts["pile"]) == ["coat", "sextant", "tome"]
    tie(g, "Ann", "Ben")
    assert "sextant" in g.hand("Ann")
    tie(g, "Ben", "Cid")
    assert "tome" in g.hand("Ben")
    g.do(C.Attack(player="Cid", defender="Dora"))
    run_fight(g, stop=())
    assert g.state.top["kind"] == "draw" and g.waiting() == ["Cid"]
    assert isinstance(g.events[-1], E.DrawAwaited) and g.events[-1].reason == "tie"
    assert g.refused(C.Draw(player="Cid", item="tome")).rule == "CASTLE-7.1"
    assert g.refused(C.Draw(player="Cid", item="dagger")).rule == "CASTLE-7.1"
    new = g.do(C.Draw(player="Cid", item="coat"))
    assert [type(e).__name__ for e in new[:2]] == ["ItemDrawn", "BagsTurned"]
    assert RULES.redact(new[0], 0).item is None and "coat" in g.hand("Cid")
    check_views(g.events, g.state)


def test_castle_7_1_digital_clairvoyant_rest_is_reshuffled_and_old_physical_logs_keep_the_order():
    g = from_position(position(CLAIR, active="Ann", pile=["tome", "coat", "sextant"]),
                      chance=SeededChance(11, "ab"))
    g.play(C.Clairvoyant(player="Ann"), C.Arrange(player="Ann", top=["coat", "tome"]))
    assert g.state.pile == ["coat", "tome", "sextant"] and g.state.pile_known == 3
    old = from_position(position(CLAIR, active="Ann", pile=["tome", "coat", "sextant"]),
                        rules="castle-2006")
    old.play(C.Clairvoyant(player="Ann"), C.Arrange(player="Ann", top=["sextant", "coat"]))
    assert old.state.pile == ["sextant", "coat", "tome"] and old.state.pile_known == 3


def test_castle_7_1_a_physical_bag_draw_is_reported():
    seats = {"Ann": ("order", "thug", ["bag-key", "key-1"]),
             "Ben": ("brotherhood", "doctor", ["dagger"]),
             "Cid": ("order", "priest", ["whip"]), "Dora": ("brotherhood", "bodyguard", ["gloves"])}
    g = from_position(position(seats, ordered=False, active="Ann"))
    g.play(C.Trade(player="Ann", to="Ben", item="bag-key"), C.Accept(player="Ben", item="dagger"))
    (awaited,) = g.do(C.Choose(player="Ann", option="draw"))
    assert awaited == E.DrawAwaited(player=0, reason="bag")
    assert g.refused(C.Draw(player="Ann", item="whip")).rule == "CASTLE-7.1"
    g.do(C.Draw(player="Ann", item="tome"))
    assert g.hand("Ann") == ["dagger", "key-1", "tome"]
    assert {"about": None, "what": "drawn-item", "value": "tome", "reason": "bag", "turn": 1} \
        in g.view(0)["knowledge"]


# -- CASTLE-9.1, 9.3, 9.4, 9.5 ---------------------------------------------------------------------

def five(ann, cid, ben=("goblet-1",), dora=("dagger",), eve=("gloves",), **extra):
    """5 players, the set-aside card the order's: the order (Ann, Cid) is the smaller society."""
    seats = {"Ann": ("order", "thug", list(ann)), "Ben": ("brotherhood", "doctor", list(ben)),
             "Cid": ("order", "priest", list(cid)),
             "Dora": ("brotherhood", "bodyguard", list(dora)),
             "Eve": ("brotherhood", "grand-master", list(eve))}
    return from_position(position(seats, set_aside="order", **extra))


def test_castle_9_1_a_drink_and_an_allys_relics_are_not_enough_to_declare():
    """Ann (smaller society, with her drink) holds no key herself; Cid holds two.  9.1(a): the
    declarer must hold a relic herself, and the drink never meets that: refused."""
    g = five(ann=["whip"], cid=["key-1", "key-2"], active="Ann")
    exc = g.refused(C.Declare(player="Ann", allies=["Cid"]))
    assert exc.rule == "CASTLE-9.1" and "Drink of Power" in str(exc)


def test_castle_9_4_the_smaller_societys_drink_counts():
    """Ann holds key-3, Cid key-1: 1 + 1 + the drink = 3: right, the order wins."""
    g = five(ann=["key-3"], cid=["key-1"], active="Ann")
    declared, ended = g.do(C.Declare(player="Ann", allies=["Cid"]))
    assert declared.right and declared.faults == [] and ended.winners == [0, 2]


def test_castle_9_4_a_larger_societys_drink_does_not_count_and_says_why():
    """Ben (brotherhood, 3 members: the larger society) holds goblet-1 and names Dora with
    goblet-2: 2 relics, his drink does not count: wrong, the order (Ann, Cid) wins."""
    g = five(ann=["key-1"], cid=["key-2"], ben=["goblet-1"], dora=["goblet-2"], active="Ben")
    declared, ended = g.do(C.Declare(player="Ben", allies=["Dora"]))
    assert not declared.right and ended.winners == [0, 2]
    assert [f.fault for f in declared.faults] == ["relics-missing", "drink-not-counted"]
    assert declared.faults[1].player == 1 and "smaller" in declared.faults[1].text


def test_castle_9_2_a_wrong_declaration_names_the_enemy_ally():
    g = five(ann=["key-1", "key-2"], cid=["whip"], ben=["key-3"], active="Ann")
    declared, _ = g.do(C.Declare(player="Ann", allies=["Ben"]))
    assert not declared.right
    assert [(f.fault, f.player) for f in declared.faults] == [("enemy-ally", 1)]
    assert "Ben belongs to the brotherhood" in declared.faults[0].text


COAT = {"Ann": ("order", "thug", ["coat-of-arms", "key-1", "goblet-1", "bag-key"]),
        "Ben": ("brotherhood", "doctor", ["bag-goblet", "key-2", "key-3", "goblet-2", "goblet-3"]),
        "Cid": ("order", "priest", ["dagger", "gloves", "poison-ring", "casting-knives", "whip"]),
        "Dora": ("brotherhood", "bodyguard", ["privilege", "monocle", "black-pearl", "tome", "coat",
                                              "sextant"])}


def test_castle_9_3_and_9_5_a_bag_does_not_count_for_the_coat_of_arms_before_the_pile_empties():
    """Ann holds the coat of arms, key-1, goblet-1 and the key bag.  With the broken mirror
    still in the pile the bag is nothing (9.3): 2 relics, refused (9.5).  From a position with
    the pile empty the bags have turned: 3 relics, she wins alone."""
    g = from_position(position(COAT, pile=["broken-mirror"], active="Ann"))
    exc = g.refused(C.Declare(player="Ann", kind="coat-of-arms"))
    assert exc.rule == "CASTLE-9.5" and "bag-key" in str(exc) and "CASTLE-9.3" in str(exc)
    seats = dict(COAT,
                 Cid=("order", "priest",
                      ["dagger", "gloves", "poison-ring", "casting-knives", "whip",
                       "broken-mirror"]))
    g = from_position(position(seats, pile=[], active="Ann"))
    assert isinstance(g.events[2], E.BagsTurned) and g.state.bags_turned
    declared, ended = g.do(C.Declare(player="Ann", kind="coat-of-arms"))
    assert declared.right and ended.winners == [0]


# -- CASTLE-10.2 ---------------------------------------------------------------------------------

def test_castle_10_2_the_black_pearl_blocks_the_prophecy_and_a_wrong_one_says_why():
    g = five(ann=["key-1", "black-pearl"], cid=["key-2"], ben=["goblet-1", "goblet-2"],
             dora=["goblet-3"], variants=["prophecy"], active="Ann")
    assert g.refused(C.Declare(player="Ann", kind="prophecy", allies=["Ben"])).rule == "CASTLE-5.7"
    g = five(ann=["key-1"], cid=["key-2"], ben=["goblet-1", "goblet-2"], dora=["goblet-3"],
             variants=["prophecy"], active="Ann")
    declared, ended = g.do(C.Declare(player="Ann", kind="prophecy", allies=["Ben"]))
    assert not declared.right and ended.winners == [1, 3, 4]
    assert [(f.fault, f.player) for f in declared.faults] == [("holder-not-named", 3),
                                                             ("relics-missing", None)]


# -- CASTLE-10.4 ---------------------------------------------------------------------------------

def test_castle_10_4_advanced_3p_deal():
    """3 society cards each, one set aside: all 10 cards, 5 of each; a player belongs to the
    society of which they hold two or three.  Drinks and the 3-player items (2.5, 2.7)."""
    for seed in range(6):
        g = game_from_chance(seed)
        dealt = g.events[1]
        flat = [c for cards in dealt.society_cards for c in cards] + [dealt.set_aside]
        assert sorted(flat) == ["brotherhood"] * 5 + ["order"] * 5
        for cards, society in zip(dealt.society_cards, dealt.societies):
            assert cards.count(society) >= 2
        assert sorted(dealt.societies) in (["brotherhood", "brotherhood", "order"],
                                           ["brotherhood", "order", "order"])
        assert dealt.drinks == [True] * 3 and "black-pearl" in dealt.removed
        assert all(len(h) == 2 for h in dealt.hands) and g.state.limit == 8
        red = RULES.redact(dealt, 1)
        assert red.society_cards[1] == dealt.society_cards[1] and red.society_cards[0] == [None] * 3
        check_views(g.events, g.state)
    with pytest.raises(UsageError, match="CASTLE-10.4"):
        RULES.setup({"players": ["A", "B", "C", "D"], "variants": ["advanced-3p"]},
                    SeededChance(1, "x"))


def game_from_chance(seed):
    from .helpers import Game
    return Game(opts={"players": ["Ann", "Ben", "Cid"], "variants": ["advanced-3p"]},
                chance=SeededChance(seed, "3p"))


def test_castle_10_4_a_monocle_look_sees_one_of_three_cards():
    """Ben holds brotherhood, brotherhood, order (a brotherhood member).  Ann's monocle looks
    at his third card: she sees "order", one card, not his society."""
    seats = {"Ann": (["order", "order", "brotherhood"], "thug", ["monocle", "bag-key"]),
             "Ben": (["brotherhood", "brotherhood", "order"], "doctor", ["dagger", "bag-goblet"]),
             "Cid": (["order", "brotherhood", "brotherhood"], "priest", ["whip", "key-1"])}
    g = from_position(position(seats, set_aside="order", active="Ann", variants=["advanced-3p"]))
    assert g.state.societies == ["order", "brotherhood", "brotherhood"]
    g.play(C.Trade(player="Ann", to="Ben", item="monocle"), C.Accept(player="Ben", item="dagger"))
    assert [c.option for c in g.legal("Ann")] == ["look-1", "look-2", "look-3", "skip"]
    (seen,) = g.do(C.Choose(player="Ann", option="look-3"))[:1]
    assert (seen.card, seen.society) == (2, "order")
    ben = g.view(0)["players"][1]
    assert ben["society"] is None and ben["society_cards"] == [None, None, "order"]
    assert g.view(0)["knowledge"][-1]["what"] == "society-card-3"
    check_views(g.events, g.state)
    # 9.4: Ann's order (one member) is the smaller society: her drink counts
    from engine.games.castle.decide import drink_counts
    assert drink_counts(g.state, 0) and not drink_counts(g.state, 1)



def test_castle_10_4_a_declaration_lays_open_all_three_society_cards_in_every_view():
    """Issue 19.3.  CASTLE-9.2: the declarer and the named allies reveal their society; in
    advanced-3p (10.4) a society is two or three of a player's three cards, so all three are
    laid open.  Ann (order, order, brotherhood) declares for the order with Cid (order,
    brotherhood, order): Ann key-1 and key-2, Cid key-3, three keys, right.  Afterwards every
    seat and the public see Ann's and Cid's three cards, from the whole state and from their
    own redacted stream alike; Ben, who revealed nothing, keeps his cards hidden."""
    seats = {"Ann": (["order", "order", "brotherhood"], "thug", ["key-1", "key-2"]),
             "Ben": (["brotherhood", "brotherhood", "order"], "doctor", ["goblet-1", "dagger"]),
             "Cid": (["order", "brotherhood", "order"], "priest", ["key-3", "whip"])}
    g = from_position(position(seats, set_aside="brotherhood", active="Ann",
                               variants=["advanced-3p"]))
    assert g.state.societies == ["order", "brotherhood", "order"]
    g.do(C.Declare(player="Ann", allies=["Cid"]))
    assert g.state.over and g.view(None)["winners"] == ["Ann", "Cid"]
    for viewer in (0, 1, 2, PUBLIC):
        for own in (False, True):
            players = (g.seat_view(viewer) if own else g.view(viewer))["players"]
            assert players[0]["society_cards"] == ["order", "order", "brotherhood"], viewer
            assert players[2]["society_cards"] == ["order", "brotherhood", "order"], viewer
            assert players[1]["society_cards"] == (["brotherhood", "brotherhood", "order"]
                                                   if viewer == 1 else [None, None, None])
    check_views(g.events, g.state)


# -- CASTLE-11.1 ---------------------------------------------------------------------------------

def test_castle_11_1_knowledge_of_a_hand_limit_gift_a_draw_and_a_priests_payment():
    """Ann holds 6 (the 4-player limit); her tie draw (the coat) makes 7, so she gives the
    dagger to Cid: Cid learns it came from Ann (hand limit), Ann that she drew the coat.
    Then Ben attacks Ann and Dora's priest stops it: Ben pays Dora the goblet-1."""
    seats = {"Ann": ("order", "thug", ["key-1", "key-2", "dagger", "gloves", "whip", "tome"]),
             "Ben": ("brotherhood", "doctor", ["goblet-1", "goblet-2"]),
             "Cid": ("order", "bodyguard", ["privilege"]),
             "Dora": ("brotherhood", "priest", ["monocle"])}
    g = from_position(position(seats, pile=["coat"] + [c for c in (
        "bag-key", "bag-goblet", "key-3", "goblet-3", "black-pearl", "poison-ring",
        "casting-knives", "sextant", "broken-mirror", "coat-of-arms")], active="Ann"))
    tie(g, "Ann", "Ben")
    assert g.waiting() == ["Ann"] and g.state.top["kind"] == "limit"
    g.do(C.Give(player="Ann", item="dagger", to="Cid"))
    assert {"about": "Ann", "what": "received-item", "value": "dagger", "reason": "hand-limit",
            "turn": 1} in g.view(2)["knowledge"]
    assert {"about": None, "what": "drawn-item", "value": "coat", "reason": "tie", "turn": 1} \
        in g.view(0)["knowledge"]
    assert g.seat_view(2) == g.view(2)
    g.do(C.Attack(player="Ben", defender="Ann"))
    while g.waiting() != ["Dora"]:
        g.do(C.Pass(player=g.waiting()[0]))
    g.do(C.Use(player="Dora", power="priest"))
    g.do(C.Give(player="Ben", item="goblet-1", to="Dora"))
    assert {"about": "Ben", "what": "received-item", "value": "goblet-1", "reason": "priest",
            "turn": 2} in g.view(3)["knowledge"]
    check_views(g.events, g.state)


# -- positions ------------------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    (lambda p: p["seats"]["Ann"]["items"].append("goblet-1"), "dealt twice"),
    (lambda p: (p["seats"]["Ben"].update(items=[]), p["item_pile"].append("goblet-1")),
     "at least one"),
    (lambda p: (p["seats"]["Ann"]["items"].extend(p["item_pile"][:5]),
                p.update(item_pile=p["item_pile"][5:])), "at most 6"),
    (lambda p: p["seats"]["Cid"].update(society="brotherhood"), "each society has 2"),
    (lambda p: p["seats"]["Cid"].update(profession="thug"), "each once"),
    (lambda p: p.update(item_pile=["tome"]), "missing"),
    (lambda p: p.update(wrong=1), "unknown position field"),
    (lambda p: p["seats"]["Ann"].update(drink=True), "Drink of Power"),
])
def test_a_position_is_checked_like_a_deal(change, message):
    data = position(FOUR, active="Ann")
    change(data)
    with pytest.raises(UsageError, match=message):
        from_position(data)


def test_a_position_with_used_professions_and_a_later_turn():
    seats = dict(FOUR, Cid=("order", "priest", ["dagger"], True))
    g = from_position(position(seats, active="Ben", turn=9))
    created, dealt, started = g.events[:3]
    assert created.position and dealt.professions_used == [False, False, True, False]
    assert started == E.TurnStarted(player=1, turn=9)
    assert g.view(PUBLIC)["players"][2]["profession"] == "priest"  # used: face up
    g.do(C.Attack(player="Ben", defender="Ann"))
    assert 2 not in g.state.fight()["queue"]  # a spent priest is not asked (6.9, 6.10)


def test_castle_4_6_a_hand_limit_give_away_caused_by_the_first_effect_comes_before_the_second():
    """Ann (6 items, the limit) trades the key bag to Dora for the privilege.  Her bag resolves
    first: she draws the tome (7 items) and gives the whip away (3.3) before Dora's privilege
    looks at her hand: key-1, key-2, dagger, gloves, privilege, tome."""
    seats = {"Ann": ("order", "thug", ["bag-key", "key-1", "key-2", "dagger", "gloves", "whip"]),
             "Ben": ("brotherhood", "doctor", ["goblet-2"]),
             "Cid": ("order", "priest", ["monocle"]),
             "Dora": ("brotherhood", "bodyguard", ["privilege", "goblet-1"])}
    pile = ["tome", "bag-goblet", "key-3", "goblet-3", "black-pearl", "poison-ring",
            "casting-knives", "coat", "sextant", "broken-mirror", "coat-of-arms"]
    g = from_position(position(seats, pile=pile, active="Ann"))
    g.play(C.Trade(player="Ann", to="Dora", item="bag-key"),
           C.Accept(player="Dora", item="privilege"))
    new = g.do(C.Choose(player="Ann", option="draw"))
    assert [type(e).__name__ for e in new] == ["ItemDrawn", "HandLimitExceeded"]
    assert g.waiting() == ["Ann"] and g.state.top["kind"] == "limit"
    assert g.refused(C.Choose(player="Dora", option="look")).rule == "CASTLE-3.3"
    g.do(C.Give(player="Ann", item="whip", to="Cid"))
    assert g.waiting() == ["Dora"] and g.state.top["effect"] == "privilege"
    seen = g.do(C.Choose(player="Dora", option="look"))[0]
    assert sorted(seen.items) == ["dagger", "gloves", "key-1", "key-2", "privilege", "tome"]


def test_castle_10_4_the_fight_winners_look_sees_one_society_card():
    seats = {"Ann": (["order", "order", "brotherhood"], "thug", ["dagger", "bag-key"]),
             "Ben": (["brotherhood", "order", "brotherhood"], "doctor", ["gloves", "bag-goblet"]),
             "Cid": (["order", "brotherhood", "brotherhood"], "priest", ["whip", "key-1"])}
    g = from_position(position(seats, set_aside="order", active="Ann", variants=["advanced-3p"]))
    g.do(C.Attack(player="Ann", defender="Ben"))
    run_fight(g, uses={"Ann": "thug"})
    assert [c.option for c in g.legal("Ann")] == ["look-1", "look-2", "look-3", "take"]
    new = g.do(C.Choose(player="Ann", option="look-2"))
    soc, prof = new[1], new[2]
    assert (soc.card, soc.society, prof.profession) == (1, "order", "doctor")
    assert g.view(0)["players"][1]["society"] is None
    check_views(g.events, g.state)


def test_a_physical_deal_may_give_only_the_seats_the_pile_is_the_rest_as_a_set():
    """Issue 10.2: the referee reports each seat's cards; the pile is every other item in play,
    known only as a set, and the first bag draw must be reported."""
    seats = {"Ann": ("order", "thug", ["bag-key"]),
             "Ben": ("brotherhood", "doctor", ["bag-goblet"]),
             "Cid": ("order", "priest", ["key-1"]),
             "Dora": ("brotherhood", "bodyguard", ["dagger"])}
    deal = {"seats": {n: {"society": s, "profession": p, "items": i}
                      for n, (s, p, i) in seats.items()}}
    from .helpers import Game
    g = Game(opts={"players": list(seats), "first": "Ann", "deal": deal, "physical": True})
    dealt = g.events[1]
    assert dealt.pile_ordered is False and len(dealt.item_pile) == 17
    assert RULES.redact(dealt, PUBLIC).pile_ordered is False
    g.play(C.Trade(player="Ann", to="Cid", item="bag-key"), C.Accept(player="Cid", item="key-1"))
    assert isinstance(g.do(C.Choose(player="Ann", option="draw"))[0], E.DrawAwaited)
    assert g.refused(C.Draw(player="Ann", item="bag-goblet")).rule == "CASTLE-7.1"
    g.do(C.Draw(player="Ann", item="coat-of-arms"))
    assert g.hand("Ann") == ["coat-of-arms", "key-1"]


def test_a_digital_game_from_a_position_shuffles_a_pile_given_as_a_set_and_verifies():
    from engine.replay import verify_bytes
    from engine.service import GameService
    from engine.store import MemoryStore
    from engine.games.castle.position import options_from_position
    service = GameService(MemoryStore())
    options = options_from_position(position(FOUR, ordered=False, active="Ann"))
    created = service.create("castle", options, seed=77)
    dealt = created.events[1]
    assert dealt.pile_shuffled and dealt.pile_ordered
    from engine.games.castle.cards import ALL_ITEMS
    held = {c for _, _, items in FOUR.values() for c in items}
    box_order = [c for c in ALL_ITEMS if c not in held]
    assert sorted(dealt.item_pile) == sorted(box_order) and len(box_order) == 15
    assert dealt.item_pile != box_order  # shuffled by the game's chance (seed 77)
    game = created.game
    result = verify_bytes(service.store.log_bytes(game))
    assert result.ok, result.reason
