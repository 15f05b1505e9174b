"""Applying one fact to the state (the ``evolve`` of the decider).  Never raises on a
well-formed log; works the same on the referee's stream and on a seat's redacted stream
(where hidden values are None)."""

from __future__ import annotations

from typing import Any, Callable

from . import events as ev
from .cards import PROFESSIONS
from .state import (State, doctor_queue, duel_queue, hypnotist_may, new_fight,
                    next_ability_seat, priest_queue, support_queue)


def initial() -> State:
    """An empty state, before ``game_created``."""
    return State()


def learn(state: State, learner: int, about: int | None, what: str, value, reason: str) -> None:
    """Record a private look (CASTLE-11.1) when the folding viewer can see its value."""
    if value is None:
        return
    state.knowledge.setdefault(learner, []).append({
        "about": None if about is None else state.players[about], "what": what,
        "value": list(value) if isinstance(value, list) else value,
        "reason": reason, "turn": state.turn})


def take_card(hand: list, card) -> None:
    """Remove ``card`` from ``hand``.

    In a seat's fold a hand of another seat may hold known ids (cards this seat gave or saw)
    and unknown entries (None).  When a card this seat cannot see leaves that hand, it may be
    any of them, so every known id there becomes unknown again and one entry goes: an id in a
    hand of a seat's fold is then always a card that seat *certainly* holds (bots rely on it).
    The referee's fold never has None, so this only ever applies to redacted folds.
    """
    if card is not None and card in hand:
        hand.remove(card)
    elif card is None and hand:
        hand[:] = [None] * (len(hand) - 1)
    elif None in hand:  # a known card this fold had not placed in the hand
        hand.remove(None)
    elif hand:  # pragma: no cover - a well-formed log never gets here
        hand.pop()


def move(state: State, src: int, dst: int, card) -> None:
    """Move ``card`` (an id, or None where this fold does not know it) from seat ``src``'s hand
    to seat ``dst``'s."""
    take_card(state.hands[src], card)
    state.hands[dst].append(card)


def _pop(state: State, kind: str) -> dict | None:
    for i in range(len(state.stack) - 1, -1, -1):
        if state.stack[i]["kind"] == kind:
            return state.stack.pop(i)
    return None


def _turn_done(state: State) -> None:
    for frame in reversed(state.stack):
        if frame["kind"] == "turn":
            frame["done"] = True
            return


def settle_fight(state: State, f: dict) -> None:
    """Move a fight past empty windows and set whose window it is (CASTLE-6.2 to 6.7)."""
    if f["stage"] == "priest":
        if f["queue"]:
            f["ask"] = f["queue"][0]
            return
        if state.r2:  # CASTLE-6.5: a duel may be called before the support round
            f["stage"] = "duel"
            f["queue"] = duel_queue(state, f)
        else:
            f["stage"] = "support"
            f["queue"] = support_queue(state, f)
    if f["stage"] == "duel":
        if f["duel"] is None and f["queue"]:
            f["ask"] = f["queue"][0]
            return
        f["stage"] = "support"
        # a duel called before the support round skips it (CASTLE-6.5 [house])
        f["queue"] = [] if f["duel"] is not None else support_queue(state, f)
    if f["stage"] == "support":
        if f["queue"]:
            f["ask"] = f["queue"][0]
            return
        f["stage"] = "abilities"
        f["passed"] = []
        f["ask"] = next_ability_seat(state, f, None)
        if f["ask"] is None:
            f["stage"] = "count"
        return
    if f["stage"] == "doctor":
        if f["queue"]:
            f["ask"] = f["queue"][0]
            return
        winner = f["result"]["winner"]
        if winner is None:
            f["stage"] = "tie"
            f["ask"] = None
        else:
            f["stage"] = "choice"
            f["ask"] = f["attacker"] if winner == "attacker" else f["defender"]


def _use_profession(state: State, seat: int, profession: str) -> None:
    state.professions[seat] = profession
    state.prof_used[seat] = True


def evolve(state: State, event) -> State:
    """Apply ``event`` to ``state`` in place and return it."""
    handler = _HANDLERS[type(event)]
    handler(state, event)
    return state


def _created(s: State, e: ev.GameCreated) -> None:
    n = len(e.players)
    s.players = list(e.players)
    s.first = e.first
    s.beginner = e.beginner
    s.variants = list(e.variants)
    s.house = dict(e.house)
    s.limit = e.hand_limit
    s.physical = e.physical
    s.commitment = e.commitment
    s.seed_chosen = e.seed_chosen
    s.rules = e.rules
    s.position = e.position
    s.societies = [None] * n
    s.professions = [None] * n
    s.prof_used = [False] * n
    s.prof_known = [set() for _ in range(n)]
    s.society_known = [set() for _ in range(n)]
    s.drinks = [False] * n
    s.hands = [[] for _ in range(n)]
    s.knowledge = {i: [] for i in range(n)}


def _dealt(s: State, e: ev.CardsDealt) -> None:
    s.societies = list(e.societies)
    s.professions = list(e.professions)
    s.hands = [list(h) for h in e.hands]
    s.drinks = list(e.drinks)
    s.pile = list(e.item_pile)
    s.prof_pile = list(e.profession_pile)
    s.set_aside = e.set_aside
    s.removed = list(e.removed)
    s.pile_known = len(s.pile) if e.pile_ordered else 0
    if e.society_cards is not None:
        s.society_cards = [list(x) for x in e.society_cards]
    if e.professions_used is not None:
        s.prof_used = list(e.professions_used)
    s.dealt = True


def _turn_started(s: State, e: ev.TurnStarted) -> None:
    if s.top is not None and s.top["kind"] == "turn":
        s.stack.pop()
    seat = e.player
    if s.turn == 0:
        s.first_turn = e.turn
    s.active = seat
    s.turn = e.turn
    s.stack.append({"kind": "turn", "seat": seat, "done": False})


def _passed(s: State, e: ev.TurnPassed) -> None:
    _turn_done(s)


def _offered(s: State, e: ev.TradeOffered) -> None:
    _turn_done(s)
    g, r = e.giver, e.receiver
    s.stack.append({"kind": "offer", "giver": g, "receiver": r, "item": e.item, "silent": e.silent})
    learn(s, r, g, "offered-item", e.item, "trade")


def _refused(s: State, e: ev.TradeRefused) -> None:
    _pop(s, "offer")


def _completed(s: State, e: ev.TradeCompleted) -> None:
    g, r = e.giver, e.receiver
    _pop(s, "diplomat" if e.diplomat else "offer")
    take_card(s.hands[g], e.offered)
    take_card(s.hands[r], e.returned)
    s.hands[g].append(e.returned)
    s.hands[r].append(e.offered)
    learn(s, g, r, "returned-item", e.returned, "trade")
    effects = []
    if e.offered_named:
        effects.append({"kind": "effect", "effect": e.offered_named, "owner": g, "partner": r,
                        "shown": False})
    if e.returned_named:
        effects.append({"kind": "effect", "effect": e.returned_named, "owner": r, "partner": g,
                        "shown": False})
    if e.diplomat and s.r2:
        # CASTLE-4.6: the active player's card first; in the Diplomat's exchange the Diplomat
        # (the receiver of the target's card) is the active player
        effects.reverse()
    if s.house.get("sextant_last", True):
        effects.sort(key=lambda f: f["effect"] == "sextant")
    s.stack.extend(reversed(effects))


def _limit(s: State, e: ev.HandLimitExceeded) -> None:
    s.stack.append({"kind": "limit", "seat": e.player})


def _given(s: State, e: ev.ItemGiven) -> None:
    g, r = e.giver, e.receiver
    move(s, g, r, e.item)
    learn(s, r, g, "received-item", e.item, e.reason)  # CASTLE-11.1
    if e.reason == "hand-limit":
        top = s.top
        if top and top["kind"] == "limit" and top["seat"] == g and s.count(g) <= s.limit:
            s.stack.pop()
    elif e.reason == "priest":
        _pop(s, "fight")


def _draw_top(s: State, card) -> None:
    """Take a card from the pile: the known top card, or (a reported draw from a pile known
    only as a set, CASTLE-7.1) the reported one."""
    if not s.pile:
        return
    if s.pile_known > 0:
        s.pile.pop(0)
        s.pile_known -= 1
    else:
        take_card(s.pile, card)


def _drawn(s: State, e: ev.ItemDrawn) -> None:
    top = s.top
    if top is not None and top["kind"] == "draw":
        s.stack.pop()
    elif e.reason == "bag":
        _pop(s, "effect")
    _draw_top(s, e.item)
    s.hands[e.player].append(e.item)
    learn(s, e.player, None, "drawn-item", e.item, e.reason)  # CASTLE-11.1


def _draw_awaited(s: State, e: ev.DrawAwaited) -> None:
    _pop(s, "effect" if e.reason == "bag" else "fight")
    s.stack.append({"kind": "draw", "seat": e.player, "reason": e.reason})


def _declined(s: State, e: ev.EffectDeclined) -> None:
    _pop(s, "effect")


def _items_seen(s: State, e: ev.ItemsSeen) -> None:
    v, o = e.viewer, e.owner
    learn(s, v, o, "items", e.items, e.reason)
    if e.items is not None and len(e.items) == len(s.hands[o]):
        s.hands[o] = list(e.items)  # the looker now knows that whole hand
    if e.reason == "privilege":
        _pop(s, "effect")
    elif e.reason == "fight":
        f = s.fight()
        assert f is not None
        f["stage"] = "take"
        f["loser_items"] = None if e.items is None else list(e.items)


def _society_seen(s: State, e: ev.SocietySeen) -> None:
    v, o = e.viewer, e.owner
    if e.card is not None:  # advanced-3p: one of the three cards (CASTLE-10.4)
        learn(s, v, o, f"society-card-{e.card + 1}", e.society, e.reason)
        if e.society is not None and s.society_cards is not None:
            s.society_cards[o][e.card] = e.society
    else:
        s.society_known[o].add(v)
        if e.society is not None:
            s.societies[o] = e.society
        learn(s, v, o, "society", e.society, e.reason)
    if e.reason == "monocle":
        _pop(s, "effect")


def _profession_seen(s: State, e: ev.ProfessionSeen) -> None:
    v, o = e.viewer, e.owner
    s.prof_known[o].add(v)
    if e.profession is not None:
        s.professions[o] = e.profession
    learn(s, v, o, "profession", e.profession, e.reason)


def _swapped(s: State, e: ev.ProfessionsSwapped) -> None:
    _pop(s, "effect")
    a, b = e.first, e.second
    s.professions[a], s.professions[b] = e.first_now, e.second_now
    s.prof_used[a] = s.prof_used[b] = False
    s.prof_known[a], s.prof_known[b] = {b}, {a}
    learn(s, a, b, "profession", e.second_now, "tome")
    learn(s, b, a, "profession", e.first_now, "tome")


def _pile_seen(s: State, e: ev.ProfessionPileSeen) -> None:
    top = s.top
    assert top is not None
    top["shown"] = True
    top["pile"] = None if e.pile is None else list(e.pile)
    learn(s, e.player, None, "profession-pile", e.pile, "coat")


def _exchanged(s: State, e: ev.ProfessionExchanged) -> None:
    _pop(s, "effect")
    p = e.player
    take_card(s.prof_pile, e.taken)
    s.prof_pile.append(e.returned)
    s.professions[p] = e.taken
    s.prof_used[p] = False
    s.prof_known[p] = set()


def _sextant_turned(s: State, e: ev.SextantTurned) -> None:
    _pop(s, "effect")
    s.stack.append({"kind": "sextant", "owner": e.player, "direction": e.direction,
                    "done": [False] * s.n, "items": [None] * s.n})


def _sextant_chosen(s: State, e: ev.SextantItemChosen) -> None:
    frame = s.top
    assert frame is not None
    seat = e.player
    frame["done"][seat] = True
    frame["items"][seat] = e.item


def _sextant_passed(s: State, e: ev.SextantPassed) -> None:
    _pop(s, "sextant")
    for seat, card in enumerate(e.items):
        take_card(s.hands[seat], card)
    for seat, card in enumerate(e.items):
        dst = s.left(seat) if e.direction == "left" else s.right(seat)
        s.hands[dst].append(card)
        learn(s, dst, seat, "received-item", card, "sextant")  # CASTLE-11.1


def _clairvoyant(s: State, e: ev.ClairvoyantUsed) -> None:
    seat = e.player
    _use_profession(s, seat, "clairvoyant")
    s.stack.append({"kind": "clairvoyant", "seat": seat,
                    "pile": None if e.pile is None else list(e.pile)})
    learn(s, seat, None, "pile", e.pile, "clairvoyant")


def _arranged(s: State, e: ev.PileArranged) -> None:
    _pop(s, "clairvoyant")
    s.pile = list(e.pile)
    s.pile_known = len(s.pile) if e.known is None else e.known
    top = [c for c in e.pile[:2] if c is not None]
    learn(s, e.player, None, "pile-top", top if top or not e.pile else None, "clairvoyant")


def _diplomat(s: State, e: ev.DiplomatUsed) -> None:
    seat, target = e.player, e.target
    _use_profession(s, seat, "diplomat")
    if e.holds:
        s.stack.append({"kind": "diplomat", "diplomat": seat, "target": target, "want": e.kind,
                        "stage": "hand", "item": None, "silent": None})
    else:
        _turn_done(s)


def _diplomat_chosen(s: State, e: ev.DiplomatItemChosen) -> None:
    frame = s.top
    assert frame is not None
    frame["stage"] = "back"
    frame["item"] = e.item
    frame["silent"] = e.silent
    learn(s, frame["diplomat"], frame["target"], "handed-item", e.item, "diplomat")


def _bags_turned(s: State, e: ev.BagsTurned) -> None:
    s.bags_turned = True


def _attack(s: State, e: ev.AttackDeclared) -> None:
    _turn_done(s)
    f = new_fight(e.attacker, e.defender, s.n)
    f["queue"] = priest_queue(s, f)
    s.stack.append(f)
    settle_fight(s, f)


def _support(s: State, e: ev.SupportDeclared) -> None:
    f = s.fight()
    assert f is not None
    seat = e.player
    f["sides"][seat] = e.side
    if f["queue"] and f["queue"][0] == seat:
        f["queue"].pop(0)
    if e.side != "neutral" and hypnotist_may(s, f):
        f["stage"] = "hypnotist"
        f["last_supporter"] = seat
        f["ask"] = f["attacker"]
        return
    settle_fight(s, f)


def _power(s: State, e: ev.PowerUsed) -> None:
    f = s.fight()
    assert f is not None
    seat = e.player
    power = e.power
    if power in PROFESSIONS:
        _use_profession(s, seat, power)
    stage = f["stage"]
    if stage == "priest":
        f["priest"] = seat
        if s.count(f["attacker"]) >= 2:
            f["stage"] = "priest-payment"
            f["ask"] = f["attacker"]
        else:
            _pop(s, "fight")
        return
    if stage == "hypnotist":
        f["hypnotised"] = f["last_supporter"]
        f["stage"] = "support"
        settle_fight(s, f)
        return
    if stage == "doctor":
        if f["result"]["winner"] is None and not s.house.get("doctor_cancels_tie_draw", True):
            f["stage"] = "tie"
            f["ask"] = None
        else:
            _pop(s, "fight")
        return
    # the ability round (CASTLE-6.5)
    target = None if e.target is None else (
        "attacker" if e.target == f["attacker"] else "defender")
    f["uses"].append([seat, power, target])
    if power == "duelist":
        f["duel"] = seat
    if stage == "duel":  # CASTLE-6.5: called before the support round, which is skipped
        settle_fight(s, f)
        return
    f["passed"] = []
    f["ask"] = next_ability_seat(s, f, seat)
    if f["ask"] is None:  # pragma: no cover - a use always reopens the round
        f["stage"] = "count"


def _window_passed(s: State, e: ev.WindowPassed) -> None:
    f = s.fight()
    assert f is not None
    seat = e.player
    if f["stage"] in ("priest", "doctor", "duel"):
        if f["queue"] and f["queue"][0] == seat:
            f["queue"].pop(0)
        settle_fight(s, f)
    elif f["stage"] == "hypnotist":
        f["stage"] = "support"
        settle_fight(s, f)
    elif f["stage"] == "abilities":
        if seat not in f["passed"]:
            f["passed"].append(seat)
        f["ask"] = next_ability_seat(s, f, seat)
        if f["ask"] is None:
            f["stage"] = "count"


def _counted(s: State, e: ev.FightCounted) -> None:
    f = s.fight()
    assert f is not None
    winner = None
    if e.winner is not None:
        winner = "attacker" if e.winner == f["attacker"] else "defender"
    f["result"] = {"attacker": e.attacker_total, "defender": e.defender_total, "winner": winner,
                   "mixer": e.by_poison_mixer, "ring": e.by_poison_ring}
    if e.parts is not None:  # CASTLE-6.6: the count's parts (say why)
        f["result"]["parts"] = [{"side": p.side, "source": p.source, "player": p.player,
                                 "value": p.value, "void": p.void} for p in e.parts]
    f["stage"] = "doctor"
    f["queue"] = doctor_queue(s, f)
    settle_fight(s, f)


def _tied(s: State, e: ev.FightTied) -> None:
    f = _pop(s, "fight")
    if e.drew:
        assert f is not None
        _draw_top(s, e.item)
        s.hands[f["attacker"]].append(e.item)
        learn(s, f["attacker"], None, "drawn-item", e.item, "tie")  # CASTLE-11.1


def _choice(s: State, e: ev.FightChoiceMade) -> None:
    f = s.fight()
    assert f is not None
    if e.choice.startswith("look"):
        _pop(s, "fight")
    else:
        f["stage"] = "take"


def _taken(s: State, e: ev.ItemTaken) -> None:
    w, lo = e.winner, e.loser
    if e.took:
        move(s, lo, w, e.item)
        learn(s, w, lo, "taken-item", e.item, "fight")
        if s.count(lo) == 0:
            move(s, w, lo, e.given_back)
        learn(s, lo, w, "given-back-item", e.given_back, "fight")
    _pop(s, "fight")


def _declared(s: State, e: ev.Declared) -> None:
    for r in e.revealed:
        seat = r.player
        s.societies[seat] = r.society
        s.professions[seat] = r.profession
        s.hands[seat] = list(r.items)
        s.revealed[seat] = {"society": r.society, "profession": r.profession,
                            "items": list(r.items)}
        if r.society_cards is not None and s.society_cards is not None:  # advanced-3p: all
            s.society_cards[seat] = list(r.society_cards)  # three laid open (CASTLE-9.2, 10.4)
    s.declaration = {"player": e.player, "kind": e.kind, "allies": list(e.allies), "right": e.right,
                     "winning_society": e.winning_society}


def _ended(s: State, e: ev.GameEnded) -> None:
    s.winners = list(e.winners)
    s.points = None if e.points is None else dict(e.points)
    s.over = True
    if e.reveal is not None:
        s.seed, s.salt = e.reveal.seed, e.reveal.salt
    s.stack = []
    s.active = None


_HANDLERS: dict[type, Callable[[State, Any], None]] = {
    ev.GameCreated: _created, ev.CardsDealt: _dealt, ev.TurnStarted: _turn_started,
    ev.TurnPassed: _passed, ev.TradeOffered: _offered, ev.TradeRefused: _refused,
    ev.TradeCompleted: _completed, ev.HandLimitExceeded: _limit, ev.ItemGiven: _given,
    ev.ItemDrawn: _drawn, ev.DrawAwaited: _draw_awaited, ev.EffectDeclined: _declined,
    ev.ItemsSeen: _items_seen,
    ev.SocietySeen: _society_seen, ev.ProfessionSeen: _profession_seen,
    ev.ProfessionsSwapped: _swapped, ev.ProfessionPileSeen: _pile_seen,
    ev.ProfessionExchanged: _exchanged, ev.SextantTurned: _sextant_turned,
    ev.SextantItemChosen: _sextant_chosen, ev.SextantPassed: _sextant_passed,
    ev.ClairvoyantUsed: _clairvoyant, ev.PileArranged: _arranged, ev.DiplomatUsed: _diplomat,
    ev.DiplomatItemChosen: _diplomat_chosen, ev.BagsTurned: _bags_turned,
    ev.AttackDeclared: _attack, ev.SupportDeclared: _support, ev.PowerUsed: _power,
    ev.WindowPassed: _window_passed, ev.FightCounted: _counted, ev.FightTied: _tied,
    ev.FightChoiceMade: _choice, ev.ItemTaken: _taken, ev.Declared: _declared,
    ev.GameEnded: _ended,
}
