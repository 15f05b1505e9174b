"""``devil tournament ...``: the organiser's commands (docs/tournaments.md).  Loaded by
client.cli when named.  No rules here: the engine (engine.tournament) decides, pairs, reads
results from verified logs and checks bundles; this module parses options and prints."""

from __future__ import annotations

import click

from engine.errors import UsageError
from engine.games import KINDS

from .files import read_json_file, write_new
from .group import DevilGroup
from .options import json_option
from .output import emit

_GAMES = click.Choice(list(KINDS))


def _organiser(obj, local: bool = False):
    """The organiser: the local store's, or with --server the service's (the token
    is the organiser key).  ``local``: the command works on a local store only."""
    if obj.server:
        if local:
            raise UsageError("this command works on a local store (--store); fetch the logs "
                             "first, or run it where the store is")
        from .tournament_remote import RemoteOrganiser

        return RemoteOrganiser(obj.client)
    from engine.tournament.organiser import Organiser

    return Organiser(obj.client.service)


def _maps(organiser, tid, events) -> list[dict]:
    """Events as maps (the remote organiser answers maps already)."""
    if getattr(organiser, "remote", False):
        return list(events)
    rules = organiser.service.load(tid).rules
    return [rules.events.to_map(e) for e in events]


def _value(text: str):
    import json

    try:
        return json.loads(text)
    except ValueError:
        return text


def _size(text: str) -> list[int]:
    low, sep, high = text.partition("-")
    try:
        return [int(low), int(high if sep else low)]
    except ValueError:
        raise click.BadParameter(f"{text!r}: give MIN-MAX, e.g. 4-5",
                                 param_hint="--table-size") from None


def _points(text: str) -> list[int]:
    try:
        return [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise click.BadParameter(f"{text!r}: give whole numbers, e.g. 6,4,2,1,0",
                                 param_hint="--points") from None


def _columns(attributes) -> list[str]:
    """The attribute columns of ``attributes`` (name -> {column: value}), in the order they
    first appear."""
    out: list[str] = []
    for extra in attributes:
        out.extend(c for c in extra if c not in out)
    return out


@click.group(cls=DevilGroup)
def tournament():
    """Run a tournament: registration, pairings, results from verified game logs, standings
    and a bundle anyone can check offline.

    \b
    A walk-through: docs/tournaments.md.  The usual order:
      devil tournament new NAME --game KIND --players-file FILE --rounds N
      devil tournament pair T          (creates each table's game)
      ... the tables play; a referee's log of a real box: devil tournament attach T FILE
      devil tournament close-round T   (collects the finished games)
      devil tournament standings T
      devil tournament bundle T OUT    then anyone: devil tournament verify OUT.zip --key KEY
                                       (KEY: the store's, `devil key`, published beforehand)
    """


@tournament.command("new")
@click.argument("name")
@click.option("--game", "kind", type=_GAMES, required=True, help="The game every table plays.")
@click.option("--player", "players", multiple=True, metavar="NAME", help="A player (repeat).")
@click.option("--players-file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Players: one name a line, or a CSV whose header has a name column (its "
              "other columns, e.g. club,rating, are kept with each player); # starts a "
              "comment.  See docs/tournaments.md.")
@click.option("--rounds", type=click.IntRange(1, 50), required=True)
@click.option("--table-size", default="4-5", show_default=True, metavar="MIN-MAX",
              help="Players a table may seat.")
@click.option("--points", default="6,4,2,1,0", show_default=True, metavar="LIST",
              help="Points by place; places past the list score 0.")
@click.option("--bye-points", metavar="N", help="A bye's points (default: the middle place's).")
@click.option("--format", "fmt", type=click.Choice(["swiss", "fixed"]), default="swiss",
              show_default=True, help="swiss: paired by standing; fixed: `pair --seating FILE`.")
@click.option("--tiebreaks", default="opponents,measure,wins", show_default=True,
              metavar="LIST", help="Their order (measure: total money or score; duplicate: "
              "the duplicate score, with --duplicate); a seeded draw always comes last.")
@click.option("--physical", is_flag=True, help="Tables play with the real box: `pair` creates "
              "physical games whose referees report every draw.")
@click.option("--option", "game_options", multiple=True, metavar="KEY=VALUE",
              help="A game option every table's game must have (VALUE as JSON, else text), "
              "e.g. --option ring=12.")
@click.option("--check-in", "check_in", is_flag=True, help="Pair only players checked in for "
              "each round (`tournament checkin`; TOUR-7.1).")
@click.option("--round-time", type=click.IntRange(1, 24 * 60), metavar="MINUTES",
              help="Minutes a round may last from its pairing; then `adjudicate` may end a "
                   "table at time (TOUR-8.1).  Default: no limit.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), help="The public seed of every "
              "draw (default: drawn now; recorded either way).")
@click.option("--final-table", type=click.IntRange(0, 5000), default=0, metavar="N",
              help="After the Swiss rounds the top N by Swiss standings play a final table "
              "(TOUR-10); the tournament finishes when it closes.")
@click.option("--final-tables", type=click.IntRange(1, 16), default=1, metavar="K",
              show_default=True, help="A top cut: the top N*K play K final tables of N, "
              "dealt by the snake method (TOUR-10.3).")
@click.option("--duplicate", is_flag=True, help="Duplicate rounds (digital games of a kind "
              "that has them): every table of a round draws from the same committed furnace "
              "order; standings add each player's duplicate score (TOUR-11).")
@click.option("--pairing", type=click.Choice(["score-groups", "classic"]),
              default="score-groups", show_default=True,
              help="The swiss algorithm: score-groups (in order: start seats balanced, fewest "
              "repeated opponents, clubs apart in round 1, the leading group at table 1, least "
              "squared displacement from the points order: TOUR-2.5 to 2.9) or classic "
              "(TOUR-2.10, as tournaments recorded before it).")
@click.option("--allow-repeats", is_flag=True, help="score-groups: do not avoid repeated "
              "opponents; seat by points alone (TOUR-2.5).")
@click.option("--avoid-same-club", is_flag=True, help="score-groups: round 1 avoids two "
              "players of one club (the players file's club column) at a table where the "
              "sizes allow (TOUR-2.9).")
@json_option
@click.pass_obj
def new(obj, name, kind, players, players_file, rounds, table_size, points, bye_points, fmt,
        tiebreaks, physical, game_options, check_in, round_time, seed, final_table,
        final_tables, duplicate, pairing, allow_repeats, avoid_same_club, as_json):
    """Create tournament NAME and register its players; prints its id.

    \b
    Example:
      devil tournament new "Spring Cup" --game KIND --players-file players.txt --rounds 5
      ... --rounds 3 --final-table 4         then the top 4 play a final table
      ... --duplicate                        every table of a round: the same draws
    """
    attributes = {}
    names = list(players)
    if players_file:
        from engine.tournament.roster import merge, read_file

        listed, attributes = read_file(players_file)
        names = merge(names, listed, players_file)
    options = {}
    for spec in game_options:
        key, sep, value = spec.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{spec!r}: give KEY=VALUE", param_hint="--option")
        options[key.strip()] = _value(value)
    if physical:
        options["physical"] = True
    settings = {"name": name, "game": kind, "options": options, "format": fmt,
                "points": _points(points), "rounds": rounds, "table_size": _size(table_size),
                "tiebreaks": [t.strip() for t in tiebreaks.split(",") if t.strip()],
                "players": names, "seed": seed}
    if attributes:
        settings["attributes"] = attributes
    if check_in:
        settings["check_in"] = True
    if final_table or final_tables != 1:  # TOUR-10
        settings.update(final_table=final_table, final_tables=final_tables)
    if duplicate:  # TOUR-11
        settings["duplicate"] = True
    if fmt == "swiss":
        settings["pairing"] = pairing
    for key, flag in (("allow_repeats", allow_repeats), ("avoid_same_club", avoid_same_club)):
        if flag:  # the rules refuse them with the fixed format or the classic pairing
            settings[key] = True
    if bye_points is not None:
        settings["bye_points"] = bye_points
    if round_time is not None:
        settings["round_time"] = round_time
    organiser = _organiser(obj)
    tid = organiser.create(settings)
    view = organiser.show(tid)
    if as_json:
        emit({"tournament": tid, "players": len(view["players"]), "seed": view["seed"]})
        return
    click.echo(tid)
    low, high = view["table_size"]
    rounds = f"{view['rounds']} round{'' if view['rounds'] == 1 else 's'}"
    tables = f"tables of {low}" if low == high else f"tables of {low} to {high}"
    click.echo(f"  {view['name']}: {len(view['players'])} players, {rounds} of "
               f"{view['game']} at {tables}, {_format(view)}; points "
               f"{','.join(map(str, view['points']))}, bye {view['bye_points']}; "
               f"seed {view['seed']}"
               + ("; check-in before each round" if view.get("check_in") else ""), err=True)
    if view.get("final_table"):
        cut = view["final_table"] * view["final_tables"]
        click.echo(f"  then the top {cut} play " + (
            f"a final table of {cut}" if view["final_tables"] == 1 else
            f"{view['final_tables']} final tables of {view['final_table']} (snake cut)"),
            err=True)
    if view.get("duplicate"):
        click.echo("  duplicate rounds: every table of a round draws the same furnace order",
                   err=True)


def _format(view: dict) -> str:
    """``swiss``, ``swiss (classic pairing)``, ``swiss, repeats allowed, clubs apart in round
    1``, ``fixed``."""
    if view["format"] != "swiss":
        return view["format"]
    parts = ["swiss" if view.get("pairing", "classic") == "score-groups"
             else "swiss (classic pairing)"]
    if view.get("allow_repeats"):
        parts.append("repeats allowed")
    if view.get("avoid_same_club"):
        parts.append("clubs apart in round 1")
    return ", ".join(parts)


def _one(obj, tournament_id, as_json, action):
    organiser = _organiser(obj)
    tid = organiser.resolve(tournament_id)
    events = _maps(organiser, tid, action(organiser, tid))
    if as_json:
        emit({"tournament": tid, "events": events})
        return
    return tid, events


@tournament.command("add")
@click.argument("tournament_id", metavar="T")
@click.argument("player")
@json_option
@click.pass_obj
def add(obj, tournament_id, player, as_json):
    """Register PLAYER late: paired from the next round."""
    done = _one(obj, tournament_id, as_json, lambda d, t: d.add(t, player))
    if done:
        click.echo(f"{done[1][0]['player']} registered, plays from round {done[1][0]['round']}")


@tournament.command("drop")
@click.argument("tournament_id", metavar="T")
@click.argument("player")
@click.option("--reason", default="", help="Why (recorded).")
@json_option
@click.pass_obj
def drop(obj, tournament_id, player, reason, as_json):
    """PLAYER leaves: not paired from the next round on; their results stay."""
    done = _one(obj, tournament_id, as_json, lambda d, t: d.drop(t, player, reason))
    if done:
        click.echo(f"{player} dropped: not paired from round {done[1][0]['round']}")


@tournament.command("penalty", context_settings={"ignore_unknown_options": True})
@click.argument("tournament_id", metavar="T")
@click.argument("player")
@click.argument("points")
@click.option("--reason", required=True, help="Why (recorded; required).")
@click.option("--correction", is_flag=True, help="A correction rather than a penalty.")
@json_option
@click.pass_obj
def penalty(obj, tournament_id, player, points, reason, correction, as_json):
    """Add POINTS to PLAYER with a reason: a penalty (-2) or a correction (1.5).

    Results are never edited: a penalty or a correction is a record of its own.
    POINTS is e.g. -2, or 1.5 with --correction."""
    kind = "correction" if correction else "penalty"
    done = _one(obj, tournament_id, as_json, lambda d, t: d.adjust(t, player, points, reason, kind))
    if done:
        e = done[1][0]
        click.echo(f"{kind} for {e['player']}: {e['points']} points ({e['reason']})")


def _print_pairing(result: dict) -> None:
    def count(n: int, word: str) -> str:
        return f"{n} {word}" + ("" if n == 1 else "s")

    label = f"the final (round {result['round']})" if result.get("final") else \
        f"round {result['round']}"
    click.echo(f"{label}: {count(len(result['tables']), 'table')}, "
               f"{count(len(result['byes']), 'bye')}, "
               f"{count(result['repeats'], 'repeated pair')}")
    for row in result["tables"]:
        seats = "  ".join(f"{p}*" if p == row["first"] else p for p in row["players"])
        game = f"   {row['game']}" if row["game"] else ""
        click.echo(f"  table {row['table']:<3} {seats}" + game)
    if result["byes"]:
        click.echo(f"  byes: {', '.join(result['byes'])}")
    for line in result.get("skipped", []):
        click.echo(f"  {line}", err=True)
    for row in result["tables"]:
        for who, token in (row.get("tokens") or {}).items():
            click.echo(f"  table {row['table']} token for {who}: {token}")
    click.echo("  (* starts; players in seat order)")


@tournament.command("pair")
@click.argument("tournament_id", metavar="T")
@click.option("--seating", type=click.Path(dir_okay=False), metavar="FILE",
              help='Fixed format: the round\'s tables as JSON, {"tables": [["Ann", "Ben", ...], '
              '...], "byes": [...]} (seat order; the first seat starts).')
@click.option("--no-games", is_flag=True, help="Only pair: attach each table's game later.")
@click.option("--seat-entropy/--no-seat-entropy", default=None,
              help="A duplicate round (TOUR-11.6): create each table's game with seat entropy, "
                   "so the round's shared furnace order mixes every seat's value of every table "
                   "and not even the organiser can choose it; no table draws before every seat "
                   "of every table has sat (`devil sit`).  Locally the console sits every seat "
                   "at once; with --server the default is the server's (`devil serve "
                   "--seat-entropy`, on).  Other tournaments create their games as before.")
@json_option
@click.pass_obj
def pair(obj, tournament_id, seating, no_games, seat_entropy, as_json):
    """Pair the next round and create each table's game; prints the tables.

    \b
    Examples:
      devil tournament pair T
      devil tournament pair T --seat-entropy     # a duplicate round nobody can steer
    """
    tables = byes = None
    if seating:
        data = read_json_file(seating, "--seating")
        if isinstance(data, list):
            tables = data
        elif isinstance(data, dict) and isinstance(data.get("tables"), list):
            tables, byes = data["tables"], data.get("byes")
        else:
            raise click.BadParameter('give {"tables": [[names], ...], "byes": [names]}',
                                     param_hint="--seating")
    organiser = _organiser(obj)
    tid = organiser.resolve(tournament_id)
    if obj.server:
        result = organiser.pair(tid, seating=tables, byes=byes, games=not no_games,
                                seat_entropy=seat_entropy)
    else:
        result = organiser.pair(tid, seating=tables, byes=byes, games=not no_games,
                                seat_entropy=bool(seat_entropy))
        if seat_entropy and organiser.state(tid).created.duplicate:
            _sit_everyone(organiser.service, result)
    if as_json:
        emit({"tournament": tid, **result})
        return
    _print_pairing(result)


def _sit_everyone(service, result: dict) -> None:
    """The console is every seat of every table (a local store): each gives a value it keeps
    (client.seating), table by table (TOUR-11.6)."""
    from engine.service.seating import CONSOLE

    from .seating import value_for

    for row in result["tables"]:
        if row["game"] is None:
            continue
        for name in row["players"]:
            service.submit(row["game"], {"type": "seat_entropy", "player": name,
                                         "value": value_for(row["game"], name)}, actor=CONSOLE)


@tournament.command("attach")
@click.argument("tournament_id", metavar="T")
@click.argument("source", metavar="GAME|FILE")
@click.option("--table", type=int, help="The table (default: the one seating the game's players).")
@json_option
@click.pass_obj
def attach(obj, tournament_id, source, table, as_json):
    """Attach a finished game (a game id, or a referee's .devlog) to a table of the open
    round and record its result: only a log that verifies, is finished, and has the table's
    players in its seat order and the tournament's options."""
    import os

    from engine.log import read_bytes

    organiser = _organiser(obj)
    tid = organiser.resolve(tournament_id)
    data = read_bytes(source) if os.path.isfile(source) else None
    result = organiser.attach(tid, source, table=table, data=data)
    if as_json:
        emit({"tournament": tid, **result})
        return
    r = result["result"]
    click.echo(f"{result['game']} attached to table {result['table']} of round {result['round']}")
    measure = [k for k in r if k not in ("players", "places", "points", "winners")][0]
    for seat in sorted(range(len(r["players"])), key=lambda s: (r["places"][s], s)):
        name = r["players"][seat]
        click.echo(f"  {r['places'][seat]}. {name:<16} {measure} {r[measure][seat]:>6}  "
                   f"points {_show(r['points'][seat])}")


def _show(text: str) -> str:
    from engine.tournament.standings import fraction, show

    return show(fraction(text))


@tournament.command("close-round")
@click.argument("tournament_id", metavar="T")
@json_option
@click.pass_obj
def close_round(obj, tournament_id, as_json):
    """Collect the open round's finished games and close it (refused while a table's game
    is not finished)."""
    organiser = _organiser(obj)
    tid = organiser.resolve(tournament_id)
    result = organiser.close_round(tid)
    if as_json:
        emit({"tournament": tid, **result})
        return
    click.echo(f"round {result['round']} closed ({result['collected']} results collected now)"
               + ("; the tournament is finished" if result["finished"] else ""))


def _standings_text(data: dict) -> None:
    from engine.tournament.standings import fraction, show

    m = data["measure"]
    state = ("finished" if data["finished"] and not data.get("after")
             else f"after round {data.get('after') or data['closed']}")
    columns = _columns(row.get("attributes") or {} for row in data["standings"])
    widths = {c: max([len(c)] + [len((r.get("attributes") or {}).get(c, ""))
                                 for r in data["standings"]]) for c in columns}
    from .cmd_tournament_finals import final_cells

    click.echo(f"{data['name']} ({data['tournament']}), {state}")
    click.echo((f"{'rank':>4}  {'player':<20} {'points':>6} {'played':>6} {'byes':>4} "
                f"{'opp.pts':>7} {'wins':>4} {m:>7}" + final_cells(data, None)
                + "".join(f"  {c:<{widths[c]}}" for c in columns)).rstrip())
    for row in data["standings"]:
        extra = row.get("attributes") or {}
        click.echo((f"{row['rank']:>4}  {row['player']:<20} "
                    f"{show(fraction(row['points_exact'])):>6} "
                    f"{row['played']:>6} {row['byes']:>4} {row['opponents_points']:>7g} "
                    f"{row['wins']:>4} {row[m]:>7}" + final_cells(data, row)
                    + "".join(f"  {extra.get(c, ''):<{widths[c]}}" for c in columns)).rstrip()
                   + ("  dropped" if row["dropped"] else "") + _marked(row))
    for note in data.get("notes") or []:  # adjudicated tables, amended results (TOUR-8, 9)
        click.echo(f"  note: {note}")


def _marked(row: dict) -> str:
    """``  adjudicated r2  amended r1``: a row's marks (engine.tournament.amend.marks)."""
    return "".join(f"  {key} " + ",".join(f"r{r}" for r in row[key])
                   for key in ("adjudicated", "amended", "bot", "returned") if row.get(key))


@tournament.command("standings")
@click.argument("tournament_id", metavar="T")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write the standings as CSV.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write a standings page (points by round as a chart).")
@click.option("--force", is_flag=True, help="Overwrite an existing --csv or --html file.")
@click.option("--after", type=click.IntRange(1, 50), metavar="N", help="As they stood when "
              "round N closed (what was recorded later, penalties included, left out).")
@click.option("--explain", is_flag=True, help="Each tiebreak's inputs per player instead: "
              "opponents and their points per meeting, the measure per game, the games won.")
@json_option
@click.pass_obj
def standings(obj, tournament_id, csv_path, html_path, force, after, explain, as_json):
    """The standings: points, then the tiebreaks in the tournament's order; the history
    (late entries, drops, penalties, ...) under them."""
    from .cmd_tournament_print import explain as explained
    from .cmd_tournament_print import history_text, standings_data

    if explain:
        return explained(obj, tournament_id, after, as_json)
    data = standings_data(obj, tournament_id, after)
    if csv_path:
        import csv
        import io

        m = data["measure"]
        columns = _columns(row.get("attributes") or {} for row in data["standings"])
        text = io.StringIO()
        writer = csv.writer(text)
        finals = ["swiss_rank", "final_table", "final_place"] if data.get("final_table") else []
        if data.get("duplicate"):
            finals.append("duplicate")
        writer.writerow(["rank", "player", "points", "played", "byes", "opponents_points",
                         "wins", m, "dropped", *finals, *columns])
        for row in data["standings"]:
            extra = row.get("attributes") or {}
            writer.writerow([row["rank"], row["player"], row["points"], row["played"],
                             row["byes"], row["opponents_points"], row["wins"], row[m],
                             row["dropped"], *[row.get(c, "") if row.get(c) is not None
                                               else "" for c in finals],
                             *[extra.get(c, "") for c in columns]])
        write_new(csv_path, text.getvalue(), force)
        if not as_json:
            click.echo(f"wrote {csv_path}: the standings as CSV", err=True)
    if html_path:
        from engine.tournament.page import page

        write_new(html_path, page(data), force)
        if not as_json:
            click.echo(f"wrote {html_path}: the standings page", err=True)
    if as_json:
        emit(data)
        return
    _standings_text(data)
    history_text(data)


def _show_players(view: dict) -> None:
    """Before round 1 is paired: the registered players with their attributes (club, rating,
    ...), when any has some (later every table lists them with its players)."""
    attributes = view.get("attributes") or {}
    if not attributes or view["round"]:
        return
    columns = _columns(attributes.values())
    names = view["players"]
    widths = {c: max([len(c)] + [len(a.get(c, "")) for a in attributes.values()])
              for c in columns}
    width = max(len("player"), *map(len, names))

    def line(first: str, cells: list[str]) -> str:
        return ("  " + f"{first:<{width}}"
                + "".join(f"  {v:<{widths[c]}}" for c, v in zip(columns, cells))).rstrip()
    click.echo(line("player", columns))
    for name in names:
        extra = attributes.get(name, {})
        click.echo(line(name, [extra.get(c, "") for c in columns])
                   + ("  dropped" if name in view.get("dropped", []) else ""))


def _seated(name: str, attributes: dict) -> str:
    """A player at a table, with their attributes' values: ``Anna (Köln, 1500)``."""
    values = [v for v in (attributes.get(name) or {}).values() if v]
    return f"{name} ({', '.join(values)})" if values else name


@tournament.command("show")
@click.argument("tournament_id", metavar="T")
@json_option
@click.pass_obj
def show(obj, tournament_id, as_json):
    """The open round: its tables, their games and where each game stands."""
    organiser = _organiser(obj)
    tid = organiser.resolve(tournament_id)
    view = organiser.show(tid)
    if as_json:
        emit(view)
        return
    where = (f"the final (round {view['round']})" if view["round"] > view["rounds"]
             else f"round {view['round']} of {view['rounds']}")  # TOUR-10
    click.echo(f"{view['name']} ({tid}): {view['game']}, {where}"
               + (", finished" if view["finished"] else
                  ", closed" if view["closed"] == view["round"] else ", open"))
    if view.get("round_ends"):  # TOUR-8.1
        from engine.log import iso_time

        click.echo(f"  round time runs out at {iso_time(view['round_ends'], 0)}")
    _show_players(view)
    for round_view in view["paired"]:
        if round_view["round"] != view["round"]:
            continue
        for t in round_view["tables"]:
            seated = ", ".join(_seated(p, view.get("attributes") or {}) for p in t["players"])
            click.echo(f"  table {t['table']:<3} {seated}")
            click.echo(f"            {t['game'] or '-'}: {t.get('state', '')}"
                       + ("  (result recorded)" if t["result"] else ""))
        if round_view["byes"]:
            click.echo(f"  byes: {', '.join(round_view['byes'])}")
    from .cmd_tournament_print import history_text, standings_data

    history_text(standings_data(obj, tid, None))


from .cmd_tournament_print import register as _register_print  # noqa: E402 (issue 22.9)

_register_print(tournament, _organiser, _maps)
from .cmd_tournament_noshow import register as _register_noshow  # noqa: E402

_register_noshow(tournament)  # checkin, forfeit, swap, unpair (TOUR-7)
from .cmd_tournament_amend import COMMANDS as _AMEND  # noqa: E402  (adjudicate, amend: TOUR-8, 9)
for _command in _AMEND:
    tournament.add_command(_command)
from .cmd_tournament_bundle import register as _register_bundle  # noqa: E402

_register_bundle(tournament, _organiser, _size, _GAMES)  # bundle, verify, simulate
