"""Text of a tournament stream for the shared reading commands (`devil log T`, `devil show
T`, `devil replay T`): the renderer a game kind has in client.games.<kind>.render."""

from __future__ import annotations


def describe_map(data: dict, names: list[str] | None = None) -> str:
    """One line for a tournament event map (docs/log-format.md)."""
    t = data.get("type")
    if t == "tournament_created":
        return (f"tournament {data['name']!r}: {len(data['players'])} players, {data['rounds']} "
                f"rounds of {data['game']} at tables of {data['table_min']} to "
                f"{data['table_max']}, {data['format']}, points {data['points']}, seed "
                f"{data['seed']}")
    if t == "player_added":
        return f"{data['player']} registered late, plays from round {data['round']}"
    if t == "player_dropped":
        why = f" ({data['reason']})" if data.get("reason") else ""
        return f"{data['player']} dropped from round {data['round']}{why}"
    if t == "round_paired":
        tables = "; ".join(f"{i}: {', '.join(tb['players'])}" for i, tb in
                           enumerate(data["tables"], 1))
        byes = f"; byes {', '.join(data['byes'])}" if data["byes"] else ""
        return f"round {data['round']} paired: {tables}{byes}"
    if t == "game_attached":
        return f"round {data['round']} table {data['table']} plays {data['game']}"
    if t == "result_recorded":
        return (f"round {data['round']} table {data['table']}: result of {data['game']} at "
                f"record {data['seq']}: places {data['places']}, points {data['points']}")
    if t == "round_closed":
        return f"round {data['round']} closed"
    if t == "points_adjusted":
        return f"{data['kind']} for {data['player']}: {data['points']} ({data['reason']})"
    if t == "table_adjudicated":
        how = "as the referee's call" if data["forced"] else "at time"
        return (f"round {data['round']} table {data['table']}: {data['game']} adjudicated {how}"
                f" ({data['reason']})")
    if t == "result_amended":  # the replaced result struck through (TOUR-9.1)
        from .desk import strike

        return (f"round {data['round']} table {data['table']}: result amended "
                f"({data['reason']}): {strike('result at record ' + str(data['was_seq']))} -> "
                f"record {data['seq']}: places {data['places']}, points {data['points']}")
    if t == "tournament_finished":
        return f"finished: {', '.join(data['ranking'][:3])} ..."
    if t == "player_checked_in":  # TOUR-7
        return f"{data['player']} checked in for round {data['round']}"
    if t == "player_forfeited":
        how = ("the table is made again without them" if data["remade"]
               else f"the bot {data['bot']!r} plays the seat")
        return (f"{data['player']} forfeits at round {data['round']} table {data['table']}: "
                f"{how} ({data['reason']})")
    if t == "seats_swapped":
        return (f"round {data['round']}: {data['first']} and {data['second']} swap seats "
                f"({data['reason']})")
    if t == "round_unpaired":
        return f"round {data['round']}'s pairing undone ({data['reason']})"
    return str(data)


def describe(event, names: list[str] | None = None) -> str:
    from engine.tournament.events import EVENTS

    return describe_map(EVENTS.to_map(event), names)


def table(view: dict, you: str | None = None) -> str:
    """The tournament's round and its standings' first lines."""
    lines = [f"{view.get('name')} ({view.get('game')}): round {view.get('round')} of "
             f"{view.get('rounds')}" + (", finished" if view.get("finished") else ""),
             "see `devil tournament show` and `devil tournament standings`"]
    for row in (view.get("standings") or [])[:10]:
        lines.append(f"  {row['rank']:>3}. {row['player']:<20} {row['points']}")
    return "\n".join(lines)


def summarize_legal(commands: list[dict]) -> str:
    return ""


def next_hint(view: dict) -> str:
    return ""
