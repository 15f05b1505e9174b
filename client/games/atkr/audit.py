"""The bank's ledger of an Auf Teufel komm raus game (engine.games.atkr.audit.Audit) as text
and CSV, for ``devil audit``."""

from __future__ import annotations

import csv as _csv
import io


def csv(result) -> str:
    """Every transfer as CSV: a header row ``game,round,seq,from,to,amount,rule`` then one row
    per transfer in log order (the game id on every row, so ledgers of many games concatenate)."""
    out = io.StringIO()
    writer = _csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "round", "seq", "from", "to", "amount", "rule"])
    for number, t in result.transfers():
        writer.writerow([result.game, number, t.seq, t.frm, t.to, t.amount, t.rule])
    return out.getvalue()


def text(result) -> str:
    """The ledger as text."""
    lines = [f"Bank audit of {result.game}: {', '.join(result.players)} "
             f"({'finished' if result.finished else 'in progress'})"]
    for r in result.rounds:
        bets = ", ".join(f"{n} {b}" for n, b in r.bets.items()) or "(not yet revealed)"
        high = "-" if r.highest_total is None else str(r.highest_total)
        lines.append(f"Round {r.round} (start {r.start}): bets {bets}; highest total {high}")
        for t in r.transfers:
            lines.append(f"  #{t.seq:<5} {t.frm:>8} -> {t.to:<8} {t.amount:>5}  {t.rule}")
    lines.append("Money, reconciled from the start through every transfer:")
    for name, rows in result.ledger.items():
        gained = sum(d for _, d, _, _ in rows if d > 0)
        lost = -sum(d for _, d, _, _ in rows if d < 0)
        lines.append(f"  {name}: {result.start_money} + {gained} - {lost} = {result.money[name]}")
    lines.append(f"Bank balance {result.bank:+d}; the bank was down at most "
                 f"{result.bank_max_deficit}")
    if result.ok:
        lines.append("OK: every payout matches the one re-derived from the bets and draws")
    else:
        for seq, reason in result.problems:
            lines.append(f"PROBLEM at #{seq}: {reason}")
    return "\n".join(lines)

