"""Properties every game must have, written once and run for each registered kind.

Random games are played by the kind's own bots through :class:`GameService` on a file store
(as the CLI and the HTTP app use it).  After every command:

* (c) for every seat, every command of ``GameService.legal(game, seat)`` (the kind's
  ``legal_commands`` on the seat's own fold) is accepted by ``decide`` on the referee's state,
  and ``decide`` changes nothing;
* (b) for every seat and the public viewer, ``GameService.stream(game, seat)`` is the log passed
  through ``rules.redact``, and ``GameService.view(game, seat)`` is ``rules.view`` of the fold of
  that stream (plus the ``game`` and ``version`` keys the service adds);

and when the game has stopped:

* (a) the fold of every prefix of the log that ends at a command equals the service's state
  right after that command, and a fresh service reading the store folds to the final state.

Default sizes are small; the slow variant plays more and longer games, and DEVIL_TEST_SCALE
multiplies both.
"""

from __future__ import annotations

import copy
import random

import pytest

from engine.bots import bot_names, make_bot
from engine.chance import SeededChance
from engine.errors import UsageError
from engine.game import PUBLIC, REFEREE
from engine.service import GameService
from engine.store import FileStore

from ..registry import kinds, rules_for
from ..scale import examples


def new_service(root) -> GameService:
    return GameService(FileStore(str(root)))


def player_counts(kind: str) -> list[int]:
    """The numbers of players ``kind`` accepts, asked of its own ``setup``."""
    rules = rules_for(kind)
    counts = []
    for n in range(1, 13):
        try:
            rules.setup({"players": [f"P{i}" for i in range(n)]}, SeededChance(1, "00"))
        except UsageError:
            continue
        counts.append(n)
    return counts


def bare_view(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in ("game", "version")}


class Checked:
    """One game in a service, with every viewer's fold of its own stream kept alongside."""

    def __init__(self, service: GameService, kind: str, players: int, seed: int):
        self.service, self.rules = service, rules_for(kind)
        self.names = [f"P{i}" for i in range(players)]
        self.game = service.create(kind, {"players": self.names}, seed=seed).game
        self.viewers = list(range(players)) + [PUBLIC]
        self.folds = {v: self.rules.initial() for v in self.viewers}
        self.seen = 0  # the version every fold has reached
        # legality does not depend on the draws: any chance will do for trying commands
        self.chance = SeededChance(seed, "00")
        self.snapshots = {}
        self.tried = 0
        self.snapshot()

    def version(self) -> int:
        return self.service.load(self.game).version

    def snapshot(self) -> None:
        self.snapshots[self.version()] = copy.deepcopy(self.service.state(self.game))

    def follow(self) -> None:
        """(b), first half: each viewer's new stream entries are the log's new events passed
        through ``redact``; every viewer's fold takes them in."""
        rules, service, game = self.rules, self.service, self.game
        logged = [e for _, e in service.stream(game, REFEREE, after=self.seen)]
        version = self.version()
        assert len(logged) == version - self.seen
        for viewer in self.viewers:
            redacted = [rules.redact(e, viewer) for e in logged]
            shown = [e for _, e in service.stream(game, viewer, after=self.seen)]
            assert shown == [e for e in redacted if e is not None], viewer
            self.folds[viewer] = rules.fold(shown, self.folds[viewer])
        self.seen = version

    def check_views(self) -> None:
        """(b), second half: the service's view of each viewer is the view of its fold."""
        for viewer in self.viewers:
            view = self.service.view(self.game, viewer)
            assert view["game"] == self.game and view["version"] == self.seen
            assert bare_view(view) == self.rules.view(self.folds[viewer], viewer), viewer

    def legal(self) -> dict[int, list]:
        """Every seat's legal commands, from its own fold."""
        return {seat: self.rules.legal_commands(self.folds[seat], seat)
                for seat in range(len(self.names))}

    def check_legal_commands(self) -> None:
        """(c): the service offers each seat the legal commands of its fold, and ``decide``
        accepts every one of them on the referee's state without changing it."""
        rules = self.rules
        state = self.service.state(self.game)
        before = copy.deepcopy(state)
        chance = None if rules.physical(state) else self.chance
        for seat, commands in self.legal().items():
            assert self.service.legal(self.game, seat) == commands, seat
            for command in commands:
                assert rules.decide(state, command, chance), command  # raises if refused
                self.tried += 1
        assert state == before, "decide changed the state"

    def check_prefix_folds(self) -> None:
        """(a): fold the whole log once, comparing at every command boundary."""
        rules = self.rules
        events = [e for _, e in self.service.stream(self.game)]
        assert len(events) == max(self.snapshots)
        state = rules.initial()
        for count, event in enumerate(events, 1):
            state = rules.evolve(state, event)
            if count in self.snapshots:
                assert state == self.snapshots[count], count
        assert len(self.snapshots) >= 2

    def over(self) -> bool:
        return bool(self.rules.is_over(self.service.state(self.game)))


def play_checked(root, kind: str, seed: int, max_commands: int, every: int = 1) -> Checked:
    """A random bot game of ``kind``; (b) and (c) are checked after every ``every`` commands
    and at the end, (a) at every command."""
    rng = random.Random(seed)
    counts = player_counts(kind)
    assert counts, f"{kind} accepts no number of players"
    players = rng.choice(counts)
    names = bot_names(kind)
    bots = {seat: make_bot(kind, rng.choice(names), random.Random(rng.random()))
            for seat in range(players)}
    g = Checked(new_service(root), kind, players, seed)
    commands = 0
    while True:
        g.follow()
        if commands % every == 0 or g.over() or commands == max_commands:
            g.check_views()
            g.check_legal_commands()
        if g.over() or commands == max_commands:
            break
        legal = g.legal()
        waiting = [seat for seat in legal if legal[seat]]
        assert waiting, "the game is not over but nobody may act"
        seat = rng.choice(waiting)
        command = bots[seat].choose(g.folds[seat], seat, legal[seat])
        assert command in legal[seat]
        result = g.service.submit(g.game, command, actor=seat)
        assert result.events and not result.repeated
        commands += 1
        g.snapshot()
    if g.over():
        assert not any(g.legal().values()), "a seat may act in a finished game"
    g.check_prefix_folds()
    assert len(g.snapshots) == commands + 1
    # a fresh service, reading the files from disk, folds to the same state
    assert new_service(root).state(g.game) == g.snapshots[max(g.snapshots)]
    assert g.tried > 0
    return g


@pytest.mark.parametrize("kind", kinds())
def test_player_counts_are_asked_of_the_rules(kind):
    counts = player_counts(kind)
    assert counts and counts == list(range(counts[0], counts[-1] + 1)) and counts[0] >= 2


@pytest.mark.parametrize("kind", kinds())
def test_random_bot_games_keep_the_decider_properties(kind, tmp_path):
    for k in range(examples(2)):
        play_checked(tmp_path / str(k), kind, seed=1000 + k, max_commands=60)


@pytest.mark.slow
@pytest.mark.parametrize("kind", kinds())
def test_long_bot_games_keep_the_decider_properties(kind, tmp_path):
    ended = 0
    for k in range(examples(4)):
        ended += play_checked(tmp_path / str(k), kind, seed=50_000 + k, max_commands=400,
                              every=5).over()
    assert ended >= 1  # long games do reach the end, where nobody may act
