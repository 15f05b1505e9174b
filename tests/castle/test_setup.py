"""CASTLE-1 and CASTLE-2: components, the deal, options, the first event."""

import pytest

from engine.chance import SeededChance
from engine.errors import UsageError
from engine.games.castle import RULES
from engine.games.castle import events as E
from engine.games.castle.cards import ALL_ITEMS, BAGS, PROFESSIONS, SEALED, UNSEALED, hand_limit
from engine.games.castle.options import parse_deal

from .helpers import NAMES, Game, check_cards, make_deal

SIX = [("order", "priest", ["bag-key"]), ("brotherhood", "thug", ["bag-goblet"]),
       ("order", "doctor", ["key-1"]), ("brotherhood", "duelist", ["dagger"]),
       ("order", "diplomat", ["gloves"]), ("brotherhood", "hypnotist", ["goblet-1"])]


def digital(n, seed=1, **opts):
    chance = SeededChance(seed, "aa")
    events = RULES.setup({"players": NAMES[:n], **opts}, chance)
    return events, RULES.fold(events), chance


def test_castle_1_components():
    """CASTLE-1.1, CASTLE-1.2, CASTLE-1.3: 10 professions, 21 items with instance ids for keys
    and goblets."""
    assert len(PROFESSIONS) == 10
    assert len(ALL_ITEMS) == 21 and len(set(ALL_ITEMS)) == 21
    assert [c for c in ALL_ITEMS if c.startswith("key")] == ["key-1", "key-2", "key-3"]
    assert [c for c in ALL_ITEMS if c.startswith("goblet")] == ["goblet-1", "goblet-2", "goblet-3"]


def test_castle_1_6_sealed_items():
    """CASTLE-1.6: the sealed and unsealed sets."""
    assert set(UNSEALED) == {"tome", "coat", "sextant", "broken-mirror", "coat-of-arms"}
    assert len(SEALED) == 14 and not set(SEALED) & set(BAGS)


@pytest.mark.parametrize("n", range(3, 11))
def test_castle_2_deal_by_player_count(n):
    """CASTLE-2.1, CASTLE-2.2, CASTLE-2.3, CASTLE-2.4, CASTLE-2.5, CASTLE-2.7: the random deal
    for every player count."""
    events, state, chance = digital(n, seed=n)
    created, dealt, started = events
    assert created.commitment == chance.commitment and not created.physical
    assert created.hand_limit == {3: 8, 4: 6}.get(n, 5) == hand_limit(n)
    check_cards(state)
    # societies (2.2): even n split n/2; odd n: (n+1)/2 each with one set aside
    socs = dealt.societies + ([dealt.set_aside] if n % 2 else [])
    assert socs.count("order") == socs.count("brotherhood")
    assert (dealt.set_aside is None) == (n % 2 == 0)
    assert dealt.drinks == [n % 2 == 1] * n  # 2.3
    # professions (2.1)
    assert len(set(dealt.professions)) == n and len(dealt.profession_pile) == 10 - n
    # items (2.4): both bags dealt, the other starting items sealed
    first_items = [h[0] for h in dealt.hands]
    assert set(BAGS) <= set(first_items)
    assert all(c in SEALED or c in BAGS for c in first_items)
    assert all(len(h) == (2 if n == 3 else 1) for h in dealt.hands)  # 2.5
    if n == 3:
        assert "black-pearl" in dealt.removed
    if n == 10:
        assert "coat" in dealt.removed
    assert isinstance(started, E.TurnStarted)


def test_castle_2_6_beginner():
    """CASTLE-2.6: the beginner game removes the unsealed items."""
    events, state, _ = digital(6, beginner=True)
    assert set(UNSEALED) <= set(events[1].removed)
    assert not set(UNSEALED) & set(state.pile)
    check_cards(state)


def test_castle_2_8_start_player_given_or_drawn():
    """CASTLE-2.8: the start player is given or drawn by chance [house]; recorded."""
    events, state, _ = digital(5, first="Cid")
    assert events[0].first == 2 and not events[0].first_drawn
    assert state.active == 2
    firsts = {digital(5, seed=s)[0][0].first for s in range(30)}
    assert len(firsts) > 1
    assert digital(5, seed=3)[0][0].first_drawn


def test_castle_2_2_deal_options_recorded():
    """The first event records every option and house rule; physical games have no commitment."""
    g = Game(make_deal(SIX), variants=["prophecy"], house={"sextant_last": False})
    created = g.events[0]
    assert created.physical and created.commitment is None and created.deal_given
    assert created.variants == ["prophecy"]
    assert created.house["sextant_last"] is False
    assert created.house["doctor_cancels_tie_draw"] is True
    assert RULES.physical(g.state)
    assert RULES.seats(g.state) == NAMES[:6]


def test_castle_2_9_own_cards_visible():
    """CASTLE-2.9: a player sees all their own cards; others are hidden."""
    g = Game(make_deal(SIX))
    v = g.seat_view(0)
    assert v["players"][0]["items"] == ["bag-key"]
    assert v["players"][0]["society"] == "order" and v["players"][0]["profession"] == "priest"
    assert v["players"][1]["items"] is None and v["players"][1]["society"] is None
    assert v["players"][1]["item_count"] == 1
    assert v == g.view(0)


def test_docs_example_deal_is_valid():
    """The example deal in docs/castle-rules.md is accepted."""
    deal = {
        "seats": {
            "Ann": {"society": "order", "profession": "priest", "items": ["bag-key"]},
            "Ben": {"society": "brotherhood", "profession": "thug", "items": ["bag-goblet"]},
            "Cid": {"society": "order", "profession": "doctor", "items": ["key-1"]},
            "Dora": {"society": "brotherhood", "profession": "duelist", "items": ["dagger"]},
            "Eve": {"society": "brotherhood", "profession": "diplomat", "items": ["gloves"]}},
        "item_pile": ["privilege", "monocle", "key-2", "key-3", "goblet-1", "goblet-2", "goblet-3",
                      "black-pearl", "poison-ring", "casting-knives", "whip",
                      "tome", "coat", "sextant", "broken-mirror", "coat-of-arms"],
        "profession_pile": ["bodyguard", "clairvoyant", "grand-master", "hypnotist",
                            "poison-mixer"],
        "set_aside": "order"}
    parse_deal(deal, NAMES[:5], False)


@pytest.mark.parametrize("mutate, reason", [
    (lambda d: d["seats"]["Ann"].update(items=["bag-goblet"]), "twice"),
    (lambda d: d["item_pile"].pop(), "missing"),
    (lambda d: d["seats"]["Ann"].update(society="brotherhood"), "CASTLE-2.2"),
    (lambda d: d["profession_pile"].append("thug"), "professions"),
    (lambda d: d["seats"]["Ben"].update(items=["tome"]) or d["item_pile"].append("bag-goblet")
        or d["item_pile"].remove("tome"), "bags"),
    (lambda d: d.update(set_aside="order"), "set-aside"),
    (lambda d: d["seats"]["Ann"]["items"].append("key-3") or d["item_pile"].remove("key-3"),
     "exactly 1 item"),
])
def test_castle_2_impossible_deal_refused(mutate, reason):
    """An impossible deal is refused with a UsageError giving the reason."""
    deal = make_deal(SIX)
    mutate(deal)
    with pytest.raises(UsageError, match=reason):
        Game(deal)


def test_castle_2_5_three_players_deal():
    """CASTLE-2.5: 3 players: no black pearl, two items each; a pearl in the deal is refused."""
    seats = [("order", "priest", ["bag-key", "dagger"]),
             ("brotherhood", "thug", ["bag-goblet", "tome"]),
             ("order", "doctor", ["key-1", "gloves"])]
    g = Game(make_deal(seats, set_aside="brotherhood"))
    assert g.state.limit == 8 and g.state.removed == ["black-pearl"]
    bad = make_deal(seats, set_aside="brotherhood")
    bad["seats"]["Ann"]["items"] = ["bag-key", "black-pearl"]
    with pytest.raises(UsageError, match="not in this game"):
        Game(bad)


def test_bad_options_refused():
    with pytest.raises(UsageError):
        RULES.setup({"players": ["A", "B"]}, SeededChance(1, "x"))
    with pytest.raises(UsageError):
        RULES.setup({"players": ["A", "B", "A"]}, SeededChance(1, "x"))
    with pytest.raises(UsageError):
        RULES.setup({"players": NAMES[:4], "variants": ["nope"]}, SeededChance(1, "x"))
    with pytest.raises(UsageError):
        RULES.setup({"players": NAMES[:4]}, None)  # physical needs a deal
    with pytest.raises(UsageError):
        RULES.setup({"players": NAMES[:4], "house": {"nope": True}}, SeededChance(1, "x"))


def test_codec_round_trip_of_setup():
    events, _, _ = digital(7)
    for e in events:
        assert RULES.events.from_map(RULES.events.to_map(e)) == e
