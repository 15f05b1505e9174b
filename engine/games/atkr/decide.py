"""Checking an Auf Teufel komm raus command against the rules and deciding its facts.

``decide(state, command, chance) -> [event]`` never changes ``state``.  It raises
:class:`engine.errors.IllegalCommand` with the rule id for anything the rules forbid
(ATKR-9.1, 9.2).  After the last turn of phase 2 it also decides phases 3 and 4, the refill,
the end of the game, and the next round, all in the same list (a command is atomic).
"""

from __future__ import annotations

from ...errors import IllegalCommand
from ...game import check_reporter, seat_of
from . import events as ev
from .commands import Bet, Draw, Stop
from .evolve import evolve
from .state import (COAL_KINDS, KIND_INDEX, PACT_PAYMENT, PHASE_BET, PHASE_DRAW, PHASE_OVER,
                    PHASE_SETUP, PRIZE, State, coal_name, track_space)


class _Facts:
    """Events decided so far, applied to a scratch copy so later checks see them."""

    def __init__(self, state: State):
        self.state = state.copy()
        self.events: list = []

    def add(self, event) -> None:
        self.events.append(event)
        evolve(self.state, event)


def seat_for(state: State, name: str) -> int:
    """The seat of player ``name``; IllegalCommand ATKR-9.2 for an unknown player."""
    return seat_of(state.players, name, "ATKR-9.2")


def decide(state: State, command, chance) -> list:
    """The events ``command`` causes in ``state`` (see the module docstring).

    ``chance`` draws the coals of a digital game; it is None in a physical game, where the
    referee gives each coal in the command (ATKR-9.3).
    """
    if state.phase == PHASE_SETUP:
        raise IllegalCommand("ATKR-9.2", "the game has not been set up yet")
    if state.phase == PHASE_OVER:
        raise IllegalCommand("ATKR-9.2", "the game is over; no more commands are taken")
    seat = seat_for(state, command.player)
    if isinstance(command, Bet):
        return _bet(state, seat, command.amount)
    if isinstance(command, Draw):
        return _draw(state, seat, command.coal, chance, command.reporter)
    if isinstance(command, Stop):
        return _stop(state, seat, chance)
    raise IllegalCommand("ATKR-9.2", f"{type(command).__name__} is not an atkr command")


def _bet(state: State, seat: int, amount: int) -> list:
    name = state.players[seat]
    if state.phase != PHASE_BET:
        raise IllegalCommand("ATKR-2", "bets are placed in phase 1; the round is now in phase 2 "
                                       "(pulling coals)")
    if state.bet_in[seat]:
        if state.money[seat] == 0 and state.table[seat] == 0:
            raise IllegalCommand("ATKR-3.3", f"{name} has no money and does not bet this round")
        raise IllegalCommand("ATKR-3.2", f"{name} has already bet this round; a bet is final")
    if amount < 0 or amount % 10:
        raise IllegalCommand("ATKR-3.1", f"a bet is a multiple of 10 from 0 up; {amount} is not")
    if amount > state.money[seat]:
        raise IllegalCommand("ATKR-3.1", f"{name} has {state.money[seat]} and cannot bet {amount}")
    facts = _Facts(state)
    facts.add(ev.BetPlaced(seat, amount))
    if all(facts.state.bet_in):
        facts.add(ev.BetsRevealed(list(facts.state.bets)))
    return facts.events


def _check_turn(state: State, seat: int, verb: str) -> None:
    name = state.players[seat]
    if state.phase != PHASE_DRAW:
        raise IllegalCommand("ATKR-2", f"coals are drawn in phase 2, after every bet is in; "
                                       f"{name} cannot {verb} now")
    if state.turn != seat:
        assert state.turn is not None  # in phase 2 a seat draws (ATKR-4.1)
        raise IllegalCommand("ATKR-4.1", f"it is {state.players[state.turn]}'s turn, not {name}'s")


def _draw(state: State, seat: int, coal: int | None, chance, reporter: str | None = None) -> list:
    _check_turn(state, seat, "draw")
    if reporter is not None:
        reporter = check_reporter(reporter, state.physical, "ATKR-9.3",
                                  "the furnace draws the coal")
    if state.physical:
        if coal is None:
            raise IllegalCommand("ATKR-9.3", "in a physical game the referee gives the coal drawn "
                                             "(10, 20, 25, 50, 75, 100 or devil)")
        if coal not in KIND_INDEX:
            raise IllegalCommand("ATKR-1.1", f"there is no coal {coal!r}; coals are 10, 20, 25, "
                                             "50, 75, 100 and devil")
        if state.furnace[KIND_INDEX[coal]] == 0:
            raise IllegalCommand("ATKR-9.3", f"no {coal_name(coal)} coal is left in the furnace")
    else:
        if coal is not None:
            raise IllegalCommand("ATKR-9.3", "in a digital game the furnace draws the coal; "
                                             "do not give one")
        if state.duplicate:  # a tournament's duplicate round (TOUR-11)
            from .duplicate import pick
            coal = COAL_KINDS[pick(state, chance)]
        else:
            coal = COAL_KINDS[chance.pick(state.furnace, "draw", state.draws)]
    facts = _Facts(state)
    facts.add(ev.CoalDrawn(seat, coal, reporter))
    if coal == ev.DEVIL:
        _pact_payments(facts, seat)
    if facts.state.turn is None:  # ATKR-4.6, or the last player's turn ended
        _end_round(facts, chance)
    return facts.events


def _stop(state: State, seat: int, chance) -> list:
    _check_turn(state, seat, "stop")
    if not state.coals[seat]:
        raise IllegalCommand("ATKR-4.2", f"{state.players[seat]} must draw at least one coal "
                                         "before stopping")
    facts = _Facts(state)
    facts.add(ev.Stopped(seat))
    if facts.state.turn is None:
        _end_round(facts, chance)
    return facts.events


def _pact_payments(facts: _Facts, drawer: int) -> None:
    """ATKR-4.5 / 6.5: the drawer pays 50 to every other pact holder, clockwise from the drawer,
    from money not on the table; the bank pays each holder the drawer cannot pay in full."""
    state = facts.state
    holders = sorted((h for h in state.pacts if h != drawer), key=lambda h: (h - drawer) % state.n)
    for holder in holders:
        payer = drawer if facts.state.money[drawer] >= PACT_PAYMENT else ev.BANK
        facts.add(ev.PactPaid(drawer, payer, holder, PACT_PAYMENT))


def round_order(state: State) -> list[int]:
    """Seats from the start player clockwise (ATKR-4.1, 5.2)."""
    return [(state.start + i) % state.n for i in range(state.n)]


def _end_round(facts: _Facts, chance) -> None:
    """Phases 3 and 4, the end check and the refill, then the next round."""
    _winnings(facts)
    _pawns(facts)
    state = facts.state
    if any(money >= state.goal for money in state.money):  # ATKR-8.1
        best = max(state.money)
        winners = [seat for seat, money in enumerate(state.money) if money == best]  # ATKR-8.2
        # a duplicate game's seed is the round's, revealed when the round closes (TOUR-11.3)
        reveal = chance.reveal() if chance is not None and not state.duplicate \
            else {"seed": None, "salt": None}
        facts.add(ev.GameEnded(winners, list(state.money), reveal["seed"], reveal["salt"]))
        return
    left = state.left_in_furnace()
    if left <= state.ring:  # ATKR-7.1
        facts.add(ev.FurnaceRefilled(left))
    facts.add(ev.RoundStarted(state.round + 1, (state.start + 1) % state.n))  # ATKR-2.1
    if all(facts.state.bet_in):  # nobody has money to bet (ATKR-3.3)
        facts.add(ev.BetsRevealed(list(facts.state.bets)))


def _winnings(facts: _Facts) -> None:
    """Phase 3 (ATKR-5)."""
    state = facts.state
    order = round_order(state)
    highest_total = max(state.total(seat) for seat in order)  # ATKR-5.1
    highest_bet = max(state.bets)
    for seat in order:  # ATKR-5.2
        stake = state.bets[seat]
        if stake == 0:
            continue  # ATKR-5.3: a bet of 0 wins nothing
        if highest_total >= stake:
            if stake == highest_bet:
                facts.add(ev.BetWon(seat, stake, 2 * stake, "ATKR-5.5"))
            else:
                facts.add(ev.BetWon(seat, stake, stake, "ATKR-5.3"))
        else:
            facts.add(ev.BetLost(seat, stake))
    laid = [seat for seat in order if state.laid_out(seat)]
    if not laid:  # ATKR-5.8
        return
    for seat in laid:  # ATKR-5.6
        if state.total(seat) == highest_total:
            facts.add(ev.PrizePaid(seat, PRIZE, "ATKR-5.6"))
    most = max(len(state.coals[seat]) for seat in laid)
    for seat in laid:  # ATKR-5.7
        if len(state.coals[seat]) == most:
            facts.add(ev.PrizePaid(seat, PRIZE, "ATKR-5.7"))


def _pawns(facts: _Facts) -> None:
    """Phase 4 (ATKR-6.1, 6.2)."""
    state = facts.state
    spaces = [track_space(money, state.track_low, state.track) for money in state.money]
    lowest = min(spaces)
    on_lowest = [seat for seat, space in enumerate(spaces) if space == lowest]
    pacts = [seat for seat, space in enumerate(spaces)
             if space == 0 or (len(on_lowest) == 1 and seat == on_lowest[0])]
    facts.add(ev.PawnsPlaced(spaces, pacts, [state.money[seat] for seat in pacts]))
