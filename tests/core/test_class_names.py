"""No two classes in engine/ and client/ share a name (a reader, a traceback or a snapshot
names a class by its name): the tournament's organiser was a second `Desk` beside the
referee's (engine.desk.state.Desk), its fold a third `State`, its record command a second
`Record` beside the log's (engine.log.Record), its table a second `Table` beside the bots'
(engine.bots.Table)."""

from __future__ import annotations

import ast
import collections
import pathlib

from .sources import nodes

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: Names each kind defines for its own version of the same part, in the module of the same
#: name in every kind's folder (docs/architecture.md: the same names for the same parts).  A
#: kind's classes are reached through its own module (``engine.games.<kind>.events``), never
#: imported beside another kind's; its state class is named in the service's snapshots, so a
#: rename would make every snapshot unreadable.  Nothing else may repeat a name.
KIND_PARTS = {
    "GameCreated": "events.py",  # the first fact of every kind
    "GameEnded": "events.py",  # the last
    "Draw": "commands.py",  # atkr: draw a coal; castle: report the card drawn
    "State": "state.py",  # the fold's record
    "RandomBot": "bots.py",  # the bot that picks any legal command
}


def classes() -> dict[str, list[str]]:
    """class name -> the modules (paths) defining it, every class of engine/ and client/."""
    found = collections.defaultdict(list)
    for package in ("engine", "client"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in nodes(path):
                if isinstance(node, ast.ClassDef):
                    found[node.name].append(path.relative_to(ROOT).as_posix())
    return found


def is_kind_part(name: str, paths: list[str]) -> bool:
    """Whether every definition of ``name`` is a kind's own, in the part's module, one per kind."""
    module = KIND_PARTS.get(name)
    if module is None:
        return False
    kinds = []
    for path in paths:
        parts = path.split("/")
        if len(parts) != 4 or parts[1] != "games" or parts[3] != module:
            return False
        kinds.append((parts[0], parts[2]))
    return len(set(kinds)) == len(kinds)


def test_no_two_classes_share_a_name():
    shared = {name: paths for name, paths in classes().items()
              if len(paths) > 1 and not is_kind_part(name, paths)}
    assert shared == {}


def test_the_kind_parts_allowed_are_still_shared_and_the_check_sees_a_clash():
    found = classes()
    for name in KIND_PARTS:
        assert len(found[name]) > 1, name  # an entry no longer needed is removed
    assert len(found) > 150
    assert not is_kind_part("Desk", ["engine/desk/state.py", "engine/tournament/organiser.py"])
    assert not is_kind_part("State", ["engine/games/atkr/state.py", "engine/tournament/rules.py"])
    assert not is_kind_part("Draw", ["engine/games/atkr/commands.py",
                                     "engine/games/castle/events.py"])
