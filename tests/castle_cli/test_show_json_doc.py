"""docs/commands.md's `show --json` reference for Castle of the Devil is the view's real shape
(issue 10.7): the keys of every documented object are exactly the keys
engine/games/castle/view.py produces, and every knowledge entry's `what` and `reason` is
documented.  A key added, renamed or dropped in the view fails here until the doc follows."""

from __future__ import annotations

import json
import pathlib
import random
import re

from click.testing import CliRunner

from client.cli import cli
from engine.bots import Table, make_bot
from engine.service import GameService
from engine.store import MemoryStore

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def documented() -> dict[str, dict[str, set[str]]]:
    """``{table: {first column: set of backticked names in the key column}}`` for every
    ``<!-- castle-keys: NAME -->`` table of the doc."""
    out: dict[str, dict[str, set[str]]] = {}
    name = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        marker = re.match(r"<!-- castle-keys: (\w+) -->", line)
        if marker:
            name = marker.group(1)
            out[name] = {}
            continue
        if name is None:
            continue
        if not line.startswith("|"):
            if out[name]:
                name = None
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if set(cells[0]) <= set("-") or not cells[0].startswith("`"):
            continue  # the header and its rule
        for key in re.findall(r"`([^`]+)`", cells[0]):
            out[name][key] = set(re.findall(r"`([^`]+)`", cells[1]))
    return out


def keys(table: str) -> set[str]:
    return set(documented()[table])


def views_of_game(number: int):
    """The referee's view after every command of bot game ``number`` (3 to 10 players, with
    and without the variants, random or sensible bots)."""
    n = 3 + number % 8
    service = GameService(MemoryStore())
    variants = ["smuggling", "prophecy", "scoring"] if number % 2 else []
    game = service.create("castle", {"players": [f"P{i}" for i in range(n)],
                                     "variants": variants}, seed=number).game
    table = Table(service, game)
    rng = random.Random(number)
    bots = {s: make_bot("castle", "random" if number % 3 else "sensible",
                        random.Random(rng.random())) for s in range(n)}
    for _ in range(200):
        if table.over():
            break
        seat = table.waiting()[0]
        table.submit(seat, bots[seat].choose(table.states[seat], seat, table.legal(seat)))
        yield table.rules.view(table.referee, None)


def test_the_documented_view_keys_are_the_keys_the_view_produces(tmp_path):
    tables = documented()
    assert {"view", "player", "pending", "fight", "result", "declaration", "knowledge",
            "what", "reason", "options"} <= set(tables)
    frames: dict[str, set[str]] = {}
    seen = {"view": set(), "player": set(), "result": set(), "declaration": set(),
            "knowledge": set(), "options": set(), "uses": set()}
    whats, reasons, stages = set(), set(), set()
    declarations = []  # (the declaration, the players' names) of every view that had one
    def covered() -> bool:  # what the check needs to have seen to prove something
        return ({"offer", "effect", "fight"} <= set(frames)
                and {"support", "abilities", "choice", "take"} <= stages
                and bool(seen["result"] and seen["knowledge"] and seen["declaration"])
                and any(d["allies"] for d, _ in declarations))

    views = (view for number in range(40) if number < 6 or not covered()
             for view in views_of_game(number))
    for view in views:
        seen["view"] |= set(view)
        seen["options"] |= set(view["options"])
        for player in view["players"]:
            seen["player"] |= set(player)
        for frame in view["pending"]:
            frames.setdefault(frame["kind"], set()).update(frame)
            if frame["kind"] == "fight":
                stages.add(frame["stage"])
                seen["result"] |= set(frame["result"] or {})
                for use in frame["uses"]:
                    seen["uses"] |= set(use)
        if view["declaration"]:
            seen["declaration"] |= set(view["declaration"])
            declarations.append((view["declaration"], [p["name"] for p in view["players"]]))
        for entries in view["knowledge"].values():
            for entry in entries:
                seen["knowledge"] |= set(entry)
                whats.add(entry["what"])
                reasons.add(entry["reason"])
    # the games reached what the check is about (else the check below would prove little)
    assert covered(), (sorted(frames), sorted(stages))
    # the view's keys as `devil show --json --as` prints them: the service adds game and
    # version, show adds legal; damage appears only for a damaged log
    game = json.loads(CliRunner().invoke(cli, ["--store", str(tmp_path), "new", "castle",
                                               "--player", "Ann", "--player", "Ben",
                                               "--player", "Cid", "--json"]).stdout)["game"]
    shown = json.loads(CliRunner().invoke(cli, ["--store", str(tmp_path), "show", game,
                                                "--as", "Ann", "--json"]).stdout)
    assert keys("view") == seen["view"] | set(shown) | {"damage"}
    assert set(shown) == seen["view"] | {"game", "version", "legal"}
    for table in ("player", "result", "declaration", "knowledge", "options"):
        assert keys(table) == seen[table], table
    assert keys("fight") == frames["fight"]
    # the declaration's values are what its table says: `player` and `allies` are names, as
    # every other player field of the view (`turn`, `waiting_for`, `winners`), not seats
    declaration_doc = DOC.read_text(encoding="utf-8").split("<!-- castle-keys: declaration -->")[1]
    allies_row = next(line for line in declaration_doc.splitlines()
                      if line.startswith("| `allies`"))
    assert "names" in allies_row, allies_row
    for declaration, names in declarations:
        assert declaration["player"] in names, declaration
        assert isinstance(declaration["allies"], list), declaration
        assert all(isinstance(a, str) and a in names for a in declaration["allies"]), declaration
        assert declaration["player"] not in declaration["allies"], declaration
        assert isinstance(declaration["right"], bool), declaration
        assert declaration["winning_society"] in ("order", "brotherhood", None), declaration
    # every kind of open decision is documented with exactly its keys
    pending = tables["pending"]
    assert set(frames) <= set(pending)
    for kind, frame_keys in frames.items():
        if kind != "fight":
            assert pending[kind] == frame_keys, kind
    # the vocabulary: every fight stage, knowledge `what` and `reason` that occurred
    fight_doc = DOC.read_text(encoding="utf-8").split("<!-- castle-keys: fight -->")[1]
    stage_row = next(line for line in fight_doc.splitlines() if line.startswith("| `stage`"))
    assert stages <= set(re.findall(r'"([a-z-]+)"', stage_row))
    assert whats <= keys("what"), whats - keys("what")
    assert reasons <= keys("reason"), reasons - keys("reason")
    # the uses entries, as the fight's row describes them
    uses_row = next(line for line in fight_doc.splitlines() if line.startswith("| `uses`"))
    assert seen["uses"] == set(re.findall(r'"(\w+)"', uses_row.split("{")[1].split("}")[0]))
