"""Properties every game must have, written once and run for each registered kind.

Random games are played by the kind's own bots through :class:`GameService` on a file store
(as the CLI and the HTTP app use it).  After each checked command (every command early in a
game, then every few, and the last):

* (c) for every seat, every command of ``GameService.legal(game, seat)`` (the kind's
  ``legal_commands`` on the seat's own fold) is accepted by ``decide`` on the referee's state,
  and ``decide`` changes nothing;
* (b) for every seat and the public viewer, ``GameService.stream(game, seat)`` is the log passed
  through ``rules.visible`` (the one visibility rule), and ``GameService.view(game, seat)`` is
  ``rules.view`` of the fold of that stream (plus the ``game`` and ``version`` keys the service
  adds), which is also ``rules.view`` of the referee's whole state for that viewer (one answer
  for one view);

and when the game has ended (nobody may act any more):

* (a) the fold of every prefix of the log that ends at a command equals the service's state
  right after that command, and a fresh service reading the store folds to the final state.

The default run plays two whole games of each kind and of each setup its test folder lists
(``tests/<kind>/setups.py``: its variants, tests.registry.setups); the slow variant plays more,
checked more densely, and DEVIL_TEST_SCALE multiplies both.
"""

from __future__ import annotations

import copy
import random
import sys

import attrs
import pytest

from engine.bots import bot_names, make_bot
from engine.chance import SeededChance
from engine.errors import UsageError
from engine.game import PUBLIC, REFEREE
from engine.service import GameService
from engine.store import FileStore

from ..registry import kinds, rules_for, setups
from ..scale import examples


def new_service(root) -> GameService:
    return GameService(FileStore(str(root)))


def player_counts(kind: str, options: dict | None = None) -> list[int]:
    """The numbers of players ``kind`` accepts (with the new-game ``options``), asked of its
    own ``setup``."""
    rules = rules_for(kind)
    counts = []
    for n in range(1, 13):
        try:
            rules.setup({**(options or {}), "players": [f"P{i}" for i in range(n)]},
                        SeededChance(1, "00"))
        except UsageError:
            continue
        counts.append(n)
    return counts


def bare_view(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in ("game", "version")}


class Checked:
    """One game in a service.  Alongside it the test keeps what a client would: the referee's
    fold and every viewer's fold of the submitted events as ``visible`` shows them (``mine``),
    and, brought up to date at each check, every viewer's fold of the stream the service gives
    it (``folds``)."""

    def __init__(self, service: GameService, kind: str, players: int, seed: int,
                 options: dict | None = None):
        self.service, self.rules = service, rules_for(kind)
        self.names = [f"P{i}" for i in range(players)]
        self.game = service.create(kind, {**(options or {}), "players": self.names},
                                   seed=seed).game
        self.viewers = list(range(players)) + [PUBLIC]
        self.referee = self.rules.initial()
        self.mine = {v: self.rules.initial() for v in self.viewers}
        self.folds = {v: self.rules.initial() for v in self.viewers}
        self.version = self.seen = 0  # the last seq applied to ``mine`` / to ``folds``
        # legality does not depend on the draws: any chance will do for trying commands
        self.chance = SeededChance(seed, "00")
        self.snapshots = {}
        self.tried = 0
        first = service.stream(self.game)  # the events of the game's creation
        self.apply([record for record, _ in first], [event for _, event in first])

    def apply(self, records: list, events: list) -> None:
        """Fold newly recorded events into the client-side folds; snapshot the service."""
        rules = self.rules
        assert [r.seq for r in records] == list(range(self.version + 1,
                                                      self.version + 1 + len(events)))
        for event in events:
            self.referee = rules.evolve(self.referee, event)
            for viewer in self.viewers:
                shown = rules.visible(event, viewer)  # the one visibility rule
                if shown is not None:
                    self.mine[viewer] = rules.evolve(self.mine[viewer], shown)
        self.version += len(events)
        self.snapshots[self.version] = copy.deepcopy(self.service.state(self.game))

    def submit(self, seat: int, command) -> None:
        result = self.service.submit(self.game, command, actor=seat)
        assert result.events and not result.repeated
        self.apply(result.records, result.events)

    def check_streams(self) -> None:
        """(b), first half: each viewer's new stream entries are the log's new events passed
        through the one visibility rule (``GameRules.visible``), and their fold is the
        client-side fold."""
        rules, service, game = self.rules, self.service, self.game
        logged = [e for _, e in service.stream(game, REFEREE, after=self.seen)]
        assert len(logged) == self.version - self.seen
        for viewer in self.viewers:
            redacted = [rules.visible(e, viewer) for e in logged]
            shown = [e for _, e in service.stream(game, viewer, after=self.seen)]
            assert shown == [e for e in redacted if e is not None], viewer
            self.folds[viewer] = rules.fold(shown, self.folds[viewer])
            assert self.folds[viewer] == self.mine[viewer], viewer
        self.seen = self.version

    def check_views(self) -> None:
        """(b), second half: the service's view of each viewer is the view of its fold, and
        the view of the referee's whole state for that viewer."""
        for viewer in self.viewers:
            view = self.service.view(self.game, viewer)
            assert view["game"] == self.game and view["version"] == self.seen
            assert bare_view(view) == self.rules.view(self.folds[viewer], viewer), viewer
            assert bare_view(view) == self.rules.view(self.referee, viewer), viewer

    def legal(self) -> dict[int, list]:
        """Every seat's legal commands, from its own fold."""
        return {seat: self.rules.legal_commands(self.mine[seat], seat)
                for seat in range(len(self.names))}

    def check_legal_commands(self) -> None:
        """(c): the service offers each seat the legal commands of its fold, and ``decide``
        accepts every one of them on the referee's state without changing it."""
        rules = self.rules
        state = self.service.state(self.game)
        assert state == self.referee
        before = copy.deepcopy(state)
        chance = None if rules.physical(state) else self.chance
        for seat, commands in self.legal().items():
            assert self.service.legal(self.game, seat) == commands, seat
            for command in commands:
                assert rules.decide(state, command, chance), command  # raises if refused
                self.tried += 1
        assert state == before, "decide changed the state"

    def check(self) -> None:
        self.check_streams()
        self.check_views()
        self.check_legal_commands()

    def check_prefix_folds(self) -> None:
        """(a): fold the whole log once, comparing at every command boundary."""
        rules = self.rules
        events = [e for _, e in self.service.stream(self.game)]
        assert len(events) == self.version == max(self.snapshots)
        state = rules.initial()
        for count, event in enumerate(events, 1):
            state = rules.evolve(state, event)
            if count in self.snapshots:
                assert state == self.snapshots[count], count
        assert len(self.snapshots) >= 2

    def over(self) -> bool:
        return bool(self.rules.is_over(self.referee))


def play_checked(root, kind: str, seed: int, max_commands: int, dense: int, every: int,
                 options: dict | None = None) -> Checked:
    """A random bot game of ``kind`` (with the new-game ``options``) to its end or
    ``max_commands``.  (b) and (c) are checked
    after each of the first ``dense`` commands, then after every ``every``-th, and at the end
    (the service reads the whole log for every call, so checking every command of a long game
    costs time quadratic in its length); (a) is checked at every command."""
    rng = random.Random(seed)
    counts = player_counts(kind, options)
    assert counts, f"{kind} {options} accepts no number of players"
    players = rng.choice(counts)
    names = bot_names(kind)
    bots = {seat: make_bot(kind, rng.choice(names), random.Random(rng.random()))
            for seat in range(players)}
    g = Checked(new_service(root), kind, players, seed, options)
    commands = 0
    while True:
        if commands <= dense or commands % every == 0 or g.over() or commands == max_commands:
            g.check()
        if g.over() or commands == max_commands:
            break
        legal = g.legal()
        waiting = [seat for seat in legal if legal[seat]]
        assert waiting, "the game is not over but nobody may act"
        seat = rng.choice(waiting)
        command = bots[seat].choose(g.mine[seat], seat, legal[seat])
        assert command in legal[seat]
        g.submit(seat, command)
        commands += 1
    if g.over():
        assert not any(g.legal().values()), "a seat may act in a finished game"
    g.check_prefix_folds()
    assert len(g.snapshots) == commands + 1
    # a fresh service, reading the files from disk, folds to the same state
    assert new_service(root).state(g.game) == g.snapshots[g.version]
    assert g.tried > 0
    return g


@pytest.mark.parametrize("kind", kinds())
def test_player_counts_are_asked_of_the_rules(kind):
    counts = player_counts(kind)
    assert counts and counts == list(range(counts[0], counts[-1] + 1)) and counts[0] >= 2


SETUPS = pytest.mark.parametrize("kind, options", [(kind, options) for kind, _, options
                                                    in setups()],
                                  ids=[f"{kind}-{name}" if name else kind
                                       for kind, name, _ in setups()])


def assert_ended(games: list, options: dict) -> None:
    """Whole games: the end, where nobody may act, is checked too.  Every plain game ends
    within the command cap; in a setup, bots that only declare what they can prove may never
    learn enough (Castle's advanced-3p shows one society card of three), so a game may stop at
    the cap there (every check still ran on it), but at least one must end."""
    ended = [g.over() for g in games]
    assert all(ended) if not options else any(ended), ended


@SETUPS
def test_random_bot_games_keep_the_decider_properties(kind, options, tmp_path):
    assert_ended([play_checked(tmp_path / str(k), kind, seed=1000 + k, max_commands=3000,
                               dense=30, every=10, options=options)
                  for k in range(examples(2))], options)


@pytest.mark.slow
@SETUPS
def test_long_bot_games_keep_the_decider_properties(kind, options, tmp_path):
    assert_ended([play_checked(tmp_path / str(k), kind, seed=50_000 + k, max_commands=3000,
                               dense=100, every=10, options=options)
                  for k in range(examples(4))], options)


def test_the_setups_are_the_kinds_own_and_each_is_playable():
    """Every kind is played plain, and every listed setup is one its rules accept."""
    listed = setups()
    assert [(kind, name) for kind, name, _ in listed if not name] == [(k, "") for k in kinds()]
    for kind, name, options in listed:
        assert "players" not in options and player_counts(kind, options), (kind, name)


@pytest.mark.parametrize("kind", kinds())
def test_the_checks_catch_a_redact_that_hides_nothing(kind, tmp_path, monkeypatch):
    """The suite can fail: with rules whose ``redact`` shows every seat everything, the
    service's streams (redacted by the real rules) no longer match what the test expects."""
    leaky = attrs.evolve(rules_for(kind), redact=lambda event, viewer: event)
    monkeypatch.setattr(sys.modules[__name__], "rules_for", lambda _kind: leaky)
    with pytest.raises(AssertionError) as failed:
        play_checked(tmp_path, kind, seed=1000, max_commands=20, dense=20, every=1)
    assert failed.traceback[-1].name == "check_streams"
