"""The layout rules of docs/architecture.md: one folder per game, registered in one place, no
shared module naming a game kind, no import cycle in the CLI, and a light `devil` start."""

from __future__ import annotations

import ast
import importlib
import json
import pathlib
import re
import subprocess
import sys

from engine.games import KINDS

ROOT = pathlib.Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "engine" / "games" / "__init__.py"

#: a kind's name or title, in any case, anywhere in a file (code, strings, docstrings, comments)
KIND_WORDS = re.compile("|".join(
    [re.escape(kind) for kind in KINDS]
    + [re.escape(title) for title in KINDS.values()]
    + ["teufel", "kutschfahrt"]), re.IGNORECASE)

#: Lines allowed to mention a kind outside the kinds' folders and the registry: none.  Pin an
#: exact line here only with a reason.
OWNED_ELSEWHERE: dict[str, set[str]] = {}


def kind_folder(path: pathlib.Path) -> bool:
    """Whether ``path`` is inside engine/games/<kind>/ or client/games/<kind>/."""
    parts = path.relative_to(ROOT).parts
    return len(parts) > 3 and parts[1] == "games" and parts[2] in KINDS


def shared_modules() -> list[pathlib.Path]:
    files = sorted((ROOT / "engine").rglob("*.py")) + sorted((ROOT / "client").rglob("*.py"))
    return [f for f in files if not kind_folder(f) and f != REGISTRY]


def test_every_registered_kind_has_its_two_folders():
    for kind in KINDS:
        rules = importlib.import_module(f"engine.games.{kind}").RULES
        assert rules.kind == kind
        assert (ROOT / "engine" / "games" / kind / "__init__.py").is_file()
        manifest = importlib.import_module(f"client.games.{kind}")
        assert manifest.GROUP_COMMANDS["new"].startswith(f"client.games.{kind}.")
        assert importlib.import_module(f"client.games.{kind}.render").table
        assert (rules.audit is None) == (manifest.AUDIT is None)


def test_no_shared_module_names_a_game_kind():
    offences = []
    checked = shared_modules()
    assert len(checked) > 15  # the scan sees the shared engine and the shared CLI
    for path in checked:
        rel = path.relative_to(ROOT).as_posix()
        allowed = OWNED_ELSEWHERE.get(rel, set())
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if KIND_WORDS.search(line) and line.strip() not in allowed:
                offences.append(f"{rel}:{number}: {line.strip()}")
    assert offences == []


def test_the_layout_check_catches_a_mention(tmp_path):
    for text in ('x = "atkr"', "def castle_thing(): pass", "# Auf Teufel komm raus",
                 '"""Die Kutschfahrt zur Teufelsburg"""', "CASTLE_RULE = 1"):
        assert KIND_WORDS.search(text), text
    assert not KIND_WORDS.search("the devil's game: kinds come from engine.games")


def _client_imports(path: pathlib.Path) -> set[str]:
    """The client modules ``path`` imports at module level (not inside functions)."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    if path.name == "__init__.py":
        module = package
    out = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [target] + [f"{target}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        out.update(n for n in names if n.startswith("client") and n != module)
    return out


def test_no_import_cycle_between_client_modules():
    files = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
             for p in (ROOT / "client").rglob("*.py")}
    graph = {m: {t for t in _client_imports(p) if t in files} for m, p in files.items()}
    assert "client.group" in graph["client.cli"]
    assert not any("client.cli" in deps for deps in graph.values())  # nothing imports the CLI

    def cycle_from(start):
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    return path + [nxt]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, path + [nxt]))
        return None

    assert [c for c in map(cycle_from, graph) if c] == []


def test_importing_the_cli_loads_no_heavy_module():
    heavy = ["engine.service", "engine.codec", "engine.log", "starlette", "uvicorn", "httpx",
             "msgpack", "cattrs", "hypothesis", "client.api", "client.remote"]
    code = ("import sys, json, client.cli; "
            f"print(json.dumps([m for m in {heavy!r} if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert json.loads(out) == []


def test_every_command_has_one_json_option():
    from click.testing import CliRunner

    from client.cli import cli

    ctx = cli.make_context("devil", ["--help"], resilient_parsing=True)
    missing = []

    def walk(group, prefix):
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if hasattr(command, "list_commands"):
                walk(command, prefix + [name])
                continue
            options = [p for p in command.params if "--json" in getattr(p, "opts", [])]
            if len(options) != 1:
                missing.append(" ".join(prefix + [name]))

    walk(cli, [])
    assert missing == []
    assert CliRunner().invoke(cli, ["--help"]).exit_code == 0


def _layer_table() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text()
    start = text.index("| path | what | may import |")
    return text[start:text.index("\n\nAdding a game is adding")]


def test_the_layer_table_lists_every_module_and_every_kind_has_each_common_part():
    """docs/architecture.md's layer table names every module of engine/ and client/ by its
    path; a kind's module is named either as `engine|client/games/<kind>/NAME.py` (a part every
    kind has, under the same name) or by its own path (a part only that kind has)."""
    table = _layer_table()
    listed = set(re.findall(r"`((?:engine|client)/[\w/<>]+\.py)`", table))
    modules = sorted((ROOT / "engine").rglob("*.py")) + sorted((ROOT / "client").rglob("*.py"))
    missing = []
    for path in modules:
        rel = path.relative_to(ROOT).as_posix()
        parts = rel.split("/")
        generic = "/".join(parts[:2] + ["<kind>"] + parts[3:]) if kind_folder(path) else None
        if rel not in listed and generic not in listed:
            missing.append(rel)
    assert missing == []
    for entry in listed:  # no stale row, and a common part is there in every kind
        paths = ([entry.replace("<kind>", kind) for kind in KINDS] if "<kind>" in entry
                 else [entry])
        for rel in paths:
            assert (ROOT / rel).is_file(), (entry, rel)
        if "<kind>" not in entry and len(entry.split("/")) > 3 and entry.split("/")[1] == "games":
            kind = entry.split("/")[2]
            generic = entry.replace(f"/{kind}/", "/<kind>/", 1)
            assert generic not in listed, entry
