"""Rebuilding the command a batch of recorded events came from (``GameRules.command_for``).

``engine.replay`` refolds a .devlog strictly: it groups the records into commands, asks this
hook for the command (and the chance answers it drew) and re-decides it; ``decide`` must give
exactly the recorded events.  Shapes (``engine.game.GameRules.command_for``)::

    command_for(state, events) -> (command, answers)

* ``state``: the referee's fold before the batch (``initial()`` for the first batch);
* ``events``: the batch, decoded; the first event names the command (the events that follow
  by themselves -- hand limit, bags turning, the count, the next turn -- are re-derived by
  ``decide``);
* for the first batch the "command" is the options map ``setup`` was given (players, first,
  beginner, variants, house, physical, and the deal for a dealt or physical game);
* ``answers``: what the command drew by chance, in the order ``decide``/``setup`` ask, as
  :class:`engine.replay.ScriptedChance` takes them (``shuffled`` -> a permutation of indexes,
  ``randbelow`` -> an int).  Only the deal (CASTLE-2) and the Clairvoyant's shuffle of the rest
  of the pile (CASTLE-7.1) draw by chance.

Raises ValueError when no command can have produced the batch.
"""

from __future__ import annotations

from typing import Any

from . import commands as cmd
from . import events as ev
from .cards import ALL_ITEMS, BAGS, BROTHERHOOD, ORDER, PROFESSIONS, SEALED
from .decide import named
from .options import OLD_RULES, in_play
from .state import State


def _perm(source: list, result: list) -> list[int]:
    """Indexes ``p`` with ``[source[i] for i in p] == result`` (equal items matched in order)."""
    used = [False] * len(source)
    out = []
    for item in result:
        for i, x in enumerate(source):
            if not used[i] and x == item:
                used[i] = True
                out.append(i)
                break
        else:
            raise ValueError(f"{item!r} cannot come out of shuffling {source!r}")
    if len(out) != len(source):
        raise ValueError("a shuffle must keep every card")
    return out


def setup_command(created: ev.GameCreated, dealt: ev.CardsDealt,
                  turn: int = 1) -> tuple[dict, list]:
    """The options map and chance answers that ``options.setup`` turns into ``created`` and
    ``dealt`` (CASTLE-2); ``turn`` is the first ``turn_started``'s number (a position's)."""
    players = list(created.players)
    n = len(players)
    options: dict[str, Any] = {
        "players": players, "beginner": created.beginner, "variants": list(created.variants),
        "house": dict(created.house), "physical": created.physical}
    options["rules"] = created.rules
    if created.seed_chosen:
        options["seed_chosen"] = True
    if not created.first_drawn:
        options["first"] = players[created.first]
    answers: list = []
    if created.deal_given or created.physical:
        seats: dict[str, Any] = {}
        for i, name in enumerate(players):
            entry: dict[str, Any] = {"profession": dealt.professions[i],
                                     "items": list(dealt.hands[i])}
            if dealt.society_cards is not None:
                entry["society_cards"] = list(dealt.society_cards[i])
            else:
                entry["society"] = dealt.societies[i]
            if created.position:
                entry["profession_used"] = bool((dealt.professions_used or [False] * n)[i])
            seats[name] = entry
        pile = list(dealt.item_pile)
        if dealt.pile_shuffled:  # a set shuffled by chance: given in the box's order
            pile = [c for c in ALL_ITEMS if c in pile]
            answers.append(_perm(pile, list(dealt.item_pile)))
        deal: dict[str, Any] = {
            "seats": seats, "item_pile": pile, "profession_pile": list(dealt.profession_pile)}
        if created.rules != OLD_RULES:
            deal["pile_ordered"] = bool(dealt.pile_ordered) and not dealt.pile_shuffled
        if n % 2:
            deal["set_aside"] = dealt.set_aside
        if created.position:
            deal["turn"] = turn
            options["position"] = deal
        else:
            options["deal"] = deal
    else:
        # options.random_deal: professions, societies, sealed, start, pile (in that order)
        answers.append(_perm(list(PROFESSIONS),
                             list(dealt.professions) + list(dealt.profession_pile)))
        per = (n + 1) // 2 if n % 2 else n // 2
        if dealt.society_cards is not None:  # advanced-3p (CASTLE-10.4)
            flat = [c for sc in dealt.society_cards for c in sc] + [dealt.set_aside]
            answers.append(_perm([ORDER] * 5 + [BROTHERHOOD] * 5, flat))
        else:
            societies = list(dealt.societies) + ([dealt.set_aside] if n % 2 else [])
            answers.append(_perm([ORDER] * per + [BROTHERHOOD] * per, societies))
        playing, _ = in_play(n, created.beginner)
        sealed_in = [c for c in SEALED if c in playing]
        start = [h[0] for h in dealt.hands]
        first_sealed = [c for c in start if c not in BAGS]
        sealed_out = first_sealed + [c for c in sealed_in if c not in first_sealed]
        answers.append(_perm(sealed_in, sealed_out))
        answers.append(_perm(list(BAGS) + first_sealed, start))
        rest = sealed_out[n - 2:] + [c for c in playing if c not in SEALED and c not in BAGS]
        drawn = [h[1] for h in dealt.hands] if n == 3 else []
        answers.append(_perm(rest, drawn + list(dealt.item_pile)))
    if created.first_drawn:
        answers.append(created.first)
    return options, answers


def _silent(state: State, card, announced, other) -> bool:
    """Whether the giver of ``card`` kept it silent (CASTLE-10.1): it would have been named
    but was not.  Where nothing would be named anyway (no effect, broken mirror) both choices
    give the same events, and the loud one is returned."""
    if card is None:
        return False
    mirror = "broken-mirror" in (card, other)
    return named(state, card, False, mirror) is not None and announced is None


def command_for(state: State, events: list) -> tuple[Any, list]:
    """The command (or the setup options) that produced ``events`` from ``state``."""
    if not events:
        raise ValueError("an empty batch")
    first = events[0]
    t = type(first)
    if not state.players:
        if t is not ev.GameCreated or len(events) < 2 or type(events[1]) is not ev.CardsDealt:
            raise ValueError("a game must begin with game_created and cards_dealt")
        turn = next((e.turn for e in events if isinstance(e, ev.TurnStarted)), 1)
        return setup_command(first, events[1], turn)
    P = state.players

    def name(seat) -> str:
        if not isinstance(seat, int) or not 0 <= seat < state.n:
            raise ValueError(f"there is no seat {seat!r}")
        return P[seat]

    if t is ev.TurnPassed:
        return cmd.Pass(player=name(first.player)), []
    if t is ev.WindowPassed:
        return cmd.Pass(player=name(first.player)), []
    if t is ev.TradeOffered:
        return cmd.Trade(player=name(first.giver), to=name(first.receiver), item=first.item,
                         silent=bool(first.silent)), []
    if t is ev.TradeRefused:
        return cmd.Refuse(player=name(first.receiver)), []
    if t is ev.TradeCompleted:
        silent = _silent(state, first.returned, first.returned_named, first.offered)
        if first.diplomat:  # the diplomat gives back (CASTLE-7.3)
            return cmd.Give(player=name(first.receiver), item=first.returned,
                            to=name(first.giver), silent=silent), []
        return cmd.Accept(player=name(first.receiver), item=first.returned, silent=silent), []
    if t is ev.AttackDeclared:
        return cmd.Attack(player=name(first.attacker), defender=name(first.defender)), []
    if t is ev.Declared:
        return cmd.Declare(player=name(first.player), kind=first.kind,
                           allies=[name(a) for a in first.allies]), []
    if t is ev.ClairvoyantUsed:
        return cmd.Clairvoyant(player=name(first.player)), []
    if t is ev.PileArranged:
        top = list(first.pile[:min(2, len(state.pile))])
        rest = [x for x in state.pile if x not in top]
        answers = [] if state.physical else [_perm(rest, list(first.pile[len(top):]))]
        return cmd.Arrange(player=name(first.player), top=top), answers
    if t is ev.DiplomatUsed:
        return cmd.Diplomat(player=name(first.player), target=name(first.target),
                            kind=first.kind), []
    if t is ev.DiplomatItemChosen:
        return cmd.Give(player=name(first.player), item=first.item, to=name(first.diplomat),
                        silent=bool(first.silent)), []
    if t is ev.ItemGiven:
        return cmd.Give(player=name(first.giver), item=first.item, to=name(first.receiver)), []
    if t is ev.SextantItemChosen:
        frame = state.top
        if not frame or frame["kind"] != "sextant":
            raise ValueError("no sextant is being passed")
        seat = first.player
        to = state.left(seat) if frame["direction"] == "left" else state.right(seat)
        return cmd.Give(player=name(seat), item=first.item, to=name(to)), []
    if t is ev.ItemDrawn and state.top and state.top["kind"] == "draw":
        return cmd.Draw(player=name(first.player), item=first.item, reporter=first.reporter), []
    if t is ev.ItemDrawn and first.reason == "bag":
        return cmd.Choose(player=name(first.player), option="draw"), []
    if t is ev.DrawAwaited and first.reason == "bag":
        return cmd.Choose(player=name(first.player), option="draw"), []
    if t is ev.EffectDeclined:
        return cmd.Choose(player=name(first.player), option="skip"), []
    if t is ev.ItemsSeen and first.reason == "privilege":
        return cmd.Choose(player=name(first.viewer), option="look"), []
    if t is ev.SocietySeen and first.reason == "monocle":
        option = "look" if first.card is None else f"look-{first.card + 1}"
        return cmd.Choose(player=name(first.viewer), option=option), []
    if t is ev.ProfessionsSwapped:
        return cmd.Choose(player=name(first.first), option="swap"), []
    if t is ev.ProfessionExchanged:
        return cmd.Choose(player=name(first.player), option=first.taken), []
    if t is ev.SextantTurned:
        return cmd.Choose(player=name(first.player), option=first.direction), []
    if t is ev.SupportDeclared:
        return cmd.Support(player=name(first.player), side=first.side), []
    if t is ev.PowerUsed:
        target = name(first.target) if first.power == "poison-mixer" else None
        return cmd.Use(player=name(first.player), power=first.power, target=target), []
    if t is ev.FightChoiceMade:
        return cmd.Choose(player=name(first.player), option=first.choice), []
    if t is ev.ItemTaken:
        if not first.took:
            return cmd.Take(player=name(first.winner), item=None), []
        return cmd.Take(player=name(first.winner), item=first.item,
                        give_back=first.given_back), []
    raise ValueError(f"a command cannot begin with {first.TYPE}")
