"""Clocks (CLOCK-1 to CLOCK-9, ATKR-H2, CASTLE-H2; docs/house-rules.md), worked by hand.

Every game here lives in a real store folder (FileStore) and is played through the service,
whose clock is a time the test sets (the service passes "now" in; the rules never read a
clock), so each remaining time below is worked out from the rules, not read off the code.
"""

from __future__ import annotations

import pytest

from engine.clock import control, duration_text, from_map, parse_clock, parse_duration
from engine.errors import IllegalCommand, UsageError
from engine.replay import verify_bytes
from engine.service import GameService
from engine.store.file import FileStore

T0 = 1_800_000_000_000  # ms since 1970: the game is created then
S = 1000


class Time:
    """The service's clock for these tests: ``now()`` is T0 plus what the test set."""

    def __init__(self):
        self.at = 0

    def __call__(self) -> int:
        return T0 + self.at

    def set(self, seconds: float) -> None:
        self.at = int(seconds * S)


def made(tmp_path, kind, players, clock, move=None, on_timeout="act", seed=7, store=None,
         **options):
    time = Time()
    service = GameService(store or FileStore(str(tmp_path)), clock=time)
    loaded = service.create(kind, {"players": players, **options}, seed=seed,
                            clock=control(clock, move, on_timeout))
    return service, loaded.game, time


def records(service, game, after=0):
    return [(r.seq, r.actor, r.ts, service.load(game).rules.events.to_map(e))
            for r, e in service.stream(game, after=after)]


def seat(readings, n):
    return readings["seats"][n]


# -- CLOCK-1: the time control ------------------------------------------------------------
def test_clock_1_time_controls_are_read_as_milliseconds():
    assert parse_clock("20m+10s") == (1_200_000, 10_000)
    assert parse_clock("1h30m") == (5_400_000, 0)
    assert parse_duration("90", "x") == 90_000  # a bare number is seconds
    assert parse_duration("2m", "x") == 120_000
    made_ = control("20m+10s", "2m", "flag")
    assert (made_.base, made_.increment, made_.move, made_.on_timeout) == \
        (1_200_000, 10_000, 120_000, "flag")
    assert control(None, None) is None
    assert duration_text(1_198_400) == "19:58.4"
    assert duration_text(3_723_000) == "1:02:03"
    for bad in [("20x", None), ("+10s", None), ("0s", None), ("25h", None), (None, "0s"),
                ("1m+2h", None)]:
        with pytest.raises(UsageError, match="CLOCK-1"):
            control(*bad)
    with pytest.raises(UsageError, match="CLOCK-1"):
        control("1m", None, "sleep")
    with pytest.raises(UsageError, match="CLOCK-1"):
        from_map({"on_timeout": "flag"})  # a timeout needs a clock
    with pytest.raises(UsageError, match="CLOCK-1"):
        from_map({"clock": 60})


# -- CLOCK-3, CLOCK-5, ATKR-H2: a Fischer clock runs out and the timeout acts ---------------
def test_atkr_clock_runs_out_and_bets_0_then_the_draws_clock_runs(tmp_path):
    service, game, time = made(tmp_path, "atkr", ["Anna", "Ben"], "1m+10s", first="Anna")
    # 1 game_created, 2 round_started (the first command), 3 clock_set (CLOCK-1)
    assert [r[3]["type"] for r in records(service, game)] == \
        ["game_created", "round_started", "clock_set"]
    start = service.clocks(game)
    assert [seat(start, n)["remaining"] for n in (0, 1)] == [60_000, 60_000]
    assert seat(start, 0)["running"] and seat(start, 1)["running"]  # both bet at once (CLOCK-2)

    time.set(5)
    service.submit(game, {"type": "bet", "player": "Anna", "amount": 20})
    # Anna: 60 s - 5 s + the 10 s increment = 65 s, stopped; Ben still running from 0
    now = service.clocks(game)
    assert seat(now, 0)["remaining"] == 65_000 and not seat(now, 0)["running"]
    assert seat(now, 1)["remaining"] == 55_000 and seat(now, 1)["running"]

    time.set(59.9)
    assert service.apply_timeouts(game) == []  # 100 ms left: nothing is due yet
    time.set(75)  # Ben's 60 s ran out at 60 s; the service looks at 75 s
    appended = service.apply_timeouts(game)
    assert [r.seq for r in appended] == [5, 6, 7]
    got = records(service, game, after=4)
    assert got[0] == (5, -1, 75_000, {"type": "clock_expired", "seat": 1, "limit": "clock",
                                       "action": "act", "due": 60_000})
    assert got[1][1:] == (-1, 75_000, {"type": "bet_placed", "seat": 1, "amount": 0})
    assert got[2][3]["type"] == "bets_revealed" and got[2][3]["bets"] == [20, 0]
    now = service.clocks(game)
    assert seat(now, 1)["remaining"] == 0 and seat(now, 1)["timeouts"] == 1
    assert seat(now, 0)["running"] and seat(now, 0)["remaining"] == 65_000  # Anna draws

    time.set(80)
    service.submit(game, {"type": "draw", "player": "Anna"})
    assert records(service, game, after=7)[0][3] == {"type": "coal_drawn", "seat": 0,
                                                      "coal": 25}  # the seed's first coal
    now = service.clocks(game)
    # 65 s - 5 s + 10 s; still her turn (25 is no devil): a new move from 80 s
    assert seat(now, 0)["remaining"] == 70_000 and seat(now, 0)["running"]
    assert seat(now, 0)["moves"] == 2
    check = verify_bytes(service.store.log_bytes(game))
    assert check.ok, check.reason
    assert [s["remaining"] for s in check.clocks["seats"]] == [70_000, 0]
    assert any("every timeout was due" in line for line in check.checks)
    # her 70 s run out at 150 s; Ben has none left either: the clock alone would play the
    # game out, so she is flagged for the referee instead of stopped (CLOCK-5.1)
    time.set(151)
    service.apply_timeouts(game)
    got = records(service, game, after=8)
    assert got == [(9, -1, 151_000, {"type": "clock_expired", "seat": 0, "limit": "clock",
                                      "action": "flag", "due": 150_000})]
    assert verify_bytes(service.store.log_bytes(game)).ok


def test_atkr_a_turn_timeout_stops_once_the_seat_has_drawn(tmp_path):
    # ATKR-H2: the turn's timeout stops if the seat has drawn, else draws its one coal
    from engine.games.atkr.clock import timeout
    from engine.games.atkr.commands import Bet, Draw

    service, game, time = made(tmp_path, "atkr", ["Anna", "Ben"], None, "30s", first="Anna")
    assert timeout(service.state(game), 0) == Bet("Anna", 0)
    time.set(1)
    service.submit(game, {"type": "bet", "player": "Anna", "amount": 0})
    time.set(2)
    service.submit(game, {"type": "bet", "player": "Ben", "amount": 0})
    state = service.state(game)
    assert timeout(state, 0) == Draw("Anna") and timeout(state, 1) is None
    time.set(3)
    service.submit(game, {"type": "draw", "player": "Anna"})  # the seed's first coal: 25
    time.set(34)  # her move from 3 s ran out at 33 s
    service.apply_timeouts(game)
    got = records(service, game, after=6)
    assert got[0][3] == {"type": "coal_drawn", "seat": 0, "coal": 25}
    got = got[1:]
    assert got[0] == (8, -1, 34_000, {"type": "clock_expired", "seat": 0, "limit": "move",
                                      "action": "act", "due": 33_000})
    assert got[1][3] == {"type": "stopped", "seat": 0}
    # Ben's move time runs from 34 s: nothing more is due until 64 s
    assert seat(service.clocks(game), 1)["move_left"] == 30_000


# -- CLOCK-4, CLOCK-6: a move time runs out and the seat is flagged ------------------------
def test_move_time_flags_the_seat_and_it_plays_nothing_more(tmp_path):
    service, game, time = made(tmp_path, "atkr", ["Anna", "Ben"], None, "30s", "flag",
                               first="Anna")
    time.set(10)
    service.submit(game, {"type": "bet", "player": "Anna", "amount": 20})
    time.set(31)
    appended = service.apply_timeouts(game)
    assert len(appended) == 1
    assert records(service, game, after=4)[0] == (
        5, -1, 31_000, {"type": "clock_expired", "seat": 1, "limit": "move", "action": "flag",
                        "due": 30_000})
    head = service.load(game).head.seq
    time.set(32)
    with pytest.raises(IllegalCommand, match="CLOCK-6"):
        service.submit(game, {"type": "bet", "player": "Ben", "amount": 0})
    assert service.load(game).head.seq == head  # nothing recorded
    now = service.clocks(game)
    assert seat(now, 1)["flagged"] and not seat(now, 1)["running"]
    assert seat(now, 1)["remaining"] is None  # no base time: a move time only
    assert verify_bytes(service.store.log_bytes(game)).ok


def test_a_late_command_comes_after_the_timeout_it_missed(tmp_path):
    # CLOCK-5: the service records the timeouts due before deciding a command
    service, game, time = made(tmp_path, "atkr", ["Anna", "Ben"], None, "1m", first="Anna")
    time.set(61)
    with pytest.raises(IllegalCommand, match="ATKR-"):  # Anna's bet was placed for her
        service.submit(game, {"type": "bet", "player": "Anna", "amount": 20})
    got = records(service, game, after=3)
    assert [r[3]["type"] for r in got] == ["clock_expired", "bet_placed", "clock_expired",
                                           "bet_placed", "bets_revealed"]
    assert got[1][3]["amount"] == 0 and got[3][3]["amount"] == 0
    assert all(r[2] == 61_000 for r in got)
    # a fresh move time for Anna's draws from 61 s (CLOCK-4): nothing more is due yet
    assert seat(service.clocks(game), 0)["move_left"] == 60_000


def test_when_every_seat_is_out_of_time_the_last_is_flagged(tmp_path):
    # CLOCK-5.1: Anna's bet is placed for her (Ben still has time); then Ben's time is out
    # and so is everyone's: he is flagged, and the game waits for the referee
    from engine.store.memory import MemoryStore

    service, game, time = made(tmp_path, "atkr", ["Anna", "Ben"], "1m", first="Anna",
                               store=MemoryStore())
    time.set(61)
    service.apply_timeouts(game)
    got = [r[3] for r in records(service, game, after=3)]
    assert got == [{"type": "clock_expired", "seat": 0, "limit": "clock", "action": "act",
                    "due": 60_000}, {"type": "bet_placed", "seat": 0, "amount": 0},
                   {"type": "clock_expired", "seat": 1, "limit": "clock", "action": "flag",
                    "due": 60_000}]
    assert service.apply_timeouts(game) == []
    check = verify_bytes(service.store.log_bytes(game))
    assert check.ok and not check.finished, check.reason


# -- CASTLE-H2: pass on one's turn, refuse an offer ----------------------------------------
def test_castle_timeout_passes_the_turn_and_refuses_an_offer(tmp_path):
    service, game, time = made(tmp_path, "castle", ["Anna", "Ben", "Cleo"], None, "1m",
                               first="Anna")
    time.set(61)
    service.apply_timeouts(game)
    got = [r[3] for r in records(service, game)]
    expired = [i for i, e in enumerate(got) if e["type"] == "clock_expired"]
    assert got[expired[0]] == {"type": "clock_expired", "seat": 0, "limit": "move",
                               "action": "act", "due": 60_000}
    assert got[expired[0] + 1] == {"type": "turn_passed", "player": 0}
    assert got[expired[0] + 2]["type"] == "turn_started" and got[expired[0] + 2]["player"] == 1
    # Ben offers an item to Cleo at 70 s; Cleo's move time runs from then
    time.set(70)
    trade = next(c for c in service.legal(game, 1) if type(c).__name__ == "Trade"
                 and c.to == "Cleo" and not c.silent)
    service.submit(game, trade)
    time.set(130)
    service.apply_timeouts(game)
    got = [r[3] for r in records(service, game)]
    last = [i for i, e in enumerate(got) if e["type"] == "clock_expired"][-1]
    assert got[last] == {"type": "clock_expired", "seat": 2, "limit": "move", "action": "act",
                         "due": 130_000}
    assert got[last + 1]["type"] == "trade_refused"
    assert verify_bytes(service.store.log_bytes(game)).ok


# -- verify: the clocks re-derived from the records' times --------------------------------
def test_verify_refuses_a_move_after_the_time_ran_out_and_an_early_timeout(tmp_path):
    from engine.clock import ClockExpired

    service, game, time = made(tmp_path, "atkr", ["Anna", "Ben"], "1m", first="Anna")
    store, rules = service.store, service.load(game).rules
    bet = rules.events.to_map(rules.decide(service.state(game),
                                           rules.commands.from_map(
                                               {"type": "bet", "player": "Ben",
                                                "amount": 0}), None)[0])
    head = store.head(game).seq
    # Ben's 60 s ran out at 60 s, but a log says he bet at 61 s (CLOCK-7)
    late = store.log_bytes(game)
    store.append(game, head, 1, None, [bet], 61_000)
    check = verify_bytes(store.log_bytes(game))
    assert not check.ok and check.first_bad_seq == head + 1 and "CLOCK-7" in check.reason
    assert verify_bytes(late).ok
    # a timeout recorded before it was due (CLOCK-5)
    other, game2, _ = made(tmp_path / "b", "atkr", ["Anna", "Ben"], "1m", first="Anna")
    early = other.load(game2).rules.events.to_map(ClockExpired(1, "clock", "flag", 60_000))
    other.store.append(game2, other.store.head(game2).seq, -1, None, [early], 50_000)
    check = verify_bytes(other.store.log_bytes(game2))
    assert not check.ok and "CLOCK-5" in check.reason and "not due" in check.reason


def test_a_kind_without_clock_hooks_refuses_a_clock_and_a_game_without_clock_shows_none(
        tmp_path):
    service = GameService(FileStore(str(tmp_path)))
    loaded = service.create("atkr", {"players": ["Anna", "Ben"]}, seed=3)
    assert service.clocks(loaded.game) is None
    assert "clocks" not in service.view(loaded.game)
    assert service.apply_timeouts(loaded.game) == []


def test_a_seated_game_with_a_clock_runs_it_from_the_table_opening(tmp_path):
    # CLOCK-1, CLOCK-2: the clock_set comes between the table's opening and the seats'
    # entropy; no clock runs while seating; from the kind's first events it does
    from engine.service import CONSOLE
    from engine.store.memory import MemoryStore

    time = Time()
    service = GameService(MemoryStore(), clock=time)
    game = service.create("atkr", {"players": ["Anna", "Ben"]}, seat_entropy=True,
                          clock=control("1m")).game
    assert [s["running"] for s in service.clocks(game)["seats"]] == [False, False]
    time.set(100)  # a seat that never sits stalls the table, not a clock
    assert service.apply_timeouts(game) == []
    for at, name, value in ((101, "Anna", "ab" * 32), (102, "Ben", "cd" * 32)):
        time.set(at)
        service.submit(game, {"type": "seat_entropy", "player": name, "value": value},
                       actor=CONSOLE)
    time.set(130)
    now = service.clocks(game)
    assert [(s["remaining"], s["running"]) for s in now["seats"]] == [(32_000, True)] * 2
    assert verify_bytes(service.store.log_bytes(game)).ok
