"""Fuzz: command objects submitted to GameService in random states of both games (issue 4a).

The only outcomes allowed are success or a DevilError (IllegalCommand, UsageError, CodecError,
NotAllowed, ...); a refused command appends nothing (the log's bytes are unchanged), and a
successful one leaves a log that `devil verify` still accepts."""

from __future__ import annotations

import random

import attrs
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import DevilError
from engine.game import REFEREE
from engine.replay import verify_bytes
from engine.service import CONSOLE, GameService
from engine.store import MemoryStore

from .conftest import StoredGameChanged, case, fuzz_settings
from .strategies import INTEGERS, JSON, TEXT

NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"]
GAMES = st.one_of(
    st.tuples(st.just("atkr"), st.integers(2, 4), st.booleans()),
    st.tuples(st.just("castle"), st.integers(3, 6), st.just(False)),
)


def played(kind: str, players: int, physical: bool, seed: int, steps: int):
    """A service with one game of ``kind`` after ``steps`` random legal commands."""
    service = GameService(MemoryStore())
    options = {"players": NAMES[:players], "physical": physical}
    game = service.create(kind, options, seed=None if physical else seed).game
    rng = random.Random(seed)
    for _ in range(steps):
        loaded = service.load(game)
        if loaded.rules.is_over(loaded.state):
            break
        moves = [c for seat in range(players) for c in service.legal(game, seat)]
        if not moves:
            break
        service.submit(game, rng.choice(moves), actor=REFEREE)
    return service, game


def values_of(maps: list[dict]) -> list:
    """Every value in ``maps`` (legal commands): fields get plausible values from these."""
    out = []
    for item in maps:
        out.extend(v for k, v in item.items() if k != "type")
    return out or [0]


@st.composite
def command_maps(draw, rules, legal: list[dict], names: list[str]):
    """A command map: a legal one mutated, a well-typed-looking one, or garbage."""
    plausible = st.one_of(st.sampled_from(values_of(legal)), st.sampled_from(names), INTEGERS,
                          TEXT, JSON)
    how = draw(st.sampled_from(["mutated", "shaped", "garbage"] if legal
                               else ["shaped", "garbage"]))
    if how == "mutated":
        command = dict(draw(st.sampled_from(legal)))
        fields = [k for k in command if k != "type"]
        edit = draw(st.sampled_from(["replace", "drop", "add", "retype", "none"]))
        if edit == "replace" and fields:
            command[draw(st.sampled_from(fields))] = draw(plausible)
        elif edit == "drop" and fields:
            del command[draw(st.sampled_from(fields + ["type"]))]
        elif edit == "add":
            command[draw(TEXT)] = draw(plausible)
        elif edit == "retype":
            command["type"] = draw(st.one_of(st.sampled_from(rules.commands.types()), JSON))
        return command
    if how == "shaped":
        tag = draw(st.sampled_from(rules.commands.types()))
        cls = rules.commands.by_type[tag]
        command = {"type": tag}
        for field in attrs.fields(cls):
            if draw(st.integers(0, 9)):  # usually present
                command[field.name] = draw(plausible)
        return command
    return draw(st.one_of(JSON, st.dictionaries(TEXT, JSON, max_size=4)))


@given(data=st.data(), game=GAMES, seed=st.integers(0, 2**32), steps=st.integers(0, 80))
@fuzz_settings()
def test_a_fuzzed_command_is_done_or_refused_cleanly(data, game, seed, steps):
    kind, players, physical = game
    service, game_id = played(kind, players, physical, seed, steps)
    loaded = service.load(game_id)
    rules = loaded.rules
    names = rules.seats(loaded.state)
    legal = [rules.commands.to_map(c) for seat in range(players)
             for c in service.legal(game_id, seat)]
    for _ in range(data.draw(st.integers(1, 4), label="commands")):
        command = data.draw(command_maps(rules, legal, names), label="command")
        actor = data.draw(st.sampled_from([CONSOLE, REFEREE, *range(players)]), label="actor")
        command_id = data.draw(st.one_of(st.none(), TEXT, st.just("retry-1")), label="id")
        before = service.store.log_bytes(game_id)
        with case(f"commands ({kind})"):
            try:
                service.submit(game_id, command, actor=actor, command_id=command_id)
            except DevilError:
                if service.store.log_bytes(game_id) != before:
                    raise StoredGameChanged(f"a refused {command!r} changed {game_id}") from None
                continue
            after = service.store.log_bytes(game_id)
            result = verify_bytes(after)
            if not result.ok:
                raise StoredGameChanged(f"{command!r} left a log that does not verify: "
                                        f"{result.reason}")
