"""Auf Teufel komm raus's part of the regulator's record (GameRules.record; engine.record
assembles and writes it, docs/record.md says every field).

:func:`record` reads a recorded game (:class:`engine.replay.LoadedLog`) and gives

* ``rules_version``: ``game_created.rules`` (e.g. ``"atkr-2013"``); ``setup``: every option of
  the first event (start player, physical, ring, track, start money, goal, chosen seed);
* ``money``: each player's money at the start (200, ATKR-1.3) and at the end, the totals bet
  and paid and their parts (below), the bank's balance and deepest deficit (ATKR-1.4);
* ``rounds``: per round its start player (ATKR-2.1), the highest total and bet (ATKR-5.1,
  5.5), and four lists of facts: ``bet`` (ATKR-3.1: every seat's bet, 0 included), ``draw``
  (ATKR-4.2 to 4.4: each coal, devil and stop in order), ``payout`` (every transfer of phase 3
  and every pact payment, ATKR-5.3 to 5.7 and 6.5, from the bank's audit) and ``pact``
  (ATKR-6.2: who held the pact during the round, who entered it at the round's phase 4);
* ``result``: the final money (ATKR-8.2: winners are the common part); ``audit``: whether the
  bank's audit (:mod:`engine.games.atkr.audit`, which re-derives every payout) holds;
* ``phases``: the phase of the round each record belongs to (ATKR-2).

Payouts, money and pacts are the audit's (one re-derivation, not two); bets and draws are the
recorded facts.  Totals (money: integer chips, multiples of 10):

* ``total_bet``: every stake placed (ATKR-3.5);
* ``total_paid``: everything paid to players from the table and the bank: ``stakes_returned``
  (the stakes of winning bets, ATKR-5.3) + ``won`` (the bank's 1x or 2x, ATKR-5.3 / 5.5) +
  ``prizes`` (ATKR-5.6, 5.7) + ``pact_paid_by_bank`` (ATKR-6.5);
* ``stakes_lost`` (ATKR-5.4), ``pact_paid_by_players`` (drawer to holder, ATKR-6.5),
  ``on_table`` (stakes still in play: a round not yet settled).

So ``sum(end) - sum(start) == total_paid - total_bet`` and ``bank_balance == stakes_lost -
won - prizes - pact_paid_by_bank``, which tests/tools/test_record.py checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from .audit import BANK_NAME, TABLE_NAME, audit

if TYPE_CHECKING:  # pragma: no cover
    from ...replay import LoadedLog

#: the phase of the round (ATKR-2) each event type belongs to, in the record
PHASES = {ev.GameCreated: "setup", ev.RoundStarted: "betting", ev.BetPlaced: "betting",
          ev.BetsRevealed: "betting", ev.CoalDrawn: "drawing", ev.Stopped: "drawing",
          ev.PactPaid: "drawing", ev.BetWon: "winnings", ev.BetLost: "winnings",
          ev.PrizePaid: "winnings", ev.PawnsPlaced: "pawns", ev.FurnaceRefilled: "refill",
          ev.GameEnded: "over"}

#: a payout's name in the record, by its rule (and whether it comes from the table)
_PAYOUT_NAMES = {"ATKR-5.4": "bet lost", "ATKR-5.6": "highest total prize",
                 "ATKR-5.7": "most coals prize", "ATKR-6.5": "pact payment"}


def payout_name(frm: str, rule: str) -> str:
    """What a transfer of the audit is, in words: a won bet's stake coming back from the table
    (``stake returned``) or the bank's win (``bet won``), a lost bet, a prize, a pact payment."""
    if rule in ("ATKR-5.3", "ATKR-5.5"):
        return "stake returned" if frm == TABLE_NAME else "bet won"
    return _PAYOUT_NAMES.get(rule, rule)


def record(log: "LoadedLog") -> dict | None:
    """The kind's part of the record of ``log`` (see the module docstring): a JSON-able dict,
    or None when the log holds no ``game_created`` yet.  A corrected game is recorded as
    corrected (the voided records are left out of rounds and money; every record, voided or
    not, keeps its phase).  Raises UsageError as :func:`engine.games.atkr.audit.audit` does
    for a log it cannot read."""
    created = next((e for e in log.events if type(e) is ev.GameCreated), None)
    if created is None:
        return None
    phases = {r.seq: PHASES[type(e)] for r, e in zip(log.records, log.events)
              if type(e) in PHASES}
    effective = log.effective()
    ledger = audit(effective)
    names = list(created.players)
    facts = _facts(effective, names)
    rounds = []
    for item in ledger.rounds:
        own = facts.get(item.round, {})
        payouts = [{"seq": t.seq, "player": t.to if t.to not in (BANK_NAME, TABLE_NAME)
                    else t.frm, "from": t.frm, "to": t.to, "amount": t.amount, "rule": t.rule,
                    "name": payout_name(t.frm, t.rule)}
                   for t in item.transfers if t.rule != "ATKR-3.5"]
        held = own.get("held", [])
        rounds.append({"round": item.round, "seq": own.get("seq"), "start": item.start,
                       "highest_total": item.highest_total, "highest_bet": item.highest_bet,
                       "bet": own.get("bet", []), "draw": own.get("draw", []),
                       "payout": payouts, "pact": held + own.get("entered", [])})
    return {"rules_version": created.rules,
            "setup": {"first": names[created.first], "first_drawn": created.first_drawn,
                      "physical": created.physical, "ring": created.ring,
                      "track_low": created.track_low, "track": list(created.track),
                      "start_money": created.start_money, "goal": created.goal,
                      "seed_chosen": created.seed_chosen},
            "money": _money(ledger, names, created.start_money),
            "rounds": rounds,
            "result": {"final_money": dict(ledger.money)},
            "audit": {"ok": ledger.ok,
                      "problems": [{"seq": s, "reason": r} for s, r in ledger.problems]},
            "phases": phases}


def _facts(log: "LoadedLog", names: list[str]) -> dict[int, dict]:
    """round -> {"seq": round_started's, "bet": [...], "draw": [...], "held": [...],
    "entered": [...]}: the recorded bets, draws and pawns of every round."""
    out: dict[int, dict] = {}
    current: dict = {}
    holders: list[dict] = []  # the pact as the last phase 4 left it
    coals: dict[int, list[int]] = {}
    for record, event in zip(log.records, log.events):
        t = type(event)
        if t is ev.RoundStarted:
            current = out.setdefault(event.round, {"seq": record.seq, "bet": [], "draw": [],
                                                   "held": [dict(h, name="held")
                                                            for h in holders],
                                                   "entered": []})
            coals = {}
        elif t is ev.BetPlaced and current:
            current["bet"].append({"seq": record.seq, "player": names[event.seat],
                                   "amount": event.amount, "rule": "ATKR-3.1"})
        elif t is ev.CoalDrawn and current:
            coals.setdefault(event.seat, []).append(event.coal)
            devil = event.coal == ev.DEVIL
            current["draw"].append({"seq": record.seq, "player": names[event.seat],
                                    "name": "devil" if devil else "coal", "value": event.coal,
                                    "rule": "ATKR-4.4" if devil else "ATKR-4.2"})
        elif t is ev.Stopped and current:
            current["draw"].append({"seq": record.seq, "player": names[event.seat],
                                    "name": "stop", "value": sum(coals.get(event.seat, [])),
                                    "rule": "ATKR-4.3"})
        elif t is ev.PawnsPlaced and current:
            holders = [{"seq": record.seq, "player": names[seat], "amount": money,
                        "rule": "ATKR-6.2"}
                       for seat, money in zip(event.pacts, event.pact_money)]
            current["entered"] = [dict(h, name="entered") for h in holders]
    return out


def _money(ledger, names: list[str], start_money: int) -> dict:
    """Money at the start and the end, the totals bet and paid and their parts (module
    docstring), the bank's balance and deepest deficit."""
    sums = {"total_bet": 0, "stakes_returned": 0, "won": 0, "prizes": 0,
            "pact_paid_by_bank": 0, "pact_paid_by_players": 0, "stakes_lost": 0}
    for _, t in ledger.transfers():
        if t.to == TABLE_NAME:
            sums["total_bet"] += t.amount
        elif t.frm == TABLE_NAME:
            sums["stakes_lost" if t.to == BANK_NAME else "stakes_returned"] += t.amount
        elif t.rule == "ATKR-6.5":
            sums["pact_paid_by_bank" if t.frm == BANK_NAME else "pact_paid_by_players"] += \
                t.amount
        elif t.rule in ("ATKR-5.6", "ATKR-5.7"):
            sums["prizes"] += t.amount
        else:
            sums["won"] += t.amount
    total_paid = (sums["stakes_returned"] + sums["won"] + sums["prizes"]
                  + sums["pact_paid_by_bank"])
    return {"start": {name: start_money for name in names}, "end": dict(ledger.money),
            "total_bet": sums["total_bet"], "total_paid": total_paid,
            "stakes_returned": sums["stakes_returned"], "won": sums["won"],
            "prizes": sums["prizes"], "pact_paid_by_bank": sums["pact_paid_by_bank"],
            "pact_paid_by_players": sums["pact_paid_by_players"],
            "stakes_lost": sums["stakes_lost"],
            "on_table": sums["total_bet"] - sums["stakes_returned"] - sums["stakes_lost"],
            "bank_balance": ledger.bank, "bank_max_deficit": ledger.bank_max_deficit}
