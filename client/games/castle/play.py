"""Castle of the Devil at one terminal: ``devil play castle`` (docs/tools.md).

The shared part (client.play.Session) hands the keyboard from person to person, clearing the
screen between them.  Here: a person's decision.  Their table as they know it, then a short
menu: one line per kind of move (pass, trade, attack, declare ...); a move with several forms
asks for each part in turn (which item, to whom), offering only what is legal; a declaration
is made by typing the allies' names.  What a person types is hidden; the screen repeats the
move chosen.  A decision whose only legal answer is a pass is taken automatically and
announced (unless ``--ask-always``).
"""

from __future__ import annotations

import click

from ...context import local_service
from ...options import game_value, json_option, parse_bots, reporter_option
from ...output import emit
from .. import described
from ...play import secret_prompt

#: menu lines for a kind of move with several forms
LABELS = {
    "trade": "trade: offer an item face down", "attack": "attack a player",
    "diplomat": "use the Diplomat: demand an item kind", "accept": "accept the offer, giving back",
    "give": "give an item", "support": "support a side", "use": "use a power",
    "choose": "choose", "take": "take an item", "arrange": "put two items back on top",
    "declare society": "declare victory for your society (type your allies' names)",
    "declare prophecy": "prophesy the other society's victory (type its members' names)",
}
#: how a field is asked for
FIELDS = {"item": "which item", "to": "to whom", "defender": "whom", "target": "whom",
          "kind": "which item kind", "side": "which side", "option": "which option",
          "power": "which power", "give_back": "giving back which item", "top": "which order",
          "silent": "silently (smuggled)"}
BACK = "-"


def command_text(command: dict) -> str:
    """A command map as a short line: ``trade item=dagger to=Ben``."""
    fields = " ".join(f"{key}={_text(value)}" for key, value in command.items()
                      if key not in ("type", "player") and value not in (None, False, [], ""))
    return f"{command['type']} {fields}".rstrip()


def _text(value) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value)) if value else "none"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _key(command: dict) -> str:
    if command["type"] == "declare":
        return f"declare {command['kind']}"
    return command["type"]


def menu(maps: list[dict]) -> list[tuple[str, list[int]]]:
    """The numbered menu for a seat's legal command maps: ``[(label, [indices])]``.  A small
    decision (at most 9 commands, no declaration) lists every command; otherwise one line per
    kind of move (a declaration is one line, whatever the number of players)."""
    groups: dict[str, list[int]] = {}
    for index, command in enumerate(maps):
        groups.setdefault(_key(command), []).append(index)
    if len(maps) <= 9 and not any(key.startswith("declare") for key in groups):
        return [(command_text(command), [index]) for index, command in enumerate(maps)]
    out = []
    for key, indices in groups.items():
        if len(indices) == 1:
            out.append((command_text(maps[indices[0]]), indices))
            continue
        label = LABELS.get(key, key)
        if not key.startswith("declare"):
            fields = _varying([maps[i] for i in indices])
            label += " (" + "; ".join(
                f"{field}: {', '.join(sorted({_text(maps[i][field]) for i in indices}))}"
                for field in fields) + ")"
        out.append((label, indices))
    return out


def _varying(commands: list[dict]) -> list[str]:
    fields = [k for k in commands[0] if k not in ("type", "player")]
    return [f for f in fields if len({_text(c[f]) for c in commands}) > 1]


def _ask(name: str, text: str, choices: list[str]) -> str:
    """A hidden answer among ``choices``, by name (any case) or number (or BACK)."""
    numbered = " / ".join(f"{number} {choice}" for number, choice in enumerate(choices, 1))
    while True:
        answer = secret_prompt(f"{name}, {text} [{numbered}; {BACK} back]",
                               prompt_suffix=": ").strip()
        if answer == BACK:
            return BACK
        folded = {c.lower(): c for c in choices}
        if answer.lower() in folded:
            return folded[answer.lower()]
        if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(choices):
            return choices[int(answer) - 1]
        click.echo(f"  not one of {', '.join(choices)} (or 1 to {len(choices)})")


def _narrow(name: str, maps: list[dict], indices: list[int]) -> int | None:
    """Ask for each part that still differs among ``indices``; the index chosen, or None
    (back to the menu)."""
    left = list(indices)
    while len(left) > 1:
        field = _varying([maps[i] for i in left])[0]
        values = list(dict.fromkeys(_text(maps[i][field]) for i in left))
        answer = _ask(name, FIELDS.get(field, field), values)
        if answer == BACK:
            return None
        left = [i for i in left if _text(maps[i][field]) == answer]
    return left[0]


def _declare(name: str, names: list[str], maps: list[dict], indices: list[int]) -> dict | None:
    """A declaration by typed names (any case, in any order): the command map naming exactly
    them (one of ``maps`` when it is there; otherwise built, for the engine to refuse with its
    reason), or None (back)."""
    others = {n.lower(): n for n in names if n != name}
    kind = maps[indices[0]]["kind"]
    while True:
        whom = "your allies" if kind == "society" else "the other society's members"
        text = click.prompt(f"{name}, name {whom} ({', '.join(others.values())}; "
                            "separated by spaces or commas; "
                            f"Enter: nobody; {BACK} back)", default="", show_default=False,
                            prompt_suffix=": ").strip()
        if text == BACK:
            return None
        typed = [word for word in text.replace(",", " ").split() if word]
        unknown = [word for word in typed if word.lower() not in others]
        if unknown:
            click.echo(f"  not a player to name: {', '.join(unknown)} "
                       f"(players: {', '.join(others.values())})")
            continue
        allies = {others[word.lower()] for word in typed}
        for i in indices:
            if set(maps[i]["allies"]) == allies:
                return maps[i]
        return {**maps[indices[0]], "allies": [n for n in names if n in allies]}


def decide(session, seat: int, legal: list, *, ask_always: bool = False) -> None:
    """One decision of the person at ``seat`` (client.play.Session calls it): a hidden menu
    choice, the parts of the move, a confirmation for a declaration; a refused command (a
    declaration the engine will not take) is shown with its reason and asked again."""
    import attrs

    from engine.errors import IllegalCommand
    from engine.game import takes_reporter

    from . import render

    table = session.table
    name = session.names[seat]
    to_map = table.rules.commands.to_map
    maps = [to_map(command) for command in legal]
    if len(maps) == 1 and maps[0]["type"] == "pass" and not ask_always:
        session.say(f"  ({name} may only pass here: passed automatically)")
        session.submit(seat, legal[0])
        return
    session.hand_to(seat)
    while True:
        view = {"game": table.game, "version": table.events,
                **table.rules.view(table.states[seat], seat)}
        click.echo("")
        click.echo(render.table(view, name))
        click.echo(f"--- {name}, your move (what you type is hidden) ---")
        entries = menu(maps)
        for number, (label, _) in enumerate(entries, 1):
            click.echo(f"  {number:>3}  {label}")
        number = secret_prompt(f"{name}, your choice", type=click.IntRange(1, len(entries)))
        label, indices = entries[number - 1]
        first = maps[indices[0]]
        if first["type"] == "declare" and first.get("kind") in ("society", "prophecy"):
            command = _declare(name, session.names, maps, indices)
        else:
            index = _narrow(name, maps, indices)
            command = None if index is None else maps[index]
        if command is None:
            continue
        click.echo(f"  -> {command_text(command)}")
        if command["type"] == "declare" and not click.confirm(
                f"{name}, declaring ends the game now. Declare?", default=False):
            continue
        chosen = (legal[maps.index(command)] if command in maps
                  else table.rules.commands.from_map(command))
        if session.reporter is not None and takes_reporter(type(chosen)):  # a reported draw
            chosen = attrs.evolve(chosen, reporter=session.reporter)
        try:
            session.submit(seat, chosen)
            return
        except IllegalCommand as exc:
            click.echo(f"refused: {exc}")


@click.command("castle")
@click.option("--player", "players", multiple=True, metavar="NAME",
              help="A person at the keyboard (repeat; seat order).")
@click.option("--bot", "bot_specs", multiple=True, metavar="NAME=KIND",
              help="A bot seat, e.g. --bot Rex=sensible (kinds: random, sensible); bots sit "
                   "after the people.  With --resume: make that seat a bot from now on.")
@click.option("--first", metavar="NAME", help="Start player (default: drawn).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="Fix the deal's seed (and the "
              "bots'); reproducible, so predictable to anyone who knows it.")
@click.option("--variant", "variants", multiple=True,
              type=click.Choice(["smuggling", "prophecy", "scoring"]),
              help="A variant (CASTLE-10), repeatable.")
@click.option("--beginner", is_flag=True, help="The beginner game (CASTLE-2.6).")
@click.option("--max-rounds", type=click.IntRange(1), default=60, show_default=True,
              help="Stop a game that has not ended after this many rounds.")
@click.option("--resume", "resume_game", metavar="GAME", callback=game_value,
              help="Continue an interrupted game from the store, with the people and bots it "
                   "was started with (a game made by `devil new`: every seat a person).")
@click.option("--ask-always", is_flag=True,
              help="Hand the terminal to a person even when passing is all they may do "
                   "(otherwise passed automatically; but who is handed the terminal in a fight "
                   "window then shows who had a choice).")
@reporter_option
@json_option
@click.pass_obj
@described("castle")
def play_castle(obj, players, bot_specs, first, seed, variants, beginner, max_rounds,
                resume_game, ask_always, reporter, as_json):
    """{title} at one terminal: people and bots mixed.

    Between two people the screen is cleared and the program waits ("Pass the terminal to
    Ben, then press Enter"); a person's screen then recaps what happened since their last
    move, as they saw it, shows their table and a short menu.  What they type is hidden.
    Declare by typing your allies' names.  A decision whose only legal answer is a pass is
    taken automatically (announced).  Ctrl-C keeps the game: `devil play --resume GAME`.
    In a physical game a card drawn from a pile known only as a set is reported from the menu;
    --reporter (or env DEVIL_REFEREE) names who reports it.

    \b
    Examples:
      devil play castle --player Ann --player Ben --bot Cid=sensible --bot Dora=random
      devil play --resume castle-k3f9qz
    """
    import random

    from engine.bots import Table, make_bot
    from engine.errors import UsageError
    from engine.game import rules_for

    from ...play import (Session, new_game_reporter, resume_announced, session_reporter,
                         start)
    from . import render

    bots = parse_bots(bot_specs)
    service = local_service(obj)
    if resume_game is not None:
        game, people, bots, seed, history, rng = resume_announced(
            service, "castle", resume_game, bots,
            bool(players or first or seed is not None or variants or beginner))
    else:
        new_game_reporter(reporter)
        seats = list(players) + [name for name in bots if name not in players]
        rules = rules_for("castle")
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise UsageError(f"{rules.title} takes {rules.min_players} to {rules.max_players} "
                             f"players, not {len(seats)} (--player / --bot)")
        people = [name for name in seats if name not in bots or name in players]
        bots = {name: kind for name, kind in bots.items() if name not in players}
        options = {"players": seats, "first": first, "variants": list(variants),
                   "beginner": beginner}
        loaded = start(service, "castle", options, seed, people, bots)
        game, history = loaded.game, []
        rng = random.Random(seed)
        click.echo(f"Game {game} ({service.store.location(game)})")
    table = Table(service, game)
    robots = {seat: make_bot("castle", bots[name], random.Random(rng.random()))
              for seat, name in enumerate(table.names) if name in bots}
    session = Session(table, people, robots, render, history,
                      session_reporter(table, reporter))
    if not history:
        session.record(list(service.load(game).events))
    over = session.play(lambda s, seat, legal: decide(s, seat, legal, ask_always=ask_always),
                        max_rounds)
    if over:
        from engine.game import REFEREE

        view = {"game": game, "version": table.events, **table.rules.view(table.referee,
                                                                          REFEREE)}
        click.echo(render.table(view, None))
    if as_json:  # the last line: the result, for scripts (the transcript above stays text)
        emit({"game": game, "path": service.store.location(game), "events": table.events,
              "over": bool(over)})
        return
    click.echo(f"Recorded in {service.store.location(game)} ({table.events} events).")
