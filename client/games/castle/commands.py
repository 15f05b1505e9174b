"""Castle of the Devil commands: ``devil new castle`` and the friendly subcommands.

Every friendly subcommand builds the same JSON command object ``devil submit`` accepts
(docs/commands.md) and submits it through ``client.submit.submit_command``, so output and exit
codes are those of every other game command (0 done, 1 refused by the rules, 2 usage error,
3 damaged log, 4 not allowed).  No rules here: the engine checks every command.
"""

from __future__ import annotations

import click

from engine.games import players_text

from .. import described
from ...files import read_json_file
from ...options import (id_option, json_option, reporter_name, reporter_option,
                        seat_entropy_option)
from ...clocks import clock_options
from ...submit import print_created, submit_command

VARIANTS = ("smuggling", "prophecy", "scoring", "advanced-3p")
SIDES = ("attacker", "defender", "neutral")


def read_deal(path: str) -> dict:
    """The deal map in the JSON file at ``path`` (docs/castle-rules.md, "The deal format").

    The file holds the deal itself, or a map with a ``deal`` key (and optionally ``players``).
    Raises click.BadParameter if it is not readable, safe JSON (client.files.read_json_file:
    UTF-8, at most 1 MB, bounded nesting and digits); the engine checks the deal itself.
    """
    data = read_json_file(path, param_hint="--deal")
    if isinstance(data, dict) and "deal" in data and "seats" not in data:
        data = data["deal"]
    if not isinstance(data, dict):
        raise click.BadParameter(f"{path} must hold a JSON object (the deal)", param_hint="--deal")
    return data



def read_position(path: str, given: dict, physical: bool) -> dict:
    """The options of ``devil new castle --position FILE``: the file's map
    (engine.games.castle.position) with the command line's --player, --variant and
    --beginner taking precedence when given.  click.BadParameter for an unreadable file or a
    malformed one; the engine checks the cards."""
    from engine.errors import UsageError
    from engine.games.castle.position import options_from_position

    data = read_json_file(path, param_hint="--position")
    try:
        options = options_from_position(data)
    except UsageError as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint="--position") from None
    if given["players"]:
        options["players"] = given["players"]
    if given["variants"]:
        options["variants"] = given["variants"]
    if given["beginner"]:
        options["beginner"] = True
    if physical:
        options["physical"] = True
    return options


def as_player(f):
    """The ``--as`` option of a friendly command."""
    return click.option("--as", "as_name", metavar="NAME",
                        help="The player giving the command (with --server and a seat's "
                             "token: that seat).")(f)

def game_command(name: str):
    """Decorators shared by the friendly commands: GAME argument, --as, --id, --json."""
    def wrap(f):
        f = click.pass_obj(f)
        f = json_option(f)
        f = id_option(f)
        f = as_player(f)
        return f
    return wrap

def send(obj, game, command: dict, as_name, command_id, as_json):
    """Submit a castle command map (client.submit.submit_command)."""
    submit_command(obj, game, command, as_name, command_id, as_json)

# -- devil new castle ------------------------------------------------------------------
@click.command("castle")
@click.option("--player", "players", multiple=True, metavar="NAME",
              help=f"A player, {players_text('castle')} in seat order = clockwise "
                   "(repeat the option). "
                   "With --deal, defaults to the seats of the deal file in file order.")
@click.option("--first", metavar="NAME", help="The start player (default: drawn by chance; "
              "in a physical game the first player listed).  CASTLE-2.8.")
@click.option("--seed", type=click.IntRange(min=0), help="Fix the digital game's seed "
              "(reproducible; still revealed only when the game ends).")
@click.option("--deal", "deal_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="A JSON deal file (docs/castle-rules.md): each seat's society, "
                   "profession and items, the item pile and the profession pile.  Without "
                   "--seed this records a physical game (no chance at all).")
@click.option("--position", "position_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="A JSON position file (docs/castle-rules.md, 'Starting from a position'): "
                   "a game already under way: hands, professions (used or not), the pile "
                   "(ordered or a set), the active player, the variants.  Without --seed a "
                   "physical game.")
@click.option("--variant", "variants", multiple=True, type=click.Choice(VARIANTS),
              help="A variant (CASTLE-10): smuggling, prophecy, scoring, advanced-3p; repeat "
                   "for several.")
@click.option("--beginner", is_flag=True, help="Beginner game: no tome, coat, sextant, "
              "broken-mirror or coat-of-arms (CASTLE-2.6).")
@click.option("--house", "house", multiple=True, metavar="RULE=BOOL",
              help="Switch a house rule (docs/castle-rules.md), e.g. "
                   "--house doctor_cancels_tie_draw=false.")
@click.option("--show-deal", is_flag=True, help="Also print the whole deal (every society, "
              "profession and item, and the piles) for the referee; by default only what the "
              "whole table may see is printed.  With --json: the first events, as `events`.")
@seat_entropy_option
@clock_options
@json_option
@click.pass_obj
@described("castle")
def new_castle(obj, players, first, seed, deal_file, position_file, variants, beginner, house,
               show_deal, as_json):
    """A new {title} (Die Kutschfahrt zur Teufelsburg) game, {players} players.

    \b
    Examples:
      devil new castle --player Ann --player Ben --player Cid --player Dora --seed 7
      devil new castle --deal table.json            (a game played with the box)
      devil new castle --position middle.json       (a game already under way)
      devil new castle --player Ann ... --variant smuggling --variant scoring
      devil new castle --player Ann ... --move-time 2m --on-timeout act   (CLOCK-4, CASTLE-H2)

    An impossible deal (a card twice, a card missing, wrong society split) is refused
    with the reason (exit 2).
    """
    options: dict = {"players": list(players), "beginner": beginner,
                     "variants": list(dict.fromkeys(variants))}
    if position_file is not None:
        if deal_file is not None:
            raise click.UsageError("give --deal or --position, not both")
        options = read_position(position_file, options, seed is None)
    if first is not None:
        options["first"] = first
    if deal_file is not None:
        deal = read_deal(deal_file)
        options["deal"] = deal
        if not players and isinstance(deal.get("seats"), dict):
            options["players"] = list(deal["seats"])
        if seed is None:
            options["physical"] = True
    if not options["players"]:
        raise click.UsageError(f"name the players with --player ({players_text('castle')}), "
                               "or give --deal")
    if house:
        rules = {}
        for text in house:
            key, sep, value = text.partition("=")
            if not sep or value.lower() not in ("true", "false"):
                raise click.BadParameter(f"{text!r}: write RULE=true or RULE=false",
                                         param_hint="--house")
            rules[key.strip()] = value.lower() == "true"
        options["house"] = rules
    print_created(obj, obj.client.create("castle", options, seed), as_json, show_deal)


# -- a turn (CASTLE-3) -----------------------------------------------------------------
@click.command("pass")
@click.argument("game")
@game_command("pass")
def pass_(obj, game, as_name, command_id, as_json):
    """Castle: pass your turn (CASTLE-8.1) or let a fight window go by (CASTLE-6.2,
    6.4, 6.5, 6.7).

    \b
    Example:
      devil pass GAME --as Ann
    JSON: {"type": "pass"}
    """
    send(obj, game, {"type": "pass"}, as_name, command_id, as_json)

@click.command("trade")
@click.argument("game")
@click.argument("item")
@click.option("--to", "to", metavar="NAME", required=True, help="The player you offer it to.")
@click.option("--silent", is_flag=True, help="Smuggling variant (CASTLE-10.1): keep an "
              "effect card unnamed; its effect does not fire.")
@game_command("trade")
def trade(obj, game, item, to, silent, as_name, command_id, as_json):
    """Castle: offer ITEM face down to another player as your turn's action (CASTLE-4.1).

    The receiver accepts (giving back an item) or refuses.  An effect card (bags,
    privilege, monocle, tome, coat, sextant) fires for you when the trade is completed
    (CASTLE-4.5); the black-pearl and broken-mirror cannot be refused (CASTLE-4.3).

    \b
    Example:
      devil trade GAME monocle --to Ben --as Ann
    JSON: {"type": "trade", "to": "Ben", "item": "monocle"}
    """
    command = {"type": "trade", "to": to, "item": item}
    if silent:
        command["silent"] = True
    send(obj, game, command, as_name, command_id, as_json)

@click.command("accept")
@click.argument("game")
@click.argument("item")
@click.option("--silent", is_flag=True, help="Smuggling variant (CASTLE-10.1): keep the "
              "returned effect card unnamed.")
@game_command("accept")
def accept(obj, game, item, silent, as_name, command_id, as_json):
    """Castle: accept the item offered to you and give back ITEM of yours (CASTLE-4.2).

    A bag is never exchanged for the other bag while the pile lasts (CASTLE-4.4).  The
    effect of the card you give back is yours (CASTLE-4.5).

    \b
    Example:
      devil accept GAME dagger --as Ben
    JSON: {"type": "accept", "item": "dagger"}
    """
    command = {"type": "accept", "item": item}
    if silent:
        command["silent"] = True
    send(obj, game, command, as_name, command_id, as_json)

@click.command("refuse")
@click.argument("game")
@game_command("refuse")
def refuse(obj, game, as_name, command_id, as_json):
    """Castle: refuse the item offered to you; it goes back and the turn ends (CASTLE-4.2).

    Not allowed for the black-pearl or the broken-mirror (CASTLE-4.3); required when
    your only item is the other bag (CASTLE-4.4).

    \b
    Example:
      devil refuse GAME --as Ben
    JSON: {"type": "refuse"}
    """
    send(obj, game, {"type": "refuse"}, as_name, command_id, as_json)

@click.command("attack")
@click.argument("game")
@click.argument("defender")
@game_command("attack")
def attack(obj, game, defender, as_name, command_id, as_json):
    """Castle: attack DEFENDER as your turn's action (CASTLE-6.1).

    Then come the priest window (6.2), support (6.3), the hypnotist (6.4), the ability
    round (6.5), the count (6.6), the doctor (6.7) and the winner's choice (6.8).

    \b
    Example:
      devil attack GAME Dora --as Ann
    JSON: {"type": "attack", "defender": "Dora"}
    """
    send(obj, game, {"type": "attack", "defender": defender}, as_name, command_id, as_json)

@click.command("support")
@click.argument("game")
@click.argument("side", type=click.Choice(SIDES))
@game_command("support")
def support(obj, game, side, as_name, command_id, as_json):
    """Castle: in a fight, support the attacker or the defender, or stay neutral
    (CASTLE-6.3).  Declarations are public, clockwise from the attacker's left.

    \b
    Example:
      devil support GAME attacker --as Cid
    JSON: {"type": "support", "side": "attacker"}
    """
    send(obj, game, {"type": "support", "side": side}, as_name, command_id, as_json)

@click.command("use")
@click.argument("game")
@click.argument("power")
@click.option("--target", metavar="NAME", help="The poison-mixer names the winner: the "
              "attacker or the defender (CASTLE-6.5).")
@game_command("use")
def use(obj, game, power, target, as_name, command_id, as_json):
    """Castle: in a fight window, show an item or use your profession (CASTLE-6).

    POWER is an item id (dagger, gloves, poison-ring, casting-knives, whip: CASTLE-5.9 to
    5.13) or a profession (priest 6.2, hypnotist 6.4, thug, grand-master, bodyguard,
    duelist, poison-mixer 6.5, doctor 6.7).

    \b
    Examples:
      devil use GAME casting-knives --as Cid
      devil use GAME poison-mixer --target Dora --as Eve
    JSON: {"type": "use", "power": "poison-mixer", "target": "Dora"}
    """
    command = {"type": "use", "power": power}
    if target is not None:
        command["target"] = target
    send(obj, game, command, as_name, command_id, as_json)

@click.command("declare")
@click.argument("game")
@click.argument("allies", nargs=-1)
@click.option("--prophecy", "kind", flag_value="prophecy",
              help="Prophecy variant (CASTLE-10.2): ALLIES are the opponents who hold "
                   "their society's three relics.")
@click.option("--coat-of-arms", "kind", flag_value="coat-of-arms",
              help="Declare alone with three relics of any kind (CASTLE-9.5).")
@game_command("declare")
def declare(obj, game, allies, kind, as_name, command_id, as_json):
    """Castle: declare victory as your turn's action, naming the ALLIES who hold the
    other relics (CASTLE-9.1, 9.2).  The game ends either way.

    You need one of your society's relics and not the black-pearl (CASTLE-5.7).  A bag
    counts only once the pile is empty (9.3); the smaller society's drink counts (9.4).

    \b
    Examples:
      devil declare GAME Cid Eve --as Ann
      devil declare GAME --coat-of-arms --as Ann
    JSON: {"type": "declare", "kind": "society", "allies": ["Cid", "Eve"]}
    """
    send(obj, game, {"type": "declare", "kind": kind or "society", "allies": list(allies)},
         as_name, command_id, as_json)

@click.command("give")
@click.argument("game")
@click.argument("item")
@click.option("--to", "to", metavar="NAME", required=True, help="Who receives it.")
@click.option("--silent", is_flag=True, help="Smuggling variant, Diplomat's trade only "
              "(CASTLE-10.1).")
@game_command("give")
def give(obj, game, item, to, silent, as_name, command_id, as_json):
    """Castle: give ITEM to a player when the rules ask you to.

    Over the hand limit (CASTLE-3.3), paying the priest (6.2), the item passed by the
    sextant (5.6), the Diplomat's hand-over and give-back (7.3).

    \b
    Example:
      devil give GAME whip --to Ben --as Ann
    JSON: {"type": "give", "item": "whip", "to": "Ben"}
    """
    command = {"type": "give", "item": item, "to": to}
    if silent:
        command["silent"] = True
    send(obj, game, command, as_name, command_id, as_json)

@click.command("choose")
@click.argument("game")
@click.argument("option")
@game_command("choose")
def choose(obj, game, option, as_name, command_id, as_json):
    """Castle: decide a trade effect or the fight winner's choice.

    \b
    OPTION: draw | skip            bag (CASTLE-5.1)
            look | skip            privilege, monocle (5.2, 5.3)
            swap | skip            tome (5.4)
            PROFESSION | skip      coat (5.5)
            left | right | skip    sextant (5.6)
            look | take            the fight winner (6.8)
    Example:
      devil choose GAME look --as Ann
    JSON: {"type": "choose", "option": "look"}
    """
    send(obj, game, {"type": "choose", "option": option}, as_name, command_id, as_json)

@click.command("take")
@click.argument("game")
@click.argument("item", required=False)
@click.option("--give-back", metavar="ITEM", help="When ITEM is the loser's last item, "
              "the item of yours they get (CASTLE-3.4, 6.8b).")
@click.option("--nothing", is_flag=True, help="Take none of the loser's items (CASTLE-6.8b: "
              "the winner may take one).")
@game_command("take")
def take(obj, game, item, give_back, nothing, as_name, command_id, as_json):
    """Castle: as the fight's winner who chose take, take ITEM from the loser, or nothing
    (CASTLE-6.8b).

    \b
    Examples:
      devil take GAME key-2 --give-back whip --as Ann
      devil take GAME --nothing --as Ann
    JSON: {"type": "take", "item": "key-2", "give_back": "whip"}  ({"type": "take"}: nothing)
    """
    if nothing == (item is not None):
        raise click.UsageError("name the ITEM you take, or give --nothing")
    command: dict = {"type": "take"}
    if item is not None:
        command["item"] = item
    if give_back is not None:
        command["give_back"] = give_back
    send(obj, game, command, as_name, command_id, as_json)

@click.command("clairvoyant")
@click.argument("game")
@game_command("clairvoyant")
def clairvoyant(obj, game, as_name, command_id, as_json):
    """Castle: use the Clairvoyant on your turn, before your action: look through the item
    pile (CASTLE-7.1, once).  Then `devil arrange` puts two of them on top.

    \b
    Example:
      devil clairvoyant GAME --as Ann
    JSON: {"type": "clairvoyant"}
    """
    send(obj, game, {"type": "clairvoyant"}, as_name, command_id, as_json)

@click.command("arrange")
@click.argument("game")
@click.argument("top", nargs=-1, required=True)
@game_command("arrange")
def arrange(obj, game, top, as_name, command_id, as_json):
    """Castle: the Clairvoyant puts TOP (two pile items, top first; fewer if the pile is
    smaller) on the shuffled rest of the pile (CASTLE-7.1).

    \b
    Example:
      devil arrange GAME key-3 privilege --as Ann
    JSON: {"type": "arrange", "top": ["key-3", "privilege"]}
    """
    send(obj, game, {"type": "arrange", "top": list(top)}, as_name, command_id, as_json)

@click.command("diplomat")
@click.argument("game")
@click.argument("target")
@click.argument("kind")
@game_command("diplomat")
def diplomat(obj, game, target, kind, as_name, command_id, as_json):
    """Castle: use the Diplomat on your turn (once): demand an item of KIND from TARGET
    (CASTLE-7.3).

    KIND is key, goblet or any other item id.  If TARGET holds one they must hand it over
    (`devil give`) and you give one back: a completed trade.  If not, they show you all
    their items and your turn ends.

    \b
    Example:
      devil diplomat GAME Ben key --as Ann
    JSON: {"type": "diplomat", "target": "Ben", "kind": "key"}
    """
    send(obj, game, {"type": "diplomat", "target": target, "kind": kind}, as_name,
         command_id, as_json)


@click.command("drawn")
@click.argument("game")
@click.argument("item")
@reporter_option
@game_command("drawn")
def drawn(obj, game, item, reporter, as_name, command_id, as_json):
    """Castle, physical game: report the card ITEM that was drawn from the item pile
    (CASTLE-7.1): a bag's draw (5.1) or the tie draw (6.6), when the engine knows the pile
    only as a set.  A card that is not in the pile is refused.  --reporter (or env
    DEVIL_REFEREE) names who reported it: the event records the name.

    \b
    Examples:
      devil drawn GAME key-2 --as Ann
      devil drawn GAME key-2 --as Ann --reporter Rita
    JSON: {"type": "draw", "item": "key-2", "reporter": "Rita"}
    """
    command = {"type": "draw", "item": item}
    reporter = reporter_name(reporter)
    if reporter is not None:
        command["reporter"] = reporter
    send(obj, game, command, as_name, command_id, as_json)
