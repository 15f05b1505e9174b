"""What ``devil tournament`` prints of finals (TOUR-10) and duplicate rounds (TOUR-11):
the standings' extra columns.  No rules here (engine.tournament.finals decides)."""

from __future__ import annotations


def final_cells(data: dict, row: dict | None) -> str:
    """The standings text's extra cells of a tournament with a final: ``swiss`` (the Swiss
    rank) and ``final`` (the place at the final table, ``2/t1`` with several final tables;
    ``-`` for a finalist whose table has no result yet, empty for the others).  ``row`` None:
    the header.  Empty text for a tournament without a final."""
    dup = duplicate_cell(data, row)
    if not data.get("final_table"):
        return dup
    if row is None:
        return f" {'swiss':>5} {'final':>5}" + dup
    place = row.get("final_place")
    if not row.get("finalist"):
        cell = ""
    elif place is None:
        cell = "-"
    elif data.get("final_tables", 1) > 1:
        cell = f"{place}/t{row['final_table']}"
    else:
        cell = str(place)
    return f" {row['swiss_rank']:>5} {cell:>5}" + dup


def duplicate_cell(data: dict, row: dict | None) -> str:
    """The standings text's ``dup`` cell of a duplicate tournament (TOUR-11.5): the player's
    duplicate score (``+350``, ``-116.67``); the header for ``row`` None; empty text for other
    tournaments."""
    if not data.get("duplicate"):
        return ""
    if row is None:
        return f" {'dup':>8}"
    from engine.tournament.standings import fraction, show

    value = fraction(row.get("duplicate_exact", "0"))
    return f" {('+' if value > 0 else '') + show(value):>8}"
