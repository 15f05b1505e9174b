"""The bank's ledger of an Auf Teufel komm raus game (engine.games.atkr.audit.Audit) as text,
and the totals of many games' ledger (engine.ledger), for ``devil audit``; the CSV of one game
or many is the shared ledger's (client.ledger)."""

from __future__ import annotations


def totals_text(block: dict) -> str:
    """The ledger of many games (engine.ledger, one kind's block: ``games``, ``totals``,
    ``players``, ``tournaments``, ``top``; the names are Audit.totals()') as text."""
    lines = [f"Ledger of {block['games']} games:"] + _group_lines(block, "  ")
    for tid, group in block["tournaments"].items():
        lines.append(f"Tournament {tid} ({group['name']}), {group['games']} games:")
        lines += _group_lines(group, "  ")
    top = block["top"]
    if top["games"]:
        lines.append(f"Where the bank was down the most (top {len(top['games'])}, by its "
                     "lowest balance, ATKR-1.4):")
        lines += [f"  {g['rank']}. {g['value']:>6}  {g['game']}  {g['path']}"
                  for g in top["games"]]
    return "\n".join(lines)


def _group_lines(group: dict, indent: str) -> list[str]:
    t = group["totals"]
    lines = [
        f"{indent}money {t['money_start']} at the start, {t['money_end']} at the end"
        + (f", {t['on_table']} on the table" if t["on_table"] else ""),
        f"{indent}bet {t['bet']} (ATKR-3.5); the bank paid {t['bank_paid']} (bets won "
        f"{t['bets_won']}, prizes {t['prizes']}, pacts {t['pact_by_bank']}) and won "
        f"{t['bank_won']} (lost bets, ATKR-5.4): balance {t['bank_balance']:+d}",
        f"{indent}pact payments (ATKR-6.5): {t['pact_by_seats']} paid by seats, "
        f"{t['pact_by_bank']} by the bank",
        f"{indent}the bank's lowest balance {t['bank_lowest']}",
        f"{indent}players (games, money start -> end, bet, won from / lost to the bank, "
        "pact paid / received):"]
    for name, p in group["players"].items():
        lines.append(f"{indent}  {name}: {p['games']}, {p['money_start']} -> {p['money_end']}, "
                     f"bet {p['bet']}, +{p['won_from_bank']} / -{p['lost_to_bank']}, pact paid "
                     f"{p['pact_paid']} / received {p['pact_received']}")
    return lines


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

