"""CASTLE-6.10, CASTLE-H3: which windows the seat's page may auto-pass (engine/games/castle/
windows.py), and what an attack with two supporters and no uses costs in records and clicks.

The deal (4 seats, one item each: both bags and two sealed items, CASTLE-2.4): Ann order,
thug, dagger; Ben brotherhood, grand-master, bag-key; Cid order, doctor, casting-knives; Dora
brotherhood, priest, bag-goblet.  Ann attacks Ben; Cid supports Ann, Dora supports Ben; nobody
uses anything.  Every profession is face down, so CASTLE-6.10 asks (by hand, from the rules):

* priest window (6.2): everyone but the attacker, from Ann's left: Ben, Cid, Dora (3 passes);
* duel window (6.5, r2): attacker and defender: Ann, Ben (2);
* support (6.3): Cid, Dora; after each support the hypnotist's window (6.4) asks Ann (2);
* ability round (6.5): all four, from Ann (4);
* the count: 1 + Cid = 2 against 1 + Dora = 2, a tie (6.6): the doctor's window (6.7) asks
  all four (4), then the tie draw (Ann draws the pile's top) and Ben's turn.

So 1 attack + 15 passes + 2 supports = 18 commands; 18 command records + the count, the tie
draw and the next turn = 21 records.  (Issue 25's "24 records, 16 passes" is not this fight's
count: with a winner instead of a tie the choice adds 2 to 4 records, never a 16th pass.)

Nothing to use, by the rules: Ann (thug, dagger) in the duel (not the duelist), both hypnotist
windows (not the hypnotist) and the doctor's; Ben (grand-master) in the priest, duel and
doctor's windows; Cid (doctor, casting-knives) in the priest window; Dora (priest) in the
ability round (a defender's supporter may show only the whip, 5.13) and the doctor's window.
That is 4 + 3 + 1 + 2 = 10 of the 15 passes that need no click; the other 5 (Dora's priest,
the ability round's Ann, Ben and Cid, Cid's doctor) are decisions.
"""

from engine.games.castle import RULES
from engine.games.castle import commands as C
from engine.games.castle.view import legal_commands
from engine.games.castle.windows import window

from .helpers import game

DEAL = [("order", "thug", ["dagger"]), ("brotherhood", "grand-master", ["bag-key"]),
        ("order", "doctor", ["casting-knives"]), ("brotherhood", "priest", ["bag-goblet"])]


def asked(g):
    """The seat asked now, its view, legal commands and the window hook's answer."""
    f = g.state.fight()
    seat = f["ask"]
    legal = legal_commands(g.state, seat)
    return seat, window(RULES.view(g.state, seat), legal)


def test_the_windows_of_an_attack_with_two_supporters_and_no_uses():
    g = game(DEAL)
    start = len(g.events)
    g.do(C.Attack(player="Ann", defender="Ben"))
    commands, seen = 1, []
    while g.state.fight() is not None:
        seat, found = asked(g)
        who = g.names[seat]
        stage = g.state.fight()["stage"]
        if stage == "support":
            assert found is None  # CASTLE-H3: a support is a decision, never auto-passed
            g.do(C.Support(player=who, side="attacker" if who == "Cid" else "defender"))
        else:
            assert found["rules"][-1] == "CASTLE-6.10" and found["stage"] == stage
            assert RULES.commands.to_map(found["pass"]) == {"type": "pass", "player": who}
            seen.append((who, stage, found["nothing_to_use"]))
            g.do(found["pass"])
        commands += 1
    records = g.events[start:]
    assert commands == 18 and len(records) == 21
    assert [type(e).TYPE for e in records].count("window_passed") == 15
    assert [type(e).TYPE for e in records][-3:] == ["window_passed", "fight_tied", "turn_started"]
    usable = {(who, stage) for who, stage, nothing in seen if not nothing}
    assert usable == {("Dora", "priest"), ("Ann", "abilities"), ("Ben", "abilities"),
                      ("Cid", "abilities"), ("Cid", "doctor")}
    assert [(w, s) for w, s, _ in seen] == [
        ("Ben", "priest"), ("Cid", "priest"), ("Dora", "priest"), ("Ann", "duel"),
        ("Ben", "duel"), ("Ann", "hypnotist"), ("Ann", "hypnotist"), ("Ann", "abilities"),
        ("Ben", "abilities"), ("Cid", "abilities"), ("Dora", "abilities"), ("Ann", "doctor"),
        ("Ben", "doctor"), ("Cid", "doctor"), ("Dora", "doctor")]
    # with every seat's auto-pass on: 10 passes go by themselves, 8 clicks stay (the attack,
    # two supports, five passes in a window with something usable)
    assert sum(nothing for _, _, nothing in seen) == 10
    assert commands - 10 == 8


def test_no_window_outside_a_fight_and_none_for_a_seat_not_asked():
    g = game(DEAL)
    ann = g.seat("Ann")
    # the turn's pass is the turn's action (CASTLE-8.1): not a window
    assert window(RULES.view(g.state, ann), legal_commands(g.state, ann)) is None
    g.do(C.Attack(player="Ann", defender="Ben"))
    cid = g.seat("Cid")  # the priest window asks Ben first: Cid has no legal command yet
    assert window(RULES.view(g.state, cid), legal_commands(g.state, cid)) is None
    seat, found = asked(g)
    assert g.names[seat] == "Ben" and found == {
        "stage": "priest", "rules": ["CASTLE-6.2", "CASTLE-6.10"],
        "pass": C.Pass(player="Ben"), "nothing_to_use": True}
