"""docs/architecture.md stays true (issue 19.6): every module of engine/ and client/ is in its
layer table, every method of the store protocol in its store table, and nothing listed there
is missing from the tree."""

from __future__ import annotations

import inspect
import pathlib
import re

from engine.games import KINDS
from engine.store.protocol import EventStore

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text()


def table(heading: str) -> list[str]:
    """The first cells of the table under ``## heading``."""
    section = DOC.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [row.split("|")[1] for row in rows[2:]]  # past the header and its rule


def listed_paths() -> list[str]:
    """Every path named in the layer table's first column (``<kind>`` expanded)."""
    out = []
    for cell in table("Layers"):
        for path in re.findall(r"`([^`]+)`", cell):
            out += [path.replace("<kind>", kind) for kind in KINDS] if "<kind>" in path else [path]
    return out


def covered(module: str, paths: list[str]) -> bool:
    return any(module == p or (p.endswith("/") and module.startswith(p)) for p in paths)


def test_every_module_is_in_the_layer_table():
    paths = listed_paths()
    modules = sorted(p.relative_to(ROOT).as_posix()
                     for top in ("engine", "client") for p in (ROOT / top).rglob("*.py"))
    assert len(modules) > 60
    assert [m for m in modules if not covered(m, paths)] == []


def test_every_path_in_the_layer_table_exists():
    missing = [p for p in listed_paths() if not (ROOT / p).exists()]
    assert missing == []


def test_every_store_method_is_in_the_store_table():
    methods = {name for name, _ in inspect.getmembers(EventStore, inspect.isfunction)
               if not name.startswith("_")}
    named = set()
    for cell in table("The store seam"):
        named.update(re.findall(r"`(\w+)[`(]", cell))
    assert methods - named == set()
    assert named - methods == set()
