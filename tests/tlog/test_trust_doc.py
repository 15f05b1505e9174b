"""docs/trust.md cites its tests, and they exist (issue 20 item 9: "a test per threat"): every
`tests/PATH.py::NAME` it cites is a file that defines the test function NAME; a shorter
citation (`FILE.py::NAME`, or a bare `test_NAME`) names a test some file under tests/ defines
(`FILE.py` one of that name); and every row of the overview's threat table ("Threats, and the
check that catches each") cites at least one test by its full path.  No store needed."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "trust.md"

_FULL = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
_SHORT = re.compile(r"(?<![/\w])([\w]+\.py)::(\w+)")
_BARE = re.compile(r"`(test_\w+)`")


def _defined(path: pathlib.Path) -> set[str]:
    return set(re.findall(r"^(?:async )?def (test_\w+)\(", path.read_text(encoding="utf-8"),
                          re.M))


def _all_tests() -> dict[str, set[str]]:
    return {str(p.relative_to(ROOT)): _defined(p) for p in (ROOT / "tests").rglob("test_*.py")}


def test_every_test_trust_md_cites_exists():
    text = DOC.read_text(encoding="utf-8")
    tests = _all_tests()
    full = _FULL.findall(text)
    assert len(full) >= 30  # the overview's table alone cites more
    for path, name in full:
        assert (ROOT / path).is_file(), f"docs/trust.md cites {path}, which does not exist"
        assert name in tests[path], f"docs/trust.md cites {path}::{name}, not defined there"
    for base, name in _SHORT.findall(re.sub(_FULL, "", text)):
        holders = [p for p, names in tests.items() if p.endswith("/" + base)]
        assert holders, f"docs/trust.md cites {base}, no such test file"
        assert any(name in tests[p] for p in holders), f"{base}::{name} is not defined"
    everywhere = set().union(*tests.values())
    for name in _BARE.findall(text):
        assert name in everywhere, f"docs/trust.md cites {name}, which no test defines"


def test_every_row_of_the_threat_table_cites_a_test():
    text = DOC.read_text(encoding="utf-8")
    table = text.split("### Threats, and the check that catches each", 1)[1].split("\n#", 1)[0]
    lines = [line for line in table.splitlines() if line.startswith("|")]
    assert lines[0].startswith("| threat | artefact that catches it | the check")
    assert set(lines[1]) <= set("|-")
    rows = lines[2:]
    assert len(rows) >= 12
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        assert len(cells) == 4, row
        assert _FULL.search(cells[3]), f"a threat row cites no test: {cells[0]}"
        # the check column gives a command and its exit code
        assert "`devil " in cells[2] and re.search(r": [0-7]\b", cells[2]), cells[0]
