"""What one seat may see of an Auf Teufel komm raus game, and what it may do.

* :func:`redact`: another seat's bet is sealed (ATKR-3.2) until ``bets_revealed``; everything
  else happens openly at the table.
* :func:`view`: a JSON-able map of the table as ``viewer`` sees it.  A seat sees its own money
  and bet, everyone's track space, the exact money of pact holders (ATKR-6.4) and, once
  revealed, every bet; the referee sees everything.  Values the viewer may not see are None.
* :func:`legal_commands`: every command ``seat`` may submit now; :func:`choices` the same
  built lazily (a range of bets, not every bet), for bots in bulk (engine.simulate).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ...game import REFEREE, seat_of
from . import events as ev
from .commands import Bet, Draw, Stop
from .state import (COAL_KINDS, KIND_INDEX, PHASE_BET, PHASE_DRAW, PHASE_OVER, State, coal_name,
                    space_label)


def redact(event, viewer):
    """``event`` as ``viewer`` (a seat, REFEREE or PUBLIC) may see it."""
    if type(event) is ev.BetPlaced and viewer is not REFEREE and viewer != event.seat:
        return ev.BetPlaced(event.seat, None)
    return event


def _sees_money(state: State, viewer, seat: int) -> bool:
    if state.bets and state.bet_in[seat] and state.bets[seat] is None:
        return False  # sealed bet: money not on the table is unknown
    if (state.bets and state.bet_in[seat] and not state.revealed and viewer is not REFEREE
            and viewer != seat and (state.bets[seat], state.money[seat]) != (0, 0)):
        # the referee's state knows the sealed bet, and the money left would tell it (ATKR-3.2);
        # a seat without money bets 0 openly (3.3), which every fold knows
        return False
    if state.phase == PHASE_OVER:
        return True  # game_ended publishes everyone's money
    return viewer is REFEREE or viewer == seat or seat in state.pacts


def view(state: State, viewer) -> dict:
    """The table as ``viewer`` sees it (the shape is documented in docs/commands.md)."""
    players = []
    for seat, name in enumerate(state.players):
        coals = state.coals[seat] if state.coals else []
        bet = state.bets[seat] if state.bets else None
        if bet is not None and not state.revealed and viewer is not REFEREE and viewer != seat:
            bet = None  # (cannot happen with a redacted fold; belt and braces)
        space = state.spaces[seat] if state.spaces else 0
        players.append({
            "name": name,
            "money": state.money[seat] if _sees_money(state, viewer, seat) else None,
            "bet": bet,
            "has_bet": bool(state.bet_in[seat]) if state.bet_in else False,
            "coals": [coal_name(c) if c == ev.DEVIL else c for c in coals],
            "total": state.total(seat) if state.coals else 0,
            "busted": bool(state.busted[seat]) if state.busted else False,
            "stopped": bool(state.stopped[seat]) if state.stopped else False,
            "pact": seat in state.pacts,
            "track": space_label(space, state.track_low, state.track),
            "space": space,
        })
    left = state.left_in_furnace()
    devils = state.furnace[KIND_INDEX[ev.DEVIL]]
    return {
        "kind": "atkr",
        "round": state.round,
        "phase": state.phase,
        "start_player": state.players[state.start] if state.players else None,
        "turn": state.players[state.turn] if state.turn is not None else None,
        "players": players,
        "furnace": {
            "left": left,
            "devils_left": devils,
            "coals": {coal_name(kind): count for kind, count in zip(COAL_KINDS, state.furnace)},
            "devil_chance": round(devils / left, 4) if left else 0.0,
        },
        "winners": [state.players[s] for s in state.winners],
        "physical": state.physical,
        "options": {"ring": state.ring, "track": [f"0-{state.track_low}", *state.track]},
        "bank": state.bank if viewer is REFEREE else None,
        "seed_commitment": state.commitment,
        "seed_chosen": state.seed_chosen,
        "seed": state.seed,
    }


class Choices(Sequence):
    """The commands one seat may submit now, built only when asked (:func:`choices`).

    ``bets``: the amounts the seat may bet (a ``range`` of multiples of 10), or None outside
    its bet; ``others``: the other commands (a draw, the physical game's draws, a stop), a
    short list.  ``player``: the seat's name.  As a sequence it is the same list, in the same
    order, as :func:`legal_commands` (a ``Bet`` object is built for the index asked for).
    """

    __slots__ = ("player", "bets", "others")

    def __init__(self, player: str, bets: range | None, others: list):
        self.player, self.bets, self.others = player, bets, others

    def __len__(self) -> int:
        return len(self.bets) if self.bets is not None else len(self.others)

    def __getitem__(self, index):
        if self.bets is None:
            return self.others[index]
        if isinstance(index, slice):
            return [Bet(self.player, amount) for amount in self.bets[index]]
        return Bet(self.player, self.bets[index])

    def __iter__(self) -> Iterator:
        if self.bets is None:
            return iter(self.others)
        player = self.player
        return (Bet(player, amount) for amount in self.bets)

    def __repr__(self) -> str:
        return f"Choices({self.player!r}, bets={self.bets!r}, others={self.others!r})"


_NOTHING = Choices("", None, [])


def choices(state: State, seat: int) -> Choices:
    """Every command ``seat`` may submit now, as :class:`Choices` (GameRules.legal_choices):
    the same from the seat's own redacted fold as from the referee's state (what a seat may do
    is public to it: its own money, whose turn, its own coals)."""
    if seat is None or seat < 0 or seat >= state.n:
        return _NOTHING
    if state.phase == PHASE_BET and not state.bet_in[seat]:
        return Choices(state.players[seat], range(0, state.money[seat] + 1, 10), [])
    if state.phase == PHASE_DRAW and state.turn == seat:
        name = state.players[seat]
        if state.physical:
            out: list[Draw | Stop] = [Draw(name, kind)
                                      for kind, count in zip(COAL_KINDS, state.furnace) if count]
        else:
            out = [Draw(name)]
        if state.coals[seat]:
            out.append(Stop(name))
        return Choices(name, None, out)
    return _NOTHING


def legal_commands(state: State, seat: int) -> list:
    """Every command ``seat`` may submit now (from the seat's own redacted fold): the list of
    :func:`choices`."""
    return list(choices(state, seat))


def acting_seat(state: State, command) -> int | None:
    """The seat ``command`` acts for; None for a coal reported in a physical game (the
    referee's job, ATKR-9.3)."""
    seat = seat_of(state.players, command.player, "ATKR-9.2")
    if isinstance(command, Draw) and command.coal is not None:
        return None
    return seat
