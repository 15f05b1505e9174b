"""What a viewer sees (CASTLE-11): ``redact`` (an event as a viewer may see it), ``view`` (the
state as a JSON-able dict) and ``legal_commands`` (every command a seat may submit now).

``viewer`` is a seat index, ``REFEREE`` (None: everything) or ``PUBLIC`` (-1: public facts).
``view`` shows a hidden value only when the viewer is entitled to it, using bookkeeping that
is the same in every fold (who looked at whose society/profession, who are the partners of a
trade), so ``view(fold(redact(e, v) for e in log), v) == view(fold(log), v)``.
"""

from __future__ import annotations

from itertools import combinations, permutations

import attrs

from ...errors import IllegalCommand
from . import commands as cmd
from . import events as ev
from .cards import FIGHT_ITEMS, ITEM_KINDS, TRADE_EFFECTS
from .rules import check, choice_options, effect_options
from .state import SIDES, State, waiting_for


def _hide(e, **fields):
    return attrs.evolve(e, **fields)


def redact(event, viewer):
    """``event`` as ``viewer`` may see it (CASTLE-11.1; audiences in ``events``)."""
    if viewer is None:
        return event
    v = viewer
    t = type(event)
    e = event
    if t is ev.CardsDealt:
        return _hide(e, societies=[x if i == v else None for i, x in enumerate(e.societies)],
                     professions=[x if i == v or (e.professions_used and e.professions_used[i])
                                  else None for i, x in enumerate(e.professions)],
                     hands=[list(h) if i == v else [None] * len(h) for i, h in enumerate(e.hands)],
                     item_pile=[None] * len(e.item_pile),
                     profession_pile=[None] * len(e.profession_pile), set_aside=None,
                     society_cards=None if e.society_cards is None else [
                         list(x) if i == v else [None] * len(x)
                         for i, x in enumerate(e.society_cards)])
    if t in (ev.TradeOffered,):
        return e if v in (e.giver, e.receiver) else _hide(e, item=None, silent=None)
    if t in (ev.TradeRefused, ev.ItemGiven):
        return e if v in (e.giver, e.receiver) else _hide(e, item=None)
    if t is ev.TradeCompleted:
        return e if v in (e.giver, e.receiver) else _hide(e, offered=None, returned=None)
    if t is ev.ItemDrawn:
        return e if v == e.player else _hide(e, item=None)
    if t is ev.ItemsSeen:
        return e if v in (e.viewer, e.owner) else _hide(e, items=None)
    if t is ev.SocietySeen:
        return e if v in (e.viewer, e.owner) else _hide(e, society=None)
    if t is ev.ProfessionSeen:
        return e if v in (e.viewer, e.owner) else _hide(e, profession=None)
    if t is ev.ProfessionsSwapped:
        return e if v in (e.first, e.second) else _hide(e, first_now=None, second_now=None)
    if t is ev.ProfessionPileSeen:
        return e if v == e.player else _hide(e, pile=None)
    if t is ev.ProfessionExchanged:
        return e if v == e.player else _hide(e, taken=None, returned=None)
    if t is ev.SextantItemChosen:
        return e if v == e.player else _hide(e, item=None)
    if t is ev.SextantPassed:
        n = len(e.items)
        if v < 0:
            return _hide(e, items=[None] * n)
        src = (v - 1) % n if e.direction == "left" else (v + 1) % n
        return _hide(e, items=[x if i in (v, src) else None for i, x in enumerate(e.items)])
    if t is ev.ClairvoyantUsed:
        return e if v == e.player else _hide(e, pile=None)
    if t is ev.PileArranged:
        if v == e.player:
            return _hide(e, pile=e.pile[:2] + [None] * (len(e.pile) - 2))
        return _hide(e, pile=[None] * len(e.pile))
    if t is ev.DiplomatItemChosen:
        return e if v in (e.player, e.diplomat) else _hide(e, item=None, silent=None)
    if t is ev.FightTied:
        return e if v == e.attacker else _hide(e, item=None)
    if t is ev.ItemTaken:
        return e if v in (e.winner, e.loser) else _hide(e, item=None, given_back=None)
    return e


def view(state: State, viewer) -> dict:
    """The game as ``viewer`` sees it (JSON-able).  Keys: kind, phase, turn, turn_number,
    players (name, items, item_count, society, profession, profession_used, drink), pile,
    profession_pile, bags_are_relics, pending (open decisions, top last), fight, waiting_for,
    declaration, winners, points, knowledge, options."""
    ref = viewer is None
    n = state.n
    players = []
    for s in range(n):
        mine = ref or s == viewer
        shown = s in state.revealed
        items = list(state.hands[s]) if (mine or shown) else None
        society = (state.societies[s] if (mine or shown or viewer in state.society_known[s])
                   else None)
        profession = state.professions[s] if (
            mine or shown or state.prof_used[s] or viewer in state.prof_known[s]) else None
        entry = {"name": state.players[s], "items": items, "item_count": len(state.hands[s]),
                 "society": society, "profession": profession,
                 "profession_used": bool(state.prof_used[s]), "drink": bool(state.drinks[s])}
        if state.society_cards is not None:  # advanced-3p: the cards this viewer has seen
            entry["society_cards"] = (list(state.society_cards[s]) if (mine or shown)
                                      else _seen_cards(state, s, viewer))
        players.append(entry)
    pending = [_frame_view(state, f, viewer) for f in state.stack if f["kind"] != "turn"]
    fight = next((p for p in pending if p["kind"] == "fight"), None)
    knowledge: dict[str, list] | list
    if ref:
        knowledge = {state.players[s]: list(state.knowledge.get(s, [])) for s in range(n)}
    elif viewer == -1:
        knowledge = []
    else:
        knowledge = list(state.knowledge.get(viewer, []))
    if state.over:
        phase = "over"
    elif not state.dealt:
        phase = "setup"
    else:
        phase = state.top["kind"] if state.top else "turn"
    return {
        "kind": "castle", "phase": phase,
        "turn": None if state.active is None or state.over else state.players[state.active],
        "turn_number": state.turn, "players": players, "pile": len(state.pile),
        "pile_order_known": min(state.pile_known, len(state.pile)),
        "profession_pile": len(state.prof_pile), "bags_are_relics": state.bags_turned,
        "hand_limit": state.limit, "pending": pending, "fight": fight,
        "waiting_for": [state.players[s] for s in waiting_for(state)],
        "declaration": None if state.declaration is None else dict(
            state.declaration, player=state.players[state.declaration["player"]],
            allies=[state.players[a] for a in state.declaration["allies"]]),
        "winners": None if state.winners is None else [state.players[s] for s in state.winners],
        "points": state.points, "knowledge": knowledge,
        "options": {"beginner": state.beginner, "variants": list(state.variants),
                    "house": dict(state.house), "physical": state.physical,
                    "rules": state.rules, "position": state.position},
        "seed_chosen": state.seed_chosen,
    }


def _result_view(state: State, result: dict) -> dict:
    """A fight's result for a view: the parts name players, not seats."""
    out = dict(result)
    if "parts" in out:
        out["parts"] = [dict(p, player=None if p["player"] is None else state.players[p["player"]])
                        for p in out["parts"]]
    return out


def _seen_cards(state: State, seat: int, viewer) -> list:
    """advanced-3p: ``seat``'s three society cards as ``viewer`` saw them (None: not seen),
    from its knowledge facts (CASTLE-10.4, 11.1)."""
    out = [None, None, None]
    if viewer is None or viewer < 0:
        return out
    name = state.players[seat]
    for fact in state.knowledge.get(viewer, []):
        if fact["about"] == name and fact["what"].startswith("society-card-"):
            out[int(fact["what"][-1]) - 1] = fact["value"]
    return out


def _frame_view(state: State, f: dict, viewer) -> dict:
    P = state.players
    ref = viewer is None
    k = f["kind"]
    if k == "limit":
        return {"kind": k, "player": P[f["seat"]], "excess": state.count(f["seat"]) - state.limit}
    if k == "draw":
        return {"kind": k, "player": P[f["seat"]], "reason": f["reason"]}
    if k == "offer":
        party = ref or viewer in (f["giver"], f["receiver"])
        return {"kind": k, "giver": P[f["giver"]], "receiver": P[f["receiver"]],
                "item": f["item"] if party else None, "silent": f["silent"] if party else None}
    if k == "effect":
        out = {"kind": k, "effect": f["effect"], "owner": P[f["owner"]], "partner": P[f["partner"]]}
        if f["effect"] == "coat":
            out["profession_pile"] = f.get("pile") if (ref or viewer == f["owner"]) else None
        return out
    if k == "sextant":
        return {"kind": k, "owner": P[f["owner"]], "direction": f["direction"],
                "chosen": [P[s] for s in range(state.n) if f["done"][s]],
                "my_item": None if ref or viewer == -1 else f["items"][viewer]}
    if k == "clairvoyant":
        return {"kind": k, "player": P[f["seat"]],
                "pile": f["pile"] if (ref or viewer == f["seat"]) else None}
    if k == "diplomat":
        party = ref or viewer in (f["diplomat"], f["target"])
        return {"kind": k, "diplomat": P[f["diplomat"]], "target": P[f["target"]],
                "want": f["want"], "stage": f["stage"], "item": f["item"] if party else None}
    if k == "fight":
        winner = None
        if f["result"] and f["result"]["winner"]:
            winner = f[f["result"]["winner"]]
        return {"kind": k, "attacker": P[f["attacker"]], "defender": P[f["defender"]],
                "stage": f["stage"], "window": None if f["ask"] is None else P[f["ask"]],
                "sides": {P[s]: side for s, side in enumerate(f["sides"]) if side},
                "hypnotised": None if f["hypnotised"] is None else P[f["hypnotised"]],
                "duel": None if f["duel"] is None else P[f["duel"]],
                "uses": [{"player": P[s], "power": p, "for": t} for s, p, t in f["uses"]],
                "priest": None if f["priest"] is None else P[f["priest"]],
                "result": None if f["result"] is None else _result_view(state, f["result"]),
                "loser_items": f["loser_items"] if (ref or viewer == winner) else None}
    return {"kind": k}  # pragma: no cover


def _candidates(state: State, seat: int) -> list:
    me = state.players[seat]
    f = state.top
    assert f is not None  # a seat that may act acts in a frame (a turn at least)
    k = f["kind"]
    hand = [x for x in state.hands[seat] if x is not None]
    others = [p for i, p in enumerate(state.players) if i != seat]
    silents = (False, True) if "smuggling" in state.variants else (False,)
    out: list = []
    if k == "turn":
        out.append(cmd.Pass(player=me))
        out += [cmd.Trade(player=me, to=o, item=x, silent=s)
                for o in others for x in hand for s in silents if not s or x in TRADE_EFFECTS]
        out += [cmd.Attack(player=me, defender=o) for o in others]
        # a declaration refused for the declarer's own cards (the black pearl, no relic of
        # their own: CASTLE-5.7, 9.1) is refused whoever is named: skip its combinations
        society = _may_declare(state, seat, cmd.Declare(player=me, kind="society"))
        prophecy = "prophecy" in state.variants and others and _may_declare(
            state, seat, cmd.Declare(player=me, kind="prophecy", allies=[others[0]]))
        for size in range(len(others) + 1):
            for allies in combinations(others, size):
                if society:
                    out.append(cmd.Declare(player=me, kind="society", allies=list(allies)))
                if allies and prophecy:
                    out.append(cmd.Declare(player=me, kind="prophecy", allies=list(allies)))
        out.append(cmd.Declare(player=me, kind="coat-of-arms", allies=[]))
        out.append(cmd.Clairvoyant(player=me))
        out += [cmd.Diplomat(player=me, target=o, kind=kd) for o in others for kd in ITEM_KINDS]
    elif k == "offer":
        out.append(cmd.Refuse(player=me))
        out += [cmd.Accept(player=me, item=x, silent=s) for x in hand for s in silents
                if not s or x in TRADE_EFFECTS]
    elif k == "limit":
        out += [cmd.Give(player=me, item=x, to=o) for x in hand for o in others]
    elif k == "draw":  # any card not in one's own hand: only the referee knows the pile's set
        from .options import in_play
        playing, _ = in_play(state.n, state.beginner)
        out += [cmd.Draw(player=me, item=x) for x in playing if x not in hand]
    elif k == "effect":
        out += [cmd.Choose(player=me, option=o) for o in effect_options(state, f)]
    elif k == "sextant":
        to = state.left(seat) if f["direction"] == "left" else state.right(seat)
        out += [cmd.Give(player=me, item=x, to=state.players[to]) for x in hand]
    elif k == "clairvoyant":
        pile = f["pile"] or []
        out += [cmd.Arrange(player=me, top=list(t)) for t in permutations(pile, min(2, len(pile)))]
    elif k == "diplomat":
        to = state.players[f["diplomat"] if f["stage"] == "hand" else f["target"]]
        out += [cmd.Give(player=me, item=x, to=to, silent=s) for x in hand for s in silents
                if not s or x in TRADE_EFFECTS]
    elif k == "fight":
        stage = f["stage"]
        if stage in ("priest", "hypnotist", "doctor", "abilities", "duel"):
            out.append(cmd.Pass(player=me))
        if stage in ("priest", "hypnotist", "doctor"):
            out.append(cmd.Use(player=me, power=stage))
        if stage == "duel":
            out.append(cmd.Use(player=me, power="duelist"))
        if stage == "support":
            out += [cmd.Support(player=me, side=side) for side in SIDES]
        if stage == "abilities":
            out += [cmd.Use(player=me, power=x) for x in hand if x in FIGHT_ITEMS]
            prof = state.professions[seat]
            if prof == "poison-mixer":
                out += [cmd.Use(player=me, power=prof, target=state.players[f[r]])
                        for r in ("attacker", "defender")]
            elif prof is not None:
                out.append(cmd.Use(player=me, power=prof))
        if stage == "priest-payment" and f["priest"] is not None:
            out += [cmd.Give(player=me, item=x, to=state.players[f["priest"]]) for x in hand]
        if stage == "choice":
            out += [cmd.Choose(player=me, option=o) for o in choice_options(state)]
        if stage == "take":
            loser = f["defender"] if seat == f["attacker"] else f["attacker"]
            for x in (f["loser_items"] or []):
                backs = hand + ([x] if state.r2 else []) if state.count(loser) == 1 else [None]
                out += [cmd.Take(player=me, item=x, give_back=b) for b in backs]
            if state.r2:
                out.append(cmd.Take(player=me, item=None))
    return out


def _may_declare(state: State, seat: int, c) -> bool:
    from .rules import check_declare
    try:
        check_declare(state, seat, c)
    except IllegalCommand:
        return False
    return True


def legal_commands(state: State, seat: int) -> list:
    """Every command ``seat`` may submit now, from what that seat knows (its redacted fold
    suffices).  Empty when the seat is not asked to act."""
    if state.over or not state.dealt or seat is None or not 0 <= seat < state.n:
        return []
    if seat not in waiting_for(state):
        return []
    out = []
    for c in _candidates(state, seat):
        try:
            check(state, seat, c)
        except IllegalCommand:
            continue
        out.append(c)
    return out
