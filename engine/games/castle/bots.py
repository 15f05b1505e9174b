"""Bots for Castle of the Devil (``engine.bots`` registry: ``BOTS = {name: class(rng=...)}``).

A bot answers ``choose(state, seat, legal) -> command``: ``state`` is the fold of the seat's own
redacted stream (its own cards, public facts and what it was shown, CASTLE-11), ``legal`` the
seat's legal commands there.  A bot never sees another seat's hidden card.  In a seat's fold an
item id in another seat's hand is a card that seat *certainly* holds (``evolve.take_card``), and
a society there is one the bot has looked at (or a declaration revealed).

* ``random``: picks a command *type* uniformly among the legal types, then a command of that
  type uniformly; so it does not declare (usually wrongly) as soon as it holds a relic.
* ``sensible``: declares as soon as it can prove the claim from what it knows (CASTLE-9.2,
  9.4, 9.5: its own relics, a drink only when its society is provably the smaller one, allies
  whose society it has seen and who certainly hold a relic); uses the Clairvoyant and the
  Diplomat (CASTLE-7); trades effect cards (monocle to a player of unknown society, privilege
  to a known ally, bags and others to anyone) and takes every effect; accepts offers, giving
  back its least useful item (never its own relic to a known enemy); supports the side of a
  known ally, shows items and professions when its side is not clearly ahead; uses the priest
  and the doctor for its allies; hypnotises a defender's supporter; as the winner looks at an
  unknown society or takes the best item; attacks a known enemy holding its relic, or a player
  of unknown society now and then; otherwise passes.

:func:`self_play` plays a whole game in memory (no store) with a bot per seat, for tests and
measurements; ``engine.bots.play_out`` does the same through a ``GameService``.
"""

from __future__ import annotations

import random
from typing import Any

from . import commands as cmd
from .cards import BAG_RELIC, BAGS, FIGHT_ITEMS, ONCE_ONLY, RELIC, TRADE_EFFECTS, relic_of
from .state import State, count_fight, role

# -- the random bot ----------------------------------------------------------------------------


class RandomBot:
    """A command type uniformly, then a command of that type uniformly (``rng``)."""

    kind = "random"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.Random()

    def choose(self, state: State, seat: int, legal: list):
        if not legal:
            return None
        by_type: dict[str, list] = {}
        for c in legal:
            by_type.setdefault(type(c).TYPE, []).append(c)
        kind = self.rng.choice(sorted(by_type))
        return self.rng.choice(by_type[kind])


# -- what a seat knows -------------------------------------------------------------------------


def other_relic(relic: str) -> str:
    """The other society's relic (CASTLE-1.1): key <-> goblet."""
    return "goblet" if relic == "key" else "key"


def known_relics(state: State, seat: int, relic: str) -> int:
    """How many items of ``seat`` certainly count as ``relic`` now (from the folding seat's
    view)."""
    return sum(1 for c in state.hands[seat]
               if c is not None and relic_of(c, state.bags_turned) == relic)


def smaller_society_known(state: State, me: int) -> str | None:
    """The smaller society (odd player counts, CASTLE-2.2), if the seat can deduce it: a society
    of which (n+1)/2 members are known is complete, so the other one is smaller."""
    n = state.n
    if n % 2 == 0:
        return None
    if state.set_aside is not None and state.society_cards is None:  # the referee's fold
        return state.set_aside  # (advanced-3p: the set-aside card says nothing, CASTLE-10.4)
    for society in ("order", "brotherhood"):
        if sum(1 for s in state.societies if s == society) == (n + 1) // 2:
            return "brotherhood" if society == "order" else "order"
    return None


def provable_declaration(state: State, me: int) -> cmd.Declare | None:
    """A declaration ``me`` can prove right from its own knowledge, or None (CASTLE-9)."""
    hand = state.hands[me]
    name = state.players[me]
    if "black-pearl" in hand:
        return None
    turned = state.bags_turned
    if "coat-of-arms" in hand and sum(1 for c in hand if relic_of(c, turned)) >= 3:
        return cmd.Declare(player=name, kind="coat-of-arms", allies=[])
    own = state.societies[me]
    relic = RELIC[own]
    mine = known_relics(state, me, relic)
    if mine == 0:
        return None
    total = mine + (1 if state.drinks[me] and smaller_society_known(state, me) == own else 0)
    allies = sorted((s for s in range(state.n) if s != me and state.societies[s] == own
                     and known_relics(state, s, relic) > 0),
                    key=lambda s: -known_relics(state, s, relic))
    named: list[int] = []
    for s in allies:
        if total >= 3:
            break
        named.append(s)
        total += known_relics(state, s, relic)
    if total < 3:
        return None
    return cmd.Declare(player=name, kind="society",
                       allies=[state.players[s] for s in sorted(named)])


# -- the sensible bot --------------------------------------------------------------------------

PROFESSION_WISH = ("priest", "doctor", "poison-mixer", "bodyguard", "duelist", "thug",
                   "grand-master", "hypnotist", "diplomat", "clairvoyant")


class SensibleBot:
    """Plays for its society from what it knows (see the module docstring).

    ``attack_rate``: the chance per turn of attacking a player of unknown society to look at
    their cards; ``stir_rate``: the chance of trading away a useless item when nothing better
    is to be done (so the cards keep moving)."""

    kind = "sensible"

    def __init__(self, rng: random.Random | None = None, attack_rate: float = 0.25,
                 stir_rate: float = 0.5):
        self.rng = rng or random.Random()
        self.attack_rate = attack_rate
        self.stir_rate = stir_rate

    # -- valuation ---------------------------------------------------------------------------
    def value(self, state: State, me: int, card: str | None, to: int | None = None) -> float:
        """How much ``me`` wants to keep ``card`` (giving it to ``to``, when known)."""
        if card is None:
            return 0.0
        own = RELIC[state.societies[me]]
        relic = relic_of(card, state.bags_turned)
        ally = to is not None and state.societies[to] == state.societies[me]
        if relic == own:
            return 4.0 if ally else 10.0
        if relic is not None:
            return 5.0 if not ally else 3.0
        if card in BAGS:
            return 6.0 if BAG_RELIC[card] == own else 3.0
        if card == "coat-of-arms":
            return 4.0
        if card == "black-pearl":
            return -5.0
        if card in FIGHT_ITEMS:
            return 2.0
        if card == "broken-mirror":
            return 0.5
        return 1.0  # effect cards: better traded away (their effect is the giver's)

    def _cheapest(self, state, me, options, item=lambda c: c.item, to=None):
        return min(options, key=lambda c: (self.value(state, me, item(c), to), self.rng.random()))

    # -- entry point ---------------------------------------------------------------------------
    def choose(self, state: State, seat: int, legal: list):
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        frame = state.top
        assert frame is not None  # legal commands come from a frame (a turn at least)
        handler = getattr(self, "_" + frame["kind"], None)
        choice = handler(state, seat, frame, legal) if handler else None
        if choice is None or choice not in legal:
            choice = self._fallback(legal)
        return choice

    def _fallback(self, legal):
        passes = [c for c in legal if isinstance(c, cmd.Pass)]
        if passes:
            return passes[0]
        supports = [c for c in legal if isinstance(c, cmd.Support) and c.side == "neutral"]
        if supports:
            return supports[0]
        return self.rng.choice(legal)

    # -- one's own turn ------------------------------------------------------------------------
    def _turn(self, state: State, me: int, frame, legal):
        name = state.players[me]
        win = provable_declaration(state, me)
        if win is not None and win in legal:
            return win
        types = {type(c) for c in legal}
        own = RELIC[state.societies[me]]
        others = [s for s in range(state.n) if s != me]
        allies = [s for s in others if state.societies[s] == state.societies[me]]
        enemies = [s for s in others if state.societies[s] not in (None, state.societies[me])]
        unknown = [s for s in others if state.societies[s] is None]
        if cmd.Clairvoyant in types and len(state.pile) >= 2:
            return cmd.Clairvoyant(player=name)
        if cmd.Diplomat in types:
            holders = [s for s in enemies + unknown if known_relics(state, s, own)]
            target = holders[0] if holders else (self.rng.choice(enemies + unknown)
                                                 if enemies + unknown and self.rng.random() < 0.5
                                                 else None)
            if target is not None:
                c: object = cmd.Diplomat(player=name, target=state.players[target], kind=own)
                if c in legal:
                    return c
        trades = [c for c in legal if isinstance(c, cmd.Trade) and not c.silent]
        # effect cards first (CASTLE-4.5): their effect is ours
        hand = [c for c in state.hands[me] if c is not None]
        effects = [c for c in hand if c in TRADE_EFFECTS and not (c in BAGS and state.bags_turned)]
        self.rng.shuffle(effects)
        for card in effects:
            if card == "monocle":
                targets = unknown or others
            elif card == "privilege":
                targets = [s for s in allies if state.hands[s].count(None)] or unknown or others
            elif card in BAGS:
                targets = (allies if BAG_RELIC[card] == own else enemies + unknown) or others
            else:
                targets = others
            to = self.rng.choice(targets)
            c = cmd.Trade(player=name, to=state.players[to], item=card)
            if c in trades:
                return c
        # attack a known enemy who certainly holds our relic, to take it (CASTLE-6.8b)
        robbed = [s for s in enemies if known_relics(state, s, own)]
        if robbed:
            c = cmd.Attack(player=name, defender=state.players[self.rng.choice(robbed)])
            if c in legal:
                return c
        # hand our relic to a known ally who certainly holds one already (fewer players to name)
        keepers = [s for s in allies if known_relics(state, s, own)]
        mine = [c for c in hand if relic_of(c, state.bags_turned) == own]
        if keepers and mine and known_relics(state, me, own) < max(known_relics(state, s, own)
                                                                  for s in keepers):
            c = cmd.Trade(player=name, to=state.players[keepers[0]], item=mine[0])
            if c in trades:
                return c
        if unknown and self.rng.random() < self.attack_rate:
            c = cmd.Attack(player=name, defender=state.players[self.rng.choice(unknown)])
            if c in legal:
                return c
        if trades and self.rng.random() < self.stir_rate:
            junk = [c for c in trades if self.value(state, me, c.item, state.seat(c.to)) <= 2.0
                    and state.seat(c.to) not in enemies]
            if junk:
                return self.rng.choice(junk)
        return cmd.Pass(player=name)

    # -- answering a trade ---------------------------------------------------------------------
    def _offer(self, state: State, me: int, frame, legal):
        accepts = [c for c in legal if isinstance(c, cmd.Accept) and not c.silent]
        if not accepts:
            return None
        giver = frame["giver"]
        back = self._cheapest(state, me, accepts, to=giver)
        gain = self.value(state, me, frame["item"])
        cost = self.value(state, me, back.item, giver)
        refuse = cmd.Refuse(player=state.players[me])
        if refuse in legal and cost >= 5.0 and gain < cost:
            return refuse
        return back

    def _limit(self, state: State, me: int, frame, legal):
        gives = [c for c in legal if isinstance(c, cmd.Give)]
        # never to someone who would be over the limit in turn (no endless passing around)
        roomy = [c for c in gives if state.count(state.seat(c.to)) < state.limit]
        gives = roomy or gives
        own_soc = state.societies[me]
        best = None
        for c in gives:
            to = state.seat(c.to)
            ally = state.societies[to] == own_soc
            score = self.value(state, me, c.item, to)
            if c.item == "black-pearl":
                score += -3.0 if not ally else 3.0
            elif ally:
                score -= 0.5  # other items: rather to an ally
            key = (score, self.rng.random())
            if best is None or key < best[0]:
                best = (key, c)
        return best[1] if best else None

    def _effect(self, state: State, me: int, frame, legal):
        name = state.players[me]
        e = frame["effect"]
        used = state.prof_used[me] and state.professions[me] in ONCE_ONLY
        if e == "bag":
            return cmd.Choose(player=name, option="draw")
        if e == "monocle" and state.society_cards is not None:  # advanced-3p (CASTLE-10.4)
            return cmd.Choose(player=name, option=self.rng.choice(["look-1", "look-2", "look-3"]))
        if e in ("privilege", "monocle"):
            return cmd.Choose(player=name, option="look")
        if e == "tome":
            return cmd.Choose(player=name, option="swap" if used else "skip")
        if e == "coat":
            if used:
                for wish in PROFESSION_WISH:
                    c = cmd.Choose(player=name, option=wish)
                    if c in legal:
                        return c
            return cmd.Choose(player=name, option="skip")
        if e == "sextant":
            return cmd.Choose(player=name, option=self.rng.choice(["left", "right", "skip"]))
        return None

    def _sextant(self, state: State, me: int, frame, legal):
        gives = [c for c in legal if isinstance(c, cmd.Give)]
        return self._cheapest(state, me, gives) if gives else None

    def _clairvoyant(self, state: State, me: int, frame, legal):
        arranges = [c for c in legal if isinstance(c, cmd.Arrange)]
        return max(arranges, key=lambda c: (sum(self.value(state, me, x) for x in c.top),
                                            self.value(state, me, c.top[0]), self.rng.random()))

    def _diplomat(self, state: State, me: int, frame, legal):
        gives = [c for c in legal if isinstance(c, cmd.Give) and not c.silent]
        return self._cheapest(state, me, gives, to=state.seat(gives[0].to)) if gives else None

    # -- fights (CASTLE-6) ---------------------------------------------------------------------
    def interest(self, state: State, me: int, f: dict) -> str | None:
        """The side ``me`` wants to win: its own role, or the side of a known ally against a
        known enemy or a stranger; None when it cannot tell."""
        a, d = f["attacker"], f["defender"]
        if me == a:
            return "attacker"
        if me == d:
            return "defender"
        mine = state.societies[me]
        sa, sd = state.societies[a], state.societies[d]
        if sa == mine and sd != mine:
            return "attacker"
        if sd == mine and sa != mine:
            return "defender"
        if sa is not None and sa != mine and sd is None:
            return "defender"
        if sd is not None and sd != mine and sa is None:
            return "attacker"
        return None

    def _fight(self, state: State, me: int, f: dict, legal):
        name = state.players[me]
        stage = f["stage"]
        side = self.interest(state, me, f)
        if stage == "priest":
            if side == "defender" and f["attacker"] != me:
                return cmd.Use(player=name, power="priest")
            return cmd.Pass(player=name)
        if stage == "support":
            return cmd.Support(player=name, side=side or "neutral")
        if stage == "hypnotist":
            supporter = f["last_supporter"]
            if supporter is not None and f["sides"][supporter] == "defender":
                return cmd.Use(player=name, power="hypnotist")
            return cmd.Pass(player=name)
        if stage == "abilities":
            return self._ability(state, me, f, legal, side)
        if stage == "doctor":
            winner = f["result"]["winner"] if f["result"] else None
            if side is not None and winner is not None and winner != side:
                return cmd.Use(player=name, power="doctor")
            return cmd.Pass(player=name)
        if stage == "priest-payment":
            gives = [c for c in legal if isinstance(c, cmd.Give)]
            return self._cheapest(state, me, gives, to=f["priest"])
        if stage == "choice":
            loser = f["defender"] if me == f["attacker"] else f["attacker"]
            look = state.societies[loser] is None
            if look and state.society_cards is not None:  # advanced-3p: one card of three
                return cmd.Choose(player=name,
                                  option=self.rng.choice(["look-1", "look-2", "look-3"]))
            return cmd.Choose(player=name, option="look" if look else "take")
        if stage == "take":
            takes = [c for c in legal if isinstance(c, cmd.Take) and c.item is not None] or [
                c for c in legal if isinstance(c, cmd.Take)]
            loser = f["defender"] if me == f["attacker"] else f["attacker"]
            return max(takes, key=lambda c: (self.value(state, me, c.item),
                                             -self.value(state, me, c.give_back, loser),
                                             self.rng.random()))
        return None

    def _ability(self, state: State, me: int, f: dict, legal, side):
        name = state.players[me]
        if side is None:
            return cmd.Pass(player=name)
        count = count_fight(f)
        other = "defender" if side == "attacker" else "attacker"
        lead = count[side] - count[other]
        if count["winner"] == side and lead >= 2:
            return cmd.Pass(player=name)
        uses = [c for c in legal if isinstance(c, cmd.Use)]
        mixer = [c for c in uses if c.power == "poison-mixer"
                 and c.target == state.players[f[side]]]
        if mixer and count["winner"] != side:
            return mixer[0]
        r = role(f, me)
        helpful = []
        for c in uses:
            if c.power == "poison-mixer":
                continue
            if c.power == "duelist":
                # the duel voids all supporters: worth it when the other side has more
                supporters = {s: sum(1 for t in range(state.n) if role(f, t) == s + "-supporter")
                              for s in ("attacker", "defender")}
                if supporters[other] <= supporters[side]:
                    continue
            if c.power == "poison-ring" and count["winner"] == side:
                continue
            if r == "neutral":
                continue
            helpful.append(c)
        if helpful:
            return self.rng.choice(helpful)
        return cmd.Pass(player=name)


BOTS = {"random": RandomBot, "sensible": SensibleBot}


# -- playing in memory -------------------------------------------------------------------------


def self_play(options: dict, bots: dict[int, Any], chance, *, max_rounds: int = 60,
              max_commands: int = 20_000, on_event=None, on_command=None) -> dict:
    """Play a game from ``options`` with ``bots`` (seat -> bot) without a store.

    Each bot sees only its seat's redacted fold (kept incrementally, as ``engine.bots.Table``).
    Stops when the game ends, reaches round ``max_rounds + 1`` or after ``max_commands``.
    ``on_event(event, state, seat_states)`` is called after every event (the referee's state
    and every seat's fold); ``on_command(command, batch, state, seat_states)`` after every
    command's events.
    Returns ``{"over", "capped", "events", "state", "declared", "commands"}``.
    """
    from . import RULES

    events = RULES.setup(dict(options), chance)
    n = len(options["players"])
    state = RULES.initial()
    seats = [RULES.initial() for _ in range(n)]

    def apply(batch):
        nonlocal state
        for e in batch:
            state = RULES.evolve(state, e)
            for s in range(n):
                shown = RULES.redact(e, s)
                if shown is not None:
                    seats[s] = RULES.evolve(seats[s], shown)
            if on_event is not None:
                on_event(e, state, seats)

    apply(events)
    commands = 0
    while not state.over and state.round <= max_rounds and commands < max_commands:
        acted = False
        for seat in range(n):
            legal = RULES.legal_commands(seats[seat], seat)
            if not legal:
                continue
            command = bots[seat].choose(seats[seat], seat, legal)
            batch = RULES.decide(state, command, chance)
            events += batch
            apply(batch)
            if on_command is not None:
                on_command(command, batch, state, seats)
            commands += 1
            acted = True
            if state.over:
                break
        if not acted:
            raise RuntimeError("nobody can act, but the game is not over")
    return {"over": bool(state.over), "capped": not state.over, "events": events,
            "state": state, "commands": commands,
            "declared": state.declaration is not None}
