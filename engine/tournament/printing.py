"""What organisers print and watch (issue 22.9; docs/tournaments.md, "What organisers print
and watch"): a round's pairings (text, CSV, JSON, one printable HTML file), one slip per table
to sign, the standings as they stood after a chosen round, and each tiebreak's inputs per
player.  Every output carries the history (engine.tournament.history).  The functions are
pure functions of a tournament's events; :class:`Printer` reads them from a GameService for the
CLI (client.cmd_tournament_print) and the service (engine.web.tournament_print).
"""

from __future__ import annotations

import csv
import html
import io
from fractions import Fraction

from ..errors import IllegalCommand
from . import events as ev
from .history import html_list, lines
from .rules import TournamentState, evolve, initial, measure_of
from .standings import compute, number, rows, show, won

#: the print styles of every page: A4, no link colours, slips one a page
PRINT_CSS = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
             "td,th{padding:.25em .6em;border-bottom:1px solid #ccc;text-align:left}"
             "td.num,th.num{text-align:right}.first{font-weight:bold}"
             ".slip{border:1px solid #000;padding:1em;margin-bottom:2em}"
             ".slip td.line{border-bottom:1px solid #000;min-width:8em;height:2em}"
             "@page{size:A4;margin:1.5cm}"
             "@media print{body{margin:0}a{color:inherit;text-decoration:none}"
             ".noprint{display:none}"
             ".slip{break-after:page;page-break-after:always;border:none;margin:0}}")


def fold(events) -> TournamentState:
    """The state of a tournament stream's ``events`` (engine.tournament.rules.evolve)."""
    state = initial()
    for event in events:
        evolve(state, event)
    return state


def after(events: list, round_: int) -> tuple[TournamentState, list]:
    """The state and events as they stood when round ``round_`` closed: the stream folded up to
    that round's RoundClosed (a penalty, late entry or drop recorded later, even one given for
    round ``round_``, is left out: the sheet printed then did not have it).  IllegalCommand
    (TOUR-12.2) when round ``round_`` has not closed."""
    cut: list = []
    for event in events:
        cut.append(event)
        if type(event) is ev.RoundClosed and event.round == round_:
            # the last round's close finishes the tournament in the same batch
            rest = events[len(cut):len(cut) + 1]
            cut.extend(e for e in rest if type(e) is ev.TournamentFinished)
            return fold(cut), cut
    closed = fold(events).closed
    raise IllegalCommand("TOUR-12.2", f"round {round_} has not closed: the standings after a "
                         f"round are those of a closed round (closed so far: "
                         f"{'none' if closed == 0 else f'1 to {closed}'})")


def standings(state: TournamentState, tournament: str, events: list | None = None,
              upto: int | None = None) -> dict:
    """The standings map of ``state`` (Organiser.standings answers it too): ``{"tournament",
    "name", "notes", "game", "round", "closed", "rounds", "finished", "final_table",
    "final_tables", "duplicate", "measure", "standings": rows}`` (``notes``: the standings'
    notes, engine.tournament.marks) (engine.tournament.standings.rows, each row
    with the player's ``attributes`` from registration, {} for none), plus, given the stream's
    ``events``, ``after`` (``upto``, or None for now) and ``history``
    (engine.tournament.history.lines)."""
    measure = measure_of(state)
    table = rows(state, measure)
    for row in table:
        row["attributes"] = dict(state.attributes.get(row["player"], {}))
    from .marks import notes

    created = state.created
    from .botseats import notes as bot_notes

    out = {"tournament": tournament, "name": created.name,
           "notes": notes(state) + bot_notes(state),  # TOUR-13: the bot-played seats
           "game": created.game,
           "round": state.round, "closed": state.closed, "rounds": created.rounds,
           "finished": state.finished, "final_table": created.final_table,
           "final_tables": created.final_tables, "duplicate": created.duplicate,
           "measure": measure, "standings": table}
    if events is not None:
        out.update(after=upto, history=lines(events, upto))
    return out


# -- pairings --------------------------------------------------------------------------------
def pairings(state: TournamentState, tournament: str, events: list,
             round_: int | None = None) -> dict:
    """Round ``round_``'s pairings (default: the last paired round): ``{"tournament", "name",
    "game", "round", "closed" (this round), "public", "tables": [{"table", "players" (seat
    order), "first", "game" (id or None), "result": None or {"places", "points"}}], "byes",
    "history"}``.  IllegalCommand (TOUR-12.2) for a round not paired."""
    if round_ is None and state.round == 0:
        raise IllegalCommand("TOUR-12.2", "no round is paired yet: pair round 1 first")
    round_ = state.round if round_ is None else round_
    if round_ not in state.tables:
        raise IllegalCommand("TOUR-12.2", f"round {round_} is not paired: rounds paired so far: "
                             + ("none" if state.round == 0 else f"1 to {state.round}"))
    tables = []
    for index, table in enumerate(state.tables[round_], 1):
        result = state.results.get((round_, index))
        tables.append({"table": index, "players": list(table.players), "first": table.first,
                       "game": state.games.get((round_, index)),
                       "result": None if result is None else {
                           "places": list(result.places), "points": list(result.points)}})
    return {"tournament": tournament, "name": state.created.name, "game": state.created.game,
            "round": round_, "closed": state.closed >= round_, "public": state.public,
            "tables": tables, "byes": list(state.byes.get(round_, [])),
            "history": lines(events)}


def pairings_text(data: dict) -> str:
    """The pairings as text: one line a table (seats in order, ``*`` the start player)."""
    out = [f"{data['name']} ({data['tournament']}): round {data['round']} pairings"
           + (" (closed)" if data["closed"] else "")]
    for t in data["tables"]:
        seats = ", ".join(f"{p}*" if p == t["first"] else p for p in t["players"])
        out.append(f"  table {t['table']:>3}: {seats}  [{t['game'] or 'no game attached'}]")
    if data["byes"]:
        out.append(f"  byes: {', '.join(data['byes'])}")
    out.append("  (* starts)")
    return "\n".join(out) + "\n"


def pairings_csv(data: dict) -> str:
    """The pairings as CSV: ``round,table,seat,player,first,game`` (one row a seat, seat from
    1; ``first`` true for the start player), then one row a bye (table and seat empty, game
    ``bye``)."""
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(["round", "table", "seat", "player", "first", "game"])
    for t in data["tables"]:
        for seat, player in enumerate(t["players"], 1):
            writer.writerow([data["round"], t["table"], seat, player,
                             "true" if player == t["first"] else "false", t["game"] or ""])
    for player in data["byes"]:
        writer.writerow([data["round"], "", "", player, "false", "bye"])
    return text.getvalue()


def watch_link(data: dict, game: str | None) -> str:
    """A table's game as page HTML: a link to its public spectator page when the tournament is
    published and the page is served (``data["served"]``), else the id as text."""
    if not game:
        return "no game attached"
    if data.get("served") and data.get("public"):
        return (f'<a href="/tournaments/{html.escape(data["tournament"])}/watch/'
                f'{html.escape(game)}">{html.escape(game)}</a>')
    return html.escape(game)


def _head(title: str) -> list[str]:
    return ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{title}</title>", f"<style>{PRINT_CSS}</style></head><body>"]


def pairings_html(data: dict, live: str = "") -> str:
    """The pairings as one printable HTML file (print CSS, no external file; every name
    escaped).  ``live``: the served page's script (live_script), "" for a file."""
    title = html.escape(f"{data['name']}: round {data['round']} pairings")
    out = _head(title) + [f"<h1>{title}</h1>",
                          f"<p>{html.escape(data['tournament'])} &middot; "
                          f"{html.escape(data['game'])} &middot; bold: the start player</p>",
                          "<table><thead><tr><th class=num>table</th><th>players (seat order)"
                          "</th><th>starts</th><th>game</th><th>result</th></tr></thead><tbody>"]
    for t in data["tables"]:
        seats = ", ".join(f'<span class="first">{html.escape(p)}</span>' if p == t["first"]
                          else html.escape(p) for p in t["players"])
        result = "playing" if t["result"] is None else "places " + ", ".join(
            f"{html.escape(p)} {place}" for p, place in zip(t["players"], t["result"]["places"]))
        out.append(f"<tr><td class=num>{t['table']}</td><td>{seats}</td>"
                   f"<td>{html.escape(t['first'])}</td><td>{watch_link(data, t['game'])}</td>"
                   f"<td>{result}</td></tr>")
    out.append("</tbody></table>")
    if data["byes"]:
        out.append(f"<p>Byes: {html.escape(', '.join(data['byes']))}</p>")
    out.append(html_list(data["history"]))
    out.append(live)
    out.append("</body></html>")
    return "\n".join(x for x in out if x) + "\n"


def slips_html(data: dict, measure: str) -> str:
    """One printable slip per table (a page each when printed): tournament, round, table, game
    id, the players in seat order with the start player marked, and a line per player to fill
    in and sign: place, ``measure`` (money or score), signature.  ``data``: :func:`pairings`."""
    title = html.escape(f"{data['name']}: round {data['round']} table slips")
    out = _head(title)
    for t in data["tables"]:
        out.append('<section class="slip">')
        out.append(f"<h2>{html.escape(data['name'])}: round {data['round']}, table "
                   f"{t['table']}</h2>")
        out.append(f"<p>Game {html.escape(t['game'] or '(no game attached)')} &middot; "
                   f"tournament {html.escape(data['tournament'])}</p>")
        out.append(f"<table><thead><tr><th class=num>seat</th><th>player</th><th>place</th>"
                   f"<th>{html.escape(measure)}</th><th>signature</th></tr></thead><tbody>")
        for seat, player in enumerate(t["players"], 1):
            mark = " (starts)" if player == t["first"] else ""
            css = ' class="first"' if mark else ""
            out.append(f"<tr><td class=num>{seat}</td><td{css}>{html.escape(player)}{mark}</td>"
                       "<td class=line></td><td class=line></td><td class=line></td></tr>")
        out.append("</tbody></table><p>Referee: ____________________</p></section>")
    if data["byes"]:
        out.append(f"<p>Byes: {html.escape(', '.join(data['byes']))}</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


# -- explain ---------------------------------------------------------------------------------
def explain(state: TournamentState) -> dict:
    """Each tiebreak's inputs per player (TOUR-3.4), ranked: ``{"measure", "tiebreaks",
    "players": [{"rank", "player", "points", "points_from": [{"round", "table" (None for a
    bye or an adjustment), "what", "points"}], "opponents": {"total", "meetings": [{"round",
    "table", "opponent", "points"}]}, "measure": {"total", "games": [{"round", "table",
    "game", "value"}]}, "wins": {"total", "games": [{"round", "table", "game"}]}, "draw"}]}``.
    Points are numbers as in the standings (an opponent's are their total now: once per
    meeting); ``draw`` is the seeded draw that orders players tied on everything else."""
    created = state.created
    totals = compute(state)
    by_name = {t.player: t for t in totals}
    measure = measure_of(state)
    detail: dict[str, dict] = {t.player: {"points_from": [], "meetings": [], "values": [],
                                          "wins": []} for t in totals}
    for round_, names in sorted(state.byes.items()):
        for name in names:
            detail[name]["points_from"].append({"round": round_, "table": None, "what": "bye",
                                                "points": number(Fraction(created.bye_points))})
    for (round_, table), result in sorted(state.results.items()):
        if round_ > created.rounds:  # the final (TOUR-10.4): in no Swiss point or tiebreak
            continue
        names = state.tables[round_][table - 1].players
        for seat, name in enumerate(names):
            d = detail[name]
            d["points_from"].append({"round": round_, "table": table, "what": "game",
                                     "points": number(Fraction(result.points[seat]))})
            d["values"].append({"round": round_, "table": table, "game": result.game,
                                "value": result.values[seat]})
            if won(state, round_, table, name, result):
                d["wins"].append({"round": round_, "table": table, "game": result.game})
            for other in names:
                if other != name:
                    d["meetings"].append({"round": round_, "table": table, "opponent": other,
                                          "points": number(by_name[other].points)})
    for adjustment in state.adjustments:
        detail[adjustment.player]["points_from"].append({
            "round": adjustment.round, "table": None, "what": adjustment.kind,
            "points": number(Fraction(adjustment.points))})
    players = []
    for rank, t in enumerate(totals, 1):
        d = detail[t.player]
        d["points_from"].sort(key=lambda p: (p["round"], p["table"] is None, p["table"] or 0))
        players.append({"rank": rank, "player": t.player, "points": number(t.points),
                        "points_from": d["points_from"],
                        "opponents": {"total": number(t.opponents_points),
                                      "meetings": d["meetings"]},
                        "measure": {"total": t.measure, "games": d["values"]},
                        "wins": {"total": t.wins, "games": d["wins"]}, "draw": t.draw})
    return {"measure": measure, "tiebreaks": list(created.tiebreaks), "players": players}


def explain_text(data: dict) -> str:
    """:func:`explain` as text: a player's line, then one line a tiebreak in the tournament's
    order (``r2 t3`` is round 2, table 3)."""
    m = data["measure"]
    out = [f"tiebreaks in order: {', '.join(data['tiebreaks'])}, then a seeded draw"]
    for p in data["players"]:
        sources = ", ".join(f"{_num(s['points'])} ({_where(s)})" for s in p["points_from"])
        out.append(f"{p['rank']:>4}. {p['player']}: {_num(p['points'])} "
                   f"point{'' if p['points'] in (1, -1) else 's'}"
                   + (f" = {sources}" if sources else ""))
        for tiebreak in data["tiebreaks"]:
            if tiebreak == "opponents":
                parts = ", ".join(f"{x['opponent']} {_num(x['points'])} (r{x['round']} "
                                  f"t{x['table']})" for x in p["opponents"]["meetings"])
                out.append(f"        opponents' points {_num(p['opponents']['total'])}"
                           + (f" = {parts}" if parts else " (no opponents)"))
            elif tiebreak == "measure":
                parts = ", ".join(f"{x['value']} (r{x['round']} t{x['table']})"
                                  for x in p["measure"]["games"])
                out.append(f"        {m} {p['measure']['total']}"
                           + (f" = {parts}" if parts else " (no games)"))
            elif tiebreak == "wins":
                parts = ", ".join(f"r{x['round']} t{x['table']} {x['game']}"
                                  for x in p["wins"]["games"])
                out.append(f"        wins {p['wins']['total']}" + (f": {parts}" if parts else ""))
    return "\n".join(out) + "\n"


def _num(value) -> str:
    return show(Fraction(str(value))) if isinstance(value, float) else str(value)


def _where(source: dict) -> str:
    if source["table"] is None:
        return f"{source['what']}, round {source['round']}"
    return f"r{source['round']} t{source['table']}"


def live_script(changes: str, version: int) -> str:
    """The served pages' live update: a long poll of ``changes`` (the tournament's
    ``/changes`` route, ``?after=VERSION&wait=25``) that reloads the page when the stream has
    grown past ``version`` (its length when the page was made)."""
    return ("<script>(function(){var v=" + str(int(version)) + ",u=" + _js(changes) + ";"
            "function poll(){fetch(u+'?after='+v+'&wait=25').then(function(r){return r.json()})"
            ".then(function(d){if(d.version>v){location.reload()}else{poll()}})"
            ".catch(function(){setTimeout(poll,3000)})}poll()})()</script>")


def _js(text: str) -> str:
    import json

    return json.dumps(text).replace("<", "\\u003c")


class Printer:
    """The reading side of item 22.9 on a :class:`engine.service.GameService` (``service``);
    tournament ids are resolved by the caller (Organiser.resolve)."""

    def __init__(self, service):
        self.service = service

    def events(self, tournament: str) -> list:
        """The tournament's events, in order (nothing in a tournament is hidden)."""
        return [event for _record, event in self.service.stream(tournament)]

    def pairings(self, tournament: str, round_: int | None = None) -> dict:
        """:func:`pairings` of round ``round_`` (default: the last paired)."""
        events = self.events(tournament)
        return pairings(fold(events), tournament, events, round_)

    def standings(self, tournament: str, upto: int | None = None) -> dict:
        """:func:`standings` now, or (``upto``) as they stood when round ``upto`` closed."""
        events = self.events(tournament)
        if upto is None:
            return standings(fold(events), tournament, events)
        state, cut = after(events, upto)
        return standings(state, tournament, cut, upto)

    def explain(self, tournament: str, upto: int | None = None) -> dict:
        """:func:`explain` (plus ``tournament``, ``after``) now or after round ``upto``."""
        events = self.events(tournament)
        state = fold(events) if upto is None else after(events, upto)[0]
        return {"tournament": tournament, "after": upto, **explain(state)}

    def measure(self, tournament: str) -> str:
        """The name of the tournament's measure (money, score, ...)."""
        return measure_of(self.service.state(tournament))

    def publish(self, tournament: str, public: bool = True) -> list:
        """Open or close the public spectator link (TOUR-12.1); the events recorded."""
        return list(self.service.submit(tournament, ev.Publish(public=public)).events)
