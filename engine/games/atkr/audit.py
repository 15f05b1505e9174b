"""The bank's ledger of an Auf Teufel komm raus game, re-derived and reconciled: the kind's
``audit`` hook (GameRules.audit, run by ``devil audit``; the text and CSV are rendered by
client.games.atkr.audit).

:func:`audit` walks a recorded game (a :class:`engine.replay.LoadedLog`) and

* lists, round by round, every bet, the highest coal total and every transfer of money
  between accounts: a seat (by name), ``"bank"`` or ``"table"`` (a stake in play), each with
  the rule that moved it and the sequence number of the event;
* **re-derives** every payout from the bets and the draws, independently of the engine's
  ``decide`` (ATKR-5.3 to 5.8 for phase 3, ATKR-4.5 / 6.5 for the pact, ATKR-6.2 for who holds
  one) and compares it with what the log records; any difference is a problem at that
  record's sequence number;
* reconciles each player's money from the starting 200 through every transfer, and checks it
  against the money the log states (pact holders' money, ATKR-6.4; the final money);
* reports the largest amount the bank was ever down (ATKR-1.4).

``Audit.chart()`` is the money chart's spec (engine.chart; ``devil audit --chart``, the audit
page): every account after each round, the rounds with a pact holder marked.

Transfers: a bet moves its stake from the seat to the table (ATKR-3.5); a won bet moves the
stake back from the table and the bank pays the win (ATKR-5.3, or 2x for ATKR-5.5); a lost bet
moves the stake from the table to the bank (ATKR-5.4); prizes come from the bank (ATKR-5.6,
5.7); a pact payment comes from the drawer or, when the drawer cannot pay, the bank (ATKR-6.5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import attrs

from ...errors import UsageError

if TYPE_CHECKING:  # pragma: no cover
    from ...replay import LoadedLog

BANK_NAME = "bank"
TABLE_NAME = "table"
PRIZE = 50
PACT = 50


@attrs.define
class Transfer:
    """One movement of money: ``amount`` from ``frm`` to ``to`` (a seat's name, "bank" or
    "table"), under ``rule`` (an ATKR rule id), recorded at ``seq``."""

    frm: str
    to: str
    amount: int
    rule: str
    seq: int
    #: whose stake a transfer from the table is (a lost bet goes table -> bank: the loser)
    stake_of: str | None = None

    def to_json(self) -> dict:
        return {"from": self.frm, "to": self.to, "amount": self.amount, "rule": self.rule,
                "seq": self.seq}


@attrs.define
class Round:
    """One round of the ledger: its start player, the bets, the highest total and bet, and
    every transfer in order."""

    round: int
    start: str
    bets: dict = attrs.field(factory=dict)
    highest_total: int | None = None
    highest_bet: int | None = None
    transfers: list = attrs.field(factory=list)
    #: who held the devil's pact during this round (names; set by the last round's pawns)
    pacts: list = attrs.field(factory=list)
    #: every seat's money (name -> money) and the bank's balance once the round is over
    money_after: dict = attrs.field(factory=dict)
    bank_after: int = 0

    def to_json(self) -> dict:
        return {"round": self.round, "start": self.start, "bets": dict(self.bets),
                "highest_total": self.highest_total, "highest_bet": self.highest_bet,
                "transfers": [t.to_json() for t in self.transfers]}


@attrs.define
class Audit:
    """The whole ledger of a game: rounds, final money per player, the bank's balance and
    lowest point, and any differences between recorded and re-derived payouts."""

    game: str
    players: list
    rounds: list = attrs.field(factory=list)
    money: dict = attrs.field(factory=dict)
    start_money: int = 200
    bank: int = 0
    bank_low: int = 0
    problems: list = attrs.field(factory=list)  # [(seq, reason)]
    finished: bool = False
    ledger: dict = attrs.field(factory=dict)  # name -> [(seq, delta, balance, rule)]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first_bad_seq(self) -> int | None:
        return self.problems[0][0] if self.problems else None

    @property
    def bank_max_deficit(self) -> int:
        return max(0, -self.bank_low)

    def transfers(self) -> list[tuple[int, Transfer]]:
        """``(round number, transfer)`` for every transfer, in log order."""
        return [(r.round, t) for r in self.rounds for t in r.transfers]

    def transfer_rows(self) -> list[list]:
        """Every transfer as ``[round, seq, rule, payer, payee, amount]`` in log order (payer
        and payee: a seat's name, "bank" or "table"; amount: money, a multiple of 10): the
        rows of the archive's ledger (engine.ledger, ``devil audit --csv``)."""
        return [[r.round, t.seq, t.rule, t.frm, t.to, t.amount]
                for r in self.rounds for t in r.transfers]

    def totals(self) -> dict:
        """The game's named integer totals for the archive's ledger (engine.ledger), in money
        (integers, multiples of 10) worked from the transfers (see the module docstring):

        ``{"totals": {name: int}, "players": {seat name: {name: int}}, "lowest": [names],
        "top": name}``.  ``totals``: ``money_start`` / ``money_end`` (the seats' money summed,
        at the start (ATKR-1.3) and at the last record in force: a game in progress gives its
        current money), ``on_table`` (stakes still in play, ATKR-3.5), ``bet`` (every stake
        placed, ATKR-3.5), ``bank_paid`` (all the bank paid) = ``bets_won`` (ATKR-5.3, 5.5) +
        ``prizes`` (ATKR-5.6, 5.7) + ``pact_by_bank`` (ATKR-6.5, the drawer could not pay),
        ``bank_won`` (lost stakes, ATKR-5.4), ``bank_balance`` (= bank_won - bank_paid),
        ``pact_by_seats`` (paid by the drawer, ATKR-6.5), ``bank_lowest`` (the bank's lowest
        balance, 0 or below, ATKR-1.4).  ``players``: ``money_start``, ``money_end``, ``bet``,
        ``won_from_bank`` (bets won and prizes), ``lost_to_bank`` (the seat's lost stakes),
        ``pact_paid``, ``pact_received``.  ``lowest``: the totals that combine over games by
        their minimum (the rest add up); ``top``: the total that ranks the games (lowest
        first: where the bank was down the most)."""
        keys = ("bet", "bets_won", "prizes", "pact_by_bank", "pact_by_seats", "bank_won")
        sums = dict.fromkeys(keys, 0)
        players = {name: {"money_start": self.start_money, "money_end": self.money[name],
                          "bet": 0, "won_from_bank": 0, "lost_to_bank": 0, "pact_paid": 0,
                          "pact_received": 0} for name in self.players}
        on_table = 0
        for r in self.rounds:
            for t in r.transfers:
                if t.to == TABLE_NAME:
                    sums["bet"] += t.amount
                    players[t.frm]["bet"] += t.amount
                    on_table += t.amount
                elif t.frm == TABLE_NAME:
                    on_table -= t.amount
                    if t.to == BANK_NAME:
                        sums["bank_won"] += t.amount
                        if t.stake_of is not None:
                            players[t.stake_of]["lost_to_bank"] += t.amount
                elif t.rule == "ATKR-6.5":
                    players[t.to]["pact_received"] += t.amount
                    if t.frm == BANK_NAME:
                        sums["pact_by_bank"] += t.amount
                    else:
                        sums["pact_by_seats"] += t.amount
                        players[t.frm]["pact_paid"] += t.amount
                elif t.frm == BANK_NAME:
                    sums["prizes" if t.rule in ("ATKR-5.6", "ATKR-5.7") else "bets_won"] += \
                        t.amount
                    players[t.to]["won_from_bank"] += t.amount
        paid = sums["bets_won"] + sums["prizes"] + sums["pact_by_bank"]
        totals = {"money_start": self.start_money * len(self.players),
                  "money_end": sum(self.money.values()), "on_table": on_table,
                  "bet": sums["bet"], "bank_paid": paid, "bets_won": sums["bets_won"],
                  "prizes": sums["prizes"], "pact_by_bank": sums["pact_by_bank"],
                  "bank_won": sums["bank_won"], "bank_balance": self.bank,
                  "pact_by_seats": sums["pact_by_seats"], "bank_lowest": self.bank_low}
        return {"totals": totals, "players": players, "lowest": ["bank_lowest"],
                "top": "bank_lowest"}

    def chart(self) -> dict:
        """The money chart's spec (engine.chart): each player's money and the bank's balance
        at the start (x 0) and after every round (x = the round), the rounds in which someone
        held the devil's pact marked (ATKR-6.2) with its holders ringed."""
        series = [{"name": name, "values": [self.start_money]
                   + [r.money_after.get(name) for r in self.rounds], "dashed": False}
                  for name in self.players]
        series.append({"name": "bank", "values": [0] + [r.bank_after for r in self.rounds],
                       "dashed": True})
        marks = [{"x": index, "label": f"round {r.round}: devil's pact held by "
                                        f"{', '.join(r.pacts)} (ATKR-6.2)",
                  "series": list(r.pacts)}
                 for index, r in enumerate(self.rounds, 1) if r.pacts]
        return {"title": f"Money round by round: {self.game}", "x_label": "round",
                "y_label": "money (bank: its balance)", "x": list(range(len(self.rounds) + 1)),
                "series": series, "marks": marks, "marks_label": "devil's pact held"}

    def ledger_rows(self) -> list[dict]:
        """Every transfer in log order with the balances it leaves, for the audit page
        (engine.web.pages.audit_data's ``ledger``): ``[{"round", "seq", "rule", "from", "to",
        "amount", "from_after", "to_after", "bank_after"}]``; money in chips (an int, a
        multiple of 10, ATKR-1.3).  Accounts: a seat's name (its money not on the table, from
        the starting ``start_money``), ``"bank"`` (from 0; negative when it is down, ATKR-1.4)
        and ``"table"`` (the stakes in play, ATKR-3.5).  Raises nothing."""
        balance = {name: self.start_money for name in self.players}
        balance[BANK_NAME] = balance[TABLE_NAME] = 0
        out = []
        for number, t in self.transfers():
            balance[t.frm] -= t.amount
            balance[t.to] += t.amount
            out.append({"round": number, "seq": t.seq, "rule": t.rule, "from": t.frm,
                        "to": t.to, "amount": t.amount, "from_after": balance[t.frm],
                        "to_after": balance[t.to], "bank_after": balance[BANK_NAME]})
        return out

    def to_json(self) -> dict:
        """The whole ledger as JSON: ok, game, finished, first_bad_seq, problems, rounds,
        final_money, start_money, bank_balance, bank_max_deficit, ledger (name -> rows)."""
        return {"ok": self.ok, "game": self.game, "finished": self.finished,
                "first_bad_seq": self.first_bad_seq,
                "problems": [{"seq": s, "reason": r} for s, r in self.problems],
                "rounds": [r.to_json() for r in self.rounds],
                "final_money": dict(self.money),
                "start_money": self.start_money,
                "bank_balance": self.bank,
                "bank_max_deficit": self.bank_max_deficit,
                "ledger": {name: [{"seq": s, "amount": d, "balance": b, "rule": r}
                                  for s, d, b, r in rows] for name, rows in self.ledger.items()}}


def _fmt(item: tuple) -> str:
    kind, *fields = item
    return f"{kind}({', '.join(map(str, fields))})"


class _Auditor:
    # the walk's accounts, first set by game_created (run() lets no event come before it)
    round: Round
    bank: int
    bank_low: int

    def __init__(self, log: "LoadedLog"):
        from . import events as ev
        from .state import track_space
        self.ev = ev
        self.track_space = track_space
        self.log = log
        self.result: Audit | None = None
        self.expected: list[tuple] = []  # re-derived payouts still to come: (item, reason)
        self.phase3 = False

    # -- accounts ---------------------------------------------------------------------------
    def name(self, seat: int) -> str:
        return BANK_NAME if seat == self.ev.BANK else self.names[seat]

    def move(self, frm: str, to: str, amount: int, rule: str, seq: int,
             stake_of: str | None = None) -> None:
        if amount == 0:
            return
        self.round.transfers.append(Transfer(frm, to, amount, rule, seq, stake_of))
        for account, delta in ((frm, -amount), (to, amount)):
            if account == BANK_NAME:
                self.bank += delta
                self.bank_low = min(self.bank_low, self.bank)
            elif account == TABLE_NAME:
                pass
            else:
                seat = self.names.index(account)
                self.money[seat] += delta
                self.built.ledger[account].append((seq, delta, self.money[seat], rule))
                if self.money[seat] < 0:
                    self.problem(seq, f"{account}'s money would go below 0 ({self.money[seat]})")

    def close_round(self) -> None:
        """Note every account's money at the end of the round being walked (for the chart)."""
        if self.round.round:
            self.round.money_after = {name: self.money[s] for s, name in enumerate(self.names)}
            self.round.bank_after = self.bank

    @property
    def built(self) -> Audit:
        """The audit being built (set by game_created, which run() lets no event precede)."""
        assert self.result is not None
        return self.result

    def problem(self, seq: int, reason: str) -> None:
        self.built.problems.append((seq, reason))

    # -- re-derivation ----------------------------------------------------------------------
    def order(self) -> list[int]:
        return [(self.start + i) % self.n for i in range(self.n)]

    def derive_winnings(self) -> None:
        """Phase 3 re-derived from the bets and the coals (ATKR-5.1 to 5.8)."""
        self.phase3 = True
        totals = [0 if self.busted[s] else sum(self.coals[s]) for s in range(self.n)]
        high = max(totals) if totals else 0  # ATKR-5.1
        highest_bet = max(self.bets) if self.bets else 0
        self.round.highest_total = high
        self.round.highest_bet = highest_bet
        for seat in self.order():  # ATKR-5.2
            stake = self.bets[seat]
            if stake == 0:
                continue
            if high >= stake:  # ATKR-5.3, 5.5
                if stake == highest_bet:
                    self.expected.append(("bet_won", seat, stake, 2 * stake, "ATKR-5.5"))
                else:
                    self.expected.append(("bet_won", seat, stake, stake, "ATKR-5.3"))
            else:
                self.expected.append(("bet_lost", seat, stake, "ATKR-5.4"))
        laid = [s for s in self.order() if not self.busted[s] and self.coals[s]]
        if not laid:  # ATKR-5.8
            return
        for seat in laid:
            if totals[seat] == high and high > 0:
                self.expected.append(("prize_paid", seat, PRIZE, "ATKR-5.6"))
        most = max(len(self.coals[s]) for s in laid)
        for seat in laid:
            if len(self.coals[seat]) == most:
                self.expected.append(("prize_paid", seat, PRIZE, "ATKR-5.7"))

    def derive_pact(self, drawer: int) -> None:
        """ATKR-4.5 / 6.5: 50 to each other holder clockwise from the drawer, from the drawer's
        money not on the table while it lasts, else from the bank."""
        purse = self.money[drawer]
        for holder in sorted((h for h in self.pacts if h != drawer),
                             key=lambda h: (h - drawer) % self.n):
            if purse >= PACT:
                purse -= PACT
                self.expected.append(("pact_paid", drawer, drawer, holder, PACT, "ATKR-6.5"))
            else:
                self.expected.append(("pact_paid", drawer, self.ev.BANK, holder, PACT, "ATKR-6.5"))

    def derive_pacts(self) -> tuple[list[int], list[int]]:
        """ATKR-6.1 / 6.2: each seat's track space and who enters the pact."""
        spaces = [self.track_space(m, self.track_low, self.track) for m in self.money]
        lowest = min(spaces)
        on_lowest = [s for s, space in enumerate(spaces) if space == lowest]
        pacts = [s for s, space in enumerate(spaces)
                 if space == 0 or (len(on_lowest) == 1 and s == on_lowest[0])]
        return spaces, pacts

    def check_expected(self, recorded: tuple, seq: int) -> None:
        if not self.expected:
            self.problem(seq, f"the log records {self.describe(recorded)}, but the rules call "
                              "for no payment here")
            return
        wanted = self.expected.pop(0)
        if wanted != recorded:
            self.problem(seq, f"the log records {self.describe(recorded)}, but re-derived from "
                              f"the bets and draws it is {self.describe(wanted)}")

    def check_none_pending(self, seq: int) -> None:
        if self.expected:
            missing = "; ".join(self.describe(item) for item in self.expected)
            self.problem(seq, f"payments the rules call for are missing before this event: "
                              f"{missing}")
            self.expected = []

    def describe(self, item: tuple) -> str:
        """An expected or recorded payment item in words (:data:`_ITEM_TEXT` by its kind)."""
        text = _ITEM_TEXT.get(item[0])
        if text is None:  # pragma: no cover - the auditor makes only items it has words for
            return _fmt(item)
        return text(self, *item[1:])

    # -- the walk: one handler per event type -------------------------------------------------
    def handlers(self) -> dict:
        """event class -> the method that walks it (types not named leave the accounts alone)."""
        ev = self.ev
        return {ev.GameCreated: self.game_created, ev.RoundStarted: self.round_started,
                ev.BetPlaced: self.bet_placed, ev.BetsRevealed: self.bets_revealed,
                ev.CoalDrawn: self.coal_drawn, ev.Stopped: self.stopped,
                ev.PactPaid: self.pact_paid, ev.BetWon: self.bet_won, ev.BetLost: self.bet_lost,
                ev.PrizePaid: self.prize_paid, ev.PawnsPlaced: self.pawns_placed,
                ev.GameEnded: self.game_ended}

    def game_created(self, event, seq: int) -> None:
        self.names = list(event.players)
        self.n = len(self.names)
        self.money = [event.start_money] * self.n
        self.track_low, self.track = event.track_low, list(event.track)
        self.bank = 0
        self.bank_low = 0
        self.pacts: list[int] = []
        self.result = Audit(self.log.header.game, list(self.names),
                            start_money=event.start_money)
        self.result.ledger = {name: [] for name in self.names}
        if event.start_money != 200:
            self.problem(seq, f"players start with {event.start_money}, not 200 "
                              "(ATKR-1.3)")
        self.round = Round(0, self.names[event.first])

    def round_started(self, event, seq: int) -> None:
        self.check_none_pending(seq)
        self.close_round()
        self.start = event.start
        self.round = Round(event.round, self.names[event.start],
                           pacts=[self.names[s] for s in self.pacts])
        self.built.rounds.append(self.round)
        self.bets = [0] * self.n
        self.placed = [False] * self.n
        self.coals: list[list[int]] = [[] for _ in range(self.n)]
        self.busted = [False] * self.n
        self.phase3 = False

    def bet_placed(self, event, seq: int) -> None:
        if event.amount is None:
            self.problem(seq, "a sealed bet: audit the referee's log, which holds every bet")
            return
        if event.amount > self.money[event.seat]:
            self.problem(seq, f"{self.names[event.seat]} bets {event.amount} with only "
                              f"{self.money[event.seat]} (ATKR-3.1)")
        self.bets[event.seat] = event.amount
        self.placed[event.seat] = True
        self.move(self.names[event.seat], TABLE_NAME, event.amount, "ATKR-3.5", seq)

    def bets_revealed(self, event, seq: int) -> None:
        if list(event.bets) != self.bets:
            self.problem(seq, f"the revealed bets {list(event.bets)} are not the bets "
                              f"placed {self.bets}")
        self.round.bets = {self.names[s]: b for s, b in enumerate(event.bets)}

    def coal_drawn(self, event, seq: int) -> None:
        self.check_none_pending(seq)
        self.coals[event.seat].append(event.coal)
        if event.coal == self.ev.DEVIL:
            self.busted[event.seat] = True
            self.derive_pact(event.seat)

    def stopped(self, event, seq: int) -> None:
        self.check_none_pending(seq)

    def pact_paid(self, event, seq: int) -> None:
        self.check_expected(("pact_paid", event.drawer, event.payer, event.to,
                             event.amount, event.rule), seq)
        self.move(self.name(event.payer), self.names[event.to], event.amount,
                  event.rule, seq)

    def enter_phase3(self, seq: int) -> None:
        """At phase 3's first record: phase 2 is complete, re-derive its payouts."""
        if not self.phase3:
            self.check_none_pending(seq)
            self.derive_winnings()

    def bet_won(self, event, seq: int) -> None:
        self.enter_phase3(seq)
        self.check_expected(("bet_won", event.seat, event.stake, event.win,
                             event.rule), seq)
        name = self.names[event.seat]
        self.move(TABLE_NAME, name, event.stake, event.rule, seq)
        self.move(BANK_NAME, name, event.win, event.rule, seq)

    def bet_lost(self, event, seq: int) -> None:
        self.enter_phase3(seq)
        self.check_expected(("bet_lost", event.seat, event.stake, event.rule), seq)
        self.move(TABLE_NAME, BANK_NAME, event.stake, event.rule, seq,
                  stake_of=self.names[event.seat])

    def prize_paid(self, event, seq: int) -> None:
        self.enter_phase3(seq)
        self.check_expected(("prize_paid", event.seat, event.amount, event.rule), seq)
        self.move(BANK_NAME, self.names[event.seat], event.amount, event.rule, seq)

    def pawns_placed(self, event, seq: int) -> None:
        self.enter_phase3(seq)
        self.check_none_pending(seq)
        spaces, pacts = self.derive_pacts()
        if list(event.spaces) != spaces or list(event.pacts) != pacts:
            self.problem(seq, f"pawns and pacts recorded as {list(event.spaces)} / "
                              f"{[self.names[s] for s in event.pacts]}, but the money "
                              f"gives {spaces} / {[self.names[s] for s in pacts]} "
                              "(ATKR-6.1, 6.2)")
        wanted = [self.money[s] for s in event.pacts]
        if list(event.pact_money) != wanted:
            self.problem(seq, f"the pact holders' money is recorded as "
                              f"{list(event.pact_money)}, but the transfers give {wanted}")
        self.pacts = list(event.pacts)

    def game_ended(self, event, seq: int) -> None:
        self.check_none_pending(seq)
        self.built.finished = True
        if list(event.money) != self.money:
            self.problem(seq, f"the final money is recorded as {list(event.money)}, but "
                              f"the transfers give {self.money}")

    def run(self) -> Audit:
        log = self.log
        if log.header.kind != "atkr":
            raise UsageError(f"the bank audit is for Auf Teufel komm raus (atkr) games, not "
                             f"{log.header.kind}")
        handlers = self.handlers()
        created = self.ev.GameCreated
        for record, event in zip(log.records, log.events):
            t = type(event)
            if self.result is None and t is not created:
                raise UsageError("the log does not begin with game_created")
            handler = handlers.get(t)
            if handler is not None:
                handler(event, record.seq)
        if self.result is None:
            raise UsageError("the log holds no game yet")
        self.close_round()
        self.result.money = {name: self.money[s] for s, name in enumerate(self.names)}
        self.result.bank = self.bank
        self.result.bank_low = self.bank_low
        total = sum(self.money) + self.bank + sum(
            sum(t.amount for t in r.transfers if t.to == TABLE_NAME)
            - sum(t.amount for t in r.transfers if t.frm == TABLE_NAME) for r in self.result.rounds)
        if total != self.n * self.result.start_money:  # pragma: no cover - by construction
            self.problem(self.log.records[-1].seq, "money is not conserved")
        return self.result


#: a payment item's kind -> its words, given the auditor and the item's fields
_ITEM_TEXT: dict[str, Callable[..., str]] = {
    "bet_won": lambda a, seat, stake, win, rule:
        f"{a.names[seat]}'s bet of {stake} wins {win} ({rule})",
    "bet_lost": lambda a, seat, stake, rule: f"{a.names[seat]}'s bet of {stake} is lost ({rule})",
    "prize_paid": lambda a, seat, amount, rule: f"a prize of {amount} to {a.names[seat]} ({rule})",
    "pact_paid": lambda a, drawer, payer, to, amount, rule:
        (f"{a.name(payer)} pays {a.names[to]} {amount} after "
         f"{a.names[drawer]}'s devil ({rule})"),
}


def audit(log: "LoadedLog") -> Audit:
    """The bank's ledger of ``log`` (see the module docstring).  Raises UsageError for a log of
    another kind or one that holds no game; differences from the rules are ``problems`` of the
    result (``ok`` False), not exceptions."""
    return _Auditor(log).run()


def summary(result: Audit) -> dict[str, Any]:  # pragma: no cover - convenience
    """The two headline facts of an audit: whether it holds, and the bank's deepest deficit."""
    return {"ok": result.ok, "bank_max_deficit": result.bank_max_deficit}
