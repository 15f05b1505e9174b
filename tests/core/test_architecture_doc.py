"""docs/architecture.md stays true (issue 19.6): every method of the store protocol is in its
store table and nothing else is (the layer table's modules: tests/core/test_layout.py)."""

from __future__ import annotations

import inspect
import pathlib
import re

from engine.store.protocol import EventStore

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text()


def table(heading: str) -> list[str]:
    """The first cells of the table under ``## heading``."""
    section = DOC.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [row.split("|")[1] for row in rows[2:]]  # past the header and its rule


def test_every_store_method_is_in_the_store_table():
    methods = {name for name, _ in inspect.getmembers(EventStore, inspect.isfunction)
               if not name.startswith("_")}
    named = set()
    for cell in table("The store seam"):
        named.update(re.findall(r"`(\w+)[`(]", cell))
    assert methods - named == set()
    assert named - methods == set()
