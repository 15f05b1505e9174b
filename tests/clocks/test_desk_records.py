"""CLOCK-3: a move is a game command.  A seat's desk record (a dispute, a takeback asked or
answered) neither stops its clock nor earns the Fischer increment.  Worked by hand on
engine.clock.Clocks with chosen record times (ms since the game's creation)."""

from engine.clock import Clocks, ClockSet
from engine.desk.events import DisputeRaised
from engine.games.atkr.events import BetPlaced

BASE, INCREMENT = 20 * 60_000, 10_000


def test_a_dispute_is_not_a_move_and_a_bet_is():
    clocks = Clocks()
    # 20m+10s set at 0; both seats are to bet, so both clocks run from 0
    clocks.step(0, -1, [ClockSet(BASE, INCREMENT, None, "flag")], [0, 1], 2)
    assert clocks.running == {0: 0, 1: 0}
    # at 5 s Ben (seat 1) disputes a record: the game still waits for both bets; his clock
    # runs on, nothing charged, no increment
    clocks.step(5_000, 1, [DisputeRaised(1, 1, 1, "that was not my bet")], [0, 1], 2)
    assert clocks.running == {0: 0, 1: 0} and clocks.remaining == {0: BASE, 1: BASE}
    # at 8 s Ben bets: his 8 s are charged and the increment added, 20:00 - 0:08 + 0:10 =
    # 20:02; only Anna's clock runs on
    clocks.step(8_000, 1, [BetPlaced(1, 40)], [0], 2)
    assert clocks.remaining[1] == BASE - 8_000 + INCREMENT == 1_202_000
    assert list(clocks.running) == [0] and clocks.moves == {1: 1}
