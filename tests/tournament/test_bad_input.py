"""Bad input (issue 11 item 7): each refused with a clear message, nothing recorded."""

import pytest

from engine.errors import DevilError, IllegalCommand, UsageError
from engine.games.atkr import commands as A

from .helpers import fixed, organiser, quick_atkr

PLAYERS = list("ABCDEFGH")


def event():
    d = organiser()
    t = d.create(fixed(PLAYERS, game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABCD"), list("EFGH")], games=False)
    return d, t


def refused(d, t, error, match, action):
    before = d.store.log_bytes(t)
    games = list(d.store.games())
    with pytest.raises(error, match=match):
        action()
    assert d.store.log_bytes(t) == before, "something was recorded"
    return games


def test_a_player_at_two_tables_of_one_round():
    d = organiser()
    t = d.create(fixed(PLAYERS, game="atkr"))
    refused(d, t, IllegalCommand, r"TOUR-2.2: A is seated at two tables of round 1 \(tables 1 "
            r"and 2\)", lambda: d.pair(t, seating=[list("ABCD"), list("AFGH")], games=False))
    refused(d, t, IllegalCommand, "TOUR-2.2: table 2 seats 3 players; tables seat 4 to 4",
            lambda: d.pair(t, seating=[list("ABCD"), list("FGH")], games=False))
    t3 = d.create(fixed(PLAYERS, game="atkr", size=(3, 4)))
    refused(d, t3, IllegalCommand, "TOUR-2.2: the seating leaves out E: seat every active "
            "player once, or give them a bye",
            lambda: d.pair(t3, seating=[list("ABCD"), list("FGH")], games=False))


def test_a_log_attached_twice_or_to_the_wrong_table():
    d, t = event()
    g1 = quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 0, "C": 0, "D": 0})
    d.attach(t, g1)
    refused(d, t, IllegalCommand, f"TOUR-4.2: {g1} is already attached to table 1 of round 1",
            lambda: d.attach(t, g1))
    g2 = quick_atkr(d.service, list("EFGH"), {"E": 600, "F": 0, "G": 0, "H": 0})
    refused(d, t, IllegalCommand, f"TOUR-4.2: {g2} seats E, F, G, H; table 1 of round 1 seats "
            "A, B, C, D in that order", lambda: d.attach(t, g2, table=1))


def test_a_log_with_other_players_order_or_options():
    d, t = event()
    other = quick_atkr(d.service, list("ABCE"), {"A": 600, "B": 0, "C": 0, "E": 0})
    refused(d, t, IllegalCommand, "TOUR-4.2: .* has players A, B, C, E: no table of round 1 "
            "seats exactly them", lambda: d.attach(t, other))
    turned = quick_atkr(d.service, list("BACD"), {"A": 600, "B": 0, "C": 0, "D": 0})
    refused(d, t, IllegalCommand, "seats B, A, C, D; table 1 of round 1 seats A, B, C, D",
            lambda: d.attach(t, turned))
    ring = quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 0, "C": 0, "D": 0}, ring=12)
    refused(d, t, IllegalCommand, f"TOUR-4.2: {ring} was played with ring = 12; the "
            "tournament's is 16", lambda: d.attach(t, ring))


def test_a_log_with_another_start_player():
    d, t = event()
    from engine.games.atkr import commands as A2

    svc = d.service
    game = svc.create("atkr", {"players": list("ABCD"), "first": "B", "physical": True}).game
    for _ in range(2):  # every bet 0, everyone busts: the game goes on; it is refused anyway
        for p in "ABCD":
            svc.submit(game, A2.Bet(player=p, amount=0))
        for _ in range(4):
            svc.submit(game, A2.Draw(player="ABCD"[svc.state(game).turn], coal=0))
    # not finished is said first; a finished game with the wrong start is refused too:
    refused(d, t, IllegalCommand, "not finished", lambda: d.attach(t, game))
    found = None
    try:
        d.check_log(t, d.store.log_bytes(game), finished=False)
    except IllegalCommand as exc:
        found = exc.message
    assert found == (f"TOUR-4.2: {game} starts with B; table 1's start player is A")


def test_an_unfinished_game_and_a_log_from_another_tournament():
    d, t = event()
    open_game = d.service.create("atkr", {"players": list("ABCD"), "first": "A",
                                          "physical": True}).game
    d.service.submit(open_game, A.Bet(player="A", amount=50))
    refused(d, t, IllegalCommand, f"TOUR-4.1: {open_game} is not finished",
            lambda: d.attach(t, open_game))
    other = d.create(fixed(PLAYERS, game="atkr", options={"physical": True}))
    d.pair(other, seating=[list("ABCD"), list("EFGH")], games=False)
    g = quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 0, "C": 0, "D": 0})
    d.attach(other, g)
    refused(d, t, IllegalCommand, f"TOUR-4.2: {g} belongs to tournament {other}",
            lambda: d.attach(t, g))


def test_a_game_recorded_before_its_round_was_paired():
    d = organiser()
    t = d.create(fixed(PLAYERS, game="atkr", options={"physical": True}))
    early = quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 0, "C": 0, "D": 0})
    import time
    time.sleep(0.01)
    d.pair(t, seating=[list("ABCD"), list("EFGH")], games=False)
    refused(d, t, IllegalCommand, "before round 1 was paired", lambda: d.attach(t, early))


def test_a_damaged_log_file_is_refused_and_not_imported(tmp_path):
    d, t = event()
    g = quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 0, "C": 0, "D": 0})
    data = bytearray(d.store.log_bytes(g))
    data[len(data) // 2] ^= 0x01
    other = organiser()
    t2 = other.create(fixed(PLAYERS, game="atkr", options={"physical": True}))
    other.pair(t2, seating=[list("ABCD"), list("EFGH")], games=False)
    refused(other, t2, IllegalCommand, "TOUR-4.1: the log .*does not verify: record \\d+ is bad",
            lambda: other.attach(t2, "x.devlog", data=bytes(data)))
    assert g not in other.store.games()


def test_pairing_before_the_last_round_is_closed():
    d, t = event()
    refused(d, t, IllegalCommand, "TOUR-5.1: round 1 is not closed yet",
            lambda: d.pair(t, seating=[list("ABCD"), list("EFGH")], games=False))
    refused(d, t, IllegalCommand, "TOUR-5.2: round 1 cannot close: table 1 has no game "
            "attached; table 2 has no game attached", lambda: d.close_round(t))


def test_closing_with_an_unfinished_game_records_nothing():
    d, t = event()
    d.attach(t, quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 0, "C": 0, "D": 0}))
    running = d.service.create("atkr", {"players": list("EFGH"), "first": "E",
                                        "physical": True}).game
    from engine.tournament import events as ev
    d.submit(t, ev.Attach(round=1, table=2, game=running, created=0))
    refused(d, t, IllegalCommand, f"table 2's game {running} is not finished",
            lambda: d.close_round(t))


def test_dropping_an_unknown_player_and_other_registration_errors():
    d, t = event()
    refused(d, t, DevilError, "TOUR-1.2: there is no player called 'Zed' in this tournament",
            lambda: d.drop(t, "Zed"))
    refused(d, t, IllegalCommand, "TOUR-1.1: A is already registered", lambda: d.add(t, "A"))
    d.drop(t, "B")
    refused(d, t, IllegalCommand, "TOUR-1.2: B has already dropped out", lambda: d.drop(t, "B"))


@pytest.mark.parametrize("change, match", [
    ({"players": ["A", "A", "B"]}, "unique name .*A registered twice"),
    ({"table_size": [5, 4]}, "table sizes are MIN-MAX"),
    ({"table_size": [1, 4]}, "tables of 1: .*2 to 6 players"),
    ({"points": [6, -1]}, "points by place"),
    ({"format": "round-robin"}, "the format is one of swiss, fixed"),
    ({"tiebreaks": ["opponents", "height"]}, "tiebreaks are drawn once each"),
    ({"options": {"ring": 99}}, "ring capacity"),
    ({"rounds": 0}, "number of rounds"),
])
def test_bad_settings_create_nothing(change, match):
    d = organiser()
    options = {**fixed(PLAYERS, game="atkr"), **change}
    with pytest.raises(UsageError, match=match):
        d.create(options)
    assert d.store.games() == []


def test_a_second_game_for_a_decided_table_cites_tour_4_3():
    """TOUR-4.3: a table's result is recorded once, from the table's own game.  A second
    finished game of the same players for table 1 was refused citing TOUR-4.2 (the log's
    fitness), and a log from a file was imported into the store before the refusal."""
    d, t = event()
    g1 = quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 0, "C": 0, "D": 0})
    d.attach(t, g1)
    again = quick_atkr(d.service, list("ABCD"), {"A": 0, "B": 600, "C": 0, "D": 0})
    refused(d, t, IllegalCommand, f"^TOUR-4.3: table 1 of round 1 has its result already, "
            f"from {g1}: a table's result is recorded once, from its own game$",
            lambda: d.attach(t, again))
    elsewhere = organiser()  # the same players' game recorded by a referee, handed in as a file
    from_file = quick_atkr(elsewhere.service, list("ABCD"), {"A": 0, "B": 0, "C": 600, "D": 0})
    refused(d, t, IllegalCommand, f"^TOUR-4.3: table 1 of round 1 has its result already, "
            f"from {g1}", lambda: d.attach(t, "t1.devlog",
                                           data=elsewhere.store.log_bytes(from_file)))
    assert from_file not in d.store.games()
    # the rules refuse it too (a command submitted directly), with the same rule
    from engine.tournament import events as ev
    refused(d, t, IllegalCommand, f"^TOUR-4.3: table 1 of round 1 has its result already, "
            f"from {g1}", lambda: d.submit(t, ev.Attach(round=1, table=1, game=again,
                                                        created=0)))
