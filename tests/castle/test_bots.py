"""The castle bots: what they may know, what they choose, and properties of whole bot games.

Whole games (``bots.self_play``) at every player count 3-10, bots seeing only their seat's
redacted fold: at every event every card is in exactly one place and nobody holds no item;
after every command nobody is over the hand limit unless a give-away is pending; an item id in
another seat's hand in a seat's fold is really there (the fold is sound); a seat's view from
its own stream equals the view from the referee's state; no redacted stream names a card the
seat was not shown.  With the sensible bot most games end by a (right) declaration.

Sizes scale with DEVIL_TEST_SCALE (default 1); the big runs are marked slow.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.chance import SeededChance
from engine.games.castle import RULES
from engine.games.castle import commands as C
from engine.games.castle.bots import (BOTS, RandomBot, SensibleBot, provable_declaration,
                                      self_play, smaller_society_known)
from engine.bots import bot_names, make_bot
from tests.scale import SCALE

from .helpers import NAMES, check_cards, check_counts, check_privacy, check_views, game


def seat_fold(g, seat):
    return RULES.fold(RULES.redact(e, seat) for e in g.events)


# -- registry and the random bot ---------------------------------------------------------------

def test_registry_lists_both_bots():
    assert bot_names("castle") == ["random", "sensible"]
    assert isinstance(make_bot("castle", "sensible", random.Random(1)), SensibleBot)


def test_random_bot_picks_the_type_first():
    # one pass and 63 declarations: by type, pass is chosen half of the time, not 1/64
    legal = [C.Pass(player="Ann")] + [C.Declare(player="Ann", allies=[f"x{i}"]) for i in range(63)]
    bot = RandomBot(rng=random.Random(5))
    picks = Counter(type(bot.choose(None, 0, legal)).__name__ for _ in range(4000))
    assert 0.46 < picks["Pass"] / 4000 < 0.54


# -- what the sensible bot can prove (CASTLE-9) -----------------------------------------------

def three_players(ann_items, set_aside="order"):
    # Ann is the only member of the order present; the other order card is set aside (2.2)
    return game([("order", "priest", ann_items),
                 ("brotherhood", "thug", ["bag-goblet", "dagger"]),
                 ("brotherhood", "doctor", ["bag-key", "gloves"])], set_aside=set_aside)


def test_drink_counts_only_when_the_smaller_society_is_known():
    g = three_players(["key-1", "key-2"])
    st = seat_fold(g, 0)
    # two keys and a drink are three relics only if the order is the smaller society (9.4),
    # and Ann cannot see the set-aside card
    assert st.set_aside is None and smaller_society_known(st, 0) is None
    assert provable_declaration(st, 0) is None
    # once Ann has seen that Ben and Cid are both brotherhood (2 = (3+1)/2 members: complete)
    st.societies[1] = st.societies[2] = "brotherhood"
    assert smaller_society_known(st, 0) == "order"
    claim = provable_declaration(st, 0)
    assert claim == C.Declare(player="Ann", kind="society", allies=[])
    g.do(claim)
    declared = g.events[-2]
    assert declared.right and declared.winning_society == "order"
    assert g.state.winners == [0]


def test_black_pearl_blocks_the_proof():
    g = game([("order", "priest", ["key-1"]), ("brotherhood", "thug", ["bag-goblet"]),
              ("order", "doctor", ["bag-key"]), ("brotherhood", "duelist", ["dagger"])])
    st = seat_fold(g, 0)
    st.hands[0] = ["key-1", "key-2", "key-3", "black-pearl"]
    assert provable_declaration(st, 0) is None  # CASTLE-5.7
    st.hands[0] = ["key-1", "key-2", "key-3"]
    assert provable_declaration(st, 0) == C.Declare(player="Ann", kind="society", allies=[])


def test_a_known_ally_with_a_known_relic_is_named():
    g = game([("order", "priest", ["key-1"]), ("brotherhood", "thug", ["bag-goblet"]),
              ("order", "doctor", ["bag-key"]), ("brotherhood", "duelist", ["dagger"])])
    st = seat_fold(g, 0)
    st.hands[0] = ["key-1", "key-2"]
    assert provable_declaration(st, 0) is None  # 2 keys, even player count: no drink
    st.hands[2] = ["key-3", None]  # Ann knows Cid holds key-3 but not his society
    assert provable_declaration(st, 0) is None
    st.societies[2] = "order"
    assert provable_declaration(st, 0) == C.Declare(player="Ann", kind="society", allies=["Cid"])
    st.societies[1] = "order"  # a (wrongly believed) ally without a known relic is not named
    assert provable_declaration(st, 0).allies == ["Cid"]


def test_coat_of_arms_alone_with_three_relics_of_any_kind():
    g = game([("order", "priest", ["key-1"]), ("brotherhood", "thug", ["bag-goblet"]),
              ("order", "doctor", ["bag-key"]), ("brotherhood", "duelist", ["dagger"])])
    st = seat_fold(g, 0)
    st.hands[0] = ["coat-of-arms", "goblet-1", "goblet-2", "key-1"]
    assert provable_declaration(st, 0) == C.Declare(player="Ann", kind="coat-of-arms", allies=[])
    st.hands[0] = ["coat-of-arms", "goblet-1", "bag-goblet", "key-1"]  # bag not turned (9.3)
    assert provable_declaration(st, 0) is None


def test_sensible_bot_refuses_nothing_it_must_accept_and_draws_with_a_bag():
    g = game([("order", "priest", ["bag-key"]), ("brotherhood", "thug", ["dagger"]),
              ("order", "doctor", ["bag-goblet"]), ("brotherhood", "duelist", ["gloves"])],
             pile=["key-2"])
    bot = SensibleBot(rng=random.Random(2))
    g.do(C.Trade(player="Ann", to="Ben", item="bag-key"))
    ben = seat_fold(g, 1)
    choice = bot.choose(ben, 1, RULES.legal_commands(ben, 1))
    assert choice == C.Accept(player="Ben", item="dagger")  # Ben's only item goes back
    g.do(choice)
    ann = seat_fold(g, 0)
    assert bot.choose(ann, 0, RULES.legal_commands(ann, 0)) == C.Choose(player="Ann", option="draw")


def test_sensible_bot_supports_a_known_ally():
    g = game([("order", "priest", ["bag-key"]), ("brotherhood", "thug", ["dagger"]),
              ("order", "doctor", ["bag-goblet"]), ("brotherhood", "duelist", ["gloves"])])
    g.do(C.Attack(player="Ann", defender="Ben"))
    g.pass_fight(until_stage="support")
    st = seat_fold(g, 2)
    bot = SensibleBot(rng=random.Random(1))
    # Cid does not know Ann's society: neutral; once he knows she is of the order: attacker
    assert bot.choose(st, 2, RULES.legal_commands(st, 2)) == C.Support(player="Cid", side="neutral")
    st.societies[0] = "order"
    assert bot.choose(st, 2, RULES.legal_commands(st, 2)) == C.Support(player="Cid",
                                                                       side="attacker")


# -- whole bot games ---------------------------------------------------------------------------

def sound_folds(state, seats):
    """Every id a seat's fold places in another seat's hand is really there."""
    for s, st in enumerate(seats):
        for other in range(state.n):
            known = [c for c in st.hands[other] if c is not None]
            for card in known:
                assert card in state.hands[other], (s, other, card)
            assert len(st.hands[other]) == len(state.hands[other])


def play_checked(n, seed, kinds, rounds=40, views_every=7):
    rng = random.Random(seed)
    bots = {s: BOTS[kinds[s % len(kinds)]](rng=random.Random(rng.random())) for s in range(n)}
    counter = {"commands": 0}

    def on_event(event, state, seats):
        if state.dealt:
            check_cards(state)
            assert all(state.count(s) >= 1 for s in range(state.n))

    def on_command(command, batch, state, seats):
        counter["commands"] += 1
        check_counts(state)  # nobody over the limit unless the give-away is pending (3.3)
        assert all(state.count(s) <= state.limit for s in range(state.n)) or \
            any(f["kind"] == "limit" for f in state.stack)
        sound_folds(state, seats)
        if counter["commands"] % views_every == 0:
            for s in range(n):
                assert RULES.view(seats[s], s) == RULES.view(state, s)

    options = {"players": NAMES[:n], "variants": ["scoring"]}
    result = self_play(options, bots, SeededChance(seed, "b0"), max_rounds=rounds,
                       on_event=on_event, on_command=on_command)
    check_privacy(result["events"])
    check_views(result["events"], result["state"])
    return result


@pytest.mark.parametrize("n", range(3, 11))
def test_bot_games_keep_every_invariant(n):
    for k in range(SCALE):
        r = play_checked(n, 300 * n + k, ["random", "sensible"], rounds=12)
        assert r["over"] or r["state"].round == 13


@pytest.mark.parametrize("n", range(3, 11))
def test_random_bot_games_reach_an_end_or_the_cap(n):
    r = play_checked(n, 77 * n, ["random"], rounds=10, views_every=11)
    assert r["over"] or r["capped"]
    if r["over"]:
        assert r["events"][-1].reveal.seed == 77 * n  # the seed is revealed at the end
    else:
        assert all(getattr(e, "reveal", None) is None for e in r["events"])  # and not before


def declaration_rate(games_per_count, base):
    declared = right = games = 0
    for n in range(3, 11):
        for k in range(games_per_count):
            seed = base + 1000 * n + k
            bots = {s: SensibleBot(rng=random.Random(seed * 31 + s)) for s in range(n)}
            r = self_play({"players": NAMES[:n]}, bots, SeededChance(seed, "x"), max_rounds=60)
            games += 1
            declared += r["declared"]
            right += bool(r["declared"] and r["state"].declaration["right"])
    return games, declared, right


def test_sensible_bots_mostly_end_by_a_right_declaration():
    # one game per player count in the default run (7 of 8 declared, every one right; the
    # slow test plays 10 per count); measured before the corrected rules: 130 of 160 (81%)
    games, declared, right = declaration_rate(1, 0)
    assert declared >= 0.6 * games
    assert right == declared  # the sensible bot declares only what it can prove


@pytest.mark.slow
def test_sensible_declaration_rate_at_scale():
    games, declared, right = declaration_rate(10 * SCALE, 50_000)
    assert declared >= 0.7 * games and right == declared


@pytest.mark.slow
@pytest.mark.parametrize("n", range(3, 11))
def test_many_checked_bot_games(n):
    for k in range(5 * SCALE):
        play_checked(n, 9000 + 100 * n + k, ["random", "sensible", "sensible"], rounds=40,
                     views_every=13)
