"""The decider: a command and the state -> the facts it causes (CASTLE-3 to 10).

``decide(state, command, chance)`` checks the command (``rules.check``), turns it into events
(reading hidden cards from the referee's state) and then adds the events that follow by
themselves (``advance``): the hand limit (3.3), the bags turning (9.3), the count (6.6), the tie
draw, the coat's look at the profession pile, the sextant's pass, the next turn.  It never
mutates ``state``: ``advance`` works on a copy.
"""

from __future__ import annotations

import copy

from ...errors import IllegalCommand
from ...game import check_reporter, seat_of
from . import commands as cmd
from . import events as ev
from .cards import ALL_ITEMS, BAGS, RELIC, TRADE_EFFECTS, effect_name, relic_of
from .evolve import evolve
from .rules import check, matches, other_society
from .state import State, count_fight


def acting_seat(state: State, command) -> int | None:
    """The seat ``command`` acts for (every castle command names its ``player``)."""
    name = getattr(command, "player", None)
    if name is None:
        return None
    seat_of(list(state.players), name, "CASTLE-2")  # UnknownPlayer (exit 2)
    return state.seat(name)


def decide(state: State, command, chance) -> list:
    """The events ``command`` causes; raises IllegalCommand (citing the rule) if refused."""
    seat = acting_seat(state, command)
    if seat is None:
        raise IllegalCommand("CASTLE-3.1", "every castle command names the player it acts for")
    check(state, seat, command)
    events = _act(state, seat, command, chance)
    if state.over or any(isinstance(e, ev.GameEnded) for e in events):
        return events
    return events + advance(state, events, chance)


def named(state: State, card: str, silent: bool, mirror: bool) -> str | None:
    """The effect name announced for ``card`` in a completed trade (CASTLE-4.5, 4.7, 5.1, 10.1)."""
    if mirror or silent or card not in TRADE_EFFECTS:
        return None
    if card in BAGS and state.bags_turned:
        return None  # a turned bag is a relic and has no effect (9.3)
    return effect_name(card)


def completed(state: State, giver: int, receiver: int, offered: str, returned: str,
              offered_silent: bool, returned_silent: bool,
              diplomat: bool = False) -> ev.TradeCompleted:
    """The ``trade_completed`` fact: which effect cards are named aloud (CASTLE-4.5), none if the
    broken mirror is in the trade (4.7), none that were smuggled (10.1)."""
    mirror = "broken-mirror" in (offered, returned)
    return ev.TradeCompleted(
        giver=giver, receiver=receiver, offered=offered,
        returned=returned, offered_named=named(state, offered, offered_silent, mirror),
        returned_named=named(state, returned, returned_silent, mirror), diplomat=diplomat)


def _act(state: State, seat: int, c, chance) -> list:
    frame = state.top
    assert frame is not None  # the rules let a seat act only in a frame (a turn at least)
    k = frame["kind"]
    me = seat
    if k == "turn":
        if isinstance(c, cmd.Pass):
            return [ev.TurnPassed(player=me)]
        if isinstance(c, cmd.Trade):
            return [ev.TradeOffered(giver=me, receiver=state.seat(c.to), item=c.item,
                                    silent=c.silent)]
        if isinstance(c, cmd.Attack):
            return [ev.AttackDeclared(attacker=me, defender=state.seat(c.defender))]
        if isinstance(c, cmd.Declare):
            return declare(state, seat, c, chance)
        if isinstance(c, cmd.Clairvoyant):
            return [ev.ClairvoyantUsed(player=me, pile=list(state.pile))]
        if isinstance(c, cmd.Diplomat):
            target = state.seat(c.target)
            holds = any(matches(state, x, c.kind) for x in state.hands[target])
            out: list = [ev.DiplomatUsed(player=me, target=target, kind=c.kind, holds=holds)]
            if not holds:
                out.append(ev.ItemsSeen(viewer=me, owner=target, items=list(state.hands[target]),
                                        reason="diplomat"))
            return out
    if k == "offer":
        giver = frame["giver"]
        if isinstance(c, cmd.Refuse):
            return [ev.TradeRefused(giver=giver, receiver=me, item=frame["item"])]
        return [completed(state, frame["giver"], seat, frame["item"], c.item,
                          bool(frame["silent"]), c.silent)]
    if k == "limit":
        return [ev.ItemGiven(giver=me, receiver=state.seat(c.to), item=c.item, reason="hand-limit")]
    if k == "effect":
        return _effect(state, seat, frame, c.option)
    if k == "sextant":
        return [ev.SextantItemChosen(player=me, item=c.item)]
    if k == "clairvoyant":
        rest = [x for x in state.pile if x not in c.top]
        if chance is not None:
            rest = chance.shuffled(rest, "clairvoyant", state.turn, len(state.pile))
        elif state.r2:
            # CASTLE-7.1: the referee shuffles the real pile; the engine knows the rest only as
            # a set (kept in the box's order), so each later draw from it is reported
            rest = [x for x in ALL_ITEMS if x in rest]
            return [ev.PileArranged(player=me, pile=list(c.top) + rest, known=len(c.top))]
        return [ev.PileArranged(player=me, pile=list(c.top) + rest)]
    if k == "draw":  # a card reported drawn from a pile known only as a set (CASTLE-7.1)
        reporter = c.reporter
        if reporter is not None:
            reporter = check_reporter(reporter, True, "CASTLE-7.1", "")
        return [ev.ItemDrawn(player=me, item=c.item, reason=frame["reason"], reporter=reporter)]
    if k == "diplomat":
        if frame["stage"] == "hand":
            return [ev.DiplomatItemChosen(player=me, diplomat=frame["diplomat"],
                                          item=c.item, silent=c.silent)]
        return [completed(state, frame["target"], seat, frame["item"], c.item,
                          bool(frame["silent"]), c.silent, diplomat=True)]
    if k == "fight":
        return _fight(state, seat, frame, c)
    raise AssertionError(f"no handler for {k}")  # pragma: no cover


def _effect(state: State, seat: int, frame: dict, option: str) -> list:
    me = seat
    effect = frame["effect"]
    partner = frame["partner"]
    pname = partner
    if option == "skip":
        return [ev.EffectDeclined(player=me, effect=effect)]
    if effect == "bag":
        if state.r2 and state.pile_known == 0:  # CASTLE-7.1: the referee reports the card drawn
            return [ev.DrawAwaited(player=me, reason="bag")]
        return [ev.ItemDrawn(player=me, item=state.pile[0], reason="bag")]
    if effect == "privilege":
        return [ev.ItemsSeen(viewer=me, owner=pname, items=list(state.hands[partner]),
                             reason="privilege")]
    if effect == "monocle":
        return [society_seen(state, me, partner, option, "monocle")]
    if effect == "tome":
        return [ev.ProfessionsSwapped(first=me, second=pname, first_now=state.professions[partner],
                                      second_now=state.professions[seat])]
    if effect == "coat":
        return [ev.ProfessionExchanged(player=me, taken=option, returned=state.professions[seat])]
    if effect == "sextant":
        return [ev.SextantTurned(player=me, direction=option)]
    raise AssertionError(effect)  # pragma: no cover


def _fight(state: State, seat: int, f: dict, c) -> list:
    me = seat
    stage = f["stage"]
    if isinstance(c, cmd.Pass):
        return [ev.WindowPassed(player=me, window=stage)]
    if isinstance(c, cmd.Support):
        return [ev.SupportDeclared(player=me, side=c.side)]
    if isinstance(c, cmd.Use):
        target = None
        if c.power == "poison-mixer":
            assert c.target is not None  # checked by the rules: it names the winner (CASTLE-6.5)
            target = state.seat(c.target)
        if c.power == "hypnotist":
            target = f["last_supporter"]
        return [ev.PowerUsed(player=me, power=c.power, target=target)]
    if isinstance(c, cmd.Give):  # paying the priest (CASTLE-6.2)
        return [ev.ItemGiven(giver=me, receiver=state.seat(c.to), item=c.item, reason="priest")]
    loser = f["defender"] if seat == f["attacker"] else f["attacker"]
    lname = loser
    if isinstance(c, cmd.Choose):
        look = c.option.startswith("look")
        out: list = [ev.FightChoiceMade(player=me, loser=lname, choice=c.option)]
        if look:
            out += [society_seen(state, me, loser, c.option, "fight"),
                    ev.ProfessionSeen(viewer=me, owner=lname, profession=state.professions[loser],
                                      reason="fight")]
        else:
            out.append(ev.ItemsSeen(viewer=me, owner=lname, items=list(state.hands[loser]),
                                    reason="fight"))
        return out
    if isinstance(c, cmd.Take):
        if c.item is None:  # CASTLE-6.8b (r2): the winner takes nothing
            return [ev.ItemTaken(winner=me, loser=lname, item=None, given_back=None, took=False)]
        return [ev.ItemTaken(winner=me, loser=lname, item=c.item, given_back=c.give_back)]
    raise AssertionError(c)  # pragma: no cover


def society_seen(state: State, viewer: int, owner: int, option: str, reason: str) -> ev.SocietySeen:
    """A look at ``owner``'s society card (CASTLE-5.3, 6.8a); in advanced-3p the viewer chose
    one of the three cards (``look-1``..``look-3``, CASTLE-10.4) and sees that card."""
    if state.society_cards is not None and option.startswith("look-"):
        k = int(option[5:]) - 1
        return ev.SocietySeen(viewer=viewer, owner=owner, society=state.society_cards[owner][k],
                              reason=reason, card=k)
    return ev.SocietySeen(viewer=viewer, owner=owner, society=state.societies[owner], reason=reason)


def advance(state: State, events: list, chance) -> list:
    """The events that follow by themselves after ``events`` (see the module docstring)."""
    scratch = copy.deepcopy(state)
    for e in events:
        evolve(scratch, e)
    out: list = []
    for _ in range(1000):
        nxt = _next_automatic(scratch)
        if nxt is None:
            return out
        evolve(scratch, nxt)
        out.append(nxt)
    raise AssertionError("advance did not settle")  # pragma: no cover


def _next_automatic(s: State):
    if s.over or not s.dealt:
        return None
    if not s.bags_turned and not s.pile:
        return ev.BagsTurned()
    top = s.top
    if top is None:
        return None
    if top["kind"] != "limit":
        start = s.active if s.active is not None else 0
        for seat in s.clockwise_from(start):
            if s.count(seat) > s.limit:
                return ev.HandLimitExceeded(player=seat, excess=s.count(seat) - s.limit)
    if top["kind"] == "fight":
        if top["stage"] == "count":
            r = count_fight(top, s.house.get("duelist_bonus", True))
            winner = None
            if r["winner"] is not None:
                winner = top[r["winner"]]
            parts = None
            if s.r2:  # CASTLE-6.6: the count with its parts (say why)
                parts = [ev.CountPart(side=a, source=b, player=c, value=d, void=v)
                         for a, b, c, d, v in r["parts"]]
            return ev.FightCounted(attacker_total=r["attacker"], defender_total=r["defender"],
                                   winner=winner, by_poison_mixer=r["mixer"],
                                   by_poison_ring=r["ring"], parts=parts)
        if top["stage"] == "tie":
            if s.r2 and s.pile and s.pile_known == 0:  # CASTLE-6.6, 7.1: the referee reports it
                return ev.DrawAwaited(player=top["attacker"], reason="tie")
            item = s.pile[0] if s.pile else None
            return ev.FightTied(attacker=top["attacker"], drew=bool(s.pile), item=item)
    if top["kind"] == "effect" and top["effect"] == "coat" and not top["shown"]:
        return ev.ProfessionPileSeen(player=top["owner"], pile=list(s.prof_pile))
    if top["kind"] == "sextant" and all(top["done"]):
        return ev.SextantPassed(direction=top["direction"], items=list(top["items"]))
    if top["kind"] == "turn" and top["done"]:
        nxt = s.left(top["seat"])
        return ev.TurnStarted(player=nxt, turn=s.turn + 1)
    return None


# --- declaring victory (CASTLE-9, 10.2, 10.3) -------------------------------------------------

def _relics(state: State, seat: int, relic: str) -> int:
    return sum(1 for x in state.hands[seat] if relic_of(x, state.bags_turned) == relic)


def smaller(state: State, society: str) -> bool:
    """CASTLE-9.4: whether ``society`` really is the smaller one (judged on the cards: with an
    odd count the society of the set-aside card; in advanced-3p the one with fewer members)."""
    own = state.societies.count(society)
    return own < state.n - own


def drink_counts(state: State, seat: int) -> bool:
    """CASTLE-9.4: the declarer's own drink counts if its society is the smaller one."""
    return bool(state.drinks[seat]) and smaller(state, state.societies[seat])


def declare(state: State, seat: int, c, chance) -> list:
    """The declaration and the end of the game (CASTLE-9.2, 9.4, 9.5, 10.2, 10.3); under the
    r2 rules a wrong claim carries its ``faults`` (what made it wrong)."""
    P = state.players
    me = P[seat]
    allies = [state.seat(a) for a in c.allies]
    own = state.societies[seat]
    other = other_society(own)
    points = {p: 0 for p in state.players}
    solo = None
    faults: list = []
    if c.kind == "society":
        relic = RELIC[own]
        held = _relics(state, seat, relic)
        mine = held + (1 if drink_counts(state, seat) else 0)
        total = mine + sum(_relics(state, a, relic) for a in allies)
        right = (all(state.societies[a] == own for a in allies)
                 and all(_relics(state, a, relic) >= 1 for a in allies) and total >= 3)
        for a in allies:
            if state.societies[a] != own:
                faults.append(ev.Fault(fault="enemy-ally", player=a,
                                       text=f"{P[a]} belongs to the {state.societies[a]}, "
                                            f"not the {own} (CASTLE-9.2)"))
            elif _relics(state, a, relic) < 1:
                faults.append(ev.Fault(fault="ally-without-relic", player=a,
                                       text=f"{P[a]} holds no {relic} (CASTLE-9.2)"))
        if total < 3:
            faults.append(ev.Fault(fault="relics-missing", player=None,
                                   text=f"{me} and the allies named hold {total} {relic}(s) "
                                        f"counting, {3 - total} short of three (CASTLE-9.2)"))
        if state.drinks[seat] and not drink_counts(state, seat) and total < 3:
            faults.append(ev.Fault(fault="drink-not-counted", player=seat,
                                   text=f"{me}'s Drink of Power does not count: the {own} is not "
                                        f"the smaller society (CASTLE-9.4)"))
        winning = own if right else other
        if right:
            for s in range(state.n):
                if state.societies[s] == own:
                    points[state.players[s]] = 2 if _relics(state, s, relic) else 1
            points[me] = 5 if mine >= 3 else 3
    elif c.kind == "prophecy":
        relic = RELIC[other]
        holders = {s for s in range(state.n)
                   if state.societies[s] == other and _relics(state, s, relic)}
        total = sum(_relics(state, a, relic) for a in allies if state.societies[a] == other)
        right = (set(allies) == holders and all(state.societies[a] == other for a in allies)
                 and sum(_relics(state, a, relic) for a in allies) >= 3)
        for a in allies:
            if a not in holders:
                faults.append(ev.Fault(fault="not-a-holder", player=a,
                                       text=f"{P[a]} is not an opponent holding a {relic} "
                                            "(CASTLE-10.2)"))
        for h in sorted(holders - set(allies)):
            faults.append(ev.Fault(fault="holder-not-named", player=h,
                                   text=f"{P[h]} also holds a {relic} and was not named "
                                        "(CASTLE-10.2)"))
        if total < 3:
            faults.append(ev.Fault(fault="relics-missing", player=None,
                                   text=f"the opponents named hold {total} {relic}(s), "
                                        f"{3 - total} short of three (CASTLE-10.2)"))
        winning = own if right else other
        if right:
            for s in range(state.n):
                if state.societies[s] == own:
                    points[state.players[s]] = 2 if _relics(state, s, RELIC[own]) else 1
            points[me] = 3
    else:  # coat-of-arms, CASTLE-9.5
        relics = sum(1 for x in state.hands[seat] if relic_of(x, state.bags_turned))
        right = relics >= 3
        if not right:
            faults.append(ev.Fault(fault="relics-missing", player=seat,
                                   text=f"{me} holds {relics} relic(s), {3 - relics} short of "
                                        f"three (CASTLE-9.5)"))
        winning = None if right else other
        if right:
            solo = [seat]
            points[me] = 4
    if not right:
        for s in range(state.n):
            if state.societies[s] == winning:
                points[state.players[s]] = 2
    winners = solo or [s for s in range(state.n) if state.societies[s] == winning]
    revealed = [ev.Revealed(player=s, society=state.societies[s],
                            profession=state.professions[s], items=list(state.hands[s]),
                            drink=bool(state.drinks[s]),
                            society_cards=None if state.society_cards is None
                            else list(state.society_cards[s]))
                for s in [seat] + allies]
    reveal = None if chance is None else ev.Reveal(**chance.reveal())
    return [
        ev.Declared(player=seat, kind=c.kind, allies=allies, revealed=revealed, right=right,
                    winning_society=winning, faults=faults if state.r2 and not right else []),
        ev.GameEnded(winners=winners, points=points if "scoring" in state.variants else None,
                     reveal=reveal),
    ]
