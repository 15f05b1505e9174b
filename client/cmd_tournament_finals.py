"""What ``devil tournament`` prints of finals (TOUR-10) and duplicate rounds (TOUR-11):
the standings' extra columns.  No rules here (engine.tournament.finals decides)."""

from __future__ import annotations


def final_cells(data: dict, row: dict | None) -> str:
    """The standings text's extra cells of a tournament with a final: ``swiss`` (the Swiss
    rank) and ``final`` (the place at the final table, ``2/t1`` with several final tables;
    ``-`` for a finalist whose table has no result yet, empty for the others).  ``row`` None:
    the header.  Empty text for a tournament without a final."""
    if not data.get("final_table"):
        return ""
    if row is None:
        return f" {'swiss':>5} {'final':>5}"
    place = row.get("final_place")
    if not row.get("finalist"):
        cell = ""
    elif place is None:
        cell = "-"
    elif data.get("final_tables", 1) > 1:
        cell = f"{place}/t{row['final_table']}"
    else:
        cell = str(place)
    return f" {row['swiss_rank']:>5} {cell:>5}"
